"""How should I break up my hand? The best few ways to split 13 cards into plays.

Every card goes into exactly one play (a single, pair, triple or five-card hand), and each way
of splitting gets a score from four parts, each shown to the player with its points: −10 a
play, less for low singles, more for 2s and aces kept as control and for stronger five-card
hands (`rules.split_score` says how much, and why).

Splits that score the same are ordered by stronger singles, then stronger pairs, triples and
five-card hands. Splits that differ only in which suit of a rank goes where count as one: the
player sees different shapes, not the same shape three times.

>>> hand = parse_cards("3d 4c 5h 6s 7d 7c 9h 9s jd qd kc 2s 2h")
>>> top, second, third = arrangements(hand)
>>> [str(play) for play in top.plays]
['7♣', 'J♦', 'Q♦', 'K♣', '9♥ 9♠', '2♥ 2♠', '3♦ 4♣ 5♥ 6♠ 7♦']
>>> for part in top.parts:
...     print(part)
7 plays: −70
Low singles, below 8 (7♣): −2
2s and aces kept for control, alone or in pairs (2♥ 2♠): +16
Five-card hands, more for stronger kinds (straight): +1
>>> top.score, [str(play) for play in second.plays if play.size == 5], second.score
(-55, ['2♥ 3♦ 4♣ 5♥ 6♠'], -61)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

from rules.advice import five_card_plays
from rules.cards import Card, parse_cards  # noqa: F401 (the doctests use parse_cards)
from rules.i18n import gettext
from rules.plays import Play, classify
from rules.ruleset import DEFAULT_RULES, RuleSet
from rules.split_score import BALANCED, ScorePart, Weights, five_points, score_parts, small_points

HAND_SIZE = 13


@dataclass(frozen=True, slots=True)
class Arrangement:
    """A hand split into plays (singles, pairs, triples, then five-card hands; weakest first in
    each), its score (higher is better) and the parts the score adds up from."""

    plays: tuple[Play, ...]
    score: int
    parts: tuple[ScorePart, ...]


def arrangements(
    hand: Sequence[Card],
    rules: RuleSet = DEFAULT_RULES,
    *,
    best: int = 3,
    weights: Weights = BALANCED,
) -> list[Arrangement]:
    """The `best` highest-scoring ways to split a 13-card hand into plays, best first.

    Fewer come back only when the hand can't be split `best` different ways. `weights` rank
    them for a goal of their own (`rules.split_plans`); each one's `score` and `parts` are still
    the points the module's docstring names.
    """
    cards = tuple(hand)
    _checked(cards)
    if best < 1:
        raise ValueError(f"best must be 1 or more, not {best}")
    return _Search(_Hand(cards, rules), best, weights).run()


def best_for_each(
    hand: Sequence[Card], rules: RuleSet, weights: Sequence[Weights]
) -> list[Arrangement]:
    """The best split of a 13-card hand under each of `weights`, in their order.

    The hand's five-card plays are found and placed once for all the searches: a one-suit hand
    holds 1,287 flushes, and finding them costs more than a search.
    """
    cards = tuple(hand)
    _checked(cards)
    shared = _Hand(cards, rules)
    return [_Search(shared, 1, each).run()[0] for each in weights]


def _checked(cards: tuple[Card, ...]) -> None:
    """Refuse (ValueError, saying why) anything but 13 different cards."""
    if len(cards) != HAND_SIZE:
        raise ValueError(
            gettext("Splitting a hand needs all 13 of its cards, not %(count)s")
            % {"count": len(cards)}
        )
    if len(set(cards)) != len(cards):
        twice = next(card for card in cards if cards.count(card) > 1)
        raise ValueError(
            gettext("%(card)s is there twice: each card can be played only once") % {"card": twice}
        )


# How the cards of one rank, weakest first, can be split into singles, pairs and triples, as
# blocks of positions. Singles take the strongest cards and two pairs share out the strength:
# among splits of one shape, that is what the tie-break (stronger singles, then pairs) prefers.
_SPLITS: dict[int, tuple[tuple[tuple[int, ...], ...], ...]] = {
    0: ((),),
    1: (((0,),),),
    2: (((0, 1),), ((0,), (1,))),
    3: (((0, 1, 2),), ((0, 1), (2,)), ((0,), (1,), (2,))),
    4: (((0, 1, 2), (3,)), ((0, 3), (1, 2)), ((0, 1), (2,), (3,)), ((0,), (1,), (2,), (3,))),
}


@cache
def _rank_options(
    rank: int, count: int, weights: Weights = BALANCED
) -> tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]:
    """Each way to split `count` cards of `rank` with its points, the best first."""
    options = [
        (sum(small_points(rank, len(block), weights) for block in blocks), blocks)
        for blocks in _SPLITS[count]
    ]
    return tuple(sorted(options, key=lambda option: option[0], reverse=True))


@cache
def _overlap(rank: int, count: int, weights: Weights = BALANCED) -> int:
    """The most two fives can score above their separate gains by sharing one rank's cards.

    Taking one card each from a pair of 9s costs the pair twice when counted apart, but the
    two singles it would leave are never played: together they gain 10 more.
    """
    best = [_rank_options(rank, left, weights)[0][0] for left in range(count + 1)]
    extras = (
        best[count - a - b] - best[count - a] - best[count - b] + best[count]
        for a in range(1, count)
        for b in range(1, count - a + 1)
    )
    return max([0, *extras])


class _Placed(NamedTuple):
    """A five-card play and where its cards sit in the hand: the same under any weights."""

    play: Play
    positions: tuple[int, ...]  # of its cards in the hand
    cards: int  # the same, as a bitmask
    groups: int  # bitmask of the rank groups it takes cards from
    taken: dict[int, int]  # rank group → how many cards it takes from it
    signature: tuple


@dataclass(slots=True)
class _Five:
    """A five-card play as `_Placed` has it, with what taking it out of the hand does to the
    score under the search's weights."""

    play: Play
    positions: tuple[int, ...]
    cards: int
    groups: int
    taken: dict[int, int]
    signature: tuple
    points: int
    gain: int  # its points, less what its cards would have scored split by rank
    slack: int  # the most sharing its rank groups with a second five can add to both gains


