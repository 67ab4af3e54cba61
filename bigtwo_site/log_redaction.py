"""The logs, with the token of a link left out: a password link's, a club's invite link's
(`/join/<token>/`), a game's live view link's (`/live/<token>/…`, its board, code and stream) and
a club night's TV link's (`/tv/<token>/…`, its board, asked twice a second, and its code).

Each carries its token in the address, and whoever has the token can set a member's password,
join the club, follow the game or watch the night. Addresses are logged: by the server's access
log (`make run`: uvicorn's), and by Django for a page not found or a server error ("Not Found:
/live/…"). Both go through the `RedactTokens` filter on the console handler (settings.LOGGING),
which writes `[token]` in its place, in a `next=` of a login or sign-up address too, as the site
writes it or percent-encoded. A proxy in front of the site logs addresses too
(docs/deploying.md).
"""

from __future__ import annotations

import logging
import re

# /accounts/password/link/<club>/<uidb64>/<token>/ and /accounts/password/reset/<uidb64>/<token>/;
# "set-password", where the page moves on to once the token is in the session, isn't one.
PASSWORD_TOKEN = re.compile(
    r"(/accounts/password/(?:link/\d+|reset)/[^/\s]+/)(?!set-password(?:[/\s?]|$))[^/\s?]+"
)
# /join/<token>/, /live/<token>/… and /tv/<token>/…, their slashes percent-encoded or not;
# "stop" after a night's /nights/<id>/tv/, the organiser's button, isn't one.
LINK_TOKEN = re.compile(
    r"((?:/|%2F)(?:join|live|tv)(?:/|%2F))(?!stop(?:/|%2F|[\s?]|$))[^/\s?&#%]+", re.IGNORECASE
)


def redacted(text: str) -> str:
    """
    >>> redacted("GET /accounts/password/link/3/Mg/diw6d7-e7b88f2fd7682edb/ HTTP/1.1")
    'GET /accounts/password/link/3/Mg/[token]/ HTTP/1.1'
    >>> redacted("/accounts/password/reset/Mg/set-password/")
    '/accounts/password/reset/Mg/set-password/'
    >>> redacted("GET /live/Xq3_r-9/board/?v=4 HTTP/1.1")
    'GET /live/[token]/board/?v=4 HTTP/1.1'
    >>> redacted("GET /accounts/login/?next=%2Fjoin%2FXq3_r-9%2F HTTP/1.1")
    'GET /accounts/login/?next=%2Fjoin%2F[token]%2F HTTP/1.1'
    >>> redacted("GET /tv/Xq3_r-9/board/?state=7 HTTP/1.1"), redacted("POST /nights/5/tv/stop/")
    ('GET /tv/[token]/board/?state=7 HTTP/1.1', 'POST /nights/5/tv/stop/')
    """
    return LINK_TOKEN.sub(r"\1[token]", PASSWORD_TOKEN.sub(r"\1[token]", text))


class RedactTokens(logging.Filter):
    """A logging filter: the record's message, formatted, with any link's token redacted."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if PASSWORD_TOKEN.search(message) or LINK_TOKEN.search(message):
            record.msg, record.args = redacted(message), ()
        return True
