"""A club night's seating draw: full tables, fair byes, few repeat meetings, the same seats for
the same seed, and the rounds already played honoured."""

import random
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import seating
from rules.seating import Round, draw, follows_repeated, lower_bound, repeats
from rules.seating_search import Search


def check_round(night_round: Round, present: set, table_size: int) -> None:
    seated = [player for table in night_round.tables for player in table]
    assert all(len(table) == table_size for table in night_round.tables)
    assert len(night_round.tables) == len(present) // table_size
    assert len(night_round.sitting_out) == len(present) % table_size
    assert sorted(seated + list(night_round.sitting_out)) == sorted(present)


def check_byes(present: set, played, planned) -> None:
    """Those sitting out each planned round are among those with the fewest byes so far."""
    byes = {
        player: sum(all(player not in table for table in past.tables) for past in played)
        for player in present
    }
    for night_round in planned:
        seated = present - set(night_round.sitting_out)
        if night_round.sitting_out:
            assert max(byes[p] for p in night_round.sitting_out) <= min(byes[p] for p in seated)
        for player in night_round.sitting_out:
            byes[player] += 1


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_sixteen_players_meet_nobody_twice_in_five_rounds(seed):
    night = draw(range(16), 5, seed=seed)
    for night_round in night:
        check_round(night_round, set(range(16)), 4)
    assert repeats(night) == 0 == follows_repeated(night) == lower_bound(16, 5)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_thirteen_players_sit_out_one_a_round_and_nobody_twice(seed):
    night = draw(range(13), 4, seed=seed)
    out = [player for night_round in night for player in night_round.sitting_out]
    assert len(out) == 4 == len(set(out))
    assert repeats(night) <= 9


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_twenty_four_players_repeat_four_meetings_at_most_in_six_rounds(seed):
    night = draw(range(24), 6, seed=seed)
    assert repeats(night) <= 4
    # Pairs that meet twice needn't have one follow the other twice as well.
    assert follows_repeated(night) == 0


def test_forty_players_meet_nobody_twice_in_eight_rounds():
    assert repeats(draw(range(40), 8, seed=5)) == 0


def test_the_same_seed_draws_the_same_seats_whatever_order_the_players_come_in():
    names = ["Ann", "Ben", "Cat", "Dev", "Eve", "Fay", "Gus", "Hal", "Ivy"]
    night = draw(names, 4, seed=3, table_size=2)
    assert draw(list(reversed(names)), 4, seed=3, table_size=2) == night
    assert draw(set(names), 4, seed=3, table_size=2) == night
    assert len({draw(names, 4, seed=seed, table_size=2) for seed in range(5)}) > 1


def test_no_rounds_is_no_rounds():
    assert draw(range(8), 0, seed=1) == ()


