"""Score files read from their bytes, their format told from their content: the games and
deals each holds, and every bad file refused with the line to fix and how."""

from __future__ import annotations

import codecs
import datetime
import gzip
import random
import subprocess
import sys
from pathlib import Path

import pytest

from rules.penalties import penalty
from rules.penalty_scales import scale_for_threshold
from rules.ruleset import RuleSet
from scoring.imports.readers import read_score_file
from scoring.imports.sheet import FileFormat, FileRules, Holds, ScoreFile
from tests.factories import make_game, record
from tests.scoring.imports.samples import README_EXAMPLE, README_FIGURES, keepscore_backup

# The issue's example: a threshold, a day, a comment after a `t`.
ISSUE_EXAMPLE = b"""F=11
2013-03-19
C S H Jj
1 1 5 0
11 9 9t 0   # S takes on all losses
"""


def problems(sheet: ScoreFile) -> list[tuple[int, str]]:
    return [(problem.line, problem.message) for problem in sheet.problems]


def the_problem(data: bytes, **options) -> tuple[int, str]:
    sheet = read_score_file(data, **options)
    assert not sheet.games, sheet.games
    assert len(sheet.problems) == 1, sheet.problems
    return sheet.problems[0].line, sheet.problems[0].message


def figures_by_hand(sheet: ScoreFile) -> dict[str, tuple[int, int, int, int]]:
    """What big-two-scorer works out from a file: per player, deals played, deals won, deals
    fried (the threshold or more cards left) and cards lost after frying, a `t` taking on
    everyone's."""
    figures: dict[str, list[int]] = {}
    for game in sheet.games:
        scale, doubled_from = scale_for_threshold(game.doubled_from)
        rules = RuleSet(penalties=scale, doubled_from=doubled_from)
        for deal in game.deals:
            losses = [penalty(cards, rules) for cards in deal.numbers]
            if (payer := deal.pays_for_table) is not None:
                losses = [sum(losses) if seat == payer else 0 for seat in range(len(losses))]
            for name, cards, loss in zip(game.players, deal.numbers, losses, strict=True):
                mine = figures.setdefault(name, [0, 0, 0, 0])
                mine[0] += 1
                mine[1] += cards == 0
                mine[2] += cards >= game.doubled_from
                mine[3] += loss
    return {name: tuple(numbers) for name, numbers in figures.items()}


def test_the_readmes_example_reads_into_its_games_deals_and_takers():
    sheet = read_score_file(README_EXAMPLE)
    assert sheet.format is FileFormat.SCORER_TEXT and sheet.holds is Holds.CARDS_LEFT
    assert not sheet.problems
    first, second = sheet.games
    assert (first.line, first.players, first.played_on) == (1, ("a", "b", "c", "d"), None)
    assert [(deal.line, deal.numbers, deal.pays_for_table) for deal in first.deals] == [
        (2, (0, 11, 12, 13), None),
        (3, (1, 1, 1, 0), None),
    ]
    assert second.players == ("x", "b", "c", "d")
    assert [(deal.numbers, deal.pays_for_table) for deal in second.deals] == [
        ((3, 0, 1, 2), 0),
        ((0, 1, 1, 1), 0),
    ]
    assert first.doubled_from == second.doubled_from == 10
    assert sheet.rules == FileRules(doubled_from=10, pays_for_table=True, play_until_stopped=True)


def test_the_readmes_example_gives_the_tools_own_figures():
    assert figures_by_hand(read_score_file(README_EXAMPLE)) == README_FIGURES


def test_a_threshold_a_day_and_a_comment_after_a_t():
    sheet = read_score_file(ISSUE_EXAMPLE)
    assert not sheet.problems
    (game,) = sheet.games
    assert (game.line, game.players) == (3, ("C", "S", "H", "Jj"))
    assert game.played_on == datetime.date(2013, 3, 19)
    assert game.doubled_from == 11 and sheet.rules.doubled_from == 11
    assert [(deal.line, deal.numbers, deal.pays_for_table) for deal in game.deals] == [
        (4, (1, 1, 5, 0), None),
        (5, (11, 9, 9, 0), 2),
    ]
    # 11 cards is fried at F=11: 22 for C, and the payer H takes on 22 + 9 + 9.
    assert figures_by_hand(sheet)["H"] == (2, 0, 0, 5 + 40)


def test_a_date_line_starts_a_new_game_of_the_same_players():
    sheet = read_score_file(b"2024-01-05\nAnn Ben Cy\n0 1 2\n2024-01-06\n3 0 1\n1 2 0\n")
    assert [(game.line, game.played_on.day, len(game.deals)) for game in sheet.games] == [
        (2, 5, 1),
        (5, 6, 2),
    ]
    assert sheet.games[1].players == ("Ann", "Ben", "Cy")


