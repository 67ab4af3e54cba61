"""Hypothesis strategies for the house rules: every rule set that can be played, and random
deals that keep its rules."""

from hypothesis import strategies as st

from rules.deal_checks import MOST_POINTS, TWOS_IN_THE_DECK, DealResult
from rules.deal_options import (
    DECK_SIZE,
    Dragon,
    DrawOnPass,
    Lead,
    PaysForTable,
    Scoring,
    TwoPlayerDeal,
)
from rules.options import Finish, Flushes, PenaltyScale, Straights, SuitOrder, TwosRule
from rules.ruleset import MAX_DEALS, MAX_TARGET, RuleSet

FINISHES = st.one_of(
    st.builds(
        lambda target: {"finish": Finish.TARGET, "target": target}, st.integers(1, MAX_TARGET)
    ),
    st.builds(lambda deals: {"finish": Finish.DEALS, "deals": deals}, st.integers(1, MAX_DEALS)),
    st.just({"finish": Finish.OPEN}),
)


@st.composite
def rule_sets(draw) -> RuleSet:
    """Any rule set whose choices can be played together, every option drawn."""
    players = draw(st.sampled_from([4, 3, 2]))
    table: dict[str, object] = {
        "suits": draw(st.sampled_from(SuitOrder)),
        "straights": draw(st.sampled_from(Straights)),
        "flushes": draw(st.sampled_from(Flushes)),
        "scoring": draw(st.sampled_from(Scoring)),
        "lead": draw(st.sampled_from(Lead)),
        "players": players,
        "draw_on_pass": draw(st.sampled_from(DrawOnPass)) if players < 4 else DrawOnPass.OFF,
        **draw(FINISHES),
    }
    if players == 2:
        table["two_player_deal"] = draw(st.sampled_from(TwoPlayerDeal))
    if table["scoring"] is Scoring.CARDS_LEFT:
        table["penalties"] = draw(st.sampled_from(PenaltyScale))
        if table["penalties"] is PenaltyScale.DOUBLED_FROM:
            table["doubled_from"] = draw(st.sampled_from([2, 3, 7, 8, 9, 11, 12, 13]))
        table["twos"] = draw(st.sampled_from(TwosRule))
        dealt_13 = RuleSet(**{key: table[key] for key in _DEAL_KEYS if key in table}).cards_dealt
        if dealt_13 == 13:
            table["dragon"] = draw(st.sampled_from(Dragon))
    if table["scoring"] in (Scoring.CARDS_LEFT, Scoring.PUSOY_DOS) and players > 2:
        table["pays_for_table"] = draw(st.sampled_from(PaysForTable))
    return RuleSet(**table)


_DEAL_KEYS = ("players", "draw_on_pass", "two_player_deal")

# The rule sets there were before every table's rules: any suits, straights (but Indonesian),
# flushes, penalties, twos rule, finish and number of players, each deal scored by cards left.
OLD_RULE_SETS = st.builds(
    lambda finish, **choices: RuleSet(**choices, **finish),
    FINISHES,
    suits=st.sampled_from(SuitOrder),
    straights=st.sampled_from([s for s in Straights if s is not Straights.INDONESIAN]),
    flushes=st.sampled_from(Flushes),
    penalties=st.sampled_from(
        [scale for scale in PenaltyScale if scale is not PenaltyScale.DOUBLED_FROM]
    ),
    twos=st.sampled_from(TwosRule),
    players=st.sampled_from([4, 3, 2]),
)


@st.composite
def cards_left(draw, rules: RuleSet, winner: int) -> tuple[int, ...]:
    """Cards left that keep the rules: one 0 for the winner, every hand within bounds, one 18
    at most with three players dealt 17, and no more than the rest of the pack with a stock."""
    counts = [
        0 if seat == winner else draw(st.integers(1, rules.hand_size))
        for seat in range(rules.players)
    ]
    if rules.players == 3 and rules.draw_on_pass is DrawOnPass.OFF and counts.count(18) > 1:
        counts[counts.index(18)] = 17
    most = DECK_SIZE - rules.cards_dealt
    if rules.draw_on_pass is DrawOnPass.ON and sum(counts) > most:
        last = max(seat for seat in range(rules.players) if seat != winner)
        counts[last] = most - (sum(counts) - counts[last])
    return tuple(counts)


@st.composite
def twos_held(draw, cards: tuple[int, ...], out_on_twos: bool) -> tuple[int, ...]:
    left = TWOS_IN_THE_DECK - int(out_on_twos)
    held = []
    for count in cards:
        twos = draw(st.integers(0, min(count, left)))
        left -= twos
        held.append(twos)
    return tuple(held)


@st.composite
def deals(draw, rules: RuleSet) -> DealResult:
    """A deal that keeps `rules`, every fact it may give drawn."""
    seats = rules.players
    if rules.dragon is Dragon.ON and draw(st.booleans()):
        return DealResult(dragon=draw(st.integers(0, seats - 1)))
    if rules.scoring is Scoring.FINISHING_ORDER:
        return DealResult(order=tuple(draw(st.permutations(range(seats)))))
    winner = draw(st.integers(0, seats - 1))
    cards = draw(cards_left(rules, winner))
    if rules.scoring is Scoring.POINTS_BY_HAND:
        points = tuple(
            0 if seat == winner else draw(st.integers(1, MOST_POINTS)) for seat in range(seats)
        )
        return DealResult(cards if draw(st.booleans()) else None, points=points)
    facts: dict[str, object] = {}
    if rules.pays_for_table is PaysForTable.ON and draw(st.booleans()):
        facts["pays"] = draw(st.sampled_from([seat for seat in range(seats) if seat != winner]))
    if rules.scoring is Scoring.PUSOY_DOS:
        twos = draw(st.integers(0, 4))
        if rules.lead is Lead.LOSER or draw(st.booleans()):
            return DealResult(cards, last_play_twos=twos, **facts)
        return DealResult(last_play_twos=twos, went_out=winner, **facts)
    out_on_twos = rules.twos is not TwosRule.OFF and draw(st.booleans())
    if rules.twos is TwosRule.EACH_TWO:
        facts["twos_held"] = draw(twos_held(cards, out_on_twos))
    return DealResult(cards, out_on_twos, **facts)


@st.composite
def rules_and_deals(draw, rule_set_strategy=None, count: int = 1):
    rules = draw(rule_set_strategy if rule_set_strategy is not None else rule_sets())
    return rules, [draw(deals(rules)) for _ in range(count)]
