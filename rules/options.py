"""The choices a table makes, one enum each: suit order, straights, flushes, penalties, the
twos rule, the finish line and the number of players.

Each member has a token (its value; `Players.token` for the counts), words for a form
(`label`) and a sentence of help (`explained`): a `rules.choices.Choice` is written with all
three, and the counts, numbers a rule set holds, put their number into their words.
`rules.ruleset.RuleSet` holds one choice of each, and its name joins the tokens of the choices
that differ from the defaults.
"""

from __future__ import annotations

from enum import IntEnum

from rules.cards import Rank, Suit
from rules.choices import Choice
from rules.i18n import gettext, gettext_noop
from rules.penalty_scales import (  # noqa: F401 (where the other options are)
    STANDARD_PENALTIES,
    PenaltyBand,
    PenaltyScale,
)


class SuitOrder(Choice):
    """Which suit breaks ties, lowest first; the 3 of the lowest suit opens every deal.

    >>> [suit.symbol for suit in SuitOrder.PUSOY_DOS.order]
    ['♣', '♠', '♥', '♦']
    >>> SuitOrder.BRIDGE.label
    'Bridge suits (♣ < ♦ < ♥ < ♠)'
    """

    STANDARD = (
        "standard-suits",
        gettext_noop("standard suits (♦ < ♣ < ♥ < ♠)"),
        gettext_noop(
            "Diamonds lowest, then clubs, hearts and spades highest; the 3♦ opens every deal."
        ),
    )
    PUSOY_DOS = (
        "pusoy-dos-suits",
        gettext_noop("Pusoy Dos suits (♣ < ♠ < ♥ < ♦)"),
        gettext_noop(
            "As in the Philippines: clubs lowest, then spades, hearts and diamonds highest;"
            " the 3♣ opens every deal."
        ),
    )
    BRIDGE = (
        "bridge-suits",
        gettext_noop("Bridge suits (♣ < ♦ < ♥ < ♠)"),
        gettext_noop(
            "As at some tables in Taiwan and Hong Kong: clubs lowest, then diamonds, hearts and"
            " spades highest; the 3♣ opens every deal."
        ),
    )

    @property
    def order(self) -> tuple[Suit, ...]:
        """The four suits, lowest first."""
        return _SUIT_ORDERS[self]


_SUIT_ORDERS = {
    SuitOrder.STANDARD: (Suit.DIAMONDS, Suit.CLUBS, Suit.HEARTS, Suit.SPADES),
    SuitOrder.PUSOY_DOS: (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS),
    SuitOrder.BRIDGE: (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES),
}
# Suit → 0 (lowest) … 3 (highest), per order: `suit_strength` runs for every card classified.
SUIT_STRENGTHS = {
    suits: {suit: strength for strength, suit in enumerate(order)}
    for suits, order in _SUIT_ORDERS.items()
}


class Straights(Choice):
    """Which five ranks in a row make a straight, and how straights rank.

    >>> ["-".join(rank.label for rank in run) for run in Straights.TWO_HIGH.runs[-2:]]
    ['10-J-Q-K-A', 'J-Q-K-A-2']
    >>> ["-".join(rank.label for rank in run) for run in Straights.ACE_TWO_HIGH.runs[-3:]]
    ['10-J-Q-K-A', '2-3-4-5-6', 'A-2-3-4-5']
    """

    STANDARD = (
        "standard-straights",
        gettext_noop("standard straights"),
        gettext_noop(
            "A-2-3-4-5 is the lowest straight, then 2-3-4-5-6, up to 10-J-Q-K-A, the highest;"
            " J-Q-K-A-2 is no straight."
        ),
    )
    ACE_TWO_HIGH = (
        "ace-two-high-straights",
        gettext_noop("A-2-3-4-5 the highest straight"),
        gettext_noop(
            "A-2-3-4-5 is the highest straight, then 2-3-4-5-6, then 10-J-Q-K-A down to"
            " 3-4-5-6-7, the lowest."
        ),
    )
    NO_ACE_LOW = (
        "no-ace-low-straights",
        gettext_noop("no A-2-3-4-5 straight"),
        gettext_noop(
            "A-2-3-4-5 is no straight: 2-3-4-5-6 is the lowest, up to 10-J-Q-K-A, the highest."
        ),
    )
    TWO_HIGH = (
        "two-high-straights",
        gettext_noop("twos high in straights"),
        gettext_noop(
            "The 2 ranks high in straights too: 3-4-5-6-7 is the lowest, up to J-Q-K-A-2, the"
            " highest; A-2-3-4-5 and 2-3-4-5-6 are no straights."
        ),
    )
    INDONESIAN = (
        "indonesian-straights",
        gettext_noop("Indonesian straights"),
        gettext_noop(
            "As in Indonesia: a straight holding a 2 beats every straight without one, so"
            " 2-3-4-5-6 is the highest, then A-2-3-4-5, then 10-J-Q-K-A down to 3-4-5-6-7."
        ),
    )

    @property
    def runs(self) -> tuple[tuple[Rank, ...], ...]:
        """Every straight's ranks in the order its cards are shown, lowest straight first."""
        return _RUNS[self]


def _windows(line: tuple[Rank, ...]) -> tuple[tuple[Rank, ...], ...]:
    return tuple(line[i : i + 5] for i in range(len(line) - 4))


