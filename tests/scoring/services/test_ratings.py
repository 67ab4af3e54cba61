"""The ratings the writes store (scoring.services.ratings) against openskill's own Plackett-Luce
run over the same games, through every kind of change a game can go through; and a read that
only reads them."""

from __future__ import annotations

import csv
import datetime
import io
import random
import re

import pytest
from django.test import TestCase
from django.urls import reverse
from openskill.models import PlackettLuce

from scoring import services
from scoring.models import Club, Game, RatingsMark, RatingSnapshot
from scoring.selectors import rating_model, ratings
from tests.factories import finish, make_club, make_game, make_user, record
from tests.made_once import made_once
from tests.pages import text
from tests.scoring.rated import openskill_run

NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay")

pytestmark = pytest.mark.django_db


def play(club, rng: random.Random) -> Game:
    """A game among four of NAMES to 100 under the default rules: the losers of each deal hold
    12 or 13 cards, so equal totals are common."""
    game = make_game(club, rng.sample(NAMES, 4))
    while not game.is_finished:
        cards = [rng.choice((12, 13)) for _ in range(4)]
        cards[rng.randrange(4)] = 0
        record(game, *cards)
        game.refresh_from_db()
    return game


def assert_matches_openskill(client, club) -> None:
    answer = client.get(reverse("scoring:ratings-json", args=[club.pk])).json()
    expected = openskill_run(club)
    assert answer["model"] == "PlackettLuce"
    assert {line["player"] for line in answer["players"]} == set(expected)
    for line in answer["players"]:
        mu, sigma, games = expected[line["player"]]
        assert line["mu"] == pytest.approx(mu, abs=0.01)
        assert line["sigma"] == pytest.approx(sigma, abs=0.01)
        assert line["rating"] == pytest.approx(mu - 3 * sigma, abs=0.01)
        assert line["games"] == games
    shown = [line["rating"] for line in answer["players"]]
    assert shown == sorted(shown, reverse=True), "highest rating first"


@pytest.fixture(scope="module")
def seeded_rows(django_db_setup, django_db_blocker):
    """A club of 60 finished games (and one deleted), each write's after-commit work done, as a
    request's is; made once for the module (tests/made_once.py)."""
    with made_once(django_db_blocker):
        owner = make_user()
        club = make_club(owner)
        rng = random.Random(30)
        games = [play(club, rng) for _ in range(61)]
        with TestCase.captureOnCommitCallbacks(execute=True):
            services.delete_game(game=games[20], by=owner)
        yield club.pk, rng.getstate()


@pytest.fixture
def seeded_club(client, seeded_rows):
    """The seeded club as this test finds it, its owner signed in, and the seed's dice where
    they stopped."""
    club_pk, dice = seeded_rows
    club = Club.objects.get(pk=club_pk)
    client.force_login(club.owner)
    rng = random.Random()
    rng.setstate(dice)
    return club, club.owner, rng


def test_sixty_games_with_ties_and_a_deleted_game_match_openskill(client, seeded_club):
    club, _owner, _rng = seeded_club
    assert Game.objects.filter(club=club, status=Game.Status.FINISHED).count() == 60
    tied = [
        game
        for game in Game.objects.filter(club=club)
        if len(set(game.seats.values_list("total", flat=True))) < 4
    ]
    assert tied, "the seed gives equal totals"
    assert_matches_openskill(client, club)


def test_every_kind_of_change_rerates_from_that_game_on(
    client, seeded_club, django_capture_on_commit_callbacks
):
    club, owner, rng = seeded_club
    assert_matches_openskill(client, club)
    order = list(
        Game.objects.filter(club=club, status=Game.Status.FINISHED).order_by("finished_at", "pk")
    )
    committed = django_capture_on_commit_callbacks  # each change's after-commit work done
    # An early game deleted: every later rating changes.
    with committed(execute=True):
        services.delete_game(game=order[3], by=owner)
    assert_matches_openskill(client, club)
    # A game undone back to unfinished.
    with committed(execute=True):
        services.undo_last_deal(game=order[10], by=owner)
    assert_matches_openskill(client, club)
    # A deal of a finished game corrected: the seats' order at the end changes.
    edited = order[15]
    seats = edited.seats.count()
    with committed(execute=True):
        services.edit_deal(game=edited, number=1, cards_left=[13, 0, 13, 12][:seats], by=owner)
    assert_matches_openskill(client, club)
    # Moved to another season: the club's order of games, and so the ratings, stay.
    season = services.start_season(
        club=club, name="Winter", starts_on=datetime.date(2030, 1, 1), by=owner
    )
    services.move_game(game=order[5], season=season, by=owner)
    assert_matches_openskill(client, club)
    # The undone game finished again, now the last to finish: rated in the write itself.
    undone = Game.objects.get(pk=order[10].pk)
    while not undone.is_finished:
        record(undone, 0, 13, 13, 13)
        undone.refresh_from_db()
    assert_matches_openskill(client, club)


