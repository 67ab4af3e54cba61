"""The choices about a deal rather than a play: how it is scored, who leads the next one, and
the table's extras (the dragon, paying for the table, drawing on a pass, two players' hands).

Like the enums of `rules.options`, each member has a token (its value; `TwoPlayerDeal.token`
for the hand sizes), words for a form (`label`) and a sentence of help (`explained`); a
`rules.choices.Choice` is written with all three. Which of them can be played together is
`rules.rule_clashes`.

>>> Scoring.PUSOY_DOS.label
'Pusoy Dos scoring'
>>> TwoPlayerDeal(17).token, TwoPlayerDeal.SEVENTEEN.stock
('2-players-17', 18)
"""

from __future__ import annotations

from enum import IntEnum

from rules.choices import Choice
from rules.i18n import gettext, gettext_noop

DECK_SIZE = 52


class Scoring(Choice):
    """What a deal costs each player.

    CARDS_LEFT is the rule book: a penalty for the cards left in hand (the penalty scale and
    the twos rule say how much). PUSOY_DOS charges every loser the points the winner earned
    for going out, by the twos in the last play. FINISHING_ORDER plays on until one player is
    left and charges by place. POINTS_BY_HAND takes each player's points as the table works
    them out.
    """

    CARDS_LEFT = (
        "cards-left-scoring",
        gettext_noop("penalties for cards left"),
        gettext_noop(
            "The deal ends when one player goes out; everyone else pays for the cards left in"
            " their hand."
        ),
    )
    PUSOY_DOS = (
        "pusoy-dos-scoring",
        gettext_noop("Pusoy Dos scoring"),
        gettext_noop(
            "The winner earns 1 point for going out, or 2, 4, 8 or 16 if the last play held one,"
            " two, three or four twos; everyone else takes that many as a penalty."
        ),
    )
    FINISHING_ORDER = (
        "finishing-order",
        gettext_noop("finishing order"),
        gettext_noop(
            "The deal is played on until one player is left: first out 0, second 1, third 3,"
            " last 5 (three players 0, 1, 3; two players 0, 1)."
        ),
    )
    POINTS_BY_HAND = (
        "points-by-hand",
        gettext_noop("points by hand"),
        gettext_noop(
            "The table works out each player's points and the scorekeeper types them in: 0 for"
            " the winner, whole numbers up to 999 for the others."
        ),
    )


class Lead(Choice):
    """Who leads each deal after the first (the first is always led by the lowest card)."""

    LOWEST_THREE = (
        "lowest-three-leads",
        gettext_noop("the lowest 3 leads"),
        gettext_noop(
            "Whoever holds the lowest 3 (3♦, or 3♣ under Pusoy Dos or Bridge suits) leads every"
            " deal; when not every card is dealt, whoever holds the lowest card dealt."
        ),
    )
    WINNER = (
        "winner-leads",
        gettext_noop("the winner leads"),
        gettext_noop(
            "The winner of a deal deals the next and leads it; the lowest card leads the first."
        ),
    )
    LOSER = (
        "loser-leads",
        gettext_noop("the loser leads"),
        gettext_noop(
            "Whoever was left holding the most cards leads the next deal (of players tied, the"
            " first after the winner in seat order); the lowest card leads the first."
        ),
    )


class Dragon(Choice):
    """Whether a hand of one card of every rank, 3 up to 2, wins the deal at once."""

    OFF = (
        "no-dragon",
        gettext_noop("no dragon"),
        gettext_noop("A hand of one card of every rank is played like any other."),
    )
    ON = (
        "dragon",
        gettext_noop("the dragon"),
        gettext_noop(
            "A player dealt one card of every rank, 3 up to 2, shows it and wins at once; everyone"
            " else pays for all thirteen cards (39 under the standard penalties)."
        ),
    )


class PaysForTable(Choice):
    """Whether a careless lead into a one-card hand makes its player pay everyone's losses."""

    OFF = (
        "no-pays-for-table",
        gettext_noop("everyone pays their own"),
        gettext_noop("Each loser takes their own penalty."),
    )
    ON = (
        "pays-for-table",
        gettext_noop("paying for the table"),
        gettext_noop(
            "As at money tables: a player who led carelessly into a one-card hand and lost the"
            " deal takes every loser's penalty, their own included, and the other losers take 0."
            " So does a winner who went out without saying “last card”."
        ),
    )


class DrawOnPass(Choice):
    """Whether a player who passes draws a card from the stock (two or three players)."""

    OFF = (
        "no-draw-on-pass",
        gettext_noop("no drawing"),
        gettext_noop("Passing costs nothing; nobody draws."),
    )
    ON = (
        "draw-on-pass",
        gettext_noop("drawing on a pass"),
        gettext_noop(
            "A player who passes draws a card from the stock, so a hand can grow past the deal:"
            " three players are dealt 13 each with 13 as the stock; two players draw from the"
            " cards set aside."
        ),
    )


class TwoPlayerDeal(IntEnum):
    """How many cards each of two players is dealt; the rest of the pack is set aside.

    >>> [deal.token for deal in TwoPlayerDeal]
    ['2-players', '2-players-17', '2-players-21']
    """

    THIRTEEN = 13
    SEVENTEEN = 17
    TWENTY_ONE = 21

    @property
    def token(self) -> str:
        return "2-players" if self is TwoPlayerDeal.THIRTEEN else f"2-players-{self.value}"

    @property
    def stock(self) -> int:
        """The cards set aside: 26, 18 or 10."""
        return DECK_SIZE - 2 * self.value

    @property
    def label(self) -> str:
        return gettext("2 players, %(count)s cards each") % {"count": self.value}

    @property
    def explained(self) -> str:
        return gettext("%(count)s cards each; the other %(aside)s are set aside unseen.") % {
            "count": self.value,
            "aside": self.stock,
        }
