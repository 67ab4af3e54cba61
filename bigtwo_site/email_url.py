"""DJANGO_EMAIL_URL, one address for the mail server, read into a mailer of Django's MAILERS
setting (new in Django 6.1, in place of the EMAIL_* settings).

A small function rather than a library: three schemes and three options are all the site needs
(it sends nothing but password resets), and a mistake stops the server with a sentence saying
what to write instead.

- `smtp://USER:PASSWORD@HOST:PORT` (port 25 unless given); `?tls=1` for STARTTLS (port 587)
- `smtps://USER:PASSWORD@HOST:PORT`: TLS from the first byte (port 465 unless given)
- `console://`: print each email to the server's output instead of sending it, to try it out
- `?timeout=SECONDS` on either smtp scheme: give up on a server that doesn't answer

The user name and password are percent-encoded as in any URL (`@` is `%40`).
"""

from __future__ import annotations

from urllib.parse import parse_qs, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

SMTP_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
CONSOLE_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_PORTS = {"smtp": 25, "smtps": 465}
OPTIONS = ("tls", "timeout")
YES = ("1", "true", "yes", "on")
NO = ("0", "false", "no", "off", "")


Mailer = dict[str, object]


def mailer(url: str) -> Mailer:
    """What `url` (DJANGO_EMAIL_URL) says, as one entry of MAILERS, or ImproperlyConfigured
    saying what is wrong (never repeating the password)."""
    parts = urlsplit(url.strip())
    if parts.scheme == "console":
        return {"BACKEND": CONSOLE_BACKEND}
    if parts.scheme not in DEFAULT_PORTS:
        raise misconfigured(f"starts with {parts.scheme + '://' if parts.scheme else 'nothing'}")
    if not parts.hostname:
        raise misconfigured("names no mail server after the //")
    try:
        port = parts.port or DEFAULT_PORTS[parts.scheme]
    except ValueError:
        raise misconfigured("has a port that isn't a number from 1 to 65535") from None
    options = parse_qs(parts.query, keep_blank_values=True)
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise misconfigured(f"has options it doesn't know: {', '.join(unknown)}")
    use_tls = flag(options.get("tls", ["0"])[-1])
    if use_tls and parts.scheme == "smtps":
        raise misconfigured("asks for ?tls=1 with smtps://, which is TLS already")
    return {
        "BACKEND": SMTP_BACKEND,
        "OPTIONS": {
            "host": parts.hostname,
            "port": port,
            "username": unquote(parts.username or ""),
            "password": unquote(parts.password or ""),
            "use_tls": use_tls,
            "use_ssl": parts.scheme == "smtps",
            "timeout": seconds(options.get("timeout", [""])[-1]),
        },
    }


def flag(text: str) -> bool:
    if text.lower() in YES:
        return True
    if text.lower() in NO:
        return False
    raise misconfigured(f"has tls={text}: write tls=1 or tls=0")


def seconds(text: str) -> int | None:
    if not text:
        return None
    if not text.isdecimal() or int(text) == 0:
        raise misconfigured(f"has timeout={text}: write a whole number of seconds, like 10")
    return int(text)


def misconfigured(problem: str) -> ImproperlyConfigured:
    return ImproperlyConfigured(
        f"DJANGO_EMAIL_URL {problem}. Write smtp://USER:PASSWORD@HOST:587?tls=1, "
        "smtps://USER:PASSWORD@HOST:465 or console:// (see README.md, Deploying)."
    )
