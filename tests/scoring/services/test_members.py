"""A club's members: the owner removes one or hands the club on, a member leaves. A removed
member's next request for anything of the club is a 404; every change is in the club's
history with who made it and when; a double tap or a resend changes nothing more.
"""

from __future__ import annotations

import html

import pytest
from django.contrib.messages import get_messages
from django.test import Client

from scoring import services
from scoring.models import Club, ClubChange, Membership
from tests.concurrency import at_once, needs_postgres
from tests.factories import make_club, make_game, make_member, make_user, record
from tests.pages import text

pytestmark = pytest.mark.django_db


@pytest.fixture
def bo(club):
    return make_member(club, "bo")


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def said(response) -> str:
    """The message this response leaves for the next page to show (the last one queued: the
    first of a double tap leaves its own too, which that page shows as well)."""
    return [str(message) for message in get_messages(response.wsgi_request)][-1]


def membership(club: Club, user) -> Membership:
    return Membership.objects.get(club=club, user=user)


def history(club: Club) -> list[str]:
    return [change.summary() for change in ClubChange.objects.filter(club=club)]


def shown(response) -> str:
    return html.unescape(text(response))


def page(client: Client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, path
    return shown(response)


# Removing a member


def test_the_owner_removes_a_member_who_then_gets_404_for_the_club(owner_client, club, bo):
    bo_client = client_of(bo)
    game = make_game(club)
    assert bo_client.get(f"/games/{game.pk}/").status_code == 200
    remove = f"/clubs/{club.pk}/members/{membership(club, bo).pk}/remove/"

    asked = page(owner_client, remove)
    assert "Remove bo from Friday table?" in asked
    response = owner_client.post(remove)

    assert response.status_code == 302
    assert response["Location"] == f"/clubs/{club.pk}/#members-title"
    assert said(response) == "bo is no longer a member of Friday table."
    assert not Membership.objects.filter(user=bo).exists()
    # The session bo had open: the club, the game, its poll and its export are gone to them.
    for path in (f"/clubs/{club.pk}/", f"/games/{game.pk}/", f"/games/{game.pk}/board/"):
        assert bo_client.get(path).status_code == 404, path
    assert bo_client.get(f"/games/{game.pk}.json").status_code == 404
    assert history(club) == ["owner removed bo from the club"]


def test_only_the_owner_removes_members(club, bo):
    cy = make_member(club, "cy")
    response = client_of(bo).post(f"/clubs/{club.pk}/members/{membership(club, cy).pk}/remove/")

    assert response.status_code == 403
    assert "Only the club's owner can remove a member." in shown(response)
    assert Membership.objects.filter(user=cy).exists()
    assert history(club) == []


def test_the_owner_cant_remove_themself(owner_client, club, owner):
    mine = f"/clubs/{club.pk}/members/{membership(club, owner).pk}/remove/"
    assert owner_client.get(mine).status_code == 404  # no button leads there

    response = owner_client.post(mine)

    assert response.status_code == 302
    assert (
        said(response)
        == "The club's owner can't be removed. To step down, make another member the owner first."
    )
    assert Membership.objects.filter(user=owner).exists()
    with pytest.raises(services.ScoringError, match="can't be removed"):
        services.remove_member(club=club, member=owner, by=owner)


def test_removing_twice_removes_once_and_says_so_calmly(owner_client, club, bo):
    remove = f"/clubs/{club.pk}/members/{membership(club, bo).pk}/remove/"
    assert owner_client.post(remove).status_code == 302

    again = owner_client.post(remove)

    assert again.status_code == 302
    assert said(again) == "That member is no longer in the club."
    assert history(club) == ["owner removed bo from the club"]
    assert services.remove_member(club=club, member=bo, by=club.owner) is False
    assert owner_client.get(remove).status_code == 404


# Leaving


def test_a_member_leaves_and_the_club_is_gone_to_them(club, bo):
    bo_client = client_of(bo)
    assert "Leave Friday table?" in page(bo_client, f"/clubs/{club.pk}/leave/")

    response = bo_client.post(f"/clubs/{club.pk}/leave/")

    assert response.status_code == 302
    assert response["Location"] == "/clubs/"
    assert said(response) == "You have left Friday table."
    assert bo_client.get(f"/clubs/{club.pk}/").status_code == 404
    assert bo_client.get(f"/clubs/{club.pk}/leave/").status_code == 404
    assert history(club) == ["bo left the club"]


def test_leaving_twice_leaves_once_and_answers_the_second_like_the_first(club, bo):
    bo_client = client_of(bo)
    bo_client.post(f"/clubs/{club.pk}/leave/")

    again = bo_client.post(f"/clubs/{club.pk}/leave/")

    assert again.status_code == 302
    assert said(again) == "You have left Friday table."
    assert history(club) == ["bo left the club"]


def test_the_owner_must_hand_the_club_on_before_leaving(owner_client, club, bo):
    asked = page(owner_client, f"/clubs/{club.pk}/leave/")
    assert "make another member the owner first (“Make owner”" in asked
    assert '<button type="submit" class="button danger">Leave club' not in asked

    response = owner_client.post(f"/clubs/{club.pk}/leave/")

    assert response.status_code == 200
    assert '<p class="form-errors" role="alert">You own Friday table' in shown(response)
    assert club.memberships.count() == 2
    assert history(club) == []


def test_a_removed_member_resending_leave_gets_404(club, bo):
    """Even one who had left before, came back and was then removed."""
    bo_client = client_of(bo)
    bo_client.post(f"/clubs/{club.pk}/leave/")
    services.join_club(token=club.invite_token, user=bo)
    services.remove_member(club=club, member=bo, by=club.owner)

    assert bo_client.post(f"/clubs/{club.pk}/leave/").status_code == 404
    assert client_of(make_user("stranger")).post(f"/clubs/{club.pk}/leave/").status_code == 404


# Handing the club on


def test_the_owner_hands_the_club_on_and_stays_a_member(owner_client, club, owner, bo):
    make_owner = f"/clubs/{club.pk}/members/{membership(club, bo).pk}/owner/"
    assert "Make bo the owner of Friday table?" in page(owner_client, make_owner)

    response = owner_client.post(make_owner)

    assert response.status_code == 302
    assert said(response) == "bo now owns Friday table."
    club.refresh_from_db()
    assert club.owner == bo
    assert Membership.objects.filter(club=club, user=owner).exists()
    assert history(club) == ["owner made bo the club's owner"]
    # The old owner is a member like any other now; bo may remove them.
    assert owner_client.get(make_owner).status_code == 404  # the club is bo's already
    assert client_of(owner).post(f"/clubs/{club.pk}/invite/reset/").status_code == 403
    services.remove_member(club=club, member=owner, by=bo)
    assert owner_client.get(f"/clubs/{club.pk}/").status_code == 404


def test_handing_on_twice_hands_on_once_without_a_refusal(owner_client, club, bo):
    make_owner = f"/clubs/{club.pk}/members/{membership(club, bo).pk}/owner/"
    owner_client.post(make_owner)

    again = owner_client.post(make_owner)

    assert again.status_code == 302
    assert said(again) == "bo now owns Friday table."
    assert history(club) == ["owner made bo the club's owner"]


def test_only_the_owner_hands_the_club_on(club, bo):
    cy = make_member(club, "cy")
    make_owner = f"/clubs/{club.pk}/members/{membership(club, cy).pk}/owner/"
    for method in ("get", "post"):
        response = getattr(client_of(bo), method)(make_owner)
        assert response.status_code == 403
        assert "Only the club's owner can make another member the owner." in shown(response)
    assert Club.objects.get(pk=club.pk).owner == club.owner


def test_a_member_who_left_meanwhile_cant_be_made_owner(club, bo):
    services.leave_club(club=club, user=bo)
    with pytest.raises(services.ScoringError, match="bo is no longer a member"):
        services.make_owner(club=club, member=bo, by=club.owner)


def test_the_owner_sees_the_buttons_and_a_member_only_leave_and_history(owner_client, club, bo):
    remove = f"/clubs/{club.pk}/members/{membership(club, bo).pk}/remove/"
    as_owner = page(owner_client, f"/clubs/{club.pk}/")
    as_bo = page(client_of(bo), f"/clubs/{club.pk}/")

    assert f'href="{remove}">Remove<span class="visually-hidden"> bo</span>' in as_owner
    assert 'Make owner<span class="visually-hidden"> bo</span>' in as_owner
    assert 'Make owner<span class="visually-hidden"> owner' not in as_owner
    assert "Remove<span" not in as_bo and "Make owner" not in as_bo
    for club_page in (as_owner, as_bo):
        assert f'href="/clubs/{club.pk}/leave/">Leave club</a>' in club_page
        assert f'href="/clubs/{club.pk}/history/">The club\'s history</a>' in club_page


def test_a_resent_form_about_someone_who_has_gone_is_answered_on_the_club_page(
    owner_client, club, bo
):
    """bo left while the owner's "Make owner" page was open."""
    make_owner = f"/clubs/{club.pk}/members/{membership(club, bo).pk}/owner/"
    services.leave_club(club=club, user=bo)

    response = owner_client.post(make_owner)

    assert response.status_code == 302
    assert said(response) == "That member is no longer in the club."
    assert Club.objects.get(pk=club.pk).owner == club.owner


# The club's history


def test_the_clubs_history_names_who_did_what_and_when_newest_first(owner_client, club, bo):
    cy = make_member(club, "cy")
    services.leave_club(club=club, user=cy)
    services.make_owner(club=club, member=bo, by=club.owner)
    cy.delete()  # the line still names them

    lines = page(owner_client, f"/clubs/{club.pk}/history/")

    assert lines.index("owner made bo the club's owner") < lines.index("cy left the club")
    for change in ClubChange.objects.all():
        assert f'<time class="muted" datetime="{change.at.isoformat()}">' in lines
    assert client_of(make_user("stranger")).get(f"/clubs/{club.pk}/history/").status_code == 404


def test_a_club_with_no_changes_says_so(owner_client, club):
    assert "Nothing yet." in page(owner_client, f"/clubs/{club.pk}/history/")


# Two phones at once (PostgreSQL: row locks; SQLite serializes every writer anyway)


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_a_member_leaving_while_being_removed_goes_once():
    club = make_club(make_user("owner"))
    bo = make_member(club, "bo")

    outcomes = at_once(
        lambda: services.leave_club(club=Club.objects.get(pk=club.pk), user=bo),
        lambda: services.remove_member(club=Club.objects.get(pk=club.pk), member=bo, by=club.owner),
    )

    assert sorted(outcomes) == ["done: False", "done: True"], outcomes
    assert not Membership.objects.filter(user=bo).exists()
    assert len(history(club)) == 1


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_two_taps_on_make_owner_at_once_hand_the_club_on_once():
    club = make_club(make_user("owner"))
    bo = make_member(club, "bo")
    game = make_game(club)
    record(game, 0, 1, 2, 3)

    outcomes = at_once(
        *[lambda: services.make_owner(club=Club.objects.get(pk=club.pk), member=bo, by=club.owner)]
        * 3
    )

    assert outcomes == ["done: None"] * 3, outcomes
    assert Club.objects.get(pk=club.pk).owner == bo
    assert history(club) == ["owner made bo the club's owner"]
