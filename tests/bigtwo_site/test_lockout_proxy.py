"""Behind proxies, the lockout counts failures by the address the nearest trusted proxy saw.

Each proxy appends the address it was connected from to X-Forwarded-For, so with
DJANGO_PROXY_COUNT=N the client is the Nth entry from the right; everything to the left of it
was written by the client (or by proxies we don't trust) and must not matter.
"""

import runpy
from collections.abc import Callable
from pathlib import Path

import pytest
from axes.helpers import get_client_ip_address
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.core.exceptions import ImproperlyConfigured
from django.test import RequestFactory

from tests.factories import PASSWORD, make_user

SETTINGS_FILE = Path(__file__).resolve().parents[2] / "bigtwo_site" / "settings.py"
NGINX = "127.0.0.1"  # the site listens on loopback behind nginx, so every request comes from here
CLIENT = "203.0.113.5"
OTHER_CLIENT = "198.51.100.7"


@pytest.fixture
def behind_proxies(settings, monkeypatch) -> Callable[[int], None]:
    """Use what settings.py makes of DJANGO_PROXY_COUNT=count, as a server started with it would.

    The settings file is run again under that environment and its lockout settings copied in,
    so these tests hold the README's variable to its word rather than a hand-made imitation.
    """

    def behind(count: int | str) -> None:
        monkeypatch.setenv("DJANGO_PROXY_COUNT", str(count))
        derived = runpy.run_path(str(SETTINGS_FILE))
        for name, value in derived.items():
            if name == "PROXY_COUNT" or name.startswith("AXES_"):
                setattr(settings, name, value)

    return behind


@pytest.fixture
def ann(db):
    return make_user("ann")


def log_in(client, password: str, forwarded_for: str | None, remote_addr: str = NGINX):
    headers = {} if forwarded_for is None else {"HTTP_X_FORWARDED_FOR": forwarded_for}
    return client.post(
        "/accounts/login/",
        {"username": "ann", "password": password},
        REMOTE_ADDR=remote_addr,
        **headers,
    )


def attempt_addresses() -> set[str | None]:
    return set(AccessAttempt.objects.values_list("ip_address", flat=True))


def test_forged_prefixes_do_not_dodge_the_lockout_behind_one_proxy(
    client, ann, settings, behind_proxies
):
    behind_proxies(1)
    for attempt in range(settings.AXES_FAILURE_LIMIT - 1):
        assert log_in(client, "wrong", f"10.0.{attempt}.1, {CLIENT}").status_code == 200
    assert log_in(client, "wrong", f"192.0.2.99, 10.9.9.9, {CLIENT}").status_code == 429
    # The right password is refused too, whatever the client writes in front of its address.
    assert log_in(client, PASSWORD, f"172.16.0.1, {CLIENT}").status_code == 429
    assert log_in(client, PASSWORD, CLIENT).status_code == 429
    assert attempt_addresses() == {CLIENT}


def test_failures_from_one_address_never_lock_the_user_out_at_another(
    client, ann, settings, behind_proxies
):
    behind_proxies(1)
    for _ in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, "wrong", CLIENT)
    assert log_in(client, PASSWORD, CLIENT).status_code == 429
    # Ann at home, even if someone writes the attacker's address in front of hers.
    assert log_in(client, PASSWORD, OTHER_CLIENT).status_code == 302
    client.logout()
    assert log_in(client, PASSWORD, f"{CLIENT}, {OTHER_CLIENT}").status_code == 302


def test_an_honest_single_entry_is_the_clients_address(client, ann, settings, behind_proxies):
    behind_proxies(1)
    log_in(client, "wrong", CLIENT)
    log_in(client, "wrong", OTHER_CLIENT)
    assert attempt_addresses() == {CLIENT, OTHER_CLIENT}


def test_refused_sign_ups_with_forged_prefixes_are_locked_out_at_the_real_address(
    db, client, settings, behind_proxies
):
    behind_proxies(1)
    refused = {"username": "mallory", "password1": "short", "password2": "other"}
    good = {"username": "mallory", "password1": PASSWORD, "password2": PASSWORD}

    def sign_up(data, forwarded_for):
        return client.post(
            "/accounts/signup/", data, REMOTE_ADDR=NGINX, HTTP_X_FORWARDED_FOR=forwarded_for
        )

    for attempt in range(settings.AXES_FAILURE_LIMIT - 1):
        assert sign_up(refused, f"10.0.{attempt}.1, {CLIENT}").status_code == 200
    assert sign_up(refused, f"10.9.9.9, {CLIENT}").status_code == 429
    assert sign_up(good, f"172.16.0.1, {CLIENT}").status_code == 429
    assert not get_user_model().objects.filter(username="mallory").exists()
    # Someone else choosing that name from another address is not held up.
    assert sign_up(good, OTHER_CLIENT).status_code == 302
    assert get_user_model().objects.filter(username="mallory").exists()


