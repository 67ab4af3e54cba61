"""A typed value is never lost or changed behind the scorekeeper's back: in Chromium at 390x844,
a deal waiting to be sent can't be changed by the next deal's typing, "Went out" works on the
phone without asking the server, and the server's word on a resend is shown.

The page's resend every 4 s is moved on by Playwright's clock (`page.clock.run_for`), not waited
for, and what the page sent is read once every request it started has been reported.

This is the one waiting deal of house rules the phone can't score (here paying for the table;
scoring/presenters/offline.py): where it can, deals wait in a queue instead
(tests/browser/test_offline_game.py)."""

import datetime
import re
import uuid

import pytest
from playwright.sync_api import expect

from rules.ruleset import parse_rules
from scoring import services
from scoring.models import Deal
from tests.browser.phone import requests_reported, screenshot, wait_until
from tests.browser.scorekeeping import (
    DEALS,
    KEEP_THE_OLD_WAY,
    NETWORK_CUT,
    OFFLINE,
    PENDING_KEYS,
    PREVIEWS,
    fill,
    log_in_to_game,
    recorded,
    requests_to,
)
from tests.factories import make_club, make_game, make_ruled_game, make_user, record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# House rules the phone can't score, so it keeps one deal at a time.
ONE_DEAL_RULES = "pays-for-table"
DEAL_4 = {"Ann": "0", "Ben": "3", "Cy": "5", "Dee": "9"}
WAITING = "Deal 4 is waiting to be sent: Ann 0, Ben 3, Cy 5, Dee 9."
BOARD = re.compile(r"/games/\d+/board/")  # the board asking for itself
CHANGES = re.compile(r"/games/\d+/changes/")  # the game's stream


@pytest.fixture
def game():
    """Three deals in: the form is for deal 4."""
    game = make_ruled_game(ONE_DEAL_RULES, club=make_club(make_user("ann")))
    for cards in ([0, 1, 2, 3], [1, 0, 2, 3], [1, 2, 0, 3]):
        record(game, *cards)
    return game


def box(page, name: str):
    return page.get_by_label(name, exact=True)


def type_over(page, name: str, text: str) -> None:
    """Tap a player's box and type, as a thumb does: no check that the box takes it."""
    box(page, name).click()
    page.keyboard.press("Control+A")
    page.keyboard.type(text)


def fill_deal_4(page) -> None:
    """Type deal 4 and wait for its penalties under the boxes, as the scorekeeper sees them
    before tapping Record deal: a test going offline next never cuts a preview on its way."""
    fill(page, DEAL_4)
    expect(page.locator("#preview-3")).to_contain_text("+9")  # Dee's 9 cards


def record_offline(page, game) -> None:
    log_in_to_game(page, game)
    expect(page.locator(".deal-no")).to_have_text("Deal 4")
    fill_deal_4(page)
    page.context.set_offline(True)
    page.get_by_role("button", name="Record deal").click()
    expect(page.get_by_role("status").filter(has_text=OFFLINE)).to_be_visible()


def expect_values(page, values: dict[str, str]) -> None:
    for name, count in values.items():
        expect(box(page, name)).to_have_value(count)


def test_the_next_deal_typed_while_one_waits_does_not_change_it(phone, game):
    """Reported: offline, "Went out" and the next deal's numbers went into the waiting deal 4,
    which was then saved as 7, 0, 2, 11 with no warning."""
    page = phone
    record_offline(page, game)

    # The table moves on: Ben went out of deal 5, Ann has 7, Cy 2, Dee 11.
    page.get_by_role("button", name="Ben went out").click(force=True)
    for name, count in (("Ann", "7"), ("Cy", "2"), ("Dee", "11")):
        type_over(page, name, count)
    expect_values(page, DEAL_4)
    for name in DEAL_4:
        expect(box(page, name)).not_to_be_editable()
    expect(page.get_by_role("status").filter(has_text=OFFLINE)).to_contain_text(WAITING)
    screenshot(page, "deal-waiting")

    page.context.set_offline(False)
    expect(page.get_by_role("status").filter(has_text="Deal 4 recorded.")).to_be_visible()
    assert recorded(game)[3:] == [[0, 3, 5, 9]]
    assert page.evaluate(PENDING_KEYS) == []
    expect_values(page, dict.fromkeys(DEAL_4, ""))
    expect(box(page, "Ann")).to_be_editable()


