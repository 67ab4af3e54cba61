"""Settings for the Big Two table companion.

Everything that differs between a laptop at the table and a club's server comes from the
environment, so the same file serves both. See README.md, "Deploying", for the variables.
"""

import hashlib
import os
import secrets
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

from bigtwo_site.email_url import mailer
from bigtwo_site.environment import (
    env_count,
    env_flag,
    env_list,
    env_megabytes,
    env_redis_url,
)
from bigtwo_site.release import release_digest
from bigtwo_site.var_dir import private_file, private_var_dir

BASE_DIR = Path(__file__).resolve().parent.parent
# Runtime state (the SQLite database, the generated secret key, collected static files) lives
# in var/, which git ignores, so a fresh clone never carries anyone's data or secrets. Only the
# site's user may read it (bigtwo_site/var_dir.py).
VAR_DIR = private_var_dir(Path(os.environ.get("DJANGO_VAR_DIR") or BASE_DIR / "var"))


def generated_secret_key(path: Path) -> str:
    """Read the key kept in var/, creating it on first start.

    Opening with "x" makes creation atomic, so server processes starting together agree on
    one key instead of each writing its own (which would log everyone out at random).
    """
    try:
        with path.open("x", encoding="ascii") as key_file:
            key_file.write(secrets.token_urlsafe(50))
        path.chmod(0o600)
    except FileExistsError:
        pass
    return path.read_text(encoding="ascii").strip()


DEBUG = env_flag("DJANGO_DEBUG")
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY") or generated_secret_key(VAR_DIR / "secret_key")
# "*" by default because `make run` is meant to be opened from a phone on the same Wi-Fi by
# the computer's address, which nobody knows in advance. A public deployment names its hosts.
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "*")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # Before staticfiles, so runserver also serves static files through WhiteNoise.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "axes",
    "common",
    "checker",
    "scoring",
    "accounts",
    "nights",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Directly after SecurityMiddleware: static files skip the rest of the stack.
    "bigtwo_site.static_files.StaticFilesMiddleware",
    # Pages and htmx answers gzipped (WhiteNoise already serves static files compressed).
    # Django pads compressed output with random bytes against BREACH.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After sessions (it reads the chosen language from the cookie set by /i18n/setlang/),
    # before CommonMiddleware, as Django's docs ask.
    "django.middleware.locale.LocaleMiddleware",
    # Hands the request's language to the Django-free rules engine (rules/i18n.py).
    "checker.middleware.EngineLanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Names on each whole page the account it was made for: the service worker keeps game pages
    # for one account (bigtwo_site/pwa.py).
    "bigtwo_site.pwa.SignedInAsMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A request's body past its bound (REQUEST_MAX_BYTES; the import page's), answered 413 before
    # anything reads it (bigtwo_site/request_bodies.py; under ASGI, with bigtwo_site/asgi.py).
    "bigtwo_site.request_bodies.RequestBodyLimitMiddleware",
    "common.http.HtmxLoginRedirectMiddleware",
    # A member asking for an owner's action (scoring.services.NotAllowed): the page that says so.
    "scoring.middleware.RefusalMiddleware",
    # A write that met SQLite's write lock held too long: "busy, send it again", never a 500.
    "scoring.middleware.DatabaseBusyMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]
# The load tool's timings (bigtwo_site/server_timing.py), outermost and innermost: off unless
# asked for, as they tell anyone how long each answer took.
if env_flag("DJANGO_SERVER_TIMING"):
    TIMING = "bigtwo_site.server_timing"
    MIDDLEWARE = [f"{TIMING}.app_timing", *MIDDLEWARE, f"{TIMING}.view_timing"]

AUTHENTICATION_BACKENDS = [
    # First, so a locked-out username and address is refused before any password is checked.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "bigtwo_site.urls"
WSGI_APPLICATION = "bigtwo_site.wsgi.application"
# `make run` serves this one: pages and the games' live streams on one port (bigtwo_site/asgi.py).
ASGI_APPLICATION = "bigtwo_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.account_links",
                "bigtwo_site.pwa.signed_in_as_context",
            ],
        },
    },
]

