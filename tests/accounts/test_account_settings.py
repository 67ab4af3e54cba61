"""One's own account: "Change password" (ending every other session) and "Delete my account"
(the login goes, the club's scores stay)."""

from decimal import Decimal

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import models
from django.test import Client

from accounts.services import OwnsClubs, change_password, delete_account
from scoring import services
from scoring.models import Club, Deal, DealScore, Game, GameChange, Membership, Seat
from scoring.selectors.standings import standings
from scoring.services.errors import ScoringError
from tests.accounts.logins import NEW_PASSWORD, logs_in, shown
from tests.factories import PASSWORD, make_club, make_game, make_member, make_user, record

pytestmark = pytest.mark.django_db


def signed_in(client: Client) -> bool:
    return client.get("/clubs/").status_code == 200


@pytest.fixture
def ann_client(client, ann):
    client.force_login(ann)
    return client


def change(client: Client, old: str = PASSWORD, new: str = NEW_PASSWORD):
    return client.post(
        "/accounts/password/",
        {"old_password": old, "new_password1": new, "new_password2": new},
    )


# Change password


def test_my_clubs_leads_to_change_password_and_delete_my_account(ann_client):
    page = shown(ann_client.get("/clubs/"))
    assert "Signed in as ann." in page
    assert '<a href="/accounts/password/">Change password</a>' in page
    assert '<a class="danger-link" href="/accounts/delete/">Delete my account</a>' in page


def test_changing_the_password_keeps_this_phone_and_signs_out_every_other(ann_client, ann):
    other_phone = Client()
    other_phone.force_login(ann)
    page = shown(ann_client.get("/accounts/password/"))
    for label in ("Old password", "New password", "New password confirmation"):
        assert f">{label}</label>" in page
    response = change(ann_client)
    assert response["Location"] == "/clubs/"
    assert "Your password is changed." in shown(ann_client.get("/clubs/"))
    assert signed_in(ann_client)
    assert not signed_in(other_phone)
    assert logs_in("ann", NEW_PASSWORD)
    assert not logs_in("ann", PASSWORD)


def test_a_wrong_old_password_changes_nothing_and_says_so(ann_client):
    response = change(ann_client, old="not my password")
    assert response.status_code == 200
    assert "Your old password was entered incorrectly." in shown(response)
    assert logs_in("ann", PASSWORD)


def test_a_weak_new_password_is_refused_saying_why(ann_client):
    response = change(ann_client, new="12345678")
    assert "This password is too common." in shown(response)
    assert logs_in("ann", PASSWORD)


def test_the_change_sent_again_after_it_went_through_changes_nothing_and_succeeds(ann):
    """A resend (or the second of a double tap) checks the old password under the row lock:
    it no longer matches, the new one does, so it is done already."""
    first = change_password(user=ann, old_password=PASSWORD, new_password=NEW_PASSWORD)
    again = change_password(user=ann, old_password=PASSWORD, new_password=NEW_PASSWORD)
    assert again.password == first.password  # not hashed anew: the sessions kept agree
    with pytest.raises(ScoringError, match="Your old password was typed wrong"):
        change_password(user=ann, old_password=PASSWORD, new_password="third one 77")


def test_change_password_asks_to_log_in_first(client):
    assert client.get("/accounts/password/")["Location"].startswith("/accounts/login/")


# Delete my account


def scores_of(club: Club) -> dict[str, object]:
    """Everything the club's pages show of its scores, and every history line as it reads."""
    games = Game.objects.filter(club=club).order_by("pk")
    return {
        "standings": standings(games),
        "games": list(games.values("status", "winner_id", "stake", "season_id")),
        "totals": list(Seat.objects.filter(game__club=club).order_by("pk").values("total")),
        "deals": Deal.objects.filter(game__club=club).count(),
        "scores": list(DealScore.objects.filter(deal__game__club=club).values("penalty")),
        "history": [
            change.summary() for change in GameChange.objects.filter(game__club=club).order_by("pk")
        ],
    }


def test_deleting_my_account_keeps_every_score_and_history_line(ann_client, ann, club):
    finished = make_game(club, by=ann)
    for _ in range(3):
        record(finished, 0, 13, 13, 13, by=ann)
    playing = make_game(club, by=ann)
    record(playing, 0, 5, 3, 2, by=ann)
    record(playing, 4, 0, 6, 1, by=ann)
    services.undo_last_deal(game=playing, by=ann)
    services.set_stake(game=playing, stake=Decimal("0.10"), by=ann)
    before = scores_of(club)
    assert "ann recorded deal 1: 0 13 13 13" in before["history"]

    page = shown(ann_client.get("/accounts/delete/"))
    assert "The scores stay: they belong to the players, not to accounts." in page
    response = ann_client.post("/accounts/delete/", {"password": PASSWORD})
    assert response["Location"] == "/"
    assert "Your account is deleted." in shown(ann_client.get("/"))

    assert not get_user_model().objects.filter(username="ann").exists()
    assert not Membership.objects.filter(club=club, user_id=ann.pk).exists()
    after = scores_of(club)
    expected = before | {
        "history": [line.replace("ann ", "Someone ", 1) for line in before["history"]]
    }
    assert after == expected
    assert not logs_in("ann", PASSWORD)
    assert not signed_in(ann_client)


