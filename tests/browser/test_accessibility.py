"""Every page at 390x844, light and dark: axe-core (WCAG 2.2 A and AA) finds nothing serious,
every tap target is 44x44, text at 200% still fits, and cards are named with their suit."""

import re

import pytest
from django.conf import settings
from django.test import override_settings
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from tests import failing_urls
from tests.browser.a11y import focus_problems, serious_violations, small_targets
from tests.browser.account_pages import account_pages, submit
from tests.browser.phone import PHONE, add_style, log_in, open_phone, screenshot
from tests.factories import PLAYERS, make_member

# Pages that fail on purpose (a 500, a PermissionDenied, a bad request) beside the site's own.
FAILING_URLS = override_settings(ROOT_URLCONF="tests.failing_urls")

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


# Two ways to split it: the pair of 2s kept, or a 2 spent in the straight (rules.split_plans).
SPLIT_HAND = "3D+4C+5H+6S+7D+7C+9H+9S+JD+QD+KC+2S+2H"
# The Chinese the pages are checked in, and what the checker says of the same two hands in each.
CHINESE = ("zh-hans", "zh-hant")
A_BEATS_B = {"zh-hans": "A 大过 B", "zh-hant": "A 大過 B"}


def submit_without_browser_checks(page, button: str) -> None:
    """Send a form as it is, past the browser's own `required` checks, to see the server's."""
    page.get_by_role("button", name=button).evaluate("b => { b.form.noValidate = true; }")
    page.get_by_role("button", name=button).click()


