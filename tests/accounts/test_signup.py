"""Signing up logs the new account in; logging in and out; the home page leads to signing up.
Signing up from an invite link is tests/scoring/views/test_sharing.py."""

import pytest

from tests.factories import make_user
from tests.pages import text

pytestmark = pytest.mark.django_db


def test_signing_up_logs_the_new_user_in(client):
    response = client.get("/accounts/signup/")
    html = text(response)
    for label in ("Username", "Password", "Password confirmation"):
        assert f">{label}</label>" in html
    assert ">Sign up</button>" in html
    response = client.post(
        "/accounts/signup/",
        {"username": "ann", "password1": "a long passphrase 7", "password2": "a long passphrase 7"},
    )
    assert response.status_code == 302
    assert response["Location"] == "/clubs/"
    assert client.get("/clubs/").context["user"].username == "ann"


def test_log_in_and_log_out(client):
    make_user("ann")
    response = client.post(
        "/accounts/login/", {"username": "ann", "password": "a long passphrase 7"}
    )
    assert response["Location"] == "/clubs/"
    assert "Log out" in client.get("/").content.decode()
    assert client.get("/accounts/logout/").status_code == 405  # logging out is a POST
    client.post("/accounts/logout/")
    assert "Log in" in client.get("/").content.decode()


def test_the_home_page_leads_to_score_keeping(client):
    assert 'href="/accounts/signup/"' in client.get("/").content.decode()