def test_change_it_opens_the_waiting_deal_and_record_deal_sends_it_with_the_same_token(phone, game):
    page = phone
    page.clock.install()
    record_offline(page, game)
    sent = requests_to(page, DEALS)
    token = page.locator("#deal-form input[name=token]").input_value()
    page.get_by_role("button", name="Change it").click()
    expect(page.get_by_text(WAITING)).to_have_count(0)
    expect(box(page, "Ann")).to_be_focused()
    expect_values(page, DEAL_4)
    fill(page, {"Cy": "7"})
    expect_values(page, {"Cy": "7"})

    # Back online, nothing is sent behind the scorekeeper's back while they change it, however
    # long they take...
    page.context.set_offline(False)
    page.clock.run_for(4500)
    requests_reported(page)
    assert sent == []
    # ...only when they tap Record deal, with the form's token still.
    page.get_by_role("button", name="Record deal").click()
    expect(page.get_by_role("status").filter(has_text="Deal 4 recorded.")).to_be_visible()
    assert recorded(game)[3:] == [[0, 3, 7, 9]]
    assert str(Deal.objects.get(game=game, number=4).token) == token
    assert page.evaluate(PENDING_KEYS) == []


def test_discard_it_forgets_the_waiting_deal_and_says_where_a_sent_one_would_show(phone, game):
    page = phone
    page.clock.install()
    record_offline(page, game)
    sent = requests_to(page, DEALS)
    page.get_by_role("button", name="Discard it").click()
    status = page.get_by_role("status").filter(has_text="Deal 4 is discarded")
    expect(status).to_have_text(
        "Deal 4 is discarded on this phone and won't be sent. If it had already reached the "
        "server, it shows on the scoreboard, where it can be undone."
    )
    expect(page.get_by_role("button", name="Change it")).to_have_count(0)
    expect_values(page, dict.fromkeys(DEAL_4, ""))
    expect(box(page, "Ann")).to_be_editable()
    expect(box(page, "Ann")).to_be_focused()
    assert page.evaluate(PENDING_KEYS) == []

    page.context.set_offline(False)
    page.clock.run_for(4500)
    requests_reported(page)
    assert sent == []
    assert recorded(game)[3:] == []
    # Reloaded, the page has nothing to bring back.
    page.reload()
    expect(page.locator(".deal-no")).to_have_text("Deal 4")
    expect_values(page, dict.fromkeys(DEAL_4, ""))


def test_went_out_on_a_slow_connection_keeps_what_is_typed_and_moves_to_the_next_box(phone, game):
    """Reported: "Went out" asked the server and redrew the form, wiping what was typed
    meanwhile. Now the phone fills in the 0 itself; the server only answers without JS."""
    page = phone
    log_in_to_game(page, game)
    held = []  # every request to record, kept back until the test lets it go
    page.route(DEALS, lambda route: held.append(route))
    sent = requests_to(page, DEALS)
    fill(page, {"Ann": "0", "Ben": "4"})

    page.get_by_role("button", name="Ben went out").click()
    fill(page, {"Cy": "6", "Dee": "11"})
    requests_reported(page)
    assert sent == []  # no request at all: no slow answer to come after the typing
    expect_values(page, {"Ann": "", "Ben": "0", "Cy": "6", "Dee": "11"})
    expect(page.locator("#preview-1")).to_have_text("went out: 0")
    expect(page.get_by_role("button", name="Ben went out")).to_have_class(re.compile("is-out"))

    # The 0 moves to Ann; the focus to the next empty box, Ben's, ready for his count.
    page.get_by_role("button", name="Ann went out").click()
    expect(box(page, "Ben")).to_be_focused()
    page.keyboard.type("3")
    expect_values(page, {"Ann": "0", "Ben": "3", "Cy": "6", "Dee": "11"})
    expect(page.get_by_role("button", name="Ben went out")).not_to_have_class(re.compile("is-out"))
    expect(page.locator("#preview-1")).to_contain_text("+3")
    assert held == []

    # Dee went out after all: Ann's 0 goes, and the next empty box is hers, round the table.
    page.get_by_role("button", name="Dee went out").click()
    expect(box(page, "Ann")).to_be_focused()
    expect_values(page, {"Ann": "", "Ben": "3", "Cy": "6", "Dee": "0"})


