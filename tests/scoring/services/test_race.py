"""Two phones sending the same deal at the same moment: one deal is recorded, the other told.

Only meaningful on PostgreSQL, where `select_for_update` makes the second transaction wait
for the first; on SQLite the IMMEDIATE transactions serialize writers on the whole file.
"""

import threading
import uuid

import pytest
from django.db import connection, connections

from scoring import services
from scoring.models import Deal, Game
from tests.factories import make_club, make_game

THREADS = 6


@pytest.mark.django_db(transaction=True)
def test_phones_racing_to_record_the_same_deal_record_it_once():
    if connection.vendor != "postgresql":
        pytest.skip(
            "the row-lock race needs PostgreSQL (set DATABASE_URL); SQLite has no row locks"
        )
    game = make_game(make_club())
    owner = game.club.owner
    barrier = threading.Barrier(THREADS)
    outcomes: list[str] = []
    lock = threading.Lock()

    def send(seat_out: int) -> None:
        cards = [1, 1, 1, 1]
        cards[seat_out % 4] = 0
        try:
            barrier.wait(timeout=10)
            services.record_deal(
                game=Game.objects.get(pk=game.pk),
                number=1,
                cards_left=cards,
                token=uuid.uuid4(),
                by=owner,
            )
            result = "recorded"
        except services.DealAlreadyRecorded as refused:
            result = refused.message
        except Exception as error:  # reported by the assertion below
            result = f"failed: {error!r}"
        finally:
            connections.close_all()
        with lock:
            outcomes.append(result)

    threads = [threading.Thread(target=send, args=(n,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    assert outcomes.count("recorded") == 1, outcomes
    told = [o for o in outcomes if o != "recorded"]
    assert len(told) == THREADS - 1
    assert all(o.startswith("Deal 1 was already recorded") for o in told), outcomes
    assert Deal.objects.filter(game=game).count() == 1
