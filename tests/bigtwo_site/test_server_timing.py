"""The load tool's Server-Timing (bigtwo_site/server_timing.py): off unless asked for."""

import asyncio

import pytest
from django.test import AsyncClient


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
