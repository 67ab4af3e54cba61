"""Score files made in the tests, as the readers would make them from a file's bytes."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from scoring.imports.sheet import (
    FileFormat,
    FileRules,
    Holds,
    ScoreFile,
    SheetDeal,
    SheetGame,
)

DAY = datetime.date(2013, 3, 19)


def scorer_file(
    *deals: Sequence[int],
    players: Sequence[str] = ("Ann", "Ben", "Cy", "Dee"),
    payers: dict[int, int] | None = None,
    day: datetime.date | None = DAY,
    holds: Holds = Holds.CARDS_LEFT,
    file_format: FileFormat = FileFormat.SCORER_TEXT,
    recorded: dict[int, tuple[int, ...]] | None = None,
) -> ScoreFile:
    """One game: a date line (line 1), the names (line 2), then a line per deal."""
    payers, recorded = payers or {}, recorded or {}
    sheet_deals = tuple(
        SheetDeal(
            line=3 + index,
            numbers=tuple(numbers),
            pays_for_table=payers.get(index),
            recorded_penalties=recorded.get(index),
        )
        for index, numbers in enumerate(deals)
    )
    game = SheetGame(line=2, players=tuple(players), played_on=day, deals=sheet_deals)
    rules = FileRules(pays_for_table=bool(payers), play_until_stopped=True)
    return ScoreFile(format=file_format, holds=holds, games=(game,), rules=rules)


def saved(*, club, target, score_file: ScoreFile, end_as_they_stand: bool = False, **choices):
    """The file previewed into `target`, then saved as "Import" saves it."""
    from scoring.imports.preview import preview_import
    from scoring.services import save_import

    preview = preview_import(club, target, score_file, end_as_they_stand=end_as_they_stand)
    return save_import(club=club, target=target, preview=preview, **choices)
