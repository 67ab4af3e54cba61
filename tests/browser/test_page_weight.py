"""Page weight, as a phone on a fresh install receives it: the game page's first load at most
40 KB, recording a deal at most 5 KB (issue 5, "Light").

What is counted is every response the browser gets (the page and its service worker's
precaching alike): its headers as sent plus its body as sent. Two corrections make the test
server send what production sends: in production WhiteNoise serves static files gzipped (the
`.br` and `.gz` files `collectstatic` writes, see STORAGES in settings), while the test server
sends them plain, so each static body is counted at the size WhiteNoise's own compressor makes of
it, when WhiteNoise would use that: brotli where the browser takes it (Chromium asks for it, on
http too), else gzip; and what is compressed of a script or style sheet is the file as
`collectstatic` left it, without its comments (bigtwo_site/static_storage.py). Pages and the
other views are counted as sent (compressed only if the site's middleware compresses them),
but for one thing: against BREACH, Django's GZipMiddleware pads each gzipped answer with 0 to 99
random bytes (in the gzip header's file name), so an answer's size differs from load to load by
up to 99 bytes. Each is counted compressed as the middleware compresses it, with the padding's
average: the same figure every run, and what phones receive on the whole.
The figures are printed and written to test-artifacts/page-weight.txt.
"""

from pathlib import Path

import pytest
from django.conf import settings
from django.middleware.gzip import GZipMiddleware
from django.test import Client
from django.utils.text import compress_string
from playwright.sync_api import expect
from whitenoise.compress import Compressor

from bigtwo_site.static_storage import is_minified_here, minified
from tests.browser.phone import PHONE, hold_the_clock, log_in
from tests.factories import make_club, make_ruled_game, make_user

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.console_errors(
        r"status of 404 \(Not Found\) \(http://[^)]+/favicon\.ico\)",
        reason="the session cookie is handed over on a JSON answer, whose /favicon.ico Chromium"
        " asks for: the site's pages name their icon, and the site serves no /favicon.ico",
    ),
]

# Django's padding of a gzipped answer: randbelow(max_random_bytes) bytes, and a NUL ending them.
MEAN_GZIP_PADDING = round((GZipMiddleware.max_random_bytes - 1) / 2 + 1)
FIRST_LOAD_BUDGET = 40 * 1024
RECORD_DEAL_BUDGET = 5 * 1024
REPORT = Path(__file__).resolve().parents[2] / "test-artifacts" / "page-weight.txt"
COMPRESSOR = Compressor(quiet=True)


def compressed(response, path: str, plain: bytes, sent: int) -> tuple[int, str]:
    """A static file's body as WhiteNoise sends it: its `.br` file to a browser that takes
    brotli, else its `.gz` file, each only where it is worth it (else the plain file)."""
    accepted = response.request.all_headers().get("accept-encoding", "")
    for encoding, squeeze in (
        ("br", Compressor.compress_brotli),
        ("gzip", Compressor.compress_gzip),
    ):
        if encoding == "br" and not (COMPRESSOR.use_brotli and "br" in accepted):
            continue
        data = squeeze(plain)
        if COMPRESSOR.is_compressed_effectively(encoding, path, len(plain), data):
            return len(data), f"{encoding}, {len(plain):,} plain"
    return sent, ""


def static_file(path: str) -> bytes:
    """A static file as collected. Chromium sometimes keeps no body for the tab's icon,
    fetched beside the page: it is read from where the server read it."""
    return (Path(settings.STATIC_ROOT) / path.removeprefix(settings.STATIC_URL)).read_bytes()


def page_body(response, path: str) -> bytes:
    """A page's body as the site sent it, before compression. Chromium keeps none for what the
    service worker fetched to precache (the offline page): that is asked for again, by
    Django's test client (a page anyone may see, the same every time)."""
    return response.body() or Client().get(path).content