def test_the_penalties_shown_are_for_what_is_typed_now_on_a_slow_connection(phone, game):
    """A preview asked for while another was on its way used to be dropped, leaving the
    penalties of what was typed before."""
    page = phone
    page.clock.install()
    log_in_to_game(page, game)
    held = []
    hold = [True]

    def slow(route):
        if hold[0]:
            held.append(route)
        else:
            route.continue_()

    page.route(PREVIEWS, slow)
    box(page, "Ann").fill("5")
    wait_until(page, lambda: len(held) == 1, "the preview of Ann's 5 was never asked for")
    box(page, "Ben").fill("7")
    page.clock.run_for(300)  # Ben's preview falls due (200 ms after typing) while Ann's is held
    hold[0] = False
    for route in held:
        route.continue_()
    expect(page.locator("#preview-0")).to_contain_text("+5")
    expect(page.locator("#preview-1")).to_contain_text("+7")


@NETWORK_CUT
def test_under_the_twos_rule_the_waiting_deal_says_its_twos_and_they_cannot_change(phone, game):
    user = game.created_by
    club = game.club
    services.start_season(
        club=club,
        name="Twos count",
        starts_on=datetime.date.today(),
        rules=parse_rules(f"twos-double-each,{ONE_DEAL_RULES}"),
        by=user,
    )
    twos_game = make_game(club)
    page = phone
    log_in_to_game(page, game)
    page.goto(f"/games/{twos_game.pk}/")
    fill(page, {"Ann": "0", "Ben": "5", "Cy": "3", "Dee": "9"})
    page.get_by_label("Twos in Ben's hand").fill("2")
    page.get_by_label("Went out on twos?").check()
    page.route(DEALS, lambda route: route.abort("internetdisconnected"))
    page.get_by_role("button", name="Record deal").click()
    expect(page.get_by_role("status").filter(has_text=OFFLINE)).to_contain_text(
        "Deal 1 is waiting to be sent: Ann 0, Ben 5 (twos held 2), Cy 3, Dee 9, went out on twos."
    )
    page.get_by_label("Went out on twos?").click(force=True)
    type_over(page, "Twos in Ben's hand", "1")
    expect(page.get_by_label("Went out on twos?")).to_be_checked()
    expect(page.get_by_label("Twos in Ben's hand")).to_have_value("2")

    # Closed and opened again, the page sends the deal with its twos, as typed.
    context = page.context
    page.close()
    page = context.new_page()
    page.goto(f"/games/{twos_game.pk}/")
    expect(page.get_by_role("status").filter(has_text="Deal 1 recorded.")).to_be_visible()
    deal = Deal.objects.get(game=twos_game, number=1)
    assert deal.out_on_twos
    assert [score.twos_held for score in deal.scores.order_by("seat__position")] == [0, 2, 0, 0]


# The server's word on a resend it refuses


def lose_the_first_answer(page, game) -> list[int]:
    """Record deal 4 on a connection that drops the server's answer: the server records it,
    the phone never hears back and keeps it. Then the phone goes offline."""
    log_in_to_game(page, game)
    lost = []

    def answer_lost(route):
        if route.request.method == "POST" and not lost:
            lost.append(route.fetch().status)  # the request reaches the server...
            route.abort("connectionreset")  # ...and its answer is lost on the way back
        else:
            route.continue_()

    page.route(DEALS, answer_lost)
    return lost


