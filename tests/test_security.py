"""Deployment settings, the login lockout and the other limits on guessing and sending."""

import html
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from scoring import selectors, services
from scoring.models import Club, Game, token_digest
from tests.factories import OUTBOX_MAILERS, PASSWORD, make_club, make_game, make_user
from tests.fresh_settings import prepare_var

ROOT = Path(__file__).resolve().parents[1]


def test_check_deploy_is_clean_with_the_documented_production_settings(tmp_path):
    """The README's "Behind a proxy" environment passes `manage.py check --deploy`."""
    env = {
        **os.environ,
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(60),
        "DJANGO_ALLOWED_HOSTS": "bigtwo.example.org",
        "DJANGO_CSRF_TRUSTED_ORIGINS": "https://bigtwo.example.org",
        "DJANGO_HTTPS": "1",
        "DJANGO_PROXY_COUNT": "1",
        "DJANGO_VAR_DIR": str(tmp_path),
    }
    # Not the test run's own switches: a production server has neither.
    env.pop("DJANGO_DEBUG", None)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # set by the browser tests' Playwright fixture
    prepare_var(env)  # as the pages' unit does before it migrates
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.fixture
def ann(db):
    return make_user("ann")


def log_in(client, password, username="ann", address="203.0.113.5"):
    return client.post(
        "/accounts/login/",
        {"username": username, "password": password},
        REMOTE_ADDR=address,
    )


