"""What makes the site installable: the web app manifest, the service worker, the offline page.

The manifest and the service worker are rendered by views, not served as static files, because
both must name static files by their deployed (hashed) URLs, and the service worker must live
at the site root to control every page.
"""

import hashlib
import json
import re
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import HashedFilesMixin, staticfiles_storage
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import get_template
from django.templatetags.static import static
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.csp import csp_override
from django.views.decorators.http import require_GET
from django_htmx.jinja import htmx_script

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
        # Game pages are kept for opening offline; signing in or out throws them away.
        "gamePage": r"^/games/\d+/$",
        "signInOut": [reverse("login"), reverse("logout")],
    }
    response = render(
        request,
        "pwa/sw.js",
        {"config": json.dumps(config, indent=2)},
        content_type="text/javascript",
    )
    # Browsers look for a new service worker on each visit; revalidating costs one request.
    patch_cache_control(response, no_cache=True)
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    return render(request, "pwa/offline.html")
