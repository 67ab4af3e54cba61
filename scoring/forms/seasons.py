"""How a season plays and for what: its house rules and stake (a new club's first season, or a new
season with its name and dates), and a game's own stake."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django import forms
from django.core.exceptions import ValidationError
from django.forms import BoundField
from django.forms.boundfield import BoundWidget
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.deal_options import Scoring
from rules.options import Finish
from rules.presets import PRESETS, proposed_target, target_reason
from rules.ruleset import (
    DEFAULT_RULES,
    MAX_DEALS,
    MAX_TARGET,
    OPTIONS,
    RuleSet,
    UnknownRules,
)
from scoring.forms.ranking import games_to_rank_field
from scoring.forms.rule_fields import (
    NUMBER_OPTIONS,
    RULE_GROUPS,
    RULE_NUMBERS,
    chosen_penalties,
    doubled_from_field,
    rule_field,
    rule_values,
)
from scoring.models import (
    SEASON_NAME_MAX_LENGTH,
    Club,
    Season,
    season_day_problem,
    shown_stake,
)


class DayInput(forms.DateInput):
    """A day, in the browser's date picker. `<input type="date">` holds its value as YYYY-MM-DD
    (HTML's valid date string) in every language: given a date as the page's language writes
    one ("2026/12/03" in Chinese), the browser shows an empty box and won't send the form. What
    the field accepts is still each language's input formats and ISO (`forms.DateField`)."""

    input_type = "date"

    def __init__(self, attrs: dict[str, object] | None = None) -> None:
        super().__init__(attrs, format="%Y-%m-%d")


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


class HouseRulesForm(forms.Form):
    """How a season plays: every house rule (rules.ruleset.OPTIONS), and the stake a point.

    It starts from `season`'s rules (the club's current season if not given), or `start`'s: a
    club changes what it changes and keeps the rest. The target score follows the scoring (see
    `rules.presets.proposed_target`) unless it is changed too. Choices that can't be played
    together (`rules.rule_clashes`) are refused with the engine's reasons, the choices kept.
    """

    suits = rule_field("suits")
    straights = rule_field("straights")
    flushes = rule_field("flushes")
    scoring = rule_field("scoring")
    penalties = rule_field("penalties")
    doubled_from = doubled_from_field()
    twos = rule_field("twos")
    dragon = rule_field("dragon")
    pays_for_table = rule_field("pays_for_table")
    players = rule_field("players")
    two_player_deal = rule_field("two_player_deal")
    draw_on_pass = rule_field("draw_on_pass")
    lead = rule_field("lead")
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
        self,
        *args: object,
        club: Club,
        season: Season | None = None,
        start: RuleSet | None = None,
        **kwargs: object,
    ) -> None:
        season = season or club.seasons.filter(is_current=True).first()
        self.start = start or (season.ruleset if season is not None else DEFAULT_RULES)
        initial = kwargs.pop("initial", {})
        kwargs["initial"] = (
            rule_values(self.start)
            | {"currency": club.currency}
            | ({"stake": shown_stake(season.stake)} if season is not None else {})
            | initial
        )
        super().__init__(*args, **kwargs)
        self.fields["target"].help_text = _(
            "With “to a target score”: where the match can end. Unless you change it, it fits"
            " the scoring chosen. %(reason)s"
        ) % {"reason": target_reason(self.start)}

    def clean(self) -> dict[str, object]:
        data = super().clean()
        for name in (*OPTIONS, *RULE_NUMBERS):
            if data.get(name) in (None, "") and name not in self.errors:
                data[name] = self.initial[name]
        if not self.errors:
            try:
                self._rules = self._chosen(self._target_fitted(data))
            except UnknownRules as clash:
                # Choices that can't be played together: the engine says why (all at once).
                self.add_error(None, str(clash))
        return data

    def _target_fitted(self, data: dict[str, object]) -> dict[str, object]:
        """The choices sent, the target left as it was made to fit the scoring chosen: the
        starting rules' own where they play to a target under that scoring, else the target
        proposed for it."""
        if str(data["target"]) != str(self.start.target):
            return data
        scoring, players = Scoring(data["scoring"]), int(str(data["players"]))
        kept = self.start.finish is Finish.TARGET and self.start.scoring is scoring
        fitting = proposed_target(RuleSet(scoring=scoring, players=players))
        return data | {"target": self.start.target if kept else fitting}

    @staticmethod
    def _chosen(data: dict[str, object]) -> RuleSet:
        """The rules chosen; the target or number of deals only where the finish uses it,
        the cards each of two players is dealt only with two."""
        finish = Finish(data["finish"])
        players = int(str(data["players"]))
        return RuleSet(
            **{
                option: OPTIONS[option](data[option])
                for option in OPTIONS
                if option not in NUMBER_OPTIONS
            }
            | chosen_penalties(data),
            players=players,
            two_player_deal=int(str(data["two_player_deal"])) if players == 2 else 13,
            target=data["target"] if finish is Finish.TARGET else DEFAULT_RULES.target,
            deals=data["deals"] if finish is Finish.DEALS else DEFAULT_RULES.deals,
        )

    def ruleset(self) -> RuleSet:
        """The rules chosen, once the form is valid."""
        return self._rules

    def rule_groups(self) -> list[tuple[Promise, list[BoundField]]]:
        """The house rules' fields, group by group (RULE_GROUPS)."""
        return [(label, [self[name] for name in names]) for label, names in RULE_GROUPS]

    def money_fields(self) -> list[BoundField]:
        return [self["stake"], self["currency"]]


