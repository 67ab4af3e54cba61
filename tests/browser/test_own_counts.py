"""A game played with own counts at 390x844: a player's own form on the game page, sent, and
the page saying whose figures are in and who the table waits for; the phones following each
other's figures live, a figure kept offline, and a whole game played on four phones."""

import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from playwright.sync_api import expect

from nights import services as night_services
from rules.deal_checks import penalty
from scoring import services
from scoring.models import Game, SentFacts
from scoring.presenters.wording import names_and
from tests.browser.a11y import assert_accessible
from tests.browser.phone import arrive, log_in, open_phone, screenshot
from tests.browser.scorekeeping import NETWORK_CUT
from tests.factories import record
from tests.nights.helpers import draw, games_of
from tests.scoring.own.helpers import entered_by, member, own_game, send


def sent_elsewhere(game, position: int, cards_left: int) -> None:
    """A figure sent from another phone: in a thread of its own, as a request would be (the
    stream is told through async_to_sync, which Playwright's event loop here refuses)."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(send, game, position, cards_left).result()


pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OWN_FIGURES = "**/deals/own/"


def test_a_player_sends_their_own_cards_from_the_game_page(a11y_phone, live_server):
    game = own_game()
    send(game, 2, 7)
    log_in(a11y_phone, member(game, 0), live_server.url)
    a11y_phone.goto(f"/games/{game.pk}/")
    arrive(a11y_phone, f"/games/{game.pk}/")
    assert_accessible(a11y_phone, "own-counts-form")
    a11y_phone.get_by_label("Your cards left").fill("5")
    a11y_phone.get_by_role("button", name="Send", exact=True).click()
    expect(a11y_phone.get_by_text("Waiting for ben and dee")).to_be_visible()
    expect(a11y_phone.get_by_text("ann: 5")).to_be_visible()
    assert_accessible(a11y_phone, "own-counts-sent")
    screenshot(a11y_phone, "own-counts-sent")


def test_every_phone_sees_each_figure_as_it_is_sent_and_keeps_what_it_is_typing(
    browser, live_server
):
    game = own_game()
    token = services.share_game(game=game, by=game.club.owner)
    ann, ben, viewer = (open_phone(browser, live_server) for _ in range(3))
    for page, position in ((ann, 0), (ben, 1)):
        log_in(page, member(game, position), live_server.url)
        page.goto(f"/games/{game.pk}/")
        arrive(page, f"/games/{game.pk}/")
    viewer.goto(f"/live/{token}/")
    expect(viewer.get_by_text("Waiting for ann, ben, cy and dee")).to_be_visible()
    ben.get_by_label("Your cards left").fill("9")  # typing, not sent yet

    ann.get_by_label("Your cards left").fill("5")
    ann.get_by_role("button", name="Send", exact=True).click()
    for page in (ben, viewer):
        expect(page.get_by_text("ann: 5")).to_be_visible()
        expect(page.get_by_text("Waiting for ben, cy and dee")).to_be_visible()
    expect(ben.get_by_label("Your cards left")).to_have_value("9")
    screenshot(ben, "own-counts-followed")
    screenshot(viewer, "own-counts-live-view")
    assert_accessible(viewer, "own-counts-live-view")

    sent_elsewhere(game, 2, 3)
    sent_elsewhere(game, 3, 13)
    ben.get_by_role("button", name="I went out").click()
    for page in (ann, ben, viewer):
        expect(page.locator(".scores tfoot td")).to_have_text(["5", "★ 0 (lowest)", "3", "39"])
        expect(page.get_by_text("Waiting for ann, ben, cy and dee")).to_be_visible()
    for page in (ann, ben, viewer):
        page.context.close()


def test_the_rooms_tv_follows_who_each_table_waits_for(browser, live_server):
    club = own_game().club
    night = draw(club, count=4, rounds=1, own_counts=True)
    night_services.start_round(night=night, number=1, by=club.owner)
    token = night_services.show_on_tv(night=night, by=club.owner)
    (game,) = games_of(night, 1)
    names = [seat.player.name for seat in game.seats.order_by("position")]
    tv = browser.new_context(viewport={"width": 1280, "height": 720}, base_url=live_server.url)
    screen = tv.new_page()
    screen.goto(f"/tv/{token}/")
    expect(screen.locator(".tv-waiting")).to_have_text(f"Waiting for {names_and(names)}")
    sent_elsewhere(game, 0, 5)
    expect(screen.locator(".tv-waiting")).to_have_text(f"Waiting for {names_and(names[1:])}")
    screenshot(screen, "own-counts-tv")
    tv.close()


def test_the_whole_table_form_follows_each_figure_sent_but_not_over_a_box_typed_in(
    phone, live_server
):
    game = own_game()
    log_in(phone, member(game, 0), live_server.url)
    phone.goto(f"/games/{game.pk}/")
    arrive(phone, f"/games/{game.pk}/")
    box = {at: phone.locator(f"#deal-form [name=cards_{at}]") for at in range(4)}
    box[1].fill("4")  # ann fills in ben's seat on the table's form, ben's own figure not in yet

    sent_elsewhere(game, 2, 7)
    expect(phone.get_by_text("Waiting for ann, ben and dee")).to_be_visible()
    expect(box[2]).to_have_value("7")
    sent_elsewhere(game, 1, 6)
    expect(phone.get_by_text("Waiting for ann and dee")).to_be_visible()
    expect(box[1]).to_have_value("4")
    box[3].focus()
    sent_elsewhere(game, 3, 0)
    expect(phone.get_by_text("Waiting for ann", exact=True)).to_be_visible()
    expect(box[3]).to_have_value("")  # the box ann is in: her thumb may be on its keys
    screenshot(phone, "own-counts-table-form-followed")


@NETWORK_CUT
def test_a_figure_that_cannot_go_is_kept_through_a_reload_and_sent_once_when_it_can(
    browser, live_server
):
    """The phone's one offline queue keeps a player's own figure as it keeps a deal: said to
    wait, kept through a reload, sent once (its token) when it can go. The figures' address is
    cut off (`route.abort`) rather than the phone's signal: Chromium's offline emulation lets a
    request of a page the service worker controls through, as no phone without a signal does
    (the worker is blocked here; test_offline_game.py opens a game offline through it)."""
    game = own_game()
    page = open_phone(browser, live_server, service_workers="block")
    log_in(page, member(game, 1), live_server.url)
    page.goto(f"/games/{game.pk}/")
    page.route(OWN_FIGURES, lambda route: route.abort("internetdisconnected"))
    page.get_by_label("Your cards left").fill("6")
    page.get_by_role("button", name="Send", exact=True).click()
    waiting = "Your figure for deal 1 is kept on this phone: it is sent when the signal returns."
    expect(page.get_by_role("status").filter(has_text=waiting)).to_be_visible()
    page.get_by_role("button", name="Send", exact=True).click()  # again, impatient
    page.reload()
    expect(page.get_by_role("status").filter(has_text=waiting)).to_be_visible()
    expect(page.get_by_label("Your cards left")).to_have_value("6")
    assert not SentFacts.objects.filter(filling__game=game).exists()

    page.unroute(OWN_FIGURES)  # sent on the queue's next try
    expect(page.get_by_text("ben: 6")).to_be_visible(timeout=15_000)
    expect(page.get_by_role("status").filter(has_text=waiting)).to_have_count(0)
    sent = SentFacts.objects.get(filling__game=game)  # once
    assert (sent.seat.position, sent.cards_left) == (1, 6)
    kept = "Object.keys(localStorage).filter(key => key.startsWith('bigtwo:waiting:'))"
    assert page.evaluate(kept) == []
    page.context.close()


def totals_by_the_rules(*deals: list[int]) -> list[int]:
    """Each seat's total over `deals` (cards left, seat by seat), charged as the rule book says."""
    return [sum(penalty(deal[seat]) for deal in deals) for seat in range(4)]


