"""How a season plays and for what: its house rules and stake (a new club's first season, or a new
season with its name and dates), and a game's own stake."""

from __future__ import annotations

import datetime

from django import forms
from django.core.exceptions import ValidationError
from django.forms import BoundField
from django.utils.functional import Promise, lazy
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.options import Finish
from rules.ruleset import DEFAULT_RULES, MAX_DEALS, MAX_TARGET, OPTIONS, RuleSet, option_label
from scoring.models import SEASON_NAME_MAX_LENGTH, Club, Season, shown_stake
from scoring.services import season_day_problem


def stake_field(label: str | Promise) -> forms.DecimalField:
    return forms.DecimalField(
        label=label,
        required=False,
        min_value=0,
        max_digits=9,
        decimal_places=3,
        help_text=gettext_lazy(
            "What a point is worth, e.g. 0.10; leave empty if you don't play for money."
        ),
        error_messages={
            "invalid": gettext_lazy("Enter the stake as a number, e.g. 0.10"),
            "min_value": gettext_lazy("A stake can't be negative"),
            "max_digits": gettext_lazy("That stake is too big: at most 6 digits before the point"),
            "max_decimal_places": gettext_lazy("A stake can have at most 3 decimal places"),
            "max_whole_digits": gettext_lazy(
                "That stake is too big: at most 6 digits before the point"
            ),
        },
    )


class StakeForm(forms.Form):
    stake = stake_field(gettext_lazy("Stake a point"))


# The options of rules.ruleset.OPTIONS a season's form offers. The others (scoring, the dragon,
# paying for the table, two players' hands, drawing, who leads) wait until the deal form can
# take the facts they need; a season keeps their defaults.
OFFERED_OPTIONS = ("suits", "straights", "flushes", "penalties", "twos", "finish", "players")


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


class HouseRulesForm(forms.Form):
    """How a season plays: each option it offers (OFFERED_OPTIONS), and the stake a point.

    It starts from `season`'s rules (the club's current season if not given): a club changes
    what it changes and keeps the rest.
    """

    suits = rule_field("suits")
    straights = rule_field("straights")
    flushes = rule_field("flushes")
    penalties = rule_field("penalties")
    twos = rule_field("twos")
    players = rule_field("players")
    finish = rule_field("finish")
    target = forms.IntegerField(
        label=gettext_lazy("Target score"),
        min_value=1,
        max_value=MAX_TARGET,
        initial=DEFAULT_RULES.target,
        required=False,
        help_text=gettext_lazy("With “to a target score”: where the match can end."),
        error_messages={"invalid": gettext_lazy("Enter the target as a whole number, e.g. 100")},
    )
    deals = forms.IntegerField(
        label=gettext_lazy("Number of deals"),
        min_value=1,
        max_value=MAX_DEALS,
        initial=DEFAULT_RULES.deals,
        required=False,
        help_text=gettext_lazy("With “a set number of deals”: how many make a match."),
        error_messages={"invalid": gettext_lazy("Enter the deals as a whole number, e.g. 10")},
    )
    stake = stake_field(gettext_lazy("Stake a point (optional)"))
    currency = forms.CharField(
        label=gettext_lazy("Currency (optional)"),
        max_length=Club._meta.get_field("currency").max_length,
        required=False,
        help_text=gettext_lazy("A symbol such as £ or HK$, or a code such as HKD: the club's."),
    )

    def __init__(
        self, *args: object, club: Club, season: Season | None = None, **kwargs: object
    ) -> None:
        season = season or club.seasons.filter(is_current=True).first()
        rules = season.ruleset if season is not None else DEFAULT_RULES
        kwargs.setdefault(
            "initial",
            {option: getattr(rules, option) for option in OFFERED_OPTIONS}
            | {"target": rules.target, "deals": rules.deals, "currency": club.currency}
            | ({"stake": shown_stake(season.stake)} if season is not None else {}),
        )
        super().__init__(*args, **kwargs)

    def clean(self) -> dict[str, object]:
        data = super().clean()
        for name in (*OFFERED_OPTIONS, "target", "deals"):
            if data.get(name) in (None, "") and name not in self.errors:
                data[name] = self.initial[name]
        return data

    def ruleset(self) -> RuleSet:
        """The rules chosen; the target or number of deals only where the finish uses it."""
        data = self.cleaned_data
        finish = Finish(data["finish"])
        return RuleSet(
            **{
                option: OPTIONS[option](data[option])
                for option in OFFERED_OPTIONS
                if option != "players"
            },
            players=int(data["players"]),
            target=data["target"] if finish is Finish.TARGET else DEFAULT_RULES.target,
            deals=data["deals"] if finish is Finish.DEALS else DEFAULT_RULES.deals,
        )

    def rule_fields(self) -> list[BoundField]:
        return [self[name] for name in (*OFFERED_OPTIONS, "target", "deals")]

    def money_fields(self) -> list[BoundField]:
        return [self["stake"], self["currency"]]


def season_day(day: datetime.date) -> None:
    """A season's dates stay within 2000–2100 (see scoring.models.FIRST_SEASON_DAY)."""
    if (problem := season_day_problem(day)) is not None:
        raise ValidationError(problem, code="out_of_range")


class SeasonForm(HouseRulesForm):
    """A new season: its name and dates, and its rules, starting from the current season's."""

    name = forms.CharField(
        label=gettext_lazy("Name"),
        max_length=SEASON_NAME_MAX_LENGTH,
        error_messages={"required": gettext_lazy("Give the season a name, e.g. “Spring 2027”")},
    )
    starts_on = forms.DateField(
        label=gettext_lazy("Starts on"),
        widget=forms.DateInput(attrs={"type": "date"}),
        validators=[season_day],
        error_messages={
            "required": gettext_lazy("When does it start?"),
            "invalid": gettext_lazy("Enter a date"),
        },
    )
    ends_on = forms.DateField(
        label=gettext_lazy("Ends on (optional)"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        validators=[season_day],
        error_messages={"invalid": gettext_lazy("Enter a date, or leave it empty")},
    )

    def clean(self) -> dict[str, object]:
        data = super().clean()
        starts_on, ends_on = data.get("starts_on"), data.get("ends_on")
        if starts_on and ends_on and ends_on < starts_on:
            self.add_error("ends_on", _("A season can't end before it starts"))
        return data

    def season_fields(self) -> list[BoundField]:
        return [self[name] for name in ("name", "starts_on", "ends_on")]