def walk(page, site):
    """Open every page of the site in turn (and the states worth seeing), yielding each name."""
    club, playing, finished = site["club"], site["playing"], site["finished"]

    page.goto("/")
    yield "home"
    page.goto("/check/")
    yield "checker"
    page.goto("/check/?a=3H+5H+6H+7H+9H&b=4C+5D+6S+7C+8D")
    expect(page.locator(".verdict h2")).to_have_text("A beats B")
    yield "checker with a verdict"
    page.goto("/check/?a=3H+3X")
    yield "checker with an error"
    page.goto("/play/?hand=9H+9S+2D&table=8D+8C")
    yield "what can I play, with its answers"
    page.goto(f"/split/?hand={SPLIT_HAND}")
    yield "split a hand, a way per goal"
    page.goto("/accounts/login/")
    yield "log in"
    page.get_by_label("Username").fill("sam")
    page.get_by_label("Password").fill("not the password")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("alert")).to_be_visible()
    yield "log in, refused"
    page.goto("/accounts/signup/")
    yield "sign up"
    page.get_by_label("Username").fill("sam")
    page.get_by_label("Password", exact=True).fill("short")
    page.get_by_label("Password confirmation").fill("other")
    page.get_by_role("button", name="Sign up").click()
    expect(page.locator(".errorlist").first).to_be_visible()
    yield "sign up with errors"
    page.goto("/offline/")
    yield "offline"
    page.goto(f"/live/{site['share_token']}/")
    yield "live view (share link)"
    page.goto(f"/join/{site['other_club'].invite_token}/")
    yield "join, signed out"
    page.goto(f"/accounts/signup/?next=/join/{site['other_club'].invite_token}/")
    yield "sign up from an invite"

    log_in(page, site["sam"], site["url"])
    page.goto("/")
    yield "home, signed in"
    page.goto("/clubs/")
    yield "my clubs"
    page.goto(f"/clubs/{club.pk}/")
    yield "club"
    page.get_by_text("Show the QR code").click()
    expect(page.get_by_role("img", name="QR code for the invite link")).to_be_visible()
    yield "club, the invite's QR code shown"
    page.goto(f"/clubs/{club.pk}/games/new/")
    yield "new game"
    page.get_by_role("link", name="Same players as last time").click()
    expect(page.get_by_label("Seat 1")).not_to_have_value("")
    yield "new game, same players as last time"
    for seat, name in enumerate(("Ann", "ann", "Cy", ""), start=1):
        page.get_by_label(f"Seat {seat}").fill(name)
    submit_without_browser_checks(page, "Start game")
    expect(page.locator(".errorlist").first).to_be_visible()
    yield "new game with errors"

    page.goto(f"/games/{playing.pk}/")
    yield "game in progress"
    page.get_by_text("Show the QR code").click()
    expect(page.get_by_role("img", name="QR code for the live view link")).to_be_visible()
    yield "game, the live view's QR code shown"
    for name, count in zip(PLAYERS, (0, 13, 13, 0), strict=True):
        page.get_by_label(name, exact=True).fill(str(count))
    page.get_by_role("button", name="Record deal").click()
    expect(page.get_by_role("alert")).to_contain_text("Only one player can go out")
    yield "game, deal refused"
    page.get_by_role("link", name="Undo deal 2").click()
    expect(page.get_by_role("button", name="Yes, undo deal 2")).to_be_visible()
    yield "game, undo asked"
    page.goto(f"/games/{playing.pk}/undo/")
    yield "undo confirmation"
    page.goto(f"/games/{playing.pk}/deals/1/edit/")
    yield "edit deal"
    page.get_by_label("Ben", exact=True).fill("0")
    page.get_by_role("button", name="Save changes").click()
    expect(page.get_by_role("alert")).to_be_visible()
    yield "edit deal, refused"

    page.goto(f"/games/{finished.pk}/")
    expect(page.locator(".chart-svg")).to_be_visible()
    expect(page.get_by_role("button", name="Play again")).to_be_visible()
    yield "finished game with its chart and Play again"
    page.goto(f"/games/{site['twos_game'].pk}/")
    expect(page.get_by_label("Went out on twos?")).to_be_visible()
    yield "game under the stronger twos rule"
    for name, count in zip(PLAYERS, (0, 5, 3, 9), strict=True):
        page.get_by_label(name, exact=True).fill(str(count))
    page.get_by_label("Twos in Ben's hand").fill("2")
    page.get_by_label("Went out on twos?").check()
    page.context.set_offline(True)
    page.get_by_role("button", name="Record deal").click()
    # The phone scores these rules: the deal waits on the scoreboard (static/js/waiting-deals.js).
    expect(page.get_by_role("status")).to_contain_text("1 deal waiting to send")
    yield "game, a deal waiting to be sent"
    page.get_by_role("button", name=re.compile(r"^Undo deal \d+$")).click()
    expect(page.locator("tr.waiting")).to_have_count(0)
    page.context.set_offline(False)
    yield "game, a waiting deal undone"
    page.goto(f"/games/{site['banked'].pk}/")
    expect(page.get_by_role("heading", name="Settling up at 0.50 PHP a point")).to_be_visible()
    yield "match ended by hand, settled up"
    page.goto(f"/seasons/{site['banked'].season_id}/")
    yield "season played for money"
    page.goto(f"/games/{finished.pk}/delete/")
    yield "delete confirmation"
    page.goto(f"/games/{finished.pk}/season/")
    yield "move game"
    page.goto(f"/seasons/{site['season'].pk}/")
    yield "season standings"
    page.goto(f"/clubs/{club.pk}/standings/")
    yield "all-time standings"
    page.goto(f"/players/{site['ann'].pk}/")
    yield "player"
    page.goto(f"/seasons/{site['empty_season'].pk}/rules/")
    yield "a new club's house rules"
    page.goto(f"/clubs/{club.pk}/seasons/new/")
    yield "new season"
    submit_without_browser_checks(page, "Start season")
    expect(page.locator(".errorlist").first).to_be_visible()
    yield "new season with errors"
    page.goto(f"/clubs/{club.pk}/import/")
    yield "import scores"
    page.goto(f"/join/{site['other_club'].invite_token}/")
    yield "join"
    page.goto("/join/no-such-token/")
    yield "join, link not valid"
    yield from account_pages(page, site)
    yield from club_pages(page, site)
    yield from error_pages(page, site)


