"""Two phones sending the same deal at the same moment: one deal is recorded, the other told.

Only meaningful on PostgreSQL, where `select_for_update` makes the second transaction wait
for the first; on SQLite the IMMEDIATE transactions serialize writers on the whole file.
"""

import uuid
from functools import partial

import pytest

from scoring import services
from scoring.models import Deal, DealScore, Game, Seat
from scoring.selectors import seats_of
from tests.concurrency import at_once, needs_postgres
from tests.factories import make_club, make_game, record

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


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_phones_recording_and_correcting_at_once_leave_each_seat_as_a_replay_of_the_deals():
    """Two phones record the next deal as they find it, again and again, while two others
    correct deal 1 back and forth; each hands the service the seats as it read them, as the
    views do. However their writes interleave, each seat's stored figures (an UPDATE a seat)
    are those of the deals as stored: no write builds on seats another write has changed."""
    game = make_game(make_club())
    owner = game.club.owner
    record(game, 0, 1, 2, 3)

    def keep_recording(phone: int) -> int:
        recorded = 0
        while recorded < 6:
            now = Game.objects.get(pk=game.pk)
            cards = [phone + 1, 2, 3, 4]
            cards[(phone + recorded) % 4] = 0
            try:
                services.record_deal(
                    game=now,
                    number=now.deals.count() + 1,
                    cards_left=cards,
                    token=uuid.uuid4(),
                    by=owner,
                    seats=seats_of(now),
                )
                recorded += 1
            except services.ScoringError:
                pass  # another phone took that number: the next one, then
        return recorded

    def keep_correcting(phone: int) -> int:
        for turn in range(12):
            now = Game.objects.get(pk=game.pk)
            cards = [0, 5 + phone, 6, 7] if turn % 2 else [0, 1, 2, 3 + phone]
            services.edit_deal(game=now, number=1, cards_left=cards, by=owner, seats=seats_of(now))
        return 12

    outcomes = at_once(
        *(partial(keep_recording, n) for n in range(2)),
        *(partial(keep_correcting, n) for n in range(2)),
    )

    assert outcomes == ["done: 6"] * 2 + ["done: 12"] * 2, outcomes
    assert Deal.objects.filter(game=game).count() == 13
    seats = list(Seat.objects.filter(game=game).order_by("position"))
    scores = list(DealScore.objects.filter(deal__game=game))
    assert [(seat.total, seat.deals_played, seat.deals_won) for seat in seats] == [
        (
            sum(score.penalty for score in scores if score.seat_id == seat.pk),
            13,
            sum(1 for score in scores if score.seat_id == seat.pk and score.cards_left == 0),
        )
        for seat in seats
    ]
