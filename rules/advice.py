"""What can I play? Every legal play in a hand, and the ones that answer the play on the table.

Nothing here knows which runs are straights or how suits rank: every play comes from
`classify` under the rules given, so each house rule gets its own answers.

>>> hand = parse_cards("3d 3s 4h 5c 6d 7s 9h 9s")
>>> [(group.kind.label, len(group.plays)) for group in answers(hand, None)]
[('single', 8), ('pair', 2), ('straight', 2)]
>>> [str(play) for group in answers(hand, classify(parse_cards("8d 8s"))) for play in group.plays]
['9♥ 9♠']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, product

from rules.cards import Card, Rank, Suit, parse_cards  # noqa: F401 (the doctests use parse_cards)
from rules.i18n import gettext
from rules.kinds import Kind
from rules.plays import NotAPlay, Play, can_open, classify
from rules.ruleset import DEFAULT_RULES, RuleSet


@dataclass(frozen=True, slots=True)
class PlayGroup:
    """Plays of one kind, weakest first."""

    kind: Kind
    plays: tuple[Play, ...]


def all_plays(hand: Sequence[Card], rules: RuleSet = DEFAULT_RULES) -> list[Play]:
    """Every legal play that can be made from the hand, by size, weakest first within a size.

    >>> [str(play) for play in all_plays(parse_cards("9h 9s 2d"))]
    ['9♥', '9♠', '2♦', '9♥ 9♠']
    """
    cards = _checked_hand(hand, rules)
    return _by_strength([play for size in (1, 2, 3, 5) for play in _plays(cards, size, rules)])


def answers(
    hand: Sequence[Card],
    table: Play | None,
    rules: RuleSet = DEFAULT_RULES,
    *,
    opening: bool = False,
) -> list[PlayGroup]:
    """The plays from the hand that can go on `table`, grouped by kind, weakest first.

    With `table` None (leading) every play can go; the groups come singles, pairs, triples, then
    five-card hands tier by tier, weakest first. `opening` (the deal's first play) keeps only the
    plays holding the lowest card, and none when the hand doesn't hold it.

    >>> hand = parse_cards("3d 4c 5h 6s 7d 7c")
    >>> [str(play) for group in answers(hand, None, opening=True) for play in group.plays]
    ['3♦', '3♦ 4♣ 5♥ 6♠ 7♦', '3♦ 4♣ 5♥ 6♠ 7♣']
    >>> answers(hand, classify(parse_cards("2s")))
    []
    """
    cards = _checked_hand(hand, rules)
    if table is None:
        plays = [play for size in (1, 2, 3, 5) for play in _plays(cards, size, rules)]
    else:
        if opening:
            raise ValueError(gettext("The opening play is made on an empty table"))
        shared = sorted(set(cards) & set(table.cards))
        if shared:
            raise ValueError(
                gettext("%(cards)s can't be both in your hand and on the table")
                % {"cards": " ".join(map(str, shared))}
            )
        plays = [play for play in _plays(cards, table.size, rules) if play.beats(table)]
    if opening:
        plays = [play for play in plays if can_open(play.cards, rules)]
    groups: dict[Kind, list[Play]] = {}
    for play in _by_strength(plays):
        groups.setdefault(play.kind, []).append(play)
    # A five-card key starts with its tier, so the weakest play of a group places the group.
    ordered = sorted(groups.values(), key=lambda group: (group[0].size, group[0].key))
    return [PlayGroup(group[0].kind, tuple(group)) for group in ordered]


def five_card_plays(hand: Sequence[Card], rules: RuleSet = DEFAULT_RULES) -> list[Play]:
    """Every five-card play in the hand, in no particular order. The hand is not checked.

    Asking `classify` about all 1,287 fives of a 13-card hand takes 13 ms, almost all of it on
    cards that make nothing. Five cards of mixed suits make a play or not by their ranks alone
    (straights, full houses and fours are about ranks under every house rule), so that question
    is asked once per rank pattern and remembered; fives of one suit are all asked.

    >>> fives = five_card_plays(parse_cards("4h 5h 6h 7h 8h 8s 9c"))
    >>> [str(play) for play in sorted(fives, key=lambda play: play.key)]
    ['4♥ 5♥ 6♥ 7♥ 8♠', '5♥ 6♥ 7♥ 8♥ 9♣', '5♥ 6♥ 7♥ 8♠ 9♣', '4♥ 5♥ 6♥ 7♥ 8♥']
    """
    plays: list[Play] = []
    by_suit: dict[Suit, list[Card]] = {}
    by_rank: dict[Rank, list[Card]] = {}
    for card in sorted(hand):
        by_suit.setdefault(card.suit, []).append(card)
        by_rank.setdefault(card.rank, []).append(card)
    for suited in by_suit.values():
        plays += [play for five in combinations(suited, 5) if (play := _play_or_none(five, rules))]
    if len(by_suit) == 1:
        return plays
    makes_a_play = _mixed_patterns(rules)
    # Cards are in rank order, so every five ranks come out lowest first, each pattern once.
    for ranks in set(combinations([int(card.rank) for card in sorted(hand)], 5)):
        if ranks not in makes_a_play:
            makes_a_play[ranks] = _play_or_none(_mixed_suits(ranks), rules) is not None
        if makes_a_play[ranks]:
            picks = (combinations(by_rank[Rank(rank)], ranks.count(rank)) for rank in set(ranks))
            for picked in product(*picks):
                five = tuple(card for cards in picked for card in cards)
                if len({card.suit for card in five}) > 1:  # one suit was asked above
                    plays.append(classify(five, rules))
    return plays


def _checked_hand(hand: Sequence[Card], rules: RuleSet) -> tuple[Card, ...]:
    cards = tuple(hand)
    if not 1 <= len(cards) <= rules.hand_size:
        raise ValueError(
            gettext("A hand holds 1 to %(most)s cards, not %(count)s")
            % {"most": rules.hand_size, "count": len(cards)}
        )
    if len(set(cards)) != len(cards):
        twice = next(card for card in cards if cards.count(card) > 1)
        raise ValueError(
            gettext("%(card)s is there twice: each card can be played only once") % {"card": twice}
        )
    return cards


def _plays(cards: Sequence[Card], size: int, rules: RuleSet) -> list[Play]:
    """The plays of `size` cards: pairs and triples are one rank, fives anything classify takes."""
    if size == 5:
        return five_card_plays(cards, rules)
    by_rank: dict[Rank, list[Card]] = {}
    for card in cards:
        by_rank.setdefault(card.rank, []).append(card)
    return [classify(some, rules) for same in by_rank.values() for some in combinations(same, size)]


def _by_strength(plays: list[Play]) -> list[Play]:
    return sorted(plays, key=lambda play: (play.size, play.key))


def _play_or_none(cards: Sequence[Card], rules: RuleSet) -> Play | None:
    try:
        return classify(cards, rules)
    except NotAPlay:
        return None


@lru_cache(maxsize=32)
def _mixed_patterns(rules: RuleSet) -> dict[tuple[int, ...], bool]:
    """Per rule set: whether five ranks (lowest first) in mixed suits make a play.

    Kept for the last few rule sets only: targets and finish lines make thousands of them.
    """
    return {}


def _mixed_suits(ranks: tuple[int, ...]) -> tuple[Card, ...]:
    # Cards of one rank sit side by side and get different suits; the fifth card repeats the
    # first suit, so the five are never all one suit.
    return tuple(Card(Rank(rank), Suit(index % 4)) for index, rank in enumerate(ranks))