def club_pages(page, site):
    """The club's members, history and roster pages and their refusals, as its owner sees them,
    then the "Leave club" page as a member: nothing is changed. Forms are filled by their
    fields' ids, so the walk works in any language."""
    club = site["club"]
    ann = club.players.get(name="Ann")
    bo = club.memberships.get(user=site["bo"])
    zed = club.players.get(name="Zed")
    log_in(page, site["sam"], site["url"])
    page.goto(f"/clubs/{club.pk}/")
    expect(page.locator(".member-actions").first).to_be_visible()
    yield "club, its members and roster"
    page.goto(f"/clubs/{club.pk}/history/")
    yield "the club's history"
    page.goto(f"/clubs/{club.pk}/members/{bo.pk}/remove/")
    yield "remove a member"
    page.goto(f"/clubs/{club.pk}/members/{bo.pk}/owner/")
    yield "make a member the owner"
    page.goto(f"/clubs/{club.pk}/leave/")
    yield "leave club, as its owner"
    page.goto(f"/players/{ann.pk}/")
    expect(page.locator(".roster-actions")).to_be_visible()
    yield "player, with the roster's changes"
    page.goto(f"/clubs/{club.pk}/players/{ann.pk}/rename/")
    yield "rename a player"
    page.locator("#id_name").fill("ben")
    page.locator("form.narrow-form button[type=submit]").click()
    expect(page.locator(".errorlist").first).to_be_visible()
    yield "rename, refused"
    page.goto(f"/clubs/{club.pk}/players/{ann.pk}/merge/")
    yield "merge a player"
    page.locator("#id_into").select_option(str(club.players.get(name="Ben").pk))
    page.locator("form.narrow-form button[type=submit]").click()
    expect(page.locator(".errorlist").first).to_be_visible()
    yield "merge, refused"
    page.goto(f"/clubs/{club.pk}/players/{ann.pk}/remove/")
    yield "remove a player who has played"
    page.goto(f"/clubs/{club.pk}/players/{zed.pk}/remove/")
    yield "remove a player"
    log_in(page, site["bo"], site["url"])
    page.goto(f"/clubs/{club.pk}/leave/")
    expect(page.locator("form .button.danger")).to_be_visible()
    yield "leave club, as a member"
    assert page.goto(f"/clubs/{site['other_club'].pk}/").status == 404
    yield "a club not theirs: not found"


SEND_TOO_MUCH = """() => {
    const form = Object.assign(document.createElement("form"), { method: "post" });
    const text = Object.assign(document.createElement("textarea"), { name: "a" });
    text.value = "x".repeat(2000);
    form.append(text);
    document.body.append(form);
    form.submit();
}"""


def error_pages(page, site):
    """The error pages, signed in as the club's owner, then as a member, then signed out (in
    the page's language: the language cookie stays)."""

    def opened(address: str, status: int) -> None:
        response = page.goto(address)
        assert response.status == status, f"{address}: {response.status}"
        expect(page.locator(".error-page h1")).to_be_visible()

    opened(f"/clubs/{site['other_club'].pk}/", 404)
    yield "not found, signed in"
    with FAILING_URLS:
        opened(failing_urls.FAILS, 500)
    yield "server error"
    # A form sent with a token that no longer holds (a page left open across a log-out).
    page.goto("/")
    page.locator(".language-form [name=csrfmiddlewaretoken]").evaluate("i => { i.value = 'x'; }")
    with page.expect_response(lambda response: response.status == 403):
        page.locator(".language-form [type=submit]").click()
    expect(page.locator(".error-page h1")).to_be_visible()
    yield "form expired"
    log_in(page, make_member(site["club"], "mia"), site["url"])
    opened(f"/clubs/{site['club'].pk}/seasons/new/", 403)
    yield "owner only, refused to a member"
    language = [c for c in page.context.cookies() if c["name"] == settings.LANGUAGE_COOKIE_NAME]
    page.context.clear_cookies()
    page.context.add_cookies(language)
    opened("/no/such/page/", 404)
    expect(page.locator(".error-page a.primary")).to_be_visible()  # the way to log in
    yield "not found, signed out"
    with FAILING_URLS:
        opened(failing_urls.REFUSES, 403)
        yield "not allowed, signed out"
        opened(failing_urls.BAD_REQUEST, 400)
        yield "bad request"
    # A form past the bound on a request's body (bigtwo_site/request_bodies.py), made small.
    with override_settings(REQUEST_MAX_BYTES=1000):
        page.goto("/check/")
        with page.expect_response(lambda response: response.status == 413):
            page.evaluate(SEND_TOO_MUCH)
        expect(page.locator(".error-page h1")).to_be_visible()
        yield "too much sent at once"