def shows_totals(page, totals: list[int]) -> None:
    cells = page.locator(".scores tfoot td")
    expect(cells).to_have_text([re.compile(rf"(^|\D){total}(\D|$)") for total in totals])


def send_own(page, cards_left: int, deal: int) -> None:
    """The player sends their cards left of `deal` once their own form is for it, as a player
    looks before typing (the form follows the game a moment after the board does)."""
    title = f"Deal {deal}: each player's own cards"
    expect(page.locator("#own-title")).to_have_text(title)
    if cards_left == 0:
        page.get_by_role("button", name="I went out").click()
    else:
        page.get_by_label("Your cards left").fill(str(cards_left))
        page.get_by_role("button", name="Send", exact=True).click()


def test_four_phones_play_a_whole_game_each_sending_their_own_cards(browser, live_server):
    """Four players, a phone each, no scorekeeper: one phone offline for a deal, two players
    both saying they went out (the one who didn't puts it right), a seat filled in for on
    another phone, and the game over at 100 as it would be with a scorekeeper."""
    game = own_game()
    # No service worker: a page it controls gets its requests through Chromium's offline
    # emulation, as no phone without a signal does.
    phones = [open_phone(browser, live_server, service_workers="block") for _ in range(4)]
    for position, page in enumerate(phones):
        log_in(page, member(game, position), live_server.url)
        page.goto(f"/games/{game.pk}/")
        arrive(page, f"/games/{game.pk}/")
    ann, ben, cy, dee = phones

    # Deal 1: cy has no signal as she sends hers; the phone keeps it and sends it when back.
    cy.context.set_offline(True)
    send_own(cy, 5, 1)
    expect(cy.get_by_role("status").filter(has_text="kept on this phone")).to_be_visible()
    for page, cards_left in ((ann, 0), (ben, 13), (dee, 9)):
        send_own(page, cards_left, 1)
    for page in (ann, ben, dee):
        expect(page.get_by_text("Waiting for cy", exact=True)).to_be_visible()
    cy.context.set_offline(False)
    first = [0, 13, 5, 9]
    for page in phones:
        shows_totals(page, totals_by_the_rules(first))

    # Deal 2: ann and ben both say they went out; every phone says so, and ben puts it right.
    for page, cards_left in ((cy, 13), (dee, 10), (ann, 0), (ben, 0)):
        send_own(page, cards_left, 2)
    for page in phones:
        expect(page.get_by_text("ann and ben both have 0")).to_be_visible()
    screenshot(ben, "own-counts-two-went-out")
    send_own(ben, 12, 2)
    second = [0, 12, 13, 10]
    for page in phones:
        shows_totals(page, totals_by_the_rules(first, second))

    # Deal 3: dee's phone is away; ann fills in dee's seat on the table's form, the rest sent.
    for page, cards_left in ((ann, 3), (ben, 13), (cy, 0)):
        send_own(page, cards_left, 3)
    expect(ann.get_by_text("Waiting for dee", exact=True)).to_be_visible()
    expect(ann.locator("#deal-form [name=cards_1]")).to_have_value("13")
    ann.locator("#deal-form [name=cards_3]").fill("4")
    ann.get_by_role("button", name="Record deal").click()
    third = [3, 13, 0, 4]
    totals = totals_by_the_rules(first, second, third)
    assert totals == [3, 102, 44, 33] and max(totals) >= 100
    for page in phones:
        shows_totals(page, totals)
        expect(page.get_by_role("heading", name="ann wins with 3")).to_be_visible()
        expect(page.get_by_label("Your cards left")).to_have_count(0)
    screenshot(dee, "own-counts-game-over")
    recorded = Game.objects.get(pk=game.pk)
    assert recorded.is_finished
    assert [seat.total for seat in recorded.seats.order_by("position")] == totals
    assert [entered_by(game, number) for number in (1, 2, 3)] == [
        ["ann", "ben", "cy", "dee"],
        ["ann", "ben", "cy", "dee"],
        ["ann", "ben", "cy", "ann"],
    ]
    for page in phones:
        page.context.close()


