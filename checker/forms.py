"""The hand pages' query strings as forms: hands as text, the house rules, a card tapped."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar
from urllib.parse import urlencode

from django import forms
from django.http import QueryDict
from django.urls import reverse
from django.utils.functional import Promise, lazy
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from checker.table_helpers import HAND_OPTIONS, play_problem, read_rules, split_problem
from rules.cards import Card, CardParseError, parse_cards
from rules.hand_report import MAX_TEXT_LENGTH, overlap_problem
from rules.ruleset import DEFAULT_RULES, OPTIONS, RuleSet, UnknownRules, option_label
from rules.split import HAND_SIZE

HANDS = (("a", gettext_lazy("Hand A")), ("b", gettext_lazy("Hand B")))


class CardsField(forms.CharField):
    """Cards typed as text (anything `parse_cards` reads); cleans to a tuple of cards."""

    def clean(self, value: str | None) -> tuple[Card, ...]:
        text = super().clean(value)
        try:
            return parse_cards(text)
        except CardParseError as error:
            raise forms.ValidationError(str(error)) from error


def cards_field(label: str | Promise) -> CardsField:
    return CardsField(
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


def rule_choice(option: str) -> forms.ChoiceField:
    """One of the `HAND_OPTIONS` as a select; left out, it is the standard choice."""
    return forms.ChoiceField(
        label=lazy(option_label, str)(option),
        choices=lambda: [(choice.value, capfirst(choice.label)) for choice in OPTIONS[option]],
        required=False,
    )


def checker_url(a: Sequence[Card], b: Sequence[Card] = (), rules: RuleSet = DEFAULT_RULES) -> str:
    """The hand checker's address for two plays under these rules."""
    params = {"a": " ".join(card.code for card in a), "b": " ".join(card.code for card in b)}
    if rules != DEFAULT_RULES:
        params["rules"] = rules.name
    query = urlencode({key: value for key, value in params.items() if value})
    return reverse("checker:check") + (f"?{query}" if query else "")


