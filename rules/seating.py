"""A club night's seating, drawn for every round up front: byes fair, few repeat meetings.

Several tables of `table_size` players play at once, round after round. `draw` plans the rounds
still to come for the players present now, after the rounds already played (which it never
changes), and holds to these rules:

- Every present player is in each round once: at a table of exactly `table_size` seats, or, when
  the players don't fill the tables (len(players) % table_size of them), sitting out.
- Byes are fair. A player's byes are the rounds they didn't play: the played rounds they weren't
  seated in count, so a latecomer who missed rounds has those byes already, and a player who
  left is nobody's concern any more. Those sitting out a round are always among those with the
  fewest byes so far (the earlier planned rounds counted): nobody sits out twice before every
  present player has sat out once, and after that the byes stay within one of each other.
- Repeat meetings are as few as the search finds: `repeats` of the whole night, the played
  rounds counted in. Sixteen players at tables of four meet nobody twice in five rounds.
- Seat order varies: b follows a (plays right after a) when b sits on a's left, at the next seat
  clockwise. Each table is turned to repeat as few follow pairs as it can (`follows_repeated`),
  once the repeat meetings are as few as they will be.
- The same set of players, rounds, rounds played and seed give the same seats: players are
  sorted first, and the search uses `random.Random(seed)` and a budget of work it counts
  (`SEARCH_WORK`), not a clock.
- A draw's time is bounded: the search stops at its budget whatever the night, and the rest of
  the draw grows with the seats drawn (at most 80 players over 12 rounds, as a night allows).

>>> night = draw(["Ann", "Ben", "Cat", "Dev", "Eve"], 5, seed=7, table_size=2)
>>> [len(night_round.tables) for night_round in night], repeats(night)
([2, 2, 2, 2, 2], 0)
>>> sorted(player for night_round in night for player in night_round.sitting_out)
['Ann', 'Ben', 'Cat', 'Dev', 'Eve']
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection, Hashable, Iterable, Sequence
from dataclasses import dataclass
from itertools import permutations
from math import comb
from typing import Any, Protocol

from rules.seating_search import Search

__all__ = ["Round", "draw", "follows_repeated", "lower_bound", "meetings", "repeats"]


class _Sortable(Hashable, Protocol):
    def __lt__(self, other: Any, /) -> bool: ...


TABLE_SIZES = (2, 3, 4)
# The search's budget, in the pairs of players it looks at (`Search.work`): about a tenth of a
# second of a core, whatever the night (`python -m tools.bench.seating --sweep` prints the
# slowest). Past it the search finds little: twenty times the budget took 1 to 10 more repeats
# off 12 rounds of 29 to 40 players (of 36 to 106).
SEARCH_WORK = 1_000_000
# Turning the tables to vary the seat order: passes over every table, at most.
ORIENT_PASSES = 3


@dataclass(frozen=True, slots=True)
class Round[P: _Sortable]:
    """One round of the night: each table's players clockwise from seat 1, and who sits out."""

    tables: tuple[tuple[P, ...], ...]
    sitting_out: tuple[P, ...] = ()


def meetings[P: _Sortable](rounds: Iterable[Round[P]]) -> Counter[tuple[P, P]]:
    """How often each pair (lower player first) sat at one table.

    >>> meetings([Round((("a", "b"),)), Round((("b", "a"),))])
    Counter({('a', 'b'): 2})
    """
    counts: Counter[tuple[P, P]] = Counter()
    for night_round in rounds:
        for table in night_round.tables:
            ordered = sorted(table)
            counts.update((a, b) for i, a in enumerate(ordered) for b in ordered[i + 1 :])
    return counts


