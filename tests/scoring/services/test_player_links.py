"""A member says "This is me" for a player of the roster, once per club; the owner can undo it.
Their player page then says it is them, and the home page shows their own figures. Each change
is a line of the club's history; a double tap changes nothing twice; someone else's club is a
404."""

from __future__ import annotations

import html

import pytest
from django.contrib.messages import get_messages
from django.db import IntegrityError, transaction
from django.test import Client

from scoring import services
from scoring.models import ClubChange, Player
from tests.concurrency import at_once, needs_postgres
from tests.factories import finish, make_club, make_game, make_member, make_user, record
from tests.pages import text

pytestmark = pytest.mark.django_db


def shown(response) -> str:
    return html.unescape(text(response))


def said(response) -> str:
    """What the page the response leads to says first (the latest message)."""
    return [str(message) for message in get_messages(response.wsgi_request)][-1]


def claim(client: Client, player: Player):
    return client.post(f"/clubs/{player.club_id}/players/{player.pk}/me/")


def unlink(client: Client, player: Player):
    return client.post(f"/clubs/{player.club_id}/players/{player.pk}/not-me/")


def linked(club) -> dict[str, str]:
    """Each linked player of the club's roster, and the member they are."""
    return dict(
        club.players.filter(member__isnull=False).values_list("name", "member__user__username")
    )


def club_history(club) -> list[str]:
    return [change.summary() for change in ClubChange.objects.filter(club=club)]


@pytest.fixture
def table(club):
    """Ann won two of three finished games at the club; a game of hers is in progress."""
    finish(make_game(club, ("Ann", "Ben", "Cy", "Dee")))
    finish(make_game(club, ("Ann", "Ben", "Cy", "Dee")))
    finish(make_game(club, ("Ben", "Ann", "Cy", "Dee")))
    record(make_game(club, ("Ann", "Ben", "Cy", "Dee")), 0, 5, 5, 5)
    bo = make_member(club, "bo")
    client = Client()
    client.force_login(bo)
    return {"bo": bo, "client": client, "ann": club.players.get(name="Ann")}


def test_a_member_says_this_is_me_and_sees_their_own_figures(club, table):
    client, ann = table["client"], table["ann"]
    page = shown(client.get(f"/players/{ann.pk}/"))
    assert '<button type="submit" class="button primary">This is me</button>' in page
    assert "You (Ann)" not in shown(client.get("/"))

    response = claim(client, ann)

    assert response.status_code == 302
    assert response["Location"] == f"/players/{ann.pk}/"
    assert said(response) == "You are Ann: your own figures show on the home page."
    assert linked(club) == {"Ann": "bo"}
    page = shown(client.get(f"/players/{ann.pk}/"))
    assert "This is you." in page
    assert ">This is me</button>" not in page
    # Three finished games of three deals each: she went out of every deal of the two she won,
    # and was caught with 13 cards (39) in each of the other's: 117 over 9 deals.
    home = shown(client.get("/"))
    assert "You (Ann): 2 won of 3 games" in home
    assert "13.00 penalty a deal on average" in home
    assert f'href="/players/{ann.pk}/"' in home
    assert club_history(club) == ["bo said they are the player Ann"]


def test_a_member_is_one_player_per_club_and_a_player_one_member(club, table):
    client, ann = table["client"], table["ann"]
    claim(client, ann)
    ben = club.players.get(name="Ben")
    assert ">This is me</button>" not in shown(client.get(f"/players/{ben.pk}/"))
    assert f'You are <a class="tap" href="/players/{ann.pk}/">Ann</a> in this club.' in shown(
        client.get(f"/players/{ben.pk}/")
    )

    response = claim(client, ben)

    assert (
        said(response)
        == "You are already Ann in this club. If that's wrong, ask owner, the club's owner."
    )
    cy = Client()
    cy.force_login(make_member(club, "cy"))
    assert (
        said(claim(cy, ann)) == "Ann is already bo. If that's wrong, ask owner, the club's owner."
    )
    assert linked(club) == {"Ann": "bo"}
    assert club_history(club) == ["bo said they are the player Ann"]


