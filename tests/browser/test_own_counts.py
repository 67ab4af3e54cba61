"""A game played with own counts at 390x844: a player's own form on the game page, sent, and
the page saying whose figures are in and who the table waits for. (The phones following each
other's figures live, and a whole game played so, are the phone side's.)"""

from concurrent.futures import ThreadPoolExecutor

import pytest
from playwright.sync_api import expect

from nights import services as night_services
from scoring import services
from scoring.models import SentFacts
from scoring.presenters.wording import names_and
from tests.browser.a11y import assert_accessible
from tests.browser.phone import arrive, log_in, open_phone, screenshot
from tests.nights.helpers import draw, games_of
from tests.scoring.own.helpers import member, own_game, send


def sent_elsewhere(game, position: int, cards_left: int) -> None:
    """A figure sent from another phone: in a thread of its own, as a request would be (the
    stream is told through async_to_sync, which Playwright's event loop here refuses)."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(send, game, position, cards_left).result()


pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


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


def test_a_figure_sent_offline_is_kept_through_a_reload_and_sent_once_when_back(phone, live_server):
    """The phone's one offline queue keeps a player's own figure as it keeps a deal: said to
    wait, kept through a reload, sent once (its token) when the signal returns."""
    game = own_game()
    page = phone
    log_in(page, member(game, 1), live_server.url)
    page.goto(f"/games/{game.pk}/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload(wait_until="networkidle")  # the worker keeps the page, for opening it offline
    page.context.set_offline(True)
    page.get_by_label("Your cards left").fill("6")
    page.get_by_role("button", name="Send", exact=True).click()
    waiting = "Your figure for deal 1 is kept on this phone: it is sent when the signal returns."
    expect(page.get_by_role("status").filter(has_text=waiting)).to_be_visible()
    page.get_by_role("button", name="Send", exact=True).click()  # again, impatient
    page.reload()  # still offline: the worker has the page, the phone the figure
    expect(page.get_by_role("status").filter(has_text=waiting)).to_be_visible()
    expect(page.get_by_label("Your cards left")).to_have_value("6")
    assert not SentFacts.objects.filter(filling__game=game).exists()

    page.context.set_offline(False)
    expect(page.get_by_text("ben: 6")).to_be_visible(timeout=15_000)
    expect(page.get_by_role("status").filter(has_text=waiting)).to_have_count(0)
    sent = SentFacts.objects.get(filling__game=game)  # once
    assert (sent.seat.position, sent.cards_left) == (1, 6)
    kept = "Object.keys(localStorage).filter(key => key.startsWith('bigtwo:waiting:'))"
    assert page.evaluate(kept) == []