# Under ASGI each request runs in a thread of its own, so a connection kept for the next request
# would never be used again: each opens its own, on PostgreSQL from psycopg's pool (Django's
# advice for ASGI). A WSGI server's threads live on: the pages' unit has each keep its connection
# (DJANGO_DB_CONN_MAX_AGE seconds), in the pool's place.
database = dj_database_url.config(
    default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
    conn_max_age=env_count("DJANGO_DB_CONN_MAX_AGE", 0, least=0),
    conn_health_checks=True,
)
if database["ENGINE"] == "django.db.backends.postgresql" and not database["CONN_MAX_AGE"]:
    pool_size = int(os.environ.get("DJANGO_DB_POOL_SIZE", "20"))
    database.setdefault("OPTIONS", {})["pool"] = {
        "min_size": 2,
        "max_size": pool_size,
        "timeout": 10,
    }
DATABASES = {"default": database}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Made here, mode 600, before SQLite makes it with the umask's (its -wal and -shm files take
    # the database's mode): it holds password hashes and session keys.
    private_file(Path(DATABASES["default"]["NAME"]))
    DATABASES["default"]["OPTIONS"] = {
        # WAL lets the scoreboard be read while a deal is being written; IMMEDIATE takes the
        # write lock when a transaction starts, so two phones recording at once queue up
        # instead of failing with "database is locked" halfway through. Under ASGI every request
        # has a thread of its own, so a burst of deals can queue for seconds on the one lock.
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"


def database_prefix(database: dict) -> str:
    """A prefix naming the database in use, for every cache key and channel of the site: two
    sites sharing one Redis, or a site and a copy of its database, never read each other's."""
    where = "|".join(str(database.get(part) or "") for part in ("ENGINE", "HOST", "PORT", "NAME"))
    return "bigtwo-" + hashlib.sha256(where.encode()).hexdigest()[:12]


# One cache, Django's own: in the server's memory on one machine (`make run` is one process),
# Redis where several servers share the work. It holds rendered fragments, each under a key
# naming the game or season, its unique key and version (scoring/caching.py), and sessions.
REDIS_URL = env_redis_url()
CACHE_PREFIX = database_prefix(DATABASES["default"])
# The cache's keys name the release as well: after a deploy, no page shows a fragment the last
# release rendered (sessions are read again from the database). The channel layer's don't, so
# that during a deploy the old servers' streams still hear the new servers' changes.
CACHE_KEY_PREFIX = f"{CACHE_PREFIX}-{release_digest(BASE_DIR)}"
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": CACHE_KEY_PREFIX,
            # A Redis that stops answering fails the request in seconds rather than holding it.
            "OPTIONS": {"socket_connect_timeout": 5, "socket_timeout": 5},
        }
    }
    # The games' streams hear of changes made on any server (scoring/live.py).
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                # A stream waits on Redis up to 5 s at a time (channels_redis's BZPOPMIN); the
                # read must outlast that wait, and redis-py's default read timeout is also 5 s.
                "hosts": [
                    {"address": REDIS_URL, "socket_timeout": 15, "socket_connect_timeout": 5}
                ],
                "prefix": CACHE_PREFIX,
            },
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "KEY_PREFIX": CACHE_KEY_PREFIX,
            # Fragments are small and each good only until its game's next change: room for a
            # few thousand tables' boards, the least recently used dropped first.
            "OPTIONS": {"MAX_ENTRIES": 20_000},
        }
    }
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
# Sessions are read from the cache and written through to the database: logging out deletes
# both, and a session dropped from the cache is read again from the database.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

# The games' live streams (scoring/views/streams.py): at most this many open at once per member
# and per client address, each server; one more is refused with 429. A phone opens one per
# game page; an address may be a club's whole Wi-Fi.
STREAMS_PER_MEMBER = int(os.environ.get("DJANGO_STREAMS_PER_MEMBER", "8"))
STREAMS_PER_ADDRESS = int(os.environ.get("DJANGO_STREAMS_PER_ADDRESS", "200"))

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]


