from __future__ import annotations

from urllib.parse import urlencode

from django import forms
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.cards import Card, CardParseError, parse_cards
from rules.checker import MAX_TEXT_LENGTH, overlap_problem

HANDS = (("a", gettext_lazy("Hand A")), ("b", gettext_lazy("Hand B")))


def cards_field(label: str | Promise) -> forms.CharField:
    return forms.CharField(
        label=label,
        required=False,
        max_length=MAX_TEXT_LENGTH,
        strip=True,
        widget=forms.TextInput(
            attrs={
                "autocomplete": "off",
                "autocapitalize": "characters",
                "spellcheck": "false",
                "placeholder": gettext_lazy("e.g. 9s 9d, or tap the cards below"),
            }
        ),
    )


class CheckForm(forms.Form):
    """The hand checker's query string: two hands as text, plus an optional card tap.

    A tap (`tap=9H`) adds that card to the hand being picked (`into`) or takes it out again,
    so the picker works as plain submit buttons without JavaScript.
    """

    a = cards_field(gettext_lazy("Hand A"))
    b = cards_field(gettext_lazy("Hand B"))
    into = forms.ChoiceField(
        label=gettext_lazy("Tap cards into"),
        choices=HANDS,
        required=False,
        widget=forms.RadioSelect,
    )
    tap = forms.CharField(required=False, max_length=8, widget=forms.HiddenInput)

    def clean_a(self) -> tuple[Card, ...]:
        return self._cards("a")

    def clean_b(self) -> tuple[Card, ...]:
        return self._cards("b")

    def clean_into(self) -> str:
        return self.cleaned_data.get("into") or "a"

    def clean_tap(self) -> Card | None:
        text = self.cleaned_data.get("tap")
        if not text:
            return None
        try:
            return Card.parse(text)
        except CardParseError as error:
            raise forms.ValidationError(str(error)) from error

    def _cards(self, name: str) -> tuple[Card, ...]:
        try:
            return parse_cards(self.cleaned_data.get(name, ""))
        except CardParseError as error:
            raise forms.ValidationError(str(error)) from error

    def clean(self) -> dict:
        data = super().clean()
        if self.errors:
            return data
        a, b = data["a"], data["b"]
        problem = overlap_problem(a, b)
        if problem:
            raise forms.ValidationError(problem)
        tapped = data.get("tap")
        if tapped is not None:
            into, other = ("a", "b") if data["into"] == "a" else ("b", "a")
            if tapped in data[other]:
                raise forms.ValidationError(
                    _(
                        "%(card)s is already in hand %(hand)s: "
                        "pick into hand %(hand)s to take it out."
                    )
                    % {"card": tapped, "hand": other.upper()}
                )
            hand = data[into]
            data[into] = (
                tuple(c for c in hand if c != tapped) if tapped in hand else (*hand, tapped)
            )
            data["tap"] = None
        return data

    def canonical_url(self) -> str:
        """The shareable address of what is on screen: hands as card codes, no tap."""
        if self.is_bound and not self.errors:
            params = {
                key: " ".join(card.code for card in self.cleaned_data[key]) for key in ("a", "b")
            }
            if self.cleaned_data["into"] == "b":
                params["into"] = "b"
        else:
            params = {key: self.data.get(key, "") for key in ("a", "b")}
        query = urlencode({key: value for key, value in params.items() if value})
        return reverse("rules:check") + (f"?{query}" if query else "")
