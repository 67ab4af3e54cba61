"""The owner's "Import scores" page: choose a file, read its preview, import it once."""

from __future__ import annotations

import html
import re

import pytest

from scoring.models import Game, Player
from tests.factories import make_member
from tests.scoring.imports.samples import import_it, upload, url
from tests.scoring.imports.sheets import scorer_file


@pytest.fixture
def reads(monkeypatch):
    """The file read as the given score file (the readers have tests of their own)."""

    def use(score_file):
        monkeypatch.setattr("scoring.views.imports.read_upload", lambda data, holds: score_file)

    use(scorer_file([0, 4, 10, 13], [8, 0, 12, 13]))
    return use


def test_the_owner_finds_the_page_on_the_club_page(owner_client, club):
    page = owner_client.get(f"/clubs/{club.pk}/").content.decode()
    assert url(club) in page
    form = owner_client.get(url(club)).content.decode()
    assert ">Score file</label>" in form and "A new season for this file" in form
    assert ">Preview</button>" in form


def test_the_page_shows_each_format_it_reads_with_an_example_it_reads(owner_client, club):
    """Each format folded under its name, its example a file that imports as it stands."""
    page = owner_client.get(url(club)).content.decode()
    folded = r"<details>\s*<summary>(.*?)</summary>.*?<pre[^>]*>(.*?)</pre>"
    formats = re.findall(folded, page, re.S)
    assert [name for name, _example in formats] == [
        "This site's season CSV",
        "big-two-scorer text",
        "KeepScore backup",
        "Spreadsheet (CSV)",
    ]
    previews = [
        upload(owner_client, club, html.unescape(example).encode()).context["preview"]
        for _name, example in formats
    ]
    assert [preview.format.value for preview in previews] == [
        "site-csv",
        "big-two-scorer",
        "keepscore",
        "spreadsheet",
    ]
    assert all(preview.can_import and not preview.warnings for preview in previews)


def test_a_member_is_not_shown_the_link(client, club):
    client.force_login(make_member(club))
    assert url(club) not in client.get(f"/clubs/{club.pk}/").content.decode()


def test_the_preview_lists_games_players_totals_and_saves_nothing(owner_client, club, reads):
    Player.named("ann", club=club).save()
    page = upload(owner_client, club)
    text = page.content.decode()
    assert page.status_code == 200
    assert "Game 1 (line 2)" in text and "19 Mar 2013" in text
    assert "on the roster" in text and text.count(">new</span>") == 3
    assert "<td>78</td>" in text and "Ben wins with the lowest total" in text
    assert ">Import</button>" in text
    assert not Game.objects.exists()


def test_import_saves_it_all_and_a_second_upload_is_refused(owner_client, club, reads):
    preview = upload(owner_client, club, season_name="Paper sheets")
    done = import_it(owner_client, club, preview)
    assert done.status_code == 302
    game = Game.objects.get()
    assert game.season.name == "Paper sheets" and game.is_finished
    assert "1 game imported into Paper sheets" in owner_client.get(done.url).content.decode()
    again = upload(owner_client, club, season_name="Paper sheets")
    text = again.content.decode()
    assert "This file was already imported into Paper sheets on" in text
    assert ">Import</button>" not in text
    # Refused, the second upload isn't kept: an Import sent all the same finds nothing.
    refused = import_it(owner_client, club, again)
    assert "The preview has expired: choose the file again." in refused.content.decode()
    assert Game.objects.count() == 1


def test_problems_are_listed_with_their_lines_and_nothing_can_be_imported(
    owner_client, club, reads
):
    reads(scorer_file([0, 4, 10, 13], [0, 0, 12, 14]))
    text = upload(owner_client, club).content.decode()
    assert "Line 4: Deal 2: Cards left must be between 0 and 13" in text
    assert ">Import</button>" not in text


def test_a_file_over_20_mb_is_refused_by_its_size(owner_client, club, reads):
    page = upload(owner_client, club, data=b"0" * (20 * 1024 * 1024 + 1))
    assert page.status_code == 200
    assert "a score file can be at most 20 MB" in page.content.decode()


def test_an_import_whose_preview_is_gone_asks_for_the_file_again(owner_client, club, reads):
    sent = {"digest": "0" * 64, "season": "new", "season_name": "", "holds": "cards"}
    page = owner_client.post(url(club), sent)
    assert page.status_code == 200
    assert "The preview has expired: choose the file again." in page.content.decode()
    assert not Game.objects.exists()
