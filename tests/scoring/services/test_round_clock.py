"""A game with a clock (a club night's round): deals recorded before its time runs out play on;
the first recorded at or after `closes_at` is the last deal, which ends the game whatever the
finish rule, the lowest total winning and a tie sharing the win. Time is moved by setting
`closes_at` in the past or the future, never by waiting."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scoring import services
from scoring.models import Game, Seat
from tests.factories import make_game, record

pytestmark = pytest.mark.django_db


def later() -> timezone.datetime:
    return timezone.now() + timedelta(hours=1)


def time_up(game: Game) -> None:
    """The game's time ran out a minute ago (the caller's copy too)."""
    game.closes_at = timezone.now() - timedelta(minutes=1)
    Game.objects.filter(pk=game.pk).update(closes_at=game.closes_at)


def winners(game: Game) -> list[str]:
    return list(
        Seat.objects.filter(game=game, won=True)
        .order_by("position")
        .values_list("player__name", flat=True)
    )


def test_a_game_started_with_a_clock_stores_when_it_closes(club):
    closes_at = later()
    game = make_game(club, closes_at=closes_at)
    game.refresh_from_db()
    assert game.closes_at == closes_at
    assert game.last_deal is None
    assert make_game(club).closes_at is None


def test_deals_recorded_before_the_time_is_up_play_on(club):
    game = make_game(club, closes_at=later())
    record(game, 0, 5, 5, 5)
    record(game, 5, 0, 9, 9)
    game.refresh_from_db()
    assert not game.is_finished
    assert game.last_deal is None


def test_the_first_deal_after_the_time_is_up_ends_the_game_with_the_lowest_total_winning(club):
    game = make_game(club, closes_at=later())
    record(game, 0, 5, 5, 5)
    time_up(game)
    deal = record(game, 9, 0, 9, 9)  # Ann 9, Ben 5
    game.refresh_from_db()
    # Nobody is near 100: the clock ended it.
    assert game.is_finished and game.last_deal == 2
    assert game.winner.name == "Ben"
    assert not game.win_shared
    assert game.finished_at == deal.recorded_at
    assert winners(game) == ["Ben"]


def test_a_tie_for_lowest_on_the_last_deal_shares_the_win(club):
    game = make_game(club, closes_at=later())
    record(game, 0, 5, 5, 5)
    time_up(game)
    record(game, 5, 0, 9, 9)  # Ann and Ben on 5
    game.refresh_from_db()
    assert game.is_finished and game.win_shared
    assert game.winner is None
    assert winners(game) == ["Ann", "Ben"]


def test_no_deal_is_recorded_after_the_last(club):
    game = make_game(club)
    time_up(game)
    record(game, 0, 5, 5, 5)
    with pytest.raises(services.ScoringError, match="game is over"):
        record(game, 0, 5, 5, 5)


def test_undoing_the_last_deal_reopens_the_game_and_the_next_deal_ends_it_again(club):
    game = make_game(club, closes_at=later())
    record(game, 0, 5, 5, 5)
    time_up(game)
    record(game, 5, 0, 9, 9)

    services.undo_last_deal(game=game, by=club.owner, number=2)

    game.refresh_from_db()
    assert not game.is_finished and game.last_deal is None
    assert winners(game) == []
    record(game, 9, 0, 9, 9)
    game.refresh_from_db()
    assert game.is_finished and game.last_deal == 2
    assert game.winner.name == "Ben"


def test_undoing_a_deal_before_the_last_keeps_nothing_wrong(club):
    """A game whose time is up but whose deals were all recorded before it: undoing one
    leaves no last deal, and the next deal recorded is the last."""
    game = make_game(club, closes_at=later())
    record(game, 0, 5, 5, 5)
    record(game, 5, 0, 9, 9)
    time_up(game)
    services.undo_last_deal(game=game, by=club.owner, number=2)
    game.refresh_from_db()
    assert game.last_deal is None and not game.is_finished
    record(game, 0, 1, 1, 1)
    game.refresh_from_db()
    assert game.last_deal == 2 and game.winner.name == "Ann"


def test_a_correction_keeps_the_end_on_the_last_deal_and_finds_the_winner_again(club):
    game = make_game(club, closes_at=later())
    record(game, 0, 5, 5, 5)
    time_up(game)
    record(game, 9, 0, 9, 9)  # Ann 9, Ben 5

    services.edit_deal(game=game, number=1, by=club.owner, cards_left=[0, 10, 5, 5])

    game.refresh_from_db()
    assert game.is_finished and game.last_deal == 2
    assert game.winner.name == "Ann"  # Ann 9, Ben 20
    assert winners(game) == ["Ann"]

    services.edit_deal(game=game, number=1, by=club.owner, cards_left=[0, 9, 5, 5])

    game.refresh_from_db()
    assert game.is_finished and game.win_shared  # Ann and Ben on 9
    assert winners(game) == ["Ann", "Ben"]


def test_sending_the_last_deals_form_again_records_nothing_new(club):
    game = make_game(club, closes_at=later())
    record(game, 0, 5, 5, 5)
    time_up(game)
    token = uuid.uuid4()
    first = record(game, 9, 0, 9, 9, token=token)
    version = Game.objects.get(pk=game.pk).version

    again = services.record_deal(
        game=game, number=2, cards_left=[9, 0, 9, 9], token=token, by=club.owner
    )

    assert again.deal == first
    assert again.scored is None
    game.refresh_from_db()
    assert game.deals.count() == 2
    assert (game.version, game.last_deal) == (version, 2)


def test_the_last_deal_costs_no_more_queries_than_a_deal_that_reaches_the_target():
    def queries(game: Game, *cards_left: int) -> int:
        with CaptureQueriesContext(connection) as captured:
            record(game, *cards_left)
        game.refresh_from_db()
        assert game.is_finished
        return len(captured.captured_queries)

    ordinary, clock = make_game(), make_game(closes_at=later())
    for game in (ordinary, clock):
        record(game, 0, 13, 13, 13)
        record(game, 0, 13, 13, 13)
    time_up(clock)
    # The clock's deal ends the game on 78, the other's on 117.
    assert queries(clock, 0, 1, 1, 1) == queries(ordinary, 0, 13, 13, 13)


def test_the_database_refuses_a_last_deal_before_the_first(club):
    """Deals count from 1. A game without a clock may have a last deal: an imported game
    ended as it stood (tests/scoring/imports/test_ending_as_they_stand.py)."""
    game = make_game(club)
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.filter(pk=game.pk).update(last_deal=0)
