"""Malformed score files of every format, each uploaded through the owner's import page: the
preview names the line to fix, offers no "Import", the file isn't kept (an Import sent all the
same finds nothing), nothing answers with an error page, and the database is as it was.

An ordinary database test, so it runs on SQLite and, in CI's second pass, on PostgreSQL."""

from __future__ import annotations

import gzip
import html
from dataclasses import dataclass

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from scoring.models import Deal, DealScore, Game, ImportedFile, Player, Season
from tests.scoring.imports.samples import keepscore_backup, url

COUNTED = (Game, Deal, DealScore, Player, Season, ImportedFile)
SITE_HEADER = b"season,game,date,deal,seat,player,cards_left,penalty\n"


@dataclass(frozen=True)
class Malformed:
    data: bytes
    line: int
    words: str  # part of what the page says is wrong on that line
    season: str = "new"  # "new", or "current": the club's season, to 100 by the standard scale
    holds: str = "cards"


def site_rows(*rows: str) -> bytes:
    return SITE_HEADER + "".join(f"S,1,2027-01-02,{row}\n" for row in rows).encode()


FULL_HANDS = b"0 13 13 13\n"  # 39 each for three players: 117 after three deals

MALFORMED = {
    # Not text, or not text the site can read.
    "png image": Malformed(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", 1, "This is not a text file"),
    "a control byte on line 3": Malformed(b"Ann Ben\n0 1\n\x07\n", 3, "This is not a text file"),
    "latin-1 text": Malformed(b"Ann,Ben\n0,1\nJos\xe9,Ben\n", 3, "This line isn't UTF-8 text"),
    "big5 names": Malformed(
        b"2013-03-19\nAnn Ben Cy Dee\n" + "陳 Ben Cy Dee\n".encode("big5"),
        3,
        "This line isn't UTF-8 text",
    ),
    "only blank lines": Malformed(b" \n\n\t\n", 1, "The file is empty"),
    "no score file at all": Malformed(b"Hello there\n", 1, "This doesn't look like a score file"),
    "a quote left open": Malformed(
        b'Ann,Ben\n0,1\n"' + b"x" * 200_000, 3, "runs on for more than 128 KB"
    ),
    "gzip cut short": Malformed(gzip.compress(b"Ann Ben\n0 1\n")[:15], 1, "gzipped but damaged"),
    # big-two-scorer's score file.
    "F=1": Malformed(b"F=1\nA B C D\n0 1 1 1\n", 1, "the fry threshold is 2 or more"),
    "a second threshold": Malformed(
        b"F=10\nA B C D\n0 1 1 1\nF=11\nA B C D\n0 2 2 2\n", 4, "a season has one penalty scale"
    ),
    "too few counts": Malformed(b"A B C D\n0 1 1\n", 2, "3 counts of cards left for 4 players"),
    "too many counts": Malformed(
        b"A B C D\n0 1 1 1\n0 1 1 1 1\n", 3, "5 counts of cards left for 4 players"
    ),
    "two takers": Malformed(b"A B C D\n0 1t 1t 1\n", 2, "More than one player is marked t"),
    "a count that is no number": Malformed(b"A B C D\n0 1 x 1\n", 2, "“x” is not a number"),
    "cards before names": Malformed(b"0 1 1 1\nA B C D\n", 1, "Cards left, but no players yet"),
    "a name starting with a digit": Malformed(b"A B 3C D\n0 1 1 1\n", 1, "“3C” starts with a"),
    "a name twice": Malformed(b"Ann Ben ann Dee\n0 1 1 1\n", 1, "ann is named twice"),
    "a day that isn't": Malformed(b"2013-02-30\nA B C D\n0 1 1 1\n", 1, "is not a date"),
    "a day in the year 9999": Malformed(
        b"9999-12-31\nA B C D\n0 1 1 1\n", 1, "9999-12-31 is before 1900 or after 2999"
    ),
    "a single name": Malformed(b"A B C D\n0 1 1 1\nCy\n0 1 1 1\n", 3, "a game starts with"),
    "no one out": Malformed(b"A B C D\n0 1 1 1\n1 2 3 4\n", 3, "Deal 2: Nobody went out"),
    "two out": Malformed(b"A B C D\n0 0 3 4\n", 2, "Only one player can go out"),
    "a count over 13": Malformed(b"A B C D\n0 4 10 14\n", 2, "between 0 and 13"),
    "five players": Malformed(b"A B C D E\n0 1 1 1 1\n", 1, "A game needs 4 players"),
    "a taker where the season has none": Malformed(
        b"A B C D\n0 1 2t 3\n", 2, "which this season's rules don't play", season="current"
    ),
    "a game over before the file ends": Malformed(
        b"A B C D\n" + FULL_HANDS * 3 + b"0 1 1 1\n",
        5,
        "the game was over after deal 3",
        season="current",
    ),
    # KeepScore's backup.
    "a negative delta": Malformed(
        keepscore_backup(("F", {"Ann": "0,5", "Ben": "3,-2"})), 9, "Ben's score went down by 2"
    ),
    "a delta that is no number": Malformed(
        keepscore_backup(("F", {"Ann": "0,x", "Ben": "3,0"})), 7, "holds “x”, which is not"
    ),
    "histories of different lengths": Malformed(
        keepscore_backup(("F", {"Ann": "0,5", "Ben": "3"})), 4, "different numbers of deals"
    ),
    "a player with no name": Malformed(
        keepscore_backup(("F", {None: "0", "Ben": "3"})), 6, "has no name"
    ),
    "one player": Malformed(keepscore_backup(("F", {"Ann": "0"})), 4, "fewer than two players"),
    "nobody on 0 points": Malformed(
        keepscore_backup(("F", {"A": "4", "B": "3", "C": "2", "D": "1"})), 7, "Nobody has 0 points"
    ),
    "points over 999": Malformed(
        keepscore_backup(("F", {"A": "0", "B": "1000", "C": "2", "D": "1"})),
        7,
        "Points must be between 0 and 999",
    ),
    "a cut-off backup": Malformed(
        keepscore_backup(("F", {"Ann": "0", "Ben": "3"}))[:300], 4, "The XML is broken here"
    ),
    "xml that isn't a backup": Malformed(b"<rss><channel/></rss>", 1, "isn't a KeepScore backup"),
    "a document type": Malformed(
        b'<!DOCTYPE x [<!ENTITY a "aaaa">]><GamesBackup/>', 1, "declares a document type"
    ),
    "a gzipped negative delta": Malformed(
        gzip.compress(keepscore_backup(("F", {"Ann": "0,5", "Ben": "-3,0"}))), 9, "went down by 3"
    ),
    # The site's own season CSV.
    "a row of 7 columns": Malformed(site_rows("1,1,Ann,0,0", "1,2,Ben,3"), 3, "has 7 columns"),
    "cards left that are no number": Malformed(
        site_rows("1,1,Ann,0,0", "1,2,Ben,x,3"), 3, "cards_left is “x”"
    ),
    "a formula for a name": Malformed(
        site_rows("1,1,=HYPERLINK(1),0,0"), 2, "starts with =, so a spreadsheet"
    ),
    "a month 13": Malformed(
        SITE_HEADER + b"S,1,2027-13-02,1,1,Ann,0,0\n", 2, "“2027-13-02” is not a date"
    ),
    "no deal 1": Malformed(site_rows("2,1,Ann,0,0", "2,2,Ben,3,3"), 2, "has no deal 1"),
    "another player in deal 2": Malformed(
        site_rows(
            *("1,1,A,0,0", "1,2,B,1,1", "1,3,C,1,1", "1,4,D,1,1"),
            *("2,1,A,0,0", "2,2,B,1,1", "2,3,Cy,1,1", "2,4,D,1,1"),
        ),
        6,
        "doesn't seat the game's players once each",
    ),
    "a blank count among counts": Malformed(
        site_rows("1,1,Ann,0,0", "1,2,Ben,,3"), 3, "Ben has no cards left"
    ),
    "a day in the year 1": Malformed(
        site_rows("1,1,A,0,0", "1,2,B,1,1", "1,3,C,1,1", "1,4,D,1,1").replace(
            b"2027-01-02", b"0001-01-01"
        ),
        2,
        "0001-01-01 is before 1900 or after 2999",
    ),
    "no game column": Malformed(
        SITE_HEADER + b"S,,2027-01-02,1,1,Ann,0,0\n", 2, "The game column is empty"
    ),
    "a count over 13 in the season csv": Malformed(
        site_rows("1,1,A,0,0", "1,2,B,1,1", "1,3,C,1,1", "1,4,D,14,42"),
        2,
        "between 0 and 13",
        season="current",
    ),
    # A spreadsheet of a column per player.
    "a formula heading a column": Malformed(
        b"Ann,@SUM(A1),Cy,Dee\n0,1,2,3\n", 1, "starts with @, so a spreadsheet"
    ),
    "a row short": Malformed(b"Ann,Ben,Cy,Dee\n0,1,2,3\n0,1\n", 3, "2 numbers for 4 players"),
    "a word for a number": Malformed(b"Ann,Ben,Cy,Dee\n0,one,2,3\n", 2, "“one” under Ben"),
    "a negative number": Malformed(b"Ann,Ben,Cy,Dee\n0,-1,2,3\n", 2, "“-1” under Ben"),
    "a column named twice": Malformed(b"Ann,Ben,ANN,Dee\n0,1,2,3\n", 1, "“ANN” heads two"),
    "no deals": Malformed(b"Ann,Ben,Cy,Dee\n", 1, "There are no deals under the players"),
    "points with no one on 0": Malformed(
        b"Ann;Ben;Cy;Dee\n0;7;3;1\n5;7;3;1\n", 3, "Nobody has 0 points", holds="points"
    ),
    "cards with no one out": Malformed(
        b"Deal,Ann,Ben,Cy,Dee\n1,0,3,13,1\n2,2,3,13,1\n", 3, "Nobody went out"
    ),
}


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in COUNTED}


