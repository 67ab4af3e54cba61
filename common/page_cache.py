"""Whole pages kept rendered, with holes for what each request must get anew.

A page that many requests show alike (the game page between two deals, a season's standings)
is rendered once, with a random marker in each place that can't be shared: the CSRF token, a
form's one-time token, a signed pass. The copy is kept in the `rendered` cache (Redis where
there is one, else files every worker on the machine reads), and every request gets it with each
marker replaced by its own value. Rendering the page is most of its cost; the replacing is a
few string scans, and reading the copy a file read.

Shared rather than in each worker's memory: at a table, the phones that open a version of the
game page are the table's four, each request going to whichever worker is free. In a worker's
own memory a copy served a quarter of them (and a profile of a league night found the game
page rendered again on most loads).

The key must hold everything the page shows (the caller's business: scoring/caching.py builds
them), and a hole's fill must be its value as its place in the page writes it (escaped or
quoted there as the template would have). Markers are hex, which no escaping changes, so a
marker is found wherever the template put it.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.core.cache import caches

from common.shared_cache import one_store

# A hole's value for this request, given what was found of the keys read along with the page.
type Fill = Callable[[Mapping[str, Any]], str]

# Long enough for a quiet table; a change of version makes a new key long before.
PAGE_SECONDS = 15 * 60


def page_with_holes(
    key: str,
    render: Callable[[Mapping[str, str]], tuple[str, str]],
    fills: Mapping[str, Fill],
    read_along: Sequence[str] = (),
) -> str:
    """The page kept under `key`, each hole filled by its `fills` entry, called once for this
    request. If there is none, `render` makes it with a marker for each hole, and says the key
    of what it shows: the page is kept under that one, which is `key` unless what the page
    shows has changed since `key` was made (a newer version; the next request asks for that).

    The keys `read_along`, of the `shared` cache, are read with the page, in the same round
    trip where one Redis holds both, and each fill is given what was found of them (a fill
    that needs a cached value would otherwise make its own trip)."""
    cache = caches["rendered"]
    if one_store("rendered", "shared"):
        found = cache.get_many([key, *read_along])
    else:
        found = cache.get_many([key]) | caches["shared"].get_many(read_along)
    kept = found.pop(key, None)
    # A copy made by other code than this (a deploy since) may have other holes.
    if kept is None or kept[1].keys() != fills.keys():
        markers = {name: secrets.token_hex(16) for name in fills}
        html, shown = render(markers)
        cache.set(shown, (html, markers), PAGE_SECONDS)
    else:
        html, markers = kept
    for name, marker in markers.items():
        if marker in html:
            html = html.replace(marker, fills[name](found))
    return html
