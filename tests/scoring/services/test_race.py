"""Two phones sending the same deal at the same moment: one deal is recorded, the other told.

Only meaningful on PostgreSQL, where `select_for_update` makes the second transaction wait
for the first; on SQLite the IMMEDIATE transactions serialize writers on the whole file.
"""

import uuid
from functools import partial

import pytest

from scoring import services
from scoring.models import Deal, Game
from tests.concurrency import at_once, needs_postgres
from tests.factories import make_club, make_game

THREADS = 6


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_phones_racing_to_record_the_same_deal_record_it_once():
    game = make_game(make_club())
    owner = game.club.owner

    def send(seat_out: int) -> None:
        cards = [1, 1, 1, 1]
        cards[seat_out % 4] = 0
        services.record_deal(
            game=Game.objects.get(pk=game.pk),
            number=1,
            cards_left=cards,
            token=uuid.uuid4(),
            by=owner,
        )

    outcomes = at_once(*(partial(send, n) for n in range(THREADS)))

    assert outcomes.count("done: None") == 1, outcomes
    told = [o for o in outcomes if o != "done: None"]
    assert len(told) == THREADS - 1
    assert all(o.startswith("refused: Deal 1 was already recorded") for o in told), outcomes
    assert Deal.objects.filter(game=game).count() == 1
