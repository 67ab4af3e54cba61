"""The score-keeping rules, through the named writes in scoring.services."""

import uuid

import pytest
from django.db import IntegrityError, transaction

from scoring import services
from scoring.models import Deal, DealScore, Game, GameChange, Membership, Player
from tests.factories import make_club, make_game, make_member, make_user, record

pytestmark = pytest.mark.django_db

# Ann and Dee tie for lowest on 6 while Cy is past 100; the fourth deal leaves Ann alone.
TO_THE_TIE = [(0, 13, 13, 5), (5, 13, 13, 0), (1, 0, 13, 1)]  # totals 6 78 117 6
PAST_THE_TIE = (0, 1, 1, 2)  # totals 6 79 118 8: Ann wins with 6


def totals(game: Game) -> list[int]:
    return list(game.seats.order_by("position").values_list("total", flat=True))


def penalties(deal: Deal) -> list[int]:
    return list(deal.scores.order_by("seat__position").values_list("penalty", flat=True))


def play(game: Game, deals) -> None:
    for cards in deals:
        record(game, *cards)


# Penalties and totals


def test_nine_cards_cost_nine_but_ten_cost_twenty(game):
    deal = record(game, 0, 9, 10, 1)
    assert penalties(deal) == [0, 9, 20, 1]
    assert totals(game) == [0, 9, 20, 1]


def test_a_full_hand_of_thirteen_costs_39(game):
    deal = record(game, 0, 13, 12, 11)
    assert penalties(deal) == [0, 39, 24, 22]


def test_totals_run_on_from_deal_to_deal(game):
    play(game, [(0, 5, 9, 13), (3, 0, 10, 2)])
    assert totals(game) == [3, 5, 29, 41]
    assert game.status == "in_progress"


# The end of the game


def test_the_game_ends_once_someone_reaches_100_and_one_player_is_lowest(game):
    play(game, [(0, 13, 13, 5), (0, 13, 13, 5)])  # 0 78 78 10
    assert Game.objects.get(pk=game.pk).status == "in_progress"
    record(game, 0, 13, 1, 5)  # 0 117 79 15
    game.refresh_from_db()
    assert game.status == "finished"
    assert game.winner.name == "Ann"
    assert game.finished_at == game.deals.get(number=3).recorded_at
    assert totals(game) == [0, 117, 79, 15]


def test_a_tie_for_lowest_past_100_plays_on_until_one_player_is_alone(game):
    play(game, TO_THE_TIE)
    game.refresh_from_db()
    assert totals(game) == [6, 78, 117, 6]
    assert game.status == "in_progress"
    assert game.winner is None
    record(game, *PAST_THE_TIE)
    game.refresh_from_db()
    assert game.status == "finished"
    assert game.winner.name == "Ann"


def test_no_deal_is_recorded_once_the_game_is_over(game):
    play(game, [*TO_THE_TIE, PAST_THE_TIE])
    with pytest.raises(services.ScoringError, match="The game is over"):
        record(game, 0, 1, 1, 1)
    assert game.deals.count() == 4


# What a deal must be


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ((0, 0, 5, 7), "Only one player can go out in a deal — Ann and Ben both have 0"),
        ((0, 0, 0, 7), "Only one player can go out in a deal — Ann, Ben and Cy all have 0"),
        ((3, 5, 7, 9), "Nobody went out: enter 0 for the player who played their last card"),
        ((0, 5, 14, 9), "Cards left must be between 0 and 13 — Cy has 14"),
        ((0, -1, 5, 9), "Cards left must be between 0 and 13 — Ben has -1"),
    ],
)
def test_a_wrong_deal_is_refused_with_a_message_saying_what_to_fix(game, cards, message):
    with pytest.raises(services.InvalidDeal) as refused:
        record(game, *cards)
    assert message in refused.value.problems
    assert isinstance(refused.value, services.ScoringError)
    assert game.deals.count() == 0
    assert GameChange.objects.count() == 0


def test_each_deal_number_is_recorded_once(game):
    record(game, 0, 1, 2, 3)
    with pytest.raises(services.DealAlreadyRecorded, match="Deal 1 was already recorded"):
        services.record_deal(
            game=game, number=1, cards_left=[1, 0, 2, 3], token=uuid.uuid4(), by=game.club.owner
        )
    assert game.deals.count() == 1


