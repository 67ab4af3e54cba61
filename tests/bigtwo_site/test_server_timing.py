"""The load tool's Server-Timing (bigtwo_site/server_timing.py): off unless asked for."""

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import AsyncClient

from tests.fresh_settings import prepare_var


def metrics(header: str) -> dict[str, float]:
    return {name: float(ms) for name, _, ms in (e.partition(";dur=") for e in header.split(", "))}


@pytest.fixture
def timed(settings):
    """The middleware as DJANGO_SERVER_TIMING=1 puts it: outermost and innermost."""
    middleware = ["bigtwo_site.server_timing.app_timing", *settings.MIDDLEWARE]
    settings.MIDDLEWARE = [*middleware, "bigtwo_site.server_timing.view_timing"]


def test_answers_say_nothing_of_their_timing_by_default(client):
    assert "Server-Timing" not in client.get("/ping/").headers


def test_each_answer_gives_the_whole_handling_and_the_views_time(timed, client):
    timings = metrics(client.get("/ping/").headers["Server-Timing"])
    assert set(timings) == {"app", "view"}
    assert timings["app"] >= timings["view"] >= 0


def test_under_asgi_too(timed):
    answer = asyncio.run(AsyncClient().get("/ping/"))
    assert set(metrics(answer.headers["Server-Timing"])) == {"app", "view"}


def test_the_environment_variable_puts_it_outermost_and_innermost(tmp_path):
    """As the load tool starts its servers: DJANGO_SERVER_TIMING=1."""
    show = "import django; django.setup(); from django.conf import settings as s;"
    show += " print(s.MIDDLEWARE[0], s.MIDDLEWARE[-1])"
    env = os.environ | {"DJANGO_SERVER_TIMING": "1", "DJANGO_VAR_DIR": str(tmp_path)}
    env |= {"DJANGO_SETTINGS_MODULE": "bigtwo_site.settings"}
    prepare_var(env)
    printed = subprocess.run(
        [sys.executable, "-c", show],
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert printed == [
        "bigtwo_site.server_timing.app_timing",
        "bigtwo_site.server_timing.view_timing",
    ]
