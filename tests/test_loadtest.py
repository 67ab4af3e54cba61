"""The load and crash scripts, run small: what the clients were told is what the database holds.

They run tools/loadtest.py as the README does, in a subprocess (it makes its own database,
settings and gunicorn), on SQLite with one server. Timings are printed, never asserted.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FAILURES = (
    "lost",
    "doubled",
    "unexpected (doubled)",
    "wrong cards",
    "half-written",
    "gaps",
    "totals wrong",
    "status wrong",
    "history wrong",
    "recompute changes",
    "errors",
)


def run_loadtest(tmp_path: Path, *args: str) -> dict:
    report = tmp_path / "loadtest.json"
    command = [sys.executable, "tools/loadtest.py", *args, "--db", "sqlite", "--json", str(report)]
    finished = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=300, check=False
    )
    assert finished.returncode == 0, finished.stdout[-3000:] + finished.stderr[-3000:]
    return json.loads(report.read_text())


@pytest.mark.slow
def test_scorekeepers_and_viewers_under_load_lose_and_double_nothing(tmp_path):
    summary = run_loadtest(
        tmp_path,
        *("--seconds", "5", "--scorekeepers", "3", "--viewers", "3", "--season-games", "20"),
        *("--bench-seconds", "1", "--bench-threads", "2", "--bench-games", "20"),
    )
    check = summary["check"]
    assert check["told"] > 0
    assert {kind: check[kind] for kind in FAILURES} == dict.fromkeys(FAILURES, 0)
    assert check["deals"] == check["told"]
    assert set(summary["phase_b"]["share_of_ping"]) == {
        "/ping/",
        "poll, no news",
        "game page",
        "record a deal",
        "standings",
    }


@pytest.mark.slow
def test_a_server_killed_mid_load_leaves_every_told_deal_once_and_none_half_written(tmp_path):
    summary = run_loadtest(tmp_path, "crash", "--seconds", "6", "--scorekeepers", "3")
    check = summary["check"]
    assert check["told"] > 0
    assert {kind: check[kind] for kind in FAILURES} == dict.fromkeys(FAILURES, 0)
    assert len(summary["crash"]["kills"]) == 1
