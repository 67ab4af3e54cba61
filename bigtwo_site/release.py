"""What names a release of the site: a digest of everything a cached fragment is made from."""

from __future__ import annotations

import hashlib
from pathlib import Path

# The site's own packages, whose code puts together what the templates show.
PACKAGES = ("accounts", "bigtwo_site", "checker", "common", "nights", "rules", "scoring")


def release_digest(root: Path) -> str:
    """A digest of the site's templates, code and compiled translations under `root`: the cache
    keys of a release name it (settings.CACHES), so a page never shows a fragment that an older
    release rendered and left in a shared cache, with that release's markup and wording."""
    files = [
        *root.glob("templates/**/*.html"),
        *root.glob("locale/**/*.mo"),
        *(path for package in PACKAGES for path in (root / package).rglob("*.py")),
    ]
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]
