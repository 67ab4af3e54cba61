"""A club night's writes: the draw stored, the rounds to come drawn again, rounds started as
games, the TV link; each refusal writes nothing, and each write sent twice is made once."""

from __future__ import annotations

import uuid
from collections import Counter

import pytest

from nights import services
from nights.models import Attendee, Night, Round, RoundSeat, Table
from nights.selectors import DONE, PLANNED, PLAYING, night_plan
from scoring import services as scoring
from scoring.models import Game, Player
from scoring.services import ScoringError
from tests.concurrency import at_once, needs_postgres
from tests.factories import finish, make_club
from tests.nights.helpers import club_with_players, draw, games_of

pytestmark = pytest.mark.django_db


def test_a_night_of_13_seats_everyone_once_a_round_and_one_sits_out_in_turn():
    club = club_with_players(13)
    night = draw(club, rounds=4)
    plan = night_plan(night)
    assert [shown.status for shown in plan.rounds] == [PLANNED] * 4
    byes = Counter()
    for shown in plan.rounds:
        seated = [player.pk for table in shown.tables for player in table.players]
        out = [player.pk for player in shown.sitting_out]
        assert [len(table.players) for table in shown.tables] == [4, 4, 4]
        assert sorted(seated + out) == sorted(club.players.values_list("pk", flat=True))
        byes.update(out)
    assert max(byes.values()) == 1 and len(byes) == 4


def test_the_same_form_sent_twice_draws_one_night():
    club = club_with_players(8)
    token = uuid.uuid4()
    first = draw(club, count=8, token=token)
    again = draw(club, count=8, token=token)
    assert again.pk == first.pk
    assert Night.objects.count() == 1 and RoundSeat.objects.count() == 8 * 3


def test_new_players_join_the_roster_and_the_draw():
    club = club_with_players(6)
    night = draw(club, count=6, new_names=["Zed", "Yul"])
    assert set(club.players.values_list("name", flat=True)) >= {"Zed", "Yul"}
    assert Attendee.objects.filter(night=night).count() == 8


@pytest.mark.parametrize(
    ("count", "new_names", "refusal"),
    [
        (3, [], "A table needs 4 players and 3 are here"),
        (4, ["Eve"], "Already on the club's roster: Eve"),
        (4, ["Zed", "zed"], "A player is named twice"),
    ],
)
def test_a_night_refused_writes_nothing(count, new_names, refusal):
    club = club_with_players(count + 1)
    players = Player.objects.count()
    with pytest.raises(ScoringError, match=refusal):
        draw(club, count=count, new_names=new_names)
    assert Night.objects.count() == 0 and Player.objects.count() == players


def play_round(night, number):
    for game in games_of(night, number):
        finish(game)


def test_rounds_start_in_turn_as_games_seated_as_drawn():
    club = club_with_players(13)
    night = draw(club)
    services.start_round(night=night, number=1, by=club.owner)
    plan = night_plan(night)
    assert plan.rounds[0].status == PLAYING
    for table in plan.rounds[0].tables:
        drawn = RoundSeat.objects.filter(round__night=night, round__number=1, table=table.number)
        assert [seat.player for seat in drawn.order_by("position")] == list(table.players)
        assert table.game.season == night.season and table.totals == (0, 0, 0, 0)
    with pytest.raises(ScoringError, match="Round 1 is still being played"):
        services.start_round(night=night, number=2, by=club.owner)
    with pytest.raises(ScoringError, match="Start the rounds in order"):
        services.start_round(night=night, number=3, by=club.owner)
    play_round(night, 1)
    assert night_plan(night).rounds[0].status == DONE
    services.start_round(night=night, number=2, by=club.owner)
    assert len(games_of(night, 2)) == 3


def test_start_round_tapped_twice_starts_it_once():
    club = club_with_players(8)
    night = draw(club, count=8)
    first = services.start_round(night=night, number=1, by=club.owner)
    again = services.start_round(night=night, number=1, by=club.owner)
    assert again.started_at == first.started_at
    assert Table.objects.count() == 2 and Game.objects.count() == 2


def test_a_round_time_gives_each_game_its_clock():
    club = club_with_players(4)
    night = draw(club, count=4, round_minutes=30)
    round_ = services.start_round(night=night, number=1, by=club.owner)
    game = games_of(night, 1)[0]
    assert game.closes_at == round_.closes_at
    assert (round_.closes_at - round_.started_at).total_seconds() == 30 * 60