def test_the_played_rounds_meetings_count():
    played = [Round(((0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11), (12, 13, 14, 15)))]
    night = draw(range(16), 1, seed=4, played=played)
    assert repeats([*played, *night]) == 0
    assert all(sorted(p // 4 for p in table) == [0, 1, 2, 3] for table in night[0].tables)
    # Two tables of eight players who met in fours: each table keeps two pairs who met.
    played = [Round(((0, 1, 2, 3), (4, 5, 6, 7)))]
    assert repeats([*played, *draw(range(8), 1, seed=4, played=played)]) == 4


def test_a_latecomer_has_sat_out_the_rounds_they_missed():
    """Eight played two rounds; a ninth arrives for round 3 and plays while anyone has fewer
    byes; players 0-3 then leave, and the rest go on without them."""
    played = list(draw(range(8), 2, seed=6))
    later = draw(range(9), 4, seed=6, played=played)
    check_byes(set(range(9)), played, later)
    assert all(8 not in night_round.sitting_out for night_round in later)
    assert all(len(night_round.sitting_out) == 1 for night_round in later)
    played += later
    last = draw(range(4, 9), 2, seed=6, table_size=2, played=played)
    for night_round in last:
        check_round(night_round, set(range(4, 9)), 2)
    check_byes(set(range(4, 9)), played, last)


def test_one_table_turns_so_that_nobody_follows_the_same_player_twice_in_two_rounds():
    night = draw("abcd", 2, seed=2)
    assert [len(night_round.tables) for night_round in night] == [1, 1]
    assert repeats(night) == 6 and follows_repeated(night) == 0


def test_the_counts_of_meetings_and_followers():
    night = [Round((("a", "b", "c"),), ("d",)), Round((("c", "b", "a"),)), Round((("b", "c"),))]
    # a-b, b-c and a-c meet twice, b-c three times; c follows b twice, b follows c twice.
    assert repeats(night) == 4
    assert follows_repeated(night) == 2
    assert repeats([Round(((1,),))]) == follows_repeated([Round(((1,),))]) == 0


def test_the_lower_bound_takes_the_larger_count():
    assert lower_bound(16, 5) == 0
    assert lower_bound(16, 6) == 24  # 144 meetings of 120 pairs
    assert lower_bound(5, 2, 4) == 3  # three played twice: three pairs met twice
    assert lower_bound(6, 3, 2) == 0


@pytest.mark.parametrize(
    ("players", "rounds", "table_size", "message"),
    [
        (range(3), 2, 4, "3 players can't fill a table of 4"),
        ([1, 2, 2, 3, 3], 2, 2, "each player once: 2, 3 repeated"),
        (range(8), -1, 4, "the rounds to draw can't be negative: -1"),
        (range(8), 2, 5, "tables seat 2, 3 or 4 players, not 5"),
    ],
)
def test_nights_that_cant_be_drawn_are_refused(players, rounds, table_size, message):
    with pytest.raises(ValueError, match=message):
        draw(players, rounds, seed=1, table_size=table_size)


# A draw looks at no more pairs of players than this: the search's budget (seating.SEARCH_WORK)
# and the step that passes it.
MOST_PAIRS_LOOKED_AT = 1_100_000


@pytest.mark.parametrize(
    ("players", "rounds", "table_size", "played"),
    [(32, 12, 4, 0), (29, 12, 4, 0), (40, 12, 4, 0), (80, 12, 4, 6), (23, 12, 3, 0), (8, 12, 2, 6)],
)
def test_a_draw_stops_at_its_budget_whatever_the_night(players, rounds, table_size, played):
    """The search's work is counted, not timed: the pairs of players it looks at weighing each
    swap. Before, 32 players over 12 rounds looked at 16 million (1.25 s of a quiet core)."""
    pairs = 0
    weigh = Search.best_swap

    def counted(search, round_number, x, tabu, step):
        nonlocal pairs
        tables = search.plan[round_number]
        # Each player of each other table, against x's table and their own.
        pairs += (len(tables) - 1) * table_size * (2 * table_size - 1)
        return weigh(search, round_number, x, tabu, step)

    before = list(draw(range(players), played, seed=2, table_size=table_size))
    with patch.object(Search, "best_swap", counted):
        night = draw(range(players), rounds - played, seed=1, table_size=table_size, played=before)
    assert 0 < pairs <= MOST_PAIRS_LOOKED_AT
    assert night == draw(
        range(players), rounds - played, seed=1, table_size=table_size, played=before
    )


def test_a_search_whose_every_move_is_tabu_stands_still():
    """0 and 1 met in a played round and sit together again; every move back is tabu, and
    none could beat a best of no repeats (as if the search had seen one)."""
    search = Search(8, [[[0, 1]]], [range(8)], random.Random(1), table_size=4)
    seat = search.seat[0]
    if seat[1] != seat[0]:
        search.swap(0, 1, next(p for p in search.plan[0][seat[0]] if p != 0))
    assert search.cost == 1 and search.bad == [0 * 8 + 1]
    search.best_cost = 0
    tabu = {(0, player, table): 10 for player in range(8) for table in range(2)}
    assert search.best_swap(0, 0, tabu, step=0) is None
    before = [table[:] for table in search.plan[0]]
    search._step(0, tabu)
    assert search.plan[0] == before


@st.composite
def nights(draw_from):
    """Present players, rounds, table size, seed, and rounds played by some of them and by
    players since gone."""
    table_size = draw_from(st.integers(2, 4))
    present = draw_from(st.integers(max(4, table_size), 20))
    gone = draw_from(st.integers(0, 3))
    played = []
    for _ in range(draw_from(st.integers(0, 3))):
        pool = draw_from(st.permutations(range(present + gone)))
        seated = draw_from(st.integers(table_size, len(pool))) // table_size * table_size
        tables = tuple(
            tuple(pool[start : start + table_size]) for start in range(0, seated, table_size)
        )
        played.append(Round(tables, tuple(sorted(pool[seated:]))))
    return (
        list(range(present)),
        draw_from(st.integers(0, 6)),
        table_size,
        draw_from(st.integers(0, 2**32)),
        played,
    )


def random_seats(players, planned, table_size: int, seed: int) -> list[Round]:
    """The same byes, every round's players seated at random: what the search must beat."""
    rng = random.Random(seed)
    rounds = []
    for night_round in planned:
        seated = sorted(set(players) - set(night_round.sitting_out))
        rng.shuffle(seated)
        tables = zip(*[iter(seated)] * table_size, strict=False)
        rounds.append(Round(tuple(tables), night_round.sitting_out))
    return rounds


@settings(max_examples=60)
@given(nights())
def test_every_night_keeps_the_rules(night):
    players, rounds, table_size, seed, played = night
    # Fewer steps than a real draw takes: the rules hold at any step, and the property
    # test stays quick.
    with patch.object(seating, "SEARCH_WORK", 100_000):
        planned = draw(players, rounds, seed=seed, table_size=table_size, played=played)
        again = draw(players[::-1], rounds, seed=seed, table_size=table_size, played=played)
    assert planned == again
    assert len(planned) == rounds
    for night_round in planned:
        check_round(night_round, set(players), table_size)
    check_byes(set(players), played, planned)
    for other_seed in (seed, seed + 1):
        naive = random_seats(players, planned, table_size, other_seed)
        assert repeats([*played, *planned]) <= repeats([*played, *naive])
    if not played:
        assert repeats(planned) >= lower_bound(len(players), rounds, table_size)