@NETWORK_CUT
def test_a_figure_kept_offline_while_the_table_recorded_the_deal_is_offered_back(
    browser, live_server
):
    """Ben's figure waits on his phone (its send lost on the way) while the deal is recorded for
    the table with another: sent again, it is offered beside the recorded one, and he chooses."""
    game = own_game()
    page = open_phone(browser, live_server, service_workers="block")  # its routes see every request
    log_in(page, member(game, 1), live_server.url)
    page.goto(f"/games/{game.pk}/")
    arrive(page, f"/games/{game.pk}/")
    page.route(OWN_FIGURES, lambda route: route.abort("internetdisconnected"))  # lost on its way
    send_own(page, 6, 1)
    expect(page.get_by_role("status").filter(has_text="kept on this phone")).to_be_visible()
    with ThreadPoolExecutor(1) as pool:  # recorded on the whole-table form on another phone
        pool.submit(record, Game.objects.get(pk=game.pk), 0, 9, 5, 7).result()

    page.unroute(OWN_FIGURES)  # sent again on the queue's next try
    offer = page.locator("#own-clash")
    expect(offer).to_contain_text("Deal 1 was recorded with 9 for ben; you sent 6.")
    assert_accessible(page, "own-counts-offered-back")
    screenshot(page, "own-counts-offered-back")
    offer.get_by_role("button", name="Put mine in deal 1").click()
    shows_totals(page, [0, 6, 5, 7])
    expect(page.locator("#own-clash")).to_have_count(0)
    assert [seat.total for seat in game.seats.order_by("position")] == [0, 6, 5, 7]
    page.context.close()
