"""The site's settings as a server would load them: in a fresh process, from the environment."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def settings_in_fresh_process(
    script: str, tmp_path: Path, *, prepared: bool = True, **environ: str
) -> subprocess.CompletedProcess:
    """Run `script` (which reads `django.conf.settings`) in a fresh process, as on one machine
    with SQLite and no Redis (the test run's own database, cache and settings left out), with
    DJANGO_VAR_DIR `tmp_path` and `environ` on top; `prepared`, after the set-up step
    (`make setup`'s `python manage.py prepare_var`) has made what the settings read."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("REDIS_URL", "DATABASE_URL", "DJANGO_SETTINGS_MODULE")
    }
    env |= {
        "DJANGO_SETTINGS_MODULE": "bigtwo_site.settings",
        "DJANGO_VAR_DIR": str(tmp_path),
        "DJANGO_SECRET_KEY": "not a secret",
        **environ,
    }
    if prepared:
        prepare_var(env)
    return subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )


def prepare_var(env: dict[str, str]) -> None:
    """The set-up step (`make setup`'s) in `env`: its DJANGO_VAR_DIR made, with what the settings
    read there; CalledProcessError, with what it said, if it refuses."""
    prepare = [sys.executable, "manage.py", "prepare_var"]
    subprocess.run(prepare, cwd=ROOT, env=env, check=True, capture_output=True, text=True)