def test_sign_up_and_login_failures_count_against_one_lockout(
    client, ann, settings, behind_proxies
):
    behind_proxies(1)
    for attempt in range(settings.AXES_FAILURE_LIMIT - 1):
        log_in(client, "wrong", f"10.0.{attempt}.1, {CLIENT}")
    taken = {"username": "ann", "password1": PASSWORD, "password2": PASSWORD}
    response = client.post(
        "/accounts/signup/", taken, REMOTE_ADDR=NGINX, HTTP_X_FORWARDED_FOR=f"10.9.9.9, {CLIENT}"
    )
    # Refused because the name is taken: the failure that reaches the limit, as a login's would.
    assert response.status_code == 429
    assert log_in(client, PASSWORD, CLIENT).status_code == 429


def test_with_no_proxy_the_header_is_ignored(client, ann, settings, behind_proxies):
    behind_proxies(0)
    for attempt in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, "wrong", f"10.0.0.{attempt}", remote_addr=CLIENT)
    assert log_in(client, PASSWORD, OTHER_CLIENT, remote_addr=CLIENT).status_code == 429
    # Writing the locked address into the header locks nobody else out.
    assert log_in(client, PASSWORD, CLIENT, remote_addr=OTHER_CLIENT).status_code == 302
    assert attempt_addresses() == {CLIENT}


def test_behind_a_cdn_and_nginx_the_client_is_second_from_the_right(
    client, ann, settings, behind_proxies
):
    behind_proxies(2)
    # Forged entry, then what the CDN saw (the client), then what nginx saw (a CDN edge, which
    # changes from request to request).
    for attempt in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, "wrong", f"10.0.{attempt}.1, {CLIENT}, 192.0.2.{attempt + 10}")
    assert log_in(client, PASSWORD, f"{CLIENT}, 192.0.2.50").status_code == 429
    assert log_in(client, PASSWORD, f"{CLIENT}, {OTHER_CLIENT}, 192.0.2.50").status_code == 302
    assert attempt_addresses() == {CLIENT}


def test_a_forwarded_entry_that_is_not_an_address_is_not_an_error(
    client, ann, settings, behind_proxies
):
    behind_proxies(1)
    response = log_in(client, "wrong", f"{CLIENT}, <script>")
    assert response.status_code == 200
    assert attempt_addresses() == {NGINX}


@pytest.mark.parametrize(
    ("count", "forwarded_for", "remote_addr", "client"),
    [
        (1, "203.0.113.5", NGINX, "203.0.113.5"),
        (1, "10.0.0.1, 203.0.113.5", NGINX, "203.0.113.5"),
        (1, "  10.0.0.1 ,   203.0.113.5  ", NGINX, "203.0.113.5"),
        (1, "10.0.0.1,203.0.113.5", NGINX, "203.0.113.5"),
        (1, "10.0.0.1, 2001:DB8:0::1", NGINX, "2001:db8::1"),
        (2, "10.0.0.1, 203.0.113.5, 192.0.2.10", NGINX, "203.0.113.5"),
        (3, "10.0.0.1, 203.0.113.5, 192.0.2.10, 192.0.2.20", NGINX, "203.0.113.5"),
        # Fewer entries than proxies: the proxies aren't set up as DJANGO_PROXY_COUNT says, so
        # nothing in the header can be trusted; the nearest proxy's address keeps the lockout
        # working (for everyone behind it) instead of resolving to nothing.
        (1, None, NGINX, NGINX),
        (1, "", NGINX, NGINX),
        (2, "203.0.113.5", NGINX, NGINX),
        # The entry a trusted proxy wrote isn't an address: not a proxy we know, so likewise.
        (1, "203.0.113.5, unknown", NGINX, NGINX),
        (1, "203.0.113.5, ", NGINX, NGINX),
        (1, "203.0.113.5:4711", NGINX, NGINX),
        (2, "not-an-address, 192.0.2.10", NGINX, NGINX),
        (0, "203.0.113.5", NGINX, NGINX),
        (0, None, "2001:DB8::7", "2001:db8::7"),
        (1, "fe80::1%eth0", NGINX, "fe80::1"),
    ],
)
def test_the_client_address_axes_sees(behind_proxies, count, forwarded_for, remote_addr, client):
    behind_proxies(count)
    headers = {} if forwarded_for is None else {"HTTP_X_FORWARDED_FOR": forwarded_for}
    request = RequestFactory().post("/accounts/login/", REMOTE_ADDR=remote_addr, **headers)
    assert get_client_ip_address(request) == client


@pytest.mark.parametrize("count", ["-1", "one", "1.5"])
def test_a_proxy_count_that_is_not_a_whole_number_stops_the_server_with_a_clear_message(
    behind_proxies, count
):
    with pytest.raises(ImproperlyConfigured, match="DJANGO_PROXY_COUNT.*whole number"):
        behind_proxies(count)
