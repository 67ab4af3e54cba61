"""`manage.py import_scores CLUB FILE --season ID [--end-as-they-stand] [--dry-run]`."""

from __future__ import annotations

import os
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from scoring.models import Game
from tests.scoring.imports.sheets import scorer_file


@pytest.fixture
def sheet(tmp_path, monkeypatch):
    monkeypatch.setattr(
        "scoring.management.commands.import_scores.read_upload",
        lambda data, holds: scorer_file([0, 4, 10, 13], [8, 0, 12, 13]),
    )
    path = tmp_path / "sheet.txt"
    path.write_text("2013-03-19\nAnn Ben Cy Dee\n0 4 10 13\n8 0 12 13\n")
    return path


def run(*args):
    out = StringIO()
    call_command("import_scores", *map(str, args), stdout=out)
    return out.getvalue()


def test_a_dry_run_prints_the_preview_and_saves_nothing(club, sheet):
    printed = run(club.pk, sheet, "--season", "new", "--dry-run")
    assert "Game 1 (line 2), 2013-03-19, 2 deals:" in printed
    assert "  Dee (new): 78" in printed and "  Ben wins" in printed
    assert "Dry run: nothing was saved." in printed
    assert not Game.objects.exists()


def test_without_dry_run_it_saves_into_the_season(club, sheet):
    printed = run(club.pk, sheet, "--season", "new")
    assert "Imported 1 games into From sheet." in printed
    assert Game.objects.get().season.name == "From sheet"
    with pytest.raises(CommandError, match="already imported"):
        run(club.pk, sheet, "--season", "new")


def test_a_game_not_over_under_the_seasons_rules_comes_in_with_a_warning(club, sheet):
    season = club.seasons.get()  # to 100 points: the game isn't over, but can come in
    printed = run(club.pk, sheet, "--season", season.pk)
    assert "Warning, line 2: This game isn't over" in printed
    assert Game.objects.get().season == season


def test_games_not_over_can_be_ended_as_they_stand(club, sheet):
    season = club.seasons.get()  # to 100 points: the game isn't over
    printed = run(club.pk, sheet, "--season", season.pk, "--end-as-they-stand")
    assert "  Ben wins" in printed and "This game isn't over" not in printed
    assert "Imported 1 games into Season 1, 1 ended as they stood." in printed
    game = Game.objects.get()
    assert game.is_finished and game.winner.name == "Ben" and game.last_deal == 2


def test_problems_are_printed_and_nothing_is_saved(club, sheet, monkeypatch):
    monkeypatch.setattr(
        "scoring.management.commands.import_scores.read_upload",
        lambda data, holds: scorer_file([0, 4, 10, 14]),
    )
    with pytest.raises(CommandError, match="Nothing was imported"):
        run(club.pk, sheet, "--season", "new")
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("club_id", "file", "season", "words"),
    [
        (999, None, "new", "There is no club 999"),
        (None, "missing.txt", "new", "can't be read"),
        (None, None, "12345", "has no season 12345"),
        (None, None, "x", "has no season x"),
    ],
)
def test_unknown_clubs_files_and_seasons_are_clear_errors(
    club, sheet, club_id, file, season, words
):
    with pytest.raises(CommandError, match=words):
        run(club_id or club.pk, file or sheet, "--season", season)


@pytest.mark.parametrize("kind", ["device", "pipe", "directory"])
def test_what_isnt_a_regular_file_is_refused_before_it_is_read(club, tmp_path, kind):
    """/dev/zero would be read until the memory ran out, and a pipe waited on for ever."""
    if kind == "device":
        path = "/dev/zero"
    elif kind == "pipe":
        path = tmp_path / "pipe"
        os.mkfifo(path)
    else:
        path = tmp_path
    with pytest.raises(CommandError, match="isn't a regular file: name the score file itself"):
        run(club.pk, path, "--season", "new")
    assert not Game.objects.exists()


def test_a_file_over_the_bound_is_refused_by_its_size(club, sheet, settings):
    settings.IMPORT_MAX_BYTES = 1_000_000
    sheet.write_bytes(sheet.read_bytes() + b"#" * 1_000_000)
    with pytest.raises(CommandError, match=r"is 1.0 MB: a score file can be at most 1 MB"):
        run(club.pk, sheet, "--season", "new")
    assert not Game.objects.exists()
