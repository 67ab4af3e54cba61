"""The address a request came from, as the lockout counts it (README, "Behind a proxy").

django-axes calls `client_address` (settings.AXES_CLIENT_IP_CALLABLE) for logins and for
sign-ups, so both count failures by the same answer.
"""

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str | None:
    """The Nth entry from the right of X-Forwarded-For, N being settings.PROXY_COUNT.

    Each proxy appends the address it was connected from (nginx's
    `$proxy_add_x_forwarded_for`, Caddy's `reverse_proxy`), so the Nth entry from the right is
    what the outermost proxy we trust saw. Anything further left was written by the client and
    is ignored: reading it would let an attacker pick a fresh address for every wrong password.

    When that entry is missing (fewer entries than proxies) or isn't an IP address, the proxies
    aren't set up as PROXY_COUNT says, and nothing in the header can be trusted; REMOTE_ADDR,
    the nearest proxy, is used instead. Then everyone behind it shares one count per username:
    the lockout errs towards locking too much rather than never locking. With PROXY_COUNT = 0
    the header is ignored. None only if REMOTE_ADDR isn't an address either, which a WSGI
    server on TCP never does.
    """
    remote_addr = normalised(request.META.get("REMOTE_ADDR", ""))
    proxy_count: int = settings.PROXY_COUNT
    if proxy_count <= 0:
        return remote_addr
    entries = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
    if len(entries) < proxy_count:
        return remote_addr
    # An absent header splits into [""], which normalised() turns away like any non-address.
    return normalised(entries[-proxy_count]) or remote_addr


def normalised(entry: str) -> str | None:
    """One spelling per address (so "2001:DB8:0::1" and "2001:db8::1" share a count), or None.

    Only bare addresses are accepted: a port or a name can't be stored in the attempts table
    (PostgreSQL's inet column refuses them) and no proxy in the README writes them. An IPv6
    zone ("%eth0") only means something on the machine that wrote it, so it is dropped.
    """
    try:
        address = ipaddress.ip_address(entry.strip())
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.scope_id:
        address = ipaddress.IPv6Address(int(address))
    return str(address)