def said(response) -> str:
    assert response.status_code == 200, response.status_code
    return html.unescape(response.content.decode())


def problems(page: str) -> list[str]:
    return [line.strip() for line in page.splitlines() if "Line " in line or "error" in line]


def choices(case: Malformed, club) -> dict[str, str]:
    season = case.season
    if season == "current":
        season = str(club.seasons.get(is_current=True).pk)
    return {"season": season, "season_name": "", "holds": case.holds}


def test_there_are_thirty_kinds_and_more():
    assert len(MALFORMED) >= 30
    assert len({case.data for case in MALFORMED.values()}) == len(MALFORMED)


@pytest.mark.parametrize("case", MALFORMED.values(), ids=MALFORMED.keys())
def test_a_malformed_file_is_refused_naming_its_line_and_saves_nothing(owner_client, club, case):
    before = counts()
    sent = choices(case, club)
    upload = SimpleUploadedFile("scores.txt", case.data, content_type="application/octet-stream")
    response = owner_client.post(url(club), {**sent, "score_file": upload})
    preview = said(response)
    told = f"Line {case.line}: "
    assert any(told in line and case.words in line for line in preview.splitlines()), problems(
        preview
    )
    assert ">Import</button>" not in preview
    # A refused file isn't kept: an Import sent all the same (an old tab, a tampered form)
    # finds nothing to import, and asks for the file again.
    refused = said(owner_client.post(url(club), {**sent, "digest": response.context["digest"]}))
    assert "The preview has expired: choose the file again." in refused
    assert counts() == before