def test_deleting_my_account_signs_out_every_other_phone(ann_client, ann):
    other_phone = Client()
    other_phone.force_login(ann)
    ann_client.post("/accounts/delete/", {"password": PASSWORD})
    assert not signed_in(other_phone)


def test_an_owner_hands_each_club_on_before_deleting_the_account(owner_client, owner, club):
    second = make_club(owner, name="Sunday table")
    make_member(make_club(make_user("olga"), name="Olga's table"))  # not owner's: not named
    page = shown(owner_client.get("/accounts/delete/"))
    assert "You run 2 clubs, so your account can't be deleted yet." in page
    assert "Make owner" in page
    assert f'<a class="tap" href="/clubs/{club.pk}/">Friday table</a>' in page
    assert f'<a class="tap" href="/clubs/{second.pk}/">Sunday table</a>' in page
    assert "Olga" not in page
    assert 'name="password"' not in page

    response = owner_client.post("/accounts/delete/", {"password": PASSWORD})
    assert response.status_code == 200
    assert 'role="alert"' in shown(response)
    assert get_user_model().objects.filter(pk=owner.pk).exists()
    with pytest.raises(OwnsClubs):
        delete_account(user=owner, password=PASSWORD)


def test_a_wrong_password_deletes_nothing_and_says_so(ann_client, ann):
    response = ann_client.post("/accounts/delete/", {"password": "not my password"})
    assert response.status_code == 200
    assert "That isn't your password. Type it again." in shown(response)
    response = ann_client.post("/accounts/delete/", {})
    assert "Type your password to delete your account." in shown(response)
    assert get_user_model().objects.filter(pk=ann.pk).exists()


def test_the_clubs_history_says_who_left_by_deleting_their_account(owner_client, club, ann):
    """Each club the account was in gets a line; the owner reads it on the club's history."""
    second = make_club(make_user("olga"), name="Olga's table")
    services.join_club(token=second.invite_token, user=ann)
    delete_account(user=ann, password=PASSWORD)
    delete_account(user=ann, password=PASSWORD)  # a resend: no second line

    for each in (club, second):
        assert [line.summary() for line in each.changes.all()] == [
            "ann left the club (account deleted)"
        ]
    assert "ann left the club (account deleted)" in shown(
        owner_client.get(f"/clubs/{club.pk}/history/")
    )


def test_a_refused_deletion_leaves_no_line(ann, club):
    with pytest.raises(ScoringError):
        delete_account(user=ann, password="not my password")
    assert not club.changes.exists()


def test_deleting_twice_is_harmless(ann):
    """The second of a double tap, or a resend: the account is gone already."""
    delete_account(user=ann, password=PASSWORD)
    delete_account(user=ann, password=PASSWORD)
    assert not get_user_model().objects.filter(pk=ann.pk).exists()


# What points at an account: what deleting one does to it, decided for every link.

ON_DELETE = {
    "scoring.Club.owner": models.PROTECT,  # refused by delete_account: hand it on first
    "scoring.Membership.user": models.CASCADE,
    "scoring.Game.created_by": models.SET_NULL,
    "scoring.Deal.recorded_by": models.SET_NULL,
    "scoring.DealScore.entered_by": models.SET_NULL,  # the figure stays, sent by "someone"
    "scoring.SentFacts.by": models.SET_NULL,  # a figure of a deal filling in stays till it records
    "scoring.GameChange.by": models.SET_NULL,
    "scoring.SeasonChange.by": models.SET_NULL,
    "scoring.ClubChange.by": models.SET_NULL,  # the club's history keeps the line: "Someone"
    "scoring.ImportedFile.by": models.SET_NULL,  # the file stays imported, by "someone"
    "nights.Night.created_by": models.SET_NULL,  # the night stays, drawn by "someone"
    "admin.LogEntry.user": models.CASCADE,  # the admin's own log of its staff's edits
}


def test_every_link_to_an_account_is_decided():
    found = {
        f"{model._meta.app_label}.{model.__name__}.{field.name}": field.remote_field.on_delete
        for model in apps.get_models()
        for field in model._meta.get_fields()
        if field.is_relation
        and field.concrete
        and field.related_model is not None
        and field.related_model._meta.label == settings.AUTH_USER_MODEL
        and not field.many_to_many
    }
    assert found == ON_DELETE
