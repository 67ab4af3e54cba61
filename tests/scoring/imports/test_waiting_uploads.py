"""A previewed file waits for "Import" on disk, in the site's private directory, not in the
server's memory: only if it can be imported, at most IMPORT_UPLOADS_PER_MEMBER per account,
IMPORT_UPLOADS_PER_CLUB per club and IMPORT_UPLOADS_WAITING in all (where the account with the
most waiting makes room), for an hour; imported, it goes."""

from __future__ import annotations

import datetime
import gc
import os
import stat
import threading
import time
import tracemalloc
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.core.cache import cache

from scoring import services
from scoring.imports import uploads
from scoring.models import Game
from tests.factories import make_club, make_member, make_user
from tests.scoring.imports.samples import SHEET, import_it, upload


def waiting(var_dir) -> list:
    return sorted((var_dir / "uploads").glob("*/*/*")) if (var_dir / "uploads").exists() else []


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
    assert stat.S_IMODE(kept.parent.parent.stat().st_mode) == 0o700
    assert kept.relative_to(own_var_dir / "uploads").parts[:2] == (str(club.owner.pk), str(club.pk))
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


def owners(count: int) -> list:
    return [
        make_club(make_user(f"owner{number}"), name=f"Club {number}") for number in range(count)
    ]


def test_past_the_bound_for_a_club_the_file_is_not_kept_and_they_are_told(
    client, club, own_var_dir, settings
):
    """A club whose owner changed keeps counting the files previewed for it before."""
    settings.IMPORT_UPLOADS_PER_CLUB = 2
    client.force_login(club.owner)
    for number in range(2):
        upload(client, club, sheet(number))
    new_owner = make_member(club, "nora")
    services.make_owner(club=club, member=new_owner, by=club.owner)
    client.force_login(new_owner)
    page = upload(client, club, sheet(2)).content.decode()
    assert "This club already has 2 previewed files waiting for “Import”, the most one club" in page
    assert "choose this file again after" in page and ">Import</button>" not in page
    assert len(waiting(own_var_dir)) == 2


def test_past_the_bound_for_the_site_the_account_with_most_waiting_makes_room(
    client, own_var_dir, settings, db
):
    settings.IMPORT_UPLOADS_WAITING = 3
    first, second, third = owners(3)
    client.force_login(first.owner)
    oldest = upload(client, first, sheet(1))
    upload(client, first, sheet(2))
    client.force_login(second.owner)
    upload(client, second, sheet(3))
    client.force_login(third.owner)
    assert ">Import</button>" in upload(client, third, sheet(4)).content.decode()
    kept = {path.relative_to(own_var_dir / "uploads").parts[0] for path in waiting(own_var_dir)}
    assert len(waiting(own_var_dir)) == 3 and kept == {
        str(found.owner.pk) for found in (first, second, third)
    }
    client.force_login(first.owner)
    let_go = import_it(client, first, oldest).content.decode()
    assert "The preview has expired: choose the file again." in let_go


def test_past_the_bound_for_the_site_an_account_with_as_many_as_anyone_is_refused(
    client, own_var_dir, settings, db
):
    settings.IMPORT_UPLOADS_WAITING = 2
    first, second = owners(2)
    for number, found in enumerate((first, second)):
        client.force_login(found.owner)
        upload(client, found, sheet(number))
    page = upload(client, second, sheet(2)).content.decode()
    assert "The site already keeps 2 previewed files waiting for “Import”, the most it can" in page
    assert "import one of yours, or choose this file again after" in page
    assert ">Import</button>" not in page and len(waiting(own_var_dir)) == 2


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


def test_throwaway_accounts_cannot_refuse_another_clubs_preview(client, club, own_var_dir):
    """Issue 47's attack: eighteen new accounts, each with a club of its own and three tiny
    previews, are more than the site keeps; another club's owner previews and imports all the
    same, and the site keeps no more than its bound."""
    for number in range(18):
        throwaway = make_club(make_user(f"throwaway{number}"))
        client.force_login(throwaway.owner)
        for file in range(3):
            upload(client, throwaway, sheet(number * 3 + file))
    client.force_login(club.owner)
    preview = upload(client, club, SHEET)
    assert ">Import</button>" in preview.content.decode()
    assert import_it(client, club, preview).status_code == 302
    assert Game.objects.filter(club=club).count() == 1
    assert len(waiting(own_var_dir)) <= 50


def test_a_file_previewed_for_one_club_is_not_imported_into_another(client, own_var_dir, db):
    first = make_club(make_user("olive"))
    second = make_club(first.owner, name="Sunday table")
    client.force_login(first.owner)
    preview = upload(client, first, SHEET)
    page = import_it(client, second, preview).content.decode()
    assert "The preview has expired: choose the file again." in page
    assert not Game.objects.exists() and len(waiting(own_var_dir)) == 1


def test_a_file_kept_before_files_were_kept_by_club_goes_when_another_arrives(
    owner_client, club, own_var_dir
):
    loose = own_var_dir / "uploads" / str(club.owner.pk) / ("0" * 64)
    loose.parent.mkdir(parents=True)
    loose.write_bytes(b'"sheet.txt"\n' + SHEET)
    upload(owner_client, club, sheet(1))
    assert not loose.exists() and len(waiting(own_var_dir)) == 1


def test_files_sent_at_once_by_many_accounts_never_pass_the_sites_bound(own_var_dir, settings):
    """Each request counts and changes the kept files alone: eight accounts' first files at
    once all find room, and two are kept, as one after another would leave them."""
    settings.IMPORT_UPLOADS_WAITING = 2
    start = threading.Barrier(8)

    def send(member: int) -> None:
        start.wait(timeout=10)
        uploads.keep(
            member_id=member,
            club_id=member,
            digest=f"{member:064x}",
            name="",
            data=bytes(1_000_000),
        )

    with ThreadPoolExecutor(8) as phones:
        for sent in [phones.submit(send, member) for member in range(1, 9)]:
            sent.result(timeout=30)
    assert len(waiting(own_var_dir)) == 2
