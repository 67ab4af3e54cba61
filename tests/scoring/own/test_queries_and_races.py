"""What a send costs against recording a whole deal, and phones sending at the same moment:
the last two figures at once record one deal, a figure sent twice at once is stored once, and a
figure sent while the whole-table form records the deal meets it before or after, never both."""

from __future__ import annotations

import uuid
from functools import partial

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring import services
from scoring.models import Game, SentFacts
from tests.concurrency import at_once, needs_postgres
from tests.factories import make_game, record
from tests.scoring.own.helpers import entered_by, member, own_game, send


@pytest.mark.django_db
def test_sending_one_figure_costs_no_more_queries_than_recording_a_whole_deal(
    club, django_assert_max_num_queries
):
    plain = make_game(club, names=["Ann", "Bo", "Cy", "Di"])
    record(plain, 0, 5, 7, 9)  # the ratings and caches of a first deal are behind us
    plain = Game.objects.get(pk=plain.pk)
    owner = club.owner
    with CaptureQueriesContext(connection) as whole:
        services.record_deal(
            game=plain, number=2, cards_left=[5, 0, 7, 9], token=uuid.uuid4(), by=owner
        )
    game = own_game(club)
    send(game, 1, 4)
    game, ann = Game.objects.get(pk=game.pk), member(game, 0)
    with django_assert_max_num_queries(len(whole)):
        services.send_own_facts(
            game=game,
            position=0,
            facts=services.OwnFacts(cards_left=5),
            by=ann,
            token=uuid.uuid4(),
            number=1,
        )


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_the_last_two_figures_sent_at_once_record_one_deal():
    game = own_game()
    send(game, 0, 5)
    send(game, 1, 0)
    outcomes = at_once(partial(send, game, 2, 7), partial(send, game, 3, 9))
    assert all(outcome.startswith("done: ") for outcome in outcomes), outcomes
    assert game.deals.count() == 1
    assert entered_by(game) == ["ann", "ben", "cy", "dee"]
    assert not SentFacts.objects.exists()


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_a_figure_sent_twice_at_once_is_stored_once():
    game = own_game()
    token = uuid.uuid4()
    outcomes = at_once(*(partial(send, game, 0, 5, token=token) for _ in range(4)))
    assert all(outcome.startswith("done: ") for outcome in outcomes), outcomes
    assert list(SentFacts.objects.values_list("cards_left", flat=True)) == [5]
    assert Game.objects.get(pk=game.pk).version == 1


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_a_figure_sent_while_the_whole_table_form_records_the_deal_meets_it_once():
    game = own_game()
    for position, cards in enumerate([5, 0, 7]):
        send(game, position, cards)

    def whole_table() -> None:
        services.record_deal(
            game=Game.objects.get(pk=game.pk),
            number=1,
            cards_left=[5, 0, 7, 8],
            token=uuid.uuid4(),
            by=game.club.owner,
        )

    outcomes = at_once(whole_table, partial(send, game, 3, 9))
    assert game.deals.count() == 1
    cards = list(game.deals.get().scores.order_by("seat__position").values_list("cards_left"))
    if cards == [(5,), (0,), (7,), (8,)]:  # the form first: dee's 9 came too late, and is told
        assert outcomes[1].startswith("refused: Deal 1 was already recorded, with 8 for dee")
    else:  # dee's 9 first, recording the deal: the form finds deal 1 taken
        assert cards == [(5,), (0,), (7,), (9,)]
        assert outcomes[0].startswith("refused: Deal 1 was already recorded")
    assert not SentFacts.objects.exists()
