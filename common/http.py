"""Request typing and middleware shared by the apps (both import it; it imports neither)."""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import resolve_url
from django_htmx.http import HttpResponseClientRedirect
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


class HtmxLoginRedirectMiddleware:
    """Send htmx requests that need a login to the login page as a whole page.

    htmx follows redirects inside its request, so a session that ran out mid-game would
    otherwise swap the login form into the middle of the scoreboard.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.login_path = resolve_url(settings.LOGIN_URL)

    def __call__(self, request: HtmxHttpRequest) -> HttpResponse:
        response = self.get_response(request)
        location = response.get("Location", "")
        if request.htmx and response.status_code == 302 and location.startswith(self.login_path):
            return HttpResponseClientRedirect(location)
        return response
