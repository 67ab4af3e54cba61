"""The deal form and the scoring API agree (issue 14): random deals under every rule set, typed
into the site's deal form as a scorekeeper would and recorded, score what `/api/deals/score`
answers for the same deal; and under the rule sets there were before, the site records exactly
the penalties it did then (tests/rules/data/old_penalties.json)."""

import uuid
from dataclasses import replace

from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, given, settings

from rules.deal_checks import DealResult
from rules.ruleset import RuleSet
from scoring.forms import DealForm
from scoring.forms.deal_values import WINNER
from scoring.models import Deal
from tests.factories import PLAYERS, make_club, make_game, make_user
from tests.rules.scored_deals import RECORDED, query, scoring_part
from tests.rules.strategies import OLD_RULE_SETS, rules_and_deals

EXAMPLES = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def as_typed(facts: DealResult, rules: RuleSet) -> dict[str, str]:
    """The deal form's fields for `facts`, as a scorekeeper fills them in: each row's cards
    left, points or place, the twos boxes (the winner's left empty: it isn't offered), and the
    facts of the whole deal. A dragon is the whole deal."""
    if facts.dragon is not None:
        return {"dragon": str(facts.dragon)}
    data: dict[str, str] = {}
    if facts.went_out is not None:
        data["winner"] = str(facts.went_out)
    for seat in range(rules.players):
        if facts.went_out is not None:
            pass  # Pusoy Dos scoring: the form asks nobody's cards
        elif facts.order is not None:
            data[f"place_{seat}"] = str(facts.order.index(seat) + 1)
        elif facts.points is not None:
            data[f"points_{seat}"] = str(facts.points[seat])
        else:
            data[f"cards_{seat}"] = str(facts.cards_left[seat])
        if facts.twos_held is not None and facts.cards_left[seat] != 0:
            data[f"twos_{seat}"] = str(facts.twos_held[seat])
    if facts.out_on_twos:
        data["out_on_twos"] = "on"
    for name in ("last_play_twos", "pays"):
        if getattr(facts, name) is not None:
            data[name] = str(getattr(facts, name))
    return data


def as_the_form_takes(facts: DealResult, rules: RuleSet) -> DealResult:
    """Under points by hand the form asks only the points (cards left would be a second way
    of saying who went out), and under Pusoy Dos scoring only who went out (issue 29): the
    API is asked the same."""
    if facts.points is not None:
        return replace(facts, cards_left=None)
    if DealForm.asks_for(rules) == WINNER and facts.dragon is None:
        winner = facts.went_out if facts.went_out is not None else facts.cards_left.index(0)
        return replace(facts, cards_left=None, went_out=winner)
    return facts


def recorded_through_the_form(rules: RuleSet, facts: DealResult) -> tuple[int, ...]:
    """The penalties the site records for `facts` typed into a new game's deal form."""
    owner = make_user(f"keeper-{uuid.uuid4().hex[:8]}")
    club = make_club(owner)
    season = club.seasons.get(is_current=True)
    season.rules = rules.name
    season.save(update_fields=["rules"])
    game = make_game(club, PLAYERS[: rules.players])
    client = Client()
    client.force_login(owner)
    data = {"number": "1", "token": str(uuid.uuid4())} | as_typed(facts, rules)
    response = client.post(f"/games/{game.pk}/deals/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    deal = Deal.objects.get(game=game, number=1)
    return tuple(score.penalty for score in deal.scores.order_by("seat__position"))


def in_a_rolled_back_transaction(check):
    """Each example's club and game are gone before the next example: hypothesis runs them
    all in one test, whose database only the test's end cleans."""

    def run(*args, **kwargs):
        with transaction.atomic():
            check(*args, **kwargs)
            transaction.set_rollback(True)

    return run


@EXAMPLES
@given(drawn=rules_and_deals())
def test_the_deal_form_and_the_api_score_any_deal_alike(db, drawn):
    rules, (facts,) = drawn
    facts = as_the_form_takes(facts, rules)

    @in_a_rolled_back_transaction
    def check() -> None:
        recorded = recorded_through_the_form(rules, facts)
        answer = Client().get("/api/deals/score", {"rules": rules.name, **query(facts)})
        assert answer.status_code == 200, answer.json()
        assert list(recorded) == answer.json()["penalties"]

    check()


@EXAMPLES
@given(drawn=rules_and_deals(OLD_RULE_SETS))
def test_the_old_rule_sets_record_exactly_the_penalties_they_did(db, drawn):
    rules, (facts,) = drawn
    recorded_before = RECORDED[scoring_part(rules).name]
    twos = facts.twos_held or (0,) * rules.players
    expected = tuple(
        recorded_before[(cards, facts.out_on_twos, held)]
        for cards, held in zip(facts.cards_left, twos, strict=True)
    )

    @in_a_rolled_back_transaction
    def check() -> None:
        assert recorded_through_the_form(rules, facts) == expected

    check()
