"""What a set of cards is as a Big Two play, and which of two plays wins.

Every legal play gets a `key`: a tuple of ints where, between two plays of the same size, the
higher key wins. Five-card keys start with the tier (1 straight … 5 straight flush), so a higher
tier wins before any card is looked at.

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
from enum import StrEnum
from itertools import combinations, combinations_with_replacement
from math import prod

from rules.cards import Card, Rank, parse_cards  # noqa: F401 (the doctests use parse_cards)
from rules.ruleset import DEFAULT_RULES, RuleSet


class Kind(StrEnum):
    """The shape of a play.

    >>> Kind.FULL_HOUSE.label
    'full house'
    """

    SINGLE = "single"
    PAIR = "pair"
    TRIPLE = "triple"
    STRAIGHT = "straight"
    FLUSH = "flush"
    FULL_HOUSE = "full_house"
    FOUR_OF_A_KIND = "four_of_a_kind"
    STRAIGHT_FLUSH = "straight_flush"

    @property
    def label(self) -> str:
        return self.value.replace("_", " ")


# Five-card tiers, the first number of every five-card key.
TIERS = {
    Kind.STRAIGHT: 1,
    Kind.FLUSH: 2,
    Kind.FULL_HOUSE: 3,
    Kind.FOUR_OF_A_KIND: 4,
    Kind.STRAIGHT_FLUSH: 5,
}
_TIER_LADDER = "straight < flush < full house < four of a kind < straight flush"

# In straights the 2 sits below the 3 and the ace at either end, so runs are windows of five
# over A 2 3 … K A: RUNS[0] is A-2-3-4-5 (lowest) and RUNS[9] is 10-J-Q-K-A (highest).
_RUN_LINE = (Rank.ACE, Rank.TWO, *(rank for rank in Rank if rank != Rank.TWO))
RUNS: tuple[tuple[Rank, ...], ...] = tuple(_RUN_LINE[i : i + 5] for i in range(10))
# Five ranks in a row in Big Two order that bend round the corner past the ace: not straights.
_CORNER = (Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE, Rank.TWO, Rank.THREE, Rank.FOUR)
_WRAPS = {frozenset(_CORNER[i : i + 5]): _CORNER[i : i + 5] for i in range(3)}

# Lookup tables for five-card hands, shared by `classify` and by `rules.bench`.
# A product of one prime per rank identifies the ranks of a hand whatever their order;
# a bitmask of ranks identifies a flush (whose ranks are all different).
RANK_PRIMES: dict[Rank, int] = dict(
    zip(Rank, (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41), strict=True)
)
RANK_BITS: dict[Rank, int] = {rank: 1 << rank for rank in Rank}

type Entry = tuple[Kind, tuple[int, ...]]


def _product_keys() -> dict[int, Entry]:
    """Prime product → (kind, key without suits), for every legal hand of mixed suits."""
    runs = {frozenset(run): index for index, run in enumerate(RUNS)}
    table: dict[int, Entry] = {}
    for ranks in combinations_with_replacement(Rank, 5):
        counts = Counter(ranks).most_common()
        product = prod(RANK_PRIMES[rank] for rank in ranks)
        shape = [count for _, count in counts]
        if shape == [4, 1]:
            table[product] = (Kind.FOUR_OF_A_KIND, (4, int(counts[0][0])))
        elif shape == [3, 2]:
            table[product] = (Kind.FULL_HOUSE, (3, int(counts[0][0])))
        elif frozenset(ranks) in runs:
            table[product] = (Kind.STRAIGHT, (1, runs[frozenset(ranks)]))
    return table


def _flush_keys() -> dict[int, Entry]:
    """Rank bitmask → (kind, key without the suit), for every five cards of one suit."""
    runs = {frozenset(run): index for index, run in enumerate(RUNS)}
    table: dict[int, Entry] = {}
    for ranks in combinations(Rank, 5):
        mask = sum(RANK_BITS[rank] for rank in ranks)
        if frozenset(ranks) in runs:
            table[mask] = (Kind.STRAIGHT_FLUSH, (5, runs[frozenset(ranks)]))
        else:
            table[mask] = (Kind.FLUSH, (2, *sorted(map(int, ranks), reverse=True)))
    return table


PRODUCT_KEYS: dict[int, Entry] = _product_keys()
FLUSH_KEYS: dict[int, Entry] = _flush_keys()


def complete_key(
    kind: Kind, partial: tuple[int, ...], cards: Sequence[Card], rules: RuleSet = DEFAULT_RULES
) -> tuple[int, ...]:
    """Add the suit the rules compare by to a key from the lookup tables.

    Straights (and straight flushes) add their top card's suit; flushes put their suit right
    after the tier, as suit decides before rank; full houses and fours need no suit at all.
    """
    if kind is Kind.STRAIGHT or kind is Kind.STRAIGHT_FLUSH:
        top_rank = RUNS[partial[1]][-1]
        top = next(card for card in cards if card.rank == top_rank)
        return (*partial, rules.suit_strength(top.suit))
    if kind is Kind.FLUSH:
        return (partial[0], rules.suit_strength(cards[0].suit), *partial[1:])
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
        match self.kind:
            case Kind.SINGLE:
                return f"Single {first}"
            case Kind.PAIR:
                return f"Pair of {first.rank.plural} ({top.suit.symbol} high)"
            case Kind.TRIPLE:
                return f"Triple of {first.rank.plural}"
            case Kind.STRAIGHT:
                return f"Straight {_run_text(self)}, {top} high"
            case Kind.FLUSH:
                return f"Flush in {first.suit.symbol}, {top.rank.label} high"
            case Kind.FULL_HOUSE:
                return f"Full house, {first.rank.plural} over {top.rank.plural}"
            case Kind.FOUR_OF_A_KIND:
                return f"Four {first.rank.plural} with {_a(top.rank)} {top} kicker"
            case _:  # Kind.STRAIGHT_FLUSH
                return f"Straight flush in {first.suit.symbol}, {_run_text(self)}"


def _a(rank: Rank) -> str:
    """The article said before a card: "an 8♦", "an A♠", "a 10♣"."""
    return "an" if rank in (Rank.EIGHT, Rank.ACE) else "a"


def _run_text(play: Play) -> str:
    return "-".join(card.rank.label for card in play.cards)


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
        raise NotAPlay("no cards")
    if len(set(cards)) != len(cards):
        twice = next(card for card in cards if cards.count(card) > 1)
        raise NotAPlay(f"{twice} is there twice: each card can be played only once")

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
            raise NotAPlay(f"{low} and {high} are not a pair: a pair is two cards of one rank")
        case 3 if shape == [3]:
            return Play(ordered, Kind.TRIPLE, (int(ordered[0].rank),))
        case 3 if shape == [2, 1]:
            raise NotAPlay("a pair and an odd card are not a play: a triple is three of a rank")
        case 3:
            raise NotAPlay(
                "three different ranks are not a play: a triple is three of a rank, "
                "and runs must be five cards long"
            )
        case 4 if shape == [4]:
            raise NotAPlay("a bare four of a kind is not a play: add any fifth card as a kicker")
        case 4 if shape == [2, 2]:
            raise NotAPlay("two pair is not a Big Two play")
        case 4:
            raise NotAPlay("four cards are never a play: play 1, 2, 3 or 5 cards")
        case 5:
            return _five(ordered, shape, rules)
        case _:
            raise NotAPlay("six or more cards are never a play: play 1, 2, 3 or 5 cards")


def _five(ordered: tuple[Card, ...], shape: list[int], rules: RuleSet) -> Play:
    if len({card.suit for card in ordered}) == 1:
        kind, partial = FLUSH_KEYS[sum(RANK_BITS[card.rank] for card in ordered)]
    else:
        entry = PRODUCT_KEYS.get(prod(RANK_PRIMES[card.rank] for card in ordered))
        if entry is None:
            raise NotAPlay(_why_no_hand(ordered, shape))
        kind, partial = entry
    key = complete_key(kind, partial, ordered, rules)
    if kind is Kind.STRAIGHT or kind is Kind.STRAIGHT_FLUSH:
        run = RUNS[partial[1]]
        shown = tuple(sorted(ordered, key=lambda card: run.index(card.rank)))
    elif kind is Kind.FULL_HOUSE or kind is Kind.FOUR_OF_A_KIND:
        # The triple (or four) first, then the cards that don't count.
        shown = tuple(sorted(ordered, key=lambda card: card.rank != partial[1]))
    else:
        shown = ordered
    return Play(shown, kind, key)


def _why_no_hand(ordered: tuple[Card, ...], shape: list[int]) -> str:
    if shape == [3, 1, 1]:
        return (
            "five cards that make no hand (a triple and two odd cards: a full house needs a pair)"
        )
    if shape == [2, 2, 1]:
        return "two pair is not a Big Two play, not even with a fifth card"
    if shape == [2, 1, 1, 1]:
        return "five cards that make no hand (a pair with three odd cards)"
    wrap = _WRAPS.get(frozenset(card.rank for card in ordered))
    if wrap is not None:
        run = "-".join(rank.label for rank in wrap)
        return f"{run} is not a straight: nothing wraps past the ace"
    return "five cards that make no hand (five ranks not in a row, and not all one suit)"


@dataclass(frozen=True, slots=True)
class Verdict:
    """Which of two hands wins, and one plain sentence of why.

    `result` is "a_beats_b", "b_beats_a", "different_sizes" or "not_a_play".
    """

    result: str
    reason: str


_SIZE_NOUNS = {1: "a single", 2: "a pair", 3: "a triple", 5: "a five-card hand"}


def compare(a: Play, b: Play, rules: RuleSet = DEFAULT_RULES) -> Verdict:
    """Whether play A would beat play B on the table, or B beat A.

    Two plays from one deck that share no card are never equally strong. Plays that share
    cards can be (two straights differing only below the top card), and then there is no
    verdict to give: ValueError. Check `overlapping` first.

    >>> flush = classify(parse_cards("3h 5h 6h 7h 9h"))
    >>> compare(flush, classify(parse_cards("2c 4c 6c 9c jc"))).reason
    'Both are flushes: ♥ outranks ♣, and suit decides before rank'
    """
    if a.size != b.size:
        return Verdict(
            "different_sizes",
            f"{_SIZE_NOUNS[a.size].capitalize()} can't answer {_SIZE_NOUNS[b.size]}: "
            "a play is only answered by the same number of cards",
        )
    if a.key == b.key:
        raise ValueError(
            f"{a} and {b} are equally strong, which only happens when they share cards"
        )
    winner, loser = (a, b) if a.key > b.key else (b, a)
    return Verdict("a_beats_b" if winner is a else "b_beats_a", _why(winner, loser))


def _why(winner: Play, loser: Play) -> str:
    """One sentence on why `winner` beats `loser`, two plays of the same size."""
    kind = winner.kind
    if kind is not loser.kind:
        return f"A {kind.label} beats any {loser.kind.label}: five-card hands rank {_TIER_LADDER}"
    win_rank, lose_rank = winner.cards[0].rank, loser.cards[0].rank
    win_top, lose_top = winner.cards[-1], loser.cards[-1]
    match kind:
        case Kind.SINGLE if win_rank == lose_rank:
            return (
                f"Both are single {win_rank.plural}: the higher suit wins, "
                f"{win_top.suit.symbol} beats {lose_top.suit.symbol}"
            )
        case Kind.SINGLE:
            return (
                f"Both are singles: {win_rank.plural} beat {lose_rank.plural}, "
                "and rank decides before suit"
            )
        case Kind.PAIR if win_rank == lose_rank:
            return (
                f"Both are pairs of {win_rank.plural}: the pair with the higher suit wins, "
                f"{win_top.suit.symbol} beats {lose_top.suit.symbol}"
            )
        case Kind.PAIR:
            return (
                f"Both are pairs: {win_rank.plural} beat {lose_rank.plural}, "
                "and rank decides before suit"
            )
        case Kind.TRIPLE:
            return f"Both are triples: {win_rank.plural} beat {lose_rank.plural}"
        case Kind.FULL_HOUSE:
            return (
                f"Both are full houses: only the triple counts, and {win_rank.plural} "
                f"beat {lose_rank.plural} — the pair is dead weight"
            )
        case Kind.FOUR_OF_A_KIND:
            return (
                f"Both are fours of a kind: only the rank of the four counts, and "
                f"{win_rank.plural} beat {lose_rank.plural} — the kicker is dead weight"
            )
        case Kind.FLUSH:
            return _why_flush(winner, loser)
        case _:
            return _why_run(winner, loser)


def _why_flush(winner: Play, loser: Play) -> str:
    win_suit, lose_suit = winner.cards[0].suit.symbol, loser.cards[0].suit.symbol
    if win_suit != lose_suit:
        return f"Both are flushes: {win_suit} outranks {lose_suit}, and suit decides before rank"
    # Ranks follow the tier and suit in a flush key, highest first.
    first_difference = next(
        (index, Rank(win), Rank(lose))
        for index, (win, lose) in enumerate(zip(winner.key[2:], loser.key[2:], strict=True))
        if win != lose
    )
    index, win_rank, lose_rank = first_difference
    if index == 0:
        return (
            f"Both are flushes in {win_suit}: the higher top card wins, "
            f"{win_rank.label} beats {lose_rank.label}"
        )
    return (
        f"Both are flushes in {win_suit} with the same top cards: the highest card that differs "
        f"decides, {win_rank.label} beats {lose_rank.label}"
    )


def _why_run(winner: Play, loser: Play) -> str:
    """Straights and straight flushes: by sequence, then by the top card's suit."""
    plural = "straights" if winner.kind is Kind.STRAIGHT else "straight flushes"
    win_run, lose_run = _run_text(winner), _run_text(loser)
    if win_run == lose_run:
        return (
            f"Both are {plural} {win_run}: the top card's suit decides, "
            f"{winner.cards[-1]} beats {loser.cards[-1]}"
        )
    if loser.key[1] == 0:
        return (
            f"{lose_run} is the lowest {winner.kind.label} (its top card is the 5); "
            f"{win_run} is above it"
        )
    return (
        f"Both are {plural}: {win_run} is above {lose_run} — the order runs "
        "A-2-3-4-5 (lowest), 2-3-4-5-6, 3-4-5-6-7 … 10-J-Q-K-A (highest)"
    )


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
            problems.append(f"{name} is not a play — {reason}")
    if problems:
        return Verdict("not_a_play", "; ".join(problems))
    return compare(plays[0], plays[1], rules)


def overlapping(a_cards: Sequence[Card], b_cards: Sequence[Card]) -> tuple[Card, ...]:
    """The cards in both hands, weakest first: one deck has one of each card.

    >>> overlapping(parse_cards("9s 9h"), parse_cards("9h 9d"))
    (Card(rank=<Rank.NINE: 9>, suit=<Suit.HEARTS: 2>),)
    """
    return tuple(sorted(set(a_cards) & set(b_cards)))


def lowest_card(rules: RuleSet = DEFAULT_RULES) -> Card:
    """The card that opens every deal: the 3 of the lowest suit, 3♦ under the standard rules.

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
