"""The page a club owner's password link opens: it sets the member's password, once, for 24
hours, for that one account, and only while the club may still reset it."""

import datetime
import logging
import re
from functools import partial

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.test import Client

from accounts.services import LinkSpent, set_password_by_link
from scoring import services
from tests.accounts.logins import NEW_PASSWORD, logs_in, shown
from tests.concurrency import at_once, needs_postgres
from tests.factories import PASSWORD, make_club, make_member, make_user

pytestmark = pytest.mark.django_db

LINK = re.compile(r'id="reset-link" value="http://testserver(/accounts/password/link/[^"]+)"')


def link_for(club, member) -> str:
    link = services.make_reset_link(club=club, member=member, by=club.owner)
    return f"/accounts/password/link/{link.club_id}/{link.uidb64}/{link.token}/"


def open_link(client: Client, path: str):
    """Open a link as the member does: the token moves into the session, out of the address."""
    response = client.get(path)
    assert response.status_code == 302, shown(response)
    assert response["Location"].endswith("/set-password/")
    return response["Location"]


def set_password(client: Client, form_path: str, password: str = NEW_PASSWORD):
    return client.post(form_path, {"new_password1": password, "new_password2": password})


def as_answered(response, path: str) -> str:
    """The page without what differs on every page: the CSRF token, the script's CSP nonce,
    and the address itself (the language form's way back)."""
    page = response.content.decode().replace(path, "PATH")
    return re.sub(r'"[A-Za-z0-9]{64}"|nonce="[^"]+"', "", page)


def test_the_member_sets_a_new_password_with_the_link(client, club, ann):
    form_path = open_link(client, link_for(club, ann))
    page = shown(client.get(form_path))
    assert "Choose a new password" in page
    assert "For the account <strong>ann</strong>." in page
    assert "owner, who runs Friday table, made this link for ann." in page
    response = set_password(client, form_path)
    assert response.status_code == 302
    assert response["Location"] == "/accounts/password/done/"
    assert "Your password is set" in shown(client.get(response["Location"]))
    assert logs_in("ann", NEW_PASSWORD)
    assert not logs_in("ann", PASSWORD)


def test_the_link_says_so_when_someone_else_is_signed_in_on_that_phone(owner_client, club, ann):
    form_path = open_link(owner_client, link_for(club, ann))
    page = shown(owner_client.get(form_path))
    assert "You're signed in as owner: this sets the password of ann, not yours." in page


def test_a_new_password_is_checked_like_any_other(client, club, ann):
    form_path = open_link(client, link_for(club, ann))
    response = set_password(client, form_path, "ann")
    assert response.status_code == 200
    assert "This password is too short." in shown(response)
    assert logs_in("ann", PASSWORD)


def test_the_link_is_spent_once_used(client, club, ann):
    path = link_for(club, ann)
    set_password(client, open_link(client, path))
    again = Client().get(path)
    assert again.status_code == 200
    assert "This link doesn't work" in shown(again)
    assert "Ask your club's owner for a new one." in shown(again)


def test_two_phones_with_one_link_one_sets_the_password_the_other_is_told(club, ann):
    path = link_for(club, ann)
    first, second = Client(), Client()
    first_form, second_form = open_link(first, path), open_link(second, path)
    assert set_password(first, first_form).status_code == 302
    response = set_password(second, second_form, "the other phone's password 5")
    assert response.status_code == 409
    assert "This link was used a moment ago, so the password is already set." in shown(response)
    assert logs_in("ann", NEW_PASSWORD)


def test_the_same_link_sent_twice_sets_the_password_once(club, ann):
    """The row lock and the second look at the token: the service, as two racing requests
    reach it, each having opened the page while the link still worked."""
    link = services.make_reset_link(club=club, member=ann, by=club.owner)
    tokens = services.ClubLinkTokens(club)
    set_password_by_link(user_id=ann.pk, token=link.token, tokens=tokens, password=NEW_PASSWORD)
    with pytest.raises(LinkSpent):
        set_password_by_link(
            user_id=ann.pk, token=link.token, tokens=tokens, password="a second choice 4"
        )
    assert logs_in("ann", NEW_PASSWORD)


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_phones_racing_with_one_link_set_the_password_once():
    club = make_club(make_user("owner"))
    ann = make_member(club, "ann")
    link = services.make_reset_link(club=club, member=ann, by=club.owner)

    def send(n: int) -> None:
        set_password_by_link(
            user_id=ann.pk,
            token=link.token,
            tokens=services.ClubLinkTokens(club),
            password=f"phone number {n} passphrase",
        )

    outcomes = at_once(*(partial(send, n) for n in range(5)), refusals=(LinkSpent,))
    assert sum(o.startswith("refused: ") for o in outcomes) == 4, outcomes
    (winner,) = [n for n, outcome in enumerate(outcomes) if outcome == "done: None"]
    assert logs_in("ann", f"phone number {winner} passphrase")


def expired_by(monkeypatch, hours: float) -> None:
    later = datetime.datetime.now() + datetime.timedelta(hours=hours)
    monkeypatch.setattr(PasswordResetTokenGenerator, "_now", lambda self: later)


def test_a_link_works_for_24_hours(client, club, ann, monkeypatch):
    path = link_for(club, ann)
    expired_by(monkeypatch, 23.9)
    set_password(client, open_link(client, path))
    assert logs_in("ann", NEW_PASSWORD)


def test_a_link_stops_working_after_24_hours(client, club, ann, monkeypatch):
    path = link_for(club, ann)
    expired_by(monkeypatch, 24.1)
    assert "This link doesn't work" in shown(client.get(path))