def test_five_wrong_passwords_lock_that_username_from_that_address(client, ann, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        response = log_in(client, "wrong")
        assert response.status_code == 200
        assert "username and password don't match" in response.content.decode()
    locked = log_in(client, "wrong")
    assert locked.status_code == 429
    assert "Too many attempts" in locked.content.decode()
    assert "15 minutes" in locked.content.decode()
    # Even the right password is refused while the lock lasts ...
    assert log_in(client, PASSWORD).status_code == 429
    # ... but only for that username from that address.
    assert log_in(client, PASSWORD, address="198.51.100.7").status_code == 302


def test_a_right_password_before_the_limit_clears_the_count(client, ann, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        log_in(client, "wrong")
    assert log_in(client, PASSWORD).status_code == 302
    client.logout()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert log_in(client, "wrong").status_code == 200


def test_repeated_refused_sign_ups_are_locked_out_too(db, client, settings):
    refused = {"username": "mallory", "password1": "short", "password2": "other"}
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        response = client.post("/accounts/signup/", refused, REMOTE_ADDR="203.0.113.9")
        assert response.status_code == 200
        assert "errorlist" in response.content.decode()
    assert client.post("/accounts/signup/", refused, REMOTE_ADDR="203.0.113.9").status_code == 429
    good = {"username": "mallory", "password1": PASSWORD, "password2": PASSWORD}
    assert client.post("/accounts/signup/", good, REMOTE_ADDR="203.0.113.9").status_code == 429
    assert not get_user_model().objects.filter(username="mallory").exists()


def test_a_forged_forwarded_for_header_does_not_dodge_the_lockout(db, client, ann, settings):
    for attempt in range(settings.AXES_FAILURE_LIMIT + 2):
        response = client.post(
            "/accounts/login/",
            {"username": "ann", "password": "wrong"},
            REMOTE_ADDR="203.0.113.5",
            HTTP_X_FORWARDED_FOR=f"10.0.0.{attempt}",
        )
    assert response.status_code == 429


def test_invite_and_share_links_are_looked_up_by_digest_and_stop_at_once(db, client):
    club = make_club()
    game = make_game(club)
    invite = club.invite_token
    share = services.share_game(game=game, by=club.owner)
    assert len(invite) >= 43 and len(share) >= 43  # 256 random bits each
    assert Club.objects.get(pk=club.pk).invite_digest == token_digest(invite)
    assert Game.objects.get(pk=game.pk).share_digest == token_digest(share)
    assert selectors.club_by_invite(invite) == club
    assert selectors.club_by_invite(invite[:-1]) is None

    services.reset_invite(club=club, by=club.owner)
    services.share_game(game=game, by=club.owner)
    client.force_login(make_user())
    assert client.get(f"/join/{invite}/").status_code == 404
    assert client.get(f"/live/{share}/").status_code == 404


def test_a_sign_up_with_a_nul_in_the_username_is_refused_plainly(db, client):
    response = client.post(
        "/accounts/signup/", {"username": "a\x00b", "password1": "x", "password2": "x"}
    )
    assert response.status_code == 200
    assert "errorlist" in response.content.decode()


HUGE = "99999999999999999999"  # more than any id a database column holds


@pytest.mark.parametrize(
    "path",
    [
        f"/games/{HUGE}/",
        f"/games/{HUGE}/board/?v=0",
        f"/games/{HUGE}/changes/",
        f"/games/{HUGE}.json",
        f"/games/{HUGE}.csv",
        f"/seasons/{HUGE}/",
        f"/seasons/{HUGE}/standings.csv",
        f"/clubs/{HUGE}/",
        f"/players/{HUGE}/",
    ],
)
def test_an_id_too_big_for_the_database_is_simply_not_found(db, client, path):
    """Before, a member asking for a game with such an id got a 500: the reads whose SQL was
    built once skipped the ORM's check of the value's range."""
    client.force_login(make_club().owner)
    response = client.get(path)
    assert response.status_code == 404
    if hasattr(response, "close"):
        response.close()


# Every password check counts against the lockout; "Forgot your password?" mails are rationed


def wrong_password_at(client, page: str):
    """A wrong password where a signed-in member types theirs: deleting the account, or
    changing the password."""
    if page == "delete":
        return client.post("/accounts/delete/", {"password": "wrong"}, REMOTE_ADDR="203.0.113.5")
    return client.post(
        "/accounts/password/",
        {
            "old_password": "wrong",
            "new_password1": "a new passphrase 4",
            "new_password2": "a new passphrase 4",
        },
        REMOTE_ADDR="203.0.113.5",
    )


@pytest.mark.parametrize("page", ["delete", "password"])
def test_wrong_passwords_where_a_member_types_theirs_lock_out_like_logins(
    client, ann, settings, page
):
    """The bug: a phone left signed in let anyone guess the password on /accounts/delete/ and
    /accounts/password/ for ever."""
    client.force_login(ann)
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        response = wrong_password_at(client, page)
        assert response.status_code == 200
        assert (
            'role="alert"' in response.content.decode() or "errorlist" in response.content.decode()
        )
    locked = wrong_password_at(client, page)
    assert locked.status_code == 429
    assert "Too many attempts" in locked.content.decode()
    # The right password is refused too while the lock lasts, and nothing changes.
    if page == "delete":
        refused = client.post(
            "/accounts/delete/", {"password": PASSWORD}, REMOTE_ADDR="203.0.113.5"
        )
    else:
        refused = client.post(
            "/accounts/password/",
            {
                "old_password": PASSWORD,
                "new_password1": "mine now 4 ever",
                "new_password2": "mine now 4 ever",
            },
            REMOTE_ADDR="203.0.113.5",
        )
    assert refused.status_code == 429
    ann.refresh_from_db()
    assert ann.check_password(PASSWORD)
    # It is the login's own lock: that username from that address.
    assert log_in(Client(), PASSWORD).status_code == 429
    assert log_in(Client(), PASSWORD, address="198.51.100.7").status_code == 302


def test_wrong_passwords_count_together_wherever_they_are_typed(client, ann, settings):
    client.force_login(ann)
    wrong_password_at(client, "delete")
    wrong_password_at(client, "password")
    for _ in range(settings.AXES_FAILURE_LIMIT - 3):
        log_in(Client(), "wrong")
    assert log_in(Client(), "wrong").status_code == 429


@pytest.fixture
def with_email(settings):
    settings.SITE_SENDS_EMAIL = True
    settings.MAILERS = OUTBOX_MAILERS


def forgot(client, email: str, address: str = "203.0.113.5"):
    return client.post("/accounts/password/forgot/", {"email": email}, REMOTE_ADDR=address)


def test_forgot_your_password_mails_one_address_a_few_links_an_hour(
    client, ann, with_email, settings
):
    """The bug: sixteen mails to one address in half a second."""
    ann.email = "ann@example.org"
    ann.save()
    for number in range(settings.PASSWORD_MAILS_PER_ADDRESS):
        assert forgot(client, "ann@example.org", f"198.51.100.{number}").status_code == 302
    # From anywhere, in any case: the address's own count.
    refused = forgot(client, "ANN@example.org", "192.0.2.1")
    assert refused.status_code == 429
    page = html.unescape(refused.content.decode())
    assert "A link to that address has been asked for 3 times in the last hour" in page
    assert "ask your club's owner for a password reset link" in page
    assert len(mail.outbox) == settings.PASSWORD_MAILS_PER_ADDRESS
    # An address with no account is counted the same, so a refusal tells nobody which have one.
    for _ in range(settings.PASSWORD_MAILS_PER_ADDRESS):
        forgot(client, "nobody@example.org", "192.0.2.2")
    assert forgot(client, "nobody@example.org", "192.0.2.3").status_code == 429


def test_forgot_your_password_asks_a_few_links_an_hour_from_one_client(
    client, db, with_email, settings
):
    for number in range(settings.PASSWORD_MAILS_PER_CLIENT):
        assert forgot(client, f"someone{number}@example.org").status_code == 302
    refused = forgot(client, "one.more@example.org")
    assert refused.status_code == 429
    page = html.unescape(refused.content.decode())
    assert "Too many links have been asked for from this device" in page
    assert forgot(client, "one.more@example.org", "198.51.100.9").status_code == 302
