"""The scoreboard on a phone (390x844) keeps its names and totals in sight: on the live view by
deal 14, on the game page with text at 200% while the board is swiped sideways and scrolled;
sharing is reached from the top of the game page; and the home page tells two games of one
table apart and offers a new game where the user last played."""

from __future__ import annotations

import base64
import datetime

import pytest
from playwright.sync_api import expect

from scoring import services
from tests.browser.a11y import assert_accessible, small_targets
from tests.browser.phone import PHONE, SCREENSHOTS, add_style, arrive, log_in, open_phone
from tests.factories import make_club, make_deals, make_game, make_user, record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BIG_TEXT = "html { font-size: 200% !important; }"

# Each scoreboard figure that shows on the screen, and whether its player's name and the
# totals' row show too: on the screen, inside the board's box, and not covered by anything
# (what the point at the middle of their visible part belongs to).
UNNAMED_FIGURES = """() => {
  const table = document.querySelector('#game-board .scores');
  const wrap = table.closest('.table-wrap');
  const clip = (box, by) => ({
    left: Math.max(box.left, by.left), right: Math.min(box.right, by.right),
    top: Math.max(box.top, by.top), bottom: Math.min(box.bottom, by.bottom),
  });
  const screen = clip({left: 0, top: 0, right: innerWidth, bottom: innerHeight},
                      wrap.getBoundingClientRect());
  const seen = (element) => {
    const part = clip(element.getBoundingClientRect(), screen);
    if (part.right - part.left < 4 || part.bottom - part.top < 4) return false;
    const x = (part.left + part.right) / 2, y = (part.top + part.bottom) / 2;
    const hit = document.elementFromPoint(x, y);
    return hit !== null && element.contains(hit);
  };
  const names = [...table.tHead.rows[0].cells];
  const totals = [...table.tFoot.rows[0].cells];
  const problems = [];
  for (const row of table.tBodies[0].rows) {
    [...row.cells].forEach((cell, column) => {
      if (column === 0 || !seen(cell)) return;
      const deal = row.cells[0].textContent.trim();
      const whose = `deal ${deal}: ${names[column].textContent}'s`;
      if (!seen(names[column])) problems.push(`${whose} name`);
      if (!seen(totals[column])) problems.push(`${whose} total`);
    });
  }
  return problems;
}"""


def shown_figures(page) -> int:
    """How many of the board's figures are on the screen now."""
    return page.evaluate(
        """() => [...document.querySelectorAll('#game-board .scores tbody td')].filter((cell) => {
            const box = cell.getBoundingClientRect();
            return box.bottom > 0 && box.top < innerHeight
              && box.right > 0 && box.left < innerWidth;
        }).length"""
    )


