"""Head-to-head figures and a player's own figures, over the hand-worked club of
tests/scoring/rivals.py."""

from __future__ import annotations

import pytest

from scoring.models import Club, Game
from scoring.selectors.head_to_head import club_matrix, head_to_head
from scoring.selectors.player_figures import player_figures
from tests.factories import (
    make_club,
    make_game,
    make_player,
    make_ruled_game,
    record,
    record_facts,
)
from tests.made_once import made_once
from tests.scoring.rivals import a_club_of_rivals

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def rivals_made(django_db_setup, django_db_blocker) -> tuple[int, dict[str, int]]:
    """Made once for the module (tests/made_once.py)."""
    with made_once(django_db_blocker):
        club, games = a_club_of_rivals()
        yield club.pk, {letter: game.pk for letter, game in games.items()}


@pytest.fixture
def rivals(rivals_made) -> tuple[Club, dict[str, Game]]:
    """The club of rivals and its games by letter, as this test finds them."""
    club_pk, game_pks = rivals_made
    games = Game.objects.in_bulk(game_pks.values())
    return Club.objects.get(pk=club_pk), {letter: games[pk] for letter, pk in game_pks.items()}


def test_each_opponent_met_in_a_finished_game_has_games_ahead_behind_and_points(
    rivals, django_assert_num_queries
):
    club, _games = rivals
    ann = club.players.get(name="Ann")
    with django_assert_num_queries(1):
        figures = head_to_head(ann)
    assert [
        (m.opponent, m.games, m.ahead, m.behind, m.points_difference) for m in figures.meetings
    ] == [
        ("Ben", 4, 3, 1, 276),
        ("Cy", 4, 2, 2, 60),
        ("Dee", 3, 3, 0, 246),
        ("Eve", 1, 1, 0, 57),
    ]


def test_equal_totals_put_neither_ahead(rivals):
    club, _games = rivals
    ben = club.players.get(name="Ben")
    by_name = {m.opponent: m for m in head_to_head(ben).meetings}
    # Game A: Ben, Cy and Dee all ended on 117.
    assert (by_name["Cy"].games, by_name["Cy"].ahead, by_name["Cy"].behind) == (4, 1, 2)
    assert (by_name["Dee"].games, by_name["Dee"].ahead, by_name["Dee"].behind) == (3, 1, 1)


def test_the_nemesis_finishes_ahead_most_often_and_the_favourite_behind(rivals):
    club, _games = rivals
    ann = head_to_head(club.players.get(name="Ann"))
    assert ann.nemesis.opponent == "Cy"
    # Ben and Dee both finished behind Ann three times: Dee in every game they played.
    assert ann.favourite.opponent == "Dee"


def test_nemesis_and_favourite_need_three_games_together(rivals):
    club, _games = rivals
    eve = head_to_head(club.players.get(name="Eve"))
    # Eve played one game: everyone finished ahead of her but Ben, and none counts yet.
    assert [(m.opponent, m.behind) for m in eve.meetings] == [("Ann", 1), ("Ben", 0), ("Cy", 1)]
    assert eve.nemesis is None and eve.favourite is None


def test_nobody_is_a_nemesis_who_never_finished_ahead():
    club = make_club()
    for _ in range(3):
        game = make_game(club, ("Ann", "Ben", "Cy", "Dee"))
        for _ in range(3):
            record(game, 0, 13, 13, 13)
    ann = head_to_head(club.players.get(name="Ann"))
    assert ann.nemesis is None
    assert ann.favourite.opponent == "Ben"  # three level on 3 of 3: by name
    ben = head_to_head(club.players.get(name="Ben"))
    assert ben.nemesis.opponent == "Ann" and ben.favourite is None


def test_the_matrix_gives_wins_and_losses_of_the_row_player_over_the_column_player(
    rivals, django_assert_num_queries
):
    club, _games = rivals
    # Every player's finished games counted, then the seats of those shown.
    with django_assert_num_queries(2):
        matrix = club_matrix(club)
    assert [row.name for row in matrix.rows] == ["Ann", "Ben", "Cy", "Dee", "Eve"]
    assert matrix.asked is None and matrix.others == [] and matrix.players == 5
    cells = [[cell and (cell.ahead, cell.behind) for cell in row.cells] for row in matrix.rows]
    assert cells == [
        [None, (3, 1), (2, 2), (3, 0), (1, 0)],
        [(1, 3), None, (1, 2), (1, 1), (0, 1)],
        [(2, 2), (2, 1), None, (2, 0), (1, 0)],
        [(0, 3), (1, 1), (0, 2), None, None],
        [(0, 1), (1, 0), (0, 1), None, None],
    ]


