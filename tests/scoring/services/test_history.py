"""Every change to what anyone scores or owes is in a history, with who made it and when:
a game's stake and season on its page, a season's rules and stake on the season's page."""

from __future__ import annotations

import datetime
import html
import re
from decimal import Decimal

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from rules.ruleset import parse_rules
from scoring import services
from scoring.models import Game, GameChange, Season, SeasonChange
from tests.concurrency import at_once, needs_postgres
from tests.factories import make_club, make_game, make_member, record
from tests.pages import PUSOY_TWOS, text

pytestmark = pytest.mark.django_db

TO_THE_END = [(0, 13, 13, 13), (0, 13, 13, 13), (0, 13, 13, 13)]  # Ben, Cy, Dee on 117


def history(client, game: Game) -> list[str]:
    """The game page's history lines, newest first, without their times."""
    page = text(client.get(f"/games/{game.pk}/"))
    section = page.split('<ol id="history-lines" class="history-list">', 1)[1].split("</ol>", 1)[0]
    lines = re.split(r'<li id="change-\d+">', section)[1:]
    return [line.split("<time", 1)[0].strip() for line in lines]


def finished(game: Game) -> Game:
    for cards in TO_THE_END:
        record(game, *cards)
    game.refresh_from_db()
    assert game.is_finished
    return game


@pytest.fixture
def ann(club):
    return make_member(club, "ann")


@pytest.fixture
def ann_client(client, ann):
    client.force_login(ann)
    return client


# A game's stake


def test_a_stake_change_is_in_the_games_history_with_who_and_when(ann_client, game):
    record(game, 0, 5, 7, 9)
    ann_client.get(f"/games/{game.pk}/")  # the board is now cached under this version

    assert ann_client.post(f"/games/{game.pk}/stake/", {"stake": "0.1"}).status_code == 302
    assert ann_client.post(f"/games/{game.pk}/stake/", {"stake": "0.20"}).status_code == 302
    assert ann_client.post(f"/games/{game.pk}/stake/", {"stake": ""}).status_code == 302

    assert history(ann_client, game)[:3] == [
        "ann changed the stake from 0.20 to none",
        "ann changed the stake from 0.10 to 0.20",
        "ann changed the stake from none to 0.10",
    ]
    line = GameChange.objects.filter(game=game, action="stake").order_by("pk").first()
    assert line.by.get_username() == "ann"
    assert line.at is not None
    # Not about one deal: it keeps the number of deals played when it was made.
    assert line.deal_number == 1
    page = ann_client.get(f"/games/{game.pk}/").content.decode()
    assert f'datetime="{timezone.localtime(line.at).isoformat()}"' in page


def test_the_same_stake_sent_twice_writes_one_history_line(ann_client, game):
    for _ in range(2):  # a double tap, or a resend after a lost answer
        assert ann_client.post(f"/games/{game.pk}/stake/", {"stake": "0.10"}).status_code == 302
    version = Game.objects.get(pk=game.pk).version
    # 0.1 is the stake 0.10 too.
    ann_client.post(f"/games/{game.pk}/stake/", {"stake": "0.1"})
    assert GameChange.objects.filter(game=game, action="stake").count() == 1
    assert Game.objects.get(pk=game.pk).version == version
    assert Game.objects.get(pk=game.pk).stake == Decimal("0.10")


def test_once_a_game_is_finished_only_the_owner_changes_its_stake(ann_client, ann, owner, game):
    services.set_stake(game=game, stake=Decimal("0.10"), by=owner)
    finished(game)
    page = html.unescape(ann_client.get(f"/games/{game.pk}/").content.decode())
    assert f'action="/games/{game.pk}/stake/"' not in page
    assert "Only the club's owner can change the stake of a finished game" in page

    response = ann_client.post(f"/games/{game.pk}/stake/", {"stake": "63"})

    assert response.status_code == 403
    assert "Only the club's owner can change the stake of a finished game" in html.unescape(
        text(response)
    )
    game.refresh_from_db()
    assert game.stake == Decimal("0.10")
    assert GameChange.objects.filter(game=game, action="stake").count() == 1
    with pytest.raises(services.NotAllowed):
        services.set_stake(game=game, stake=Decimal("63"), by=ann)


