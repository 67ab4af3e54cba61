"""Who deals and who leads the next deal, under each lead rule (seed 004: "The winner of each
deal deals the next"; "Many tables play that the winner of each deal leads the next rather
than the holder of the three, and some that the loser does")."""

from hypothesis import given

from rules.cards import Card, Rank, Suit
from rules.deal_checks import DealResult
from rules.deal_options import Lead
from rules.deal_score import score_deal
from rules.next_deal import NextDeal, next_deal
from rules.ruleset import parse_rules
from tests.rules.strategies import rules_and_deals

NAMES = ["Ann", "Ben", "Cara", "Dev"]


def after(facts: DealResult, rules: str) -> NextDeal:
    ruleset = parse_rules(rules)
    return next_deal(ruleset, score_deal(facts, ruleset))


def test_by_default_the_winner_deals_and_whoever_holds_the_three_of_diamonds_leads():
    following = after(DealResult((5, 0, 13, 10)), "standard")
    assert (following.dealer, following.leader) == (1, None)
    assert following.lowest_card == Card(Rank.THREE, Suit.DIAMONDS)
    assert following.sentence(NAMES) == "Ben deals; whoever holds 3♦ leads"


def test_under_pusoy_dos_and_bridge_suits_the_three_of_clubs_leads():
    following = after(DealResult((5, 0, 13, 10)), "pusoy-dos-suits")
    assert following.sentence(NAMES) == "Ben deals; whoever holds 3♣ leads"
    assert next_deal(parse_rules("bridge")).sentence(NAMES) == "Whoever holds 3♣ leads"


def test_before_the_first_deal_nobody_knows_who_deals_and_the_lowest_three_leads():
    for rules in ("standard", "winner-leads", "loser-leads"):
        first = next_deal(parse_rules(rules))
        assert (first.dealer, first.leader) == (None, None)
        assert first.sentence(NAMES) == "Whoever holds 3♦ leads"


def test_with_two_players_whoever_holds_the_lowest_card_dealt_leads():
    """Seed 004: "Whoever holds the lowest card dealt leads" (half the pack is set aside)."""
    following = after(DealResult((0, 9)), "2-players")
    assert not following.whole_pack_dealt
    assert following.sentence(NAMES) == "Ann deals; whoever holds the lowest card dealt leads"
    assert next_deal(parse_rules("2-players-17")).sentence(NAMES) == (
        "Whoever holds the lowest card dealt leads"
    )


def test_three_players_with_a_stock_lead_with_the_lowest_card_dealt_too():
    assert not parse_rules("3-players,draw-on-pass").whole_pack_dealt
    assert parse_rules("3-players").whole_pack_dealt


def test_winner_leads_the_winner_deals_and_leads():
    following = after(DealResult((5, 0, 13, 10)), "winner-leads")
    assert (following.dealer, following.leader) == (1, 1)
    assert following.sentence(NAMES) == "Ben deals and leads"


def test_loser_leads_the_player_left_holding_the_most_cards_leads():
    following = after(DealResult((5, 0, 13, 10)), "loser-leads")
    assert (following.dealer, following.leader) == (1, 2)
    assert following.sentence(NAMES) == "Ben deals; Cara leads"


def test_of_losers_tied_for_most_cards_the_first_after_the_winner_leads():
    """Decided: the first of them in seat order after the winner (the next to play)."""
    assert after(DealResult((9, 4, 0, 9)), "loser-leads").leader == 3
    assert after(DealResult((13, 13, 0, 13)), "loser-leads").leader == 3
    assert after(DealResult((0, 13, 13, 13)), "loser-leads").leader == 1
    assert after(DealResult(dragon=1), "dragon,loser-leads").leader == 2


def test_the_loser_under_the_other_scorings():
    assert after(DealResult(order=(2, 0, 3, 1)), "finishing-order,loser-leads").leader == 1
    assert after(DealResult(points=(7, 0, 9, 9)), "points-by-hand,loser-leads").leader == 2
    pusoy = after(DealResult((0, 3, 12, 2), last_play_twos=1), "pusoy-dos-scoring,loser-leads")
    assert pusoy.leader == 2
    # Paying for the table changes who pays, not who was left holding the most cards.
    assert after(DealResult((0, 3, 12, 2), pays=1), "pays-for-table,loser-leads").leader == 2


@given(rules_and_deals())
def test_under_every_rule_the_winner_deals_and_a_loser_or_a_card_leads(drawn):
    rules, (facts,) = drawn
    scored = score_deal(facts, rules)
    following = next_deal(rules, scored)
    assert following.dealer == scored.winner
    assert scored.penalties[scored.winner] == 0
    if facts.went_out is None:  # Pusoy Dos told only who went out: nobody's cards are known
        assert scored.loser != scored.winner
    match rules.lead:
        case Lead.WINNER:
            assert following.leader == scored.winner
        case Lead.LOSER:
            assert following.leader == scored.loser
        case _:
            assert following.leader is None
    assert following.sentence([f"P{seat}" for seat in range(rules.players)])


def test_under_points_by_hand_the_cards_left_decide_the_loser_when_they_are_given():
    rules = "points-by-hand,loser-leads"
    assert after(DealResult((9, 0, 2, 3), points=(7, 0, 9, 9)), rules).leader == 0
