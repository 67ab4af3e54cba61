"""Lookup tables for five-card hands, built once at import: what five ranks make, by key.

`rules.plays.classify` looks every five-card hand up here, and so does `tools.bench.hands`, which
runs through all 2,598,960 of them. The tables hold each hand's kind and its strength key
without suits; `rules.plays.complete_key` adds the suit the rules in force compare by.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, combinations_with_replacement
from math import prod

from rules.cards import Rank
from rules.kinds import Kind
from rules.options import Straights

# Lookup tables for five-card hands, shared by `classify` and by `tools.bench.hands`, one per
# Straights rule, since which ranks make a straight, and where it ranks, depend on it.
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