def test_a_fry_threshold_of_fourteen_or_more_is_kept_as_written():
    sheet = read_score_file(b"F=1000\nAnn Ben\n0 13\n")
    assert sheet.rules.doubled_from == sheet.games[0].doubled_from == 1000
    assert scale_for_threshold(1000)[0].value == "flat-penalties"


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        (b"F=10\nA B C D\n0 1 1 1\nF=11\nA B C D\n0 2 2 2\n", 4, "a season has one penalty scale"),
        (b"F=1\nA B C D\n0 1 1 1\n", 1, "the fry threshold is 2 or more"),
        (b"A B C D\n0 1 1\n", 2, "3 counts of cards left for 4 players"),
        (b"A B C D\n0 1t 1t 1\n", 2, "More than one player is marked t"),
        (b"A B C D\n0 1 x 1\n", 2, "“x” is not a number of cards left"),
        (b"0 1 1 1\nA B C D\n", 1, "Cards left, but no players yet"),
        (b"A B 3C D\n0 1 1 1\n", 1, "“3C” starts with a digit"),
        (b"Ann Ben ann\n0 1 1\n", 1, "ann is named twice"),
        (b"2013-02-30\nA B\n0 1\n", 1, "2013-02-30 is not a date"),
        (b"A B\nCy\n0 1\n", 2, "a game starts with a line of two to four players"),
    ],
)
def test_a_bad_score_file_line_is_named_with_what_to_fix(text, line, words):
    sheet = read_score_file(text)
    assert sheet.format is FileFormat.SCORER_TEXT
    assert sheet.problems[0].line == line and words in sheet.problems[0].message, problems(sheet)


BACKUP = keepscore_backup(
    ("Friday", {"Ann": "0,5,12", "Ben": "3,0,1", "Cy": "7,2,0"}),
    (None, {"Dee": "0", "Ed": "4"}),
    ("Never scored", {"Dee": "", "Ed": ""}),
)


@pytest.mark.parametrize("packed", [False, True], ids=["plain", "gzipped"])
def test_a_keepscore_backup_gives_each_players_points_deal_by_deal(packed):
    sheet = read_score_file(gzip.compress(BACKUP) if packed else BACKUP)
    assert sheet.format is FileFormat.KEEPSCORE and sheet.holds is Holds.POINTS
    assert not sheet.problems
    friday, second = sheet.games
    assert (friday.label, friday.players) == ("Friday", ("Ann", "Ben", "Cy"))
    assert friday.played_on == datetime.date(2013, 3, 19)
    assert [deal.numbers for deal in friday.deals] == [(0, 3, 7), (5, 0, 2), (12, 1, 0)]
    assert friday.deals[0].line == 7  # Ann's history
    assert (second.label, [deal.numbers for deal in second.deals]) == ("", [(0, 4)])


def test_a_keepscore_day_past_the_year_9999_is_no_day():
    backup = keepscore_backup(("F", {"Ann": "0", "Ben": "3"}), started=999_999_999_999_999)
    assert read_score_file(backup).games[0].played_on is None


def test_players_sit_in_keepscores_player_number_order():
    backup = BACKUP.replace(b"<playerNumber>0</playerNumber>", b"<playerNumber>9</playerNumber>")
    assert read_score_file(backup).games[0].players == ("Ben", "Cy", "Ann")


def test_a_negative_delta_is_refused_naming_the_player_and_line():
    backup = keepscore_backup(("Friday", {"Ann": "0,5", "Ben": "3,-2"}))
    sheet = read_score_file(backup)
    assert not sheet.games
    ((line, message),) = problems(sheet)
    assert line == 9 and message.startswith("Ben's score went down by 2: a deal's points can't")


@pytest.mark.parametrize(
    ("backup", "line", "words"),
    [
        (keepscore_backup(("F", {"Ann": "0,5", "Ben": "3"})), 4, "different numbers of deals"),
        (keepscore_backup(("F", {"Ann": "0,x", "Ben": "3,1"})), 7, "holds “x”, which is not"),
        (keepscore_backup(("F", {None: "0", "Ben": "3"})), 6, "has no name"),
        (keepscore_backup(("F", {"Ann": "0"})), 4, "fewer than two players"),
        (BACKUP[:300], 4, "The XML is broken here"),
        (b"<rss><channel/></rss>", 1, "isn't a KeepScore backup"),
        (b'<!DOCTYPE x [<!ENTITY a "aaaa">]><GamesBackup/>', 1, "declares a document type"),
        (b"\x1f\x8b\x08\x00garbage", 1, "gzipped but damaged"),
    ],
)
def test_a_bad_keepscore_backup_is_refused_saying_where(backup, line, words):
    sheet = read_score_file(backup)
    assert sheet.problems[0].line == line and words in sheet.problems[0].message, problems(sheet)


