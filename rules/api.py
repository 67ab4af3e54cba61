"""The hand checker as JSON: `/api/hands/classify` and `/api/hands/compare`."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from rules.cards import Card, CardParseError, parse_cards
from rules.checker import MAX_TEXT_LENGTH, hand_json, overlap_problem, report
from rules.plays import judge


class BadCards(ValueError):
    """Text that isn't cards: answered with 400 and the message."""


def cards_param(request: HttpRequest, name: str) -> tuple[Card, ...]:
    text = request.GET.get(name)
    if text is None:
        raise BadCards(
            _("Give the cards as ?%(name)s=…, for example ?%(name)s=9s9d") % {"name": name}
        )
    if len(text) > MAX_TEXT_LENGTH:
        raise BadCards(
            _("'%(name)s' is %(length)s characters long: at most %(max)s are read")
            % {"name": name, "length": len(text), "max": MAX_TEXT_LENGTH}
        )
    try:
        return parse_cards(text)
    except CardParseError as error:
        raise BadCards(str(error)) from error


@require_GET
def classify_hand(request: HttpRequest) -> JsonResponse:
    try:
        cards = cards_param(request, "cards")
    except BadCards as error:
        return JsonResponse({"error": str(error)}, status=400)
    return JsonResponse(hand_json(report(cards)))


@require_GET
def compare_hands(request: HttpRequest) -> JsonResponse:
    try:
        a, b = cards_param(request, "a"), cards_param(request, "b")
    except BadCards as error:
        return JsonResponse({"error": str(error)}, status=400)
    problem = overlap_problem(a, b)
    if problem:
        return JsonResponse({"error": problem}, status=400)
    verdict = judge(a, b)
    return JsonResponse(
        {
            "a": hand_json(report(a)),
            "b": hand_json(report(b)),
            "result": verdict.result,
            "reason": verdict.reason,
        }
    )