def follow_pairs[P: _Sortable](table: Sequence[P]) -> list[tuple[P, P]]:
    """The table's (a, b) pairs where b plays right after a: b is at a's next seat clockwise.

    >>> follow_pairs("abcd"), follow_pairs("ab")
    ([('a', 'b'), ('b', 'c'), ('c', 'd'), ('d', 'a')], [('a', 'b'), ('b', 'a')])
    """
    if len(table) < 2:
        return []
    return [(table[i - 1], table[i]) for i in range(1, len(table))] + [(table[-1], table[0])]


def repeats[P: _Sortable](rounds: Iterable[Round[P]]) -> int:
    """Meetings beyond each pair's first: a pair at one table in three rounds is two repeats."""
    return sum(count - 1 for count in meetings(rounds).values())


def follows_repeated[P: _Sortable](rounds: Iterable[Round[P]]) -> int:
    """Follow pairs beyond each one's first: b after a in three rounds is two repeats."""
    counts = Counter(
        pair for night_round in rounds for t in night_round.tables for pair in follow_pairs(t)
    )
    return sum(count - 1 for count in counts.values())


def lower_bound(players: int, rounds: int, table_size: int = 4) -> int:
    """Fewer repeats than this no draw of a fresh night can have.

    The larger of two counts. Pairs: every round seats (players // table_size) tables of
    C(table_size, 2) pairs each, and there are only C(players, 2) pairs, so the meetings past
    that are repeats. Players: a player who plays g rounds meets g × (table_size - 1) others,
    and there are only players - 1 to meet, so the rest are repeats; each repeat is two players',
    hence the half. The byes, shared as evenly as `draw` shares them, say who plays how often;
    and sharing them evenly gives this count its least, so it holds for any draw.

    >>> lower_bound(16, 5), lower_bound(16, 6), lower_bound(5, 3), lower_bound(4, 2, 2)
    (0, 24, 8, 0)
    """
    tables, out = divmod(players, table_size)
    by_pairs = rounds * tables * comb(table_size, 2) - comb(players, 2)
    byes, more = divmod(rounds * out, players)
    excess = [
        max(0, (rounds - byes - (i < more)) * (table_size - 1) - (players - 1))
        for i in range(players)
    ]
    return max(0, by_pairs, -(-sum(excess) // 2))


def draw[P: _Sortable](
    players: Collection[P],
    rounds: int,
    *,
    seed: int,
    table_size: int = 4,
    played: Sequence[Round[P]] = (),
) -> tuple[Round[P], ...]:
    """Plan `rounds` more rounds for `players` (present now), after the `played` ones.

    Byes are drawn first, each round from those with the fewest so far; then the tables. With
    no rounds played, players a square of the table size and no more rounds than the table size
    plus one, the rounds are an affine plane's parallel classes, where no pair meets twice;
    otherwise a greedy draw improved by a tabu search (`rules.seating_search`). Last, each
    table is turned to repeat as few follow pairs as it can.
    """
    people = _checked(players, rounds, table_size)
    rng = random.Random(seed)
    number = {person: i for i, person in enumerate(people)}
    present = set(people)
    history = [
        [[number[p] for p in table if p in present] for table in night_round.tables]
        for night_round in played
    ]
    out = _sitting_out(_byes_so_far(people, played), rounds, len(people) % table_size, rng)
    if not played and len(people) == table_size**2 and rounds <= table_size + 1:
        plan = _affine_plane(table_size, rounds, rng)
    else:
        seated = [sorted(set(range(len(people))).difference(sitting)) for sitting in out]
        search = Search(len(people), history, seated, rng, table_size)
        if len(people) >= 2 * table_size:
            floor = 0 if played else lower_bound(len(people), rounds, table_size)
            search.improve(SEARCH_WORK, floor)
        plan = search.plan
    follows = Counter(
        (number[a], number[b])
        for night_round in played
        for table in night_round.tables
        for a, b in follow_pairs(table)
        if a in present and b in present
    )
    oriented = _oriented(plan, follows, rng)
    return tuple(
        Round(
            tuple(tuple(people[p] for p in table) for table in tables),
            tuple(people[p] for p in sitting),
        )
        for tables, sitting in zip(oriented, out, strict=True)
    )


def _checked[P: _Sortable](players: Collection[P], rounds: int, table_size: int) -> list[P]:
    """The players sorted, once the night is one that can be drawn."""
    if table_size not in TABLE_SIZES:
        raise ValueError(f"tables seat 2, 3 or 4 players, not {table_size}")
    if rounds < 0:
        raise ValueError(f"the rounds to draw can't be negative: {rounds}")
    people = sorted(players)
    if len(set(people)) != len(people):
        repeated = sorted({p for p, count in Counter(people).items() if count > 1})
        raise ValueError(f"each player once: {', '.join(map(str, repeated))} repeated")
    if len(people) < table_size:
        raise ValueError(f"{len(people)} players can't fill a table of {table_size}")
    return people


def _byes_so_far[P: _Sortable](people: Sequence[P], played: Sequence[Round[P]]) -> list[int]:
    """Each present player's byes: the played rounds they weren't seated in."""
    seated = [{p for table in night_round.tables for p in table} for night_round in played]
    return [sum(person not in at for at in seated) for person in people]


def _sitting_out(byes: Sequence[int], rounds: int, out: int, rng: random.Random) -> list[list[int]]:
    """Who sits out each planned round: `out` of those with the fewest byes, ties drawn."""
    byes = list(byes)
    chosen = []
    for _ in range(rounds):
        order = list(range(len(byes)))
        rng.shuffle(order)
        order.sort(key=byes.__getitem__)
        sitting = sorted(order[:out])
        for p in sitting:
            byes[p] += 1
        chosen.append(sitting)
    return chosen


def _field(q: int) -> tuple[list[list[int]], list[list[int]]]:
    """Addition and multiplication tables of the field of q elements (q = 2, 3 or 4).

    For 4, the polynomials over the field of 2 modulo x² + x + 1, written as their bits.

    >>> _field(4)[1][2]
    [0, 2, 3, 1]
    """
    if q == 4:
        times = [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]
        return [[a ^ b for b in range(q)] for a in range(q)], times
    return [[(a + b) % q for b in range(q)] for a in range(q)], [
        [a * b % q for b in range(q)] for a in range(q)
    ]


def _affine_plane(q: int, rounds: int, rng: random.Random) -> list[list[list[int]]]:
    """`rounds` of the q + 1 parallel classes of the affine plane of order q, as tables of
    players numbered x * q + y for the point (x, y): two points share one line, so two players
    share one table of the night at most. Classes and players are drawn at random."""
    plus, times = _field(q)
    classes = [[[c * q + y for y in range(q)] for c in range(q)]]  # the lines x = c
    for slope in range(q):  # the lines y = slope * x + c
        classes.append([[x * q + plus[times[slope][x]][c] for x in range(q)] for c in range(q)])
    names = list(range(q * q))
    rng.shuffle(names)
    return [[[names[p] for p in line] for line in lines] for lines in rng.sample(classes, rounds)]


def _oriented(
    plan: list[list[list[int]]], follows: Counter[tuple[int, int]], rng: random.Random
) -> list[list[list[int]]]:
    """Each table turned so as to repeat as few follow pairs as it can, the others' counted:
    each in turn from a random start, then again while a turn repeats fewer."""
    tables = [[rng.sample(table, len(table)) for table in round_tables] for round_tables in plan]
    passes, changed = 0, True
    while changed and passes < ORIENT_PASSES:
        changed = False
        for round_tables in tables:
            for i, table in enumerate(round_tables):
                if passes:
                    follows.subtract(follow_pairs(table))
                first, rest = table[0], table[1:]
                best = min(
                    ([first, *order] for order in permutations(rest)),
                    key=lambda order: sum(follows[pair] > 0 for pair in follow_pairs(order)),
                )
                follows.update(follow_pairs(best))
                changed |= best != table
                round_tables[i] = best
        passes += 1
    return tables
