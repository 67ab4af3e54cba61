"""The house rules as a form's fields: one choice of each option of `rules.ruleset.OPTIONS`,
in the groups a phone shows one after another, and the numbers some choices take."""

from __future__ import annotations

from django import forms
from django.utils.functional import Promise, lazy
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy

from rules.options import PenaltyScale
from rules.penalty_scales import DEFAULT_DOUBLED_FROM, DOUBLED_FROM_CHOICES, scale_for_threshold
from rules.ruleset import DEFAULT_RULES, OPTIONS, RuleSet, option_label

# Every option of rules.ruleset.OPTIONS, in groups a phone shows one after another, each
# option a fieldset of its choices. The target and the number of deals follow the finish, the
# count penalties double from follows the penalties.
RULE_GROUPS: tuple[tuple[Promise, tuple[str, ...]], ...] = (
    (gettext_lazy("Cards and suits"), ("suits", "straights", "flushes")),
    (
        gettext_lazy("Scoring"),
        (
            "scoring",
            "penalties",
            "doubled_from",
            "twos",
            "dragon",
            "pays_for_table",
            "finish",
            "target",
            "deals",
        ),
    ),
    (
        gettext_lazy("Players and dealing"),
        ("players", "two_player_deal", "draw_on_pass", "lead"),
    ),
)
# The options whose value is a number of players or of cards, not a token.
NUMBER_OPTIONS = ("players", "two_player_deal")
# The numbers a choice takes, each a field of its own: the target score, the number of deals,
# the count of cards penalties double from.
RULE_NUMBERS = ("target", "deals", "doubled_from")


def rule_field(option: str) -> forms.TypedChoiceField:
    """A choice of one house rule, each choice with its own explanation under its name."""
    choices = OPTIONS[option]
    return forms.TypedChoiceField(
        label=lazy(option_label, str)(option),
        choices=lazy(
            lambda: [
                (str(choice.value), f"{capfirst(choice.label)} — {choice.explained}")
                for choice in choices
            ],
            list,
        )(),
        initial=getattr(DEFAULT_RULES, option),
        widget=forms.RadioSelect,
        # Left out, it keeps what the club plays now (SeasonForm.clean).
        required=False,
    )


def doubled_from_field() -> forms.IntegerField:
    return forms.IntegerField(
        label=gettext_lazy("Penalties double from (cards)"),
        min_value=DOUBLED_FROM_CHOICES.start,
        max_value=DOUBLED_FROM_CHOICES.stop - 1,
        initial=DEFAULT_DOUBLED_FROM,
        required=False,
        help_text=gettext_lazy(
            "With “doubled from N cards”: N, from 2 to 13. At 10 it is the standard scale."
        ),
        error_messages={
            "invalid": gettext_lazy("Enter a number of cards from 2 to 13, e.g. 8"),
            "min_value": gettext_lazy("Enter a number of cards from 2 to 13, e.g. 8"),
            "max_value": gettext_lazy("Enter a number of cards from 2 to 13, e.g. 8"),
        },
    )


def chosen_penalties(data: dict[str, object]) -> dict[str, object]:
    """The penalty scale chosen, with the count it doubles from where it takes one: doubled
    from 10 is the standard scale, which has a name of its own."""
    scale = PenaltyScale(data["penalties"])
    if scale is not PenaltyScale.DOUBLED_FROM:
        return {"penalties": scale, "doubled_from": DEFAULT_DOUBLED_FROM}
    scale, doubled_from = scale_for_threshold(int(str(data["doubled_from"])))
    return {"penalties": scale, "doubled_from": doubled_from}


def rule_values(rules: RuleSet) -> dict[str, object]:
    """The house rules' fields as `rules` fill them in (a form's initial values)."""
    return {option: getattr(rules, option) for option in OPTIONS} | {
        number: getattr(rules, number) for number in RULE_NUMBERS
    }
