"""Each cached fragment's key holds everything the fragment shows, or what it shows marks the
fragment's game or season changed: change one ingredient and the next page shows it.

Every test loads a page first, so its fragments are cached, then changes one thing.
"""

from __future__ import annotations

import html
import uuid
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from scoring import services
from scoring.models import Game


def page(client: Client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def finish(game: Game, stake: str | None = None) -> Game:
    """Ann goes out three times and the others are caught with thirteen: Ann wins."""
    if stake is not None:
        services.set_stake(game=game, stake=Decimal(stake), by=game.club.owner)
    for number in (1, 2, 3):
        services.record_deal(
            game=game,
            number=number,
            cards_left=[0, 13, 13, 13],
            token=uuid.uuid4(),
            by=game.club.owner,
        )
    return Game.objects.get(pk=game.pk)


def new_currency(game: Game, currency: str) -> None:
    """The club's currency changes with a season started for it."""
    services.start_season(
        club=game.club,
        name="Spring",
        starts_on=game.season.starts_on,
        currency=currency,
        by=game.club.owner,
    )


@pytest.fixture
def admin_client(db):
    admin = get_user_model().objects.create_superuser("admin", password="a long passphrase 7")
    client = Client()
    client.force_login(admin)
    return client


def rename_player(admin_client: Client, game: Game, old: str, new: str) -> None:
    player = game.club.players.get(name=old)
    response = admin_client.post(
        f"/admin/scoring/player/{player.pk}/change/", {"club": game.club_id, "name": new}
    )
    assert response.status_code == 302, response.content.decode()


def test_the_board_follows_the_clubs_currency(owner_client, game):
    game = finish(game, stake="0.50")
    assert "Ann wins 175.50" in page(owner_client, f"/games/{game.pk}/")

    new_currency(game, "£")

    assert "Ann wins £175.50" in page(owner_client, f"/games/{game.pk}/")


def test_the_seasons_settling_up_follows_the_clubs_currency(owner_client, game):
    game = finish(game, stake="0.50")
    assert "Ann wins 175.50" in page(owner_client, f"/seasons/{game.season_id}/")

    new_currency(game, "HKD")

    assert "Ann wins 175.50 HKD" in page(owner_client, f"/seasons/{game.season_id}/")


def test_the_board_follows_the_language(owner_client, game):
    assert "Scoreboard" in page(owner_client, f"/games/{game.pk}/")

    owner_client.post("/i18n/setlang/", {"language": "zh-hant", "next": "/"})

    shown = page(owner_client, f"/games/{game.pk}/")
    assert "計分板" in shown and "Scoreboard" not in shown


def test_the_standings_follow_the_language(owner_client, game):
    finish(game)
    for path in (f"/seasons/{game.season_id}/", f"/clubs/{game.club_id}/"):
        assert ">Rank" in page(owner_client, path)

    owner_client.post("/i18n/setlang/", {"language": "zh-hant", "next": "/"})

    for path in (f"/seasons/{game.season_id}/", f"/clubs/{game.club_id}/"):
        shown = page(owner_client, path)
        assert ">名次" in shown and ">Rank" not in shown


def test_a_players_new_name_from_the_admin_shows_on_every_cached_page(
    owner_client, admin_client, game
):
    game = finish(game)
    token = services.share_game(game=game, by=game.club.owner)
    pages = [
        f"/games/{game.pk}/",
        f"/live/{token}/",
        f"/seasons/{game.season_id}/",
        f"/clubs/{game.club_id}/",
    ]
    for path in pages:
        assert "Ann" in page(owner_client, path)

    rename_player(admin_client, game, "Ann", "Annabel")

    for path in pages:
        shown = page(owner_client, path)
        assert "Annabel" in shown, path
        assert "Ann," not in shown and "Ann " not in shown, path


def test_the_board_poll_brings_a_players_new_name(owner_client, admin_client, game):
    """A page already open is told by its poll: the rename counts the game's version up."""
    services.record_deal(
        game=game, number=1, cards_left=[0, 1, 2, 3], token=uuid.uuid4(), by=game.club.owner
    )
    version = Game.objects.get(pk=game.pk).version
    assert "Ben" in owner_client.get(f"/games/{game.pk}/board/?v=0&deal=2").content.decode()
    assert owner_client.get(f"/games/{game.pk}/board/?v={version}&deal=2").status_code == 204
    rename_player(admin_client, game, "Ben", "Benedict")

    response = owner_client.get(f"/games/{game.pk}/board/?v={version}&deal=2")

    assert response.status_code == 200
    assert "Benedict" in response.content.decode()


def test_an_accounts_new_username_from_the_admin_shows_in_the_histories(
    owner_client, admin_client, game
):
    owner = game.club.owner
    services.record_deal(game=game, number=1, cards_left=[0, 1, 2, 3], token=uuid.uuid4(), by=owner)
    spring = services.start_season(
        club=game.club, name="Spring", starts_on=game.season.starts_on, by=owner
    )
    services.set_season_rules(season=spring, rules=spring.ruleset, stake=Decimal("0.10"), by=owner)
    assert f"{owner.username} recorded deal 1" in page(owner_client, f"/games/{game.pk}/")
    assert f"{owner.username} changed the stake" in page(owner_client, f"/seasons/{spring.pk}/")

    response = admin_client.post(
        f"/admin/auth/user/{owner.pk}/change/",
        {
            "username": "ringmaster",
            "date_joined_0": "2026-01-01",
            "date_joined_1": "00:00:00",
            "is_active": "on",
        },
    )
    assert response.status_code == 302, response.content.decode()

    assert "ringmaster recorded deal 1" in page(owner_client, f"/games/{game.pk}/")
    assert "ringmaster changed the stake" in page(owner_client, f"/seasons/{spring.pk}/")


# What a cache must never do


def test_a_database_made_anew_never_shows_another_games_board(client, owner_client, game):
    """A restored or recreated database starts its ids again: a new game with the id and
    version of one whose board is cached shows its own players, not the cached ones."""
    from scoring.models import Seat
    from tests.factories import make_club, make_game, make_user, record

    record(game, 0, 5, 9, 13)
    assert "Ann" in page(owner_client, f"/games/{game.pk}/")
    old_pk, old_version = game.pk, Game.objects.get(pk=game.pk).version
    Game.objects.filter(pk=old_pk).delete()

    stranger = make_user("zoe")
    elsewhere = make_game(make_club(stranger, "Other table"), names=["Zed", "Yan", "Xi", "Wu"])
    record(elsewhere, 0, 5, 9, 13)
    taken = Game.objects.get(pk=elsewhere.pk)
    taken.pk, taken.version = old_pk, old_version
    taken.save(force_insert=True)
    Seat.objects.filter(game=elsewhere).update(game=taken)
    elsewhere.deals.update(game=taken)

    client.force_login(stranger)
    shown = page(client, f"/games/{old_pk}/")
    assert "Zed" in shown
    assert "Ann" not in shown


def test_a_query_string_of_anything_else_makes_no_new_copy_of_a_season(
    owner_client, game, django_assert_num_queries
):
    """Only the sort and the page are in a season page's key: before, every new query string
    (`?x=1`, `?x=2`, …) rendered and kept another copy, and the cache grew without bound."""
    season = game.season
    page(owner_client, f"/seasons/{season.pk}/?x=1")
    for junk in range(2, 6):
        # Who is asking, the season and the ratings' version: nothing rendered.
        with django_assert_num_queries(3):
            page(owner_client, f"/seasons/{season.pk}/?x={junk}&page={junk}{'0' * 9}")


def test_no_cache_keeps_anything_in_files(tmp_path):
    """The caches are Django's own, in memory or in Redis: nothing another local user could
    swap for pickles of their own (before, files in DJANGO_CACHE_DIR, even on a shared
    /dev/shm)."""
    from tests.fresh_settings import settings_in_fresh_process

    script = "from django.conf import settings; print(settings.CACHES)"
    shared = tmp_path / "shm"
    result = settings_in_fresh_process(script, tmp_path, DJANGO_CACHE_DIR=str(shared))
    assert result.returncode == 0, result.stderr
    assert "LocMemCache" in result.stdout
    assert "FileBasedCache" not in result.stdout and "shared_cache" not in result.stdout
    assert not shared.exists()
    with_redis = settings_in_fresh_process(
        script, tmp_path, REDIS_URL="redis://127.0.0.1:1/0", DJANGO_CACHE_DIR=str(shared)
    )
    assert with_redis.returncode == 0, with_redis.stderr
    assert "django.core.cache.backends.redis.RedisCache" in with_redis.stdout