def test_a_latecomer_is_drawn_into_the_rounds_to_come_and_played_rounds_stay():
    club = club_with_players(12)
    night = draw(club, count=12)
    services.start_round(night=night, number=1, by=club.owner)
    round_1 = list(RoundSeat.objects.filter(round__number=1).values_list("player", "table"))
    play_round(night, 1)
    here = list(club.players.all())
    services.change_who_is_here(night=night, here=here, new_names=["Zed"], by=club.owner)
    assert list(RoundSeat.objects.filter(round__number=1).values_list("player", "table")) == (
        round_1
    )
    zed = club.players.get(name="Zed")
    plan = night_plan(night)
    for shown in plan.rounds[1:]:
        everyone = [p for table in shown.tables for p in table.players] + list(shown.sitting_out)
        assert zed in everyone and len(everyone) == 13


def test_redraw_sent_twice_with_a_new_name_gives_the_same_seats():
    club = club_with_players(8)
    night = draw(club, count=8)
    here = list(club.players.all())
    services.change_who_is_here(night=night, here=here, new_names=["Zed"], by=club.owner)
    seats = list(
        RoundSeat.objects.order_by("round__number", "player").values_list(
            "player", "table", "position"
        )
    )
    services.change_who_is_here(night=night, here=here, new_names=["Zed"], by=club.owner)
    assert (
        list(
            RoundSeat.objects.order_by("round__number", "player").values_list(
                "player", "table", "position"
            )
        )
        == seats
    )


def test_a_player_at_a_table_still_playing_cant_be_ticked_off():
    club = club_with_players(8)
    night = draw(club, count=8)
    services.start_round(night=night, number=1, by=club.owner)
    seated = games_of(night, 1)[0].seats.first().player
    before = list(RoundSeat.objects.values_list("pk", flat=True))
    staying = [player for player in club.players.all() if player != seated]
    with pytest.raises(ScoringError, match=f"Still at a table that is playing: {seated.name}"):
        services.change_who_is_here(night=night, here=staying, new_names=[], by=club.owner)
    assert list(RoundSeat.objects.values_list("pk", flat=True)) == before
    assert Attendee.objects.get(night=night, player=seated).here


def test_the_tv_link_is_new_each_time_and_stops():
    club = make_club()
    for name in ["Ann", "Ben", "Cy", "Dee"]:
        club.players.create(name=name, name_key=name.lower())
    night = draw(club, count=4)
    first = services.show_on_tv(night=night, by=club.owner)
    second = services.show_on_tv(night=night, by=club.owner)
    assert first != second
    services.stop_tv(night=night, by=club.owner)
    night.refresh_from_db()
    assert night.tv_token is None and night.tv_digest is None


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_two_phones_starting_a_round_at_once_start_it_once():
    club = club_with_players(8)
    night = draw(club, count=8)
    outcomes = at_once(
        lambda: services.start_round(night=night, number=1, by=club.owner),
        lambda: services.start_round(night=night, number=1, by=club.owner),
    )
    assert all(outcome.startswith("done") for outcome in outcomes), outcomes
    assert Table.objects.count() == 2 and Game.objects.count() == 2
    assert Round.objects.filter(started_at__isnull=False).count() == 1


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_a_redraw_racing_a_round_start_never_changes_a_started_round():
    club = club_with_players(12)
    night = draw(club, count=12)
    here = list(club.players.all())
    outcomes = at_once(
        lambda: services.start_round(night=night, number=1, by=club.owner),
        lambda: services.change_who_is_here(
            night=night, here=here, new_names=["Zed"], by=club.owner
        ),
    )
    assert all(outcome.startswith("done") for outcome in outcomes), outcomes
    for table in Table.objects.select_related("game"):
        drawn = RoundSeat.objects.filter(round=table.round, table=table.number).order_by("position")
        seated = table.game.seats.order_by("position")
        assert [s.player_id for s in drawn] == [s.player_id for s in seated]


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_the_same_night_form_sent_from_two_phones_at_once_draws_one_night():
    club = club_with_players(8)
    token = uuid.uuid4()
    outcomes = at_once(
        lambda: draw(club, count=8, token=token), lambda: draw(club, count=8, token=token)
    )
    assert all(outcome.startswith("done") for outcome in outcomes), outcomes
    assert Night.objects.count() == 1 and RoundSeat.objects.count() == 24


def test_a_table_left_short_by_a_player_removed_is_drawn_again_before_it_starts():
    club = club_with_players(8)
    night = draw(club, count=8)
    gone = RoundSeat.objects.filter(round__number=1, table=2).first().player
    scoring.remove_player(player=gone, by=club.owner)
    with pytest.raises(ScoringError, match="Table 2 is short of a player"):
        services.start_round(night=night, number=1, by=club.owner)
    assert Game.objects.count() == 0
    here = list(club.players.all())
    services.change_who_is_here(night=night, here=here, new_names=["Zed"], by=club.owner)
    services.start_round(night=night, number=1, by=club.owner)
    assert Game.objects.count() == 2
