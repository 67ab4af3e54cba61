"""Cards as plain values: ranks and suits in Big Two order, and forgiving card text.

>>> Card(Rank.TWO, Suit.SPADES) > Card(Rank.ACE, Suit.SPADES) > Card(Rank.NINE, Suit.SPADES)
True
>>> format_cards(parse_cards("2s 3d, 9h9s"))
'3♦ 9♥ 9♠ 2♠'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum

from rules.i18n import gettext, gettext_noop, pgettext


class Rank(IntEnum):
    """A card's rank; the values compare in Big Two order, 3 lowest and 2 highest.

    >>> Rank.TWO > Rank.ACE > Rank.KING > Rank.THREE
    True
    >>> Rank.TEN.label, Rank.JACK.word, Rank.NINE.plural, Rank.KING.plural
    ('10', 'jack', '9s', 'kings')
    """

    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14
    TWO = 15

    @property
    def label(self) -> str:
        """How the rank is printed on a card: "3" … "10", "J", "Q", "K", "A", "2"."""
        return _RANK_LABELS[self]

    @property
    def word(self) -> str:
        """The rank spelled out: "three" … "ten", "jack", "queen", "king", "ace", "two"."""
        return _RANK_WORDS[self]

    @property
    def noun(self) -> str:
        """How the rank reads in a sentence: digits for number cards, words for the rest.

        In the active language (rules.i18n): in Chinese the named ranks read as "J", "Q", ….
        """
        return gettext(_RANK_NOUNS[self]) if self in _RANK_NOUNS else self.label

    @property
    def plural(self) -> str:
        """Several cards of this rank, as in "a pair of 9s" or "a triple of kings"."""
        return pgettext("several cards of one rank", "%(rank)ss") % {"rank": self.noun}


_RANK_LABELS = dict(
    zip(Rank, ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"), strict=True)
)
_RANK_WORDS = dict(
    zip(
        Rank,
        (
            "three", "four", "five", "six", "seven", "eight", "nine", "ten",
            "jack", "queen", "king", "ace", "two",
        ),
        strict=True,
    )
)  # fmt: skip
# The ranks a sentence names in words, marked for translation.
_RANK_NOUNS = {
    Rank.JACK: gettext_noop("jack"),
    Rank.QUEEN: gettext_noop("queen"),
    Rank.KING: gettext_noop("king"),
    Rank.ACE: gettext_noop("ace"),
}


class Suit(IntEnum):
    """A card's suit; the values compare in the standard Big Two order ♦ < ♣ < ♥ < ♠.

    >>> [suit.symbol for suit in sorted(Suit)]
    ['♦', '♣', '♥', '♠']
    >>> Suit.HEARTS.letter, Suit.HEARTS.word, Suit.HEARTS.is_red
    ('H', 'hearts', True)
    """

    DIAMONDS = 0
    CLUBS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def symbol(self) -> str:
        return "♦♣♥♠"[self]

    @property
    def letter(self) -> str:
        """The ASCII letter used in card codes (URLs, form values)."""
        return "DCHS"[self]

    @property
    def word(self) -> str:
        """The suit in English words; also the CSS class of its cards, so never translated."""
        return _SUIT_WORDS[self]

    @property
    def noun(self) -> str:
        """The suit as a sentence in the active language names it."""
        return gettext(_SUIT_WORDS[self])

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)


_SUIT_WORDS = (
    gettext_noop("diamonds"),
    gettext_noop("clubs"),
    gettext_noop("hearts"),
    gettext_noop("spades"),
)


class CardParseError(ValueError):
    """Text that is not a list of cards; the message names the text and how to write it."""


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card. Field order makes cards sort by rank, then suit: Big Two strength.

    >>> card = Card.parse("10s")
    >>> str(card), card.code, card.name
    ('10♠', '10S', '10 of spades')
    >>> Card.parse("qh").name
    'queen of hearts'
    """

    rank: Rank
    suit: Suit

    def __str__(self) -> str:
        return f"{self.rank.label}{self.suit.symbol}"

    @property
    def code(self) -> str:
        """ASCII form for URLs and form values, e.g. "9H", "10S"."""
        return f"{self.rank.label}{self.suit.letter}"

    @property
    def name(self) -> str:
        """What a screen reader should say, e.g. "9 of hearts", "jack of spades"."""
        return gettext("%(rank)s of %(suit)s") % {"rank": self.rank.noun, "suit": self.suit.noun}

    @classmethod
    def parse(cls, text: str) -> Card:
        """Exactly one card, written as `parse_cards` accepts it."""
        cards = parse_cards(text)
        if len(cards) != 1:
            if not cards:
                raise CardParseError(gettext("No card given: write one card, like 9H or 10♠"))
            raise CardParseError(
                gettext("'%(text)s' is %(count)s cards: write just one")
                % {"text": text.strip(), "count": len(cards)}
            )
        return cards[0]


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in Rank for suit in Suit)

