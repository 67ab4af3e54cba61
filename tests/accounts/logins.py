"""Reading the account pages and trying a password, as the accounts tests do.

A helper module (neither a test file nor a conftest): import what a test needs from it.
"""

import html

from django.test import Client

from tests.pages import text

NEW_PASSWORD = "a brand new passphrase 8"


def shown(response) -> str:
    """The page as read: white space runs as one space, entities as their characters."""
    return html.unescape(text(response))


def logs_in(username: str, password: str) -> bool:
    """Whether logging in with these, on a phone of its own, works."""
    response = Client().post("/accounts/login/", {"username": username, "password": password})
    return response.status_code == 302
