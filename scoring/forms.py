"""Forms read and check what people type; the writes themselves are in scoring.services."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import ValidationError
from django.forms import BoundField
from django.utils.functional import Promise, lazy
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.options import Finish, TwosRule
from rules.penalties import penalty, validate_deal
from rules.ruleset import DEFAULT_RULES, MAX_DEALS, MAX_TARGET, OPTIONS, RuleSet, option_label
from scoring.models import (
    PLAYER_NAME_MAX_LENGTH,
    SEASON_NAME_MAX_LENGTH,
    SEATS,
    Club,
    Season,
    Seat,
    shown_stake,
)
from scoring.services import clean_player_name, season_day_problem


class SignupForm(UserCreationForm):
    """Username, password and its confirmation: nothing else is needed to keep score."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].help_text = _(
            "The name your club will see. Letters, digits and @ . + - _ only."
        )
        self.fields["password2"].help_text = _("Type the same password again.")


class ClubForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Name"),
        max_length=Club._meta.get_field("name").max_length,
        error_messages={"required": gettext_lazy("Give the club a name")},
    )


class SeasonChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Season) -> str:
        return _("%(season)s (current)") % {"season": obj.name} if obj.is_current else obj.name


def season_field(club: Club, label: str | Promise) -> SeasonChoiceField:
    return SeasonChoiceField(
        label=label,
        queryset=club.seasons.all(),
        empty_label=None,
        error_messages={"invalid_choice": gettext_lazy("Pick one of the club's seasons")},
    )


