"""Static files as production serves them: hashed names, compressed, and scripts without their
comments.

The scripts are written for the next engineer, with comments on why they do what they do; a
phone on a fresh install downloads them all before it can keep score (the game page's first
load has a 40 KB budget, tests/browser/test_page_weight.py). rjsmin takes the comments and
spacing out as `collectstatic` copies each script, before it is hashed and compressed, so the
names and the `.br`/`.gz` copies are of what is served. Already minified files (`.min.js`,
htmx) are left as they are.
"""

from __future__ import annotations

import rjsmin
from django.core.files.base import ContentFile
from whitenoise.storage import CompressedManifestStaticFilesStorage


def is_minified_here(name: str) -> bool:
    return name.endswith(".js") and not name.endswith(".min.js")


def minified(script: bytes) -> bytes:
    return rjsmin.jsmin(script.decode(), keep_bang_comments=True).encode()


class MinifiedScriptsStorage(CompressedManifestStaticFilesStorage):
    def _save(self, name, content):
        if is_minified_here(name):
            # chunks() starts from the beginning: the hashing has already read the file once.
            content = ContentFile(minified(b"".join(content.chunks())))
        return super()._save(name, content)