def test_the_sites_own_csv_reads_back_its_games_players_cards_and_penalties(owner_client, club):
    first = make_game(club, ["Ann", "=Bo", "Cy", "Dee"])
    record(first, 0, 4, 10, 13)
    record(first, 2, 0, 1, 1)
    second = make_game(club, ["Dee", "Cy", "Ann", "=Bo"])
    record(second, 5, 0, 12, 1)
    season = club.seasons.get()

    data = b"".join(owner_client.get(f"/seasons/{season.pk}/deals.csv").streaming_content)
    sheet = read_score_file(data, holds=Holds.POINTS)  # the file says what it holds

    assert sheet.format is FileFormat.SITE_CSV and sheet.holds is Holds.CARDS_LEFT
    assert not sheet.problems
    assert [(game.label, game.players) for game in sheet.games] == [
        (str(first.pk), ("Ann", "=Bo", "Cy", "Dee")),
        (str(second.pk), ("Dee", "Cy", "Ann", "=Bo")),
    ]
    assert sheet.games[0].played_on == first.deals.get(number=1).recorded_at.date()
    assert [(d.numbers, d.recorded_penalties) for d in sheet.games[0].deals] == [
        ((0, 4, 10, 13), (0, 4, 20, 39)),
        ((2, 0, 1, 1), (2, 0, 1, 1)),
    ]
    assert [(d.line, d.numbers, d.recorded_penalties) for d in sheet.games[1].deals] == [
        (10, (5, 0, 12, 1), (5, 0, 24, 1)),
    ]


SITE_HEADER = b"season,game,date,deal,seat,player,cards_left,penalty\n"


def test_a_season_csv_scored_by_points_holds_its_points():
    rows = b"S,7,2027-01-02,1,1,Ann,,0\nS,7,2027-01-02,1,2,Ben,,7\n"
    sheet = read_score_file(SITE_HEADER + rows)
    assert sheet.holds is Holds.POINTS and not sheet.problems
    assert [(d.numbers, d.recorded_penalties) for d in sheet.games[0].deals] == [((0, 7), (0, 7))]


@pytest.mark.parametrize(
    ("rows", "line", "words"),
    [
        (b"S,1,2027-01-02,1,1,Ann,0,0\nS,1,2027-01-02,1,2,Ben,3\n", 3, "has 7 columns"),
        (b"S,1,2027-01-02,1,1,Ann,0,0\nS,1,2027-01-02,1,2,Ben,x,3\n", 3, "cards_left is “x”"),
        (b"S,1,2027-01-02,1,1,=HYPERLINK(1),0,0\n", 2, "starts with =, so a spreadsheet"),
        (b"S,1,2027-13-02,1,1,Ann,0,0\n", 2, "“2027-13-02” is not a date"),
        (b"S,1,2027-01-02,2,1,Ann,0,0\nS,1,2027-01-02,2,2,Ben,3,3\n", 2, "has no deal 1"),
        (
            b"S,1,2027-01-02,1,1,Ann,0,0\nS,1,2027-01-02,1,2,Ben,3,3\n"
            b"S,1,2027-01-02,2,1,Ann,0,0\nS,1,2027-01-02,2,2,Bo,3,3\n",
            4,
            "doesn't seat the game's players once each",
        ),
        (b"S,1,2027-01-02,1,1,Ann,0,0\nS,1,2027-01-02,1,3,Ben,3,3\n", 2, "in seats 1, 2, 3"),
        (b"S,1,2027-01-02,1,1,Ann,0,0\nS,1,2027-01-02,1,2,Ben,,3\n", 3, "Ben has no cards left"),
        (b"S,,2027-01-02,1,1,Ann,0,0\n", 2, "The game column is empty"),
        (b"S,1,2027-01-02,1,1,,0,0\n", 2, "A player's name is empty"),
    ],
)
def test_a_bad_season_csv_row_is_named_with_what_to_fix(rows, line, words):
    sheet = read_score_file(SITE_HEADER + rows)
    assert sheet.format is FileFormat.SITE_CSV
    assert sheet.problems[0].line == line and words in sheet.problems[0].message, problems(sheet)


def test_a_spreadsheet_of_cards_left_with_a_column_of_deal_numbers():
    sheet = read_score_file(b"Deal,Ann,Ben,Cy,\n1,0,3,13,\n\n2, 5 ,0,1,\n")
    assert sheet.format is FileFormat.SPREADSHEET and sheet.holds is Holds.CARDS_LEFT
    assert not sheet.problems
    (game,) = sheet.games
    assert game.players == ("Ann", "Ben", "Cy")
    assert [(deal.line, deal.numbers) for deal in game.deals] == [(2, (0, 3, 13)), (4, (5, 0, 1))]


def test_a_spreadsheet_of_points_saved_with_semicolons():
    sheet = read_score_file(b"Ann;Ben\n0;7\n", holds=Holds.POINTS)
    assert sheet.holds is Holds.POINTS and sheet.games[0].deals[0].numbers == (0, 7)