def test_reading_again_recomputes_nothing(
    client, seeded_club, django_assert_num_queries, django_capture_on_commit_callbacks
):
    club, owner, _rng = seeded_club
    assert RatingSnapshot.objects.filter(club=club).count() == 60 * 4
    # The session's user, the club, the ratings and their names: no game is read.
    with django_assert_num_queries(4):
        client.get(reverse("scoring:ratings-json", args=[club.pk]))
    # A change to the last game leaves every earlier snapshot as it was.
    last = Game.objects.filter(club=club, status=Game.Status.FINISHED).latest("finished_at", "pk")
    first_ids = set(
        RatingSnapshot.objects.filter(club=club).exclude(game=last).values_list("pk", flat=True)
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.undo_last_deal(game=last, by=owner)
    assert set(RatingSnapshot.objects.filter(club=club).values_list("pk", flat=True)) == first_ids
    assert_matches_openskill(client, club)


def test_a_game_that_finishes_is_rated_by_its_own_write(client):
    """The common change, a game finishing last in its club's order, rates that one game in
    the write's transaction: the ratings are whole the moment it commits."""
    owner = make_user()
    club = make_club(owner)
    client.force_login(owner)
    for _ in range(3):
        finish_game(club, ("Ann", "Ben", "Cy", "Dee"), (0, 13, 12, 13))
        assert not RatingsMark.objects.get(club=club).stale
        assert_matches_openskill(client, club)


def test_a_read_never_rates(client, seeded_club, django_assert_num_queries, monkeypatch):
    """A change to an old game leaves the games after it to be rated once it commits. Until
    that has run (here it never does: the test's transaction doesn't commit), every page that
    shows ratings shows what is stored, as of the last game still rated, in as many queries as
    ever: no read rates a game, and none writes."""
    club, owner, _rng = seeded_club
    order = Game.objects.filter(club=club, status=Game.Status.FINISHED).order_by("finished_at")
    services.delete_game(game=order[2], by=owner)
    assert RatingsMark.objects.get(club=club).stale

    def refused(*args, **kwargs):
        raise AssertionError("a read rated games")

    monkeypatch.setattr(PlackettLuce, "rate", refused)
    # The session's user, the club, the ratings and their names: no game is read.
    with django_assert_num_queries(4):
        shown = client.get(reverse("scoring:ratings-json", args=[club.pk])).json()
    assert sum(line["games"] for line in shown["players"]) == 2 * 4, "as of the second game"
    season = club.seasons.get()
    player = club.players.get(name="Ann")
    for page in (
        reverse("scoring:all-time", args=[club.pk]),
        reverse("scoring:club", args=[club.pk]),
        reverse("scoring:season", args=[season.pk]),
        reverse("scoring:player", args=[player.pk]),
    ):
        assert client.get(page).status_code == 200
    assert RatingSnapshot.objects.filter(club=club).count() == 2 * 4


def finish_game(club, names, deal):
    """A game of `names` ended by the same deal until someone reaches 100."""
    game = make_game(club, names)
    while not game.is_finished:
        record(game, *deal)
        game.refresh_from_db()
    return game


def test_a_season_shows_ratings_as_of_its_last_game_and_sets_the_few_apart(client):
    owner = make_user()
    club = make_club(owner)
    first = club.seasons.get()
    finish_game(club, ("Ann", "Ben", "Cy", "Dee"), (0, 13, 12, 13))
    as_first_ended = {line["player"]: line["rating"] for line in ratings.table(club.pk)}
    spring = services.start_season(
        club=club, name="Spring", starts_on=datetime.date(2030, 1, 1), by=owner, min_games=2
    )
    for _ in range(2):
        finish_game(club, ("Ann", "Ben", "Cy", "Eve"), (13, 0, 12, 13))
    finish_game(club, ("Ann", "Ben", "Cy", "Fay"), (13, 0, 12, 13))
    client.force_login(owner)

    old = client.get(reverse("scoring:season", args=[first.pk])).content.decode()
    ann = re.search(r'>Ann</a>.*?class="col-rating">([^<]+)<', old, re.S).group(1)
    assert ann == f"{as_first_ended['Ann']:.1f}", "the rating as the season ended"

    new = client.get(reverse("scoring:season", args=[spring.pk])).content.decode()
    assert "Not yet ranked" in new
    unranked = new[new.index("Not yet ranked") :]
    assert ">Fay</a> — 1 game" in unranked, "one game of the two the season asks"
    table = new[: new.index("Not yet ranked")]
    assert ">Fay</a>" not in table and ">Eve</a>" in table

    rows = list(
        csv.reader(
            io.StringIO(
                b"".join(
                    client.get(
                        reverse("scoring:season-standings-csv", args=[spring.pk])
                    ).streaming_content
                ).decode()
            )
        )
    )
    assert "Rating" in rows[0]
    now = {line["player"]: line["rating"] for line in ratings.table(club.pk)}
    eve = next(row for row in rows if row[1] == "Eve")
    assert eve[rows[0].index("Rating")] == f"{now['Eve']:.1f}"


def test_the_chances_show_before_the_first_deal_and_add_up_to_100(client):
    owner = make_user()
    club = make_club(owner)
    for _ in range(3):
        finish_game(club, ("Ann", "Ben", "Cy", "Dee"), (0, 13, 12, 13))
    game = make_game(club, ("Ann", "Ben", "Cy", "Eve"))
    client.force_login(owner)
    html = client.get(reverse("scoring:game", args=[game.pk])).content.decode()
    assert "Chances of winning" in html
    shown = dict(
        re.findall(r'chance-name">([^<]+)</span> <strong class="chance-percent">(\d+)%', html)
    )
    assert sum(int(percent) for percent in shown.values()) == 100
    assert int(shown["Ann"]) > int(shown["Eve"]) > int(shown["Ben"]), "Ann won all three"
    record(game, 0, 5, 5, 5)
    html = client.get(reverse("scoring:game", args=[game.pk])).content.decode()
    assert "Chances of winning" not in html


def test_the_player_page_shows_the_rating_and_its_line(client):
    owner = make_user()
    club = make_club(owner)
    for _ in range(2):
        finish_game(club, ("Ann", "Ben", "Cy", "Dee"), (0, 13, 12, 13))
    ann = club.players.get(name="Ann")
    client.force_login(owner)
    html = client.get(reverse("scoring:player", args=[ann.pk])).content.decode()
    expected = next(line for line in ratings.table(club.pk) if line["player"] == "Ann")
    assert f'<strong id="player-rating">{expected["rating"]:.1f}</strong>' in html
    assert "Rating, game by game" in html


def test_a_new_season_takes_a_minimum_of_games(client):
    owner = make_user()
    club = make_club(owner)
    client.force_login(owner)
    url = reverse("scoring:new-season", args=[club.pk])
    refused = client.post(url, {"name": "Spring", "starts_on": "2030-01-01", "min_games": "-1"})
    assert "Enter a number of games, 0 to rank everyone" in refused.content.decode()
    client.post(url, {"name": "Spring", "starts_on": "2030-01-01", "min_games": "5"})
    assert club.seasons.get(name="Spring").min_games == 5


def newcomer_after(places: list[int]) -> float:
    """The rating of a newcomer after games among newcomers, finishing at these places."""
    model = rating_model.model()
    me = model.rating()
    for place in places:
        others = [4, 3, 2, 1]
        others.remove(place)
        teams = [[me], *([model.rating()] for _ in others)]
        (me,), *_ = model.rate(teams, ranks=[float(place), *map(float, others)])
    return rating_model.Rated(1, 1, 1, 1, me.mu, me.sigma, len(places)).rating


def test_what_the_rating_help_says_of_newcomers_holds_in_the_model():
    """/ratings/: last in a first game is about −3; ten thirds sit above one win of one, and
    two wins of two below ten seconds without a win."""
    assert newcomer_after([]) == 0
    assert round(newcomer_after([4])) == -3
    assert newcomer_after([3] * 10) > newcomer_after([1])
    assert newcomer_after([1, 1]) < newcomer_after([2] * 10)


def test_the_rating_help_says_what_the_number_means_in_both_languages(client):
    page = text(client.get("/ratings/"))
    assert "μ − 3σ: a cautious estimate of skill" in page
    assert "falls after bad results: a newcomer who finishes last in their first game" in page
    assert "It is not a count of wins." in page
    assert "climbs" not in page
    client.post("/i18n/setlang/", {"language": "zh-hant", "next": "/"})
    page = text(client.get("/ratings/"))
    assert "一個保守的實力估算" in page and "評分不是勝局的數目" in page
    assert "cautious" not in page


def test_the_line_beside_the_rating_column_says_it_falls_too(client):
    game = make_game()
    finish(game)
    client.force_login(game.club.owner)
    page = text(client.get(reverse("scoring:season", args=[game.season_id])))
    assert "It rises as the site grows sure of you and falls after bad results" in page
