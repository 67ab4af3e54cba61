"""What one score file can make the site do is bounded: the bytes sent and unpacked, the lines,
games, deals (per file and per game) and players read, and the problems listed. Past a bound
the file is refused at once, by a problem that names the bound and how to stay within it, the
reading stops there, and nothing is saved or kept.

Through the owner's page (an ordinary database test: CI's PostgreSQL pass runs it too), and
through the readers, which take their bounds as `Limits`."""

from __future__ import annotations

import gzip
import html

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from scoring.imports.readers import read_score_file
from scoring.imports.sheet import Limits
from scoring.models import Deal, Game, ImportedFile, Player, Season
from tests.scoring.imports.samples import keepscore_backup, url

SITE_HEADER = b"season,game,date,deal,seat,player,cards_left,penalty\n"
BAD_LAST_LINE = b"Zed Zed\n"  # a problem of its own: told only if the reader got that far


def site_game(game: int, deals: int = 1, names=("A", "B", "C", "D")) -> bytes:
    rows = []
    for deal in range(1, deals + 1):
        for seat, name in enumerate(names, start=1):
            cards = 0 if seat == 1 else 1
            rows.append(f"S,{game},2027-01-02,{deal},{seat},{name},{cards},{cards}\n")
    return "".join(rows).encode()


def preview(client, club, data: bytes, **choices) -> str:
    sent = {"season": "new", "season_name": "", "holds": "cards", **choices}
    upload = SimpleUploadedFile("scores.txt", data, content_type="application/octet-stream")
    response = client.post(url(club), {**sent, "score_file": upload})
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def nothing_saved() -> bool:
    return not (
        Game.objects.exists()
        or Deal.objects.exists()
        or ImportedFile.objects.exists()
        or Player.objects.exists()
        or Season.objects.filter(name__startswith="From").exists()
    )


def test_a_preview_of_200000_one_deal_games_is_refused_at_the_games_bound(owner_client, club):
    """A few kilobytes of gzip that unpack to 200,000 games: the reader stops past the
    1,000th, and the page names the bound."""
    data = gzip.compress(b"A B C D\n0 1 1 1\n" * 200_000 + BAD_LAST_LINE)
    assert len(data) < 10_000
    page = preview(owner_client, club, data)
    assert "Line 2001: The file goes on past 1,000 games, the most one file can hold" in page
    assert "split it into files of at most 1,000 games" in page
    assert "Zed" not in page and ">Import</button>" not in page
    assert nothing_saved()


@pytest.mark.parametrize(
    ("data", "line"),
    [
        (b"A B C D\n0 1 1 1\nA B C D\n1 0 1 1\nA B C D\n1 1 0 1\n" + BAD_LAST_LINE, 5),
        (SITE_HEADER + site_game(1) + site_game(2) + site_game(3) + b"S,4,x,1,1,A,0,0\n", 10),
        (
            keepscore_backup(*[(f"G{n}", {"A": "0", "B": "1"}) for n in range(3)]) + b"<<<",
            18,
        ),
    ],
    ids=["big-two-scorer", "season csv", "keepscore"],
)
def test_games_past_the_setting_are_refused_naming_it(owner_client, club, settings, data, line):
    settings.IMPORT_MAX_GAMES = 2
    page = preview(owner_client, club, data)
    assert f"Line {line}: The file goes on past 2 games, the most one file can hold" in page
    assert "1 problem: nothing can be imported" in page
    assert nothing_saved()


def test_deals_past_the_files_bound_are_refused(owner_client, club, settings):
    settings.IMPORT_MAX_DEALS = 3
    data = b"A B C D\n0 1 1 1\n1 0 1 1\nA B C D\n1 1 0 1\n1 1 1 0\n" + BAD_LAST_LINE
    page = preview(owner_client, club, data)
    assert "Line 6: The file goes on past 3 deals, the most one file can hold" in page
    assert "Zed" not in page and nothing_saved()


@pytest.mark.parametrize(
    ("data", "line"),
    [
        (b"A B C D\n" + b"0 1 1 1\n" * 4 + BAD_LAST_LINE, 5),
        (b"A,B,C,D\n" + b"0,1,1,1\n" * 4 + b"x,y\n", 5),
        (SITE_HEADER + site_game(1, deals=4) + b"S,1,x\n", 14),
        (keepscore_backup(("G", {"A": "0,0,0,0", "B": "1,1,1,1"})), 7),
    ],
    ids=["big-two-scorer", "spreadsheet", "season csv", "keepscore"],
)
def test_a_game_past_the_sites_deals_per_game_is_refused(owner_client, club, settings, data, line):
    """GAME_MAX_DEALS, the bound on any game however its deals arrive."""
    settings.GAME_MAX_DEALS = 3
    page = preview(owner_client, club, data)
    assert f"Line {line}: This game goes on past 3 deals, the most one game can have" in page
    assert "1 problem: nothing can be imported" in page
    assert nothing_saved()


def test_players_past_the_bound_are_refused(owner_client, club, settings):
    settings.IMPORT_MAX_PLAYERS = 5
    data = b"A B C D\n0 1 1 1\nA B E F\n0 1 1 1\n" + BAD_LAST_LINE
    page = preview(owner_client, club, data)
    assert "Line 3: The file names more than 5 players, the most one file can" in page
    assert nothing_saved()


