"""What `make run` prints as it starts: nothing that reads like an error. uvicorn asks an
application for its "lifespan" by default, and Django's has none, so every start printed "ASGI
'lifespan' protocol appears unsupported."; each place that starts uvicorn turns the question off.
"""

import re
import shlex
import urllib.request
from types import SimpleNamespace

from tests.servers import ROOT, SERVER_COMMAND, served
from tools.loadtest.servers import Servers


def make_run_command() -> list[str]:
    """The server command of the Makefile's `run` target, its continued lines joined."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8").replace("\\\n", " ")
    recipe = re.search(r"^run:.*?\n((?:\t.*\n)+)", makefile, re.MULTILINE)[1]
    line = next(line for line in recipe.splitlines() if "uvicorn" in line)
    return shlex.split(line)


def test_the_server_starts_without_a_line_about_lifespan(tmp_path):
    with served(tmp_path) as server:
        assert urllib.request.urlopen(server.url("/ping/"), timeout=10).status == 200
    logged = server.logged()
    assert "Application startup complete" in logged or "Uvicorn running" in logged
    assert "lifespan" not in logged
    assert "unsupported" not in logged


def test_every_place_that_starts_uvicorn_starts_it_as_make_run_does(tmp_path):
    """The Makefile's `run`, the tests' server and the load tool's pass the same options: among
    them how long a stopped server waits before it ends its open streams
    (tests/bigtwo_site/test_server_stop.py)."""
    made = make_run_command()
    loaded = Servers(SimpleNamespace(var=tmp_path), 1).command(8000)
    for command in (made, SERVER_COMMAND, loaded):
        options = command[command.index("bigtwo_site.asgi:application") + 1 :]
        assert {"--lifespan", "--no-proxy-headers", "--no-server-header"} <= set(options)
        assert options[options.index("--lifespan") + 1] == "off"
        assert value_of("--timeout-graceful-shutdown", options) == "3"


def value_of(option: str, options: list[str]) -> str | None:
    """The value given to `option` in a command line's options; None without it."""
    return options[options.index(option) + 1] if option in options else None
