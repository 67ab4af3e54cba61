"""A new game offers the club's members as seat names; a member seated by their name is linked
to their seat's player, as their "This is me" would link them, once, whoever taps how often."""

from __future__ import annotations

import pytest
from django.test import Client

from scoring import selectors, services
from scoring.models import ClubChange, Game, Player
from tests.concurrency import at_once, needs_postgres
from tests.factories import make_club, make_game, make_member, make_user

pytestmark = pytest.mark.django_db

TABLE = ("bo", "Ann", "Cy", "Dee")


def linked(club) -> dict[str, str]:
    """Each linked player of the club's roster, and the member they are."""
    return dict(
        club.players.filter(member__isnull=False).values_list("name", "member__user__username")
    )


def club_history(club) -> list[str]:
    return [change.summary() for change in ClubChange.objects.filter(club=club)]


@pytest.fixture
def bo(club):
    return make_member(club, "bo")


def test_a_member_seated_by_their_name_is_their_seats_player(club, bo):
    game = make_game(club, TABLE)
    assert game.seats.get(position=0).player.member.user == bo
    assert linked(club) == {"bo": "bo"}
    assert club_history(club) == ["owner seated bo as the player bo"]


def test_a_member_seated_by_their_name_in_another_case_is_linked_too(club, bo):
    make_game(club, ("BO", "Ann", "Cy", "Dee"))
    assert linked(club) == {"BO": "bo"}


def test_a_roster_player_of_the_members_name_is_linked_to_them(club):
    make_game(club, ("Bo", "Ann", "Cy", "Dee"))  # before Bo had an account
    make_member(club, "bo")
    make_game(club, TABLE)
    assert linked(club) == {"Bo": "bo"}
    assert club.players.count() == 4


def test_a_member_who_is_a_player_already_stays_that_player(club, bo):
    make_game(club, ("Ann", "Ben", "Cy", "Dee"))
    services.claim_player(player=club.players.get(name="Ann"), by=bo)
    make_game(club, ("bo", "Ben", "Cy", "Dee"))
    assert linked(club) == {"Ann": "bo"}
    assert club.players.get(name="bo").member is None


def test_a_player_someone_else_said_they_are_stays_theirs(club):
    make_game(club, ("Bo", "Ann", "Cy", "Dee"))
    bob = make_member(club, "bob")
    services.claim_player(player=club.players.get(name="Bo"), by=bob)
    make_member(club, "bo")
    make_game(club, TABLE)
    assert linked(club) == {"Bo": "bob"}


def test_a_double_tap_or_a_resend_seats_and_links_once(club, bo):
    first, second = make_game(club, TABLE), make_game(club, TABLE)
    assert first.seats.get(position=0).player == second.seats.get(position=0).player
    assert linked(club) == {"bo": "bo"}
    assert club_history(club) == ["owner seated bo as the player bo"]


def test_the_seats_offer_the_roster_and_the_members_who_are_no_player_yet(club, bo):
    make_member(club, "ann")  # looks like the roster's Ann: offered once, as Ann
    make_member(club, "x" * 41)  # too long for a seat
    make_game(club, ("Ann", "Ben", "Cy", "Dee"))
    carol = make_member(club, "carol")
    services.claim_player(player=club.players.get(name="Cy"), by=carol)
    assert selectors.seat_names(club) == [
        ("Ann", False),
        ("Ben", False),
        ("bo", True),
        ("Cy", False),
        ("Dee", False),
        ("owner", True),
    ]


def test_the_new_game_page_offers_members_and_links_the_one_chosen(club, bo):
    client = Client()
    client.force_login(club.owner)
    html = client.get(f"/clubs/{club.pk}/games/new/").content.decode()
    assert '<option value="bo" label="Member"></option>' in html
    assert "Members not on the roster yet: bo and owner." in html
    response = client.post(
        f"/clubs/{club.pk}/games/new/",
        {"seat_1": "bo", "seat_2": "Ann", "seat_3": "Cy", "seat_4": "Dee"},
    )
    assert response.status_code == 302
    assert linked(club) == {"bo": "bo"}


def test_a_seat_hiding_a_character_is_refused_on_the_page_keeping_what_was_typed(club):
    client = Client()
    client.force_login(club.owner)
    response = client.post(
        f"/clubs/{club.pk}/games/new/",
        {"seat_1": "Ann", "seat_2": "Ben\u200b", "seat_3": "\u0410nn", "seat_4": "Dee"},
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "U+200B ZERO WIDTH SPACE" in html
    assert "\u0410nn already sits in seat 1" in html
    assert 'value="Ben\u200b"' in html and 'value="Dee"' in html
    assert not Game.objects.exists()


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_two_phones_seating_a_member_at_once_make_one_player_linked_once():
    club = make_club(make_user("owner"))
    make_member(club, "bo")

    outcomes = at_once(*(lambda: make_game(club, TABLE).pk for _ in range(2)))

    assert all(outcome.startswith("done") for outcome in outcomes), outcomes
    assert Player.objects.filter(club=club, name="bo").count() == 1
    assert linked(club) == {"bo": "bo"}
    assert club_history(club) == ["owner seated bo as the player bo"]


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_a_member_saying_this_is_me_while_seated_by_name_is_one_player():
    club = make_club(make_user("owner"))
    make_game(club, ("Ann", "Ben", "Cy", "Dee"))
    bo = make_member(club, "bo")

    outcomes = at_once(
        lambda: services.claim_player(player=Player.objects.get(name="Ann"), by=bo),
        lambda: make_game(club, ("bo", "Ben", "Cy", "Dee")).pk,
    )

    assert all(outcome.startswith(("done", "refused")) for outcome in outcomes), outcomes
    assert len(linked(club)) == 1
    assert list(linked(club).values()) == ["bo"]