class _Hand:
    """A hand's cards weakest first in groups of one rank, and its five-card plays: what every
    search of the hand shares, whatever it weighs."""

    def __init__(self, cards: tuple[Card, ...], rules: RuleSet) -> None:
        self.rules = rules
        self.cards = sorted(cards, key=lambda card: (card.rank, rules.suit_strength(card.suit)))
        self.ranks: list[int] = []  # rank of each group
        self.members: list[list[int]] = []  # card positions of each group, weakest first
        group_of: list[int] = []
        for position, card in enumerate(self.cards):
            if not self.ranks or self.ranks[-1] != card.rank:
                self.ranks.append(card.rank)
                self.members.append([])
            self.members[-1].append(position)
            group_of.append(len(self.ranks) - 1)
        position_of = {card: position for position, card in enumerate(self.cards)}
        self.fives: list[_Placed] = []
        for play in five_card_plays(self.cards, rules):
            positions = tuple(position_of[card] for card in play.cards)
            taken: dict[int, int] = {}
            for position in positions:
                taken[group_of[position]] = taken.get(group_of[position], 0) + 1
            cards_mask = sum(1 << position for position in positions)
            groups = sum(1 << group for group in taken)
            self.fives.append(_Placed(play, positions, cards_mask, groups, taken, _signature(play)))
        self.classified: dict[tuple[Card, ...], Play] = {}


