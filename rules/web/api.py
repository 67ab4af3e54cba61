"""The hand checker and the helpers as JSON: `/api/hands/classify`, `/api/hands/compare`,
`/api/hands/plays` and `/api/hands/split`, each under the house rules of `?rules=`."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from rules.cards import Card, CardParseError, parse_cards
from rules.hand_report import MAX_TEXT_LENGTH, overlap_problem, report
from rules.plays import judge
from rules.ruleset import RuleSet, UnknownRules
from rules.web.json_shapes import hand_json, plays_json, rules_json, split_json
from rules.web.table_helpers import HandProblem, advise, read_rules, split


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