def test_every_page_passes_axe_in_light_and_dark_and_keeps_44_px_targets(
    browser, live_server, site
):
    """One walk through the site: each page scanned in the light scheme and again in the dark
    (the same page, its colours switched), and its tap targets measured."""
    page = open_phone(browser, live_server)
    problems = []
    for name in walk(page, site):
        problems += serious_violations(page, f"{name} (light)")
        if name == "home":
            screenshot(page, "home")
        page.emulate_media(color_scheme="dark")
        problems += serious_violations(page, f"{name} (dark)")
        page.emulate_media(color_scheme="light")
        problems += [f"{name}: {problem}" for problem in small_targets(page)]
    page.context.close()
    assert not problems, "axe-core found, or tap targets under 44x44 px:\n" + "\n".join(problems)


@pytest.mark.parametrize("what", ["home", "checker", "game", "standings"])
def test_focus_is_always_visible(a11y_phone, site, what):
    page = a11y_phone
    if what != "home":
        log_in(page, site["sam"], site["url"])
    address = {
        "home": "/",
        "checker": "/check/?a=3H+5H&b=4C",
        "game": f"/games/{site['playing'].pk}/",
        "standings": f"/seasons/{site['season'].pk}/",
    }[what]
    page.goto(address)
    problems = focus_problems(page, f"{what} ({page.color_scheme})")
    assert not problems, "Focus not visible:\n" + "\n".join(problems)


BIG_TEXT = "html { font-size: 200% !important; }"


# Each figure of the scoreboard, and each cell, wider than the room it has: its text runs into
# the next cell's ("+72+8").
OVERFLOWING_FIGURES = """() => [...document.querySelectorAll('.scores td, .scores td span')]
    .filter((figure) => !figure.classList.contains('visually-hidden'))
    .filter((figure) => figure.scrollWidth > figure.clientWidth + 1)
    .map((figure) => figure.textContent.trim())"""


@pytest.mark.parametrize(
    ("what", "address", "buttons"),
    [
        ("checker", "/check/?a=3H+5H+6H+7H+9H&b=4C+5D+6S+7C+8D", ["Check"]),
        ("game", "playing", ["Record deal"]),
        ("game-with-twos", "banked", []),
        ("standings", "season", []),
        ("import", "import", ["Preview"]),
    ],
)
def test_pages_work_with_text_at_200_percent(browser, live_server, site, what, address, buttons):
    page = open_phone(browser, live_server)
    log_in(page, site["sam"], site["url"])
    if address in ("playing", "banked"):
        address = f"/games/{site[address].pk}/"
    elif address == "season":
        address = f"/seasons/{site['season'].pk}/"
    elif address == "import":
        address = f"/clubs/{site['club'].pk}/import/"
    page.goto(address)
    add_style(page, BIG_TEXT)
    assert page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)") == 32
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 391, f"the {what} page is {width}px wide on a 390px screen at 200% text"
    for name in buttons:
        button = page.get_by_role("button", name=name, exact=True)
        button.scroll_into_view_if_needed()
        expect(button).to_be_in_viewport()
        box = button.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, f"{name} is cut off: {box}"
    # The scoreboard's figures keep to their cells (the table scrolls sideways instead).
    assert page.evaluate(OVERFLOWING_FIGURES) == [], "figures run into the next cell"
    screenshot(page, f"text-200-{what}")
    page.context.close()