class PickerForm(forms.Form):
    """A page's query string: hands as text, the house rules, and an optional card tap.

    The checker, "What can I play?" and "Split a hand" all take it. Subclasses declare their
    card fields and name them in `hands`, the first being where taps go unless `into` says.

    A tap (`tap=9H`) adds that card to the hand being picked (`into`) or takes it out again,
    so the picker works as plain submit buttons without JavaScript. The house rules come as one
    `rules=` name (what links carry, or anything `parse_rules` reads), or from the page's
    "House rules" selects (`suits`, `straights`, `flushes`), which win when a form sends them.
    """

    hands: ClassVar[tuple[str, ...]] = ()
    url_name: ClassVar[str] = ""
    form_id: ClassVar[str] = ""  # the <form>'s id, and the name of its partial in the page
    # Where on the page a change sent without JavaScript comes back to ("#feedback"), so the
    # reloaded page opens at the cards being picked rather than at its top; "" for the top.
    comes_back_to: ClassVar[str] = ""

    rules = forms.CharField(required=False, max_length=MAX_TEXT_LENGTH)
    suits = rule_choice("suits")
    straights = rule_choice("straights")
    flushes = rule_choice("flushes")
    tap = forms.CharField(required=False, max_length=8, widget=forms.HiddenInput)

    def clean_tap(self) -> Card | None:
        text = self.cleaned_data.get("tap")
        if not text:
            return None
        try:
            return Card.parse(text)
        except CardParseError as error:
            raise forms.ValidationError(str(error)) from error

    def clean(self) -> dict:
        data = super().clean()
        data["ruleset"] = self._ruleset()
        if self.errors:
            return data
        hands = {name: data[name] for name in self.hands}
        tapped = data.get("tap")
        if tapped is not None:
            hands = self._tapped(hands, tapped, data.get("into") or self.hands[0])
        # Checked before the tap is kept, so a refused tap leaves the hands as they were.
        problem = self.problem(hands, data)
        if problem:
            raise forms.ValidationError(problem)
        data.update(hands)
        data["tap"] = None
        return data

    def _ruleset(self) -> RuleSet:
        if any(name in self.data for name in HAND_OPTIONS):
            chosen = {name: self.cleaned_data.get(name) for name in HAND_OPTIONS}
            return RuleSet(
                **{name: OPTIONS[name](value) for name, value in chosen.items() if value}
            )
        try:
            return read_rules(self.cleaned_data.get("rules") or "")
        except UnknownRules as error:
            self.add_error("rules", str(error))
            return DEFAULT_RULES

    def _tapped(
        self, hands: dict[str, tuple[Card, ...]], tapped: Card, into: str
    ) -> dict[str, tuple[Card, ...]]:
        for other in self.hands:
            if other != into and tapped in hands[other]:
                raise forms.ValidationError(self.already_in(tapped, other))
        hand = hands[into]
        changed = tuple(c for c in hand if c != tapped) if tapped in hand else (*hand, tapped)
        return hands | {into: changed}

    def problem(self, hands: dict[str, tuple[Card, ...]], data: dict) -> str | None:
        """What is wrong with the hands taken together (after a tap), or None."""
        raise NotImplementedError  # pragma: no cover (each page's form says)

    def already_in(self, card: Card, other: str) -> str:
        """Why `card` can't be tapped: it is in the `other` hand."""
        raise NotImplementedError  # pragma: no cover (each form with two hands says)

    def held_elsewhere_tag(self, holder: str) -> str:
        """What a card shows on its face while it is in `holder`, a hand other than the one
        being picked (so it can't be tapped): that hand's tag, unless a form says more."""
        return self.places()[holder][0]

    def places(self) -> dict[str, tuple[str, str]]:
        """Each hand's tag on a picked card, and the words a screen reader adds after it."""
        raise NotImplementedError  # pragma: no cover (each page's form says)

    @property
    def ruleset(self) -> RuleSet:
        """The rules in force: the standard ones until the form is cleaned, or if they are bad."""
        return getattr(self, "cleaned_data", {}).get("ruleset", DEFAULT_RULES)

    @property
    def rules_errors(self) -> list[str]:
        return [error for name in ("rules", *HAND_OPTIONS) for error in self.errors.get(name, [])]

    def canonical_params(self) -> dict[str, str]:
        """The query of what is on screen, the hands as card codes, once the form is valid."""
        return {key: " ".join(card.code for card in self.cleaned_data[key]) for key in self.hands}

    def canonical_url(self) -> str:
        """The shareable address of what is on screen: hands as card codes, rules by name, no
        tap. With errors, the text as typed, so nothing is lost."""
        if self.is_bound and not self.errors:
            params = self.canonical_params()
        else:
            params = {key: self.data.get(key, "") for key in self.hands}
        if "rules" in self.errors:
            params["rules"] = self.data.get("rules", "")
        elif self.ruleset != DEFAULT_RULES:
            params["rules"] = self.ruleset.name
        query = urlencode({key: value for key, value in params.items() if value})
        return reverse(self.url_name) + (f"?{query}" if query else "")

    def sent_by_the_page(self) -> bool:
        """Whether this came from the page's form (a tap, or the house rules' selects) rather
        than a shared link: such a query is sent on to its canonical address."""
        return bool(self.data.get("tap")) or any(name in self.data for name in HAND_OPTIONS)

    def changes_hands(self) -> bool:
        """Whether a button of the page changed the hands as sent (a card tapped): the page
        then shows them as its canonical address has them."""
        return bool(self.data.get("tap"))


def cleared_or_swapped(data: QueryDict) -> QueryDict:
    """The hand checker's query with its "Clear" (`clear=a`) or "Swap" (`swap=1`) button's
    change made to the hands as sent. It works on the text, so a hand that doesn't read as
    cards can be cleared or swapped as well; anything else in `clear` is left alone."""
    clear = data.get("clear")
    if clear not in ("a", "b") and not data.get("swap"):
        return data
    changed = data.copy()
    if clear in ("a", "b"):
        changed[clear] = ""
    else:
        changed["a"], changed["b"] = data.get("b", ""), data.get("a", "")
    return changed