def test_a_link_stops_working_once_the_member_logs_in(client, club, ann):
    path = link_for(club, ann)
    assert logs_in("ann", PASSWORD)
    assert "This link doesn't work" in shown(client.get(path))


def test_a_link_stops_working_when_the_member_leaves(client, club, ann):
    path = link_for(club, ann)
    club.memberships.filter(user=ann).delete()
    assert "This link doesn't work" in shown(client.get(path))


def test_a_link_is_spent_for_good_once_the_club_changes_hands(client, club, ann):
    """The owner makes ann a link and hands the club to ben: the link is dead. Ben hands the
    club back, and it stays dead."""
    path = link_for(club, ann)
    owner, ben = club.owner, make_member(club, "ben")
    services.make_owner(club=club, member=ben, by=owner)
    assert "This link doesn't work" in shown(client.get(path))
    services.make_owner(club=club, member=owner, by=ben)
    assert "This link doesn't work" in shown(client.get(path))
    assert logs_in("ann", PASSWORD)


def test_a_link_is_spent_for_good_once_the_member_leaves(client, club, ann):
    """Leaving and joining again by the invite link doesn't bring the link back."""
    path = link_for(club, ann)
    services.leave_club(club=club, user=ann)
    services.join_club(token=club.invite_token, user=ann)
    assert "This link doesn't work" in shown(client.get(path))
    assert link_for(club, ann) != path  # a new link works: the owner can make one again


def test_a_club_handed_on_in_the_admin_spends_its_links_and_says_so(client, club, ann):
    """Whoever runs the site can hand a club on in the admin: its links are spent as when the
    owner does it, and the club's history says who did it."""
    path = link_for(club, ann)
    owner, ben = club.owner, make_member(club, "ben")
    admin = get_user_model().objects.create_superuser("admin", password=PASSWORD)
    site = Client()
    site.force_login(admin)
    for new_owner in (ben, owner):
        response = site.post(
            f"/admin/scoring/club/{club.pk}/change/",
            {
                "name": club.name,
                "owner": new_owner.pk,
                "created_at_0": f"{club.created_at:%Y-%m-%d}",
                "created_at_1": f"{club.created_at:%H:%M:%S}",
                "memberships-TOTAL_FORMS": "0",
                "memberships-INITIAL_FORMS": "0",
            },
        )
        assert response.status_code == 302, shown(response)
    assert "This link doesn't work" in shown(client.get(path))
    lines = [change.summary() for change in club.changes.all()]
    assert lines[:2] == ["admin made owner the club's owner", "admin made ben the club's owner"]


def test_a_link_for_one_member_never_resets_another(client, club, ann):
    ben = make_member(club, "ben")
    link = services.make_reset_link(club=club, member=ann, by=club.owner)
    other = services.make_reset_link(club=club, member=ben, by=club.owner)
    second_club = make_club(club.owner, name="Sunday table")
    services.join_club(token=second_club.invite_token, user=ann)
    for path in (
        f"/accounts/password/link/{club.pk}/{other.uidb64}/{link.token}/",  # ben's id
        f"/accounts/password/link/{second_club.pk}/{link.uidb64}/{link.token}/",  # other club
        f"/accounts/password/reset/{link.uidb64}/{link.token}/",  # as an emailed link
    ):
        response = client.get(path)
        assert response.status_code in (200, 404), path
        assert "Choose a new password" not in shown(response)
        assert response.status_code == 404 or "This link doesn't work" in shown(response)
    assert logs_in("ben", PASSWORD)


def test_a_link_that_does_not_work_says_the_same_whatever_is_wrong(client, club, ann):
    """Whether the account or the club exists isn't told apart from a wrong token."""
    link = services.make_reset_link(club=club, member=ann, by=club.owner)
    answers = {
        as_answered(client.get(path), path)
        for path in (
            f"/accounts/password/link/{club.pk}/{link.uidb64}/{link.token[:-1]}x/",
            f"/accounts/password/link/{club.pk}/OTk5OTk/{link.token}/",  # no account 99999
            f"/accounts/password/link/99999/{link.uidb64}/{link.token}/",
            f"/accounts/password/link/{club.pk}/not-base64/{link.token}/",
            f"/accounts/password/link/{club.pk}/{link.uidb64}/no-token/",
        )
    }
    assert len(answers) == 1


def test_setting_a_password_by_link_signs_the_account_out_everywhere(client, club, ann):
    anns_phone = Client()
    anns_phone.force_login(ann)
    assert anns_phone.get("/clubs/").status_code == 200
    set_password(client, open_link(client, link_for(club, ann)))
    assert anns_phone.get("/clubs/")["Location"].startswith("/accounts/login/")


def test_a_link_lets_a_locked_out_member_straight_back_in(client, club, ann, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        logs_in("ann", "a wrong guess")
    assert AccessAttempt.objects.filter(username="ann").exists()
    assert not logs_in("ann", PASSWORD)  # locked out
    set_password(client, open_link(client, link_for(club, ann)))
    assert logs_in("ann", NEW_PASSWORD)


def test_a_link_is_never_logged_nor_kept_in_a_cookie(owner_client, club, ann, caplog):
    caplog.set_level(logging.DEBUG)
    membership = club.memberships.get(user=ann)
    made = owner_client.post(f"/clubs/{club.pk}/members/{membership.pk}/reset-link/")
    path = LINK.search(shown(made))[1]
    token = path.rstrip("/").rsplit("/", 1)[1]
    member = Client()
    responses = [made, member.get(path)]
    responses.append(set_password(member, responses[-1]["Location"]))
    assert token not in caplog.text
    for response in responses:
        assert token not in str(response.cookies)
    # Spent and out of the session once used.
    assert token not in str(dict(member.session))