@pytest.mark.parametrize("zone", ["Etc/GMT+12", "Pacific/Kiritimati", "Pacific/Pago_Pago"])
def test_a_backup_dated_at_the_end_of_time_comes_in_dated_today_wherever_the_site_is(
    owner_client, club, settings, zone
):
    """KeepScore's start is a count of milliseconds: one that far is no day, and the game is
    dated today rather than at a moment the database can't store."""
    settings.TIME_ZONE = zone
    backup = keepscore_backup(
        ("F", {"A": "0", "B": "1", "C": "2", "D": "3"}), started=253402300799999
    )
    sent = {"season": "new", "season_name": "", "holds": "cards"}
    upload = SimpleUploadedFile("games.xml", backup)
    preview = owner_client.post(url(club), {**sent, "score_file": upload})
    assert "No date in the file: dated today" in said(preview)
    done = owner_client.post(url(club), {**sent, "digest": preview.context["digest"]})
    assert done.status_code == 302
    assert timezone.localtime(Game.objects.get().created_at).date() == timezone.localdate()


def test_a_file_of_no_bytes_is_refused_at_the_field_and_saves_nothing(owner_client, club):
    """No line to name: the form says so beside the field, before anything is read."""
    before = counts()
    upload = SimpleUploadedFile("scores.txt", b"")
    sent = {"season": "new", "season_name": "", "holds": "cards", "score_file": upload}
    page = said(owner_client.post(url(club), sent))
    assert "That file is empty: choose the score file" in page
    assert ">Import</button>" not in page and counts() == before