# Under the standard rules the 2 counts below the 3 in straights and the ace at either end, so
# runs are windows of five over A 2 3 … K A, from A-2-3-4-5 (lowest) to 10-J-Q-K-A (highest).
_ACE_AT_BOTH_ENDS = (Rank.ACE, Rank.TWO, *(rank for rank in Rank if rank != Rank.TWO))
_STANDARD_RUNS = _windows(_ACE_AT_BOTH_ENDS)
_RUNS = {
    Straights.STANDARD: _STANDARD_RUNS,
    # The same ten runs, but the two holding a 2 jump to the top, A-2-3-4-5 highest of all.
    Straights.ACE_TWO_HIGH: (*_STANDARD_RUNS[2:], _STANDARD_RUNS[1], _STANDARD_RUNS[0]),
    Straights.NO_ACE_LOW: _STANDARD_RUNS[1:],
    # The 2 keeps its Big Two place above the ace: windows over 3 4 … K A 2.
    Straights.TWO_HIGH: _windows(tuple(Rank)),
    # The standard runs, but the two holding a 2 above all the others; between themselves they
    # keep the standard order (the top card decides, so 2-3-4-5-6 beats A-2-3-4-5). With
    # A-2-3-4-5 on top it would be ACE_TWO_HIGH.
    Straights.INDONESIAN: (*_STANDARD_RUNS[2:], _STANDARD_RUNS[0], _STANDARD_RUNS[1]),
}


class Flushes(Choice):
    """How two flushes compare (a flush is five cards of one suit that are not a straight)."""

    SUIT_FIRST = (
        "suit-first-flushes",
        gettext_noop("flushes by suit first"),
        gettext_noop(
            "A flush in a higher suit beats any flush in a lower suit; within one suit the highest"
            " card decides."
        ),
    )
    TOP_CARD = (
        "top-card-flushes",
        gettext_noop("flushes by top card"),
        gettext_noop(
            "The highest card decides; the suit only breaks a tie between flushes with the same top"
            " card, and the lower cards don't count."
        ),
    )
    POKER = (
        "poker-flushes",
        gettext_noop("poker flushes"),
        gettext_noop(
            "Card by card from the top, as in poker; the suit decides only between flushes of the"
            " same five ranks."
        ),
    )


class TwosRule(Choice):
    """Whether going out on twos, or being caught holding them, doubles penalties.

    Under EACH_TWO a player's penalty doubles once for every two left in their hand whether or
    not the winner went out on twos; going out on twos doubles everyone's once more, as under
    DOUBLE. So nine cards holding two twos cost 9 × 2 × 2 = 36, or 72 after a two went out last.
    """

    OFF = (
        "no-twos-rule",
        gettext_noop("no twos rule"),
        gettext_noop("Going out on a two, or holding twos, changes nothing."),
    )
    DOUBLE = (
        "twos-double",
        gettext_noop("twos rule"),
        gettext_noop(
            "When the winner goes out on a play of nothing but twos, everyone else's penalty"
            " doubles."
        ),
    )
    EACH_TWO = (
        "twos-double-each",
        gettext_noop("twos rule doubled per two held"),
        gettext_noop(
            "As the twos rule, and each player's penalty doubles again for every two left in their"
            " hand: nine cards with two twos after the winner went out on a two cost"
            " 9 × 2 × 2 × 2 = 72."
        ),
    )


class Finish(Choice):
    """When a match is over. Whatever the finish, the lowest total alone wins; a tie plays on.

    TARGET and DEALS take their number from the rule set (`target`, `deals`), so their tokens
    carry it: `to-100`, `10-deals`. OPEN's token is its value, `open-ended`.
    """

    TARGET = (
        "target",
        gettext_noop("to a target score"),
        gettext_noop(
            "The match ends after the deal that takes someone to the target score, and the lowest"
            " total wins; a tie for lowest plays on until one player is lowest alone."
        ),
    )
    DEALS = (
        "deals",
        gettext_noop("a set number of deals"),
        gettext_noop(
            "The match ends after the agreed number of deals, and the lowest total wins; a tie for"
            " lowest plays on, one deal at a time."
        ),
    )
    OPEN = (
        "open-ended",
        gettext_noop("open-ended"),
        gettext_noop(
            "The match goes on until the scorekeeper ends it, and the lowest total wins; it can't"
            " be ended while the lowest total is shared."
        ),
    )


class Players(IntEnum):
    """How many play: a value for `RuleSet.players`, with a token and words for each count.

    >>> Players(3).token, Players.THREE.label
    ('3-players', '3 players')
    """

    FOUR = 4
    THREE = 3
    TWO = 2

    @property
    def token(self) -> str:
        return f"{self.value}-players"

    @property
    def label(self) -> str:
        return gettext("%(count)s players") % {"count": self.value}

    @property
    def explained(self) -> str:
        return gettext(_PLAYERS_HELP[self])


_PLAYERS_HELP = {
    Players.FOUR: gettext_noop("13 cards each, the whole pack."),
    Players.THREE: gettext_noop(
        "17 cards each, and the holder of the lowest 3 takes the last card: up to 18 in hand."
    ),
    Players.TWO: gettext_noop("13 cards each; the other 26 are set aside unseen."),
}


# The name of each option of `rules.ruleset.OPTIONS`, lower case first to sit inside a sentence;
# `rules.ruleset.option_label` capitalises them for a form.
OPTION_LABELS = {
    "suits": gettext_noop("suit order"),
    "straights": gettext_noop("straights"),
    "flushes": gettext_noop("flushes"),
    "penalties": gettext_noop("penalties"),
    "twos": gettext_noop("twos rule"),
    "scoring": gettext_noop("scoring"),
    "dragon": gettext_noop("dragon"),
    "pays_for_table": gettext_noop("paying for the table"),
    "finish": gettext_noop("end of the match"),
    "players": gettext_noop("number of players"),
    "two_player_deal": gettext_noop("cards each with two players"),
    "draw_on_pass": gettext_noop("drawing on a pass"),
    "lead": gettext_noop("who leads"),
}