def test_a_gzip_unpacking_past_the_bound_is_refused_naming_it(owner_client, club, settings):
    settings.IMPORT_MAX_UNPACKED_BYTES = 2_000_000
    page = preview(owner_client, club, gzip.compress(b"A B C D\n0 1 1 1\n" * 125_001))
    assert "Line 1: The file unpacks to more than 2 MB, the most a score file can" in page
    assert nothing_saved()


def test_a_file_sent_past_the_bound_is_refused_by_its_size(owner_client, club, settings):
    settings.IMPORT_MAX_BYTES = 1_000_000
    page = preview(owner_client, club, b"A B C D\n" + b"0 1 1 1\n" * 125_000)
    assert "That file is 1.0 MB: a score file can be at most 1 MB. Split it" in page
    assert "At most 1 MB." in page  # the field's help says so before anything is sent
    assert nothing_saved()


def test_only_the_first_problems_are_listed_then_how_many_more(owner_client, club, settings):
    settings.IMPORT_MAX_PROBLEMS_SHOWN = 3
    data = b"Ann,Ben,Cy,Dee\n" + b"0,x,1,1\n" * 7
    page = preview(owner_client, club, data)
    assert "7 problems: nothing can be imported until they are fixed" in page
    assert [f"Line {n}: “x” under Ben" in page for n in range(2, 9)] == [True] * 3 + [False] * 4
    assert "…and 4 more problems, further on in the file" in page
    assert nothing_saved()


def test_every_problem_of_a_file_is_listed_at_once(owner_client, club):
    """A bad cell no longer hides the rest: each is told with its line, in every format."""
    data = b"Ann,Ben,Cy,Dee\n0,x,y,1\n0,0,1,1\n0,1,2\n1,2,3,0\n"
    page = preview(owner_client, club, data)
    told = [
        "Line 2: “x” under Ben is not a whole number",
        "Line 2: “y” under Cy is not a whole number",
        "Line 3: Deal 2: Only one player can go out",
        "Line 4: This row has 3 numbers for 4 players",
    ]
    assert [line in page for line in told] == [True] * 4, page
    assert "4 problems" in page


def test_every_problem_of_a_season_csv_and_a_backup_is_listed(owner_client, club):
    rows = SITE_HEADER + b"S,1,2027-01-02,1,1,=Ann,x,0\nS,1,2027-13-01,1,2,Ben,1,1\n"
    page = preview(owner_client, club, rows)
    assert "Line 2: cards_left is “x”" in page and "Line 2: The name “=Ann” starts with =" in page
    assert "Line 3: The date “2027-13-01” is not a date" in page
    backup = keepscore_backup(("F", {"Ann": "0,x", "Ben": "3,-2", "@Cy": "1,1"}))
    page = preview(owner_client, club, backup)
    assert "holds “x”, which is not a number" in page and "went down by 2" in page
    assert "The name “@Cy” starts with @" in page


@pytest.mark.parametrize(
    "data",
    [
        b"=Ann Ben Cy Dee\n0 1 1 1\n",
        keepscore_backup(("F", {"Ann": "0", "-Ben": "1", "Cy": "1", "Dee": "1"})),
    ],
    ids=["big-two-scorer", "keepscore"],
)
def test_a_name_that_starts_like_a_formula_is_refused_in_every_format(owner_client, club, data):
    page = preview(owner_client, club, data)
    assert "starts with" in page and "so a spreadsheet would run it as a formula" in page
    assert ">Import</button>" not in page and nothing_saved()


# The readers themselves, each bound as `Limits`.


def test_a_line_of_cells_past_the_bound_is_refused_before_it_is_split():
    sheet = read_score_file(b"A,B\n0,1\n" + b"1," * 100_000 + b"\n")
    assert (sheet.problems[0].line, sheet.games) == (3, ())
    assert "This line has more than 256 cells" in sheet.problems[0].message


def test_a_line_of_many_words_is_told_without_splitting_it_all():
    sheet = read_score_file(b"A B C D\n0 1 1 1\n" + b"1 " * 100_000 + b"\n")
    assert "This line holds more than 8 words or numbers" in sheet.problems[0].message


def test_lines_past_what_the_bounds_need_are_refused():
    limits = Limits(deals=2, games=1)  # 12 lines at most
    sheet = read_score_file(b"A B\n0 1\n" + b"# a comment\n" * 20, limits=limits)
    assert sheet.problems[0].line == 13 and "goes on past 12 lines" in sheet.problems[0].message


def test_a_backup_of_more_elements_than_its_games_need_is_refused():
    backup = b"<GamesBackup>" + b"<x/>" * 500 + b"</GamesBackup>"
    sheet = read_score_file(backup, limits=Limits(games=2))
    assert "The backup goes on past 200 XML elements" in sheet.problems[0].message


def test_a_game_of_more_than_four_players_in_a_backup_is_told():
    backup = keepscore_backup(("F", {name: "0" if name == "A" else "1" for name in "ABCDEF"}))
    sheet = read_score_file(backup)
    assert "This game has 6 players: Big Two is played by two to four" in sheet.problems[0].message


def test_the_problems_listed_are_the_first_by_line_and_the_rest_counted():
    data = b"A B C D\n" + b"x\n" * 10 + b"0 1 1 1 1\n"
    sheet = read_score_file(data, limits=Limits(problems=2))
    assert [problem.line for problem in sheet.problems] == [2, 3]
    assert sheet.more_problems == 8