class _Search:
    """Choose none, one or two five-card plays; split what is left rank by rank.

    Every split of a hand is such a choice: at most two fives fit in 13 cards, and the rest can
    only be singles, pairs and triples, which never mix ranks. The score adds up play by play,
    so the best split of the rest is the best split of each rank on its own, and a choice of
    fives has a best total found with a few table lookups. Choices are then expanded best first
    until no choice left can reach the scores already found.
    """

    def __init__(self, hand: _Hand, best: int, weights: Weights) -> None:
        self.best, self.weights = best, weights
        self.rules, self.cards, self.classified = hand.rules, hand.cards, hand.classified
        self.ranks, self.members = hand.ranks, hand.members
        # Each group's best points with 0, 1, … of its cards left: looked up for every five.
        self.best_left = [
            [_rank_options(rank, left, weights)[0][0] for left in range(len(members) + 1)]
            for rank, members in zip(self.ranks, self.members, strict=True)
        ]
        self.full = [left[-1] for left in self.best_left]
        self.base = sum(self.full)
        overlap = [
            _overlap(rank, len(members), weights)
            for rank, members in zip(self.ranks, self.members, strict=True)
        ]
        self.fives: list[_Five] = []
        for placed in hand.fives:
            points = five_points(placed.play, weights)
            gain = points + self._change(placed.taken)
            slack = sum(overlap[group] for group in placed.taken)
            self.fives.append(_Five(*placed, points, gain, slack))
        # Highest gain first, so the best pairs of fives are met early and raise the floor.
        self.fives.sort(key=lambda five: five.gain, reverse=True)

    def _change(self, taken: dict[int, int]) -> int:
        """How the best split by rank changes when `taken` cards are taken from their groups."""
        return sum(
            self.best_left[group][len(self.members[group]) - count] - self.full[group]
            for group, count in taken.items()
        )

    def choices(self) -> tuple[float, list[tuple[int, tuple[int, ...]]]]:
        """The floor, and (best total, indices of the fives) for each choice of fives that
        reaches it: the few that may make the top."""
        fives, base = self.fives, self.base
        found: list[tuple[int, tuple[int, ...]]] = [(base, ())]
        found += [(base + five.gain, (i,)) for i, five in enumerate(fives)]
        floor = _Floor(self.best)
        for total, chosen in found:
            floor.add(total, tuple(fives[i].signature for i in chosen))
        # A bitset per card of the fives holding it: a five's disjoint partners are one AND
        # away, which matters when a one-suit hand holds 1,287 flushes.
        holding = [0] * HAND_SIZE
        for i, five in enumerate(fives):
            for position in five.positions:
                holding[position] |= 1 << i
        every = (1 << len(fives)) - 1
        for i, first in enumerate(fives[:-1]):
            ceiling = base + first.gain + first.slack  # with a partner that gains nothing
            if ceiling + fives[i + 1].gain < floor.value:
                continue  # not even the next best five would make a pair worth keeping
            clash = (1 << (i + 1)) - 1  # and the fives before it, paired with it already
            for position in first.positions:
                clash |= holding[position]
            partners = every & ~clash
            while partners:
                lowest = partners & -partners
                partners ^= lowest
                second = fives[lowest.bit_length() - 1]
                if ceiling + second.gain < floor.value:
                    break  # partners come in falling gain: the rest are worse still
                if first.groups & second.groups:
                    taken = dict(first.taken)
                    for group, count in second.taken.items():
                        taken[group] = taken.get(group, 0) + count
                    total = base + first.points + second.points + self._change(taken)
                else:
                    total = base + first.gain + second.gain
                if total >= floor.value:
                    found.append((total, (i, lowest.bit_length() - 1)))
                    floor.add(total, tuple(sorted((first.signature, second.signature))))
        # Fives that differ only in suits score the same and make the same shapes: expand one,
        # the one using the weakest cards, which leaves the strongest singles and pairs.
        kept: dict[tuple, tuple[tuple[int, ...], int, tuple[int, ...]]] = {}
        for total, chosen in found:
            if total >= floor.value:
                signature = tuple(sorted(fives[i].signature for i in chosen))
                used = sorted((p for i in chosen for p in fives[i].positions), reverse=True)
                if signature not in kept or tuple(used) < kept[signature][0]:
                    kept[signature] = (tuple(used), total, chosen)
        return floor.value, [(total, chosen) for _, total, chosen in kept.values()]

    def run(self) -> list[Arrangement]:
        lowest, found = self.choices()
        kept: list[tuple[tuple, list[Play]]] = []  # (rank, plays), best first
        for total, chosen in sorted(found, reverse=True):
            floor = lowest if len(kept) < self.best else max(lowest, kept[-1][0][0])
            if total < floor:
                break  # every choice left scores less than the `best` found
            for score, plays in self._expand(chosen, floor):
                signature = tuple(sorted(map(_signature, plays)))
                # The signature last, so that even full ties come out in one order every time.
                kept.append(((score, _tie_break(plays), signature), plays))
            kept = sorted(kept, key=lambda entry: entry[0], reverse=True)[: self.best]
        arrangements = []
        for _, plays in kept:
            parts = score_parts(plays)
            score = sum(part.points for part in parts)  # the weights ranked; this is what shows
            arrangements.append(Arrangement(tuple(plays), score, parts))
        return arrangements

    def _expand(self, chosen: tuple[int, ...], floor: float) -> list[tuple[int, list[Play]]]:
        """The best splits of the rest around these fives, with their scores: the `best` of
        them and any that tie, and none below `floor`."""
        fives = [self.fives[i] for i in chosen]
        used = sum(five.cards for five in fives)
        fixed = sum(five.points for five in fives)
        rests = {
            group: left
            for group, members in enumerate(self.members)
            if (left := [position for position in members if not used >> position & 1])
        }
        # The most each group can still add, from here to the end: a partial split that can't
        # reach the floor even with every later group at its best is dropped early.
        reach = [0] * (len(rests) + 1)
        for k, (group, left) in reversed(list(enumerate(rests.items()))):
            reach[k] = (
                reach[k + 1] + _rank_options(self.ranks[group], len(left), self.weights)[0][0]
            )
        partial: list[tuple[int, tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]]] = [(0, ())]
        for k, (group, left) in enumerate(rests.items()):
            merged = sorted(
                (
                    (points + more, chosen_blocks + ((group, blocks),))
                    for points, chosen_blocks in partial
                    for more, blocks in _rank_options(self.ranks[group], len(left), self.weights)
                ),
                key=lambda entry: entry[0],
                reverse=True,
            )
            cut = max(merged[min(self.best, len(merged)) - 1][0], floor - fixed - reach[k + 1])
            partial = [entry for entry in merged if entry[0] >= cut]
        splits = []
        for points, chosen_blocks in partial:
            plays = [five.play for five in fives]
            for group, blocks in chosen_blocks:
                left = [self.cards[position] for position in rests[group]]
                plays += [self._classify(tuple(left[i] for i in block)) for block in blocks]
            plays.sort(key=lambda play: (play.size, play.key))
            splits.append((fixed + points, plays))
        return splits

    def _classify(self, cards: tuple[Card, ...]) -> Play:
        if cards not in self.classified:
            self.classified[cards] = classify(cards, self.rules)
        return self.classified[cards]


