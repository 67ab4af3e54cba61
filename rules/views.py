from __future__ import annotations

from dataclasses import dataclass
from itertools import groupby

from django.forms import BoundField
from django.http import HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET
from django_htmx.http import replace_url

from bigtwo_site.http import HtmxHttpRequest
from rules.cards import DECK, Card
from rules.checker import HandReport, may_open, report
from rules.forms import CheckForm
from rules.plays import Verdict, judge

# The quirks people argue about at the table, as ready-made comparisons.
EXAMPLES = (
    (_("A club flush against an ace-high diamond flush"), "3C 5C 6C 7C 8C", "4D 9D 10D QD AD"),
    (_("A-2-3-4-5 against 2-3-4-5-6"), "AS 2D 3C 4H 5D", "2C 3D 4S 5H 6C"),
    (_("Four 5s with a 2 kicker against four 6s with a 3"), "5D 5C 5H 5S 2S", "6D 6C 6H 6S 3D"),
    (_("Jacks over threes against tens over aces"), "JD JC JH 3D 3C", "10D 10C 10H AD AC"),
    (_("Is J-Q-K-A-2 a straight?"), "JS QH KD AC 2D", "10C JC QD KH AS"),
    (_("A pair of 9s: which suit wins?"), "9S 9D", "9H 9C"),
)


@dataclass(frozen=True, slots=True)
class HandPanel:
    key: str
    field: BoundField
    report: HandReport | None


@dataclass(frozen=True, slots=True)
class PickerCard:
    card: Card
    holder: str | None  # "a", "b" or None


@require_GET
def check(request: HtmxHttpRequest) -> HttpResponse:
    form = CheckForm(request.GET or None)
    if form.is_bound and form.is_valid() and request.GET.get("tap"):
        # A tap changes the hands, so what is shown (and shared) is the address without it.
        if not request.htmx:
            return redirect(form.canonical_url())
        form = CheckForm(QueryDict(form.canonical_url().partition("?")[2]))
    template = "rules/check.html"
    if request.htmx:
        template += "#feedback" if request.htmx.target == "feedback" else "#checker"
    response = render(request, template, checker_context(form))
    if request.htmx:
        replace_url(response, form.canonical_url())
    patch_vary_headers(response, ["HX-Request"])
    return response


def checker_context(form: CheckForm) -> dict[str, object]:
    valid = form.is_bound and form.is_valid()
    data = form.cleaned_data if form.is_bound else {}
    panels = []
    for key in ("a", "b"):
        cards = data.get(key) or ()
        panels.append(HandPanel(key=key, field=form[key], report=report(cards) if cards else None))
    a, b = panels[0].report, panels[1].report
    verdict: Verdict | None = judge(a.cards, b.cards) if valid and a and b else None
    holders = {card: key for key in ("a", "b") for card in data.get(key) or ()}
    picker_rows = [
        [PickerCard(card=card, holder=holders.get(card)) for card in cards]
        for _rank, cards in groupby(DECK, key=lambda card: card.rank)
    ]
    return {
        "form": form,
        "panels": panels,
        "verdict": verdict,
        "a_may_open": a is not None and may_open(a),
        "into": data.get("into") or "a",
        "picker_rows": picker_rows,
        "examples": EXAMPLES,
    }
