"""The site's URLs and three that fail on purpose, for the error pages' tests.

Used with `override_settings(ROOT_URLCONF="tests.failing_urls")`: the error pages link the site's
own pages, so those must resolve too. A helper module (neither a test file nor a conftest).
"""

from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.http import HttpRequest, HttpResponse
from django.urls import path

from bigtwo_site.urls import urlpatterns as site_urlpatterns

FAILS = "/test-only/fails/"
REFUSES = "/test-only/refuses/"
BAD_REQUEST = "/test-only/bad-request/"


def fails(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug, on purpose")


def refuses(request: HttpRequest) -> HttpResponse:
    raise PermissionDenied("not for you, on purpose")


def bad_request(request: HttpRequest) -> HttpResponse:
    raise SuspiciousOperation("a forged request, on purpose")


urlpatterns = [
    path(FAILS.strip("/") + "/", fails),
    path(REFUSES.strip("/") + "/", refuses),
    path(BAD_REQUEST.strip("/") + "/", bad_request),
    *site_urlpatterns,
]