# What one request can make the site do (docs/deploying.md, "Limits"). Assume a member may be
# hostile and a club huge: past each bound the request is answered at once with a message that
# names it, and nothing is saved.
# The largest club backup `import_club` restores (docs/backup.md). A club's file grows by about
# 4 MB a hundred games; reading one takes about ten times its size in memory, and on SQLite its
# rows are written holding the one write lock that every deal waits for.
BACKUP_MAX_BYTES = env_megabytes("DJANGO_BACKUP_MAX_MB", 50)
# A request's body, refused by its length before a byte of it is read, on every address but the
# import page's; that one takes a score file of up to IMPORT_MAX_BYTES.
REQUEST_MAX_BYTES = env_megabytes("DJANGO_REQUEST_MAX_MB", 1)
IMPORT_MAX_BYTES = env_megabytes("DJANGO_IMPORT_MAX_MB", 20)
# A gzipped score file unpacked: no more than this, however small the upload.
IMPORT_MAX_UNPACKED_BYTES = env_megabytes("DJANGO_IMPORT_MAX_UNPACKED_MB", 20)
# What one score file may hold. Years of a club's sheets are a few hundred games.
IMPORT_MAX_GAMES = env_count("DJANGO_IMPORT_MAX_GAMES", 1000)
IMPORT_MAX_DEALS = env_count("DJANGO_IMPORT_MAX_DEALS", 20_000)
IMPORT_MAX_PLAYERS = env_count("DJANGO_IMPORT_MAX_PLAYERS", 200)
# A preview lists this many of a file's problems, then says how many more there are.
IMPORT_MAX_PROBLEMS_SHOWN = env_count("DJANGO_IMPORT_MAX_PROBLEMS_SHOWN", 50)
# Previewed files waiting an hour for "Import" (scoring/imports/uploads.py): per account, club, all.
IMPORT_UPLOADS_PER_MEMBER = env_count("DJANGO_IMPORT_UPLOADS_PER_MEMBER", 3)
IMPORT_UPLOADS_PER_CLUB = env_count("DJANGO_IMPORT_UPLOADS_PER_CLUB", 3)
IMPORT_UPLOADS_WAITING = env_count("DJANGO_IMPORT_UPLOADS_WAITING", 50)
# Deals in one game, typed or imported. A real game is a few dozen; the game page, its JSON, CSV
# and score file stay cheap at this many.
GAME_MAX_DEALS = env_count("DJANGO_GAME_MAX_DEALS", 500)

