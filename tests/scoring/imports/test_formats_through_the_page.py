"""Each format, from its bytes, through the owner's page: previewed, imported, and scored by
the season's rules."""

from __future__ import annotations

import gzip

import pytest

from scoring.models import Game, Season
from tests.factories import finish, make_club, make_game, record
from tests.scoring.imports.samples import README_SHEET, import_it, upload

KEEPSCORE = b"""<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>
<GamesBackup><gameCount>1</gameCount><version>4</version><dateSaved>1363651200000</dateSaved>
<Games><Game><dateGameStarted>1363651200000</dateGameStarted><gameName>Friday</gameName>
<PlayerScores>
<PlayerScore><playerName>Ann</playerName><score>5</score><playerNumber>0</playerNumber><history>0,5</history></PlayerScore>
<PlayerScore><playerName>Ben</playerName><score>3</score><playerNumber>1</playerNumber><history>3,0</history></PlayerScore>
<PlayerScore><playerName>Cy</playerName><score>9</score><playerNumber>2</playerNumber><history>7,2</history></PlayerScore>
<PlayerScore><playerName>Dee</playerName><score>10</score><playerNumber>3</playerNumber><history>1,9</history></PlayerScore>
</PlayerScores></Game></Games></GamesBackup>
"""


def imported(client, club, data, name, **choices):
    preview = upload(client, club, data=data, name=name, **choices)
    assert preview.context["preview"].can_import, preview.context["preview"].problems
    assert import_it(client, club, preview).status_code == 302
    game = Game.objects.filter(club=club).get()
    totals = {seat.player.name: seat.total for seat in game.seats.select_related("player")}
    return game, totals


def test_the_big_two_scorer_readme_example(owner_client, club):
    game, totals = imported(owner_client, club, README_SHEET, "sheet.txt")
    # F=11: 11 cards cost 2 each; H paid the table: 22 + 9 + 9.
    assert totals == {"C": 1, "S": 1, "H": 45, "Jj": 0}
    assert game.is_finished and game.winner.name == "Jj"
    assert game.created_at.date().isoformat() == "2013-03-19"
    assert "doubled-from-11" in game.season.rules and "pays-for-table" in game.season.rules


def test_a_keepscore_backup_gzipped(owner_client, club):
    game, totals = imported(owner_client, club, gzip.compress(KEEPSCORE), "backup.xml.gz")
    assert totals == {"Ann": 5, "Ben": 3, "Cy": 9, "Dee": 10}
    assert game.ruleset.scoring.value == "points-by-hand"
    assert game.season.ruleset.scoring.value == "points-by-hand"  # the new season's own
    assert game.is_finished and game.winner.name == "Ben"


def test_a_spreadsheet_of_cards_left(owner_client, club):
    sheet = b"Ann,Ben,Cy,Dee\n0,4,10,13\n8,0,12,13\n"
    game, totals = imported(owner_client, club, sheet, "totals.csv")
    assert totals == {"Ann": 8, "Ben": 4, "Cy": 44, "Dee": 78}


def test_a_spreadsheet_of_points(owner_client, club):
    sheet = b"Ann,Ben,Cy,Dee\n0,4,20,39\n"
    game, totals = imported(owner_client, club, sheet, "points.csv", holds="points")
    assert totals == {"Ann": 0, "Ben": 4, "Cy": 20, "Dee": 39}


def test_the_sites_own_season_csv_into_another_club(owner_client, club):
    other = make_club(name="Old club")
    played = make_game(other)
    record(played, 4, 0, 10, 13)
    finish(played)
    season = Season.objects.get(club=other)
    owner_client.force_login(other.owner)
    csv = owner_client.get(f"/seasons/{season.pk}/deals.csv")
    data = b"".join(csv.streaming_content) if csv.streaming else csv.content
    owner_client.force_login(club.owner)
    into = club.seasons.get(is_current=True)  # the same rules: to 100, standard
    game, totals = imported(owner_client, club, data, "deals.csv", season=str(into.pk))
    assert totals == {seat.player.name: seat.total for seat in played.seats.all()}
    assert game.is_finished and game.winner.name == played.winner.name


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "Line 1"),
        (b"2013-03-19\nAnn Ben Cy Dee\n0 4 10 13\n0 0 1 1\n", "Line 4"),
        (b"Ann,Ben,Cy,Dee\n0,4,10\n", "Line 2"),
        (b"<GamesBackup><Games><Game>", "Line 1"),
    ],
)
def test_a_bad_file_is_refused_with_its_line_and_saves_nothing(owner_client, club, data, words):
    page = upload(owner_client, club, data=data, name="bad.txt")
    text = page.content.decode()
    assert page.status_code == 200
    assert words in text and ">Import</button>" not in text
    assert not Game.objects.exists()


def test_tampered_choices_never_fail(owner_client, club):
    for sent in (
        {"digest": "x" * 64, "season": "new", "holds": "cards"},
        {"digest": "0" * 64, "season": "99999", "holds": "nonsense"},
        {"digest": "", "season": ""},
    ):
        page = owner_client.post(f"/clubs/{club.pk}/import/", sent)
        assert page.status_code == 200
        assert "The preview has expired" in page.content.decode()
