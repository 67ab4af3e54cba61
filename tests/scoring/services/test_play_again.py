"""A finished game's "Play again": the same players in the same seats, in the current season,
one new game however many times (or on however many phones) it is tapped; and the new-game
form's "Same players as last time"."""

import datetime

import pytest

from rules.ruleset import parse_rules
from scoring import services
from scoring.models import Game, Season
from tests.concurrency import at_once, needs_postgres
from tests.factories import finish, make_club, make_game, make_member, make_user, record
from tests.pages import text

pytestmark = pytest.mark.django_db


def seated(game: Game) -> list[int]:
    return list(game.seats.order_by("position").values_list("player_id", flat=True))


def names(game: Game) -> list[str]:
    return list(game.seats.order_by("position").values_list("player__name", flat=True))


@pytest.fixture
def finished(club):
    return finish(make_game(club, names=["Ann", "Ben", "Cy", "Dee"]))


# The service


def test_play_again_seats_the_same_players_in_the_same_seats_in_the_current_season(club, finished):
    spring = services.start_season(
        club=club,
        name="Spring",
        starts_on=datetime.date.today(),
        rules=parse_rules("to-50"),
        by=club.owner,
    )
    member = make_member(club)

    rematch = services.play_again(game=finished, by=member)

    assert rematch.pk != finished.pk
    assert seated(rematch) == seated(finished)
    assert rematch.season == spring
    assert rematch.rules == spring.rules  # the season's rules as they are now
    assert rematch.status == Game.Status.IN_PROGRESS
    assert not rematch.deals.exists()
    assert rematch.created_by == member


def test_play_again_twice_opens_the_same_new_game(club, finished):
    first = services.play_again(game=finished, by=club.owner)
    again = services.play_again(game=finished, by=make_member(club))  # another phone
    assert again.pk == first.pk
    assert Game.objects.filter(club=club).count() == 2


def test_once_the_rematch_is_over_play_again_starts_the_next_one(club, finished):
    """From either finished game: both lead to the one next game."""
    rematch = finish(services.play_again(game=finished, by=club.owner))
    third = services.play_again(game=rematch, by=club.owner)
    assert third.pk not in (finished.pk, rematch.pk)
    assert services.play_again(game=finished, by=club.owner).pk == third.pk
    assert seated(third) == seated(finished)


def test_another_table_playing_is_not_the_rematch(club, finished):
    others = make_game(club, names=["Ann", "Ben", "Dee", "Cy"])  # two of them swapped seats
    rematch = services.play_again(game=finished, by=club.owner)
    assert rematch.pk != others.pk
    assert names(rematch) == ["Ann", "Ben", "Cy", "Dee"]


def test_a_game_still_being_played_is_not_played_again(club, game):
    before = Game.objects.count()
    with pytest.raises(services.ScoringError, match="isn't over yet"):
        services.play_again(game=game, by=club.owner)
    assert Game.objects.count() == before


def test_an_undo_that_reopened_the_game_is_seen(club, finished):
    """A phone still showing "Play again" after another undid the last deal."""
    stale = Game.objects.get(pk=finished.pk)
    services.undo_last_deal(game=finished, by=club.owner)
    with pytest.raises(services.ScoringError, match="isn't over yet"):
        services.play_again(game=stale, by=club.owner)


def test_a_season_for_three_players_refuses_a_table_of_four(club, finished):
    services.start_season(
        club=club,
        name="Threes",
        starts_on=datetime.date.today(),
        rules=parse_rules("3-players"),
        by=club.owner,
    )
    before = Game.objects.count()
    with pytest.raises(services.SeatsDiffer) as refused:
        services.play_again(game=finished, by=club.owner)
    assert refused.value.message == (
        "Threes is played by 3 players and this game had 4: start a new game and choose who plays"
    )
    assert Game.objects.count() == before


def test_a_deleted_game_is_not_played_again(club, finished):
    stale = Game.objects.get(pk=finished.pk)
    services.delete_game(game=finished, by=club.owner)
    with pytest.raises(services.ScoringError, match="deleted"):
        services.play_again(game=stale, by=club.owner)


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_phones_tapping_play_again_at_once_open_one_game():
    club = make_club()
    finished = finish(make_game(club))

    def tap() -> int:
        return services.play_again(game=Game.objects.get(pk=finished.pk), by=club.owner).pk

    outcomes = at_once(*[tap] * 5)
    # Every phone lands on a game (none fails or is refused), and it is the same one.
    assert all(outcome.startswith("done: ") for outcome in outcomes), outcomes
    assert len(set(outcomes)) == 1
    assert Game.objects.filter(club=club).count() == 2


