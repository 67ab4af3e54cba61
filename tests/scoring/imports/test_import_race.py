"""Import tapped twice, on two phones at once: one import, and the other told when it came in;
an import beside a deal recorded at another table, or at the same club: both saved.

On SQLite (a WAL-mode file, whose writers queue for the one write lock, as on the server) and,
in CI's second pass, on PostgreSQL."""

from __future__ import annotations

import pytest

from scoring.imports.preview import NewSeason, rules_for_file
from scoring.models import Game, GameChange, ImportedFile, Season
from tests.concurrency import at_once
from tests.factories import make_club, make_game, make_user, record
from tests.scoring.imports.sheets import saved, scorer_file

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(("into", "ending"), [("season", False), ("season", True), ("new", False)])
def test_two_imports_of_one_file_at_once_save_it_once(into, ending):
    """Ending its game as it stands too: one game ended, one line of history saying so."""
    club = make_club(make_user("olive"))
    sheet = scorer_file([0, 4, 10, 13])
    target = (
        club.seasons.get() if into == "season" else NewSeason("Old", rules_for_file(sheet.rules))
    )

    def send():
        return saved(
            club=club,
            target=target,
            score_file=sheet,
            end_as_they_stand=ending,
            sha256="b" * 64,
            by=club.owner,
        )

    outcomes = sorted(at_once(send, send))
    assert outcomes[0].startswith("done: ")
    assert outcomes[1].startswith("refused: This file was already imported into")
    assert Game.objects.count() == 1 and ImportedFile.objects.count() == 1
    assert Season.objects.filter(club=club).count() == (1 if into == "season" else 2)
    assert Game.objects.get().is_finished == (into == "new" or ending)
    ended = GameChange.objects.filter(action=GameChange.Action.END).count()
    assert ended == (1 if ending else 0)


def test_an_import_and_deals_at_the_table_at_once_are_all_saved():
    club = make_club(make_user("olive"))
    here, there = make_game(club), make_game(make_club(make_user("oscar"), name="Other"))
    sheet = scorer_file(*[[0, 1, 1, 1]] * 30)
    target = NewSeason("Old", rules_for_file(sheet.rules))

    def send():
        return saved(club=club, target=target, score_file=sheet, sha256="d" * 64, by=club.owner)

    outcomes = at_once(
        send, lambda: record(here, 0, 5, 10, 13).number, lambda: record(there, 0, 1, 2, 3).number
    )
    assert outcomes[1:] == ["done: 1", "done: 1"] and outcomes[0].startswith("done: ")
    imported = Game.objects.get(season__name="Old")
    totals = [seat.total for seat in imported.seats.all()]
    assert imported.deals.count() == 30 and totals == [0, 30, 30, 30]
