"""The logs, with the token of a password link left out.

A password link carries its token in the address (Django's reset links do, and so do a club
owner's), and addresses are logged: by the server's access log (`make run`: uvicorn's), and by
Django for a page not found or a server error ("Not Found: /accounts/password/reset/…"). Both
go through the `RedactTokens` filter on the console handler (settings.LOGGING), which writes
`[token]` in its place. A proxy in front of the site logs addresses too (docs/deploying.md).
"""

from __future__ import annotations

import logging
import re

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
