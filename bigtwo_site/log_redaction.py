"""The logs, with the token of a password link left out.

A password link carries its token in the address (Django's reset links do, and so do a club
owner's), and addresses are logged: by gunicorn's access log (`make run`), and by Django for a
page not found or a server error ("Not Found: /accounts/password/reset/…"). Both write
`[token]` in its place: gunicorn through `RedactingLogger` (`--logger-class`), Django's logging
through the `RedactTokens` filter on its handler (settings.LOGGING). A proxy in front of the
site logs addresses too (see README, "Deploying").
"""

from __future__ import annotations

import logging
import re
from typing import Any

from gunicorn.glogging import Logger

# /accounts/password/link/<club>/<uidb64>/<token>/ and /accounts/password/reset/<uidb64>/<token>/;
# "set-password", where the page moves on to once the token is in the session, isn't one.
TOKEN_IN_ADDRESS = re.compile(
    r"(/accounts/password/(?:link/\d+|reset)/[^/\s]+/)(?!set-password(?:[/\s?]|$))[^/\s?]+"
)


def redacted(text: str) -> str:
    """
    >>> redacted("GET /accounts/password/link/3/Mg/diw6d7-e7b88f2fd7682edb/ HTTP/1.1")
    'GET /accounts/password/link/3/Mg/[token]/ HTTP/1.1'
    >>> redacted("/accounts/password/reset/Mg/set-password/")
    '/accounts/password/reset/Mg/set-password/'
    """
    return TOKEN_IN_ADDRESS.sub(r"\1[token]", text)


class RedactTokens(logging.Filter):
    """A logging filter: the record's message, formatted, with any link's token redacted."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if TOKEN_IN_ADDRESS.search(message):
            record.msg, record.args = redacted(message), ()
        return True


class RedactingLogger(Logger):
    """gunicorn's logger, redacting every value an access log line may show."""

    def atoms(self, resp: Any, req: Any, environ: dict, request_time: Any) -> dict[str, Any]:
        atoms = super().atoms(resp, req, environ, request_time)
        return {key: redacted(v) if isinstance(v, str) else v for key, v in atoms.items()}
