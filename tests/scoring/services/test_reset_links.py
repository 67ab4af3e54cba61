"""A club owner makes a member a one-time password link, from the club's members list: only the
owner, only for a member the owner may reset, shown once. What the link does once opened is
tests/accounts/test_club_links.py."""

import html
import re

import pytest
from django.contrib.auth import get_user_model

from scoring import services
from tests.factories import make_club, make_member, make_user
from tests.pages import text

pytestmark = pytest.mark.django_db

LINK = re.compile(r'id="reset-link" value="http://testserver(/accounts/password/link/[^"]+)"')


@pytest.fixture
def ann(club):
    return make_member(club, "ann")


def shown(response) -> str:
    """The page as read: white space runs as one space, entities as their characters."""
    return html.unescape(text(response))


def test_the_owner_makes_a_link_from_the_members_list_and_sees_it_once(owner_client, club, ann):
    html = shown(owner_client.get(f"/clubs/{club.pk}/"))
    membership = club.memberships.get(user=ann)
    action = f'action="/clubs/{club.pk}/members/{membership.pk}/reset-link/"'
    assert action in html
    assert 'aria-label="Password reset link for ann">Password reset link</button>' in html
    assert html.count("reset-link/") == 1  # none on the owner's own row

    response = owner_client.post(f"/clubs/{club.pk}/members/{membership.pk}/reset-link/")
    assert response.status_code == 200
    page = shown(response)
    assert "Password reset link for ann" in page
    assert "It works once, within 24 hours" in page
    assert LINK.search(page)
    # Not kept by the browser or any cache: it is shown this once.
    assert "no-store" in response["Cache-Control"]


def test_a_member_who_is_not_the_owner_cannot_make_a_link(client, club, ann):
    ben = make_member(club, "ben")
    client.force_login(ben)
    assert "reset-link/" not in shown(client.get(f"/clubs/{club.pk}/"))
    membership = club.memberships.get(user=ann)
    response = client.post(f"/clubs/{club.pk}/members/{membership.pk}/reset-link/")
    assert response.status_code == 403
    assert "Only the club's owner can make a member a password reset link." in shown(response)
    assert not LINK.search(shown(response))


def test_a_link_is_only_for_a_member_of_the_owners_own_club(owner_client, owner, club):
    other = make_club(make_user("olga"), name="Olga's table")
    stranger_membership = other.memberships.get()
    # Olga's membership, asked for through the owner's club: not found, so nothing leaks.
    response = owner_client.post(f"/clubs/{club.pk}/members/{stranger_membership.pk}/reset-link/")
    assert response.status_code == 404
    response = owner_client.post(f"/clubs/{other.pk}/members/{stranger_membership.pk}/reset-link/")
    assert response.status_code == 404


@pytest.mark.parametrize(
    ("who", "refusal"),
    [
        ("owner", "That's you: change your own password"),
        ("staff", "ann looks after this site, so a club's link can't reset their password."),
        ("elsewhere", "ann is also in a club someone else runs, so a link from you can't reset"),
    ],
)
def test_links_an_owner_may_not_make_are_refused_saying_why(owner_client, club, ann, who, refusal):
    member = club.owner if who == "owner" else ann
    if who == "staff":
        get_user_model().objects.filter(pk=ann.pk).update(is_staff=True)
    if who == "elsewhere":
        olgas = make_club(make_user("olga"), name="Olga's table")
        services.join_club(token=olgas.invite_token, user=ann)
    membership = club.memberships.get(user=member)
    response = owner_client.post(f"/clubs/{club.pk}/members/{membership.pk}/reset-link/")
    assert response.status_code == 200
    page = shown(response)
    assert refusal in page
    assert 'role="alert"' in page
    assert not LINK.search(page)


def test_a_member_of_two_clubs_the_owner_runs_can_be_given_a_link(owner_client, club, ann):
    second = make_club(club.owner, name="Sunday table")
    services.join_club(token=second.invite_token, user=ann)
    membership = club.memberships.get(user=ann)
    response = owner_client.post(f"/clubs/{club.pk}/members/{membership.pk}/reset-link/")
    assert LINK.search(shown(response))