class NewGameForm(forms.Form):
    """The seats, clockwise; each a roster name (any case) or a new player's name; and the
    season the game counts in (the current one unless changed).

    A season's rules say how many play (four, three or two): the form has as many seats as the
    club's seasons need at most, and the chosen season's number must be filled, no more.
    """

    def __init__(self, *args: object, club: Club, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        seasons = list(club.seasons.all())
        self.seats = max((season.ruleset.players for season in seasons), default=SEATS)
        current = next((season for season in seasons if season.is_current), None)
        playing = current.ruleset.players if current is not None else SEATS
        for position in range(1, self.seats + 1):
            label = _("Seat %(number)s") % {"number": position}
            if position > playing:
                # Another season of the club seats more: this one stays empty here.
                label = _("Seat %(number)s (only in seasons for %(count)s)") % {
                    "number": position,
                    "count": self.seats,
                }
            self.fields[f"seat_{position}"] = forms.CharField(
                label=label,
                max_length=PLAYER_NAME_MAX_LENGTH,
                required=False,
                error_messages={
                    "max_length": _("A name can be at most %(count)s characters")
                    % {"count": PLAYER_NAME_MAX_LENGTH},
                },
            )
        # Left out, the game goes into the current season (the form shows no choice while the
        # club has only one).
        self.fields["season"] = season_field(club, _("Season"))
        self.fields["season"].required = False
        self.fields["season"].initial = current
        self.current_season = current

    def seat_fields(self) -> list[BoundField]:
        return [self[f"seat_{position}"] for position in range(1, self.seats + 1)]

    def players(self) -> int:
        """How many the chosen season's rules seat."""
        season = self.cleaned_data.get("season") or self.current_season
        return season.ruleset.players if season is not None else SEATS

    def clean(self) -> dict[str, object]:
        data = super().clean()
        if "season" in self.errors:
            return data
        players = self.players()
        seen: dict[str, int] = {}
        for position in range(1, self.seats + 1):
            key = f"seat_{position}"
            name = clean_player_name(data.get(key) or "")
            if position > players:
                if name:
                    self.add_error(
                        key,
                        _("This season is played by %(count)s: leave seat %(number)s empty")
                        % {"count": players, "number": position},
                    )
                continue
            if not name:
                if key not in self.errors:
                    self.add_error(
                        key, _("Seat %(number)s is empty — who sits there?") % {"number": position}
                    )
                continue
            if name.casefold() in seen:
                self.add_error(
                    key,
                    f"{name} already sits in seat {seen[name.casefold()]} — "
                    "a player can't sit twice",
                )
            else:
                seen[name.casefold()] = position
        return data

    def seat_names(self) -> list[str]:
        return [self.cleaned_data[f"seat_{position}"] for position in range(1, self.players() + 1)]


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


class MoveGameForm(forms.Form):
    def __init__(self, *args: object, club: Club, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.fields["season"] = season_field(club, _("Move to season"))


@dataclass(frozen=True, slots=True)
class DealRow:
    """One player's line on the deal form: the input, and the penalty it would cost."""

    seat: Seat
    field: BoundField
    penalty: int | None
    new_total: int | None
    invalid: bool
    twos_field: BoundField | None = None  # under the stronger twos rule: twos left in hand


class DealForm(forms.Form):
    """Cards left for each seat, in seat order, plus which deal this is and a one-time token.

    Under the twos rule it also asks whether the winner went out on twos, and under its
    stronger form how many twos each player still holds (blank counts as none).

    Bound or not, `rows()` gives each player's current value and its penalty preview, so the
    same template shows a fresh form, a form being typed in and a refused one.
    """

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    token = forms.UUIDField(widget=forms.HiddenInput)

    def __init__(
        self, *args: object, seats: Sequence[Seat], rules: RuleSet, **kwargs: object
    ) -> None:
        super().__init__(*args, **kwargs)
        self.seats = list(seats)
        self.rules = rules
        self.invalid_positions: set[int] = set()
        for seat in self.seats:
            name = seat.player.name
            self.fields[self.key(seat)] = forms.IntegerField(
                label=name,
                error_messages={
                    "required": _("Enter %(name)s's cards left") % {"name": name},
                    "invalid": _("%(name)s's cards left must be a whole number from 0 to %(max)s")
                    % {"name": name, "max": rules.hand_size},
                },
            )
            if rules.twos is TwosRule.EACH_TWO:
                self.fields[self.twos_key(seat)] = forms.IntegerField(
                    label=_("Twos in %(name)s's hand") % {"name": name},
                    required=False,
                    error_messages={
                        "invalid": _("%(name)s's twos must be a whole number from 0 to 4")
                        % {"name": name},
                    },
                )
        if rules.twos is not TwosRule.OFF:
            self.fields["out_on_twos"] = forms.BooleanField(
                label=_("Went out on twos?"),
                required=False,
                help_text=_("The winner's last play was nothing but twos: penalties double."),
            )

    @staticmethod
    def key(seat: Seat) -> str:
        return f"cards_{seat.position}"

    @staticmethod
    def twos_key(seat: Seat) -> str:
        return f"twos_{seat.position}"

    def clean(self) -> dict[str, object]:
        data = super().clean()
        cards = [data.get(self.key(seat)) for seat in self.seats]
        if any(count is None for count in cards):
            return data
        twos = self.twos_held() if self.rules.twos is TwosRule.EACH_TWO else None
        if twos is not None and any(count is None for count in twos):
            return data
        names = [seat.player.name for seat in self.seats]
        for problem in validate_deal(
            cards, names, self.rules, out_on_twos=self.went_out_on_twos(), twos_held=twos
        ):
            self.add_error(None, problem)
        zeros = [seat.position for seat, count in zip(self.seats, cards, strict=True) if count == 0]
        self.invalid_positions = {
            seat.position
            for seat, count in zip(self.seats, cards, strict=True)
            if not 0 <= count <= self.rules.hand_size
        }
        if len(zeros) > 1:
            self.invalid_positions.update(zeros)
        return data

    def cards_left(self) -> list[int]:
        return [self.cleaned_data[self.key(seat)] for seat in self.seats]

    def went_out_on_twos(self) -> bool:
        return bool(self.cleaned_data.get("out_on_twos"))

    def twos_facts(self) -> dict[str, object]:
        """What the game's twos rule asks, as services.record_deal and edit_deal take it."""
        facts: dict[str, object] = {}
        if self.rules.twos is not TwosRule.OFF:
            facts["out_on_twos"] = self.went_out_on_twos()
        if self.rules.twos is TwosRule.EACH_TWO:
            facts["twos_held"] = self.twos_held()
        return facts

    def twos_held(self) -> list[int | None] | None:
        """Each seat's twos left in hand (blank is none), under the stronger twos rule only."""
        if self.rules.twos is not TwosRule.EACH_TWO:
            return None
        return [
            self.cleaned_data.get(self.twos_key(seat)) or 0
            if self.twos_key(seat) not in self.errors
            else None
            for seat in self.seats
        ]

    def rows(self) -> list[DealRow]:
        rows = []
        counts_twos = self.rules.twos is TwosRule.EACH_TWO
        out_on_twos = self.rules.twos is not TwosRule.OFF and self["out_on_twos"].value() in (
            True,
            "on",
            "true",
            "1",
        )
        for seat in self.seats:
            field = self[self.key(seat)]
            twos_field = self[self.twos_key(seat)] if counts_twos else None
            twos = _whole(twos_field.value(), blank=0) if twos_field is not None else 0
            points = self._penalty_of(field.value(), out_on_twos, twos)
            rows.append(
                DealRow(
                    seat=seat,
                    field=field,
                    penalty=points,
                    new_total=None if points is None else seat.total + points,
                    invalid=bool(field.errors)
                    or seat.position in self.invalid_positions
                    or bool(twos_field is not None and twos_field.errors),
                    twos_field=twos_field,
                )
            )
        return rows

    def _penalty_of(self, value: object, out_on_twos: bool, twos: int | None) -> int | None:
        count = _whole(value)
        if count is None or not 0 <= count <= self.rules.hand_size:
            return None
        if twos is None or not 0 <= twos <= min(4, count):
            return None
        return penalty(
            count,
            self.rules,
            out_on_twos=out_on_twos,
            twos_held=twos if self.rules.twos is TwosRule.EACH_TWO else 0,
        )


def _whole(value: object, blank: int | None = None) -> int | None:
    """A typed whole number; `blank` if nothing is typed; None if it isn't a number."""
    text = "" if value is None else str(value).strip()
    if not text:
        return blank
    try:
        return int(text)
    except ValueError:
        return None


def with_went_out(data: dict[str, str], seats: Sequence[Seat], went_out: str) -> dict[str, str]:
    """The typed values with one player set to 0; anyone else at 0 is cleared, since only one
    player goes out in a deal."""
    values = dict(data)
    for seat in seats:
        key = DealForm.key(seat)
        if str(seat.position) == went_out:
            values[key] = "0"
        elif values.get(key, "").strip() == "0":
            values[key] = ""
    return values