def test_a_double_tap_links_once(club, table):
    for _ in range(2):
        response = claim(table["client"], table["ann"])
        assert response.status_code == 302
        assert said(response) == "You are Ann: your own figures show on the home page."
    assert linked(club) == {"Ann": "bo"}
    assert club_history(club) == ["bo said they are the player Ann"]


def test_the_database_holds_one_player_per_member(club, table):
    services.claim_player(player=table["ann"], by=table["bo"])
    ben = club.players.get(name="Ben")
    ben.member = club.players.get(name="Ann").member
    with pytest.raises(IntegrityError), transaction.atomic():
        ben.save(update_fields=["member"])


def test_the_owner_undoes_it_and_a_member_cannot(club, table, owner_client):
    client, ann = table["client"], table["ann"]
    claim(client, ann)
    assert unlink(client, ann).status_code == 403
    assert ">Undo “This is me”</button>" not in shown(client.get(f"/players/{ann.pk}/"))
    assert "This is bo." in shown(owner_client.get(f"/players/{ann.pk}/"))
    members = shown(owner_client.get(f"/clubs/{club.pk}/"))
    assert f'<a href="/players/{ann.pk}/">Ann</a>' in members

    for _ in range(2):  # a double tap undoes it once
        response = unlink(owner_client, ann)
        assert response.status_code == 302
        assert said(response) == "Ann is no longer linked to a member."

    assert linked(club) == {}
    assert "You (Ann)" not in shown(client.get("/"))
    assert club_history(club) == [
        "owner undid bo's “This is me” for the player Ann",
        "bo said they are the player Ann",
    ]
    # Free again: bo may say which player they are once more.
    assert claim(client, club.players.get(name="Ben")).status_code == 302
    assert linked(club) == {"Ben": "bo"}


def test_someone_elses_club_is_not_found(club, table):
    other = make_game(make_club(make_user("olga")), ("Ola", "Pia", "Quinn", "Ray"))
    ola = other.club.players.get(name="Ola")
    assert claim(table["client"], ola).status_code == 404
    # Nor is one of its players reached through the member's own club.
    response = table["client"].post(f"/clubs/{club.pk}/players/{ola.pk}/me/")
    assert response.status_code == 302
    assert said(response) == "That player is no longer on the club's roster."
    assert linked(other.club) == {}


def test_leaving_the_club_ends_the_link_and_a_merge_carries_it(club, table):
    services.claim_player(player=table["ann"], by=table["bo"])
    services.leave_club(club=club, user=table["bo"])
    assert linked(club) == {}

    eve = make_member(club, "eve")
    make_game(club, ("Evie", "Ben", "Cy", "Dee"))
    services.claim_player(player=club.players.get(name="Evie"), by=eve)
    services.merge_player(player=club.players.get(name="Evie"), into=table["ann"], by=club.owner)
    assert linked(club) == {"Ann": "eve"}


def test_two_members_are_two_people_and_are_not_merged(club, table):
    services.claim_player(player=table["ann"], by=table["bo"])
    make_game(club, ("Eve", "Ben", "Cy", "Dee"))
    services.claim_player(player=club.players.get(name="Eve"), by=make_member(club, "eve"))
    with pytest.raises(services.ScoringError, match="are two members of the club"):
        services.merge_player(player=club.players.get(name="Eve"), into=table["ann"], by=club.owner)
    assert linked(club) == {"Ann": "bo", "Eve": "eve"}


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_two_taps_on_two_players_at_once_link_one():
    club = make_club(make_user("owner"))
    make_game(club, ("Ann", "Ben", "Cy", "Dee"))
    bo = make_member(club, "bo")

    outcomes = at_once(
        lambda: services.claim_player(player=Player.objects.get(name="Ann"), by=bo),
        lambda: services.claim_player(player=Player.objects.get(name="Ben"), by=bo),
    )

    assert sorted(outcome.split(":")[0] for outcome in outcomes) == ["done", "refused"]
    assert len(linked(club)) == 1