class Ledger:
    """Each response of a page load: its URL, and its bytes as production would send them."""

    def __init__(self) -> None:
        self.lines: list[tuple[str, int, int, str]] = []

    def add(self, response) -> None:
        if response.request.method == "OPTIONS" or response.url.startswith("data:"):
            return
        sizes = response.request.sizes()
        body = sizes["responseBodySize"]
        if sizes["responseHeadersSize"] + body <= 0:
            return  # answered from a cache: nothing crossed the network
        path = "/" + response.url.split("/", 3)[3]
        note = ""
        if path.startswith("/static/") and response.status == 200:
            plain = response.body() or static_file(path.split("?")[0])
            if is_minified_here(path.split("?")[0]):
                plain = minified(path.split("?")[0], plain)
            if COMPRESSOR.should_compress(path.split("?")[0]):
                body, note = compressed(response, path, plain, body)
        else:
            encoding = response.headers.get("content-encoding")
            if encoding == "gzip" and response.status == 200:
                # Chromium reports no body size for a service worker's own script, and every
                # other gzipped answer carries its random padding: compressed as the
                # middleware does, with the padding's average.
                body = len(compress_string(page_body(response, path))) + MEAN_GZIP_PADDING
            elif body <= 0 and response.status == 200:
                body = len(response.body())
            note = encoding or ""
        self.lines.append((path, sizes["responseHeadersSize"], body, note))

    @property
    def total(self) -> int:
        return sum(headers + body for _, headers, body, _ in self.lines)

    def table(self, title: str) -> str:
        rows = [f"{title}: {self.total:,} bytes ({self.total / 1024:.1f} KB)"]
        for path, headers, body, note in sorted(self.lines, key=lambda line: -line[2]):
            rows.append(
                f"  {headers + body:>7,}  {path}  (body {body:,}{', ' + note if note else ''};"
                f" headers {headers:,})"
            )
        return "\n".join(rows)


def first_load(browser, live_server, user, game, next_deal: str):
    """The game page loaded on a cold start: no cache, no service worker. Returns the ledger
    of what crossed the network, and the page and its context, still open."""
    # The session cookie is handed over on a JSON answer, which loads nothing else.
    context = browser.new_context(viewport=PHONE, base_url=live_server.url, is_mobile=True)
    landing = context.new_page()
    landing.goto("/api/hands/classify?cards=3D")
    log_in(landing, user, live_server.url)
    landing.close()
    ledger = Ledger()
    context.on("response", ledger.add)
    page = context.new_page()
    page.set_default_timeout(10_000)
    # The page's timers held while it loads: a load that takes over 2 s on a busy machine would
    # count the board's poll, which the test server's declined stream leaves on (a phone served
    # as `make run` or the server layout serves it holds a stream instead).
    hold_the_clock(page)
    page.goto(f"/games/{game.pk}/")
    expect(page.locator(".deal-no")).to_have_text(next_deal)
    # Until the service worker has precached what it keeps and taken over.
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    # The manifest, as Chromium fetches it to offer "Install app".
    with context.expect_event("response", lambda r: r.url.endswith(".webmanifest")):
        context.new_cdp_session(page).send("Page.getAppManifest")
    page.wait_for_load_state("networkidle")
    context.remove_listener("response", ledger.add)
    page.clock.resume()
    return ledger, page, context


def test_the_game_page_and_a_deal_are_within_budget(browser, live_server, site):
    game = site["playing"]
    loaded, page, context = first_load(browser, live_server, site["sam"], game, "Deal 3")

    deal = Ledger()
    context.on("response", deal.add)
    for name, count in zip(("Ann", "Ben", "Cy", "Dee"), (3, 0, 7, 9), strict=True):
        page.get_by_label(name, exact=True).fill(str(count))
    page.locator("#deal-area").evaluate("element => element.setAttribute('data-stale', '')")
    with page.expect_response(lambda r: r.request.method == "POST") as posted:
        page.get_by_role("button", name="Record deal").click()
    expect(page.locator("#deal-area")).not_to_have_attribute("data-stale", "")
    expect(page.locator(".deal-no")).to_have_text("Deal 4")
    context.remove_listener("response", deal.add)
    post = Ledger()
    post.add(posted.value)
    context.close()

    report = "\n\n".join(
        [
            loaded.table("Game page, first load (cold cache, service worker installing)"),
            post.table("Recording a deal (the htmx POST response)"),
            deal.table("Everything fetched while recording a deal (POST, previews, polls)"),
        ]
    )
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text(report + "\n", encoding="utf-8")
    print("\n" + report)
    assert loaded.total <= FIRST_LOAD_BUDGET, report
    assert post.total <= RECORD_DEAL_BUDGET, report


@pytest.mark.parametrize(
    "rules",
    ["finishing-order", "points-by-hand", "pusoy-dos-scoring,pays-for-table,loser-leads"]
    + ["dragon,twos-double-each,pays-for-table"],
)
def test_the_game_page_is_within_budget_under_every_deal_form(browser, live_server, rules):
    """The deal form's other questions (places and their script, points, the twos of the last
    play, who pays, the dragon) keep the first load within 40 KB too."""
    game = make_ruled_game(rules, club=make_club(make_user("sam")))
    ledger, _, context = first_load(browser, live_server, game.club.owner, game, "Deal 1")
    context.close()
    report = ledger.table(f"Game page under {rules}, first load")
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    with REPORT.open("a", encoding="utf-8") as written:
        written.write("\n" + report + "\n")
    assert ledger.total <= FIRST_LOAD_BUDGET, report
