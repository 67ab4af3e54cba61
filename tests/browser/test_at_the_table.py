"""At the table, on a 390x844 phone: a deal typed on a second phone for a number already recorded
is offered back to choose (with JavaScript and without); the phone's Enter key goes box by box
and records the deal from the last; "Send to BG Stats" comes with the board that ends the game;
and with text at 200% the turned board's fixed totals column hides the deals swiped under it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring import services
from tests.browser.a11y import SCHEMES, assert_accessible, small_targets
from tests.browser.phone import (
    PHONE,
    SCREENSHOTS,
    add_style,
    log_in,
    open_phone,
    requests_reported,
    screenshot,
)
from tests.browser.scorekeeping import (
    DEALS,
    PENDING_KEYS,
    fill,
    game_with_deal_1,
    log_in_to_game,
    recorded,
    requests_to,
    swap,
)
from tests.factories import (
    make_club,
    make_deals,
    make_game,
    make_member,
    make_ruled_game,
    make_user,
    record,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MINE = {"Ann": "0", "Ben": "6", "Cy": "8", "Dee": "10"}
BENS = [4, 0, 1, 2]


@pytest.fixture
def game():
    """Deal 1 in; the club's scorekeeper is ann, and ben plays at the table too."""
    return game_with_deal_1("ben", 0, 1, 2, 3)


def bens_deal_2_first(game) -> None:
    """Ben's phone records deal 2 while the scorekeeper is still typing it."""
    record(game, *BENS, by=game.club.owner)


# Two phones, one deal number


def test_a_deal_number_taken_meanwhile_is_offered_back_and_put_in_as_the_next(phone, game):
    page = phone
    log_in_to_game(page, game)
    expect(page.locator(".deal-no")).to_have_text("Deal 2")
    fill(page, MINE)
    bens_deal_2_first(game)

    swap(page, lambda: page.get_by_role("button", name="Record deal").click())

    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("Deal 2 was already recorded on another phone")
    clash = page.locator("#deal-clash")
    expect(clash).to_contain_text("Recorded: Ann 4, Ben 0, Cy 1, Dee 2")
    expect(clash).to_contain_text("Yours: Ann 0, Ben 6, Cy 8, Dee 10")
    for label in ("Keep the one recorded", "Replace deal 2 with mine", "Add mine as a new deal 3"):
        expect(page.get_by_role("button", name=label, exact=True)).to_be_visible()
    assert recorded(game) == [[0, 1, 2, 3], BENS]
    clash.scroll_into_view_if_needed()
    screenshot(page, "deal-clash")

    swap(page, lambda: page.get_by_role("button", name="Add mine as a new deal 3").click())

    expect(page.get_by_role("status").filter(has_text="Deal 3 recorded.")).to_be_visible()
    expect(page.locator(".deal-no")).to_have_text("Deal 4")
    assert recorded(game) == [[0, 1, 2, 3], BENS, [0, 6, 8, 10]]


def test_the_filled_choice_changes_nothing_recorded_and_the_choice_outlives_a_reload(phone, game):
    """ "Yours isn't lost": a reload before choosing offers the same choice again (the phone sends
    the deal again, which the server offers back), until one is made."""
    page = phone
    log_in_to_game(page, game)
    fill(page, MINE)
    bens_deal_2_first(game)
    swap(page, lambda: page.get_by_role("button", name="Record deal").click())
    clash = page.locator("#deal-clash")
    expect(clash.locator(".primary")).to_have_text("Keep the one recorded")

    page.reload()

    expect(clash).to_contain_text("Yours: Ann 0, Ben 6, Cy 8, Dee 10")
    expect(clash.locator(".primary")).to_have_text("Keep the one recorded")
    assert recorded(game) == [[0, 1, 2, 3], BENS]
    swap(page, lambda: page.get_by_role("button", name="Keep the one recorded").click())
    expect(page.locator(".deal-no")).to_have_text("Deal 3")
    assert page.evaluate(PENDING_KEYS) == []
    sent = requests_to(page, DEALS)
    page.reload()
    expect(page.locator(".deal-no")).to_have_text("Deal 3")
    requests_reported(page)
    assert sent == [] and recorded(game) == [[0, 1, 2, 3], BENS]


def test_without_javascript_the_scorekeeper_replaces_the_deal_with_theirs(phone_without_js, game):
    page = phone_without_js
    log_in_to_game(page, game)
    fill(page, MINE)
    bens_deal_2_first(game)
    page.get_by_role("button", name="Record deal").click()
    expect(page.get_by_role("alert")).to_contain_text("Deal 2 was already recorded")

    page.get_by_role("button", name="Replace deal 2 with mine").click()

    expect(page.get_by_text("Deal 2 replaced with yours.")).to_be_visible()
    expect(page.locator(".deal-no")).to_have_text("Deal 3")
    assert recorded(game) == [[0, 1, 2, 3], [0, 6, 8, 10]]


