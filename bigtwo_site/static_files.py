"""WhiteNoise's middleware, as it is, for an ASGI server as well as a WSGI one.

WhiteNoise's middleware is synchronous only, so under ASGI Django would run it in a thread and
every middleware after it back on the event loop: two hops between the two for every request,
static or not. Under ASGI this hands WhiteNoise only the addresses under STATIC_URL, where every
file it serves is (the site sets no WHITENOISE_ROOT), in a thread (opening a file may wait on the
disk); every other request goes on without leaving the event loop.
"""

from collections.abc import Callable
from urllib.parse import urlsplit

from asgiref.sync import async_to_sync, iscoroutinefunction, sync_to_async
from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.utils.decorators import sync_and_async_middleware
from whitenoise.middleware import WhiteNoiseMiddleware


def static_prefix() -> str:
    """Where WhiteNoise serves the static files: WHITENOISE_STATIC_PREFIX, which defaults to
    STATIC_URL's path (the site sets no FORCE_SCRIPT_NAME, which WhiteNoise would take off)."""
    prefix = getattr(settings, "WHITENOISE_STATIC_PREFIX", urlsplit(settings.STATIC_URL).path)
    path = prefix.strip("/")
    return f"/{path}/" if path else "/"


@sync_and_async_middleware
def static_files(get_response: Callable) -> Callable:
    if not iscoroutinefunction(get_response):
        return WhiteNoiseMiddleware(get_response)
    # A static address WhiteNoise has no file for goes on through the site (a 404) from the
    # thread, as it would under WSGI.
    whitenoise = sync_to_async(WhiteNoiseMiddleware(async_to_sync(get_response)))
    prefix = static_prefix()

    async def served_async(request: HttpRequest) -> HttpResponseBase:
        if request.path_info.startswith(prefix):
            return await whitenoise(request)
        return await get_response(request)

    return served_async
