"""Shared by the scoring tests of the engine, the API and the site: a deal's facts as the
scoring API's query, and the penalties the engine charged before issue 14."""

import json
from dataclasses import asdict
from pathlib import Path

from checker.json_shapes import SCORE_PARAMETERS
from rules.deal_checks import DealResult
from rules.ruleset import RuleSet

# What the engine charged before issue 14, recorded by running the engine of commit 5147733
# (rules/penalties.py `penalty`) for every rule set of penalty scale × twos rule × players,
# every count of cards left, going out on twos or not, and every number of twos held:
# [cards left, out on twos (0/1), twos held, penalty] rows by the rule set's name.
RECORDED = {
    name: {(cards, bool(out), held): points for cards, out, held, points in rows}
    for name, rows in json.loads(
        (Path(__file__).parent / "data" / "old_penalties.json").read_text(encoding="utf-8")
    ).items()
}


def scoring_part(rules: RuleSet) -> RuleSet:
    """The choices that decided a penalty before issue 14."""
    return RuleSet(penalties=rules.penalties, twos=rules.twos, players=rules.players)


def query(facts: DealResult) -> dict[str, str]:
    """`facts` as `/api/deals/score` takes them (without `rules`)."""
    fields = asdict(facts)
    params = {}
    for name, fact in SCORE_PARAMETERS.items():
        value = fields[fact]
        if fact == "out_on_twos":
            if value:
                params[name] = "1"
        elif isinstance(value, tuple):
            params[name] = ", ".join(map(str, value))
        elif value is not None:
            params[name] = str(value)
    return params
