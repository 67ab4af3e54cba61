"""The search behind `rules.seating.draw`: who sits where, for as few repeat meetings as can be.

Players are numbers 0..n-1 here. `Search` holds every planned round's tables and how often each
pair of players has met (the rounds already played counted in), and improves the tables by a
tabu search: it takes a pair that meets too often, moves one of them in a round where they sat
together to the table where the swap costs least, and keeps the best tables it saw. Every
choice comes from the `random.Random` it is given, and the search stops at a budget of work
counted as it goes (`work`: pairs of players looked at), never at a clock, so the same seed gives
the same tables on any machine, busy or not, and a search costs the same however big the night.

A repeat is a meeting beyond a pair's first: a pair that met three times is two repeats.

>>> search = Search(4, [[[0, 1], [2, 3]]], [[0, 1, 2, 3], [0, 1, 2, 3]], random.Random(1))
>>> search.cost, sorted(sorted(map(sorted, tables)) for tables in search.plan)
(0, [[[0, 2], [1, 3]], [[0, 3], [1, 2]]])
"""

from __future__ import annotations

import random
from collections.abc import Sequence

# How long a player may not move back to the table they left, in that round: enough steps that
# the search can't circle between two tables, few enough that the good moves stay open.
TABU_STEPS = 8
PATIENCE = 200
SHAKE = 2
# The work of a step besides the swaps it weighs (choosing a pair and a round, the swap made),
# and of weighing one player's swaps besides the pairs looked at, in the units of `Search.work`:
# measured, so that the budget holds the time of a search of few players and many steps as
# well as of many players and few steps.
STEP_WORK = 100
WEIGH_WORK = 30


