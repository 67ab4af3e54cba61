"""Demo data: random deals and games that follow the rules, stored fast and stored right."""

import datetime
import random
import re
import shlex
import statistics
import subprocess
from io import StringIO

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from rules.penalties import penalty, replay, validate_deal
from scoring import services
from scoring.models import Club, Deal, DealScore, Game, GameChange, Player, Seat
from scoring.services.demo import random_deal, random_game, seed_season
from tests.factories import make_game

NAMES = ["Ann", "Ben", "Cy", "Dee"]
seeds = st.integers(min_value=0, max_value=2**64)


@given(seeds, st.lists(st.floats(0.1, 10), min_size=4, max_size=4))
def test_a_random_deal_is_always_a_valid_deal(seed, skills):
    rng = random.Random(seed)
    for _ in range(20):
        assert validate_deal(random_deal(rng), NAMES) == []
        assert validate_deal(random_deal(rng, skills=skills), NAMES) == []


@given(seeds)
def test_a_random_game_ends_on_its_last_deal_with_one_player_lowest(seed):
    deals = random_game(random.Random(seed))
    game = replay(deals)
    assert all(validate_deal(deal, NAMES) == [] for deal in deals)
    assert game.finished_after == len(deals)
    assert game.outcome.finished
    assert len(game.outcome.lowest) == 1
    assert max(game.totals) >= 100


def test_random_games_look_like_real_ones():
    """About 26 deals to 100; mostly a few cards left; the whole hand now and then."""
    rng = random.Random(2024)
    games = [random_game(rng) for _ in range(400)]
    held = [cards for deals in games for deal in deals for cards in deal if cards]
    assert 24 <= statistics.mean(len(deals) for deals in games) <= 30
    assert 2.5 <= statistics.mean(held) <= 3.5
    assert 0.01 <= held.count(13) / len(held) <= 0.02
    assert any(replay(deals).deals[-2].outcome.tied for deals in games), "ties play on"


def test_the_more_skilful_player_goes_out_more_often():
    rng = random.Random(5)
    deals = [random_deal(rng, skills=[0.75, 1, 1, 1.35]) for _ in range(4000)]
    went_out = [deal.index(0) for deal in deals]
    assert went_out.count(3) > went_out.count(1) > went_out.count(0)


@pytest.fixture
def season(club):
    return club.seasons.get(is_current=True)


def test_seeded_games_are_exactly_what_recompute_would_store(season, owner):
    games = seed_season(
        season=season, by=owner, games=6, rng=random.Random(1), player_names=NAMES + ["Eve"]
    )
    assert len(games) == Game.objects.count() == 6

    def stored():
        return (
            list(Game.objects.order_by("pk").values_list("status", "winner", "finished_at")),
            list(
                Seat.objects.order_by("pk").values_list(
                    "game", "player", "position", "total", "deals_played", "deals_won", "thirteens"
                )
            ),
        )

    before = stored()
    for game in Game.objects.all():
        services.recompute(game)
    assert stored() == before
    assert {status for status, _, _ in before[0]} == {Game.Status.FINISHED}


def test_seeded_deals_carry_their_penalties_tokens_and_history(season, owner):
    seed_season(season=season, by=owner, games=3, rng=random.Random(2), player_names=NAMES)
    deals = Deal.objects.all()
    assert len({deal.token for deal in deals}) == len(deals) == GameChange.objects.count()
    assert DealScore.objects.count() == 4 * len(deals)
    for score in DealScore.objects.all():
        assert score.penalty == penalty(score.cards_left)
    for game in Game.objects.all():
        numbers = list(game.deals.values_list("number", flat=True))
        assert numbers == list(range(1, len(numbers) + 1))
        assert game.finished_at == game.deals.last().recorded_at
        assert game.created_at < game.deals.first().recorded_at
        assert game.winner == game.seats.order_by("total").first().player


