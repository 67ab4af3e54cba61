"""The settings of the streams' server in the server layout (deploy/bigtwo-streams.service):
the site's own, with only the middleware a game's stream uses.

Under ASGI, Django runs each hook of a synchronous middleware (every one of its own) through a
hop to a thread and back, and the site's stack has about twenty of them. nginx sends this server
the games' streams alone (deploy/nginx-site.conf). A stream needs only its security headers, its
compression (a deal's delta is a few kilobytes of HTML), the session and account it is opened
with and its language; and should anything else reach this server, the CSRF check. The pages'
server (gunicorn) and `make run`, which serve everything, keep the whole stack."""

from bigtwo_site.settings import *  # noqa: F403 (all the site's settings, then those that differ)
from bigtwo_site.settings import MIDDLEWARE

STREAM_MIDDLEWARE = frozenset(
    {
        "django.middleware.security.SecurityMiddleware",
        "django.middleware.gzip.GZipMiddleware",
        "django.contrib.sessions.middleware.SessionMiddleware",
        "django.middleware.locale.LocaleMiddleware",
        "checker.middleware.engine_language",
        "django.middleware.csrf.CsrfViewMiddleware",
        "django.contrib.auth.middleware.AuthenticationMiddleware",
    }
)
# In the site's order, which they depend on: the session before the language chosen in it and
# the account signed in with it. The load tool's timings (DJANGO_SERVER_TIMING) stay too.
MIDDLEWARE = [
    name
    for name in MIDDLEWARE
    if name in STREAM_MIDDLEWARE or name.startswith("bigtwo_site.server_timing.")
]
