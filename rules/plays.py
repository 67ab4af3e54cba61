"""What a set of cards is as a Big Two play, and which of two plays wins.

Every legal play gets a `key`: a tuple of ints where, between two plays of the same size under
one rule set, the higher key wins. Five-card keys start with the tier (1 straight … 5 straight
flush), so a higher tier wins before any card is looked at. The rule set decides the rest: the
suit order, which runs are straights and in what order, and how flushes compare.

Five cards are looked up in the tables of `rules.lookups`; the sentences that say why cards
are no play, or why one play beats another, are `rules.reasons`.

>>> nines = classify(parse_cards("9s 9d"))
>>> nines.description
'Pair of 9s (♠ high)'
>>> compare(nines, classify(parse_cards("9h 9c"))).result
'a_beats_b'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

from rules.cards import Card, Rank, parse_cards  # noqa: F401 (the doctests use parse_cards)
from rules.i18n import gettext
from rules.kinds import Kind
from rules.lookups import FLUSH_KEYS, PRODUCT_KEYS, RANK_BITS, RANK_PRIMES
from rules.options import Flushes
from rules.reasons import run_text, why_beats, why_no_hand, why_sizes_differ
from rules.ruleset import DEFAULT_RULES, RuleSet


def complete_key(
    kind: Kind, partial: tuple[int, ...], cards: Sequence[Card], rules: RuleSet = DEFAULT_RULES
) -> tuple[int, ...]:
    """Add the suit the rules compare by to a key from the lookup tables.

    Straights (and straight flushes) add the suit of their run's top card (the last one shown:
    the 5 of A-2-3-4-5 under every Straights rule). Flushes place their suit where the flush
    rule compares it: right after the tier (suit first), after the top card (top card), or after
    all five ranks (poker). Full houses and fours need no suit at all.
    """
    if kind is Kind.STRAIGHT or kind is Kind.STRAIGHT_FLUSH:
        top_rank = rules.straights.runs[partial[1]][-1]
        top = next(card for card in cards if card.rank == top_rank)
        return (*partial, rules.suit_strength(top.suit))
    if kind is Kind.FLUSH:
        suit = rules.suit_strength(cards[0].suit)
        match rules.flushes:
            case Flushes.SUIT_FIRST:
                return (partial[0], suit, *partial[1:])
            case Flushes.TOP_CARD:
                return (partial[0], partial[1], suit)
            case _:  # Flushes.POKER
                return (*partial, suit)
    return partial


class NotAPlay(ValueError):
    """Cards that are not a Big Two play; the message is the plain reason why."""


@dataclass(frozen=True, slots=True)
class Play:
    """A legal play: its cards in display order, its kind, and its strength key."""

    cards: tuple[Card, ...]
    kind: Kind
    key: tuple[int, ...]

    def __str__(self) -> str:
        return " ".join(str(card) for card in self.cards)

    @property
    def size(self) -> int:
        return len(self.cards)

    def beats(self, other: Play) -> bool:
        """Whether this play can go on top of `other`: same number of cards, and stronger.

        >>> classify(parse_cards("2d")).beats(classify(parse_cards("as")))
        True
        """
        return self.size == other.size and self.key > other.key

    @property
    def description(self) -> str:
        """A short reading of the play.

        >>> classify(parse_cards("3d 3s jh jc jd")).description
        'Full house, jacks over 3s'
        >>> classify(parse_cards("5c 5d 5h 5s 2s")).description
        'Four 5s with a 2♠ kicker'
        >>> classify(parse_cards("as 2d 3c 4h 5d")).description
        'Straight A-2-3-4-5, 5♦ high'
        """
        first, top = self.cards[0], self.cards[-1]
        values = {
            "card": first,
            "top": top,
            "rank": first.rank.plural,
            "suit": first.suit.symbol,
            "top_suit": top.suit.symbol,
            "top_rank": top.rank.label,
            "under": top.rank.plural,
            "run": run_text(self),
        }
        match self.kind:
            case Kind.SINGLE:
                message = gettext("Single %(card)s")
            case Kind.PAIR:
                message = gettext("Pair of %(rank)s (%(top_suit)s high)")
            case Kind.TRIPLE:
                message = gettext("Triple of %(rank)s")
            case Kind.STRAIGHT:
                message = gettext("Straight %(run)s, %(top)s high")
            case Kind.FLUSH:
                message = gettext("Flush in %(suit)s, %(top_rank)s high")
            case Kind.FULL_HOUSE:
                message = gettext("Full house, %(rank)s over %(under)s")
            case Kind.FOUR_OF_A_KIND if top.rank in (Rank.EIGHT, Rank.ACE):
                # "an 8♦", "an A♠", but "a 10♣"
                message = gettext("Four %(rank)s with an %(top)s kicker")
            case Kind.FOUR_OF_A_KIND:
                message = gettext("Four %(rank)s with a %(top)s kicker")
            case _:  # Kind.STRAIGHT_FLUSH
                message = gettext("Straight flush in %(suit)s, %(run)s")
        return message % values


def classify(cards: Sequence[Card], rules: RuleSet = DEFAULT_RULES) -> Play:
    """The play these cards make, or NotAPlay saying why they make none.

    >>> classify(parse_cards("9h")).description
    'Single 9♥'
    >>> try:
    ...     classify(parse_cards("9h 9s 9c 9d"))
    ... except NotAPlay as reason:
    ...     print(reason)
    a bare four of a kind is not a play: add any fifth card as a kicker
    """
    if not cards:
        raise NotAPlay(gettext("no cards"))
    if len(set(cards)) != len(cards):
        twice = next(card for card in cards if cards.count(card) > 1)
        raise NotAPlay(
            gettext("%(card)s is there twice: each card can be played only once") % {"card": twice}
        )

    def strength(card: Card) -> tuple[int, int]:
        return int(card.rank), rules.suit_strength(card.suit)

    ordered = tuple(sorted(cards, key=strength))
    shape = sorted(Counter(card.rank for card in cards).values(), reverse=True)
    match len(cards):
        case 1:
            return Play(ordered, Kind.SINGLE, strength(ordered[0]))
        case 2 if shape == [2]:
            return Play(ordered, Kind.PAIR, strength(ordered[-1]))
        case 2:
            low, high = ordered
            raise NotAPlay(
                gettext("%(low)s and %(high)s are not a pair: a pair is two cards of one rank")
                % {"low": low, "high": high}
            )
        case 3 if shape == [3]:
            return Play(ordered, Kind.TRIPLE, (int(ordered[0].rank),))
        case 3 if shape == [2, 1]:
            raise NotAPlay(
                gettext("a pair and an odd card are not a play: a triple is three of a rank")
            )
        case 3:
            raise NotAPlay(
                gettext(
                    "three different ranks are not a play: a triple is three of a rank, "
                    "and runs must be five cards long"
                )
            )
        case 4 if shape == [4]:
            raise NotAPlay(
                gettext("a bare four of a kind is not a play: add any fifth card as a kicker")
            )
        case 4 if shape == [2, 2]:
            raise NotAPlay(gettext("two pair is not a Big Two play"))
        case 4:
            raise NotAPlay(gettext("four cards are never a play: play 1, 2, 3 or 5 cards"))
        case 5:
            return _five(ordered, shape, rules)
        case _:
            raise NotAPlay(gettext("six or more cards are never a play: play 1, 2, 3 or 5 cards"))


def _five(ordered: tuple[Card, ...], shape: list[int], rules: RuleSet) -> Play:
    if len({card.suit for card in ordered}) == 1:
        kind, partial = FLUSH_KEYS[rules.straights][sum(RANK_BITS[card.rank] for card in ordered)]
    else:
        entry = PRODUCT_KEYS[rules.straights].get(prod(RANK_PRIMES[card.rank] for card in ordered))
        if entry is None:
            raise NotAPlay(why_no_hand(ordered, shape, rules.straights))
        kind, partial = entry
    key = complete_key(kind, partial, ordered, rules)
    if kind is Kind.STRAIGHT or kind is Kind.STRAIGHT_FLUSH:
        run = rules.straights.runs[partial[1]]
        shown = tuple(sorted(ordered, key=lambda card: run.index(card.rank)))
    elif kind is Kind.FULL_HOUSE or kind is Kind.FOUR_OF_A_KIND:
        # The triple (or four) first, then the cards that don't count.
        shown = tuple(sorted(ordered, key=lambda card: card.rank != partial[1]))
    else:
        shown = ordered
    return Play(shown, kind, key)


@dataclass(frozen=True, slots=True)
class Verdict:
    """Which of two hands wins, and one plain sentence of why.

    `result` is "a_beats_b", "b_beats_a", "different_sizes" or "not_a_play".
    """

    result: str
    reason: str


def compare(a: Play, b: Play, rules: RuleSet = DEFAULT_RULES) -> Verdict:
    """Whether play A would beat play B on the table, or B beat A.

    Two plays from one deck that share no card are never equally strong. Plays that share
    cards can be (two straights differing only below the top card), and then there is no
    verdict to give: ValueError. Check `overlapping` first. The reason speaks of the rules in
    force: it names the suit order when a suit decides under another than the standard one.

    >>> flush = classify(parse_cards("3h 5h 6h 7h 9h"))
    >>> compare(flush, classify(parse_cards("2c 4c 6c 9c jc"))).reason
    'Both are flushes: ♥ outranks ♣, and suit decides before rank'
    """
    if a.size != b.size:
        return Verdict("different_sizes", why_sizes_differ(a, b))
    if a.key == b.key:
        raise ValueError(
            f"{a} and {b} are equally strong, which only happens when they share cards"
        )
    winner, loser = (a, b) if a.key > b.key else (b, a)
    return Verdict("a_beats_b" if winner is a else "b_beats_a", why_beats(winner, loser, rules))


def judge(
    a_cards: Sequence[Card], b_cards: Sequence[Card], rules: RuleSet = DEFAULT_RULES
) -> Verdict:
    """Compare two hands of cards, saying which is not a play if either isn't.

    >>> judge(parse_cards("9s 9h 9c 9d"), parse_cards("3d")).reason
    'A is not a play — a bare four of a kind is not a play: add any fifth card as a kicker'
    """
    plays: list[Play] = []
    problems: list[str] = []
    for name, cards in (("A", a_cards), ("B", b_cards)):
        try:
            plays.append(classify(cards, rules))
        except NotAPlay as reason:
            problems.append(
                gettext("%(hand)s is not a play — %(reason)s") % {"hand": name, "reason": reason}
            )
    if problems:
        return Verdict("not_a_play", gettext("; ").join(problems))
    return compare(plays[0], plays[1], rules)


def overlapping(a_cards: Sequence[Card], b_cards: Sequence[Card]) -> tuple[Card, ...]:
    """The cards in both hands, weakest first: one deck has one of each card.

    >>> overlapping(parse_cards("9s 9h"), parse_cards("9h 9d"))
    (Card(rank=<Rank.NINE: 9>, suit=<Suit.HEARTS: 2>),)
    """
    return tuple(sorted(set(a_cards) & set(b_cards)))


def lowest_card(rules: RuleSet = DEFAULT_RULES) -> Card:
    """The card that opens every deal: the 3 of the lowest suit, 3♦ under the standard rules.

    With two players half the pack is set aside and the lowest card dealt opens, which may be
    higher; only the table knows it, so this is still the 3 of the lowest suit.

    >>> str(lowest_card())
    '3♦'
    """
    return Card(Rank.THREE, rules.suit_order[0])


def can_open(cards: Sequence[Card], rules: RuleSet = DEFAULT_RULES) -> bool:
    """Whether these cards can be a deal's opening play: a legal play holding the lowest card.

    >>> can_open(parse_cards("3d 3s")), can_open(parse_cards("4d"))
    (True, False)
    """
    if lowest_card(rules) not in cards:
        return False
    try:
        classify(cards, rules)
    except NotAPlay:
        return False
    return True
