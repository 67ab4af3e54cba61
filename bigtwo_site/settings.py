"""Settings for the Big Two table companion.

Everything that differs between a laptop at the table and a club's server comes from the
environment, so the same file serves both. See README.md, "Deploying", for the variables.
"""

import importlib.util
import os
import secrets
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

from bigtwo_site.cache_dir import cache_dir
from bigtwo_site.email_url import mailer

BASE_DIR = Path(__file__).resolve().parent.parent
# Runtime state (the SQLite database, the generated secret key, collected static files) lives
# in var/, which git ignores, so a fresh clone never carries anyone's data or secrets.
VAR_DIR = Path(os.environ.get("DJANGO_VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)
# The machine's caches of files (without REDIS_URL, below): in memory if DJANGO_CACHE_DIR
# names a tmpfs, where writing an entry costs far less than on a disk (bigtwo_site/cache_dir.py).
CACHE_DIR = cache_dir(os.environ.get("DJANGO_CACHE_DIR"), VAR_DIR)


def env_flag(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def generated_secret_key(path: Path) -> str:
    """Read the key kept in var/, creating it on first start.

    Opening with "x" makes creation atomic, so gunicorn workers starting together agree on
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
    "rules.web",
    "scoring",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Directly after SecurityMiddleware: static files skip the rest of the stack.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # A game page's poll with nothing new, answered from its pass and the cached version before
    # the rest of the stack (sessions, language, CSRF, accounts…): two of every three requests
    # a table makes (scoring/poll_tokens.py).
    "scoring.middleware.NothingNewMiddleware",
    # Pages and htmx answers gzipped (WhiteNoise already serves static files compressed).
    # Django pads compressed output with random bytes against BREACH.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After sessions (it reads the chosen language from the cookie set by /i18n/setlang/),
    # before CommonMiddleware, as Django's docs ask.
    "django.middleware.locale.LocaleMiddleware",
    # Hands the request's language to the Django-free rules engine (rules/i18n.py).
    "rules.web.middleware.EngineLanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "common.http.HtmxLoginRedirectMiddleware",
    # A member asking for an owner's action (scoring.services.NotAllowed): the page that says so.
    "scoring.middleware.RefusalMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    # First, so a locked-out username and address is refused before any password is checked.
    "axes.backends.AxesStandaloneBackend",
    # Django's ModelBackend, reading the signed-in account from the shared cache when there is
    # one (below); common/cached_user.py says how a changed account is never read stale.
    "common.cached_user.CachedUserBackend",
]

ROOT_URLCONF = "bigtwo_site.urls"
WSGI_APPLICATION = "bigtwo_site.wsgi.application"

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
                "django.template.context_processors.csp",
                "common.context_processors.account_links",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DJANGO_CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["OPTIONS"] = {
        # WAL lets the scoreboard be read while a deal is being written; IMMEDIATE takes the
        # write lock when a transaction starts, so two phones recording at once queue up
        # instead of failing with "database is locked" halfway through.
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 10,
    }
    # Connections persist as on PostgreSQL (DJANGO_CONN_MAX_AGE): opening one, with its two
    # PRAGMAs, cost 0.9 ms a request, more than a kept page's own queries (issue 16). Between
    # requests a connection is in autocommit and holds no lock on the file.

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# With REDIS_URL, every server and worker shares one cache: rendered boards and standings,
# sessions, signed-in accounts. Its keys start with a digest of the database in use, so two
# sites, or a site and its tests, can share one Redis (common/shared_cache.py). Without it
# each worker keeps its own cache in memory, which is enough on one machine: cached pages are
# keyed by the version they show, so a worker's copy is never stale, only sometimes missing.
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
if REDIS_URL:
    if not REDIS_URL.startswith(("redis://", "rediss://", "unix://")):
        raise ImproperlyConfigured(
            f"REDIS_URL is {REDIS_URL!r}; set it to the address of a Redis server, such as "
            "redis://127.0.0.1:6379/0 (rediss:// with TLS, unix:///path/to/redis.sock), or "
            "leave it unset for a cache of each worker's own."
        )
    if importlib.util.find_spec("redis") is None:
        raise ImproperlyConfigured(
            "REDIS_URL is set but the Redis client isn't installed: "
            '.venv/bin/pip install -e ".[redis]"'
        )
    CACHES = {
        "default": {
            "BACKEND": "common.shared_cache.DatabaseScopedRedisCache",
            "LOCATION": REDIS_URL,
            # A Redis that stops answering fails the request in seconds rather than holding
            # the worker until gunicorn kills it.
            "OPTIONS": {"socket_connect_timeout": 5, "socket_timeout": 5},
        }
    }
    CACHES["shared"] = CACHES["default"]
    # One Redis holds both: an entry of either is kept under its own timeout, and Redis's own
    # eviction (its maxmemory-policy) is the operator's choice (README, Deploying).
    CACHES["rendered"] = CACHES["default"]
else:
    CACHES = {
        # Nothing of the site's own is kept here any more (see `shared`); libraries may.
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
        # What is kept here must be the same for every worker: files every worker on this
        # machine reads (a worker's own memory would go on trusting a session logged out, or
        # answering "nothing new" after a deal, in another). A few entries a phone and a game,
        # none of which may be dropped to make room: its limit is one no site on one machine
        # reaches.
        "shared": {
            "BACKEND": "common.shared_cache.MachineFileCache",
            "LOCATION": str(CACHE_DIR / "shared-cache"),
            "KEY_FUNCTION": "common.shared_cache.database_scoped_key",
            "OPTIONS": {"MAX_ENTRIES": 1_000_000},
        },
        # Rendered pages and fragments, kept across workers too: a table's phones are served
        # by whichever worker is free, and a copy in one worker's memory served only its share
        # of them. About ten entries a deal, each good only until the game's next change: when
        # full, the oldest written go first, and one dropped is only rendered again.
        "rendered": {
            "BACKEND": "common.shared_cache.MachineFileCache",
            "LOCATION": str(CACHE_DIR / "rendered-cache"),
            "KEY_FUNCTION": "common.shared_cache.database_scoped_key",
            "OPTIONS": {"MAX_ENTRIES": 100_000},
        },
    }
# The `shared` cache holds what every worker of every server must see alike: each game's
# version, for the polls that ask whether it changed (scoring/caching.py), the poll passes'
# series (scoring/poll_tokens.py), sessions and signed-in accounts; the `rendered` cache, what
# can be made again: pages, fragments, and which deal made which version. Sessions are read
# from `shared` and written through to the database: a request needs no query to know its
# session, logging out deletes it from both for every worker, and an entry lost is read again.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
SESSION_CACHE_ALIAS = "shared"
# How long a worker trusts the shared cache's copy of an account: each save of the account
# replaces it at once; this only bounds changes made behind Django's back (raw SQL).
CACHED_USER_SECONDS = 300

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
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
        "of gunicorn, as a whole number (0 for none)."
    )
PROXY_COUNT = int(proxy_count_text)
AXES_CLIENT_IP_CALLABLE = "bigtwo_site.client_address.client_address"

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

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# English by default; a visitor can switch to Traditional Chinese (the language switcher in
# base.html posts to /i18n/setlang/, which keeps the choice in a cookie). The compiled catalog
# locale/zh_Hant/LC_MESSAGES/django.mo is committed, so running the site needs no gettext.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("zh-hant", "繁體中文")]
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
    "staticfiles": {"BACKEND": "bigtwo_site.static_storage.MinifiedScriptsStorage"},
}

# Content Security Policy: no inline scripts or handlers anywhere. The nonce admits the one
# <script> tag django-htmx renders; htmx's own indicator <style> is switched off in base.html.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
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
    # A password link's token never reaches a log (bigtwo_site/log_redaction.py).
    "filters": {"redact_tokens": {"()": "bigtwo_site.log_redaction.RedactTokens"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["redact_tokens"]},
    },
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
}
