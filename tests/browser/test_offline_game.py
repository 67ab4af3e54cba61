"""A whole game without a signal (issue 15): in Chromium at 390x844, deal after deal recorded
offline is scored on the phone from the rule set's scoring sheet, shown as not yet sent,
kept through a reload, and sent in order, once each, when the signal returns; a deal another
phone recorded meanwhile is shown beside the waiting one for the scorekeeper to choose."""

import re
import uuid

import pytest
from playwright.sync_api import expect

from scoring.models import Deal, Game
from tests.browser.a11y import assert_accessible
from tests.browser.phone import arrive, requests_reported, screenshot
from tests.browser.scorekeeping import (
    KEEP_THE_OLD_WAY,
    PREVIEWS,
    fill,
    log_in_to_game,
    recorded,
    requests_to,
)
from tests.factories import PASSWORD, make_club, make_game, make_ruled_game, make_user, record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Ben takes 39 twice, then 20 in deal 5: 100, the target; Ann is lowest alone on 5 and wins.
FIVE_DEALS = [[0, 13, 2, 3], [1, 13, 0, 4], [0, 2, 3, 5], [4, 0, 1, 2], [0, 10, 1, 1]]
NAMES = ("Ann", "Ben", "Cy", "Dee")
WAITING = re.compile(r"(\d+) deals? waiting to send")
# What the form says of FIVE_DEALS, worked by hand (1 to 9 cards cost 1 a card, 10 to 12 cost 2
# a card, 13 cost 39; the winner of a deal deals the next, and under the standard rules
# whoever holds 3♦ leads): before each deal, each player's total; once it is typed, each
# penalty and the total it makes; after it, who deals.
HAND_WORKED = [
    (  # deal 1: 0 | 13 → 39 | 2 | 3
        ["on 0", "on 0", "on 0", "on 0"],
        ["went out: 0", "+39 → 39", "+2 → 2", "+3 → 3"],
        "Next: Ann deals; whoever holds 3♦ leads",
    ),
    (  # deal 2: 0 + 1 = 1 | 39 + 39 = 78 | Cy out, 2 | 3 + 4 = 7
        ["on 0", "on 39", "on 2", "on 3"],
        ["+1 → 1", "+39 → 78", "went out: 0", "+4 → 7"],
        "Next: Cy deals; whoever holds 3♦ leads",
    ),
    (  # deal 3: Ann out, 1 | 78 + 2 = 80 | 2 + 3 = 5 | 7 + 5 = 12
        ["on 1", "on 78", "on 2", "on 7"],
        ["went out: 0", "+2 → 80", "+3 → 5", "+5 → 12"],
        "Next: Ann deals; whoever holds 3♦ leads",
    ),
    (  # deal 4: 1 + 4 = 5 | Ben out, 80 | 5 + 1 = 6 | 12 + 2 = 14
        ["on 1", "on 80", "on 5", "on 12"],
        ["+4 → 5", "went out: 0", "+1 → 6", "+2 → 14"],
        "Next: Ben deals; whoever holds 3♦ leads",
    ),
    (  # deal 5: Ann out, 5 | 10 cards at 2 = 20, 80 + 20 = 100 | 6 + 1 = 7 | 14 + 1 = 15
        ["on 5", "on 80", "on 6", "on 14"],
        ["went out: 0", "+20 → 100", "+1 → 7", "+1 → 15"],
        None,  # Ben reached 100: the game is over on the phone, and nobody deals next
    ),
]


def status(page):
    return page.locator("#live-notice")


def record_deal(page, cards: list[int]) -> None:
    fill(page, dict(zip(NAMES, map(str, cards), strict=True)))
    page.get_by_role("button", name="Record deal").click()


def waiting_totals(page) -> list[str]:
    return page.locator("tfoot tr.waiting td").all_inner_texts()