class CheckForm(PickerForm):
    """The hand checker's query string: two hands as text, plus an optional card tap, or a
    hand cleared or the two swapped (`cleared_or_swapped`)."""

    hands = ("a", "b")
    url_name = "checker:check"
    form_id = "checker"
    comes_back_to = "#feedback"

    a = cards_field(gettext_lazy("Hand A"))
    b = cards_field(gettext_lazy("Hand B"))
    into = forms.ChoiceField(
        label=gettext_lazy("Tap cards into"),
        choices=HANDS,
        required=False,
        widget=forms.RadioSelect,
    )

    def __init__(self, data: QueryDict | None = None) -> None:
        super().__init__(None if data is None else cleared_or_swapped(data))

    def clean_into(self) -> str:
        return self.cleaned_data.get("into") or "a"

    def problem(self, hands: dict[str, tuple[Card, ...]], data: dict) -> str | None:
        return overlap_problem(hands["a"], hands["b"])

    def already_in(self, card: Card, other: str) -> str:
        return _(
            "%(card)s is already in hand %(hand)s: pick into hand %(hand)s to take it out."
        ) % {"card": card, "hand": other.upper()}

    def changes_hands(self) -> bool:
        return (
            super().changes_hands()
            or self.data.get("clear") in ("a", "b")
            or bool(self.data.get("swap"))
        )

    def sent_by_the_page(self) -> bool:
        return super().sent_by_the_page() or self.changes_hands()

    def canonical_params(self) -> dict[str, str]:
        params = super().canonical_params()
        if self.cleaned_data["into"] == "b":
            params["into"] = "b"
        return params

    def places(self) -> dict[str, tuple[str, str]]:
        return {key: (key.upper(), _(", in hand %(hand)s") % {"hand": key.upper()}) for key in "ab"}

    def held_elsewhere_tag(self, holder: str) -> str:
        return pgettext("on a card in the other hand, so it can't be picked", "in %(hand)s") % {
            "hand": holder.upper()
        }


PLACES = (("hand", gettext_lazy("Your hand")), ("table", gettext_lazy("The table")))


class PlayForm(PickerForm):
    """ "What can I play?": your hand, the play on the table (none: leading), the first play."""

    hands = ("hand", "table")
    url_name = "checker:play"
    form_id = "play"

    hand = cards_field(gettext_lazy("Your hand"))
    table = cards_field(gettext_lazy("On the table"))
    first = forms.BooleanField(
        label=gettext_lazy("First play of the deal (it must hold the lowest 3)"), required=False
    )
    into = forms.ChoiceField(
        label=gettext_lazy("Tap cards into"),
        choices=PLACES,
        required=False,
        widget=forms.RadioSelect,
    )

    def clean_into(self) -> str:
        return self.cleaned_data.get("into") or "hand"

    def problem(self, hands: dict[str, tuple[Card, ...]], data: dict) -> str | None:
        return play_problem(hands["hand"], hands["table"], data["ruleset"], first=data["first"])

    def already_in(self, card: Card, other: str) -> str:
        if other == "table":
            return _("%(card)s is on the table: tap cards into the table to take it off.") % {
                "card": card
            }
        return _("%(card)s is in your hand: tap cards into your hand to take it out.") % {
            "card": card
        }

    def canonical_params(self) -> dict[str, str]:
        params = super().canonical_params()
        if self.cleaned_data["first"]:
            params["first"] = "1"
        if self.cleaned_data["into"] == "table":
            params["into"] = "table"
        return params

    def places(self) -> dict[str, tuple[str, str]]:
        return {
            "hand": (pgettext("tag on a picked card: in your hand", "H"), _(", in your hand")),
            "table": (pgettext("tag on a picked card: on the table", "T"), _(", on the table")),
        }


class SplitForm(PickerForm):
    """ "Split a hand": the 13 cards, typed or tapped."""

    hands = ("hand",)
    url_name = "checker:split"
    form_id = "split"

    hand = cards_field(gettext_lazy("Your 13 cards"))

    def problem(self, hands: dict[str, tuple[Card, ...]], data: dict) -> str | None:
        # Fewer than 13 is a hand still being picked (the page says how many are missing);
        # a 14th card can't be added.
        return split_problem(hands["hand"]) if len(hands["hand"]) > HAND_SIZE else None

    def places(self) -> dict[str, tuple[str, str]]:
        return {"hand": ("", _(", in your hand"))}
