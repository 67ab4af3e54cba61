"""An import holds the database no longer than its writes take: the file is read and every
deal scored before the save takes the lock (on SQLite the one write lock of the whole site,
on PostgreSQL the club's row), so other clubs, and the importing club itself, write meanwhile;
and a file that will be refused is refused without taking the lock, or waiting for it.

On SQLite (a WAL-mode file, as the server runs it) and, in CI's second pass, on PostgreSQL."""

from __future__ import annotations

import pytest
from django.test import Client

from scoring import services
from scoring.imports.checks import GameCheck
from scoring.imports.preview import NewSeason, preview_import, rules_for_file
from scoring.models import Deal, Game, ImportedFile
from scoring.services import import_rows
from tests.factories import make_club, make_game, make_user, record
from tests.scoring.imports.holding import (
    held_by_another_writer,
    lock_the_club,
    on_another_phone,
    short_lock_waits,
)
from tests.scoring.imports.samples import SHEET, import_it, upload
from tests.scoring.imports.sheets import scorer_file

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def shared(transactional_db):
    with short_lock_waits():
        yield


def test_while_a_file_is_read_and_checked_for_import_others_write(shared, monkeypatch):
    club = make_club(make_user("olive"))
    other = make_game(make_club(make_user("oscar"), name="Other table"))
    owner = Client()
    owner.force_login(club.owner)
    preview = upload(owner, club, SHEET)
    during: list[str] = []
    check = GameCheck.preview

    def checking(self):
        during.append(on_another_phone(lambda: record(other, 0, 5, 10, 13).number))
        during.append(on_another_phone(lambda: lock_the_club(club)))
        return check(self)

    monkeypatch.setattr(GameCheck, "preview", checking)
    done = import_it(owner, club, preview)
    assert during == ["done: 1", "done: locked"]
    assert done.status_code == 302
    assert Game.objects.filter(club=club).count() == 1 and other.deals.count() == 1


def test_a_file_with_problems_is_refused_without_waiting_for_the_database(shared):
    club = make_club(make_user("olive"))
    sheet = scorer_file([0, 4, 10, 13], [0, 0, 1, 1])
    target = NewSeason("Old", rules_for_file(sheet.rules))
    preview = preview_import(club, target, sheet)
    with held_by_another_writer(club), pytest.raises(services.ImportRefused, match="Line 4"):
        services.save_import(
            club=club, target=target, preview=preview, sha256="c" * 64, by=club.owner
        )
    assert not Game.objects.filter(club=club).exists()


def test_a_file_already_imported_is_refused_without_waiting_for_the_database(shared):
    club = make_club(make_user("olive"))
    sheet = scorer_file([0, 4, 10, 13])
    target = NewSeason("Old", rules_for_file(sheet.rules))
    preview = preview_import(club, target, sheet)
    choices = {"club": club, "target": target, "preview": preview, "sha256": "c" * 64}
    services.save_import(**choices, by=club.owner)
    with held_by_another_writer(club), pytest.raises(services.AlreadyImported):
        services.save_import(**choices, by=club.owner)
    assert ImportedFile.objects.count() == 1 and Deal.objects.count() == 1


def test_the_same_file_sent_again_and_again_is_answered_while_the_database_is_held(shared):
    """Its preview only reads: each upload is told the file is in already, none waits."""
    club = make_club(make_user("olive"))
    owner = Client(raise_request_exception=False)
    owner.force_login(club.owner)
    assert import_it(owner, club, upload(owner, club, SHEET)).status_code == 302
    with held_by_another_writer(club):
        answers = [upload(owner, club, SHEET) for _ in range(3)]
    assert [answer.status_code for answer in answers] == [200] * 3
    assert all("This file was already imported into" in a.content.decode() for a in answers)
    assert Game.objects.count() == 1


def test_a_reader_in_the_middle_of_the_save_sees_none_of_it(shared, monkeypatch):
    """The games, deals and scores are written, the history not yet: another phone reading
    the club then finds nothing of the file, and after the commit all of it."""
    club = make_club(make_user("olive"))
    sheet = scorer_file([0, 4, 10, 13], [8, 0, 12, 13])
    target = NewSeason("Old", rules_for_file(sheet.rules))
    preview = preview_import(club, target, sheet)
    seen: list[str] = []
    history = import_rows.HISTORY.write

    def counted() -> tuple[int, int]:
        return Game.objects.filter(club=club).count(), Deal.objects.count()

    def reading(rows):
        seen.append(on_another_phone(counted))
        history(rows)

    monkeypatch.setattr(import_rows.HISTORY, "write", reading)
    services.save_import(club=club, target=target, preview=preview, sha256="e" * 64, by=club.owner)
    assert seen == ["done: (0, 0)"]
    assert Game.objects.filter(club=club).count() == 1 and Deal.objects.count() == 2