def test_seeded_games_fall_on_evenings_within_the_season(season, owner):
    """About three games an evening, from 7 pm, between the season's start and yesterday."""
    yesterday = timezone.localdate() - datetime.timedelta(days=1)
    season.starts_on = yesterday - datetime.timedelta(days=90)
    season.save()
    seed_season(season=season, by=owner, games=30, rng=random.Random(3), player_names=NAMES)
    evenings = set()
    for at in Deal.objects.values_list("recorded_at", flat=True):
        local = timezone.localtime(at)
        evening = local.date() if local.hour >= 12 else local.date() - datetime.timedelta(days=1)
        assert season.starts_on <= evening <= yesterday
        assert local.hour >= 19 or local.hour < 3
        evenings.add(evening)
    assert len(evenings) == 10
    assert min(evenings) == season.starts_on
    assert max(evenings) == yesterday


def test_seeding_reuses_the_clubs_players_by_name_ignoring_case(season, owner):
    make_game(season.club, NAMES, by=owner)
    seed_season(
        season=season, by=owner, games=2, rng=random.Random(4), player_names=["ann", *NAMES[1:]]
    )
    assert sorted(season.club.players.values_list("name", flat=True)) == NAMES


def test_seeding_needs_four_players_of_different_names(season, owner):
    with pytest.raises(ValueError, match="a game needs 4 players"):
        seed_season(season=season, by=owner, games=1, rng=random.Random(), player_names=NAMES[:3])
    with pytest.raises(ValueError, match="a different name"):
        seed_season(
            season=season, by=owner, games=1, rng=random.Random(), player_names=[*NAMES, "ANN"]
        )


def seed_demo(*args):
    out = StringIO()
    call_command("seed_demo", "--games", "5", "--seed", "1", *args, stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_seed_demo_creates_a_club_with_a_season_and_prints_a_login():
    output = seed_demo()
    club = Club.objects.get(name="Demo club")
    user = get_user_model().objects.get(username="demo")
    assert club.owner == user
    password = re.search(r"password: (\S+)", output)[1]
    assert user.check_password(password)
    assert "/accounts/login/" in output
    assert 6 <= Player.objects.filter(club=club).count() <= 8
    assert club.games.filter(status=Game.Status.FINISHED).count() == 5
    in_progress = club.games.get(status=Game.Status.IN_PROGRESS)
    assert in_progress.deals.count() >= 1
    assert in_progress.changes.count() == in_progress.deals.count()


@pytest.mark.django_db
def test_seed_demo_refuses_to_seed_the_same_club_twice():
    seed_demo()
    with pytest.raises(CommandError, match="already exists.*--club NAME"):
        seed_demo()
    assert Club.objects.count() == 1


@pytest.mark.django_db
def test_seed_demo_seeds_another_club_by_name_with_a_new_password():
    first = re.search(r"password: (\S+)", seed_demo())[1]
    output = seed_demo("--club", "Tuesday table")
    second = re.search(r"password: (\S+)", output)[1]
    assert Club.objects.filter(owner__username="demo").count() == 2
    assert get_user_model().objects.get(username="demo").check_password(second)
    assert first != second
    assert "its password is new" in output


@pytest.mark.django_db
def test_seed_demo_prints_the_address_the_server_listens_on():
    """Before, it said port 8000 whatever port `make run` was given."""
    output = seed_demo("--host", "127.0.0.1", "--port", "9000")
    assert "Log in at http://127.0.0.1:9000/accounts/login/\n" in output
    assert "8000" not in output


@pytest.mark.django_db
def test_seed_demo_on_every_address_names_this_computer_and_a_phone_on_the_wi_fi():
    output = seed_demo("--port", "9000")
    assert (
        "Log in at http://localhost:9000/accounts/login/ (from a phone on the same Wi-Fi,"
        " http://<this computer's address>:9000/accounts/login/)"
    ) in output


def test_make_demo_passes_on_where_make_run_will_listen():
    planned = subprocess.run(
        ["make", "--dry-run", "demo", "HOST=127.0.0.1", "PORT=9000"],
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    command = next(line for line in planned.splitlines() if "seed_demo" in line)
    assert shlex.split(command)[-4:] == ["--host", "127.0.0.1", "--port", "9000"]
