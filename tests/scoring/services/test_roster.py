"""A club's roster: any member renames a player, merges a mistyped player into the right one
(every seat moves over, totals and standings add up as if the name had been right) and removes
a player who never sat in a game. Each change is in the club's history; a merge in each of its
games' too; every cached page shows it at once.
"""

from __future__ import annotations

import dataclasses
import html
import uuid

import pytest
from django.contrib.messages import get_messages
from django.test import Client

from scoring import services
from scoring.models import ClubChange, Game, GameChange, Player, Seat
from scoring.selectors.standings import standings
from tests.concurrency import at_once, needs_postgres
from tests.factories import make_club, make_game, make_member, make_user, record
from tests.pages import text

pytestmark = pytest.mark.django_db

CAUGHT = (0, 13, 13, 13)  # three of these and the first seat wins; the others reach 117


def finish(game: Game, cards=CAUGHT) -> Game:
    for _ in range(3):
        record(game, *cards)
    game.refresh_from_db()
    assert game.is_finished
    return game


def player(club, name: str) -> Player:
    return club.players.get(name=name)


def shown(response) -> str:
    return html.unescape(text(response))


def page(client: Client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, path
    return shown(response)


def said(response) -> str:
    return [str(message) for message in get_messages(response.wsgi_request)][-1]


def club_history(club) -> list[str]:
    return [change.summary() for change in ClubChange.objects.filter(club=club)]


def roster(club) -> list[str]:
    return list(club.players.values_list("name", flat=True))


@pytest.fixture
def bo_client(club):
    client = Client()
    client.force_login(make_member(club, "bo"))
    return client


def path(club, who: Player, action: str) -> str:
    return f"/clubs/{club.pk}/players/{who.pk}/{action}/"


# Renaming


def test_any_member_renames_a_player_and_every_cached_page_shows_it(bo_client, club):
    game = finish(make_game(club, ("Anne", "Ben", "Cy", "Dee")))
    pages = [f"/games/{game.pk}/", f"/seasons/{game.season_id}/", f"/clubs/{club.pk}/"]
    for address in pages:
        assert "Anne" in page(bo_client, address)  # cached now
    anne = player(club, "Anne")
    assert 'value="Anne"' in page(bo_client, path(club, anne, "rename"))

    response = bo_client.post(path(club, anne, "rename"), {"name": "  Ann  "})

    assert response.status_code == 302
    assert response["Location"] == f"/players/{anne.pk}/"
    assert said(response) == "The player is now called Ann."
    for address in pages:
        assert "Anne" not in page(bo_client, address), address
    assert "bo renamed the player Anne to Ann" in club_history(club)


def test_a_rename_to_a_name_on_the_roster_is_refused_pointing_at_merge(bo_client, club, game):
    make_game(club, ("Anne", "Ben", "Cy", "Dee"))
    anne = player(club, "Anne")

    response = bo_client.post(path(club, anne, "rename"), {"name": "ANN"})

    assert response.status_code == 200
    page_shown = shown(response)
    assert (
        "There is already a player called Ann. If Anne is the same person, use “Merge into…”"
        " instead." in page_shown
    )
    assert 'value="ANN"' in page_shown  # what was typed is kept
    assert sorted(roster(club)) == ["Ann", "Anne", "Ben", "Cy", "Dee"]
    assert club_history(club) == []


def test_a_change_of_case_alone_is_a_rename(owner_client, club):
    make_game(club, ("ann", "Ben", "Cy", "Dee"))
    ann = player(club, "ann")
    assert owner_client.post(path(club, ann, "rename"), {"name": "Ann"}).status_code == 302
    assert player(club, "Ann").pk == ann.pk


@pytest.mark.parametrize(
    ("name", "problem"),
    [("   ", "Give the player a name"), ("x" * 41, "A name can be at most 40 characters")],
)
def test_a_rename_needs_a_name_that_fits(owner_client, club, game, name, problem):
    ann = player(club, "Ann")
    response = owner_client.post(path(club, ann, "rename"), {"name": name})
    assert response.status_code == 200
    assert problem in shown(response)
    assert player(club, "Ann").pk == ann.pk
    with pytest.raises(services.ScoringError, match=problem.removeprefix("A name")[-20:]):
        services.rename_player(player=ann, name=name, by=club.owner)


def test_renaming_twice_renames_once(owner_client, club, game):
    ann = player(club, "Ann")
    for _ in range(2):
        response = owner_client.post(path(club, ann, "rename"), {"name": "Annabel"})
        assert response.status_code == 302
    assert club_history(club) == ["owner renamed the player Ann to Annabel"]


def test_the_name_a_new_game_types_finds_the_renamed_player(owner_client, club, game):
    services.rename_player(player=player(club, "Ann"), name="Annabel", by=club.owner)
    again = make_game(club, ("annabel", "Ben", "Cy", "Dee"))
    assert again.seats.get(position=0).player == player(club, "Annabel")


# Merging


@pytest.fixture
def mistyped(club):
    """Ann's games, and one where her name was typed "Anne": she won it, and went out on every
    deal of another still in progress."""
    finish(make_game(club))
    finish(make_game(club, ("Ben", "Ann", "Cy", "Dee")))
    typo = finish(make_game(club, ("Anne", "Ben", "Cy", "Eve")))
    playing = make_game(club, ("Ben", "Cy", "Anne", "Dee"))
    record(playing, 5, 6, 0, 7)
    return {"typo": typo, "playing": playing}


def test_a_merge_moves_every_seat_and_the_standings_add_up(owner_client, club, mistyped):
    season_games = Game.objects.filter(season=club.seasons.get())
    before = {line.name: line for line in standings(season_games)}
    seats_before = sorted(Seat.objects.values_list("game_id", "position", "total"))
    anne = player(club, "Anne")
    season_page = f"/seasons/{mistyped['typo'].season_id}/"
    assert "Anne" in page(owner_client, season_page)  # cached now
    assert '<option value="" selected>Choose a player</option>' in page(
        owner_client, path(club, anne, "merge")
    )

    response = owner_client.post(path(club, anne, "merge"), {"into": player(club, "Ann").pk})

    assert response.status_code == 302
    ann = player(club, "Ann")
    assert response["Location"] == f"/players/{ann.pk}/"
    assert "Anne is merged into Ann." in page(owner_client, response["Location"])
    assert "Anne" not in roster(club)
    # Every seat keeps its total; Anne's are Ann's now, and so is the game Anne won.
    assert sorted(Seat.objects.values_list("game_id", "position", "total")) == seats_before
    assert mistyped["typo"].seats.get(position=0).player == ann
    assert Game.objects.get(pk=mistyped["typo"].pk).winner == ann
    assert mistyped["playing"].seats.get(position=2).player == ann
    # The table adds up as if the name had been right all along.
    after = {line.name: line for line in standings(season_games)}
    summed = {
        field.name: getattr(before["Ann"], field.name) + getattr(before["Anne"], field.name)
        for field in dataclasses.fields(before["Ann"])
        if field.name in ("games", "wins", "deals", "deals_won", "penalty", "thirteens")
    }
    assert {name: getattr(after["Ann"], name) for name in summed} == summed
    assert after["Ann"].best == min(before["Ann"].best, before["Anne"].best)
    assert set(after) == set(before) - {"Anne"}
    assert "Anne" not in page(owner_client, season_page)
    # In the club's history, and in each game's that it touched.
    assert club_history(club) == ["owner merged the player Anne into Ann"]
    for game in (mistyped["typo"], mistyped["playing"]):
        line = GameChange.objects.filter(game=game).first()
        assert line.summary() == "owner merged the player Anne into Ann"
        assert "owner merged the player Anne into Ann" in page(owner_client, f"/games/{game.pk}/")
    assert GameChange.objects.filter(action=GameChange.Action.MERGE).count() == 2


def test_the_merged_players_games_show_the_right_name_on_an_open_page(owner_client, club):
    """A phone following the game is told by its poll: the merge counts the version up."""
    playing = make_game(club, ("Anne", "Ben", "Cy", "Dee"))
    record(playing, 0, 1, 2, 3)
    make_game(club, ("Ann", "Ben", "Cy", "Dee"))
    version = Game.objects.get(pk=playing.pk).version
    assert owner_client.get(f"/games/{playing.pk}/board/?v={version}").status_code == 204

    services.merge_player(player=player(club, "Anne"), into=player(club, "Ann"), by=club.owner)

    response = owner_client.get(f"/games/{playing.pk}/board/?v={version}")
    assert response.status_code == 200
    assert '<th scope="col">Ann</th>' in response.content.decode()


def test_two_players_who_sat_in_one_game_cant_be_merged(bo_client, club, game):
    record(game, 0, 1, 2, 3)
    ben = player(club, "Ben")

    response = bo_client.post(path(club, ben, "merge"), {"into": player(club, "Ann").pk})

    assert response.status_code == 200
    started = game.created_at.strftime("%-d %b %Y")
    assert (
        f"Ben and Ann both sat in the game of Ann, Ben, Cy and Dee started {started}, so they"
        " are two people and can't be merged." in shown(response)
    )
    assert f'href="/games/{game.pk}/">See that game</a>' in shown(response)
    assert sorted(roster(club)) == ["Ann", "Ben", "Cy", "Dee"]
    assert not ClubChange.objects.exists() and not GameChange.objects.filter(action="merge")


def test_a_merge_needs_another_player_of_the_club(owner_client, club, game):
    ann = player(club, "Ann")
    other = make_game(make_club(name="Elsewhere")).seats.first().player
    for into, problem in (
        ("", "Choose the player to merge Ann into"),
        (ann.pk, "Choose one of the club's other players"),
        (other.pk, "Choose one of the club's other players"),
    ):
        response = owner_client.post(path(club, ann, "merge"), {"into": into})
        assert response.status_code == 200
        assert problem in shown(response)
    with pytest.raises(services.ScoringError, match="can't be merged into themself"):
        services.merge_player(player=ann, into=ann, by=club.owner)
    with pytest.raises(services.ScoringError, match="another club"):
        services.merge_player(player=ann, into=other, by=club.owner)
    assert sorted(roster(club)) == ["Ann", "Ben", "Cy", "Dee"]


def test_merging_twice_merges_once_and_the_second_is_answered_on_the_club_page(
    owner_client, club, mistyped
):
    merge = path(club, player(club, "Anne"), "merge")
    into = {"into": player(club, "Ann").pk}
    assert owner_client.post(merge, into).status_code == 302

    again = owner_client.post(merge, into)

    assert again.status_code == 302
    assert again["Location"] == f"/clubs/{club.pk}/"
    assert said(again) == "That player is no longer on the club's roster."
    assert club_history(club) == ["owner merged the player Anne into Ann"]
    assert owner_client.get(merge).status_code == 404


def test_a_player_merged_on_another_phone_is_not_merged_or_renamed_again(club, mistyped):
    anne, ann = player(club, "Anne"), player(club, "Ann")
    services.merge_player(player=Player.objects.get(pk=anne.pk), into=ann, by=club.owner)
    with pytest.raises(services.ScoringError, match="Anne is no longer on the club's roster"):
        services.merge_player(player=anne, into=ann, by=club.owner)
    with pytest.raises(services.ScoringError, match="Anne is no longer on the club's roster"):
        services.rename_player(player=anne, name="Anna", by=club.owner)


# Removing


def test_a_player_who_never_sat_is_removed(bo_client, club, game):
    spare = make_game(club, ("Zed", "Ben", "Cy", "Dee"))
    services.delete_game(game=spare, by=club.owner)
    zed = player(club, "Zed")
    assert f'href="{path(club, zed, "remove")}">Remove</a>' in page(
        bo_client, f"/players/{zed.pk}/"
    )
    assert "Take Zed off the roster?" in page(bo_client, path(club, zed, "remove"))

    response = bo_client.post(path(club, zed, "remove"))

    assert response.status_code == 302
    assert said(response) == "Zed is off the roster."
    assert "Zed" not in roster(club)
    assert club_history(club) == ["bo removed the player Zed from the roster"]
    again = bo_client.post(path(club, zed, "remove"))
    assert said(again) == "That player is no longer on the club's roster."
    assert len(club_history(club)) == 1


def test_a_player_who_sat_in_a_game_stays(owner_client, club, game):
    ann = player(club, "Ann")
    assert f'{path(club, ann, "remove")}"' not in page(owner_client, f"/players/{ann.pk}/")
    explained = page(owner_client, path(club, ann, "remove"))
    assert "Ann has played 1 game, so they stay on the roster." in explained

    response = owner_client.post(path(club, ann, "remove"))

    assert response.status_code == 200
    assert '<p class="form-errors" role="alert">Ann has played 1 game' in shown(response)
    assert "Ann" in roster(club)
    assert club_history(club) == []


def test_the_player_page_offers_the_roster_changes(owner_client, club, game):
    ann = player(club, "Ann")
    shown_page = page(owner_client, f"/players/{ann.pk}/")
    assert f'href="{path(club, ann, "rename")}">Rename</a>' in shown_page
    assert f'href="{path(club, ann, "merge")}">Merge into…</a>' in shown_page
    assert f'href="/players/{ann.pk}/"' in page(owner_client, f"/clubs/{club.pk}/")


def test_a_club_of_one_player_has_no_one_to_merge_into(owner_client, club):
    spare = make_game(club)
    services.delete_game(game=spare, by=club.owner)
    for name in ("Ben", "Cy", "Dee"):
        services.remove_player(player=player(club, name), by=club.owner)
    ann = player(club, "Ann")
    assert "There is no other player on the roster to merge Ann into." in page(
        owner_client, path(club, ann, "merge")
    )


def test_the_roster_of_another_club_is_not_found(owner_client, club, game):
    other = make_club(make_user("olga"), name="Olga's")
    theirs = make_game(other).seats.first().player
    for action in ("rename", "merge", "remove"):
        # Their player under my club's address, and under theirs.
        assert owner_client.get(path(club, theirs, action)).status_code == 404
        assert owner_client.get(path(other, theirs, action)).status_code == 404
        assert owner_client.post(path(other, theirs, action)).status_code == 404
    assert theirs.club.players.count() == 4


# Two phones at once


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_a_deal_that_ends_a_game_while_its_winner_is_merged_leaves_the_win_merged():
    """Recording locks the game; the merge locks the games it moves. Whichever goes first, the
    game ends won by Ann, and nothing refers to Anne any more."""
    club = make_club(make_user("owner"))
    make_game(club, ("Ann", "Ben", "Cy", "Dee"))
    game = make_game(club, ("Anne", "Ben", "Cy", "Eve"))
    record(game, *CAUGHT)
    record(game, *CAUGHT)

    outcomes = at_once(
        lambda: (
            services.record_deal(
                game=Game.objects.get(pk=game.pk),
                number=3,
                cards_left=list(CAUGHT),
                token=uuid.uuid4(),
                by=club.owner,
            ).deal.number
        ),
        lambda: services.merge_player(
            player=Player.objects.get(name="Anne"),
            into=Player.objects.get(name="Ann"),
            by=club.owner,
        ),
    )

    assert outcomes == ["done: 3", "done: 1"], outcomes
    game.refresh_from_db()
    assert game.is_finished
    assert game.winner.name == "Ann"
    assert not Player.objects.filter(name="Anne").exists()


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_two_phones_merging_one_player_merge_it_once():
    club = make_club(make_user("owner"))
    make_game(club, ("Ann", "Ben", "Cy", "Dee"))
    make_game(club, ("Anne", "Ben", "Cy", "Eve"))

    def merge():
        return services.merge_player(
            player=Player.objects.get(name="Anne"),
            into=Player.objects.get(name="Ann"),
            by=club.owner,
        )

    outcomes = at_once(merge, merge)

    assert sorted(outcomes) == [
        "done: 1",
        "refused: Anne is no longer on the club's roster",
    ], outcomes
    assert club_history(club) == ["owner merged the player Anne into Ann"]