def open_offline(page, game) -> None:
    """Open the game page, let the service worker take it over, then lose the signal. The page
    comes again through the worker, which notes whom it is for: a copy of it is shown offline
    to that account only (templates/pwa/sw.js). What the page asks for as it opens (its
    stream, the old page's too) is answered before the signal goes: a request cut on its way
    is an error on the console."""
    log_in_to_game(page, game)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload(wait_until="networkidle")
    page.context.set_offline(True)


@pytest.fixture
def game():
    return make_game(make_club(make_user("ann")))


def figures(page):
    """Each player's "on 21", or "+6 → 27" once a count is typed, in the deal form."""
    return page.locator("#deal-form .preview")


def next_deal(page):
    return page.locator(".next-deal:visible")


def test_a_whole_game_offline_is_kept_through_a_reload_and_sent_once_in_order(phone, game):
    """The form follows the deals waiting to send: each player's total, the penalty as a count
    is typed and who deals next are the phone's own, as worked out by hand."""
    page = phone
    open_offline(page, game)
    expect(next_deal(page)).to_have_text("Next: Whoever holds 3♦ leads")
    deals = zip(FIVE_DEALS, HAND_WORKED, strict=True)
    for number, (cards, (before, typed, dealer)) in enumerate(deals, start=1):
        expect(page.locator(".deal-no")).to_have_text(f"Deal {number}")
        expect(figures(page)).to_have_text(before)
        fill(page, dict(zip(NAMES, map(str, cards), strict=True)))
        expect(figures(page)).to_have_text(typed)
        page.get_by_role("button", name="Record deal").click()
        expect(status(page)).to_contain_text(
            f"{number} deal{'s' if number > 1 else ''} waiting to send"
        )
        if dealer:
            expect(next_deal(page)).to_have_text(dealer)
    expect(next_deal(page)).to_have_count(0)
    expect(rows_with(page, "button", "^Change waiting deal")).to_have_count(5)
    assert waiting_totals(page) == ["5", "100", "7", "15"]
    expect(page.get_by_role("heading", name="Ann wins with 5")).to_be_visible()
    expect(page.locator("#deal-form")).to_be_hidden()  # the game is over on the phone
    assert recorded(game) == []
    screenshot(page, "offline-game-over")

    page.reload()  # still offline: the service worker has the page, the phone its deals
    expect(status(page)).to_contain_text("5 deals waiting to send")
    expect(page.get_by_role("heading", name="Ann wins with 5")).to_be_visible()
    assert waiting_totals(page) == ["5", "100", "7", "15"]

    page.context.set_offline(False)
    expect(page.locator("tr.waiting")).to_have_count(0, timeout=15_000)
    expect(page.locator(".banner-finished h2")).to_have_text("Ann wins with 5")
    assert recorded(game) == FIVE_DEALS
    game = Game.objects.get(pk=game.pk)
    assert game.is_finished
    totals = [seat.total for seat in game.seats.order_by("position")]
    assert totals == [5, 100, 7, 15]
    kept = "Object.keys(localStorage).filter(key => key.startsWith('bigtwo:waiting:'))"
    assert page.evaluate(kept) == []  # nothing kept once it is sent


def test_a_waiting_deal_is_undone_and_changed_offline(phone, game):
    page = phone
    record(game, 0, 1, 2, 3)
    open_offline(page, game)
    record_deal(page, [0, 5, 6, 7])
    record_deal(page, [3, 0, 1, 2])
    expect(status(page)).to_contain_text("2 deals waiting to send")

    page.get_by_role("button", name="Undo deal 3").click()
    expect(status(page)).to_contain_text("1 deal waiting to send")
    expect(page.locator(".deal-no")).to_have_text("Deal 3")
    expect(page.get_by_label("Ann", exact=True)).to_have_value("3")  # back in the form
    # On deal 2's totals, 0, 1 + 5 = 6, 2 + 6 = 8, 3 + 7 = 10.
    expect(figures(page)).to_have_text(["+3 → 3", "went out: 0", "+1 → 9", "+2 → 12"])

    page.get_by_role("button", name="Change waiting deal 2").click()
    expect(page.get_by_label("Ben", exact=True)).to_have_value("5")
    fill(page, {"Ben": "4"})
    # On deal 1's totals, 0, 1, 2, 3, as deal 2 is changed.
    expect(figures(page)).to_have_text(["went out: 0", "+4 → 5", "+6 → 8", "+7 → 10"])
    page.get_by_role("button", name="Record deal").click()
    expect(status(page)).to_contain_text("1 deal waiting to send")
    assert waiting_totals(page) == ["0", "5", "8", "10"]

    page.context.set_offline(False)
    expect(page.locator("tr.waiting")).to_have_count(0, timeout=15_000)
    assert recorded(game) == [[0, 1, 2, 3], [0, 4, 6, 7]]


