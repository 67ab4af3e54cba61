"""The tests whose pages run the collected scripts (the site's application under uvicorn, in the
test's process) first check they are today's: a page with yesterday's script, or none, waited
30 s for a stream that never opened, and said nothing of why."""

import os
import shutil

import pytest

from tests.servers import ROOT, fail_unless_static_collected, stale_static


@pytest.fixture
def collected(tmp_path):
    """static/ as `make static` would leave it: every file copied, none older than its source."""
    copy = tmp_path / "static"
    shutil.copytree(ROOT / "static", copy)
    return copy


def test_files_collected_since_they_changed_are_not_stale(collected):
    assert stale_static(collected) == []


def test_a_file_never_collected_or_collected_before_it_changed_is_stale(collected):
    (collected / "js" / "game-page.js").unlink()
    older = (collected / "css" / "site.css").stat().st_mtime - 60
    os.utime(collected / "css" / "site.css", (older, older))
    assert stale_static(collected) == ["static/css/site.css", "static/js/game-page.js"]


def test_a_test_on_stale_static_files_fails_saying_what_to_run(collected, settings):
    (collected / "js" / "game-page.js").unlink()
    settings.STATIC_ROOT = collected
    with pytest.raises(
        pytest.fail.Exception, match=r"static/js/game-page.js \(and 0 more\).*run `make static`"
    ):
        fail_unless_static_collected()
