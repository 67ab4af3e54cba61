"""Hand the request's language (chosen by LocaleMiddleware) to the Django-free engine."""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.translation import get_language

from rules import i18n


class EngineLanguageMiddleware:
    """Card names, play descriptions and verdicts follow the page's language."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        token = i18n.set_language(get_language() or i18n.DEFAULT_LANGUAGE)
        try:
            return self.get_response(request)
        finally:
            i18n.reset_language(token)
