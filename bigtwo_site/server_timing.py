"""`Server-Timing` on every answer, for the load tool (tools/loadtest): off unless
DJANGO_SERVER_TIMING=1, as it tells anyone how long the server took.

Two measures, in ms: `app`, from the outermost middleware (the whole of Django's handling: every
middleware, the hops to and from the thread synchronous code runs in, the view), and `view`, from
the innermost (the view, with the other middleware's `process_view` and, under ASGI, the wait for
that thread). What a client sees beyond `app` went to the server's event loop, the network and the
client itself.
"""

import time
from collections.abc import Callable

from asgiref.sync import iscoroutinefunction
from django.http import HttpRequest, HttpResponseBase
from django.utils.decorators import sync_and_async_middleware


def timing(metric: str) -> Callable:
    """A middleware adding `<metric>;dur=<ms>` to the answer's Server-Timing."""

    def note(response: HttpResponseBase, started: float) -> HttpResponseBase:
        entry = f"{metric};dur={(time.perf_counter() - started) * 1000:.1f}"
        earlier = response.headers.get("Server-Timing")
        response.headers["Server-Timing"] = f"{earlier}, {entry}" if earlier else entry
        return response

    @sync_and_async_middleware
    def middleware(get_response: Callable) -> Callable:
        # Async under ASGI, so that timing adds no hop to a thread and back.
        if iscoroutinefunction(get_response):

            async def timed_async(request: HttpRequest) -> HttpResponseBase:
                started = time.perf_counter()
                return note(await get_response(request), started)

            return timed_async

        def timed(request: HttpRequest) -> HttpResponseBase:
            started = time.perf_counter()
            return note(get_response(request), started)

        return timed

    return middleware


app_timing = timing("app")  # first in MIDDLEWARE
view_timing = timing("view")  # last
