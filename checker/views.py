"""The hand checker's and the helpers' pages: /check/, /play/ and /split/, typed or tapped."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import groupby

from django.forms import BoundField
from django.http import HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import replace_url

from checker.forms import CheckForm, PickerForm, PlayForm, SplitForm, checker_url
from checker.table_helpers import (
    HAND_OPTIONS,
    SHOWN_PER_GROUP,
    advise,
    group_heading,
    sorted_hand,
    split_problem,
    split_ways,
)
from common.http import HtmxHttpRequest
from rules.cards import DECK, Card, parse_cards
from rules.hand_report import HandReport, may_open, report
from rules.plays import Play, Verdict, judge, lowest_card
from rules.ruleset import DEFAULT_RULES, RuleSet
from rules.split_plans import goals

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
    holder: str | None  # the hand it is in ("a", "b", "hand", "table"), or None
    tag: str  # that hand's short tag on the card ("A"; "in A" where it can't be tapped), or ""
    held: str  # words a screen reader adds after the card's name (", in hand A"), or ""
    held_elsewhere: bool  # in a hand other than the one being picked: it can't be tapped


@dataclass(frozen=True, slots=True)
class RuleSelect:
    name: str
    label: str
    choices: list[tuple[str, str]]
    value: str


@dataclass(frozen=True, slots=True)
class ShownPlay:
    play: Play
    url: str  # the hand checker with this play against the table


@dataclass(frozen=True, slots=True)
class ShownGroup:
    heading: str
    plays: list[ShownPlay]
    left_out: int  # stronger plays of the kind not shown


@require_GET
@vary_on_headers("HX-Request")
def check(request: HtmxHttpRequest) -> HttpResponse:
    return picker_page(request, CheckForm, "checker/check.html", checker_context)


@require_GET
@vary_on_headers("HX-Request")
def play(request: HtmxHttpRequest) -> HttpResponse:
    return picker_page(request, PlayForm, "checker/play.html", play_context)


@require_GET
@vary_on_headers("HX-Request")
def split_hand(request: HtmxHttpRequest) -> HttpResponse:
    return picker_page(request, SplitForm, "checker/split.html", split_context)


def picker_page[F: PickerForm](
    request: HtmxHttpRequest,
    form_class: type[F],
    template: str,
    context: Callable[[F], dict[str, object]],
) -> HttpResponse:
    """A page of hands typed or tapped: its form is the partial named by the form's id, and
    typing swaps only `#feedback` inside it."""
    form = form_class(request.GET or None)
    if form.is_bound and form.is_valid() and form.sent_by_the_page():
        # A tap (or Clear, or Swap) changes the hands, so what is shown (and shared) is the
        # address without it.
        if not request.htmx:
            return redirect(form.canonical_url() + form.comes_back_to)
        if form.changes_hands():
            form = form_class(QueryDict(form.canonical_url().partition("?")[2]))
    if request.htmx:
        template += "#feedback" if request.htmx.target == "feedback" else f"#{form.form_id}"
    response = render(request, template, common_context(form) | context(form))
    if request.htmx:
        replace_url(response, form.canonical_url())
    return response


def common_context(form: PickerForm) -> dict[str, object]:
    """The house rules and the card picker, as every picker page shows them."""
    data: dict[str, object] = {}
    if form.is_bound:
        form.is_valid()  # cleans it, errors or not: the picker shows the hands after a tap
        data = form.cleaned_data
    rules = form.ruleset
    places = form.places()
    holders = {card: key for key in form.hands for card in data.get(key) or ()}
    into = data.get("into") or form.hands[0]
    picker_rows = [
        [picker_card(form, card, holders.get(card), into, places) for card in cards]
        for _rank, cards in groupby(DECK, key=lambda card: card.rank)
    ]
    return {
        "form": form,
        "form_id": form.form_id,
        "page_url": reverse(form.url_name),
        "rules": rules,
        "rules_errors": form.rules_errors,
        "rules_changed": rules != DEFAULT_RULES,
        "rules_open": rules != DEFAULT_RULES or bool(form.rules_errors),
        "rule_selects": rule_selects(form, rules),
        "into": into,
        "into_choices": form.fields["into"].choices if "into" in form.fields else (),
        "picker_rows": picker_rows,
    }


def picker_card(
    form: PickerForm,
    card: Card,
    holder: str | None,
    into: str,
    places: dict[str, tuple[str, str]],
) -> PickerCard:
    """A card of the picker: free, in the hand being picked, or in another (said on its face,
    since it is greyed out and can't be tapped)."""
    if holder is None:
        return PickerCard(card=card, holder=None, tag="", held="", held_elsewhere=False)
    elsewhere = holder != into
    return PickerCard(
        card=card,
        holder=holder,
        tag=form.held_elsewhere_tag(holder) if elsewhere else places[holder][0],
        held=places[holder][1],
        held_elsewhere=elsewhere,
    )


def rule_selects(form: PickerForm, rules: RuleSet) -> list[RuleSelect]:
    """The house rules' selects, showing the rules in force however they were given."""
    return [
        RuleSelect(
            name=name,
            label=str(form.fields[name].label),
            choices=list(form.fields[name].choices),
            value=getattr(rules, name).value,
        )
        for name in HAND_OPTIONS
    ]


def checker_context(form: CheckForm) -> dict[str, object]:
    valid = form.is_bound and form.is_valid()
    data = form.cleaned_data if form.is_bound else {}
    rules = form.ruleset
    panels = []
    for key in ("a", "b"):
        cards = data.get(key) or ()
        panels.append(
            HandPanel(key=key, field=form[key], report=report(cards, rules) if cards else None)
        )
    a, b = panels[0].report, panels[1].report
    verdict: Verdict | None = judge(a.cards, b.cards, rules) if valid and a and b else None
    into = data.get("into") or "a"
    other = "b" if into == "a" else "a"
    return {
        "panels": panels,
        "verdict": verdict,
        # The hand whose cards are greyed out in the picker, if it has any: the page says why.
        "held_elsewhere": other.upper() if data.get(other) else "",
        "can_swap": any(form[key].value() for key in ("a", "b")),
        # The hands that could be a deal's first play: a legal play holding its lowest card.
        "openers": [
            panel.key for panel in panels if panel.report and may_open(panel.report, rules)
        ],
        "lowest_card": lowest_card(rules),
        "examples": [
            (title, checker_url(parse_cards(a_text), parse_cards(b_text), rules))
            for title, a_text, b_text in EXAMPLES
        ],
    }


def play_context(form: PlayForm) -> dict[str, object]:
    valid = form.is_bound and form.is_valid()
    data = form.cleaned_data if form.is_bound else {}
    rules = form.ruleset
    hand, table = data.get("hand") or (), data.get("table") or ()
    advice = advise(hand, table, rules, first=data["first"]) if valid and hand else None
    groups = [
        ShownGroup(
            heading=group_heading(group),
            plays=[
                ShownPlay(play=play, url=checker_url(play.cards, table, rules))
                for play in group.plays[:SHOWN_PER_GROUP]
            ],
            left_out=max(0, len(group.plays) - SHOWN_PER_GROUP),
        )
        for group in (advice.groups if advice else ())
    ]
    return {
        "hand_field": form["hand"],
        "table_field": form["table"],
        "hand_cards": sorted_hand(hand, rules),
        "table_report": report(table, rules) if table else None,
        "summary": advice.summary if advice else None,
        "groups": groups,
    }


def split_context(form: SplitForm) -> dict[str, object]:
    valid = form.is_bound and form.is_valid()
    data = form.cleaned_data if form.is_bound else {}
    rules = form.ruleset
    hand = data.get("hand") or ()
    missing = split_problem(hand) if valid and hand else None
    return {
        "hand_field": form["hand"],
        "hand_cards": sorted_hand(hand, rules),
        "missing": missing,
        "ways": split_ways(hand, rules) if valid and hand and not missing else (),
        "goals": goals(),
    }