def test_the_owner_may_change_a_finished_games_stake_and_it_is_in_the_history(owner_client, game):
    services.set_stake(game=game, stake=Decimal("0.10"), by=game.club.owner)
    finished(game)
    page = owner_client.get(f"/games/{game.pk}/").content.decode()
    assert f'action="/games/{game.pk}/stake/"' in page

    assert owner_client.post(f"/games/{game.pk}/stake/", {"stake": "0.05"}).status_code == 302

    assert history(owner_client, game)[0] == "owner changed the stake from 0.10 to 0.05"
    assert "Settling up at 0.05 a point" in text(owner_client.get(f"/games/{game.pk}/"))


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_phones_sending_the_same_stake_at_once_write_one_line():
    game = make_game(make_club())

    def send() -> None:
        services.set_stake(
            game=Game.objects.get(pk=game.pk), stake=Decimal("0.10"), by=game.club.owner
        )

    assert at_once(*[send] * 4) == ["done: None"] * 4
    assert GameChange.objects.filter(game=game, action="stake").count() == 1


# A game's season


def test_moving_a_game_is_in_its_history(owner_client, club, game):
    spring = services.start_season(
        club=club, name="Spring 2027", starts_on=datetime.date(2027, 3, 1), by=club.owner
    )
    record(game, 0, 5, 7, 9)
    owner_client.get(f"/games/{game.pk}/")  # cached under this version

    for _ in range(2):  # the second tap moves nothing and writes nothing
        response = owner_client.post(f"/games/{game.pk}/season/", {"season": spring.pk})
        assert response.status_code == 302

    assert history(owner_client, game)[0] == "owner moved the game from Season 1 to Spring 2027"
    assert GameChange.objects.filter(game=game, action="move").count() == 1
    move = GameChange.objects.get(game=game, action="move")
    assert (move.deal_number, move.by) == (1, club.owner)


def test_ending_a_match_is_in_its_history_with_who(client, club):
    season = club.seasons.get()
    season.rules = parse_rules("open-ended").name
    season.save()
    game = make_game(club)
    ann = make_member(club, "ann")
    client.force_login(ann)
    record(game, 0, 5, 7, 9)
    for _ in range(2):  # the second tap finds the match over, as it asked, and writes nothing
        assert client.post(f"/games/{game.pk}/end/").status_code == 302
    assert history(client, game)[0] == "ann ended the match after deal 1: 0 5 7 9"
    assert GameChange.objects.filter(game=game, action="end").count() == 1


def test_the_database_knows_the_new_history_actions_and_no_others(game):
    for action in ("stake", "move"):
        GameChange.objects.create(game=game, action=action, deal_number=0)
    with pytest.raises(IntegrityError), transaction.atomic():
        GameChange.objects.create(game=game, action="rename", deal_number=0)


# A season's rules and stake


def test_a_seasons_rules_and_stake_changes_are_on_its_page(owner_client, club):
    season = club.seasons.get()
    owner_client.get(f"/seasons/{season.pk}/")  # cached under this version
    fields = PUSOY_TWOS | {"stake": "0.10"}
    for _ in range(2):  # a double tap: the second changes nothing and writes nothing
        response = owner_client.post(f"/seasons/{season.pk}/rules/", fields)
        assert response.status_code == 302
    owner_client.post(f"/seasons/{season.pk}/rules/", fields | {"stake": "0.20"})

    page = text(owner_client.get(f"/seasons/{season.pk}/"))

    rules = parse_rules("pusoy-dos-suits,twos-double").label
    lines = [change.summary() for change in SeasonChange.objects.filter(season=season)]
    assert lines == [
        "owner changed the stake from 0.10 to 0.20",
        "owner changed the stake from none to 0.10",
        f"owner changed the rules from Standard rules to {rules}",
    ]
    for line in lines:
        assert line.replace("<", "&lt;") in page
    assert page.count("<time") >= 3
    assert SeasonChange.objects.filter(season=season).first().by == club.owner


def test_a_season_with_no_changes_says_so(owner_client, club):
    season = club.seasons.get()
    page = text(owner_client.get(f"/seasons/{season.pk}/"))
    assert "No changes to its rules or stake yet." in page


def test_a_refused_rules_change_writes_no_history(owner_client, club):
    season = club.seasons.get()
    make_game(club)
    response = owner_client.post(f"/seasons/{season.pk}/rules/", PUSOY_TWOS)
    assert response.status_code == 200
    assert not SeasonChange.objects.exists()
    assert Season.objects.get(pk=season.pk).rules == "standard"


def test_the_database_knows_what_a_season_change_is_about(club):
    season = club.seasons.get()
    with pytest.raises(IntegrityError), transaction.atomic():
        SeasonChange.objects.create(season=season, what="name", before="a", after="b")
    with pytest.raises(IntegrityError), transaction.atomic():
        SeasonChange.objects.create(season=season, what="rules", before="standard")
