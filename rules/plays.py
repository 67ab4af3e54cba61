"""What a set of cards is as a Big Two play, and which of two plays wins.

Every legal play gets a `key`: a tuple of ints where, between two plays of the same size under
one rule set, the higher key wins. Five-card keys start with the tier (1 straight … 5 straight
flush), so a higher tier wins before any card is looked at. The rule set decides the rest: the
suit order, which runs are straights and in what order, and how flushes compare.

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
from rules.i18n import gettext, gettext_noop
from rules.options import Flushes, Straights, SuitOrder
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
        """The kind in words, in the active language."""
        return gettext(_KIND_LABELS[self])


_KIND_LABELS = {
    Kind.SINGLE: gettext_noop("single"),
    Kind.PAIR: gettext_noop("pair"),
    Kind.TRIPLE: gettext_noop("triple"),
    Kind.STRAIGHT: gettext_noop("straight"),
    Kind.FLUSH: gettext_noop("flush"),
    Kind.FULL_HOUSE: gettext_noop("full house"),
    Kind.FOUR_OF_A_KIND: gettext_noop("four of a kind"),
    Kind.STRAIGHT_FLUSH: gettext_noop("straight flush"),
}


# Five-card tiers, the first number of every five-card key.
TIERS = {
    Kind.STRAIGHT: 1,
    Kind.FLUSH: 2,
    Kind.FULL_HOUSE: 3,
    Kind.FOUR_OF_A_KIND: 4,
    Kind.STRAIGHT_FLUSH: 5,
}
_TIER_LADDER = gettext_noop("straight < flush < full house < four of a kind < straight flush")

# The standard runs, lowest first: RUNS[0] is A-2-3-4-5 and RUNS[9] is 10-J-Q-K-A.
RUNS: tuple[tuple[Rank, ...], ...] = Straights.STANDARD.runs

# Lookup tables for five-card hands, shared by `classify` and by `rules.bench`, one per
# Straights rule since which ranks make a straight, and where it ranks, depend on it.
# A product of one prime per rank identifies the ranks of a hand whatever their order;
# a bitmask of ranks identifies a flush (whose ranks are all different).
RANK_PRIMES: dict[Rank, int] = dict(
    zip(Rank, (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41), strict=True)
)
RANK_BITS: dict[Rank, int] = {rank: 1 << rank for rank in Rank}

type Entry = tuple[Kind, tuple[int, ...]]


def _product_keys(straights: Straights) -> dict[int, Entry]:
    """Prime product → (kind, key without suits), for every legal hand of mixed suits.

    A straight's key holds its run's place in this rule's order of straights, 0 the lowest.
    """
    table = dict(_PAIRED_KEYS)
    for index, run in enumerate(straights.runs):
        table[prod(RANK_PRIMES[rank] for rank in run)] = (Kind.STRAIGHT, (1, index))
    return table


def _paired_keys() -> dict[int, Entry]:
    """Prime product → (kind, key) for the full houses and fours, the same under every rule.

    Their key is the tier (which is also the size of the set: 3 or 4) and the set's rank.
    """
    table: dict[int, Entry] = {}
    for ranks in combinations_with_replacement(Rank, 5):
        counts = Counter(ranks).most_common()
        kind = _PAIRED_SHAPES.get(tuple(count for _, count in counts))
        if kind is not None:
            (rank, count), *_ = counts
            table[prod(RANK_PRIMES[rank] for rank in ranks)] = (kind, (count, int(rank)))
    return table


_PAIRED_SHAPES = {(4, 1): Kind.FOUR_OF_A_KIND, (3, 2): Kind.FULL_HOUSE}


def _flush_keys(straights: Straights) -> dict[int, Entry]:
    """Rank bitmask → (kind, key without the suit), for every five cards of one suit.

    A flush's key lists its ranks highest first; `complete_key` places the suit.
    """
    table = dict(_ONE_SUIT_KEYS)
    for index, run in enumerate(straights.runs):
        table[sum(RANK_BITS[rank] for rank in run)] = (Kind.STRAIGHT_FLUSH, (5, index))
    return table


_PAIRED_KEYS = _paired_keys()
# Every five ranks as a flush, before each rule's straight flushes replace some.
_ONE_SUIT_KEYS: dict[int, Entry] = {
    sum(RANK_BITS[rank] for rank in ranks): (
        Kind.FLUSH,
        (2, *sorted(map(int, ranks), reverse=True)),
    )
    for ranks in combinations(Rank, 5)
}
PRODUCT_KEYS: dict[Straights, dict[int, Entry]] = {
    straights: _product_keys(straights) for straights in Straights
}
FLUSH_KEYS: dict[Straights, dict[int, Entry]] = {
    straights: _flush_keys(straights) for straights in Straights
}


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
            "run": _run_text(self),
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
            raise NotAPlay(_why_no_hand(ordered, shape, rules.straights))
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


def _why_no_hand(ordered: tuple[Card, ...], shape: list[int], straights: Straights) -> str:
    if shape == [3, 1, 1]:
        return gettext(
            "five cards that make no hand (a triple and two odd cards: a full house needs a pair)"
        )
    if shape == [2, 2, 1]:
        return gettext("two pair is not a Big Two play, not even with a fifth card")
    if shape == [2, 1, 1, 1]:
        return gettext("five cards that make no hand (a pair with three odd cards)")
    near_run = _NEAR_RUNS[straights].get(frozenset(card.rank for card in ordered))
    if near_run is not None:
        ranks, why_not = near_run
        return gettext(why_not) % {"run": "-".join(rank.label for rank in ranks)}
    return gettext("five cards that make no hand (five ranks not in a row, and not all one suit)")


# Five ranks in a row round the circle A 2 3 … K (and on to A 2 3 4): the ones a player might
# take for a straight. Those that are none under a Straights rule get a reason of their own.
_CIRCLE = (Rank.ACE, Rank.TWO, *(rank for rank in Rank if rank not in (Rank.ACE, Rank.TWO)))
_WINDOWS = tuple((_CIRCLE * 2)[i : i + 5] for i in range(len(_CIRCLE)))
_WRAPS_PAST_THE_ACE = gettext_noop("%(run)s is not a straight: nothing wraps past the ace")
_ACE_ONLY_HIGH = gettext_noop(
    "%(run)s is not a straight under these rules: the ace counts only high,"
    " so 2-3-4-5-6 is the lowest straight"
)
_TWO_ONLY_HIGH = gettext_noop(
    "%(run)s is not a straight under these rules: the 2 ranks high,"
    " so straights run from 3-4-5-6-7 up to J-Q-K-A-2"
)
_WRAPS_PAST_THE_TWO = gettext_noop(
    "%(run)s is not a straight under these rules: nothing wraps past the 2"
)


def _why_not_a_run(straights: Straights, window: tuple[Rank, ...]) -> str:
    if straights is Straights.TWO_HIGH:
        low_end = window[0] in (Rank.ACE, Rank.TWO)  # A-2-3-4-5 and 2-3-4-5-6
        return _TWO_ONLY_HIGH if low_end else _WRAPS_PAST_THE_TWO
    if straights is Straights.NO_ACE_LOW and window[0] == Rank.ACE:
        return _ACE_ONLY_HIGH
    return _WRAPS_PAST_THE_ACE


# Straights rule → {ranks: (ranks in run order, why they are no straight)}.
_NEAR_RUNS: dict[Straights, dict[frozenset[Rank], tuple[tuple[Rank, ...], str]]] = {
    straights: {
        frozenset(window): (window, _why_not_a_run(straights, window))
        for window in _WINDOWS
        if frozenset(window) not in {frozenset(run) for run in straights.runs}
    }
    for straights in Straights
}


@dataclass(frozen=True, slots=True)
class Verdict:
    """Which of two hands wins, and one plain sentence of why.

    `result` is "a_beats_b", "b_beats_a", "different_sizes" or "not_a_play".
    """

    result: str
    reason: str


_SIZE_NOUNS = {
    1: gettext_noop("a single"),
    2: gettext_noop("a pair"),
    3: gettext_noop("a triple"),
    5: gettext_noop("a five-card hand"),
}


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
        return Verdict(
            "different_sizes",
            gettext("%(a)s can't answer %(b)s: a play is only answered by the same number of cards")
            % {
                "a": gettext(_SIZE_NOUNS[a.size]).capitalize(),
                "b": gettext(_SIZE_NOUNS[b.size]),
            },
        )
    if a.key == b.key:
        raise ValueError(
            f"{a} and {b} are equally strong, which only happens when they share cards"
        )
    winner, loser = (a, b) if a.key > b.key else (b, a)
    return Verdict("a_beats_b" if winner is a else "b_beats_a", _why(winner, loser, rules))


def _why(winner: Play, loser: Play, rules: RuleSet) -> str:
    """One sentence on why `winner` beats `loser`, two plays of the same size."""
    kind = winner.kind
    if kind is not loser.kind:
        return gettext("A %(winner)s beats any %(loser)s: five-card hands rank %(ladder)s") % {
            "winner": kind.label,
            "loser": loser.kind.label,
            "ladder": gettext(_TIER_LADDER),
        }
    win_rank, lose_rank = winner.cards[0].rank, loser.cards[0].rank
    win_top, lose_top = winner.cards[-1], loser.cards[-1]
    values = {
        "win": win_rank.plural,
        "lose": lose_rank.plural,
        "win_suit": win_top.suit.symbol,
        "lose_suit": lose_top.suit.symbol,
    }
    match kind:
        case Kind.SINGLE if win_rank == lose_rank:
            message = gettext(
                "Both are single %(win)s: the higher suit wins, %(win_suit)s beats %(lose_suit)s"
            )
            return _by_suit(message % values, rules)
        case Kind.SINGLE:
            message = gettext(
                "Both are singles: %(win)s beat %(lose)s, and rank decides before suit"
            )
        case Kind.PAIR if win_rank == lose_rank:
            message = gettext(
                "Both are pairs of %(win)s: the pair with the higher suit wins, "
                "%(win_suit)s beats %(lose_suit)s"
            )
            return _by_suit(message % values, rules)
        case Kind.PAIR:
            message = gettext("Both are pairs: %(win)s beat %(lose)s, and rank decides before suit")
        case Kind.TRIPLE:
            message = gettext("Both are triples: %(win)s beat %(lose)s")
        case Kind.FULL_HOUSE:
            message = gettext(
                "Both are full houses: only the triple counts, and %(win)s beat %(lose)s"
                " — the pair is dead weight"
            )
        case Kind.FOUR_OF_A_KIND:
            message = gettext(
                "Both are fours of a kind: only the rank of the four counts, and %(win)s beat"
                " %(lose)s — the kicker is dead weight"
            )
        case Kind.FLUSH:
            return _why_flush(winner, loser, rules)
        case _:
            return _why_run(winner, loser, rules)
    return message % values


# Named after a reason that a suit decided, when the suits are not in the standard order.
_SUIT_ORDER_NOTES = {
    SuitOrder.PUSOY_DOS: gettext_noop("Pusoy Dos order ♣ < ♠ < ♥ < ♦"),
    SuitOrder.BRIDGE: gettext_noop("Bridge order ♣ < ♦ < ♥ < ♠"),
}


def _by_suit(reason: str, rules: RuleSet) -> str:
    """A reason that turned on a suit, with the suit order in force unless it is the standard."""
    if rules.suits is SuitOrder.STANDARD:
        return reason
    return gettext("%(reason)s (%(order)s)") % {
        "reason": reason,
        "order": gettext(_SUIT_ORDER_NOTES[rules.suits]),
    }


def _why_flush(winner: Play, loser: Play, rules: RuleSet) -> str:
    """Flushes: the suit or a rank decided, in the order the flush rule looks at them."""
    win_suit, lose_suit = winner.cards[0].suit.symbol, loser.cards[0].suit.symbol
    # A flush shows its cards weakest first, and its ranks are all different.
    win_ranks = [card.rank for card in reversed(winner.cards)]
    lose_ranks = [card.rank for card in reversed(loser.cards)]
    differing = [
        (index, win, lose)
        for index, (win, lose) in enumerate(zip(win_ranks, lose_ranks, strict=True))
        if win != lose
    ]
    match rules.flushes:
        case Flushes.SUIT_FIRST if win_suit != lose_suit:
            message = gettext(
                "Both are flushes: %(win)s outranks %(lose)s, and suit decides before rank"
            )
        case Flushes.TOP_CARD if win_ranks[0] == lose_ranks[0]:
            message = gettext(
                "Both are flushes topped by %(rank)s: the suit breaks the tie, %(win)s beats"
                " %(lose)s"
            )
        case Flushes.POKER if not differing:
            message = gettext(
                "Both are flushes of the same ranks: as in poker the suit decides last,"
                " %(win)s beats %(lose)s"
            )
        case _:
            return _why_flush_by_rank(win_suit, *differing[0], rules)
    values = {"win": win_suit, "lose": lose_suit, "rank": win_ranks[0].plural}
    return _by_suit(message % values, rules)


def _why_flush_by_rank(suit: str, index: int, win: Rank, lose: Rank, rules: RuleSet) -> str:
    """Flushes that a rank decided: the top card (`index` 0) or a lower one."""
    match rules.flushes:
        case Flushes.SUIT_FIRST if index == 0:
            message = gettext(
                "Both are flushes in %(suit)s: the higher top card wins, %(win)s beats %(lose)s"
            )
        case Flushes.SUIT_FIRST:
            message = gettext(
                "Both are flushes in %(suit)s with the same top cards: the highest card that"
                " differs decides, %(win)s beats %(lose)s"
            )
        case Flushes.TOP_CARD:
            message = gettext(
                "Both are flushes: the higher top card wins, %(win)s beats %(lose)s — the suit"
                " only breaks a tie"
            )
        case _ if index == 0:  # Flushes.POKER
            message = gettext(
                "Both are flushes: as in poker the higher top card wins, %(win)s beats %(lose)s"
            )
        case _:
            message = gettext(
                "Both are flushes with the same top cards: as in poker the highest card that"
                " differs decides, %(win)s beats %(lose)s"
            )
    return message % {"suit": suit, "win": win.label, "lose": lose.label}


# The order of straights under each rule but the standard, whose sentence names it already.
_RUN_ORDERS = {
    Straights.ACE_TWO_HIGH: gettext_noop(
        "3-4-5-6-7 (lowest), 4-5-6-7-8 … 10-J-Q-K-A, 2-3-4-5-6, A-2-3-4-5 (highest)"
    ),
    Straights.NO_ACE_LOW: gettext_noop("2-3-4-5-6 (lowest), 3-4-5-6-7 … 10-J-Q-K-A (highest)"),
    Straights.TWO_HIGH: gettext_noop(
        "3-4-5-6-7 (lowest), 4-5-6-7-8 … 10-J-Q-K-A, J-Q-K-A-2 (highest)"
    ),
}


def _why_run(winner: Play, loser: Play, rules: RuleSet) -> str:
    """Straights and straight flushes: by sequence, then by the top card's suit."""
    plural = gettext("straights") if winner.kind is Kind.STRAIGHT else gettext("straight flushes")
    win_run, lose_run = _run_text(winner), _run_text(loser)
    values = {
        "kinds": plural,
        "kind": winner.kind.label,
        "win": win_run,
        "lose": lose_run,
        "win_card": winner.cards[-1],
        "lose_card": loser.cards[-1],
    }
    if win_run == lose_run:
        message = gettext(
            "Both are %(kinds)s %(win)s: the top card's suit decides, %(win_card)s beats"
            " %(lose_card)s"
        )
        return _by_suit(message % values, rules)
    if rules.straights is not Straights.STANDARD:
        message = gettext(
            "Both are %(kinds)s: %(win)s is above %(lose)s — under these rules the order runs"
            " %(order)s"
        )
        return message % (values | {"order": gettext(_RUN_ORDERS[rules.straights])})
    if loser.key[1] == 0:
        message = gettext(
            "%(lose)s is the lowest %(kind)s (its top card is the 5); %(win)s is above it"
        )
    else:
        message = gettext(
            "Both are %(kinds)s: %(win)s is above %(lose)s — the order runs "
            "A-2-3-4-5 (lowest), 2-3-4-5-6, 3-4-5-6-7 … 10-J-Q-K-A (highest)"
        )
    return message % values


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
