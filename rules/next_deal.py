"""Who deals the next deal, and who leads it.

The winner of a deal deals the next (the seed's rule, under every house rule). Who leads is
the lead rule's: by default whoever holds the lowest 3 (3♦, or 3♣ under Pusoy Dos and Bridge
suits), or the lowest card dealt when part of the pack is set aside or kept as a stock; or the
last deal's winner (`winner-leads`) or loser (`loser-leads`). Before the first deal nobody
knows who deals (the table settles it) and the lowest card leads, whatever the rule.

>>> from rules.deal_checks import DealResult
>>> from rules.deal_score import score_deal
>>> from rules.ruleset import parse_rules
>>> next_deal(DEFAULT_RULES).sentence(["Ann", "Ben", "Cara", "Dev"])
'Whoever holds 3♦ leads'
>>> rules = parse_rules("loser-leads")
>>> last = score_deal(DealResult((0, 5, 13, 10)), rules)
>>> next_deal(rules, last).sentence(["Ann", "Ben", "Cara", "Dev"])
'Ann deals; Cara leads'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.cards import Card
from rules.deal_options import Lead
from rules.deal_score import ScoredDeal
from rules.i18n import gettext
from rules.plays import lowest_card
from rules.ruleset import DEFAULT_RULES, RuleSet


@dataclass(frozen=True, slots=True)
class NextDeal:
    """Who deals and who leads the next deal, as seats.

    `dealer` is None before the first deal (the table decides). `leader` is None when a card
    decides: whoever holds `lowest_card` when `whole_pack_dealt`, else whoever holds the lowest
    card dealt (with two players, or three with a stock, the lowest 3 may not be dealt).
    """

    dealer: int | None
    leader: int | None
    lowest_card: Card
    whole_pack_dealt: bool

    def sentence(self, names: Sequence[str]) -> str:
        """ "Ann deals; Ben leads", "Ann deals; whoever holds 3♦ leads"…, in the active
        language; a page puts "Next:" before it."""
        if self.leader is not None and self.leader == self.dealer:
            return gettext("%(dealer)s deals and leads") % {"dealer": names[self.leader]}
        if self.leader is not None:
            leads = gettext("%(leader)s leads") % {"leader": names[self.leader]}
        elif self.whole_pack_dealt:
            leads = gettext("whoever holds %(card)s leads") % {"card": self.lowest_card}
        else:
            leads = gettext("whoever holds the lowest card dealt leads")
        if self.dealer is None:
            return leads[:1].upper() + leads[1:]
        return gettext("%(dealer)s deals; %(leads)s") % {
            "dealer": names[self.dealer],
            "leads": leads,
        }


def next_deal(rules: RuleSet = DEFAULT_RULES, last: ScoredDeal | None = None) -> NextDeal:
    """Who deals and leads after `last` (the deal just scored; None before the first).

    >>> next_deal(DEFAULT_RULES).dealer is None
    True
    """
    dealer = None if last is None else last.winner
    match rules.lead:
        case Lead.WINNER if last is not None:
            leader: int | None = last.winner
        case Lead.LOSER if last is not None:
            leader = last.loser
        case _:
            leader = None
    return NextDeal(dealer, leader, lowest_card(rules), rules.whole_pack_dealt)
