"""Each player sending their own seat's figure: stored, changed until the deal records, and
the deal recorded by itself, as a deal typed on the whole-table form is, once the table's
figures are in and make a valid deal."""

from __future__ import annotations

import uuid

import pytest

from scoring import live, selectors, services
from scoring.models import Deal, DealFilling, GameChange, SentFacts
from scoring.selectors import seats_of
from tests.factories import make_member, record
from tests.scoring.own.helpers import entered_by, member, own_game, send

pytestmark = pytest.mark.django_db


def filling(game):
    return selectors.deal_filling(game, seats_of(game))


def test_the_deal_records_itself_once_every_seat_has_sent_its_own_figure():
    game = own_game()
    for position, cards in enumerate([5, 0, 7]):
        assert send(game, position, cards).recorded is None
    assert not game.deals.exists()
    sent = send(game, 3, 9)
    assert sent.recorded is not None and sent.recorded.deal.number == 1
    game.refresh_from_db()
    deal = game.deals.get()
    assert [s.cards_left for s in deal.scores.order_by("seat__position")] == [5, 0, 7, 9]
    assert [seat.total for seat in seats_of(game)] == [5, 0, 7, 9]
    assert entered_by(game) == ["ann", "ben", "cy", "dee"]
    # As a deal typed by a scorekeeper: its line of history, the filling cleared.
    line = GameChange.objects.get(game=game)
    assert (line.action, line.after, line.by.username) == ("record", [5, 0, 7, 9], "dee")
    assert not DealFilling.objects.exists() and not SentFacts.objects.exists()
    assert filling(game) is None


def test_the_filling_says_who_sent_and_who_the_table_waits_for():
    game = own_game()
    assert filling(game) is None
    send(game, 2, 4)
    send(game, 0, 6)
    shown = filling(game)
    assert (shown.number, shown.sent_names, shown.waiting) == (1, ("ann", "cy"), ("ben", "dee"))
    assert shown.problems == ()


def test_a_player_changes_their_figure_until_the_deal_records():
    game = own_game()
    send(game, 0, 9)
    send(game, 0, 5)
    assert SentFacts.objects.get().cards_left == 5
    for position, cards in [(1, 0), (2, 1), (3, 2)]:
        send(game, position, cards)
    assert [s.cards_left for s in game.deals.get().scores.order_by("seat__position")] == [
        5,
        0,
        1,
        2,
    ]


def test_figures_that_make_no_valid_deal_record_nothing_and_say_whose_figure_is_wrong():
    game = own_game()
    for position, cards in enumerate([0, 0, 7, 9]):
        assert send(game, position, cards).recorded is None
    assert not game.deals.exists()
    assert filling(game).problems == (
        "Only one player can go out in a deal — ann and ben both have 0",
    )
    # The wrong player changes theirs, and the deal records.
    assert send(game, 1, 3).recorded is not None
    assert game.deals.count() == 1


def test_more_cards_than_the_rules_deal_are_refused_by_the_deal_not_the_send():
    game = own_game()
    for position, cards in enumerate([0, 14, 7, 9]):
        send(game, position, cards)
    assert filling(game).problems == ("Cards left must be between 0 and 13 — ben has 14",)
    assert not game.deals.exists()


def test_a_member_sends_only_their_own_seat():
    game = own_game()
    with pytest.raises(services.ScoringError, match="only send your own seat"):
        send(game, 1, 5, by=member(game, 0))
    stranger = make_member(game.club, "eve")
    with pytest.raises(services.ScoringError, match="only send your own seat"):
        send(game, 0, 5, by=stranger)
    assert not SentFacts.objects.exists()


def test_a_game_kept_on_one_phone_takes_no_own_figures():
    game = own_game()
    game.own_counts = False
    game.save(update_fields=["own_counts"])
    with pytest.raises(services.ScoringError, match="kept on one phone"):
        send(game, 0, 5)


def test_a_double_tap_sends_once():
    game = own_game()
    token = uuid.uuid4()
    version = send(game, 0, 5, token=token) and type(game).objects.get(pk=game.pk).version
    send(game, 0, 5, token=token)
    assert SentFacts.objects.count() == 1
    assert type(game).objects.get(pk=game.pk).version == version  # nothing written again


def test_the_same_member_on_two_phones_last_send_counts():
    game = own_game()
    send(game, 0, 5)
    send(game, 0, 6)  # the other phone, its own token
    assert list(SentFacts.objects.values_list("cards_left", flat=True)) == [6]


def test_a_resend_of_the_send_that_recorded_the_deal_answers_with_the_deal():
    game = own_game()
    for position, cards in enumerate([5, 0, 7]):
        send(game, position, cards)
    token = uuid.uuid4()
    first = send(game, 3, 9, token=token)
    again = send(game, 3, 9, token=token)
    assert again.recorded.deal == first.recorded.deal
    assert game.deals.count() == 1