_RANK_TOKENS = {
    **{str(number): Rank(number) for number in range(3, 11)},
    "2": Rank.TWO,
    **{letter: rank for rank in (Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)
       for letter in (rank.label, rank.label.lower())},
    "T": Rank.TEN,
    "t": Rank.TEN,
}  # fmt: skip
_SUIT_TOKENS = {
    **{suit.letter: suit for suit in Suit},
    **{suit.letter.lower(): suit for suit in Suit},
    **{suit.symbol: suit for suit in Suit},
    # Outlined symbols, as some keyboards and fonts offer them.
    **dict(zip("♢♧♡♤", Suit, strict=True)),
}
# A rank is a run of ASCII digits or any one character; the suit (if any) is the next character,
# plus an emoji or text variation selector that phones add after ♠ ♣ ♥ ♦.
_PIECE = re.compile(r"(?P<rank>[0-9]+|.)(?P<suit>.[\ufe0e\ufe0f]?)?", re.DOTALL)
_SEPARATORS = re.compile(r"[\s,]+")
_RANK_HELP = gettext_noop("ranks are 2–10, J, Q, K, A")
_SUIT_HELP = gettext_noop("suits are D, C, H, S (or ♦ ♣ ♥ ♠)")


def parse_cards(text: str) -> tuple[Card, ...]:
    """Cards from text, in the order typed. Forgiving about case, symbols and separators.

    >>> [card.code for card in parse_cards("9s9d 10♠, t♥ Q♡️")]
    ['9S', '9D', '10S', '10H', 'QH']
    >>> parse_cards("  ")
    ()
    >>> try:
    ...     parse_cards("1H")
    ... except CardParseError as error:
    ...     print(error)
    '1H' is not a card: ranks are 2–10, J, Q, K, A
    """
    cards: list[Card] = []
    for word in _SEPARATORS.split(text):
        position = 0
        while position < len(word):
            piece = _PIECE.match(word, position)
            assert piece is not None  # the pattern matches any non-empty remainder
            cards.append(_card_from_piece(piece))
            position = piece.end()
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise CardParseError(
                gettext("%(card)s is there twice: each card can be played only once")
                % {"card": card}
            )
        seen.add(card)
    return tuple(cards)


def _card_from_piece(piece: re.Match[str]) -> Card:
    rank = _RANK_TOKENS.get(piece["rank"])
    if rank is None:
        raise CardParseError(
            gettext("'%(text)s' is not a card: %(help)s")
            % {"text": piece[0], "help": gettext(_RANK_HELP)}
        )
    if piece["suit"] is None:
        raise CardParseError(
            gettext("'%(text)s' is not a card: it needs a suit; %(help)s")
            % {"text": piece[0], "help": gettext(_SUIT_HELP)}
        )
    suit = _SUIT_TOKENS.get(piece["suit"].rstrip("\ufe0e\ufe0f"))
    if suit is None:
        raise CardParseError(
            gettext("'%(text)s' is not a card: %(help)s")
            % {"text": piece[0], "help": gettext(_SUIT_HELP)}
        )
    return Card(rank, suit)


def format_cards(cards: Iterable[Card]) -> str:
    """Cards in strength order, space-separated; `parse_cards` reads the text back.

    >>> format_cards([Card(Rank.FIVE, Suit.HEARTS), Card(Rank.THREE, Suit.DIAMONDS)])
    '3♦ 5♥'
    """
    return " ".join(str(card) for card in sorted(cards))