def test_keep_the_one_recorded_lets_mine_go_and_says_so(phone, game):
    page = phone
    log_in_to_game(page, game)
    fill(page, MINE)
    bens_deal_2_first(game)
    swap(page, lambda: page.get_by_role("button", name="Record deal").click())

    swap(page, lambda: page.get_by_role("button", name="Keep the one recorded").click())

    expect(page.get_by_role("status")).to_contain_text(
        "Deal 2 stays as it was recorded; yours was let go."
    )
    expect(page.get_by_label("Ben", exact=True)).to_have_value("")
    assert recorded(game) == [[0, 1, 2, 3], BENS]


@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_offer_passes_axe_with_44_px_targets(browser, live_server, game, scheme):
    page = open_phone(browser, live_server, scheme)
    log_in(page, game.club.owner, live_server.url)
    page.goto(f"/games/{game.pk}/")
    fill(page, MINE)
    bens_deal_2_first(game)
    swap(page, lambda: page.get_by_role("button", name="Record deal").click())
    expect(page.locator("#deal-clash")).to_be_visible()

    assert_accessible(page, f"deal clash ({scheme})")
    assert small_targets(page) == []
    page.context.close()


# The phone's Enter key


def test_enter_goes_box_by_box_and_records_the_deal_from_the_last(phone, game):
    page = phone
    log_in_to_game(page, game)
    hints = page.locator(".deal-rows input[type=number]").evaluate_all(
        "boxes => boxes.map((box) => box.getAttribute('enterkeyhint'))"
    )
    assert hints == ["next", "next", "next", "next"]  # from Dee's, on round to Ann's

    page.get_by_label("Ann", exact=True).click()
    for name, count in (("Ann", "3"), ("Ben", "0"), ("Cy", "5")):
        page.keyboard.type(count)
        page.keyboard.press("Enter")
        assert recorded(game) == [[0, 1, 2, 3]], f"Enter in {name}'s box sent the deal"
    expect(page.get_by_label("Dee", exact=True)).to_be_focused()
    expect(page.get_by_label("Dee", exact=True)).to_have_attribute("enterkeyhint", "done")
    page.keyboard.type("7")
    screenshot(page, "enter-next-done")

    swap(page, lambda: page.keyboard.press("Enter"))

    expect(page.get_by_role("status").filter(has_text="Deal 2 recorded.")).to_be_visible()
    assert recorded(game) == [[0, 1, 2, 3], [3, 0, 5, 7]]


def test_done_with_a_box_left_empty_goes_round_to_it_instead_of_sending(phone, game):
    """Ben went out: Next goes on from Cy to Dee, and Dee's Done goes round to Ann's box, still
    empty, where the keyboard says Done only once every other box is filled."""
    page = phone
    log_in_to_game(page, game)
    sent = requests_to(page, DEALS)
    page.get_by_role("button", name="Ben went out").click()
    expect(page.get_by_label("Cy", exact=True)).to_be_focused()
    page.keyboard.type("5")
    page.keyboard.press("Enter")
    dee = page.get_by_label("Dee", exact=True)
    expect(dee).to_be_focused()
    expect(dee).to_have_attribute("enterkeyhint", "next")  # Ann's box is still empty
    page.keyboard.type("7")
    page.keyboard.press("Enter")

    expect(page.get_by_label("Ann", exact=True)).to_be_focused()
    expect(page.get_by_label("Ann", exact=True)).to_have_attribute("enterkeyhint", "done")
    requests_reported(page)
    assert sent == [] and recorded(game) == [[0, 1, 2, 3]]
    page.keyboard.type("3")
    swap(page, lambda: page.keyboard.press("Enter"))

    expect(page.get_by_role("status").filter(has_text="Deal 2 recorded.")).to_be_visible()
    assert recorded(game) == [[0, 1, 2, 3], [3, 0, 5, 7]]


def test_after_a_deal_is_recorded_the_cursor_is_in_the_first_box_of_the_next(phone, game):
    """Not in the last, where htmx would put it back: "0 ⏎" there would send a deal of one box."""
    page = phone
    log_in_to_game(page, game)
    page.get_by_label("Ann", exact=True).click()
    for count in ("3", "0", "5"):
        page.keyboard.type(count)
        page.keyboard.press("Enter")
    page.keyboard.type("7")
    swap(page, lambda: page.keyboard.press("Enter"))
    expect(page.locator(".deal-no")).to_have_text("Deal 3")

    expect(page.get_by_label("Ann", exact=True)).to_be_focused()
    page.keyboard.type("0")
    page.keyboard.press("Enter")
    expect(page.get_by_label("Ben", exact=True)).to_be_focused()
    assert recorded(game) == [[0, 1, 2, 3], [3, 0, 5, 7]]