# The game page's button


def test_a_finished_game_offers_play_again_and_a_double_tap_opens_one_game(client, club, finished):
    member = make_member(club)
    client.force_login(member)
    page = text(client.get(f"/games/{finished.pk}/"))
    assert f'action="/games/{finished.pk}/play-again/"' in page
    assert ">Play again</button>" in page

    first = client.post(f"/games/{finished.pk}/play-again/")
    second = client.post(f"/games/{finished.pk}/play-again/")

    rematch = Game.objects.exclude(pk=finished.pk).get()
    assert first["Location"] == second["Location"] == f"/games/{rematch.pk}/"
    page = text(client.get(first["Location"]))
    assert "Deal 1" in page
    assert "Ann · Ben · Cy · Dee" in page


def test_the_game_boards_poll_brings_play_again_to_the_other_phones(client, club, game):
    """The game ends on another phone: this one's poll gets the result and the button."""
    client.force_login(club.owner)
    for _ in range(3):
        record(game, 0, 13, 13, 13)
    board = client.get(f"/games/{game.pk}/board/?v=0").content.decode()
    assert f'action="/games/{game.pk}/play-again/"' in board
    assert "csrfmiddlewaretoken" in board


def test_no_play_again_while_playing_nor_on_the_live_view(client, club, game, finished):
    client.force_login(club.owner)
    assert "play-again" not in client.get(f"/games/{game.pk}/").content.decode()
    token = services.share_game(game=finished, by=club.owner)
    client.logout()
    assert "play-again" not in client.get(f"/live/{token}/").content.decode()
    assert "play-again" not in client.get(f"/live/{token}/board/").content.decode()


def test_play_again_on_a_game_in_progress_says_why_on_its_page(client, club, game):
    client.force_login(club.owner)
    response = client.post(f"/games/{game.pk}/play-again/", follow=True)
    assert response.redirect_chain == [(f"/games/{game.pk}/", 302)]
    assert "This game isn&#x27;t over yet: play it to the end first" in text(response)
    assert Game.objects.count() == 1


def test_a_table_that_no_longer_fits_the_season_is_sent_to_the_new_game_form(
    client, club, finished
):
    services.start_season(
        club=club,
        name="Threes",
        starts_on=datetime.date.today(),
        rules=parse_rules("3-players"),
        by=club.owner,
    )
    client.force_login(club.owner)
    response = client.post(f"/games/{finished.pk}/play-again/", follow=True)
    assert response.redirect_chain == [(f"/clubs/{club.pk}/games/new/", 302)]
    assert "Threes is played by 3 players and this game had 4" in text(response)


def test_someone_elses_game_is_not_found(client, finished):
    client.force_login(make_user())
    assert client.post(f"/games/{finished.pk}/play-again/").status_code == 404
    assert Game.objects.count() == 1


# "Same players as last time" on the new-game form


def test_same_players_as_last_time_fills_the_seats_from_the_clubs_last_game(client, club):
    make_game(club, names=["Ann", "Ben", "Cy", "Dee"])
    make_game(club, names=["Eve", "Ann", "Fay", "Ben"], by=make_member(club))  # the latest
    client.force_login(club.owner)

    form = text(client.get(f"/clubs/{club.pk}/games/new/"))
    assert f'href="/clubs/{club.pk}/games/new/?same=1">Same players as last time</a>' in form
    assert "Eve · Ann · Fay · Ben" in form
    assert 'name="seat_1" id="id_seat_1" value=""' in form

    filled = text(client.get(f"/clubs/{club.pk}/games/new/?same=1"))
    for seat, name in enumerate(["Eve", "Ann", "Fay", "Ben"], start=1):
        assert f'name="seat_{seat}" id="id_seat_{seat}" value="{name}"' in filled


def test_a_club_with_no_game_yet_has_no_last_time(client, club):
    client.force_login(club.owner)
    form = text(client.get(f"/clubs/{club.pk}/games/new/?same=1"))
    assert "Same players as last time" not in form
    assert 'name="seat_1" id="id_seat_1" value=""' in form


def test_the_last_game_is_the_clubs_even_in_another_season(club):
    from scoring import selectors

    make_game(club, names=["Ann", "Ben", "Cy", "Dee"])
    services.start_season(club=club, name="Spring", starts_on=datetime.date.today(), by=club.owner)
    assert Season.objects.filter(club=club).count() == 2
    assert selectors.last_game_players(club) == ["Ann", "Ben", "Cy", "Dee"]
