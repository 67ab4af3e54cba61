"""What every page's template gets besides Django's own context processors."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import quote

from django.http import HttpRequest


def account_links(request: HttpRequest) -> dict[str, Callable[[], str]]:
    """`come_back`: the query string of the header's "Log in" and "Sign up" links, so that
    logging in or signing up brings the visitor back to the page they tapped it on. On an
    invite, that is what joins them to its club; on the hand checker, it keeps their hands.

    The account pages pass on the `next` they were given; the home page gives none (logging in
    then goes to one's clubs). A callable, so a page that shows no such link (every page of a
    signed-in member) never works it out."""

    def come_back() -> str:
        match = request.resolver_match
        if match is not None and match.route.startswith("accounts/"):
            back = request.GET.get("next", "")
        else:
            back = request.get_full_path() if request.path != "/" else ""
        return f"?next={quote(back, safe='/')}" if back else ""

    return {"come_back": come_back}
