"""The site's settings as a server would load them: in a fresh process, from the environment."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def settings_in_fresh_process(
    script: str, tmp_path: Path, **environ: str
) -> subprocess.CompletedProcess:
    """Run `script` (which reads `django.conf.settings`) in a fresh process, as on one machine
    with SQLite and no Redis (the test run's own database, cache and settings left out), with
    DJANGO_VAR_DIR `tmp_path` and `environ` on top."""
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
    return subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