def test_a_big_clubs_matrix_is_of_the_players_with_the_most_games_then_by_name(
    rivals, django_assert_num_queries
):
    club, _games = rivals
    # Ann, Ben and Cy played 4 finished games, Dee 3, Eve 1: Ann, Ben and Cy are shown.
    with django_assert_num_queries(2):
        matrix = club_matrix(club, most=3)
    assert [row.name for row in matrix.rows] == ["Ann", "Ben", "Cy"]
    cells = [[cell and (cell.ahead, cell.behind) for cell in row.cells] for row in matrix.rows]
    assert cells == [[None, (3, 1), (2, 2)], [(1, 3), None, (1, 2)], [(2, 2), (2, 1), None]]
    dee, eve = (club.players.get(name=name).pk for name in ("Dee", "Eve"))
    assert matrix.others == [(dee, "Dee"), (eve, "Eve")] and matrix.players == 5
    assert matrix.asked is None
    # Level on games, the name decides: of Ann, Ben and Cy on 4, the first two by name.
    assert [row.name for row in club_matrix(club, most=2).rows] == ["Ann", "Ben"]


def test_any_other_players_row_can_be_asked_for_against_the_players_shown(
    rivals, django_assert_num_queries
):
    club, _games = rivals
    dee = club.players.get(name="Dee")
    with django_assert_num_queries(2):
        matrix = club_matrix(club, most=3, asked=dee.pk)
    assert (matrix.asked.player_id, matrix.asked.name) == (dee.pk, "Dee")
    assert [cell and (cell.ahead, cell.behind) for cell in matrix.asked.cells] == [
        (0, 3),
        (1, 1),
        (0, 2),
    ]
    # The rows shown are as they were: Dee is no column.
    assert [len(row.cells) for row in matrix.rows] == [3, 3, 3]


def test_only_another_player_with_a_finished_game_can_be_asked_for(rivals):
    club, _games = rivals
    shown = club.players.get(name="Ann").pk
    never_played = make_player(club, "Zoe").pk
    elsewhere = make_player(make_club(name="Elsewhere"), "Yan").pk
    for asked in (shown, never_played, elsewhere, 10**30):
        assert club_matrix(club, most=3, asked=asked).asked is None


def test_a_players_figures_come_from_the_finished_games(rivals, django_assert_num_queries):
    club, games = rivals
    ann = club.players.get(name="Ann")
    with django_assert_num_queries(1):
        figures = player_figures(ann)
    assert (figures.games, figures.deals, figures.deals_won) == (4, 12, 6)
    assert (figures.caught_ten, figures.caught_thirteen, figures.counted_deals) == (3, 0, 12)
    assert figures.average_penalty == 6.25
    assert figures.longest_run == 2
    assert (figures.best.game_id, figures.best.total) == (games["A"].pk, 0)
    assert (figures.worst.game_id, figures.worst.total) == (games["C"].pk, 60)


def test_caught_counts_ten_cards_or_more_and_all_thirteen(rivals):
    club, games = rivals
    dee = player_figures(club.players.get(name="Dee"))
    assert (dee.caught_ten, dee.caught_thirteen, dee.counted_deals) == (9, 6, 9)
    assert dee.longest_run == 0
    assert (dee.best.game_id, dee.worst.game_id) == (games["B"].pk, games["A"].pk)


def test_a_run_is_broken_by_a_game_lost():
    club = make_club()
    for winner in (0, 0, 1, 0, 0, 0, 1):
        game = make_game(club, ("Ann", "Ben", "Cy", "Dee"))
        deal = [13, 13, 13, 13]
        deal[winner] = 0
        for _ in range(3):
            record(game, *deal)
    assert player_figures(club.players.get(name="Ann")).longest_run == 3


def test_cards_caught_with_are_not_counted_where_the_rules_ask_no_cards_left():
    game = make_ruled_game("finishing-order")
    for _ in range(20):  # Dee, last every time, reaches 100 after 20 deals of 5
        record_facts(game, order=(0, 1, 2, 3))
    figures = player_figures(game.club.players.get(name="Ben"))
    assert figures.games == 1
    assert figures.caught_ten is None and figures.caught_thirteen is None
    assert figures.deals_won == 0 and figures.deals == 20


def test_no_finished_game_no_figures():
    game = make_game()
    record(game, 0, 13, 13, 13)
    figures = player_figures(game.club.players.get(name="Ann"))
    assert figures.games == 0
    assert figures.best is None and figures.average_penalty is None
    assert head_to_head(game.club.players.get(name="Ann")).meetings == []
