"""Named sets of house rules a club can start a season from, as seed 004's "Variations"
describes the tables that play them, and the target score that fits a scoring.

A preset is a whole `RuleSet` for four players; a club changes what it plays differently.

>>> PRESETS["pusoy-dos"].rules.name
'pusoy-dos-suits,pusoy-dos-scoring,to-15'
>>> proposed_target(RuleSet(scoring=Scoring.FINISHING_ORDER, players=3))
25
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rules.deal_options import Dragon, Scoring
from rules.deal_score import PLACES
from rules.i18n import gettext, gettext_noop, ngettext
from rules.options import Finish, SuitOrder
from rules.ruleset import DEFAULT_TARGET, RuleSet

# A sitting of Big Two is about a dozen deals: the rule book's 100 points, at the 8 or so a
# loser pays a deal for the cards left. A target that fits another scoring keeps that length.
DEALS_A_SITTING = 12
# What a loser typically pays a deal, by scoring, where it isn't the places' average: for cards
# left about 8 (hands of 3 to 9 cards, now and then ten or more); under Pusoy Dos 1, or 2 when
# the winner goes out on a two, so about 1.25. Points by hand are the table's own, most often
# worked out from the cards left: taken to be on that scale.
_LOSER_PAYS = {Scoring.CARDS_LEFT: 8.0, Scoring.PUSOY_DOS: 1.25, Scoring.POINTS_BY_HAND: 8.0}


def loser_pays(rules: RuleSet) -> float:
    """About what a player who doesn't go out pays a deal under these rules: under finishing
    order the average of the places after the first."""
    if rules.scoring is Scoring.FINISHING_ORDER:
        behind = PLACES[rules.players][1:]
        return sum(behind) / len(behind)
    return _LOSER_PAYS[rules.scoring]


def proposed_target(rules: RuleSet) -> int:
    """The target score that makes a match of about `DEALS_A_SITTING` deals under these rules'
    scoring: the rule book's 100 where a deal costs cards left (or points on that scale), else
    a dozen deals' worth, to the nearest 5.

    >>> proposed_target(RuleSet()), proposed_target(RuleSet(scoring=Scoring.PUSOY_DOS))
    (100, 15)
    """
    if rules.scoring in (Scoring.CARDS_LEFT, Scoring.POINTS_BY_HAND):
        return DEFAULT_TARGET
    return max(5, round(DEALS_A_SITTING * loser_pays(rules) / 5) * 5)


def target_reason(rules: RuleSet) -> str:
    """Why `proposed_target` fits these rules' scoring, in a sentence: "Under Pusoy Dos
    scoring a loser pays about 1 point a deal, so 100 points would take about 80 deals: 15 is
    a match of about a dozen."
    """
    target = proposed_target(rules)
    pays = loser_pays(rules)
    if rules.scoring is Scoring.POINTS_BY_HAND:
        return gettext(
            "Under points by hand the table sets the points: 100, the rule book's target, fits"
            " points worked out from the cards left."
        )
    if target == DEFAULT_TARGET:
        return gettext(
            "Under %(scoring)s a loser pays about %(points)s points a deal, so 100 points is a"
            " match of about a dozen deals."
        ) % {"scoring": rules.scoring.label, "points": round(pays)}
    return ngettext(
        "Under %(scoring)s a loser pays about %(points)s point a deal, so 100 points would take"
        " about %(deals)s deals: %(target)s is a match of about a dozen.",
        "Under %(scoring)s a loser pays about %(points)s points a deal, so 100 points would"
        " take about %(deals)s deals: %(target)s is a match of about a dozen.",
        round(pays),
    ) % {
        "scoring": rules.scoring.label,
        "points": round(pays),
        "deals": round(DEFAULT_TARGET / pays),
        "target": target,
    }


def deals_to_finish(rules: RuleSet) -> int | None:
    """About how many deals a match by these rules lasts: its agreed number, or for a target
    the deals a loser takes to pay it at what a loser typically pays (`loser_pays`), as
    `target_reason` reckons; None for an open-ended match, which lasts as long as the table
    plays.

    >>> deals_to_finish(RuleSet()), deals_to_finish(RuleSet(scoring=Scoring.PUSOY_DOS))
    (13, 80)
    """
    if rules.finish is Finish.DEALS:
        return rules.deals
    if rules.finish is Finish.TARGET:
        return math.ceil(rules.target / loser_pays(rules))
    return None


def target_within(rules: RuleSet, deals: int) -> int:
    """The highest target these rules' scoring reaches in about `deals` deals, as
    `deals_to_finish` reckons.

    >>> target_within(RuleSet(), 500), target_within(RuleSet(scoring=Scoring.PUSOY_DOS), 500)
    (4000, 625)
    """
    return math.floor(deals * loser_pays(rules))


@dataclass(frozen=True, slots=True)
class Preset:
    """A named set of house rules: `key` for a form; `label` and `explained` in the active
    language (`name` and `about` are their untranslated words)."""

    key: str
    name: str
    about: str
    rules: RuleSet

    @property
    def label(self) -> str:
        return gettext(self.name)

    @property
    def explained(self) -> str:
        return gettext(self.about)


_PUSOY_DOS = RuleSet(suits=SuitOrder.PUSOY_DOS, scoring=Scoring.PUSOY_DOS)
_PLAYED_OUT = RuleSet(suits=SuitOrder.PUSOY_DOS, scoring=Scoring.FINISHING_ORDER)

PRESETS: dict[str, Preset] = {
    preset.key: preset
    for preset in (
        Preset(
            "standard",
            gettext_noop("Standard"),
            gettext_noop(
                "The rule book: the 3♦ opens, spades the highest suit, 1 point a card left (2 a"
                " card from ten, 39 for all thirteen)."
            ),
            RuleSet(),
        ),
        Preset(
            "hong-kong",
            gettext_noop("Hong Kong"),
            gettext_noop(
                "The standard rules with the dragon: a hand of one card of every rank wins at"
                " once, and everyone else pays for all thirteen."
            ),
            RuleSet(dragon=Dragon.ON),
        ),
        Preset(
            "taiwan",
            gettext_noop("Taiwan"),
            gettext_noop(
                "Bridge suits: clubs lowest, then diamonds, hearts and spades; the 3♣ opens."
                " Scored as the standard rules."
            ),
            RuleSet(suits=SuitOrder.BRIDGE),
        ),
        Preset(
            "pusoy-dos",
            gettext_noop("Pusoy Dos (Philippines)"),
            gettext_noop(
                "Diamonds the highest suit and the 3♣ opens; every loser pays what the winner"
                " earned: 1 point, or 2, 4, 8 or 16 for going out on twos."
            ),
            RuleSet(
                suits=SuitOrder.PUSOY_DOS,
                scoring=Scoring.PUSOY_DOS,
                target=proposed_target(_PUSOY_DOS),
            ),
        ),
        Preset(
            "pusoy-dos-played-out",
            gettext_noop("Pusoy Dos, played to the last player"),
            gettext_noop(
                "Pusoy Dos suits, and each deal is played on until one player is left: first out"
                " 0, then 1, 3 and 5."
            ),
            RuleSet(
                suits=SuitOrder.PUSOY_DOS,
                scoring=Scoring.FINISHING_ORDER,
                target=proposed_target(_PLAYED_OUT),
            ),
        ),
    )
}
