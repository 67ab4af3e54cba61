"""House rules that can't be played together, and why, in words for whoever chose them.

`RuleSet` refuses a clash when it is made (so `parse_rules` does too), with every reason.
The rule behind each: a rule set has one name, so a choice that would change nothing under
the others is refused rather than carried along unused, as `target` is with a set number of
deals.

>>> from rules.ruleset import parse_rules
>>> parse_rules("draw-on-pass 2-players").name
'2-players,draw-on-pass'
>>> try:
...     parse_rules("draw-on-pass")
... except ValueError as why:
...     print(why)
'draw-on-pass' needs a stock to draw from: play it with two or three players
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.deal_options import Dragon, DrawOnPass, PaysForTable, Scoring
from rules.i18n import gettext
from rules.options import PenaltyScale, TwosRule
from rules.penalty_scales import scale_token

if TYPE_CHECKING:
    from rules.ruleset import RuleSet


def clashes(rules: RuleSet) -> list[str]:
    """Every reason these choices can't be played together; empty when they can."""
    problems = []
    if rules.draw_on_pass is DrawOnPass.ON and rules.players == 4:
        problems.append(
            gettext("'%(draw)s' needs a stock to draw from: play it with two or three players")
            % {"draw": DrawOnPass.ON.value}
        )
    if rules.scoring is not Scoring.CARDS_LEFT:
        problems += _cards_left_only(rules)
    if rules.pays_for_table is PaysForTable.ON:
        problems += _paying_for_the_table(rules)
    if rules.dragon is Dragon.ON and rules.cards_dealt != 13:
        problems.append(
            gettext(
                "'%(dragon)s' is thirteen cards, one of every rank: it needs 13 cards dealt to"
                " each player, not %(count)s"
            )
            % {"dragon": Dragon.ON.value, "count": rules.cards_dealt}
        )
    return problems


def _cards_left_only(rules: RuleSet) -> list[str]:
    """The choices that only change what cards left cost, under another scoring."""
    problems = [
        gettext(
            "'%(scoring)s' doesn't charge for cards left, so '%(choice)s' would change nothing:"
            " leave it out"
        )
        % {"scoring": rules.scoring.value, "choice": scale_token(choice, rules.doubled_from)}
        for choice, default in (
            (rules.penalties, PenaltyScale.STANDARD),
            (rules.twos, TwosRule.OFF),
        )
        if choice is not default
    ]
    if rules.dragon is Dragon.ON:
        problems.append(
            gettext(
                "'%(dragon)s' charges everyone else for all thirteen cards: it can't be played"
                " with '%(scoring)s'"
            )
            % {"dragon": Dragon.ON.value, "scoring": rules.scoring.value}
        )
    return problems


def _paying_for_the_table(rules: RuleSet) -> list[str]:
    problems = []
    if rules.scoring in (Scoring.FINISHING_ORDER, Scoring.POINTS_BY_HAND):
        problems.append(
            gettext(
                "'%(pays)s' hands every loser's penalty to one player: it can't be played with"
                " '%(scoring)s'"
            )
            % {"pays": PaysForTable.ON.value, "scoring": rules.scoring.value}
        )
    if rules.players == 2:
        problems.append(
            gettext(
                "'%(pays)s' needs three or four players: with two, the loser only ever pays"
                " their own penalty"
            )
            % {"pays": PaysForTable.ON.value}
        )
    return problems
