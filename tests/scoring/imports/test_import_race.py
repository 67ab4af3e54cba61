"""Import tapped twice, on two phones at once: one import, and the other told when it came in."""

from __future__ import annotations

import pytest

from scoring.imports.preview import NewSeason, rules_for_file
from scoring.models import Game, ImportedFile, Season
from tests.concurrency import at_once, needs_postgres
from tests.factories import make_club, make_user
from tests.scoring.imports.sheets import saved, scorer_file

pytestmark = [needs_postgres, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("into", ["season", "new"])
def test_two_imports_of_one_file_at_once_save_it_once(into):
    club = make_club(make_user("olive"))
    sheet = scorer_file([0, 4, 10, 13])
    target = (
        club.seasons.get() if into == "season" else NewSeason("Old", rules_for_file(sheet.rules))
    )

    def send():
        return saved(club=club, target=target, score_file=sheet, sha256="b" * 64, by=club.owner)

    outcomes = sorted(at_once(send, send))
    assert outcomes[0].startswith("done: ")
    assert outcomes[1].startswith("refused: This file was already imported into")
    assert Game.objects.count() == 1 and ImportedFile.objects.count() == 1
    assert Season.objects.filter(club=club).count() == (1 if into == "season" else 2)
