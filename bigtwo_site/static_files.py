"""WhiteNoise's middleware for an ASGI server: async as well as sync.

WhiteNoise's own middleware is synchronous only, so under ASGI Django runs it in a thread and
every middleware after it back on the event loop: two hops between the two for every request,
static or not. This one looks a static file up as WhiteNoise does (a dict lookup, no I/O), and
passes every other request on without leaving the event loop.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.http import HttpRequest, HttpResponse
from whitenoise.middleware import WhiteNoiseMiddleware


class StaticFilesMiddleware(WhiteNoiseMiddleware):
    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable, *args: object, **kwargs: object) -> None:
        super().__init__(get_response, *args, **kwargs)
        if iscoroutinefunction(get_response):
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> HttpResponse | Awaitable[HttpResponse]:
        if iscoroutinefunction(self):
            return self.__acall__(request)
        return super().__call__(request)

    async def __acall__(self, request: HttpRequest) -> HttpResponse:
        if self.autorefresh:
            static_file = self.find_file(request.path_info)
        else:
            static_file = self.files.get(request.path_info)
        if static_file is not None:
            # Opening the file may wait on the disk: in a thread.
            return await sync_to_async(self.serve)(static_file, request)
        return await self.get_response(request)
