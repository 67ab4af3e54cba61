"""Hand the request's language (chosen by LocaleMiddleware) to the Django-free engine."""

from collections.abc import Awaitable, Callable

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.http import HttpRequest, HttpResponse
from django.utils.translation import get_language

from rules import i18n


class EngineLanguageMiddleware:
    """Card names, play descriptions and verdicts follow the page's language. Both sync and
    async, so an ASGI server runs it without a hop between the two."""

    sync_capable = True
    async_capable = True

    def __init__(
        self, get_response: Callable[[HttpRequest], HttpResponse | Awaitable[HttpResponse]]
    ) -> None:
        self.get_response = get_response
        if iscoroutinefunction(get_response):
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> HttpResponse | Awaitable[HttpResponse]:
        if iscoroutinefunction(self):
            return self.__acall__(request)
        token = i18n.set_language(get_language() or i18n.DEFAULT_LANGUAGE)
        try:
            return self.get_response(request)
        finally:
            i18n.reset_language(token)

    async def __acall__(self, request: HttpRequest) -> HttpResponse:
        token = i18n.set_language(get_language() or i18n.DEFAULT_LANGUAGE)
        try:
            return await self.get_response(request)
        finally:
            i18n.reset_language(token)
