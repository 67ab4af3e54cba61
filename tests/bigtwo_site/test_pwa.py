"""The manifest, service worker and offline page that make the site installable."""

import json
import re
import struct
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.test import override_settings

from bigtwo_site.pwa import ACCOUNT_HEADER
from tests.factories import make_club, make_game, make_user, record

pytestmark = pytest.mark.django_db


def png_size(path: str) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk, which always comes first."""
    with open(path, "rb") as png:
        head = png.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    assert head[12:16] == b"IHDR"
    return struct.unpack(">II", head[16:24])


def static_file(url: str) -> str:
    """The file a static URL serves, found where collectstatic would find it."""
    assert url.startswith(settings.STATIC_URL), url
    found = finders.find(url.removeprefix(settings.STATIC_URL))
    assert found, f"no static file for {url}"
    return found


def get_manifest(client) -> dict:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    return json.loads(response.content)


def test_the_manifest_describes_a_standalone_app(client):
    manifest = get_manifest(client)
    assert manifest["name"] == "Big Two table companion"
    assert manifest["short_name"] == "Big Two"
    assert manifest["start_url"] == "/"
    assert manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"] == "#0b5d3b"
    assert manifest["background_color"] == "#0b5d3b"
    assert manifest["description"]


def test_the_manifest_icons_are_pngs_of_the_sizes_they_claim(client):
    icons = get_manifest(client)["icons"]
    by_purpose = {}
    for icon in icons:
        assert icon["type"] == "image/png"
        width, height = (int(n) for n in icon["sizes"].split("x"))
        assert png_size(static_file(icon["src"])) == (width, height)
        by_purpose.setdefault(icon.get("purpose", "any"), set()).add(icon["sizes"])
    assert by_purpose == {"any": {"192x192", "512x512"}, "maskable": {"512x512"}}


def test_the_apple_touch_icon_is_180_pixels_square():
    assert png_size(finders.find("icons/apple-touch-icon.png")) == (180, 180)


def test_the_maskable_icon_fills_its_corners():
    """A launcher may crop it to a circle or a squircle: no transparent corner may show."""
    with open(finders.find("icons/maskable-512.png"), "rb") as png:
        colour_type = png.read(26)[25]
    assert colour_type == 2  # truecolour without alpha: nothing in it can be transparent


def test_the_service_worker_is_served_from_the_root_uncached(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    assert response["Service-Worker-Allowed"] == "/"


def service_worker_config(client) -> dict:
    body = client.get("/sw.js").content.decode()
    start = re.search(r"const CONFIG\s*=\s*", body).end()
    return json.JSONDecoder().raw_decode(body, start)[0]


def test_the_service_worker_precaches_the_static_files_every_page_needs(client):
    config = service_worker_config(client)
    assert config["offlineUrl"] == "/offline/"
    assert config["staticPrefix"] == "/static/"
    precache = config["precache"]
    for name in (
        "css/site.css",
        "js/register-sw.js",
        "django_htmx/htmx-2.min.js",
    ):
        assert f"/static/{name}" in precache
    # The app icons are the browser's to fetch when the site is installed: caching them on
    # every first visit would cost 29 KB of the game page's 40 KB budget.
    assert not [url for url in precache if "/icons/" in url]
    for url in precache:
        static_file(url)


def test_the_cache_version_follows_the_files_contents_under_plain_storage(client, tmp_path):
    before = service_worker_config(client)["version"]
    css = tmp_path / "css" / "site.css"
    css.parent.mkdir()
    css.write_text("body { color: red; }")
    # The same name, found first in an earlier folder, with other contents.
    with override_settings(STATICFILES_DIRS=[tmp_path, *settings.STATICFILES_DIRS]):
        after = service_worker_config(client)["version"]
    assert after != before


def test_with_manifest_storage_the_worker_and_manifest_name_hashed_files(client, tmp_path):
    """As deployed: collectstatic hashes each name, and the worker's cache is named for them."""
    plain_version = service_worker_config(client)["version"]
    storages = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
    }
    with override_settings(STORAGES=storages, STATIC_ROOT=tmp_path):
        call_command("collectstatic", interactive=False, verbosity=0)
        config = service_worker_config(client)
        icons = get_manifest(client)["icons"]
    assert config["version"] != plain_version
    assert not any(url.endswith("/css/site.css") for url in config["precache"])
    for url in [*config["precache"], *(icon["src"] for icon in icons)]:
        hashed_file = tmp_path / url.removeprefix(settings.STATIC_URL)
        assert hashed_file.is_file(), url
        stem = hashed_file.name.split(".")
        assert len(stem) >= 3 and len(stem[-2]) == 12, f"{url} carries no hash"


