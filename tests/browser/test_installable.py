"""Installable: Chromium at 390x844 finds the manifest and the service worker, and with the
network gone a page shows the offline page instead of the browser's error."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.page_errors import CONSOLE_ERRORS
from tests.browser.phone import CHROMIUM, CHROMIUM_ARGS, PHONE, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def phone_with_profile(browser, live_server, tmp_path):
    """A phone-size page in an ordinary on-disk profile.

    Playwright's usual contexts are off the record, and Chromium never offers to install an
    app from an incognito window: it reports "in-incognito" and nothing else.
    """
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=CHROMIUM,
        args=CHROMIUM_ARGS,
        viewport=PHONE,
        is_mobile=True,
        base_url=live_server.url,
    )
    CONSOLE_ERRORS.watch(context)
    page = context.pages[0] if context.pages else context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def wait_for_service_worker(page) -> None:
    """Until a worker is active; `ready` never settles if none registers, so give up at 10 s."""
    active = page.evaluate(
        """Promise.race([
            navigator.serviceWorker.ready.then(() => true),
            new Promise((resolve) => setTimeout(() => resolve(false), 10000)),
        ])"""
    )
    assert active, "no service worker became active"


def cached_urls(page) -> list[str]:
    return page.evaluate(
        """async () => {
            const urls = [];
            for (const name of await caches.keys()) {
                const cache = await caches.open(name);
                for (const request of await cache.keys()) {
                    urls.push(new URL(request.url).pathname);
                }
            }
            return urls;
        }"""
    )


def test_chromium_reports_the_site_installable(phone_with_profile):
    phone = phone_with_profile
    problems = []

    def note(message) -> None:
        if message.type in ("error", "warning"):
            problems.append(message.text)

    phone.on("console", note)
    phone.on("pageerror", lambda error: problems.append(str(error)))
    phone.goto("/")
    wait_for_service_worker(phone)
    session = phone.context.new_cdp_session(phone)
    manifest = session.send("Page.getAppManifest")
    assert manifest["url"].endswith("/manifest.webmanifest")
    assert not manifest["errors"], manifest["errors"]
    result = session.send("Page.getInstallabilityErrors")
    assert result["installabilityErrors"] == []
    # Nothing the strict CSP refused, no failed registration.
    assert problems == []


def test_offline_a_page_never_visited_shows_the_offline_page(phone):
    phone.goto("/")
    wait_for_service_worker(phone)
    phone.context.set_offline(True)
    phone.goto("/check/")
    # The address stays the page asked for; only what it shows is the offline page.
    expect(phone).to_have_url(re.compile(r"/check/$"))
    expect(phone.get_by_role("heading", level=1)).to_have_text("You're offline")
    expect(phone.get_by_text("Your scores are safe on the server")).to_be_visible()
    # Styled from the cache: site.css came from the service worker, not the network.
    assert phone.evaluate("getComputedStyle(document.body).margin") == "0px"
    expect(phone.get_by_role("link", name="Try again")).to_be_visible()
    screenshot(phone, "offline")

    # Back online, "Try again" loads the page that was asked for.
    phone.context.set_offline(False)
    phone.get_by_role("link", name="Try again").click()
    expect(phone).to_have_url(re.compile(r"/check/$"))
    expect(phone.get_by_role("textbox", name="Hand A")).to_be_visible()


def test_the_worker_caches_static_files_and_the_offline_page_but_no_other_page(phone):
    phone.goto("/")
    wait_for_service_worker(phone)
    phone.goto("/check/")
    phone.reload()
    urls = cached_urls(phone)
    assert "/offline/" in urls
    assert "/static/css/site.css" in urls
    # Besides the files: the offline page, and the note of who is signed in (not a page).
    pages = [url for url in urls if not url.startswith("/static/")]
    assert sorted(pages) == ["/offline/", "/sw/signed-in"]
