"""A win shared: an open-ended match ended while the lowest total is shared, or a game stopped
on a tie at its finish (a score sheet that ends there). The seats that won are stored beside the
game's result, and the database refuses a result that names no winner."""

from __future__ import annotations

from functools import partial

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from scoring import services
from scoring.models import Game, GameChange, Seat
from scoring.services.totals import lock_game, recompute
from tests.concurrency import at_once, needs_postgres
from tests.factories import make_club, make_game, make_ruled_game, record


def tied_open_match(club=None) -> Game:
    """An open-ended match after two deals: Ann and Ben on 5, Cy and Dee on 10."""
    game = make_ruled_game("open-ended", club=club)
    record(game, 0, 5, 5, 5)
    record(game, 5, 0, 5, 5)
    return game


def winners(game: Game) -> list[str]:
    return list(
        Seat.objects.filter(game=game, won=True)
        .order_by("position")
        .values_list("player__name", flat=True)
    )


def test_ending_a_tied_match_with_the_win_shared_ends_it_with_both_winning(db):
    game = tied_open_match()

    services.end_match(game=game, by=game.club.owner, sharing=[0, 1])

    game.refresh_from_db()
    assert game.is_finished and game.ended and game.win_shared
    assert game.winner is None
    assert winners(game) == ["Ann", "Ben"]
    end = GameChange.objects.get(game=game, action="end")
    assert (end.deal_number, end.after) == (2, [5, 5, 10, 10])


def test_ending_a_tied_match_without_choosing_to_share_is_refused_naming_the_tied(db):
    game = tied_open_match()

    with pytest.raises(services.TiedForLowest) as refused:
        services.end_match(game=game, by=game.club.owner)

    assert refused.value.message == (
        "Ann and Ben are tied for lowest on 5: end the match with the win shared, "
        "or play one more deal"
    )
    assert refused.value.tied == (0, 1)
    game.refresh_from_db()
    assert not game.is_finished and not game.ended and not game.win_shared
    assert winners(game) == []
    assert not GameChange.objects.filter(game=game, action="end").exists()


def test_a_shared_win_agreed_on_totals_that_have_changed_since_ends_nothing(db):
    """The page showed Ann and Ben tied; another phone recorded a deal meanwhile."""
    game = tied_open_match()
    record(game, 0, 1, 1, 1)  # Ann now lowest alone

    with pytest.raises(services.ScoringError, match="totals have changed"):
        services.end_match(game=game, by=game.club.owner, sharing=[0, 1])

    game.refresh_from_db()
    assert not game.is_finished and not game.ended


def test_a_match_with_one_lowest_total_ends_with_that_player_alone_winning(db):
    game = make_ruled_game("open-ended")
    record(game, 0, 5, 5, 5)

    services.end_match(game=game, by=game.club.owner)

    game.refresh_from_db()
    assert (game.winner.name, game.win_shared, winners(game)) == ("Ann", False, ["Ann"])


def test_ending_twice_ends_once(db):
    """A double tap, or the answer lost and the form sent again: the second finds the match
    over, as it asked, and writes nothing."""
    game = tied_open_match()
    for _ in range(2):
        services.end_match(game=Game.objects.get(pk=game.pk), by=game.club.owner, sharing=[0, 1])
    assert GameChange.objects.filter(game=game, action="end").count() == 1
    assert winners(game) == ["Ann", "Ben"]


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_two_phones_ending_the_same_tied_match_at_once_end_it_once():
    game = tied_open_match(make_club())

    def end(sharing) -> None:
        services.end_match(game=Game.objects.get(pk=game.pk), by=game.club.owner, sharing=sharing)

    outcomes = at_once(*(partial(end, [0, 1]) for _ in range(4)))

    assert outcomes == ["done: None"] * 4
    assert GameChange.objects.filter(game=game, action="end").count() == 1
    assert winners(game) == ["Ann", "Ben"]


def test_undoing_the_last_deal_of_a_shared_win_reopens_the_match_and_clears_the_winners(db):
    game = tied_open_match()
    services.end_match(game=game, by=game.club.owner, sharing=[0, 1])

    services.undo_last_deal(game=game, by=game.club.owner)

    game.refresh_from_db()
    assert not game.is_finished and not game.win_shared and not game.ended
    assert winners(game) == []


def test_every_finished_game_marks_its_winning_seat(db):
    """A target reached with one player lowest: the deal that ends it marks the winner."""
    game = make_game()
    while not game.is_finished:
        record(game, 0, 13, 13, 13)
        game.refresh_from_db()
    assert (game.winner.name, game.win_shared, winners(game)) == ("Ann", False, ["Ann"])
    # Corrected so that nobody has reached 100: it is being played again, and nobody has won.
    services.edit_deal(game=game, number=3, cards_left=[13, 0, 1, 1], by=game.club.owner)
    game.refresh_from_db()
    assert not game.is_finished and winners(game) == []


def tie_at_the_target(club=None) -> Game:
    """Played to 100: Ann and Dee on 2, Ben past 100. The rules play on."""
    game = make_game(club)
    record(game, 0, 13, 13, 1)
    record(game, 1, 13, 13, 0)
    record(game, 1, 13, 0, 1)
    game.refresh_from_db()
    return game


def test_a_game_stopped_on_a_tie_at_its_target_is_a_win_shared(db):
    """What a score sheet that stops there comes in as: the game `ended` at its last deal, and
    `recompute` decides the result."""
    game = tie_at_the_target()
    assert not game.is_finished  # a tie at the target plays on at the table

    with transaction.atomic():
        locked = lock_game(game)
        locked.ended = True
        locked.save(update_fields=["ended"])
        recompute(locked)

    game.refresh_from_db()
    assert game.is_finished and game.win_shared and game.winner is None
    assert winners(game) == ["Ann", "Dee"]


def test_a_deal_recorded_after_a_game_was_stopped_means_the_table_played_on(db):
    """A stopped game a correction reopened (its target no longer reached) takes deals again;
    the next one is played, so a tie it leaves at the target plays on."""
    game = make_game()
    record(game, 0, 13, 13, 1)
    record(game, 1, 13, 13, 0)
    Game.objects.filter(pk=game.pk).update(ended=True)
    game.refresh_from_db()

    record(game, 1, 13, 0, 1)  # Ann and Dee on 2, Ben past 100

    game.refresh_from_db()
    assert not game.ended and not game.is_finished and winners(game) == []


@pytest.mark.parametrize(
    "result",
    [
        {"status": "finished", "winner": None, "win_shared": False},  # nobody won
        {"status": "finished", "win_shared": True},  # a sole winner and shared
        {"status": "in_progress", "winner": None, "finished_at": None, "win_shared": True},
    ],
)
def test_the_database_refuses_a_result_that_does_not_add_up(db, result):
    game = make_game()
    ann = game.seats.get(position=0).player
    values = {"status": "finished", "winner": ann, "finished_at": timezone.now()} | result
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.filter(pk=game.pk).update(**values)
