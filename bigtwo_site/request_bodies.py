"""A request's body, bounded on every address and refused by its length before it is read.

The bound is settings.REQUEST_MAX_BYTES, and on the import page a score file of
settings.IMPORT_MAX_BYTES with REQUEST_MAX_BYTES more for the form's other fields (as nginx's
`client_max_body_size` in docs/deploying.md). Past it, the answer is 413 with templates/413.html,
which says what the bound is, and nothing is read or saved.

Two pieces, one for each kind of server:

- `BoundedBodies` wraps the ASGI application `make run` serves. Django's ASGI handler reads the
  whole body, spooling it to a temporary file, before any middleware or view runs, so the check
  can't wait for Django: a body whose Content-Length is past the bound is never asked of the
  server (and the client never gets its "100 Continue"), and one sent chunked, with no length, is
  counted as it arrives and cut off at the bound. Either way Django is handed an empty body and
  `OVER_LIMIT` in the request's scope, and the answer closes the connection, so the server stops
  reading what is left.
- The middleware `body_limit_answer` gives the answer: under ASGI for a request the wrapper
  marked, and under WSGI (gunicorn, runserver, the test client), where the body is read only when
  asked for, for one whose CONTENT_LENGTH is past the bound, before anything reads the form.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from asgiref.sync import iscoroutinefunction, sync_to_async
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import Resolver404, resolve
from django.utils.decorators import sync_and_async_middleware

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApplication = Callable[[Scope, Receive, Send], Awaitable[None]]

# The scope's mark of a request whose body was cut off at the bound.
OVER_LIMIT = "bigtwo_site.body_over_limit"
IMPORT_PAGE = "scoring:import-scores"
BODY_ENDS = {"type": "http.request", "body": b"", "more_body": False}


def is_import_page(path_info: str) -> bool:
    try:
        return resolve(path_info).view_name == IMPORT_PAGE
    except Resolver404:
        return False


def body_limit(path_info: str) -> int:
    """The most bytes a request's body may hold at `path_info`."""
    if is_import_page(path_info):
        return settings.IMPORT_MAX_BYTES + settings.REQUEST_MAX_BYTES
    return settings.REQUEST_MAX_BYTES


def over_limit(size: int, path_info: str) -> bool:
    """Whether `size` bytes of body is past the bound at `path_info` (the address is looked at
    only past REQUEST_MAX_BYTES, the bound everywhere)."""
    return size > settings.REQUEST_MAX_BYTES and size > body_limit(path_info)


def declared_length(headers: list[tuple[bytes, bytes]]) -> int | None:
    """The Content-Length the request declares; None without one (a chunked body). The server
    has already refused a malformed one."""
    for name, value in headers:
        if name.lower() == b"content-length" and value.strip().isdigit():
            return int(value)
    return None


class BoundedBodies:
    """ASGI middleware: the application is never handed more body than the bound allows."""

    def __init__(self, application: ASGIApplication) -> None:
        self.application = application

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.application(scope, receive, send)
            return
        request = BoundedRequest(scope, receive, send)
        try:
            await self.application(scope, request.receive, request.send)
        finally:
            request.answered.set()


class BoundedRequest:
    """One request's body, counted on its way to the application."""

    def __init__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.scope, self.server_receive, self.server_send = scope, receive, send
        self.path_info = scope["path"].removeprefix(scope.get("root_path", "")) or "/"
        self.length = declared_length(scope.get("headers", []))
        self.received = 0
        self.answered = asyncio.Event()
        self.body_ended = False
        if self.length is not None and over_limit(self.length, self.path_info):
            self.refuse()

    def refuse(self) -> None:
        self.scope[OVER_LIMIT] = True

    @property
    def refused(self) -> bool:
        return bool(self.scope.get(OVER_LIMIT))

    async def receive(self) -> Message:
        if self.refused:
            # The body ends here for the application; what the client still sends is never
            # asked for. Asked again (Django listens for the client hanging up), it hears that
            # once the answer has gone.
            if not self.body_ended:
                self.body_ended = True
                return dict(BODY_ENDS)
            await self.answered.wait()
            return {"type": "http.disconnect"}
        message = await self.server_receive()
        if message["type"] == "http.request" and self.length is None:
            self.received += len(message.get("body", b""))
            if over_limit(self.received, self.path_info):
                self.refuse()
                self.body_ended = True
                return dict(BODY_ENDS)
        return message

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.start" and self.refused:
            # The server closes the connection after the answer instead of reading the rest
            # of the body to get to a next request. (Under WSGI, where the application may not
            # name hop-by-hop headers, the server does what it does with a body left unread.)
            message = {**message, "headers": [*message.get("headers", []), CLOSE]}
        await self.server_send(message)
        if message["type"] == "http.response.body" and not message.get("more_body", False):
            self.answered.set()


CLOSE = (b"connection", b"close")


@sync_and_async_middleware
def body_limit_answer(get_response: Callable) -> Callable:
    """Answer a request whose body is past its bound with 413 and templates/413.html, before
    the view, CSRF or anything else reads the form. Async under an ASGI server, so that it adds
    no hop to a thread and back."""
    if iscoroutinefunction(get_response):

        async def bounded_async(request: HttpRequest) -> HttpResponse:
            if body_too_long(request):
                # The page names the signed-in account: read in a thread, as Django reads it.
                return await sync_to_async(too_much)(request)
            return await get_response(request)

        return bounded_async

    def bounded(request: HttpRequest) -> HttpResponse:
        return too_much(request) if body_too_long(request) else get_response(request)

    return bounded


def body_too_long(request: HttpRequest) -> bool:
    """Marked so by `BoundedBodies`, or (under WSGI) declared so by its length."""
    if getattr(request, "scope", {}).get(OVER_LIMIT):
        return True
    length = request.META.get("CONTENT_LENGTH") or "0"
    # ASCII digits alone (str.isdigit() also takes "²", which int() refuses); a length of more
    # digits than any body could have is too long without reading it as a number.
    if not (length.isascii() and length.isdigit()):
        return False
    return len(length) > 18 or over_limit(int(length), request.path_info)


def too_much(request: HttpRequest) -> HttpResponse:
    import_page = is_import_page(request.path_info)
    most = settings.IMPORT_MAX_BYTES if import_page else settings.REQUEST_MAX_BYTES
    context = {"import_page": import_page, "most": f"{most / 1_000_000:.3g}"}
    return render(request, "413.html", context, status=413)
