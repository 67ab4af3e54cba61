"""An import whose games didn't end under the season's rules offers "End them as they stand"
(issue 47, finding 9): each such game ends at its last deal, the lowest total winning and a
tie sharing the win, in the import's own transaction. Every figure kept is what a replay of the
game gives, and the ratings are openskill's over the club's finished games."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring import services
from scoring.imports.preview import preview_import
from scoring.imports.readers import read_score_file
from scoring.models import Deal, Game, GameChange
from scoring.services.totals import replay_game
from tests.factories import record
from tests.scoring.imports.samples import import_it, upload
from tests.scoring.rated import openskill_run

# Three games of the season's rules (to 100): the first and second stop short of 100, the
# second with Ann and Ben level on the lowest total; the third is over after its third deal.
SHEETS = b"""2024-03-19
Ann Ben Cy Dee
0 4 10 13
8 0 12 13
2024-03-20
Ann Ben Cy Dee
0 4 10 13
4 0 9 13
2024-03-21
Ann Ben Cy Dee
0 13 13 13
0 13 13 13
0 13 13 13
"""


@pytest.fixture
def season(club):
    return club.seasons.get(is_current=True)


@pytest.fixture
def previewed(owner_client, club, season):
    return upload(owner_client, club, SHEETS, season=str(season.pk))


def games(season) -> list[Game]:
    return list(season.games.order_by("created_at"))


def assert_as_replayed(game: Game) -> None:
    """What the game keeps is what replaying its deals gives."""
    replayed, _times = replay_game(game)
    seats = list(game.seats.order_by("position"))
    assert [seat.total for seat in seats] == list(replayed.totals)
    assert [seat.won for seat in seats] == [
        position in replayed.winners for position in range(len(seats))
    ]
    assert game.is_finished == (replayed.finished_after is not None)
    winner = seats[replayed.winner].player_id if replayed.winner is not None else None
    assert (game.winner_id, game.win_shared) == (winner, len(replayed.winners) > 1)


def test_the_preview_offers_to_end_the_games_that_didnt(previewed):
    page = previewed.content.decode()
    assert "2 games aren't over under this season's rules" in page
    assert ">Import and end them as they stand</button>" in page
    assert ">Import and leave them open</button>" in page
    assert "Ben would win with the lowest total" in page
    assert "Ann and Ben would share the win" in page


def test_ended_as_they_stand_the_lowest_wins_and_a_tie_shares(
    owner_client, club, season, previewed, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        done = import_it(owner_client, club, previewed, end_as_they_stand="1")
    assert done.status_code == 302
    first, tied, over = games(season)
    assert first.is_finished and first.winner.name == "Ben" and first.last_deal == 2
    assert tied.is_finished and tied.win_shared and tied.winners_named == "Ann and Ben"
    assert over.is_finished and over.winner.name == "Ann" and over.last_deal is None
    for game in (first, tied, over):
        assert_as_replayed(game)
    ended = GameChange.objects.filter(action=GameChange.Action.END)
    assert sorted(ended.values_list("game_id", "deal_number")) == [(first.pk, 2), (tied.pk, 2)]
    assert_rated_as_openskill(owner_client, club)
    assert all(played == 3 for _mu, _sigma, played in openskill_run(club).values())
    page = owner_client.get(done.url).content.decode()
    assert "3 games imported into" in page and "2 ended as they stood." in page


def test_left_open_they_come_in_still_being_played(owner_client, club, season, previewed):
    assert import_it(owner_client, club, previewed).status_code == 302
    first, tied, over = games(season)
    assert not first.is_finished and not tied.is_finished and over.is_finished
    assert first.last_deal is None and tied.last_deal is None
    for game in (first, tied, over):
        assert_as_replayed(game)


def test_the_import_sent_again_saves_nothing_more(owner_client, club, season, previewed):
    assert import_it(owner_client, club, previewed, end_as_they_stand="1").status_code == 302
    again = import_it(owner_client, club, previewed, end_as_they_stand="1").content.decode()
    assert "The preview has expired" in again
    assert season.games.count() == 3 and Deal.objects.count() == 7


def test_undoing_the_last_deal_of_a_game_ended_so_plays_it_on(owner_client, club, season, owner):
    previewed = upload(owner_client, club, SHEETS, season=str(season.pk))
    import_it(owner_client, club, previewed, end_as_they_stand="1")
    first = games(season)[0]
    assert first.is_finished
    services.undo_last_deal(game=first, by=owner)
    first.refresh_from_db()
    assert not first.is_finished and first.last_deal is None
    assert_as_replayed(first)
    record(first, 13, 0, 13, 13)  # the game plays on under its rules: still short of 100
    first.refresh_from_db()
    assert not first.is_finished
    assert_as_replayed(first)


def test_a_correction_keeps_a_game_ended_so_and_the_lowest_total_wins(
    owner_client, club, season, owner, previewed, django_capture_on_commit_callbacks
):
    import_it(owner_client, club, previewed, end_as_they_stand="1")
    first = games(season)[0]
    with django_capture_on_commit_callbacks(execute=True):
        services.edit_deal(game=first, number=2, by=owner, cards_left=[0, 8, 12, 13])
    first.refresh_from_db()
    assert first.is_finished and first.last_deal == 2 and first.winner.name == "Ann"
    assert_as_replayed(first)
    assert_rated_as_openskill(owner_client, club)


def test_ending_games_as_they_stand_costs_no_query_more_for_more_games(
    club, season, owner, django_assert_num_queries
):
    """Each game ended is written with the rest, a table at a time."""

    def preview(names: str, games: int):
        sheet = f"2024-03-19\n{names}\n0 4 10 13\n" * games
        return preview_import(club, season, read_score_file(sheet.encode()), end_as_they_stand=True)

    one, two = preview("Ann Ben Cy Dee", 1), preview("Eve Fay Gus Hal", 2)
    assert (one.games_ended_as_they_stood, two.games_ended_as_they_stood) == (1, 2)
    with CaptureQueriesContext(connection) as saving:
        services.save_import(club=club, target=season, preview=one, sha256="1" * 64, by=owner)
    with django_assert_num_queries(len(saving.captured_queries)):
        services.save_import(club=club, target=season, preview=two, sha256="2" * 64, by=owner)
    assert season.games.filter(status=Game.Status.FINISHED).count() == 3


def assert_rated_as_openskill(client, club) -> None:
    """The club's ratings, as ratings.json gives them, are openskill's over its finished games."""
    expected = openskill_run(club)
    shown = client.get(f"/clubs/{club.pk}/ratings.json").json()["players"]
    assert {line["player"] for line in shown} == set(expected)
    for line in shown:
        mu, sigma, played = expected[line["player"]]
        assert line["mu"] == pytest.approx(mu, abs=0.01)
        assert line["sigma"] == pytest.approx(sigma, abs=0.01)
        assert line["games"] == played