class _Floor:
    """The `best`-th highest total among choices of fives that look different to a player.

    Choices whose fives have the same kinds, ranks and one-suit suits score the same and lead
    to the same arrangements, so they count once; every arrangement worth showing scores at
    least this much, and anything below it can be dropped.
    """

    def __init__(self, best: int) -> None:
        self.best = best
        self.totals: dict[tuple, int] = {}

    @property
    def value(self) -> float:
        if len(self.totals) < self.best:
            return float("-inf")
        return min(self.totals.values())

    def add(self, total: int, signature: tuple) -> None:
        if total < self.value:
            return
        self.totals[signature] = total
        if len(self.totals) > self.best:
            del self.totals[min(self.totals, key=self.totals.__getitem__)]


def _tie_break(plays: Sequence[Play]) -> tuple:
    """Stronger singles first, then stronger pairs, triples and five-card hands."""
    return tuple(
        tuple(sorted((play.key for play in plays if play.size == size), reverse=True))
        for size in (1, 2, 3, 5)
    )


def _signature(play: Play) -> tuple:
    """What a player sees in a play: its kind and ranks, and its suit when it is all one suit."""
    suits = {card.suit for card in play.cards}
    suit = int(next(iter(suits))) if play.size == 5 and len(suits) == 1 else -1
    return (play.size, str(play.kind), tuple(sorted(card.rank for card in play.cards)), suit)