def test_a_deal_number_beyond_the_next_is_refused(game):
    with pytest.raises(services.ScoringError, match="The next deal is deal 1, not deal 3"):
        services.record_deal(
            game=game, number=3, cards_left=[0, 1, 2, 3], token=uuid.uuid4(), by=game.club.owner
        )


def test_sending_the_same_form_twice_records_one_deal(game):
    token = uuid.uuid4()
    first = record(game, 0, 4, 5, 6, token=token)
    again = services.record_deal(
        game=game, number=1, cards_left=[0, 4, 5, 6], token=token, by=game.club.owner
    )
    assert again.deal.pk == first.pk
    assert game.deals.count() == 1
    assert GameChange.objects.filter(action="record").count() == 1


def test_the_database_refuses_a_second_deal_with_the_same_number(game):
    Deal.objects.create(game=game, number=1, token=uuid.uuid4())
    with pytest.raises(IntegrityError), transaction.atomic():
        Deal.objects.create(game=game, number=1, token=uuid.uuid4())


def test_the_database_refuses_forty_cards_left_and_twos_not_in_the_hand(game):
    # 39 is the most anyone holds (two players dealt 13 who draw on a pass: one can end with
    # the whole stock); the game's own rules check its exact limit.
    deal = Deal.objects.create(game=game, number=1, token=uuid.uuid4())
    with pytest.raises(IntegrityError), transaction.atomic():
        DealScore.objects.create(deal=deal, seat=game.seats.first(), cards_left=40, penalty=80)
    with pytest.raises(IntegrityError), transaction.atomic():
        DealScore.objects.create(
            deal=deal, seat=game.seats.first(), cards_left=2, penalty=8, twos_held=3
        )


# Corrections


def test_undo_takes_back_the_last_deal_and_works_out_the_totals_again(game):
    play(game, [(0, 5, 9, 13), (3, 0, 10, 2)])
    assert services.undo_last_deal(game=game, by=game.club.owner).number == 2
    assert list(game.deals.values_list("number", flat=True)) == [1]
    assert totals(game) == [0, 5, 9, 39]


def test_undo_of_the_deal_that_ended_the_game_reopens_it(game):
    play(game, [*TO_THE_TIE, PAST_THE_TIE])
    services.undo_last_deal(game=game, by=game.club.owner)
    game.refresh_from_db()
    assert game.status == "in_progress"
    assert game.winner is None
    assert game.finished_at is None


def test_undo_confirmed_for_one_deal_never_undoes_another(game):
    play(game, [(0, 5, 9, 13), (3, 0, 10, 2)])
    services.undo_last_deal(game=game, by=game.club.owner, number=2)
    with pytest.raises(services.ScoringError, match="Deal 2 was already undone"):
        services.undo_last_deal(game=game, by=game.club.owner, number=2)
    assert game.deals.count() == 1


def test_undo_with_no_deals_is_refused(game):
    with pytest.raises(services.ScoringError, match="There is no deal to undo"):
        services.undo_last_deal(game=game, by=game.club.owner)


def test_edit_changes_a_deal_and_the_totals_after_it(game):
    play(game, [(0, 5, 9, 13), (3, 0, 10, 2)])
    services.edit_deal(game=game, number=1, cards_left=[0, 5, 8, 13], by=game.club.owner)
    assert totals(game) == [3, 5, 28, 41]


def test_an_edit_can_end_the_game_at_its_last_deal(game):
    play(game, [(0, 13, 13, 5), (0, 13, 13, 5), (0, 12, 1, 5)])  # 0 102 79 15: over
    game.refresh_from_db()
    assert game.is_finished
    services.edit_deal(game=game, number=3, cards_left=[0, 5, 1, 5], by=game.club.owner)
    game.refresh_from_db()
    assert game.status == "in_progress"


def test_an_edit_that_would_end_the_game_earlier_is_refused_naming_the_deal(game):
    play(game, [(0, 13, 5, 5), (0, 13, 5, 5), (0, 1, 1, 1), (0, 1, 1, 1)])  # 0 80 12 12
    with pytest.raises(services.ScoringError) as refused:
        # Ben would be on 117 after deal 3, with Ann alone lowest: over after deal 3.
        services.edit_deal(game=game, number=3, cards_left=[0, 13, 1, 1], by=game.club.owner)
    assert refused.value.message == (
        "With this change the game would have ended after deal 3, but 4 deals are recorded"
        " — undo the later deals first"
    )
    assert totals(game) == [0, 80, 12, 12]
    assert not GameChange.objects.filter(action="edit").exists()