def season_day(day: datetime.date) -> None:
    """A season's dates stay within 2000–2100 (see scoring.models.FIRST_SEASON_DAY)."""
    if (problem := season_day_problem(day)) is not None:
        raise ValidationError(problem, code="out_of_range")


# The club's current season, as a starting point beside the presets (`rules.presets.PRESETS`).
CURRENT = "current"


class SeasonForm(HouseRulesForm):
    """A new season: its name and dates (from today unless changed), and its rules: those of
    a preset, or the club's current season's, each house rule changeable under "Customise".

    The house rules' fields show the rules the form started from (`shown_preset`, sent back
    with it). A preset chosen since is not saved: `picked_another` says so, and the view shows
    the form again starting from that preset, as static/js/season-presets.js does on the phone
    as soon as it is chosen.
    """

    name = forms.CharField(
        label=gettext_lazy("Name"),
        max_length=SEASON_NAME_MAX_LENGTH,
        error_messages={"required": gettext_lazy("Give the season a name, e.g. “Spring 2027”")},
    )
    starts_on = forms.DateField(
        label=gettext_lazy("Starts on"),
        widget=DayInput,
        validators=[season_day],
        error_messages={
            "required": gettext_lazy("When does it start?"),
            "invalid": gettext_lazy("Enter a date"),
        },
    )
    ends_on = forms.DateField(
        label=gettext_lazy("Ends on (optional)"),
        required=False,
        widget=DayInput,
        validators=[season_day],
        error_messages={"invalid": gettext_lazy("Enter a date, or leave it empty")},
    )
    min_games = games_to_rank_field()
    preset = forms.ChoiceField(
        label=gettext_lazy("Start from"), widget=forms.RadioSelect, required=False
    )
    shown_preset = forms.CharField(widget=forms.HiddenInput, required=False)

    def __init__(
        self, *args: object, club: Club, preset: str | None = None, **kwargs: object
    ) -> None:
        self.current_season = club.seasons.filter(is_current=True).first()
        self.starting_points = {
            **({CURRENT: self.current_season.ruleset} if self.current_season else {}),
            **{key: known.rules for key, known in PRESETS.items()},
        }
        data = args[0] if args else kwargs.get("data")
        sent = data.get("shown_preset") if data else preset
        self.shown = sent if sent in self.starting_points else next(iter(self.starting_points))
        initial = {"starts_on": timezone.localdate()} | kwargs.pop("initial", {})
        initial |= {"preset": self.shown, "shown_preset": self.shown}
        super().__init__(
            *args, club=club, start=self.starting_points[self.shown], initial=initial, **kwargs
        )
        self.fields["preset"].choices = [(key, key) for key in self.starting_points]

    def clean(self) -> dict[str, object]:
        data = super().clean()
        starts_on, ends_on = data.get("starts_on"), data.get("ends_on")
        if starts_on and ends_on and ends_on < starts_on:
            self.add_error("ends_on", _("A season can't end before it starts"))
        return data

    @property
    def picked_another(self) -> str | None:
        """A starting point chosen other than the one the fields show (once cleaned)."""
        picked = self.cleaned_data.get("preset") or self.shown
        return picked if picked != self.shown else None

    def starting_point(self, key: str | None = None) -> str:
        """ "Starting from: …": the rules the house rules' fields show (or would, from `key`)."""
        key = key or self.shown
        rules = self.starting_points[key]
        if key == CURRENT:
            assert self.current_season is not None
            return _("Starting from: this club's current season, %(season)s (%(rules)s)") % {
                "season": self.current_season.name,
                "rules": rules.label,
            }
        return _("Starting from: %(preset)s (%(rules)s)") % {
            "preset": PRESETS[key].label,
            "rules": rules.label,
        }

    def starting_points_shown(self) -> list[StartingPoint]:
        """The choices of where the rules start from, with what each plays."""
        points = []
        for choice in self["preset"]:
            key = choice.data["value"]
            if key == CURRENT:
                assert self.current_season is not None
                label = _("This club's current season, %(season)s") % {
                    "season": self.current_season.name
                }
                about = ""
            else:
                label, about = PRESETS[key].label, PRESETS[key].explained
            rules = self.starting_points[key]
            points.append(StartingPoint(choice, label, about, rules, self.starting_point(key)))
        return points

    def preset_values(self) -> dict[str, dict[str, str]]:
        """Each starting point's house rules as the fields take them, for
        static/js/season-presets.js."""
        return {
            key: {name: str(value) for name, value in rule_values(rules).items()}
            for key, rules in self.starting_points.items()
        }

    def season_fields(self) -> list[BoundField]:
        return [self[name] for name in ("name", "starts_on", "ends_on", "min_games")]

    def rules_refused(self) -> bool:
        """Whether a house rule was refused, or the rules together: "Customise" opens."""
        rule_names = (*OPTIONS, *RULE_NUMBERS)
        return bool(self.non_field_errors()) or any(self[name].errors for name in rule_names)


@dataclass(frozen=True, slots=True)
class StartingPoint:
    """A choice of rules to start a season from: its radio, name, words and rules, and what
    the form says once it is chosen."""

    choice: BoundWidget
    label: str
    about: str
    rules: RuleSet
    starting: str

    @property
    def note(self) -> str:
        """Beside its words: the current season's rules; a preset's target, where it isn't the
        rule book's, and why it fits the scoring."""
        if not self.about:
            return self.rules.label
        if self.rules.finish is not Finish.TARGET or self.rules.target == DEFAULT_RULES.target:
            return ""
        return f"{capfirst(self.rules.finish_label)}. {target_reason(self.rules)}"