def rows_with(page, role: str, name: str):
    return page.get_by_role("row").filter(has=page.get_by_role(role, name=re.compile(name)))


def heights(rows) -> list[float]:
    return rows.evaluate_all("rows => rows.map(row => row.getBoundingClientRect().height)")


def test_deals_waiting_to_send_show_as_sent_ones_do_and_the_form_goes_on_from_them(
    a11y_phone, game
):
    """Two deals sent, two waiting: the waiting rows keep to a sent row's height, say each
    player's cards left as sent rows do, and are named not yet sent; the form's totals, its
    penalty as a count is typed and who deals next go on from them (issue 29, items 1 and 8).
    """
    page = a11y_phone
    record(game, 0, 5, 6, 7)
    record(game, 3, 0, 1, 2)  # on the server: 3, 5, 7, 9
    open_offline(page, game)
    record_deal(page, [1, 2, 0, 4])  # 3 + 1 = 4, 5 + 2 = 7, 7, 9 + 4 = 13
    record_deal(page, [0, 9, 3, 1])  # 4, 7 + 9 = 16, 7 + 3 = 10, 13 + 1 = 14
    expect(status(page)).to_contain_text("2 deals waiting to send")
    assert waiting_totals(page) == ["4", "16", "10", "14"]

    sent = rows_with(page, "link", "^Edit deal")
    waiting = rows_with(page, "button", "^Change waiting deal")
    expect(waiting).to_have_count(2)
    assert max(heights(waiting)) <= max(heights(sent)) * 1.1, (heights(waiting), heights(sent))
    assert waiting.nth(0).locator("td .meta").all_inner_texts() == [
        "1 left",
        "2 left",
        "went out",
        "4 left",
    ]
    expect(waiting.nth(1).get_by_role("rowheader")).to_contain_text("not yet sent")
    expect(page.get_by_role("cell", name="not yet sent", exact=True)).to_be_visible()
    edit = waiting.nth(1).get_by_role("button").bounding_box()
    assert edit["width"] >= 44 and edit["height"] >= 44

    expect(figures(page)).to_have_text(["on 4", "on 16", "on 10", "on 14"])
    expect(next_deal(page)).to_have_text("Next: Ann deals; whoever holds 3♦ leads")
    fill(page, {"Ann": "6"})
    expect(figures(page)).to_have_text(["+6 → 10", "on 16", "on 10", "on 14"])
    screenshot(page, f"offline-waiting-rows-{page.color_scheme}")
    assert_accessible(page, f"game, two deals waiting to send ({page.color_scheme})")


