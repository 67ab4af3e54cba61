"""A previewed file waits for "Import" on disk, in the site's private directory, not in the
server's memory: only if it can be imported, at most IMPORT_UPLOADS_PER_MEMBER per member and
IMPORT_UPLOADS_WAITING in all, for an hour; imported, it goes."""

from __future__ import annotations

import datetime
import gc
import os
import stat
import time
import tracemalloc

import pytest
from django.core.cache import cache

from scoring.models import Game
from tests.factories import make_club, make_user
from tests.scoring.imports.samples import SHEET, import_it, upload


def waiting(var_dir) -> list:
    return sorted((var_dir / "uploads").glob("*/*")) if (var_dir / "uploads").exists() else []


def sheet(number: int) -> bytes:
    """A different file each time: a comment makes the bytes differ."""
    return SHEET + f"# sheet {number}\n".encode()


def test_a_previewed_file_waits_on_disk_for_the_owner_alone(owner_client, club, own_var_dir):
    preview = upload(owner_client, club, SHEET)
    (kept,) = waiting(own_var_dir)
    assert kept.name == preview.context["digest"]
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert stat.S_IMODE((own_var_dir / "uploads").stat().st_mode) == 0o700
    assert stat.S_IMODE(kept.parent.stat().st_mode) == 0o700
    assert SHEET in kept.read_bytes()
    assert not cache.get(f"score-import:{club.owner.pk}:{kept.name}")
    assert import_it(owner_client, club, preview).status_code == 302
    assert waiting(own_var_dir) == [] and Game.objects.count() == 1


@pytest.mark.parametrize(
    "data",
    [b"\x00" + os.urandom(5 * 1_000_000), b"A B C D\n0 4 10 14\n"],
    ids=["not a text file", "a deal the rules refuse"],
)
def test_a_refused_file_is_never_kept(owner_client, club, own_var_dir, data):
    page = upload(owner_client, club, data)
    assert "problem: nothing can be imported" in page.content.decode()
    assert waiting(own_var_dir) == []


def test_twenty_refused_files_keep_nothing(owner_client, club, own_var_dir):
    """Not on disk, nor in the server's memory (the cache): the process holds no more after
    twenty 1 MB files than after one."""
    refused = [b"\x00" + os.urandom(1_000_000) + bytes([number]) for number in range(21)]
    tracemalloc.start()
    try:
        upload(owner_client, club, refused[0])  # whatever the first page caches
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        for data in refused[1:]:
            upload(owner_client, club, data)
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 2_000_000, f"the process kept {grown / 1e6:.1f} MB"
    assert waiting(own_var_dir) == []


def test_past_the_bound_for_a_member_the_file_is_not_kept_and_they_are_told(
    owner_client, club, own_var_dir, settings
):
    settings.IMPORT_UPLOADS_PER_MEMBER = 2
    for number in range(2):
        upload(owner_client, club, sheet(number))
    page = upload(owner_client, club, sheet(2)).content.decode()
    assert "You already have 2 previewed files waiting for “Import”, the most one member" in page
    assert "choose this file again after" in page and ">Import</button>" not in page
    assert len(waiting(own_var_dir)) == 2
    # The same file again takes no more room: it is the one already waiting.
    assert ">Import</button>" in upload(owner_client, club, sheet(1)).content.decode()


def test_past_the_bound_for_the_site_no_member_adds_one(client, own_var_dir, settings, db):
    settings.IMPORT_UPLOADS_WAITING = 2
    clubs = [make_club(make_user(f"owner{n}")) for n in range(3)]
    pages = []
    for number, club in enumerate(clubs):
        client.force_login(club.owner)
        pages.append(upload(client, club, sheet(number)).content.decode())
    assert all(">Import</button>" in page for page in pages[:2])
    assert "The site already has 2 previewed files waiting for “Import”" in pages[2]
    assert len(waiting(own_var_dir)) == 2


def test_a_file_waits_an_hour_then_goes_when_another_arrives(owner_client, club, own_var_dir):
    old = upload(owner_client, club, sheet(1))
    (kept,) = waiting(own_var_dir)
    an_hour_ago = time.time() - datetime.timedelta(hours=1, seconds=1).total_seconds()
    os.utime(kept, (an_hour_ago, an_hour_ago))
    upload(owner_client, club, sheet(2))
    assert [path.name for path in waiting(own_var_dir)] != [kept.name]
    assert len(waiting(own_var_dir)) == 1
    expired = import_it(owner_client, club, old).content.decode()
    assert "The preview has expired: choose the file again." in expired
    assert not Game.objects.exists()


def test_an_expired_file_is_not_imported_even_before_another_arrives(
    owner_client, club, own_var_dir
):
    old = upload(owner_client, club, sheet(1))
    (kept,) = waiting(own_var_dir)
    an_hour_ago = time.time() - datetime.timedelta(hours=1, seconds=1).total_seconds()
    os.utime(kept, (an_hour_ago, an_hour_ago))
    expired = import_it(owner_client, club, old).content.decode()
    assert "The preview has expired: choose the file again." in expired
    assert waiting(own_var_dir) == [] and not Game.objects.exists()


def test_another_member_cannot_import_a_file_waiting_for_the_owner(owner_client, club, client):
    preview = upload(owner_client, club, SHEET)
    other = make_club(make_user("oscar"))
    client.force_login(other.owner)
    sent = {
        "digest": preview.context["digest"],
        "season": "new",
        "season_name": "",
        "holds": "cards",
    }
    page = client.post(f"/clubs/{other.pk}/import/", sent).content.decode()
    assert "The preview has expired: choose the file again." in page
    assert not Game.objects.exists()