def test_a_figure_sent_for_a_deal_already_recorded_is_refused_saying_what_was_recorded():
    game = own_game()
    record(game, 0, 5, 7, 9)
    with pytest.raises(services.SentTooLate) as refused:
        send(game, 1, 6)
    assert refused.value.message == (
        "Deal 1 was already recorded, with 5 for ben: if that is wrong, change deal 1"
    )
    assert isinstance(refused.value, services.DealAlreadyRecorded)
    # What was recorded, sent again: the answer is the deal.
    assert send(game, 1, 5).recorded.deal == game.deals.get()
    assert not SentFacts.objects.exists()


def test_the_whole_table_form_records_over_the_filling_keeping_each_matching_sender():
    game = own_game()
    send(game, 0, 5)
    send(game, 1, 3)  # the form says 0 for ben: the recorder entered it
    record(game, 5, 0, 7, 9)
    assert entered_by(game) == ["ann", game.club.owner.username, *[game.club.owner.username] * 2]
    assert not DealFilling.objects.exists() and not SentFacts.objects.exists()


def test_a_deal_recorded_on_the_whole_table_form_names_its_recorder_for_every_seat(game):
    record(game, 0, 5, 7, 9)
    assert entered_by(game) == [game.club.owner.username] * 4


def test_the_filling_of_a_deal_taken_back_starts_again():
    game = own_game()
    record(game, 0, 5, 7, 9)
    send(game, 0, 4, number=2)
    services.undo_last_deal(game=game, by=game.club.owner)
    assert filling(game) is None  # it was for deal 2: deal 1 is next again
    send(game, 1, 4, number=1)
    assert list(SentFacts.objects.values_list("seat__position", flat=True)) == [1]
    assert DealFilling.objects.get().number == 1


def test_the_filling_goes_with_the_game():
    game = own_game()
    send(game, 0, 5)
    services.delete_game(game=game, by=game.club.owner)
    assert not DealFilling.objects.exists() and not SentFacts.objects.exists()


def test_every_send_tells_the_games_phones(monkeypatch, django_capture_on_commit_callbacks):
    told = []
    monkeypatch.setattr(live, "_tell", lambda group, message: told.append((group, message)))
    game = own_game()
    with django_capture_on_commit_callbacks(execute=True):
        send(game, 0, 5)
    version = type(game).objects.get(pk=game.pk).version
    assert told == [(f"game.{game.pk}", {"type": "game.changed", "version": version})]


@pytest.mark.parametrize(
    ("rules", "sends", "wanted"),
    [
        # Pusoy Dos scoring: "I went out" alone records the deal.
        ("pusoy-dos-scoring", [(2, {"cards_left": 0})], {"went_out": 2}),
        (
            "finishing-order",
            [(0, {"place": 3}), (1, {"place": 1}), (2, {"place": 4}), (3, {"place": 2})],
            {"order": (1, 3, 0, 2)},
        ),
        (
            "twos-double-each",
            [
                (0, {"cards_left": 0, "twos_held": 0}),
                (1, {"cards_left": 5, "twos_held": 1}),
                (2, {"cards_left": 3}),
                (3, {"cards_left": 8, "twos_held": 2}),
            ],
            {"cards_left": (0, 5, 3, 8), "twos_held": (0, 1, 0, 2)},
        ),
    ],
)
def test_each_rule_set_asks_each_seat_its_own_facts(rules, sends, wanted):
    game = own_game(rules=rules)
    for position, facts in sends:
        send(game, position, **facts)
    (deal,) = selectors.stored_deals(game)
    for name, value in wanted.items():
        assert getattr(deal.facts, name) == value


def test_a_figure_the_rules_dont_ask_for_is_refused():
    game = own_game(rules="finishing-order")
    with pytest.raises(services.ScoringError, match="Send your own figure"):
        send(game, 0, 5)
    with pytest.raises(services.ScoringError, match="don't ask for that"):
        send(game, 0, 5, place=1)
    assert not SentFacts.objects.exists() and not Deal.objects.exists()


@pytest.mark.parametrize(
    ("facts", "said"),
    [
        ({"cards_left": 40}, "send a number from 0 to 39"),
        ({"cards_left": 1, "twos_held": 2}, "more twos than cards"),
    ],
)
def test_a_figure_the_database_cant_hold_is_refused_in_words(facts, said):
    game = own_game(rules="twos-double-each")
    with pytest.raises(services.ScoringError, match=said):
        send(game, 0, **facts)
    assert not SentFacts.objects.exists()