SUITS = {"♦": "diamonds", "♣": "clubs", "♥": "hearts", "♠": "spades"}
NAMED_RANKS = ["jack", "queen", "king", "ace", "two"]  # number cards are named in digits
CARD_NAME = re.compile(rf"^(\d+|{'|'.join(NAMED_RANKS)}) of ({'|'.join(SUITS.values())})\b")


def test_cards_are_named_with_their_suit_and_show_its_symbol(a11y_phone):
    page = a11y_phone
    page.goto("/check/?a=9H+9D&b=10S")
    picks = page.locator(".pick")
    expect(picks).to_have_count(52)
    for index in range(52):
        pick = picks.nth(index)
        name = pick.evaluate("b => b.querySelector('.visually-hidden').textContent.trim()")
        shown = pick.locator("[aria-hidden=true]").first.inner_text()
        assert CARD_NAME.match(name), f"{name!r} does not say the card and its suit"
        symbol = next(symbol for symbol in SUITS if symbol in shown)
        assert SUITS[symbol] in name, f"{shown!r} is named {name!r}"
    expect(page.get_by_role("button", name="9 of hearts, in hand A")).to_be_visible()
    expect(page.get_by_role("button", name="jack of spades", exact=True)).to_be_visible()
    # The cards shown with each hand's name: a symbol to see, a word to hear.
    for card in page.locator(".hand-cards .card").all():
        spoken = card.locator(".visually-hidden").inner_text()
        shown = card.locator("[aria-hidden=true]").inner_text()
        assert CARD_NAME.match(spoken), spoken
        assert any(symbol in shown and word in spoken for symbol, word in SUITS.items())
    status = page.locator("#hand-a-status")
    expect(status).to_contain_text("9 of hearts")
    expect(status).to_contain_text("9 of diamonds")
    # Red suits aren't told apart from black ones by colour alone: the symbol is always there.
    colours = page.evaluate(
        """() => [...document.querySelectorAll('.pick')].map(b => getComputedStyle(b).color)"""
    )
    assert len(set(colours)) >= 2  # two colours, as well as the symbols checked above


@pytest.mark.parametrize("language", CHINESE)
def test_the_account_pages_pass_axe_in_chinese_light_and_dark(a11y_phone, site, language):
    """Getting back in and one's own account, in Simplified and Traditional Chinese, in both
    schemes."""
    page = a11y_phone
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": site["url"]}]
    )
    problems = []
    for name in account_pages(page, site):
        expect(page.locator("html")).to_have_attribute("lang", language)
        where = f"{name} ({language}, {page.color_scheme})"
        problems += serious_violations(page, where)
        problems += [f"{where}: {problem}" for problem in small_targets(page)]
    assert not problems, "In Chinese:\n" + "\n".join(problems)


@pytest.mark.parametrize("language", CHINESE)
def test_the_chinese_pages_pass_axe_and_keep_44_px_targets(browser, live_server, site, language):
    """The same checks in Simplified and Traditional Chinese: longer or shorter words mustn't
    break a page."""
    page = open_phone(browser, live_server)
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": site["url"]}]
    )
    problems = []

    def check(name: str) -> None:
        expect(page.locator("html")).to_have_attribute("lang", language)
        problems.extend(serious_violations(page, f"{name} ({language})"))
        problems.extend(f"{name} ({language}): {problem}" for problem in small_targets(page))

    page.goto(f"/join/{site['other_club'].invite_token}/")
    check("join, signed out")
    log_in(page, site["sam"], site["url"])
    for name, address in (
        ("home", "/"),
        ("checker with a verdict", "/check/?a=3H+5H+6H+7H+9H&b=4C+5D+6S+7C+8D"),
        ("split a hand, a way per goal", f"/split/?hand={SPLIT_HAND}"),
        ("game", f"/games/{site['playing'].pk}/"),
        ("finished game, Play again", f"/games/{site['finished'].pk}/"),
        ("new game, same players as last time", f"/clubs/{site['club'].pk}/games/new/?same=1"),
        ("standings", f"/seasons/{site['season'].pk}/"),
        ("club", f"/clubs/{site['club'].pk}/"),
    ):
        page.goto(address)
        if name in ("game", "club"):  # with the share panel's QR code open
            page.locator(".share-qr summary").click()
            expect(page.locator(".qr-code")).to_be_visible()
        check(name)
        if name == "checker with a verdict":
            expect(page.locator(".verdict h2")).to_have_text(A_BEATS_B[language])
        screenshot(page, re.sub(r"\W+", "-", f"{name} {language}"))
    for name in error_pages(page, site):
        expect(page.locator("html")).to_have_attribute("lang", language)
        problems += serious_violations(page, f"{name} ({language})")
        problems += [f"{name} ({language}): {problem}" for problem in small_targets(page)]
    page.context.close()
    assert not problems, "In Chinese:\n" + "\n".join(problems)