def expect_answered_without_recording(page) -> None:
    """The server's reason shows; nothing claims the deal was recorded, nothing waits."""
    expect(page.get_by_text("Deal 4 recorded.")).to_have_count(0)
    expect(page.locator(".message-waiting")).to_have_count(0)
    expect(page.get_by_role("button", name="Change it")).to_have_count(0)
    assert page.evaluate(PENDING_KEYS) == []


@NETWORK_CUT
def test_a_resend_of_a_deal_undone_meanwhile_shows_why_it_was_not_recorded_again(phone, game):
    page = phone
    page.clock.install()
    lost = lose_the_first_answer(page, game)
    sent = requests_to(page, DEALS)
    fill(page, DEAL_4)
    token = page.locator("#deal-form input[name=token]").input_value()
    page.get_by_role("button", name="Record deal").click()
    expect(page.get_by_role("status").filter(has_text=OFFLINE)).to_be_visible()
    page.context.set_offline(True)
    assert lost == [200]
    assert recorded(game)[3:] == [[0, 3, 5, 9]]

    # Someone at the table undoes deal 4 on their phone; then this one is back online.
    services.undo_last_deal(game=game, by=game.created_by)
    page.context.set_offline(False)
    expect(page.get_by_role("alert")).to_have_text(
        "Deal 4 was undone after this phone sent it, so it was not recorded again."
    )
    expect_answered_without_recording(page)
    # What was typed comes back, open to record deliberately, under a new token.
    expect_values(page, DEAL_4)
    expect(box(page, "Ann")).to_be_editable()
    assert page.locator("#deal-form input[name=token]").input_value() != token
    page.clock.run_for(4500)  # another round of resends would send it, under the new token
    requests_reported(page)
    assert len(sent) == 2  # the one whose answer was lost, and the one resend
    assert recorded(game)[3:] == []


@NETWORK_CUT
def test_a_resend_with_changed_values_shows_the_deal_as_already_recorded(phone, game):
    page = phone
    lose_the_first_answer(page, game)
    fill(page, {"Ann": "0", "Ben": "3", "Cy": "7", "Dee": "2"})
    page.get_by_role("button", name="Record deal").click()
    expect(page.get_by_role("status").filter(has_text=OFFLINE)).to_be_visible()
    page.context.set_offline(True)
    assert recorded(game)[3:] == [[0, 3, 7, 2]]

    # The scorekeeper changes the waiting deal and records it again: same token, new values.
    page.get_by_role("button", name="Change it").click()
    fill(page, {"Cy": "5", "Dee": "9"})
    page.context.set_offline(False)
    page.get_by_role("button", name="Record deal").click()
    expect(page.get_by_role("alert")).to_have_text(
        "Deal 4 is already recorded as Ann 0, Ben 3, Cy 7, Dee 2; edit deal 4 to change it."
    )
    expect_answered_without_recording(page)
    assert recorded(game)[3:] == [[0, 3, 7, 2]]


@NETWORK_CUT
def test_the_board_catching_up_under_a_thumb_on_record_deal_leaves_the_tap_on_it(phone, game):
    """Back online, the board asks for deal 4, which the lost answer recorded: its notice that
    the game has moved on comes above "Record deal" as the scorekeeper taps it, and the tap still
    sends the deal. The notice came between the press and the release (the button pushed down
    from under the thumb, the release elsewhere), and the deal was never sent."""
    page = phone
    asked = []
    page.route(CHANGES, lambda route: None)  # no stream: the board polls, and only that brings news
    page.route(BOARD, lambda route: asked.append(route))
    lose_the_first_answer(page, game)
    fill(page, {"Ann": "0", "Ben": "3", "Cy": "7", "Dee": "2"})
    page.get_by_role("button", name="Record deal").click()
    expect(page.get_by_role("status").filter(has_text=OFFLINE)).to_be_visible()
    page.context.set_offline(True)
    page.get_by_role("button", name="Change it").click()
    fill(page, {"Cy": "5", "Dee": "9"})
    page.context.set_offline(False)
    wait_until(page, lambda: asked, "the board asking for itself")
    expect(page.locator("#board-stale")).to_be_empty()

    box = page.get_by_role("button", name="Record deal").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    for held in asked:
        held.continue_()
    expect(page.locator("#deal-form .stale-form")).to_contain_text("the next deal is deal 5")
    page.mouse.up()
    expect(page.get_by_role("alert")).to_have_text(
        "Deal 4 is already recorded as Ann 0, Ben 3, Cy 7, Dee 2; edit deal 4 to change it."
    )


