"""Static files as production serves them: hashed names, compressed, and scripts and style
sheets without their comments.

The scripts and style sheets are written for the next engineer, with comments on why they do
what they do; a phone on a fresh install downloads them all before it can keep score (the game
page's first load has a 40 KB budget, tests/browser/test_page_weight.py). rjsmin and rcssmin
take the comments and spacing out as `collectstatic` copies each file, before it is hashed and
compressed, so the names and the `.br`/`.gz` copies are of what is served. Already minified
files (`.min.js`, htmx) are left as they are.
"""

from __future__ import annotations

import rcssmin
import rjsmin
from django.core.files.base import ContentFile
from whitenoise.storage import CompressedManifestStaticFilesStorage


def is_minified_here(name: str) -> bool:
    return name.endswith((".js", ".css")) and not name.endswith((".min.js", ".min.css"))


def minified(name: str, text: bytes) -> bytes:
    """A script or style sheet called `name`, without its comments and spacing."""
    if name.endswith(".css"):
        return rcssmin.cssmin(text.decode(), keep_bang_comments=True).encode()
    return rjsmin.jsmin(text.decode(), keep_bang_comments=True).encode()


class MinifiedStaticFilesStorage(CompressedManifestStaticFilesStorage):
    def _save(self, name, content):
        if is_minified_here(name):
            # chunks() starts from the beginning: the hashing has already read the file once.
            content = ContentFile(minified(name, b"".join(content.chunks())))
        return super()._save(name, content)