# Repeated failed logins (and sign-ups) lock out that username from that address for a while.
# Attempts are rows in the database, so every app server sees the same count.
AXES_FAILURE_LIMIT = int(os.environ.get("DJANGO_LOGIN_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("DJANGO_LOCKOUT_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False
# Behind proxies the client's address is in X-Forwarded-For: each proxy appends the address it
# was connected from, so with N proxies the client is the Nth entry from the right and anything
# further left is whatever the client wrote. With 0 the header is ignored. client_address()
# reads PROXY_COUNT on each request; it is the one answer for logins and sign-ups alike.
proxy_count_text = os.environ.get("DJANGO_PROXY_COUNT", "0").strip()
if not proxy_count_text.isdecimal():
    raise ImproperlyConfigured(
        f"DJANGO_PROXY_COUNT is {proxy_count_text!r}; set it to how many proxies stand in front "
        "of the server, as a whole number (0 for none)."
    )
PROXY_COUNT = int(proxy_count_text)
AXES_CLIENT_IP_CALLABLE = "common.client_address.client_address"

# Getting back in (README, "Deploying"). A club's owner can always make a member a one-time
# password link; where the site is given a mail server it also mails one to an account's
# address ("Forgot your password?"), and sign-up asks for an optional email. Either link
# works for 24 hours and is spent once the password is set.
PASSWORD_RESET_TIMEOUT = 60 * 60 * 24
EMAIL_URL = os.environ.get("DJANGO_EMAIL_URL", "").strip()
SITE_SENDS_EMAIL = bool(EMAIL_URL)
if SITE_SENDS_EMAIL:
    if "*" in ALLOWED_HOSTS:
        # A reset email links to the host the request named. With "*" anyone could post the
        # form with their own Host header and have the site mail a member a link, with a live
        # token, to the sender's server.
        raise ImproperlyConfigured(
            "DJANGO_EMAIL_URL is set, so the site mails password links: set "
            "DJANGO_ALLOWED_HOSTS to the site's own name (e.g. bigtwo.example.org), which the "
            "links are made with, instead of '*'."
        )
    MAILERS = {"default": mailer(EMAIL_URL)}
    DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL") or (
        f"Big Two <noreply@{next(iter(ALLOWED_HOSTS), 'localhost').lstrip('.')}>"
    )
# Without DJANGO_EMAIL_URL, MAILERS stays undefined: nothing sends mail (Django's checks, and
# `check --deploy`, are content with that, and would not be with a do-nothing backend).
# "Forgot your password?" sends at most this many links an hour to one email address, and asks
# for at most this many an hour from one client address (a club's Wi-Fi may be one); counted in
# the cache, so every server shares the count where they share Redis.
PASSWORD_MAILS_PER_ADDRESS = int(os.environ.get("DJANGO_PASSWORD_MAILS_PER_ADDRESS", "3"))
PASSWORD_MAILS_PER_CLIENT = int(os.environ.get("DJANGO_PASSWORD_MAILS_PER_CLIENT", "10"))

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# English by default, or Simplified or Traditional Chinese as the browser asks (Django's LANG_INFO
# reads zh-CN, zh-SG, zh-MY as zh-hans, zh-TW, zh-HK, zh-MO as zh-hant; a bare "zh" is the first
# here) until the switcher in base.html posts to /i18n/setlang/, whose cookie wins. The compiled
# catalogs locale/*/LC_MESSAGES/django.mo are committed, so running the site needs no gettext.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文"), ("zh-hant", "繁體中文")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Dates each language's way (bigtwo_site/formats/): pages name a format, never a pattern.
FORMAT_MODULE_PATH = ["bigtwo_site.formats"]
TIME_ZONE = os.environ.get("DJANGO_TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "static"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "bigtwo_site.static_storage.MinifiedStaticFilesStorage"},
}

# Content Security Policy: no inline scripts, styles or handlers, nor a nonce: every script is a
# file of the site's, and htmx's indicator <style> is switched off in base.html. What would only
# repeat default-src (connect-src: the site's own fetches and streams) is left to it: the header
# goes with every page, inside the game page's weight budget.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "object-src": [CSP.NONE],
}
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True

# Behind an HTTPS proxy (see README, "Deploying"). Off by default because `make run` serves
# plain HTTP on the local network, where secure-only cookies would make logging in impossible.
if env_flag("DJANGO_HTTPS"):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_flag("DJANGO_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", str(60 * 60 * 24 * 365)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_flag("DJANGO_HSTS_INCLUDE_SUBDOMAINS", True)
    # "preload" in the header only allows a submission to the browsers' preload list; nothing
    # is submitted unless someone does it by hand. `check --deploy` asks for it.
    SECURE_HSTS_PRELOAD = env_flag("DJANGO_HSTS_PRELOAD", True)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # No link's token (a password link's, an invite's, a live view's) reaches a log
    # (bigtwo_site/log_redaction.py).
    "filters": {"redact_tokens": {"()": "bigtwo_site.log_redaction.RedactTokens"}},
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["redact_tokens"],
            "formatter": "plain",
        },
    },
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
    # The server's access log names every address asked for: through the same filter.
    "loggers": {
        "uvicorn.access": {"handlers": ["console"], "level": "INFO", "propagate": False},
    },
}
