"""A club restored from its backup shows its members the same pages: every game, every season's
standings, the all-time table, the club's page and its history."""

import re

import pytest
from django.test import Client

from scoring.backup import export_club, import_club
from scoring.models import Club
from tests.factories import make_club
from tests.scoring.backup.support import build_club, empty_the_database


def shown(client: Client, address: str) -> str:
    """What a page shows: its text without tags, scripts or styles, white space made one."""
    response = client.get(address)
    assert response.status_code == 200, address
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", response.content.decode(), flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]*>", " ", page)).strip()


def pages(club: Club) -> dict[str, str]:
    """The club's pages as its owner sees them, named without the ids in their addresses."""
    client = Client()
    client.force_login(club.owner)
    addresses = {
        "club": f"/clubs/{club.pk}/",
        "club history": f"/clubs/{club.pk}/history/",
        "all time": f"/clubs/{club.pk}/standings/",
    }
    for place, season in enumerate(club.seasons.order_by("pk"), start=1):
        addresses[f"season {place}"] = f"/seasons/{season.pk}/"
    for place, game in enumerate(club.games.order_by("created_at", "pk"), start=1):
        addresses[f"game {place}"] = f"/games/{game.pk}/"
    return {name: shown(client, address) for name, address in addresses.items()}


@pytest.mark.django_db
def test_a_club_restored_from_its_backup_shows_the_same_pages():
    club = build_club("a", games=3)
    backup = export_club(club, with_passwords=True)
    before = pages(club)
    empty_the_database()
    make_club(name="Already here")  # the restored club gets other ids than it had

    restored = import_club(backup)

    assert restored.pk != club.pk
    assert pages(restored) == before