@pytest.mark.parametrize("language", CHINESE)
def test_the_club_and_roster_pages_pass_axe_in_chinese_in_light_and_dark(
    a11y_phone, site, language
):
    """The members, history and roster pages in Simplified and Traditional Chinese, in both
    colour schemes: axe-core and 44 px targets (English is walked by the tests above)."""
    page = a11y_phone
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": site["url"]}]
    )
    problems = []
    for name in club_pages(page, site):
        expect(page.locator("html")).to_have_attribute("lang", language)
        where = f"{name} ({language}, {page.color_scheme})"
        problems += serious_violations(page, where)
        problems += [f"{where}: {problem}" for problem in small_targets(page)]
    assert not problems, "In Chinese:\n" + "\n".join(problems)


_LUMINANCE_JS = """
element => {
  const [r, g, b] = getComputedStyle(element).backgroundColor.match(/[\\d.]+/g).map(Number);
  const channel = (c) => (c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}
"""


def test_the_header_is_dark_in_the_dark_colour_scheme(browser, live_server):
    """A bright green bar on a dark page glares at a dim card table."""
    page = open_phone(browser, live_server, "dark")
    page.goto("/")
    header = page.evaluate(_LUMINANCE_JS.join(["(", ")(document.querySelector('.site-header'))"]))
    body = page.evaluate(_LUMINANCE_JS.join(["(", ")(document.body)"]))
    assert header < 0.06, f"the header's luminance is {header:.2f} in the dark scheme"
    assert header > body  # still a bar apart from the page
    page.context.close()


def test_a_page_is_scanned_once_its_stylesheet_has_come(browser, live_server, site):
    """A form sent, the next page's HTML is in before its stylesheet (the site's scripts are
    deferred, so nothing holds the parser): scanned then, every target looks 17 px tall. The
    checks wait for the page to load, and scan it as its user sees it."""
    # No service worker: it would ask for the stylesheet itself, past the page's route.
    context = browser.new_context(viewport=PHONE, base_url=live_server.url, service_workers="block")
    page = context.new_page()
    held = []

    def stylesheet(route) -> None:
        if holding:
            held.append(route)
        else:
            route.continue_()

    holding = False
    page.route("**/css/site.css", stylesheet)
    network = context.new_cdp_session(page)
    network.send("Network.setCacheDisabled", {"cacheDisabled": True})  # each page asks for it
    log_in(page, site["sam"], site["url"])
    page.goto("/accounts/password/")
    holding = True
    submit(page)
    expect(page.locator(".errorlist").first).to_be_visible()
    page.set_default_timeout(2_000)  # the stylesheet is held: the scans wait for it
    with pytest.raises(PlaywrightTimeoutError):
        serious_violations(page, "change password, refused")
    with pytest.raises(PlaywrightTimeoutError):
        small_targets(page)
    page.set_default_timeout(10_000)
    holding = False
    for route in held:
        route.continue_()
    problems = serious_violations(page, "change password, refused") + small_targets(page)
    page.context.close()
    assert not problems