def test_the_conflict_notice_and_the_form_go_on_from_the_waiting_deals(phone, game):
    """Another phone took deal 2 while two deals waited, and the board has taken it since: mine
    is shown on the totals the server's deal 2 started from, and the form (online, where the
    server's preview would leave the waiting deals out) on the waiting deals' totals."""
    page = phone
    page.clock.install()
    record(game, 0, 1, 2, 3)
    open_offline(page, game)
    record_deal(page, [0, 5, 6, 7])
    record_deal(page, [3, 0, 1, 2])
    record(game, 9, 0, 1, 2)  # the other phone's deal 2
    page.context.set_offline(False)
    expect(status(page)).to_contain_text("Deal 2 was recorded on another phone")
    # The board follows the game: as the server's word that it changed would have it.
    page.locator("#board-follow").evaluate("follow => htmx.trigger(follow, 'changed')")
    expect(page.locator("#score-totals td").first).to_have_text("9")  # Ann's, with deal 2
    yours = page.locator("#live-notice tbody tr").nth(1)
    # Deal 1 left 0, 1, 2, 3; mine adds 0, 5, 6, 7.
    expect(yours.locator(".run")).to_have_text(["= 0", "= 6", "= 8", "= 10"])
    # The server's 9, 1, 3, 5, then the waiting 0, 5, 6, 7 and 3, 0, 1, 2: 12, 6, 10, 14.
    expect(page.locator("tfoot tr.waiting td")).to_have_text(["12", "6", "10", "14"])
    expect(figures(page)).to_have_text(["on 12", "on 6", "on 10", "on 14"])
    previews = requests_to(page, PREVIEWS, "GET")
    fill(page, {"Ann": "6"})
    expect(figures(page)).to_have_text(["+6 → 18", "on 6", "on 10", "on 14"])
    page.clock.run_for(300)  # the server's preview would be asked for 200 ms after typing
    requests_reported(page)
    assert previews == []  # which would leave the waiting deals out
    expect(figures(page)).to_have_text(["+6 → 18", "on 6", "on 10", "on 14"])
    expect(page.get_by_role("link", name="Edit deal 2")).to_be_visible()  # the server's, sent
    screenshot(page, "offline-conflict-on-waiting-totals")


def test_who_leads_next_and_the_twos_follow_the_waiting_deals(phone):
    """Under the loser-leads and stronger twos rules: the loser of the last waiting deal leads
    (of players tied on cards, the first after the winner), and the twos double the penalty
    as the form shows it and are named on the waiting row as on a sent one."""
    game = make_ruled_game("loser-leads,twos-double-each", club=make_club(make_user("ann")))
    page = phone
    open_offline(page, game)
    fill(page, {"Ann": "0", "Ben": "5", "Cy": "5", "Dee": "3"})
    page.get_by_label("Twos in Ben's hand").fill("2")
    page.get_by_label("Went out on twos?").check()
    # Doubled for going out on twos, Ben's twice more for his two twos: 5 × 2 × 2 × 2 = 40,
    # Cy 5 × 2 = 10, Dee 3 × 2 = 6.
    expect(figures(page)).to_have_text(["went out: 0", "+40 → 40", "+10 → 10", "+6 → 6"])
    page.get_by_role("button", name="Record deal").click()
    expect(status(page)).to_contain_text("1 deal waiting to send")
    row = rows_with(page, "button", "^Change waiting deal 1")
    assert row.locator("td .meta").all_inner_texts() == [
        "went out on twos",
        "5 left, 2 twos",
        "5 left",
        "3 left",
    ]
    # Ben and Cy kept 5 each: Ben is the first after Ann, who went out.
    expect(next_deal(page)).to_have_text("Next: Ann deals; Ben leads")
    fill(page, {"Ann": "5", "Ben": "1", "Cy": "0", "Dee": "5"})
    expect(figures(page)).to_have_text(["+5 → 5", "+1 → 41", "went out: 0", "+5 → 11"])
    page.get_by_role("button", name="Record deal").click()
    # Ann and Dee kept 5 each: after Cy, Dee comes before Ann.
    expect(next_deal(page)).to_have_text("Next: Cy deals; Dee leads")


def test_a_deal_the_phone_cannot_score_is_not_kept(phone, game):
    page = phone
    open_offline(page, game)
    record_deal(page, [0, 0, 2, 3])
    expect(page.get_by_role("alert")).to_contain_text("Deal 1 can't be kept")
    expect(page.locator("tr.waiting")).to_have_count(0)