def snap(page, name: str) -> None:
    """What the phone's screen shows (not the whole page: that shows no sticky row stuck)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


@pytest.fixture
def long_game():
    game = make_game(make_club(make_user("ann")))
    make_deals(game, 14)
    return game


def test_the_live_view_keeps_names_and_totals_in_sight_by_deal_14(phone, long_game):
    token = services.share_game(game=long_game, by=long_game.club.owner)
    page = phone
    page.goto(f"/live/{token}/")
    expect(page.locator(".scores tbody tr")).to_have_count(14)
    totals = page.locator(".scores tfoot td")
    expect(totals.first).to_be_in_viewport()
    assert page.evaluate(UNNAMED_FIGURES) == []

    for deal in (7, 14, 1):
        page.locator(f"#deal-{deal}").scroll_into_view_if_needed()
        page.mouse.wheel(0, 120 if deal == 7 else 0)
        assert shown_figures(page) > 0
        assert page.evaluate(UNNAMED_FIGURES) == [], f"scrolled to deal {deal}"
        if deal == 14:
            snap(page, "live-view-deal-14-scrolled")
    for name in ("Ann", "Ben", "Cy", "Dee"):
        expect(page.locator(".scores thead th", has_text=name)).to_be_in_viewport()
    expect(totals.last).to_be_in_viewport()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_changed_pages_pass_axe(browser, live_server, long_game, scheme):
    """The live view and the game page scrolled (the rows stuck), the home page with a game to
    continue, a new game and the user's own figures, a player page saying "This is you." with
    the owner's "Undo", and the club's members with the player each is."""
    owner = long_game.club.owner
    token = services.share_game(game=long_game, by=owner)
    ann = long_game.club.players.get(name="Ann")
    services.claim_player(player=ann, by=owner)
    context = browser.new_context(viewport=PHONE, base_url=live_server.url, color_scheme=scheme)
    page = context.new_page()
    page.goto(f"/live/{token}/")
    page.mouse.wheel(0, 600)
    assert_accessible(page, f"live view scrolled ({scheme})")
    log_in(page, owner, live_server.url)
    page.goto(f"/games/{long_game.pk}/")
    page.mouse.wheel(0, 900)
    assert_accessible(page, f"game page scrolled ({scheme})")
    page.goto("/")
    expect(page.get_by_text("You (Ann): no finished game yet")).to_be_visible()
    assert_accessible(page, f"home ({scheme})")
    page.goto(f"/players/{ann.pk}/")
    expect(page.get_by_role("button", name="Undo “This is me”")).to_be_visible()
    assert_accessible(page, f"player, this is you ({scheme})")
    problems = small_targets(page)
    page.goto(f"/players/{long_game.club.players.get(name='Ben').pk}/")
    expect(page.get_by_text("You are Ann in this club.")).to_be_visible()
    assert_accessible(page, f"player, someone else ({scheme})")
    problems += small_targets(page)
    page.goto(f"/clubs/{long_game.club_id}/")
    expect(page.locator(".member-player")).to_have_text("plays as Ann")
    assert_accessible(page, f"club, its members ({scheme})")
    problems += small_targets(page)
    assert problems == [], "tap targets under 44x44 px"
    if scheme == "light":
        page.locator(".member-player").scroll_into_view_if_needed()
        snap(page, "members-plays-as")
    context.close()


def test_sharing_is_reached_from_the_top_of_the_game_page(phone_without_js, live_server, long_game):
    page = phone_without_js
    log_in(page, long_game.club.owner, live_server.url)
    page.goto(f"/games/{long_game.pk}/")
    link = page.get_by_role("link", name="Share a live view")
    expect(link).to_be_in_viewport()
    link.click()
    expect(page.get_by_role("button", name="Share a live view")).to_be_in_viewport()
    page.get_by_role("button", name="Share a live view").click()
    # Shared: the same link near the top now leads to the live view's link to copy.
    expect(page.get_by_label("Live view link")).to_be_in_viewport()
    page.goto(f"/games/{long_game.pk}/")
    link = page.get_by_role("link", name="Live view link")
    expect(link).to_be_in_viewport()
    link.click()
    expect(page.get_by_label("Live view link")).to_be_in_viewport()


def test_with_text_at_200_percent_every_figure_keeps_its_players_name_in_view(
    browser, live_server, long_game
):
    page = open_phone(browser, live_server)  # lets the large text's style past the CSP
    log_in(page, long_game.club.owner, live_server.url)
    page.goto(f"/games/{long_game.pk}/")
    add_style(page, BIG_TEXT)
    assert page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)") == 32
    # The page itself fits the phone: the board swipes sideways in its own box.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1
    wrap = page.locator("#game-board .table-wrap")

    page.locator("#deal-1").scroll_into_view_if_needed()
    assert page.evaluate(UNNAMED_FIGURES) == []
    page.mouse.wheel(0, 300)  # down through the deals
    assert shown_figures(page) > 0
    assert page.evaluate(UNNAMED_FIGURES) == [], "scrolled down"
    # Swiped to either end of the board, and to a deal in the middle.
    for end, scroll in (("left", "-box.scrollWidth"), ("right", "box.scrollWidth")):
        wrap.evaluate(f"box => {{ box.scrollLeft = {scroll}; }}")
        assert shown_figures(page) > 0
        assert page.evaluate(UNNAMED_FIGURES) == [], f"swiped to the {end}"
    page.locator("#deal-9").scroll_into_view_if_needed()
    assert shown_figures(page) > 0
    assert page.evaluate(UNNAMED_FIGURES) == [], "at deal 9"
    expect(page.locator(".scores thead th", has_text="Dee")).to_be_in_viewport()
    snap(page, "text-200-board-names-in-view")
    page.context.close()


# Each word of the chart's legend that a line break cuts in two ("squar|e").
WORDS_CUT = """() => [...document.querySelectorAll('.legend li')].flatMap((item) => {
  const cut = [];
  const texts = document.createTreeWalker(item, NodeFilter.SHOW_TEXT);
  for (let text = texts.nextNode(); text; text = texts.nextNode()) {
    for (const word of text.textContent.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(text, word.index);
      range.setEnd(text, word.index + word[0].length);
      const lines = new Set([...range.getClientRects()].map((box) => Math.round(box.top)));
      if (lines.size > 1) cut.push(word[0]);
    }
  }
  return cut;
})"""

# The strip of the screen just right of the names' column and just left of the totals' (0.4rem
# wide, each player's row but its borders), where a deal swiped under them would show a sliver.
BESIDE_THE_STUCK_COLUMNS = """() => {
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
  const table = document.querySelector('#game-board .scores');
  const names = [...table.tHead.rows[0].cells].slice(1).map((cell) => cell.getBoundingClientRect());
  const totals = table.tFoot.rows[0].cells[1].getBoundingClientRect();
  return names.flatMap((row) => [row.right + 1, totals.left - 0.4 * rem].map((x) =>
    ({x, y: row.top + 3, width: 0.4 * rem - 1, height: row.height - 6})));
}"""

# The colours of a screenshot (PNG, base64), read back through a canvas.
COLOURS = """async (png) => {
  const image = new Image();
  image.src = `data:image/png;base64,${png}`;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = image.width;
  canvas.height = image.height;
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const data = context.getImageData(0, 0, image.width, image.height).data;
  const seen = new Set();
  for (let i = 0; i < data.length; i += 4) seen.add(`${data[i]},${data[i + 1]},${data[i + 2]}`);
  return [...seen];
}"""


def test_with_text_at_200_percent_the_chart_s_legend_wraps_between_words(
    browser, live_server, long_game
):
    page = open_phone(browser, live_server)
    log_in(page, long_game.club.owner, live_server.url)
    page.goto(f"/games/{long_game.pk}/")
    add_style(page, BIG_TEXT)
    legend = page.locator(".legend")
    legend.scroll_into_view_if_needed()
    expect(legend).to_contain_text("Ben (square)")
    assert page.evaluate(WORDS_CUT) == []
    snap(page, "text-200-chart-legend")
    page.context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_with_text_at_200_percent_no_sliver_of_a_deal_shows_beside_names_or_totals(
    browser, live_server, long_game, scheme
):
    """The turned board shows its latest deal whole between the names and the totals, and a
    deal swiped part way under either shows no sliver of a figure beside them (a stray ":")."""
    page = open_phone(browser, live_server, scheme)
    log_in(page, long_game.club.owner, live_server.url)
    page.goto(f"/games/{long_game.pk}/")
    add_style(page, BIG_TEXT)
    wrap = page.locator("#game-board .table-wrap")
    page.locator("#deal-14").scroll_into_view_if_needed()
    background = page.evaluate(
        "() => getComputedStyle(document.body).backgroundColor.match(/\\d+/g).join(',')"
    )
    for swiped in (0, 25, 60, 100, 140):
        wrap.evaluate("(box, by) => { box.scrollLeft = -by; }", swiped)
        for strip in page.evaluate(BESIDE_THE_STUCK_COLUMNS):
            png = base64.b64encode(page.screenshot(clip=strip)).decode()
            colours = page.evaluate(COLOURS, png)
            assert colours == [background], f"swiped {swiped}px: {strip} shows {colours}"
    wrap.evaluate("box => { box.scrollLeft = 0; }")
    expect(page.locator("#deal-14")).to_be_in_viewport(ratio=1)
    snap(page, f"text-200-board-edges-{scheme}")
    page.context.close()


def test_the_home_page_tells_games_apart_and_offers_a_new_game(phone, live_server):
    ann = make_user("ann")
    club = make_club(ann, name="Friday table")
    first = make_game(club)
    record(first, 0, 1, 1, 1)
    services.start_season(club=club, name="Winter", starts_on=datetime.date.today(), by=club.owner)
    record(make_game(club), 1, 0, 1, 1)
    page = phone
    log_in(page, ann, live_server.url)
    page.goto("/")
    cards = page.locator("#continue-title + .game-list .game-link")
    expect(cards).to_have_count(2)
    details = cards.locator(".muted").all_inner_texts()
    assert len(set(details)) == 2, details
    assert any("Winter" in detail for detail in details)
    assert all("started" in detail for detail in details)
    new_game = page.get_by_role("link", name="New game at Friday table")
    expect(new_game).to_be_in_viewport()
    snap(page, "home-continue-and-new-game")
    new_game.click()
    arrive(page, f"/clubs/{club.pk}/games/new/")
