"""Issue 31 at 390x844: the owner uploads an old score sheet, reads the preview and imports
it; the same file again is refused with the day it came in. Both pages pass axe, light and
dark, and fit the phone; the page works without JavaScript. Issue 47: a sheet whose game the
season's rules haven't ended is imported ended as it stands, and the page shows each format it
reads with an example."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.imports.preview import read_upload
from scoring.models import Game
from tests.browser.a11y import assert_accessible, small_targets
from tests.browser.phone import add_style, log_in, open_phone, screenshot
from tests.factories import make_club, make_user
from tests.scoring.imports.sheets import scorer_file

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHEET = b"2013-03-19\nAnn Ben Cy Dee\n0 4 10 13\n8 0 12 13\n"


@pytest.fixture(autouse=True)
def reads_the_sheet(monkeypatch):
    """The file read as the readers read it (they have tests of their own)."""
    monkeypatch.setattr(
        "scoring.views.imports.read_upload",
        lambda data, holds: scorer_file([0, 4, 10, 13], [8, 0, 12, 13]),
    )


def upload(page, club, tmp_path, into: str = ""):
    sheet = tmp_path / "friday.txt"
    sheet.write_bytes(SHEET)
    page.goto(f"/clubs/{club.pk}/import/")
    page.get_by_label("Score file").set_input_files(str(sheet))
    if into:
        page.get_by_label("Import into").select_option(label=into)
    else:
        page.get_by_label("Name of the new season").fill("Paper sheets")
    page.get_by_role("button", name="Preview").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Check the scores before importing")


def fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_an_old_sheet_is_previewed_imported_and_refused_the_second_time(
    phone_without_js, live_server, tmp_path
):
    page = phone_without_js
    owner = make_user("olive")
    club = make_club(owner)
    log_in(page, owner, live_server.url)
    page.goto(f"/clubs/{club.pk}/")
    page.get_by_role("link", name="Import scores").click()
    upload(page, club, tmp_path)
    game = page.get_by_role("region", name="Game 1 (line 2)")
    expect(game.get_by_role("row", name="Dee new")).to_contain_text("78")
    expect(game).to_contain_text("Ben wins with the lowest total.")
    fits(page)
    screenshot(page, "import-preview")
    page.get_by_role("button", name="Import").click()
    expect(page.locator(".messages")).to_contain_text("1 game imported into Paper sheets.")
    assert Game.objects.get().season.name == "Paper sheets"

    upload(page, club, tmp_path)
    expect(page.get_by_role("alert")).to_contain_text(
        "This file was already imported into Paper sheets on"
    )
    expect(page.get_by_role("button", name="Import")).to_have_count(0)
    assert Game.objects.count() == 1


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_import_pages_pass_axe(browser, live_server, tmp_path, scheme):
    page = open_phone(browser, live_server, scheme)
    owner = make_user("olive")
    club = make_club(owner)
    log_in(page, owner, live_server.url)
    page.goto(f"/clubs/{club.pk}/import/")
    fits(page)
    assert_accessible(page, f"import scores ({scheme})")
    screenshot(page, f"import-form-{scheme}")
    upload(page, club, tmp_path)
    fits(page)
    assert_accessible(page, f"import preview ({scheme})")
    page.context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_file_of_many_problems_lists_the_first_and_counts_the_rest(
    browser, live_server, tmp_path, settings, monkeypatch, scheme
):
    """Every problem at once, up to the bound, then how many more: readable on the phone."""
    monkeypatch.setattr("scoring.views.imports.read_upload", read_upload)
    settings.IMPORT_MAX_PROBLEMS_SHOWN = 3
    page = open_phone(browser, live_server, scheme)
    owner = make_user("olive")
    club = make_club(owner)
    log_in(page, owner, live_server.url)
    sheet = tmp_path / "totals.csv"
    sheet.write_bytes(b"Ann,Ben,Cy,Dee\n" + b"0,x,1,1\n" * 7)
    page.goto(f"/clubs/{club.pk}/import/")
    expect(page.get_by_label("Score file")).to_have_accessible_description(
        "This site's season CSV, a big-two-scorer text file, a KeepScore backup, or a"
        " spreadsheet saved as CSV with a column per player and a row per deal. At most 20 MB."
    )
    page.get_by_label("Score file").set_input_files(str(sheet))
    page.get_by_role("button", name="Preview").click()
    problems = page.get_by_role("alert").filter(has_text="7 problems")
    expect(problems.get_by_role("listitem")).to_have_count(3)
    expect(problems.get_by_role("listitem").first).to_have_text(
        "Line 2: “x” under Ben is not a whole number: correct it (a row of totals at the end"
        " can go, the site adds them up)."
    )
    expect(problems).to_contain_text("…and 4 more problems, further on in the file")
    expect(page.get_by_role("button", name="Import")).to_have_count(0)
    fits(page)
    assert_accessible(page, f"import problems ({scheme})")
    screenshot(page, f"import-problems-{scheme}")
    page.context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_game_the_season_hasnt_ended_is_imported_ended_as_it_stands(
    browser, live_server, tmp_path, scheme
):
    """Into a season played to 100, the sheet's game (78 at most) isn't over: the preview says
    who would win, and "Import and end it as it stands" brings it in won by the lowest total."""
    page = open_phone(browser, live_server, scheme)
    owner = make_user("olive")
    club = make_club(owner)
    log_in(page, owner, live_server.url)
    upload(page, club, tmp_path, into="Season 1")
    expect(page.get_by_role("region", name="Game 1 (line 2)")).to_contain_text(
        "Not over. Ended as it stands, Ben would win with the lowest total."
    )
    offer = page.get_by_role("group", name="1 game isn't over under this season's rules")
    expect(offer.get_by_role("button")).to_have_text(
        ["Import and end it as it stands", "Import and leave it open"]
    )
    fits(page)
    assert_accessible(page, f"import preview of a game not over ({scheme})")
    assert not small_targets(page)
    screenshot(page, f"import-end-as-it-stands-{scheme}")
    offer.get_by_role("button", name="Import and end it as it stands").click()
    expect(page.locator(".messages")).to_contain_text(
        "1 game imported into Season 1. 1 ended as it stood."
    )
    game = Game.objects.get()
    assert game.is_finished and game.winner.name == "Ben" and game.last_deal == 2
    page.context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_each_format_the_page_reads_opens_to_its_example(browser, live_server, scheme):
    page = open_phone(browser, live_server, scheme)
    owner = make_user("olive")
    club = make_club(owner)
    log_in(page, owner, live_server.url)
    page.goto(f"/clubs/{club.pk}/import/")
    formats = page.get_by_role("region", name="Files it reads")
    examples = formats.locator("pre")
    expect(examples.first).to_be_hidden()
    for summary in formats.locator("summary").all():
        summary.click()
    for example in examples.all():
        expect(example).to_be_visible()
    expect(examples.nth(1)).to_contain_text("Ann Ben Cy Dee")
    fits(page)
    assert_accessible(page, f"import formats ({scheme})")
    assert not small_targets(page)
    screenshot(page, f"import-formats-{scheme}")
    add_style(page, "html { font-size: 200% !important; }")
    fits(page)
    page.context.close()