def test_the_offline_page_says_the_scores_are_safe(client):
    response = client.get("/offline/")
    assert response.status_code == 200
    text = response.content.decode()
    assert "<h1>You're offline</h1>" in text
    assert "Your scores are safe on the server" in text
    assert "Try again" in text


def test_the_offline_page_claims_nobody_is_signed_in_or_out(client):
    """The worker caches it once, fetched without cookies, and shows it to whoever uses the
    phone: "Log in" would be wrong for a signed-in player, "Log out" for a visitor."""
    text = client.get("/offline/").content.decode()
    assert 'href="/clubs/">My clubs</a>' in text
    for link in ('href="/accounts/login/"', 'href="/accounts/signup/"', "/accounts/logout/"):
        assert link not in text


def test_pages_link_the_manifest_and_register_the_worker(client):
    text = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in text
    assert '<meta name="theme-color" content="#0b5d3b">' in text
    assert 'rel="apple-touch-icon" href="/static/icons/apple-touch-icon.png"' in text
    assert 'src="/static/js/register-sw.js" data-service-worker="/sw.js" defer' in text


def test_the_manifest_carries_no_document_policies(client):
    """A JSON file: no CSP or frame header to download with it on the game page's first load."""
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert "Content-Security-Policy" not in response
    assert "X-Frame-Options" not in response


def test_every_whole_page_names_the_account_it_was_made_for(client, django_user_model):
    """What the service worker keeps game pages by (templates/pwa/sw.js): "-" signed out, a
    digest of the account signed in, another for another account, and never the account's id."""
    signed_out = client.get("/check/")["X-Signed-In-As"]
    assert signed_out == "-"
    ann = django_user_model.objects.create_user("ann")
    bo = django_user_model.objects.create_user("bo")
    client.force_login(ann)
    as_ann = client.get("/clubs/")["X-Signed-In-As"]
    assert client.get("/check/")["X-Signed-In-As"] == as_ann
    client.force_login(bo)
    as_bo = client.get("/clubs/")["X-Signed-In-As"]
    assert len({signed_out, as_ann, as_bo}) == 3
    assert as_ann != str(ann.pk) and "ann" not in as_ann


def test_parts_of_pages_and_other_files_name_no_account(client):
    assert "X-Signed-In-As" not in client.get("/check/", headers={"HX-Request": "true"})
    assert "X-Signed-In-As" not in client.get("/manifest.webmanifest")
    assert "X-Signed-In-As" not in client.get("/sw.js")


def test_the_worker_empties_the_kept_pages_on_any_form_that_changes_who_is_signed_in(client):
    changes = service_worker_config(client)["accountChanges"]
    assert changes == [
        "/accounts/login/",
        "/accounts/logout/",
        "/accounts/signup/",
        "/accounts/delete/",
    ]


def test_a_game_page_names_in_itself_the_account_its_header_names(client):
    """The copy of itself a game page keeps offline (static/js/waiting-deals.js) names the
    account the page was made for, as the page's header does for the copy the worker keeps."""
    ann = make_user("ann")
    game = make_game(make_club(ann))
    client.force_login(ann)
    page = client.get(f"/games/{game.pk}/")
    marked = re.search(r'data-signed-in-as="([^"]+)"', page.content.decode())
    assert marked and marked[1] == page["X-Signed-In-As"] != "-"
    # ... under the header's name, for the worker to read it from either.
    assert f'"{ACCOUNT_HEADER}": ' in Path(static_file("/static/js/waiting-deals.js")).read_text()


def test_what_a_page_says_once_is_marked_for_the_worker_to_drop(client):
    """Django's messages on a whole page, and the deal form's notice in its htmx answer, sit
    between the marks the worker drops from a copy it shows offline (templates/pwa/sw.js)."""
    ann = make_user("ann")
    game = make_game(make_club(ann))
    record(game, 0, 1, 2, 3)
    client.force_login(ann)
    values = {"cards_0": "0", "cards_1": "1", "cards_2": "2", "cards_3": "4"}
    changed = client.post(f"/games/{game.pk}/deals/1/edit/", values, follow=True)
    said_once = (
        r'<!--once-->\s*<ul class="messages"[^<]*<li[^>]*>Deal 1 changed\.</li>\s*</ul><!--/once-->'
    )
    assert re.search(said_once, changed.content.decode())
    form = {**values, "cards_3": "3", "number": "2", "token": str(uuid.uuid4())}
    recorded = client.post(f"/games/{game.pk}/deals/", form, headers={"HX-Request": "true"})
    assert (
        '<!--once--><p class="message">Deal 2 recorded.</p><!--/once-->'
        in recorded.content.decode()
    )
