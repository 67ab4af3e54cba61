"""A member asking for an owner's action is refused in one way everywhere: the page that says
what only the owner may do, with a way back; htmx is sent back there with the refusal shown."""

from __future__ import annotations

import html
import uuid

import pytest
from django.contrib.auth import get_user_model

from scoring import selectors, services
from scoring.models import Club, Game, Membership
from tests.factories import make_member

# (method, address, what the page says, where its way back leads); {club}, {season} and
# {game} are the fixtures' ids, and the game is finished (so its stake is the owner's too).
OWNER_ONLY = [
    (
        "post",
        "/clubs/{club}/invite/reset/",
        "Only the club's owner can reset its invite link",
        "/clubs/{club}/",
    ),
    (
        "get",
        "/clubs/{club}/seasons/new/",
        "Only the club's owner can start a new season.",
        "/clubs/{club}/",
    ),
    (
        "post",
        "/clubs/{club}/seasons/new/",
        "Only the club's owner can start a new season.",
        "/clubs/{club}/",
    ),
    (
        "get",
        "/seasons/{season}/rules/",
        "Only the club's owner can change a season's rules.",
        "/seasons/{season}/",
    ),
    (
        "post",
        "/seasons/{season}/rules/",
        "Only the club's owner can change a season's rules.",
        "/seasons/{season}/",
    ),
    (
        "get",
        "/games/{game}/season/",
        "Only the club's owner can move a game to another season.",
        "/games/{game}/",
    ),
    (
        "post",
        "/games/{game}/season/",
        "Only the club's owner can move a game to another season.",
        "/games/{game}/",
    ),
    ("get", "/games/{game}/delete/", "Only the club's owner can delete a game.", "/games/{game}/"),
    ("post", "/games/{game}/delete/", "Only the club's owner can delete a game.", "/games/{game}/"),
    (
        "post",
        "/games/{game}/stake/",
        "Only the club's owner can change the stake of a finished game",
        "/games/{game}/",
    ),
]


@pytest.fixture
def member_client(client, club):
    member = get_user_model().objects.create_user(username="ann", password="a long passphrase 7")
    services.join_club(token=club.invite_token, user=member)
    client.force_login(member)
    return client


@pytest.fixture
def finished_game(game):
    for number in (1, 2, 3):
        services.record_deal(
            game=game,
            number=number,
            cards_left=[0, 13, 13, 13],
            token=uuid.uuid4(),
            by=game.club.owner,
        )
    assert Game.objects.get(pk=game.pk).is_finished
    return game


def address(template: str, finished_game: Game) -> str:
    return template.format(
        club=finished_game.club_id, season=finished_game.season_id, game=finished_game.pk
    )


@pytest.mark.parametrize(("method", "path", "what", "back"), OWNER_ONLY)
def test_a_members_request_for_an_owners_action_gets_the_page_that_says_so(
    member_client, finished_game, method, path, what, back
):
    data = {"stake": "5"} if "stake" in path else {}
    response = getattr(member_client, method)(address(path, finished_game), data)

    assert response.status_code == 403
    page = html.unescape(response.content.decode())
    assert "Only the owner can do that" in page
    assert what in page
    assert f'href="{address(back, finished_game)}"' in page
    game = Game.objects.get(pk=finished_game.pk)  # still there, as it was
    assert game.stake is None and game.season_id == finished_game.season_id


@pytest.mark.parametrize(("method", "path", "what", "back"), OWNER_ONLY)
def test_an_htmx_request_for_an_owners_action_goes_back_with_the_refusal_shown(
    member_client, finished_game, method, path, what, back
):
    """htmx swaps no 403 into the page, so it is sent where the way back leads instead, and
    that page says why nothing was done."""
    data = {"stake": "5"} if "stake" in path else {}
    response = getattr(member_client, method)(
        address(path, finished_game), data, headers={"HX-Request": "true"}
    )

    assert response.status_code == 200
    assert response["HX-Redirect"] == address(back, finished_game)
    page = html.unescape(member_client.get(response["HX-Redirect"]).content.decode())
    assert what in page
    assert Game.objects.get(pk=finished_game.pk).stake is None


@pytest.mark.parametrize("action", ["remove", "owner"])
def test_an_owners_action_after_the_club_was_handed_on_meanwhile_gets_the_page_that_says_so(
    owner_client, club, monkeypatch, action
):
    """The owner's page for a member was read while they owned the club; another phone of
    theirs handed it on before this one's tap was written. The write refuses as any member's
    would be refused, and the answer is the same: the page that says what only the owner may
    do."""
    bo, cy = make_member(club, "bo"), make_member(club, "cy")
    found = selectors.membership_in

    def handed_on_meanwhile(*args):
        services.make_owner(club=Club.objects.get(pk=club.pk), member=cy, by=club.owner)
        return found(*args)

    monkeypatch.setattr(selectors, "membership_in", handed_on_meanwhile)
    membership = Membership.objects.get(club=club, user=bo)
    response = owner_client.post(f"/clubs/{club.pk}/members/{membership.pk}/{action}/")

    assert response.status_code == 403
    what = {
        "remove": "Only the club's owner can remove a member.",
        "owner": "Only the club's owner can make another member the owner.",
    }[action]
    assert what in html.unescape(response.content.decode())
    assert Membership.objects.filter(pk=membership.pk).exists()
    assert Club.objects.get(pk=club.pk).owner == cy
