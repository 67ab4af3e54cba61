"""What makes the site installable: the web app manifest, the service worker, the offline page.

The manifest and the service worker are rendered by views, not served as static files, because
both must name static files by their deployed (hashed) URLs, and the service worker must live
at the site root to control every page.

The worker keeps game pages for opening offline, and each is the account's it was made for:
every whole page names, in `ACCOUNT_HEADER`, the account it was made for (a digest, or "-" for
nobody signed in; `SignedInAsMiddleware`), and so does a game page in its HTML (`signed_in_as`,
a context processor), for the copy of itself it keeps once a deal waits offline. The worker
notes the account the network last named, empties what it kept when that changes (however the
session changed hands), and shows a copy only to the account it was made for: a tab another
account left open never leaves its game to the one signed in now.
"""

import hashlib
import json
import re
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import HashedFilesMixin, staticfiles_storage
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import get_template, render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.crypto import salted_hmac
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.csp import csp_override
from django.views.decorators.http import require_GET
from django_htmx.jinja import htmx_script

from bigtwo_site.static_storage import minified

ACCOUNT_HEADER = "X-Signed-In-As"
THEME_COLOR = "#0b5d3b"  # card-table green, as in the icons and the favicon
BACKGROUND_COLOR = "#0b5d3b"
OFFLINE_TEMPLATES = ["pwa/offline.html", "base.html"]

# Static files every page needs, so the offline page looks right with no network at all.
# htmx is added from django-htmx itself (see htmx_urls), so this stays true across upgrades.
PRECACHED_STATIC = [
    "css/site.css",
    "js/register-sw.js",
    "img/favicon.svg",
]


def htmx_urls() -> list[str]:
    """The script URLs `{% htmx_script %}` (as base.html uses it) renders, e.g. htmx-2.min.js."""
    return re.findall(r'src="([^"]+)"', htmx_script())


def precached_urls() -> list[str]:
    return [*(static(path) for path in PRECACHED_STATIC), *htmx_urls()]


def cache_version(urls: list[str]) -> str:
    """A short digest that changes whenever a precached file or the offline page changes.

    With the manifest storage used in deployment, the hashed URLs already change with the
    files' contents. Plain storage (tests, development) keeps the same names, so there the
    contents themselves go into the digest. The offline page is cached too, so its templates
    count as well.
    """
    names_carry_hashes = isinstance(staticfiles_storage, HashedFilesMixin)
    digest = hashlib.sha256()
    for url in urls:
        digest.update(url.encode())
        if names_carry_hashes:
            continue
        if found := finders.find(url.removeprefix(settings.STATIC_URL)):
            digest.update(Path(found).read_bytes())
    for name in OFFLINE_TEMPLATES:
        digest.update(get_template(name).template.source.encode())
    return digest.hexdigest()[:12]


# JSON, never a document: a policy for scripts or frames has nothing to govern in it, and its
# bytes are part of the game page's first load (tests/browser/test_page_weight.py).
@csp_override({})
@xframe_options_exempt
@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    data = {
        "id": "/",
        "name": "Big Two table companion",
        "short_name": "Big Two",
        "description": (
            "Keep the score of Big Two played with real cards, and settle which hand beats "
            "which, from a phone at the table."
        ),
        "lang": "en",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "categories": ["games", "utilities"],
        "icons": [
            {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": static("icons/maskable-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
    }
    response = JsonResponse(data, content_type="application/manifest+json")
    # It names hashed icon URLs, which change with a deploy.
    patch_cache_control(response, no_cache=True)
    return response


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    urls = precached_urls()
    config = {
        "version": cache_version(urls),
        "staticPrefix": settings.STATIC_URL,
        "offlineUrl": reverse("offline"),
        "precache": urls,
        # Game pages are kept for opening offline, each for the account it was made for, and
        # shown only to the account signed in: a page for another throws them away, and so does
        # sending any of the forms that change who is signed in.
        "gamePage": r"^/games/\d+/$",
        "accountHeader": ACCOUNT_HEADER,
        "accountChanges": [
            reverse("login"),
            reverse("logout"),
            reverse("signup"),
            reverse("account-delete"),
        ],
    }
    # Served without its comments, as the static scripts are (bigtwo_site/static_storage.py):
    # a phone downloads it with the game page's first load.
    script = render_to_string("pwa/sw.js", {"config": json.dumps(config)}, request=request)
    response = HttpResponse(minified("sw.js", script.encode()), content_type="text/javascript")
    # Browsers look for a new service worker on each visit; revalidating costs one request.
    patch_cache_control(response, no_cache=True)
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    return render(request, "pwa/offline.html")


def signed_in_as(user_id: object) -> str:
    """Whom a page was made for, as the service worker compares it: a digest of the account's
    id (which tells nothing of the account), or "-" for nobody signed in."""
    if not user_id:
        return "-"
    digest = salted_hmac("bigtwo_site.pwa.signed_in_as", str(user_id), algorithm="sha256")
    return digest.hexdigest()[:20]


def page_made_for(request: HttpRequest) -> str:
    """`signed_in_as` of the account signed in for `request`, as its session says."""
    return signed_in_as(request.session.get(SESSION_KEY))


def signed_in_as_context(request: HttpRequest) -> dict[str, Callable[[], str]]:
    """`signed_in_as` for the templates: whom the page is made for, as `ACCOUNT_HEADER` says it.
    A callable, which a template calls where it uses it: the session is read only there (an
    error page may have none)."""
    return {"signed_in_as": partial(page_made_for, request)}


def names_its_account(request: HttpRequest, response: HttpResponse) -> bool:
    """A whole page, which the worker may keep or show in place of one: not an htmx part."""
    return (
        request.method == "GET"
        and "HX-Request" not in request.headers
        and response.get("Content-Type", "").startswith("text/html")
    )


class SignedInAsMiddleware:
    """Name, on every whole page, the account it was made for (`ACCOUNT_HEADER`), from the
    session. Both sync and async, so an ASGI server runs it without a hop between the two."""

    sync_capable = True
    async_capable = True

    def __init__(
        self, get_response: Callable[[HttpRequest], HttpResponse | Awaitable[HttpResponse]]
    ) -> None:
        self.get_response = get_response
        if iscoroutinefunction(get_response):
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> HttpResponse | Awaitable[HttpResponse]:
        if iscoroutinefunction(self):
            return self.__acall__(request)
        response = self.get_response(request)
        if names_its_account(request, response):
            response[ACCOUNT_HEADER] = page_made_for(request)
        return response

    async def __acall__(self, request: HttpRequest) -> HttpResponse:
        response = await self.get_response(request)
        if names_its_account(request, response):
            response[ACCOUNT_HEADER] = signed_in_as(await request.session.aget(SESSION_KEY))
        return response