def conflict(page, game) -> None:
    """Offline, this phone records deal 2 as Ann 0, Ben 5, Cy 6, Dee 7, while another phone
    records deal 2 online as Ann 9, Ben 0, Cy 1, Dee 2; the signal returns."""
    record(game, 0, 1, 2, 3)
    open_offline(page, game)
    record_deal(page, [0, 5, 6, 7])
    expect(status(page)).to_contain_text("1 deal waiting to send")
    record(game, 9, 0, 1, 2)  # the other phone
    page.context.set_offline(False)
    expect(status(page)).to_contain_text("Deal 2 was recorded on another phone")
    both = page.locator("#live-notice table")
    expect(both.locator("tbody tr").nth(0)).to_contain_text("On the server")
    expect(both.locator("tbody tr").nth(1)).to_contain_text("Yours")
    expect(both.locator("tbody tr").nth(1)).to_contain_text("+5")


def test_the_server_s_deal_is_kept(phone, game):
    conflict(phone, game)
    screenshot(phone, "offline-conflict")
    phone.get_by_role("button", name="Keep the server's deal 2").click()
    expect(phone.locator("#live-notice table")).to_have_count(0)
    expect(phone.locator(".deal-no")).to_have_text("Deal 3")
    assert recorded(game) == [[0, 1, 2, 3], [9, 0, 1, 2]]


def test_mine_goes_in_as_the_next_deal(phone, game):
    conflict(phone, game)
    phone.get_by_role("button", name="Add mine as a new deal 3").click()
    expect(phone.locator("#game-board tbody tr:not(.waiting)")).to_have_count(3, timeout=15_000)
    expect(phone.locator(".deal-no")).to_have_text("Deal 4")
    assert recorded(game) == [[0, 1, 2, 3], [9, 0, 1, 2], [0, 5, 6, 7]]


def test_mine_is_dropped(phone, game):
    conflict(phone, game)
    phone.get_by_role("button", name="Drop mine").click()
    expect(phone.locator("#live-notice table")).to_have_count(0)
    expect(phone.locator(".deal-no")).to_have_text("Deal 3")
    assert recorded(game) == [[0, 1, 2, 3], [9, 0, 1, 2]]


def test_house_rules_the_phone_cannot_score_keep_one_deal_and_say_why(phone):
    game = make_ruled_game("dragon", club=make_club(make_user("ann")))
    page = phone
    open_offline(page, game)
    record_deal(page, [0, 5, 6, 7])
    expect(status(page)).to_contain_text("keeps one deal at a time")
    expect(page.locator("tr.waiting")).to_have_count(0)


@pytest.mark.console_errors(
    r"status of 403 \(Forbidden\) \(http://[^)]+/board/",
    r"^console error: Response Status Error Code 403 from /games/\d+/board/",
    reason="the session ends under the page: the board's polls are refused until the log-in",
)
def test_a_phone_signed_out_meanwhile_says_so_and_sends_once_logged_in_again(phone, game):
    """The session ended while the deals waited: the phone says why they don't go and how to
    send them, and they go after logging in again, back on the game page."""
    page = phone
    page.clock.install()
    open_offline(page, game)
    record_deal(page, FIVE_DEALS[0])
    record_deal(page, FIVE_DEALS[1])
    expect(status(page)).to_contain_text("2 deals waiting to send")
    page.context.clear_cookies(name="sessionid")  # signed out: on another phone, or it expired
    page.context.set_offline(False)
    expect(status(page)).to_contain_text("You're signed out", timeout=15_000)
    expect(status(page)).to_contain_text("2 deals waiting to send")  # still kept
    screenshot(page, "offline-signed-out")
    assert recorded(game) == []
    log_in = page.get_by_role("link", name="Log in to send them")
    assert log_in.get_attribute("href") == f"/accounts/login/?next=/games/{game.pk}/"
    # The board's polls (refused) and another round of sending meanwhile leave the page be.
    with page.expect_response(lambda answer: "/board/" in answer.url and answer.status == 403):
        page.clock.run_for(5000)
    expect(status(page)).to_contain_text("You're signed out")
    log_in.click()
    page.get_by_label("Username").fill("ann")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    arrive(page, f"/games/{game.pk}/")  # not the log-in page, which has no waiting rows either
    expect(page.locator("tr.waiting")).to_have_count(0, timeout=15_000)
    assert recorded(game) == FIVE_DEALS[:2]


