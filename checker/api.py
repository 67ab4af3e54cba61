"""The hand checker and the helpers as JSON: `/api/hands/classify`, `/api/hands/compare`,
`/api/hands/plays` and `/api/hands/split`, each under the house rules of `?rules=`; and the
scoring of one deal, `/api/deals/score`, by the engine's `score_deal` (the function the site's
deal form scores with)."""

from __future__ import annotations

import re

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET

from checker.json_shapes import (
    SCORE_PARAMETERS,
    hand_json,
    plays_json,
    rules_json,
    scored_json,
    split_json,
)
from checker.table_helpers import HandProblem, advise, read_rules, split
from rules.cards import Card, CardParseError, parse_cards
from rules.deal_checks import DealResult
from rules.deal_score import DealRefused, facts_wanted, score_deal
from rules.hand_report import MAX_TEXT_LENGTH, overlap_problem, report
from rules.plays import judge
from rules.ruleset import RuleSet, UnknownRules, parse_rules


class BadCards(ValueError):
    """A query the API can't read (text that isn't cards, unknown rules): answered with 400
    and the message."""


def text_param(request: HttpRequest, name: str) -> str | None:
    text = request.GET.get(name)
    if text is not None and len(text) > MAX_TEXT_LENGTH:
        raise BadCards(
            _("'%(name)s' is %(length)s characters long: at most %(max)s are read")
            % {"name": name, "length": len(text), "max": MAX_TEXT_LENGTH}
        )
    return text


def cards_param(request: HttpRequest, name: str, *, required: bool = True) -> tuple[Card, ...]:
    text = text_param(request, name)
    if text is None:
        if not required:
            return ()
        raise BadCards(
            _("Give the cards as ?%(name)s=…, for example ?%(name)s=9s9d") % {"name": name}
        )
    try:
        return parse_cards(text)
    except CardParseError as error:
        raise BadCards(str(error)) from error


def rules_param(request: HttpRequest) -> RuleSet:
    """`?rules=` as `parse_rules` reads it (missing: the standard rules), cut down to the
    choices that change how hands compare."""
    try:
        return read_rules(text_param(request, "rules") or "")
    except UnknownRules as error:
        raise BadCards(str(error)) from error


def bad(error: ValueError) -> JsonResponse:
    return JsonResponse({"error": str(error)}, status=400)


@require_GET
def classify_hand(request: HttpRequest) -> JsonResponse:
    try:
        rules, cards = rules_param(request), cards_param(request, "cards")
    except BadCards as error:
        return bad(error)
    return JsonResponse(hand_json(report(cards, rules)) | {"rules": rules_json(rules)})


@require_GET
def compare_hands(request: HttpRequest) -> JsonResponse:
    try:
        rules = rules_param(request)
        a, b = cards_param(request, "a"), cards_param(request, "b")
    except BadCards as error:
        return bad(error)
    problem = overlap_problem(a, b)
    if problem:
        return JsonResponse({"error": problem}, status=400)
    verdict = judge(a, b, rules)
    return JsonResponse(
        {
            "a": hand_json(report(a, rules)),
            "b": hand_json(report(b, rules)),
            "result": verdict.result,
            "reason": verdict.reason,
            "rules": rules_json(rules),
        }
    )


@require_GET
def hand_plays(request: HttpRequest) -> JsonResponse:
    """`?hand=…&table=…&rules=…&first=1`: every play from the hand that beats the table."""
    try:
        rules = rules_param(request)
        hand = cards_param(request, "hand")
        table = cards_param(request, "table", required=False)
        first = (request.GET.get("first") or "").lower() in ("1", "true", "on", "yes")
        advice = advise(hand, table, rules, first=first)
    except (BadCards, HandProblem) as error:
        return bad(error)
    return JsonResponse(plays_json(advice, hand, rules))


@require_GET
def split_hand(request: HttpRequest) -> JsonResponse:
    """`?hand=…&rules=…`: the best three ways to split 13 cards into plays."""
    try:
        rules, hand = rules_param(request), cards_param(request, "hand")
        found = split(hand, rules)
    except (BadCards, HandProblem) as error:
        return bad(error)
    return JsonResponse(split_json(found, hand, rules))


# ---------------------------------------------------------------------------------------------
# /api/deals/score