def test_under_the_twos_rule_the_last_player_out_makes_their_cards_box_the_last(phone):
    """Their twos box goes as their 0 is typed: Enter on their cards box records the deal."""
    game = make_ruled_game("twos-double-each", club=make_club(make_user("ann")))
    page = phone
    log_in_to_game(page, game)
    dee = page.get_by_label("Dee", exact=True)
    fill(page, {"Ann": "3", "Ben": "5", "Cy": "7", "Dee": "9"})
    expect(dee).to_have_attribute("enterkeyhint", "next")  # on to her twos
    expect(page.get_by_label("Twos in Dee's hand")).to_have_attribute("enterkeyhint", "done")
    dee.fill("0")
    expect(page.get_by_label("Twos in Dee's hand")).to_be_hidden()
    expect(dee).to_have_attribute("enterkeyhint", "done")

    swap(page, lambda: dee.press("Enter"))

    expect(page.get_by_role("status").filter(has_text="Deal 1 recorded.")).to_be_visible()
    assert recorded(game) == [[3, 5, 7, 0]]


# "Send to BG Stats"


def test_send_to_bg_stats_comes_with_the_board_that_ends_the_game(phone, browser, live_server):
    """On the scorekeeper's phone with the deal's answer, on another's with its board's."""
    club = make_club(make_user("ann"))
    game = make_game(club)
    for _ in range(2):
        record(game, 0, 13, 13, 13)
    follower = browser.new_context(viewport=PHONE, base_url=live_server.url, is_mobile=True)
    other = follower.new_page()
    log_in(other, make_member(club, "kim"), live_server.url)
    other.goto(f"/games/{game.pk}/")
    page = phone
    log_in_to_game(page, game)
    send = "Send to BG Stats"
    expect(page.get_by_role("link", name=send)).to_have_count(0)

    fill(page, {"Ann": "0", "Ben": "13", "Cy": "13", "Dee": "13"})
    swap(page, lambda: page.get_by_role("button", name="Record deal").click())

    expect(page.locator(".banner-finished h2")).to_contain_text("Ann wins")
    expect(page.get_by_role("link", name=send)).to_be_visible()
    page.get_by_role("link", name=send).scroll_into_view_if_needed()
    screenshot(page, "bg-stats-with-the-result")
    expect(other.get_by_role("link", name=send)).to_be_visible()
    follower.close()


# Text at 200%: the turned board's fixed column

BIG_TEXT = "html { font-size: 200% !important; }"

# Each point of the fixed totals column, every few pixels: what is painted there, if not the
# column itself (a deal swiped under it showing through).
SHOWS_THROUGH = """() => {
  const cells = [...document.querySelectorAll('#game-board .scores tfoot :is(th, td)')];
  const through = [];
  for (const cell of cells) {
    const box = cell.getBoundingClientRect();
    for (let x = box.left + 1; x < box.right - 1; x += 3) {
      for (let y = box.top + 1; y < box.bottom - 1; y += 3) {
        const hit = document.elementFromPoint(x, y);
        if (hit && !hit.closest('tfoot')) {
          through.push(`${cell.textContent.trim()}: ${hit.tagName} at ${Math.round(x - box.left)},`
            + `${Math.round(y - box.top)}`);
          break;
        }
      }
    }
  }
  return through;
}"""


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("where", ["game page", "live view"])
def test_the_turned_board_s_totals_column_hides_the_deals_swiped_under_it(
    browser, live_server, scheme, where
):
    game = make_game(make_club(make_user("ann")))
    make_deals(game, 14)  # Ann and Ben tied lowest: their totals are marked
    page = open_phone(browser, live_server, scheme)  # lets the large text's style past the CSP
    log_in(page, game.club.owner, live_server.url)
    token = services.share_game(game=game, by=game.club.owner)
    page.goto(f"/games/{game.pk}/" if where == "game page" else f"/live/{token}/")
    add_style(page, BIG_TEXT)
    wrap = page.locator("#game-board .table-wrap")
    turned = wrap.evaluate("box => getComputedStyle(box).direction") == "rtl"
    assert turned, "the board isn't turned a quarter at this size"
    page.locator("#deal-1").scroll_into_view_if_needed()

    for swiped in (40, 150, 400):  # part way: deals pass under the totals
        wrap.evaluate("(box, by) => { box.scrollLeft = -by; }", swiped)
        assert page.evaluate(SHOWS_THROUGH) == [], f"swiped {swiped}px"
    shot = SCREENSHOTS / f"text-200-totals-column-{where.replace(' ', '-')}-{scheme}.png"
    page.screenshot(path=str(shot))
    page.context.close()
