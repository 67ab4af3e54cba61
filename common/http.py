"""Request typing and middleware shared by the apps (both import it; it imports neither)."""

from collections.abc import Callable
from functools import wraps
from http import HTTPStatus
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import resolve_url
from django.utils.deprecation import MiddlewareMixin
from django_htmx.http import HttpResponseClientRedirect
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def login_required_in_the_background(
    view: Callable[..., HttpResponse],
) -> Callable[..., HttpResponse]:
    """`login_required` for a view htmx asks in the background (a penalty preview): for a phone
    whose session ended meanwhile, nothing (204), not a trip to the login page, which would take
    away what is being typed on the page. Asked as a page, the login page as usual."""
    protected = login_required(view)

    @wraps(view)
    def wrapper(request: HtmxHttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        if request.htmx and not request.user.is_authenticated:
            return HttpResponse(status=HTTPStatus.NO_CONTENT)
        return protected(request, *args, **kwargs)

    return wrapper


class HtmxLoginRedirectMiddleware(MiddlewareMixin):
    """Send htmx requests that need a login to the login page as a whole page, to come back to
    the page the phone showed.

    htmx follows redirects inside its request, so a session that ran out mid-game would
    otherwise swap the login form into the middle of the scoreboard. And the login page's
    `next` is the page (htmx's HX-Current-URL, if it is this site's), not the request: a poll's
    or a penalty preview's address is a fragment, and a preview's carries the form's fields.
    """

    def process_response(self, request: HtmxHttpRequest, response: HttpResponse) -> HttpResponse:
        login_path = resolve_url(settings.LOGIN_URL)
        location = response.get("Location", "")
        if request.htmx and response.status_code == 302 and location.startswith(login_path):
            page = request.htmx.current_url_abs_path
            if page is not None:
                location = f"{login_path}?{urlencode({REDIRECT_FIELD_NAME: page})}"
            return HttpResponseClientRedirect(location)
        return response


class IdConverter:
    """A row's id in an address (`<id:game_id>`): digits that fit the database's 64-bit ids.
    Eighteen always do; a longer number is no address of the site's (404), where Django's
    `int` would hand the database a number it can't hold."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)