# A number as typed: a sign and a few digits (the engine says which are out of range). Only
# ASCII digits: int() would also read "٣".
_NUMBER = re.compile(r"[+-]?[0-9]{1,6}")
_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off", "")


def number(name: str, text: str) -> int:
    # str.strip() takes more for space than int() does (the ASCII separators \x1c-\x1f), so the
    # number read is the one checked.
    typed = text.strip()
    if not _NUMBER.fullmatch(typed):
        raise BadCards(
            _("%(name)s= takes whole numbers: '%(text)s' is not one")
            % {"name": name, "text": typed[:30]}
        )
    return int(typed)


def fact_value(name: str, text: str) -> object:
    """One fact of `/api/deals/score`, read from its parameter as `DealResult` holds it."""
    if name == "out_on_twos":
        if text.strip().lower() not in _TRUE + _FALSE:
            raise BadCards(
                _("out_on_twos= is 1 (the winner went out on twos) or 0, not '%(text)s'")
                % {"text": text.strip()[:30]}
            )
        return text.strip().lower() in _TRUE
    if name in ("went_out", "last_play_twos", "dragon", "pays"):
        return number(name, text)
    return tuple(number(name, part) for part in text.split(","))


def deal_facts(request: HttpRequest, rules: RuleSet) -> DealResult:
    """The deal's facts from the query, refusing (BadCards) a fact the rules don't take and
    any they need that is missing, by the parameter's name."""
    texts = {name: text_param(request, name) for name in SCORE_PARAMETERS}
    given = {name: text for name, text in texts.items() if text is not None}
    facts = {SCORE_PARAMETERS[name]: fact_value(name, text) for name, text in given.items()}
    wanted = facts_wanted(rules, dragon="dragon" in facts)
    unused = [f"{name}=" for name in given if SCORE_PARAMETERS[name] not in wanted.allowed]
    if unused and "dragon" in wanted.required:
        raise BadCards(
            _(
                "A dragon wins before a card is played, so the deal takes only dragon=:"
                " leave out %(names)s"
            )
            % {"names": ", ".join(unused)}
        )
    if unused:
        raise BadCards(
            ngettext(
                "These rules (%(rules)s) don't use %(names)s: leave it out",
                "These rules (%(rules)s) don't use %(names)s: leave them out",
                len(unused),
            )
            % {"rules": rules.label, "names": ", ".join(unused)}
        )
    needed = set(wanted.required)
    if wanted.one_of and not wanted.one_of & set(facts):
        needed.add("went_out")  # or cards=, whose 0 says it (see `facts_wanted`)
    missing = [
        name for name, fact in SCORE_PARAMETERS.items() if fact in needed and name not in given
    ]
    if missing:
        raise BadCards(
            _("These rules (%(rules)s) need %(names)s")
            % {"rules": rules.label, "names": "; ".join(_wanted(name, rules) for name in missing)}
        )
    return DealResult(**facts)


# For a missing parameter: an example for four players (cut to the seats at the table).
_EXAMPLES = {
    "cards": (0, 5, 13, 10),
    "went_out": (1,),
    "twos": (0, 1, 0, 2),
    "last_play_twos": (2,),
    "order": (1, 0, 3, 2),
    "points": (0, 4, 9, 2),
}


def _wanted(name: str, rules: RuleSet) -> str:
    """A missing parameter, with an example and what it means."""
    seats = rules.players
    example = _EXAMPLES[name]
    example = (
        tuple(seat for seat in example if seat < seats) if name == "order" else example[:seats]
    )
    meaning = {
        "cards": _("each seat's cards left, 0 for the winner"),
        "went_out": _("the seat who went out"),
        "twos": _("the twos each seat holds"),
        "last_play_twos": _("the twos in the winner's last play, 0 to 4"),
        "order": _("the seats from 0, the first out first"),
        "points": _("each seat's points, 0 for the winner"),
    }[name]
    return f"{name}={','.join(map(str, example))} ({meaning})"


@require_GET
def score_a_deal(request: HttpRequest) -> JsonResponse:
    """`?rules=…&cards=0,5,13,10&…`: each seat's penalty for one deal, and why."""
    try:
        rules = parse_rules(text_param(request, "rules") or "")
        scored = score_deal(deal_facts(request, rules), rules)
    except (BadCards, UnknownRules, DealRefused) as error:
        return bad(error)
    return JsonResponse(scored_json(scored))