KEPT_PAGE = """async (path) => {
    const kept = await caches.match(path, { cacheName: "game-pages" });
    return kept ? kept.text() : "";
}"""


def change_deal_1(page) -> None:
    """Deal 1 changed on its own page: the game page comes back saying so, once."""
    page.get_by_role("link", name="Edit deal 1").click()
    page.get_by_label("Dee", exact=True).fill("4")
    page.get_by_role("button", name="Save changes").click()
    expect(page.get_by_role("status").filter(has_text="Deal 1 changed.")).to_be_visible()


def test_the_game_page_kept_from_the_network_drops_its_one_time_messages(phone, game):
    """The service worker keeps the game page each time it comes (templates/pwa/sw.js); opened
    again offline, it shows the game, not "Deal 1 changed." again."""
    page = phone
    record(game, 0, 1, 2, 3)
    open_offline(page, game)
    page.context.set_offline(False)
    change_deal_1(page)
    # The copy kept is the page as the change left it (Dee on 4), whatever it says besides.
    path = f"/games/{game.pk}/"
    page.wait_for_function(f"({KEPT_PAGE})({path!r}).then((page) => page.includes('>4<'))")
    page.context.set_offline(True)
    page.reload()
    expect(page.locator(".scores tfoot")).to_contain_text("4")
    expect(page.get_by_text("Deal 1 changed.")).to_have_count(0)


def test_the_game_page_kept_as_it_shows_drops_its_one_time_messages(phone, game):
    """The page keeps itself as it shows once a deal waits offline (static/js/waiting-deals.js),
    and the worker shows that copy without what was said once ("Deal 1 changed.")."""
    page = phone
    record(game, 0, 1, 2, 3)
    open_offline(page, game)
    page.context.set_offline(False)
    change_deal_1(page)
    page.context.set_offline(True)
    record_deal(page, FIVE_DEALS[1])
    expect(status(page)).to_contain_text("1 deal waiting to send")
    page.reload()
    expect(status(page)).to_contain_text("1 deal waiting to send")
    expect(page.get_by_text("Deal 1 changed.")).to_have_count(0)
    screenshot(page, "offline-copy-said-once-left-out")


def test_a_deal_kept_the_old_way_goes_into_the_queue_once_when_the_site_updates(phone, game):
    """The deal the script before the one queue kept alone (the page closed while it was sent)
    is read into the queue once, offline shown as waiting with the next deal in the form, and
    sent with its token once the signal is back."""
    page = phone
    open_offline(page, game)
    token = str(uuid.uuid4())
    deal = {f"cards_{seat}": str(count) for seat, count in enumerate(FIVE_DEALS[0])}
    page.evaluate(KEEP_THE_OLD_WAY, [game.pk, deal | {"number": "1", "token": token}])
    page.reload()
    expect(status(page)).to_contain_text("1 deal waiting to send")
    expect(page.locator(".deal-no")).to_have_text("Deal 2")
    old_key = f"bigtwo:pending-deal:{game.pk}:{token}"
    assert old_key not in page.evaluate("Object.keys(localStorage)")  # read once, then gone
    page.context.set_offline(False)
    expect(page.locator("tr.waiting")).to_have_count(0, timeout=15_000)
    assert recorded(game) == FIVE_DEALS[:1]
    assert str(Deal.objects.get(game=game, number=1).token) == token
    assert [key for key in page.evaluate("Object.keys(localStorage)") if "bigtwo:" in key] == []