def test_a_resend_the_server_refuses_shows_its_reason_and_nothing_is_left_waiting(phone, game):
    """The client's side of the two above, today: a refusal comes back as 200 with the game's
    live part and its reason in role="alert"; the page shows that, and only that."""
    page = phone
    page.clock.install()
    log_in_to_game(page, game)
    fill_deal_4(page)
    page.context.set_offline(True)
    page.get_by_role("button", name="Record deal").click()
    expect(page.get_by_role("status").filter(has_text=OFFLINE)).to_contain_text(WAITING)
    refusal = "Deal 4 was undone after this phone sent it, so it was not recorded again."
    sent = requests_to(page, DEALS)

    def refuse(route):
        route.fulfill(
            status=200,
            content_type="text/html; charset=utf-8",
            body='<div id="game-live" class="game-live"><div id="live-notice" role="status">'
            f'</div><p class="form-errors" role="alert">{refusal}</p></div>',
        )

    page.route(DEALS, refuse)
    page.context.set_offline(False)
    expect(page.get_by_role("alert")).to_have_text(refusal)
    expect_answered_without_recording(page)
    page.clock.run_for(4500)  # a round of resends, were they still going
    requests_reported(page)
    assert len(sent) == 1
    assert "cards_2=5" in sent[0] and "went_out" not in sent[0]


@NETWORK_CUT
def test_change_it_while_a_resend_is_on_its_way_keeps_the_changes(phone, game):
    """A late answer to a resend sent before "Change it" mustn't redraw the form under the
    scorekeeper's fingers: "Change it" calls that resend off."""
    page = phone
    page.clock.install()
    log_in_to_game(page, game)
    fill(page, DEAL_4)
    held = []  # the first send fails; the resends hang

    def fail_then_hold(route):
        held.append(route)
        if len(held) == 1:
            route.abort("internetdisconnected")

    page.route(DEALS, fail_then_hold)
    page.get_by_role("button", name="Record deal").click()
    expect(page.get_by_role("status").filter(has_text=OFFLINE)).to_contain_text(WAITING)
    page.clock.run_for(4000)  # the periodic resend goes out, and hangs
    wait_until(page, lambda: len(held) == 2, "the periodic resend never went out")
    with page.expect_event("requestfailed", lambda request: request == held[1].request):
        page.get_by_role("button", name="Change it").click()  # calls the resend off
    fill(page, {"Cy": "7"})
    # Its answer, were it still awaited, would come now.
    held[1].fulfill(status=200, body='<div id="game-live">Deal 4 recorded.</div>')
    expect_values(page, {"Ann": "0", "Ben": "3", "Cy": "7", "Dee": "9"})
    expect(page.locator(".deal-no")).to_have_text("Deal 4")
    expect(page.get_by_text("Deal 4 recorded.")).to_have_count(0)


def test_a_deal_kept_the_old_way_when_the_site_updates_is_sent_once(phone, game):
    """A phone at the table as the site updates: the deal the script before the one queue kept
    under its own key is read into the queue once, back in the form, and sent with its token."""
    page = phone
    log_in_to_game(page, game)
    token = str(uuid.uuid4())
    deal = {f"cards_{seat}": count for seat, count in enumerate(DEAL_4.values())}
    page.evaluate(KEEP_THE_OLD_WAY, [game.pk, deal | {"number": "4", "token": token}])
    page.reload()
    expect(page.get_by_role("status").filter(has_text="Deal 4 recorded.")).to_be_visible()
    assert recorded(game)[3:] == [[0, 3, 5, 9]]
    assert str(Deal.objects.get(game=game, number=4).token) == token
    assert page.evaluate(PENDING_KEYS) == []
