"""A player's own seat's facts of the deal being played, sent from their own phone in a game
played with own counts: one box for the figure the rules ask (cards left, place or points),
"Send", and "I went out"; the twos held under the stronger twos rule."""

from __future__ import annotations

import uuid

from django import forms
from django.utils.translation import gettext_lazy as _

from rules.deal_checks import MOST_POINTS, TWOS_IN_THE_DECK
from rules.deal_score import facts_wanted
from rules.options import TwosRule
from rules.ruleset import RuleSet
from scoring.models import MOST_CARDS_IN_HAND, SEATS
from scoring.models.facts import OwnFacts

CARDS, PLACE, POINTS = "cards_left", "place", "points"


def asked_figure(rules: RuleSet) -> str:
    """The one figure a seat sends under these rules: its place, its points or its cards left."""
    wanted = facts_wanted(rules)
    if "order" in wanted.required:
        return PLACE
    return POINTS if "points" in wanted.required else CARDS


def only_going_out(rules: RuleSet) -> bool:
    """Under Pusoy Dos scoring with the winner leading, a seat only says it went out."""
    return "went_out" in facts_wanted(rules).one_of


class OwnFactsForm(forms.Form):
    """Deal `number`'s own figure of one seat; "I went out" (`went_out`) sends the winner's:
    0 cards left or points, or the first place."""

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    token = forms.UUIDField(widget=forms.HiddenInput)
    went_out = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: object, rules: RuleSet, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.rules = rules
        self.asks = asked_figure(rules)
        most = {PLACE: SEATS, POINTS: MOST_POINTS, CARDS: MOST_CARDS_IN_HAND}[self.asks]
        label = {PLACE: _("Your place"), POINTS: _("Your points"), CARDS: _("Your cards left")}
        self.fields["figure"] = forms.IntegerField(
            label=label[self.asks],
            required=False,
            min_value=1 if self.asks == PLACE else 0,
            max_value=most,
            widget=forms.NumberInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
            error_messages={
                "invalid": _("Type a whole number, or tap “I went out”"),
                "min_value": _("Type a number from %(limit_value)s up"),
                "max_value": _("Type a number up to %(limit_value)s"),
            },
        )
        if rules.twos is TwosRule.EACH_TWO:
            self.fields["twos_held"] = forms.IntegerField(
                label=_("Twos you held"), required=False, min_value=0, max_value=TWOS_IN_THE_DECK
            )

    def clean(self) -> dict[str, object]:
        cleaned = super().clean()
        if not cleaned.get("went_out") and cleaned.get("figure") is None and not self.errors:
            self.add_error("figure", _("Type your figure, or tap “I went out”"))
        return cleaned

    def facts(self) -> OwnFacts:
        """What the seat sends (of a valid form)."""
        data = self.cleaned_data
        figure = data.get("figure")
        if data.get("went_out"):
            figure = 1 if self.asks == PLACE else 0
        twos = (data.get("twos_held") or 0) if "twos_held" in self.fields else None
        return OwnFacts(
            cards_left=figure if self.asks == CARDS else None,
            place=figure if self.asks == PLACE else None,
            points=figure if self.asks == POINTS else None,
            twos_held=twos,
        )

    @classmethod
    def fresh(cls, rules: RuleSet, number: int, figure: int | None = None) -> OwnFactsForm:
        """Deal `number`'s form, a new token, showing the `figure` the seat sent, if any."""
        return cls(rules=rules, initial={"number": number, "token": uuid.uuid4(), "figure": figure})
