"""Where the site sends email (DJANGO_EMAIL_URL): "Forgot your password?" mails Django's own
reset link, and sign-up asks for an optional email. Without it, none of that is there."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from scoring import services
from tests.accounts.logins import NEW_PASSWORD, shown
from tests.factories import OUTBOX_MAILERS, PASSWORD, make_club, make_member, make_user

pytestmark = pytest.mark.django_db

EMAILED_LINK = re.compile(r"http://testserver(/accounts/password/reset/[^/\s]+/[^/\s]+/)")


@pytest.fixture
def with_email(settings):
    """As DJANGO_EMAIL_URL makes it, with the test runner's outbox as the mail server."""
    settings.SITE_SENDS_EMAIL = True
    settings.MAILERS = OUTBOX_MAILERS


def make_user_with_email(username: str, email: str):
    user = make_user(username)
    user.email = email
    user.save()
    return user


def sign_up(client: Client, **fields: str):
    return client.post(
        "/accounts/signup/",
        {"username": "ann", "password1": PASSWORD, "password2": PASSWORD} | fields,
    )


# Without a mail server


def test_without_email_there_is_no_forgot_link_nor_email_field(client):
    assert "Forgot your password?" not in shown(client.get("/accounts/login/"))
    assert 'name="email"' not in shown(client.get("/accounts/signup/"))
    sign_up(client, email="ann@example.org")
    assert get_user_model().objects.get(username="ann").email == ""


def test_without_email_the_emailed_links_are_not_found(client):
    user = make_user_with_email("ann", "ann@example.org")
    for path in (
        "/accounts/password/forgot/",
        "/accounts/password/forgot/sent/",
        f"/accounts/password/reset/{user.pk}/any-token/",
    ):
        assert client.get(path).status_code == 404, path
        assert client.post(path, {"email": "ann@example.org"}).status_code == 404, path
    assert mail.outbox == []


# With one


def test_the_login_page_links_forgot_your_password(client, with_email):
    page = shown(client.get("/accounts/login/"))
    assert '<a class="tap" href="/accounts/password/forgot/">Forgot your password?</a>' in page


def test_forgot_your_password_mails_a_link_that_sets_a_new_one(client, with_email):
    make_user_with_email("ann", "ann@example.org")
    page = shown(client.get("/accounts/password/forgot/"))
    assert ">Email</label>" in page
    response = client.post("/accounts/password/forgot/", {"email": "ann@example.org"})
    assert response["Location"] == "/accounts/password/forgot/sent/"
    assert "Check your email" in shown(client.get(response["Location"]))

    (message,) = mail.outbox
    assert message.to == ["ann@example.org"]
    assert message.subject == "A new password at testserver"
    assert "for the account ann at testserver" in message.body
    path = EMAILED_LINK.search(message.body)[1]

    form = client.get(path)["Location"]
    assert form.endswith("/set-password/")
    page = shown(client.get(form))
    assert "For the account <strong>ann</strong>." in page
    assert "who runs" not in page  # no club made this one
    response = client.post(form, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert response["Location"] == "/accounts/password/done/"
    assert (
        Client().post("/accounts/login/", {"username": "ann", "password": NEW_PASSWORD}).status_code
        == 302
    )
    # Spent on use.
    assert "This link doesn't work" in shown(Client().get(path))


def test_an_unknown_email_gets_the_same_answer_and_no_mail(client, with_email):
    response = client.post("/accounts/password/forgot/", {"email": "nobody@example.org"})
    assert response["Location"] == "/accounts/password/forgot/sent/"
    assert mail.outbox == []


def test_two_accounts_sharing_an_email_each_get_a_link(client, with_email):
    make_user_with_email("ann", "family@example.org")
    make_user_with_email("ben", "family@example.org")
    client.post("/accounts/password/forgot/", {"email": "family@example.org"})
    assert sorted(re.search(r"account (\w+) at", m.body)[1] for m in mail.outbox) == ["ann", "ben"]


def test_an_emailed_link_and_an_owners_link_are_no_use_as_each_other(client, with_email):
    club = make_club(make_user("sam"))
    ann = make_member(club, "ann")
    ann.email = "ann@example.org"
    ann.save()
    owners = services.make_reset_link(club=club, member=ann, by=club.owner)
    client.post("/accounts/password/forgot/", {"email": "ann@example.org"})
    emailed = EMAILED_LINK.search(mail.outbox[0].body)[1]
    uidb64, token = emailed.strip("/").split("/")[-2:]
    for path in (
        f"/accounts/password/reset/{owners.uidb64}/{owners.token}/",
        f"/accounts/password/link/{club.pk}/{uidb64}/{token}/",
    ):
        assert "This link doesn't work" in shown(client.get(path)), path


def test_sign_up_asks_for_an_optional_email(client, with_email):
    page = shown(client.get("/accounts/signup/"))
    assert ">Email (optional)</label>" in page
    assert sign_up(client, email="Ann@EXAMPLE.org").status_code == 302
    assert get_user_model().objects.get(username="ann").email == "Ann@example.org"
    assert sign_up(Client(), username="ben").status_code == 302  # left empty
    assert get_user_model().objects.get(username="ben").email == ""


def test_an_email_shared_with_another_account_is_accepted_at_sign_up(client, with_email):
    make_user_with_email("ann", "family@example.org")
    assert sign_up(client, username="ben", email="family@example.org").status_code == 302


def test_an_email_that_is_not_one_is_refused_saying_what_one_looks_like(client, with_email):
    response = sign_up(client, email="ann at home")
    assert response.status_code == 200
    assert "That isn't an email address: it looks like name@example.org." in shown(response)
    assert 'value="ann at home"' in shown(response)  # kept, to correct
    assert not get_user_model().objects.filter(username="ann").exists()
