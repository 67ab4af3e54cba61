"""Hand the request's language (chosen by LocaleMiddleware) to the Django-free engine."""

from collections.abc import Callable

from asgiref.sync import iscoroutinefunction
from django.http import HttpRequest, HttpResponse
from django.utils.decorators import sync_and_async_middleware
from django.utils.translation import get_language

from rules import i18n


def pages_language() -> str:
    return get_language() or i18n.DEFAULT_LANGUAGE


@sync_and_async_middleware
def engine_language(get_response: Callable) -> Callable:
    """Card names, play descriptions and verdicts follow the page's language. Async under an
    ASGI server, so that it adds no hop to a thread and back."""
    if iscoroutinefunction(get_response):

        async def in_the_pages_language_async(request: HttpRequest) -> HttpResponse:
            with i18n.use_language(pages_language()):
                return await get_response(request)

        return in_the_pages_language_async

    def in_the_pages_language(request: HttpRequest) -> HttpResponse:
        with i18n.use_language(pages_language()):
            return get_response(request)

    return in_the_pages_language