@pytest.mark.parametrize(
    ("data", "line", "words"),
    [
        (b"Ann,@SUM(A1),Cy\n0,1,2\n", 1, "The name “@SUM(A1)” starts with @"),
        (b"Ann,Ben,Cy\n0,1\n", 2, "This row has 2 numbers for 3 players"),
        (b"Ann,Ben,Cy\n0,1,2\n0,one,2\n", 3, "“one” under Ben is not a whole number"),
        (b"Ann,Ben,Cy\n0,-1,2\n", 2, "“-1” under Ben is not a whole number"),
        (b"Ann,Ben,ANN\n0,1,2\n", 1, "“ANN” heads two columns"),
        (b"Ann,Ben,Cy\n", 1, "There are no deals under the players' names"),
    ],
)
def test_a_bad_spreadsheet_is_named_with_what_to_fix(data, line, words):
    sheet = read_score_file(data)
    assert sheet.format is FileFormat.SPREADSHEET
    assert sheet.problems[0].line == line and words in sheet.problems[0].message, problems(sheet)


def test_utf8_with_its_mark_and_utf16_by_its_mark_are_read():
    text = "Ann 陳 Cy\n0 1 2\n"
    for data in (codecs.BOM_UTF8 + text.encode(), text.encode("utf-16")):
        assert read_score_file(data).games[0].players == ("Ann", "陳", "Cy")


@pytest.mark.parametrize(
    ("data", "line", "words"),
    [
        (b"", 1, "The file is empty"),
        (b" \n\n", 1, "The file is empty"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", 1, "This is not a text file"),
        (b"Ann,Ben\n0,1\nJos\xe9,Ben\n", 3, "This line isn't UTF-8 text"),
        (b"Hello there\n", 1, "This doesn't look like a score file"),
        (b"just-one-word\n", 1, "a KeepScore backup (.xml or .xml.gz)"),
        (b"Ann Ben\n0 1\n\x07\n", 3, "This is not a text file"),
        (b"# only a comment\n\n", 1, "This doesn't look like a score file"),
        (b'Ann,Ben\n0,1\n"' + b"x" * 200_000, 3, "runs on for more than 128 KB"),
        (gzip.compress(b"\n" * 20_000_001), 1, "unpacks to more than 20 MB, the most a score"),
    ],
)
def test_a_file_that_is_no_score_file_is_refused_saying_why(data, line, words):
    found_line, message = the_problem(data)
    assert found_line == line and words in message, message


# Mostly what a score file is made of, so that a mutant gets past its first checks, and now and
# then any byte at all.
MUTANTS = b"0123456789tT,;#=+-@<>/\"' \nFx" * 4 + bytes(range(256))[::16]


def test_any_bytes_give_a_score_file_never_an_error():
    """Each format's sample, mutated a thousand ways: a byte flipped, deleted or inserted."""
    samples = [
        README_EXAMPLE,
        ISSUE_EXAMPLE,
        BACKUP,
        gzip.compress(BACKUP),
        SITE_HEADER + b"S,1,2027-01-02,1,1,Ann,0,0\nS,1,2027-01-02,1,2,'=Bo,3,3\n",
        b"Deal,Ann,Ben,Cy\n1,0,3,13\n2,5,0,1\n",
        codecs.BOM_UTF8 + b"Ann;Ben\n0;7\n",
        "F=8\nAnn 陳 Cy\n0 1 2t\n".encode("utf-16"),
    ]
    generator = random.Random(31)
    for case in range(8000):
        data = bytearray(samples[case % len(samples)])
        for _ in range(generator.randint(1, 4)):
            at = generator.randrange(len(data) + 1)
            match generator.randrange(3):
                case 0 if at < len(data):
                    data[at] = generator.choice(MUTANTS)
                case 1:
                    del data[at : at + generator.randint(1, 3)]
                case _:
                    data[at:at] = bytes([generator.choice(MUTANTS)])
        sheet = read_score_file(bytes(data), holds=generator.choice(list(Holds)))
        assert isinstance(sheet, ScoreFile)
        assert all(problem.line >= 1 and problem.message for problem in sheet.problems)


def test_the_readers_run_where_django_cannot_be_imported():
    """Pure Python, so that a fuzzer or a script can read files without the site."""
    program = (
        'import sys; sys.modules["django"] = None\n'
        "from scoring.imports.readers import read_score_file\n"
        'print(read_score_file(b"A B\\n0 3\\n").games[0].deals[0].numbers)\n'
    )
    project = Path(__file__).resolve().parents[3]
    result = subprocess.run(
        [sys.executable, "-c", program], cwd=project, capture_output=True, text=True, check=False
    )
    assert result.stdout.strip() == "(0, 3)", result.stderr
