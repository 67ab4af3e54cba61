"""At the table in Chromium (390x844): a deal survives a dropped connection, and other phones
follow the game live."""

import re
import uuid

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from scoring import services
from scoring.models import DealScore
from tests.browser.conftest import PHONE, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a long passphrase 7"
PLAYERS = ["Ann", "Ben", "Cy", "Dee"]
DEAL = {"Ann": "0", "Ben": "5", "Cy": "10", "Dee": "13"}
OFFLINE = "No connection — your deal is kept and will be sent when you're back online."
PENDING_KEYS = "Object.keys(localStorage).filter(key => key.startsWith('bigtwo:pending-deal:'))"


@pytest.fixture
def game():
    user = get_user_model().objects.create_user("ann", password=PASSWORD)
    club = services.create_club(name="Friday table", owner=user)
    return services.start_game(club=club, seat_names=PLAYERS, by=user)


def log_in(page, game) -> None:
    page.goto(f"/accounts/login/?next=/games/{game.pk}/")
    page.get_by_label("Username").fill("ann")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(re.compile(rf"/games/{game.pk}/$"))


def fill(page, cards: dict[str, str]) -> None:
    for name, count in cards.items():
        page.get_by_label(name, exact=True).fill(count)


def recorded(game) -> list[list[int]]:
    """Each recorded deal's cards left, in seat order."""
    by_deal: dict[int, list[int]] = {}
    scores = DealScore.objects.filter(deal__game=game).order_by("deal__number", "seat__position")
    for number, cards in scores.values_list("deal__number", "cards_left"):
        by_deal.setdefault(number, []).append(cards)
    return list(by_deal.values())


# A deal typed is never lost


def test_a_deal_recorded_offline_is_sent_when_back_online_and_recorded_once(phone, game):
    page = phone
    log_in(page, game)
    fill(page, DEAL)

    page.context.set_offline(True)
    page.get_by_role("button", name="Record deal").click()
    expect(page.get_by_role("status").filter(has_text=OFFLINE)).to_be_visible()
    for name, count in DEAL.items():
        expect(page.get_by_label(name, exact=True)).to_have_value(count)
    expect(page.locator(".deal-no")).to_have_text("Deal 1")
    assert recorded(game) == []
    assert len(page.evaluate(PENDING_KEYS)) == 1
    screenshot(page, "deal-kept-offline")

    page.context.set_offline(False)
    expect(page.get_by_role("status").filter(has_text="Deal 1 recorded.")).to_be_visible(
        timeout=5000
    )
    expect(page.locator(".deal-no")).to_have_text("Deal 2")
    expect(page.locator(".scores tfoot td")).to_have_text(["★ 0 (lowest)", "5", "20", "39"])
    # Long enough for another round of the periodic retry: nothing more is sent.
    page.wait_for_timeout(4500)
    assert recorded(game) == [[0, 5, 10, 13]]
    assert page.evaluate(PENDING_KEYS) == []


def test_a_deal_whose_answer_was_lost_is_sent_again_and_still_recorded_once(phone, game):
    """The server recorded it but the phone never heard back: the resend carries the same
    token, so the server answers with the deal it has instead of recording a second one."""
    page = phone
    log_in(page, game)
    lost = []

    def lose_the_first_answer(route):
        if route.request.method == "POST" and not lost:
            lost.append(route.fetch().status)  # the request reaches the server...
            route.abort("connectionreset")  # ...and its answer is lost on the way back
        else:
            route.continue_()

    page.route(re.compile(r"/games/\d+/deals/$"), lose_the_first_answer)
    fill(page, DEAL)
    page.get_by_role("button", name="Record deal").click()
    expect(page.get_by_role("status").filter(has_text=OFFLINE)).to_be_visible()
    assert lost == [200]
    assert recorded(game) == [[0, 5, 10, 13]]

    # Sent again by the periodic retry (the browser never went offline, so no `online` event).
    expect(page.get_by_role("status").filter(has_text="Deal 1 recorded.")).to_be_visible(
        timeout=8000
    )
    expect(page.locator(".deal-no")).to_have_text("Deal 2")
    assert recorded(game) == [[0, 5, 10, 13]]


def test_a_deal_that_could_not_be_sent_survives_closing_the_page(phone, game):
    page = phone
    log_in(page, game)
    # This page never reaches the server again (a closing page may yet run a moment longer).
    page.route(re.compile(r"/games/\d+/deals/$"), lambda route: route.abort("internetdisconnected"))
    fill(page, DEAL)
    page.get_by_role("button", name="Record deal").click()
    expect(page.get_by_role("status").filter(has_text=OFFLINE)).to_be_visible()
    context = page.context
    page.close()
    assert recorded(game) == []

    # Opened again, the game page puts the deal back in the form and sends it.
    page = context.new_page()
    page.goto(f"/games/{game.pk}/")
    expect(page.get_by_role("status").filter(has_text="Deal 1 recorded.")).to_be_visible()
    expect(page.locator(".scores tfoot td")).to_have_text(["★ 0 (lowest)", "5", "20", "39"])
    assert recorded(game) == [[0, 5, 10, 13]]
    assert page.evaluate(PENDING_KEYS) == []


# Live at the table


def test_a_phone_on_the_share_link_follows_the_game_within_three_seconds(
    browser, live_server, phone, game, request
):
    page = phone
    log_in(page, game)
    page.get_by_role("button", name="Share a live view").click()
    share_url = page.get_by_label("Live view link").input_value()
    assert re.fullmatch(rf"{live_server.url}/live/[\w-]{{43}}/", share_url)

    # Someone at the table, with no account, opens the link on their own phone.
    context = browser.new_context(viewport=PHONE, is_mobile=True)
    request.addfinalizer(context.close)
    guest = context.new_page()
    guest.set_default_timeout(10_000)
    guest.goto(share_url)
    expect(guest.get_by_text("No deals yet.")).to_be_visible()
    expect(guest.locator("main form")).to_have_count(0)

    page.goto(f"/games/{game.pk}/")
    fill(page, DEAL)
    page.get_by_role("button", name="Record deal").click()
    expect(page.locator(".deal-no")).to_have_text("Deal 2")
    expect(guest.locator(".scores tfoot td")).to_have_text(
        ["★ 0 (lowest)", "5", "20", "39"], timeout=3500
    )
    expect(guest.locator(".scores tbody th")).to_have_text(["1"])
    screenshot(guest, "live-view")

    # Another phone records deal 2 while this one is typing it: the scoreboard catches up
    # within 3 seconds, and what is typed stays, with word that the form is behind.
    fill(page, {"Ann": "3", "Ben": "0"})
    services.record_deal(
        game=game, number=2, cards_left=[1, 0, 2, 3], token=uuid.uuid4(), by=game.created_by
    )
    expect(page.get_by_role("link", name="Edit deal 2")).to_be_visible(timeout=3500)
    expect(page.get_by_label("Ann", exact=True)).to_have_value("3")
    expect(page.get_by_label("Ben", exact=True)).to_have_value("0")
    expect(page.locator(".stale-form")).to_contain_text("the next deal is deal 3")
    expect(guest.locator(".scores tbody th")).to_have_text(["1", "2"], timeout=3500)
    page.get_by_role("link", name="Get the form for deal 3").click()
    expect(page.locator(".deal-no")).to_have_text("Deal 3")
    expect(page.get_by_label("Ann", exact=True)).to_have_value("")

    # Stopping sharing ends the link at once.
    page.get_by_role("button", name="Stop sharing").click()
    expect(page.get_by_role("button", name="Share a live view")).to_be_visible()
    assert guest.goto(share_url).status == 404
