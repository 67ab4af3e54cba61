"""The WebKit suite's server takes each option of `make run`'s (no browser needed)."""

from tests.servers import SERVER_COMMAND
from tests.webkit.server import ThreadedSite

# Each of `make run`'s options, as the uvicorn.Config attribute and value it sets.
AS_CONFIG = {
    "--lifespan off": ("lifespan", "off"),
    "--no-proxy-headers": ("proxy_headers", False),
    "--no-server-header": ("server_header", False),
}
# Those it sets otherwise on purpose: stopped, it is gone at once, as a server that falls over.
SET_OTHERWISE = {
    "--timeout-graceful-shutdown 3": ("timeout_graceful_shutdown", 0),
}


def test_the_suite_s_server_is_started_with_make_run_s_options():
    options = " ".join(SERVER_COMMAND[SERVER_COMMAND.index("bigtwo_site.asgi:application") + 1 :])
    config = ThreadedSite().config()
    for option, (name, value) in (AS_CONFIG | SET_OTHERWISE).items():
        assert option in options
        assert getattr(config, name) == value, option
        options = options.replace(option, "")
    assert options.split() == [], "an option of make run's that tests/webkit/server.py lacks"
