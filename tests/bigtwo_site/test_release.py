"""A release's cache keys (bigtwo_site/release.py): fragments an older release rendered and left
in a shared cache are never shown by the next."""

import shutil
import tomllib
from pathlib import Path

from django.conf import settings

from bigtwo_site.release import PACKAGES, release_digest

SOURCE = Path(settings.BASE_DIR)


def a_release(root: Path) -> Path:
    """A copy of what a release's digest reads: the templates, code and translations."""
    shutil.copytree(SOURCE / "templates", root / "templates")
    shutil.copytree(SOURCE / "locale", root / "locale")
    shutil.copytree(SOURCE / "scoring", root / "scoring")
    return root


def test_a_changed_template_code_or_translation_is_another_release(tmp_path):
    root = a_release(tmp_path)
    first = release_digest(root)
    assert release_digest(root) == first
    changes = [
        root / "templates" / "scoring" / "_board_delta.html",
        root / "scoring" / "presenters" / "board.py",
        next((root / "locale").rglob("*.mo")),
    ]
    seen = {first}
    for changed in changes:
        changed.write_bytes(changed.read_bytes() + b"\n")
        seen.add(release_digest(root))
    assert len(seen) == 1 + len(changes)


def test_a_file_moved_is_another_release(tmp_path):
    root = a_release(tmp_path)
    first = release_digest(root)
    (root / "templates" / "scoring" / "_board_delta.html").rename(
        root / "templates" / "scoring" / "_moved.html"
    )
    assert release_digest(root) != first


def test_the_sites_cache_keys_name_the_release_and_its_channels_the_database_alone():
    release = release_digest(SOURCE)
    assert f"{settings.CACHE_PREFIX}-{release}" == settings.CACHE_KEY_PREFIX
    assert release not in settings.CACHE_PREFIX


def test_every_package_of_the_site_is_read():
    """A package left out could change what a cached fragment shows without a new release."""
    pyproject = tomllib.loads((SOURCE / "pyproject.toml").read_text(encoding="utf-8"))
    site_packages = pyproject["tool"]["importlinter"]["root_packages"]  # the import contracts'
    assert sorted(PACKAGES) == sorted(site_packages)
