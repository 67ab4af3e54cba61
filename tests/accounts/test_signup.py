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


@pytest.mark.parametrize("length", [151, 256, 5000])
def test_a_username_longer_than_any_is_refused_by_the_login_form_and_recorded_nowhere(
    client, length
):
    """Django's login form sets only its box's maxlength: a longer name went on to
    authenticate(), whose failure django-axes records in a 255-character column (a 500 on
    PostgreSQL, found by tests/test_fuzz.py)."""
    from axes.models import AccessAttempt

    answer = client.post("/accounts/login/", {"username": "9" * length, "password": "0"})
    assert answer.status_code == 200
    assert f"at most 150 characters (it has {length})" in text(answer)
    assert "9" * length in answer.content.decode()  # what was typed, kept
    assert not AccessAttempt.objects.exists()