class Search:
    """The planned rounds' tables over `players` numbered players, and their meetings so far.

    `history` is the rounds already played, as tables of the present players' numbers (anyone
    not here tonight left out); `seated` is, for each planned round, the players who play it.
    The planned rounds are first drawn greedily, each player at the table they met least.
    """

    def __init__(
        self,
        players: int,
        history: Sequence[Sequence[Sequence[int]]],
        seated: Sequence[Sequence[int]],
        rng: random.Random,
        table_size: int = 2,
    ) -> None:
        self.n = players
        self.rng = rng
        self.size = table_size
        # The work done so far, in pairs of players looked at: what `improve`'s budget counts.
        self.work = 0
        self.meet = [[0] * players for _ in range(players)]
        for tables in history:
            for table in tables:
                for i, a in enumerate(table):
                    for b in table[i + 1 :]:
                        self.meet[a][b] += 1
                        self.meet[b][a] += 1
        # The played rounds' meetings: no move changes them, and their repeats stay.
        self.fixed = [row[:] for row in self.meet]
        self.cost = sum(max(0, count - 1) for a, row in enumerate(self.meet) for count in row[a:])
        self.bad: list[int] = []  # pairs (a * n + b, a < b) that meet too often and can move
        self.bad_at: dict[int, int] = {}
        self.plan = [self._greedy(list(playing), table_size) for playing in seated]
        self.seat = [[-1] * players for _ in seated]
        for round_number, tables in enumerate(self.plan):
            for number, table in enumerate(tables):
                for player in table:
                    self.seat[round_number][player] = number

    def _greedy(self, players: list[int], table_size: int) -> list[list[int]]:
        """One round's tables: players in a shuffled order, each at the open table whose
        players they have met least (the rounds so far counted in)."""
        self.rng.shuffle(players)
        tables: list[list[int]] = [[] for _ in range(len(players) // table_size)]
        for player in players:
            met = self.meet[player]
            open_tables = [table for table in tables if len(table) < table_size]
            best = min(open_tables, key=lambda table: sum(met[other] ** 2 for other in table))
            best.append(player)
        for table in tables:
            self._add(table, 1)
        return tables

    def _add(self, table: Sequence[int], step: int) -> None:
        """Count (step 1) or uncount (step -1) the meetings of everyone at `table`."""
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                self._meet(a, b, step)

    def _meet(self, a: int, b: int, step: int) -> None:
        row = self.meet[a]
        row[b] += step
        self.meet[b][a] += step
        count = row[b]
        if count >= (2 if step > 0 else 1):
            self.cost += step
        key = a * self.n + b if a < b else b * self.n + a
        movable = count >= 2 and count > self.fixed[a][b]
        if movable and key not in self.bad_at:
            self.bad_at[key] = len(self.bad)
            self.bad.append(key)
        elif not movable and key in self.bad_at:
            # Remove in O(1): the last pair takes the removed one's place.
            place, last = self.bad_at.pop(key), self.bad.pop()
            if last != key:
                self.bad[place] = last
                self.bad_at[last] = place

    def swap(self, round_number: int, x: int, y: int) -> None:
        """Swap players `x` and `y`, at different tables of one planned round."""
        seat = self.seat[round_number]
        tables = self.plan[round_number]
        a, b = seat[x], seat[y]
        for other in tables[a]:
            if other != x:
                self._meet(x, other, -1)
                self._meet(y, other, 1)
        for other in tables[b]:
            if other != y:
                self._meet(y, other, -1)
                self._meet(x, other, 1)
        tables[a][tables[a].index(x)] = y
        tables[b][tables[b].index(y)] = x
        seat[x], seat[y] = b, a

    def best_swap(
        self, round_number: int, x: int, tabu: dict[tuple[int, int, int], int], step: int
    ) -> tuple[int, int] | None:
        """The swap of `x` in this round that adds the fewest repeats (ties drawn), and that
        change; a swap back to a table left lately is taken only if it beats the best seen."""
        meet, seat = self.meet, self.seat[round_number]
        at = seat[x]
        home = [other for other in self.plan[round_number][at] if other != x]
        mx = meet[x]
        leave_x = sum(1 for other in home if mx[other] >= 2)
        best: list[int] = []
        least = 1 << 30
        tables = self.plan[round_number]
        # Each player of each other table, against x's table and their own.
        self.work += WEIGH_WORK + (len(tables) - 1) * self.size * (len(home) + self.size)
        for number, table in enumerate(tables):
            if number == at:
                continue
            x_back = tabu.get((round_number, x, number), -1) > step
            join_x = sum(1 for other in table if mx[other]) - leave_x
            for y in table:
                my = meet[y]
                change = join_x - (mx[y] > 0)
                for other in home:
                    if my[other]:
                        change += 1
                for other in table:
                    if my[other] >= 2 and other != y:
                        change -= 1
                if change > least:
                    continue
                if (
                    x_back or tabu.get((round_number, y, at), -1) > step
                ) and self.cost + change >= self.best_cost:
                    continue
                if change < least:
                    least, best = change, [y]
                else:
                    best.append(y)
        if not best:
            return None
        return self.rng.choice(best), least

    def improve(self, budget: int, floor: int = 0) -> None:
        """Tabu search until its `work` reaches `budget`, the repeats are down to `floor` or no
        pair that can move meets too often; the tables end as the best the search saw. When the
        best hasn't improved for PATIENCE steps, the search goes back to it and shakes it."""
        self.best_cost = self.cost
        kept = self._copy()
        tabu: dict[tuple[int, int, int], int] = {}
        since = step = 0
        while self.work < budget and self.bad and self.cost > floor:
            if step - since > PATIENCE:
                self._restore(kept)
                kept = self._copy()
                self._shake()
                tabu.clear()
                since = step
            self._step(step, tabu)
            if self.cost < self.best_cost:
                self.best_cost = self.cost
                kept = self._copy()
                since = step
            step += 1
        self._restore(kept)

    def _copy(self) -> list[list[list[int]]]:
        self.work += len(self.plan) * self.n
        return [[table[:] for table in tables] for tables in self.plan]

    def _shake(self) -> None:
        """A few swaps at random, to leave the best tables' neighbourhood."""
        rng = self.rng
        for _ in range(SHAKE):
            round_number = rng.randrange(len(self.plan))
            first, second = rng.sample(self.plan[round_number], 2)
            self.swap(round_number, rng.choice(first), rng.choice(second))

    def _step(self, step: int, tabu: dict[tuple[int, int, int], int]) -> None:
        """One step: a pair that meets too often, a planned round they met in, and the best
        swap of either of them there."""
        rng = self.rng
        self.work += STEP_WORK + len(self.seat) + self.n * self.size
        a, b = divmod(self.bad[rng.randrange(len(self.bad))], self.n)
        together = [
            number for number, seat in enumerate(self.seat) if seat[a] >= 0 and seat[a] == seat[b]
        ]
        round_number = rng.choice(together)
        meet, fixed = self.meet, self.fixed
        chosen = sorted(
            {
                player
                for table in self.plan[round_number]
                for i, c in enumerate(table)
                for d in table[i + 1 :]
                if meet[c][d] >= 2 and meet[c][d] > fixed[c][d]
                for player in (c, d)
            }
        )
        found = [self.best_swap(round_number, x, tabu, step) for x in chosen]
        moves = [
            (move[1], x, move[0]) for x, move in zip(chosen, found, strict=True) if move is not None
        ]
        if not moves:
            return
        least = min(move[0] for move in moves)
        _, x, y = rng.choice([move for move in moves if move[0] == least])
        seat = self.seat[round_number]
        tabu[round_number, x, seat[x]] = step + TABU_STEPS + rng.randrange(4)
        tabu[round_number, y, seat[y]] = step + TABU_STEPS + rng.randrange(4)
        self.swap(round_number, x, y)

    def _restore(self, kept: list[list[list[int]]]) -> None:
        self.work += 2 * len(self.plan) * self.n * self.size
        for tables in self.plan:
            for table in tables:
                self._add(table, -1)
        self.plan = kept
        for round_number, tables in enumerate(kept):
            for number, table in enumerate(tables):
                self._add(table, 1)
                for player in table:
                    self.seat[round_number][player] = number
