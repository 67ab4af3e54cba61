"""A figure sent for a deal already recorded with another, put in that deal at its player's
choice (`services.put_own_in`): the deal corrected as any correction is, once however often it
is sent, and never over a deal changed since it was shown."""

from __future__ import annotations

from functools import partial

import pytest

from rules.penalties import DealResult
from scoring import services
from scoring.models import Game, GameChange
from scoring.selectors import seats_of
from tests.concurrency import at_once, needs_postgres
from tests.factories import record
from tests.scoring.own.helpers import member, own_game, send

RECORDED = DealResult(cards_left=(5, 0, 7, 9))


def put_in(game: Game, position: int, shown: DealResult = RECORDED, **facts: int):
    return services.put_own_in(
        game=Game.objects.get(pk=game.pk),
        position=position,
        facts=services.OwnFacts(**facts),
        by=member(game, position),
        number=1,
        shown=shown,
    )


def cards(game: Game) -> list[int]:
    scores = game.deals.get(number=1).scores.order_by("seat__position")
    return list(scores.values_list("cards_left", flat=True))


def recorded_game() -> Game:
    game = own_game()
    record(game, *RECORDED.cards_left)
    with pytest.raises(services.SentTooLate) as late:
        send(game, 2, 4)
    assert (late.value.number, late.value.name) == (1, "cy")
    assert (late.value.recorded, late.value.sent) == (7, 4)
    return game


@pytest.mark.django_db
def test_mine_put_in_corrects_the_recorded_deal_with_my_figure_alone():
    game = recorded_game()
    put_in(game, 2, cards_left=4)
    assert cards(game) == [5, 0, 4, 9]
    assert [seat.total for seat in seats_of(game)] == [5, 0, 4, 9]
    line = GameChange.objects.get(action="edit")
    assert (line.before, line.after, line.by.username) == ([5, 0, 7, 9], [5, 0, 4, 9], "cy")


@pytest.mark.django_db
def test_put_in_twice_writes_once():
    game = recorded_game()
    put_in(game, 2, cards_left=4)
    version = Game.objects.get(pk=game.pk).version
    put_in(game, 2, cards_left=4)  # a double tap, a resend, the other phone
    assert cards(game) == [5, 0, 4, 9]
    assert GameChange.objects.filter(action="edit").count() == 1
    assert Game.objects.get(pk=game.pk).version == version


@pytest.mark.django_db
def test_a_deal_changed_since_it_was_shown_is_not_put_over():
    game = recorded_game()
    services.edit_deal(game=game, number=1, by=game.club.owner, cards_left=[6, 0, 7, 9])
    with pytest.raises(services.DealChanged):
        put_in(game, 2, cards_left=4)
    assert cards(game) == [6, 0, 7, 9]


@pytest.mark.django_db
def test_a_figure_that_makes_no_valid_deal_is_refused_saying_why():
    game = recorded_game()
    with pytest.raises(services.InvalidDeal) as refused:
        put_in(game, 2, cards_left=0)  # ben went out too
    assert refused.value.message
    assert cards(game) == [5, 0, 7, 9]
    assert not GameChange.objects.filter(action="edit").exists()


@pytest.mark.django_db
def test_only_my_own_seat_is_put_in():
    game = recorded_game()
    with pytest.raises(services.ScoringError):
        services.put_own_in(
            game=game,
            position=2,
            facts=services.OwnFacts(cards_left=4),
            by=member(game, 3),
            number=1,
            shown=RECORDED,
        )
    assert cards(game) == [5, 0, 7, 9]


@pytest.mark.django_db
def test_putting_mine_in_costs_a_correction_and_the_seats_read_under_the_lock(
    django_assert_num_queries,
):
    game = recorded_game()
    game = Game.objects.get(pk=game.pk)
    cy = member(game, 2)
    # edit_deal's 16 (its savepoint, the lock, the deal, the deals' facts, the writes), and the
    # seats read under the game's lock, with its savepoint, to check the seat is cy's.
    with django_assert_num_queries(19):
        services.put_own_in(
            game=game,
            position=2,
            facts=services.OwnFacts(cards_left=4),
            by=cy,
            number=1,
            shown=RECORDED,
        )


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_put_in_from_two_phones_at_once_writes_once():
    game = own_game()
    record(game, *RECORDED.cards_left)
    outcomes = at_once(*(partial(put_in, game, 2, cards_left=4) for _ in range(3)))
    assert all(outcome.startswith("done: ") for outcome in outcomes), outcomes
    assert cards(game) == [5, 0, 4, 9]
    assert GameChange.objects.filter(action="edit").count() == 1


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_put_in_while_another_phone_corrects_the_deal_meets_it_once():
    game = own_game()
    record(game, *RECORDED.cards_left)

    def other_phone() -> None:
        services.edit_deal(
            game=Game.objects.get(pk=game.pk),
            number=1,
            by=game.club.owner,
            cards_left=[6, 0, 7, 9],
            replacing=RECORDED,
        )

    outcomes = at_once(other_phone, partial(put_in, game, 2, cards_left=4))
    assert cards(game) in ([6, 0, 7, 9], [5, 0, 4, 9])
    assert sum(outcome.startswith("done: ") for outcome in outcomes) == 1, outcomes
