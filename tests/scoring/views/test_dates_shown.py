"""Every date a page shows is written the way its language writes dates: "31 Aug 2026" in
English, "2026年8月31日" in Chinese (never "31 八月 2026", an English order with Chinese month
names)."""

import datetime

import pytest
from django.utils import timezone

from rules.ruleset import parse_rules
from scoring import services
from scoring.models import Game, GameChange, SeasonChange
from tests.factories import make_game, record
from tests.pages import text

pytestmark = pytest.mark.django_db

MOMENT = timezone.make_aware(datetime.datetime(2026, 8, 31, 19, 5), datetime.UTC)
DAY = datetime.date(2026, 8, 31)


@pytest.fixture
def dated(owner, club):
    """A season begun and a game started and played on 31 August 2026, and a later season."""
    season = club.seasons.get()
    season.starts_on = DAY
    season.save()
    game = make_game(club)
    for _ in range(3):
        record(game, 0, 13, 13, 13)
    Game.objects.filter(pk=game.pk).update(created_at=MOMENT)
    GameChange.objects.filter(game=game).update(at=MOMENT)
    autumn = services.start_season(
        club=club, name="Autumn", starts_on=datetime.date(2026, 9, 1), by=owner
    )
    services.set_season_rules(season=autumn, rules=parse_rules("pusoy-dos"), stake=None, by=owner)
    SeasonChange.objects.update(at=MOMENT)
    return {"season": season, "game": game, "ann": game.seats.get(position=1).player}


def pages(dated) -> dict[str, str]:
    return {
        "season": f"/seasons/{dated['season'].pk}/",
        "game": f"/games/{dated['game'].pk}/",
        "player": f"/players/{dated['ann'].pk}/",
        "delete game": f"/games/{dated['game'].pk}/delete/",
    }


@pytest.mark.parametrize(
    ("language", "date", "time", "not_shown"),
    [
        ("en", "31 Aug 2026", "31 Aug, 19:05", "2026年"),
        ("zh-hans", "2026年8月31日", "8月31日 19:05", "八月"),
        ("zh-hant", "2026年8月31日", "8月31日 19:05", "八月"),
    ],
)
def test_dates_follow_the_pages_language(owner_client, dated, language, date, time, not_shown):
    owner_client.post("/i18n/setlang/", {"language": language, "next": "/"})
    shown = {name: text(owner_client.get(url)) for name, url in pages(dated).items()}
    for name in ("season", "player", "delete game"):
        assert date in shown[name], name
    assert time in shown["game"]  # the game's history: the day and the time
    assert f"2026年{time}" not in shown["game"]  # without the year, in Chinese too
    for name, page in shown.items():
        assert not_shown not in page, name


def test_the_season_history_gives_the_day_and_time_in_chinese(owner_client, dated):
    owner_client.post("/i18n/setlang/", {"language": "zh-hant", "next": "/"})
    season = dated["season"].club.seasons.get(name="Autumn")
    assert "2026年8月31日 19:05" in text(owner_client.get(f"/seasons/{season.pk}/"))


def test_the_date_range_a_season_must_keep_to_is_said_in_chinese_dates(owner_client, club):
    owner_client.post("/i18n/setlang/", {"language": "zh-hant", "next": "/"})
    response = owner_client.post(
        f"/clubs/{club.pk}/seasons/new/",
        {"name": "Far", "starts_on": "1999-12-31", "ends_on": ""},
    )
    page = text(response)
    assert "2000年1月1日" in page and "2100年12月31日" in page