def test_an_edit_is_checked_like_a_new_deal(game):
    record(game, 0, 5, 9, 13)
    with pytest.raises(services.InvalidDeal, match="Ann and Ben both have 0"):
        services.edit_deal(game=game, number=1, cards_left=[0, 0, 9, 13], by=game.club.owner)


def test_every_change_is_kept_in_the_history(game):
    ann = make_member(game.club, "ann")
    record(game, 0, 5, 9, 13, by=ann)
    record(game, 3, 0, 10, 2, by=ann)
    services.edit_deal(game=game, number=1, cards_left=[0, 5, 8, 13], by=ann)
    services.undo_last_deal(game=game, by=game.club.owner)
    lines = [change.summary() for change in GameChange.objects.filter(game=game)]
    assert lines == [
        "owner undid deal 2 (it was 3 0 10 2)",
        "ann changed deal 1 from 0 5 9 13 to 0 5 8 13",
        "ann recorded deal 2: 3 0 10 2",
        "ann recorded deal 1: 0 5 9 13",
    ]
    edit = GameChange.objects.get(action="edit")
    assert (edit.before, edit.after, edit.by) == ([0, 5, 9, 13], [0, 5, 8, 13], ann)


# Clubs and games


def test_the_creator_of_a_club_owns_it_and_is_a_member(owner):
    club = services.create_club(name="  Friday   table ", owner=owner)
    assert club.name == "Friday table"
    assert club.owner == owner
    assert Membership.objects.filter(club=club, user=owner).exists()


def test_a_reset_invite_link_stops_the_old_one_working(club, owner):
    old = club.invite_token
    new = services.reset_invite(club=club, by=owner)
    assert new != old
    with pytest.raises(services.ScoringError, match="doesn't work any more"):
        services.join_club(token=old, user=make_user())
    assert services.join_club(token=new, user=make_user()) == club


def test_only_the_owner_resets_the_invite_link(club):
    member = make_member(club)
    with pytest.raises(services.NotAllowed):
        services.reset_invite(club=club, by=member)


def test_a_new_game_matches_roster_names_ignoring_case_and_adds_new_players(club):
    make_game(club, names=("Ann", "Ben", "Cy", "Dee"))
    game = make_game(club, names=("ann", "BEN", "Eve", "Flo"))
    assert [seat.player.name for seat in game.seats.order_by("position")] == [
        "Ann",
        "Ben",
        "Eve",
        "Flo",
    ]
    assert Player.objects.filter(club=club).count() == 6


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (("Ann", "ann", "Cy", "Dee"), "ann can't sit twice"),
        (("Ann", "", "Cy", " "), "Seat 2 and Seat 4 are empty"),
        (("Ann", "B" * 41, "Cy", "Dee"), "at most 40 characters"),
    ],
)
def test_a_game_needs_four_different_players(club, names, message):
    with pytest.raises(services.ScoringError, match=message):
        make_game(club, names=names)
    assert not Game.objects.exists()


def test_player_names_are_unique_in_a_club_by_how_they_look(club):
    """The database holds it: "ANN" and "Аnn" (a Cyrillic А) are the "Ann" of the club."""
    Player.named("Ann", club=club).save()
    for alike in ("ANN", "\u0410nn"):
        with pytest.raises(IntegrityError), transaction.atomic():
            Player.named(alike, club=club).save()
    Player.named("ann", club=make_club(name="Other")).save()


def test_only_the_owner_deletes_a_game(game):
    member = make_member(game.club)
    with pytest.raises(services.NotAllowed):
        services.delete_game(game=game, by=member)
    services.delete_game(game=game, by=game.club.owner)
    assert not Game.objects.exists()


def test_the_stored_totals_always_match_a_replay_of_the_deals(game):
    play(game, [(0, 5, 9, 13), (3, 0, 10, 2), (1, 1, 0, 1)])
    services.edit_deal(game=game, number=2, cards_left=[3, 0, 9, 2], by=game.club.owner)
    assert totals(game) == [4, 6, 18, 42]
    assert services.recompute(game).totals == (4, 6, 18, 42)
