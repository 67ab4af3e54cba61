"""A season exported as its deals CSV (`/seasons/<id>/deals.csv`) and imported into another
club, into a season with the same rules, gives the same standings and the same ratings."""

from __future__ import annotations

import csv
import dataclasses
import datetime
import hashlib
import io
import random

import pytest
from django.test import TestCase
from django.utils import timezone

from rules.ruleset import parse_rules
from scoring.imports.preview import preview_import
from scoring.imports.readers import read_score_file
from scoring.models import Club, Season
from scoring.selectors import ratings
from scoring.selectors.standings import standings
from scoring.services import save_import
from scoring.services.demo import seed_season
from tests.factories import finish, make_club, make_game, make_user, record, record_facts

ROSTER = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]


def body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def exported(client, season: Season) -> bytes:
    client.force_login(season.club.owner)
    response = client.get(f"/seasons/{season.pk}/deals.csv")
    assert response.status_code == 200
    return body(response)


def imported_into_a_new_club(data: bytes, rules: str) -> Season:
    """The file imported through the service into a new club's season of `rules`."""
    club = make_club(make_user(), name="New club")
    season = club.seasons.get(is_current=True)
    season.rules = rules
    season.save(update_fields=["rules"])
    score_file = read_score_file(data)
    preview = preview_import(club, season, score_file)
    assert preview.can_import, preview.problems
    assert not preview.warnings, preview.warnings  # the same rules: nothing scored again
    with TestCase.captureOnCommitCallbacks(execute=True):  # the ratings, once it commits
        save_import(
            club=club,
            target=season,
            preview=preview,
            sha256=hashlib.sha256(data).hexdigest(),
            by=club.owner,
            file_name="deals.csv",
        )
    return season


def standings_csv(client, season: Season) -> list[list[str]]:
    """The league table as the season's standings CSV gives it: every column, by name."""
    client.force_login(season.club.owner)
    response = client.get(f"/seasons/{season.pk}/standings.csv")
    assert response.status_code == 200
    return list(csv.reader(io.StringIO(body(response).decode("utf-8-sig"))))


def table_lines(season: Season) -> list[dict[str, object]]:
    """The standings' lines with every figure but the player's id (each club has its own)."""
    return [
        {key: value for key, value in dataclasses.asdict(line).items() if key != "player_id"}
        for line in standings(season.games.all())
    ]


def rated(club: Club) -> list[tuple[str, float, float, float, int]]:
    return [
        (
            str(line["player"]),
            round(float(line["mu"]), 2),
            round(float(line["sigma"]), 2),
            round(float(line["rating"]), 2),
            int(line["games"]),
        )
        for line in ratings.table(club.pk)
    ]


def assert_same_standings_and_ratings(client, original: Season, copy: Season) -> None:
    assert copy.games.count() == original.games.count()
    assert table_lines(copy) == table_lines(original)
    assert standings_csv(client, copy) == standings_csv(client, original)
    assert rated(original.club), "every finished game rated"
    assert rated(copy.club) == rated(original.club)


def tied_game(club: Club, names: list[str]) -> None:
    """A game whose losers tie: seats 1 and 2 both end on 117, so they share a rank."""
    game = make_game(club, names)
    for _ in range(3):
        record(game, 0, 13, 13, 1)
    game.refresh_from_db()
    assert game.is_finished


@pytest.fixture
def seeded(club, owner) -> Season:
    """The demo's random games over two months, six players four at a time, with a game of
    tied losers and a game won on a tie broken later, played at the table."""
    season = club.seasons.get(is_current=True)
    season.starts_on = timezone.localdate() - datetime.timedelta(days=60)
    season.save(update_fields=["starts_on"])
    with TestCase.captureOnCommitCallbacks(execute=True):  # the ratings, once they commit
        seed_season(season=season, by=owner, games=15, rng=random.Random(31), player_names=ROSTER)
        tied_game(club, ["Eve", "Ann", "Fay", "Cy"])
        level = make_game(club, ["Ben", "Dee", "Eve", "Fay"])
        record(level, 0, 13, 13, 13)
        record(level, 13, 0, 13, 13)  # Ben and Dee level on 39: the game plays on
        finish(level)
    return season


def test_a_seeded_season_comes_back_with_the_same_standings_and_ratings(client, seeded):
    copy = imported_into_a_new_club(exported(client, seeded), seeded.rules)
    ranks = [line["rank"] for line in table_lines(seeded)]
    assert len(ranks) == len(ROSTER) and seeded.games.count() == 17
    assert_same_standings_and_ratings(client, seeded, copy)


def test_a_season_that_pays_for_the_table_comes_back_the_same(client, club):
    """The deals CSV has no column for who paid, but each such deal's penalties say it: all
    the deal's penalties on one losing seat, none on the others."""
    rules = parse_rules("pays-for-table").name
    season = club.seasons.get(is_current=True)
    season.rules = rules
    season.save(update_fields=["rules"])
    for names in (["Ann", "Ben", "Cy", "Dee"], ["Dee", "Eve", "Ann", "Fay"]):
        game = make_game(club, names)
        record_facts(game, cards_left=(0, 5, 10, 13), pays=2)  # 5 + 20 + 39 on the third
        record(game, 2, 0, 1, 1)
        record_facts(game, cards_left=(3, 1, 0, 2), pays=0)
        finish(game)
    tied_game(club, ["Ben", "Cy", "Eve", "Fay"])
    copy = imported_into_a_new_club(exported(client, season), rules)
    assert_same_standings_and_ratings(client, season, copy)
