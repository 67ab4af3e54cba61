"""What each action refuses, and the words it says why: nothing is written, and the scorer
reads what to fix. Through `scoring.services` and the site's URLs."""

import datetime
from decimal import Decimal

import pytest

from rules.ruleset import parse_rules
from scoring import services
from scoring.models import Club, Deal, Game, Season
from tests.factories import make_club, make_game, make_member, record
from tests.pages import HTMX, text

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2027, 3, 1)


@pytest.mark.parametrize(
    ("name", "message"),
    [("   ", "Give the club a name"), ("x" * 81, "A club's name can be at most 80 characters")],
)
def test_a_club_needs_a_name_that_fits(owner, name, message):
    with pytest.raises(services.ScoringError, match=message):
        services.create_club(name=name, owner=owner)
    assert not Club.objects.exists()


def test_a_game_seats_as_many_players_as_its_rules_are_for(club):
    with pytest.raises(services.ScoringError, match="A game needs 4 players"):
        make_game(club, names=("Ann", "Ben", "Cy"))
    assert not Game.objects.exists()


def test_one_empty_seat_is_named_on_its_own(club):
    with pytest.raises(services.ScoringError, match="— Seat 3 is empty$"):
        make_game(club, names=("Ann", "Ben", " ", "Dee"))


def test_a_game_goes_only_into_a_season_of_its_own_club(club):
    elsewhere = make_club(name="Elsewhere").seasons.get()
    with pytest.raises(services.ScoringError, match="That season belongs to another club"):
        make_game(club, season=elsewhere)
    assert not Game.objects.exists()


def test_only_the_owner_starts_a_season(club):
    member = make_member(club)
    with pytest.raises(services.NotAllowed, match="Only the club's owner can start a new season"):
        services.start_season(club=club, name="Spring", starts_on=TODAY, by=member)
    assert club.seasons.count() == 1


@pytest.mark.parametrize(
    ("name", "ends_on", "message"),
    [
        (" ", None, "Give the season a name"),
        ("S" * 61, None, "A season's name can be at most 60 characters"),
        ("Spring", TODAY - datetime.timedelta(days=1), "A season can't end before it starts"),
    ],
)
def test_a_season_needs_a_name_that_fits_and_an_end_after_its_start(club, name, ends_on, message):
    with pytest.raises(services.ScoringError, match=message):
        services.start_season(club=club, name=name, starts_on=TODAY, ends_on=ends_on, by=club.owner)
    assert list(club.seasons.values_list("name", "is_current")) == [("Season 1", True)]


def test_only_the_owner_changes_a_seasons_rules(club):
    season = club.seasons.get()
    with pytest.raises(services.NotAllowed, match="Only the club's owner can change"):
        services.set_season_rules(
            season=season, rules=parse_rules("pusoy-dos"), stake=None, by=make_member(club)
        )
    assert Season.objects.get(pk=season.pk).rules == season.rules


def test_only_the_owner_moves_a_game_and_only_within_the_club(club, game):
    spring = services.start_season(club=club, name="Spring", starts_on=TODAY, by=club.owner)
    with pytest.raises(services.NotAllowed, match="Only the club's owner can move a game"):
        services.move_game(game=game, season=spring, by=make_member(club))
    elsewhere = make_club(name="Elsewhere").seasons.get()
    with pytest.raises(services.ScoringError, match="That season belongs to another club"):
        services.move_game(game=game, season=elsewhere, by=club.owner)
    assert Game.objects.get(pk=game.pk).season_id == game.season_id


def test_a_stake_cant_be_negative(game):
    with pytest.raises(services.ScoringError, match="A stake can't be negative"):
        services.set_stake(game=game, stake=Decimal("-0.50"), by=game.club.owner)
    assert Game.objects.get(pk=game.pk).stake is None


def test_a_deal_needs_the_cards_left_of_every_seat(game):
    with pytest.raises(services.ScoringError, match="Enter the cards left for all 4 players"):
        record(game, 0, 5, 7)
    assert not Deal.objects.exists()


def test_a_deal_that_isnt_there_cant_be_edited(game):
    record(game, 0, 5, 7, 9)
    with pytest.raises(services.ScoringError, match="There is no deal 2 in this game"):
        services.edit_deal(game=game, number=2, cards_left=[0, 1, 1, 1], by=game.club.owner)
    assert [s.total for s in game.seats.order_by("position")] == [0, 5, 7, 9]


def test_asking_to_undo_before_any_deal_says_there_is_none(owner_client, game):
    response = owner_client.get(f"/games/{game.pk}/undo/", follow=True)
    assert response.redirect_chain == [(f"/games/{game.pk}/", 302)]
    assert "There is no deal to undo yet." in response.content.decode()


def test_an_undo_sent_again_from_the_live_page_says_it_was_already_done(owner_client, game):
    record(game, 0, 5, 7, 9)
    record(game, 3, 0, 2, 8)
    owner_client.post(f"/games/{game.pk}/undo/", {"number": "2"}, headers=HTMX)

    response = owner_client.post(f"/games/{game.pk}/undo/", {"number": "2"}, headers=HTMX)

    assert response.status_code == 200
    assert 'role="alert">Deal 2 was already undone' in text(response)
    assert list(game.deals.values_list("number", flat=True)) == [1]
