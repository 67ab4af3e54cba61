"""Forms read and check what people type; the writes themselves are in scoring.services."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.forms import BoundField
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.ruleset import RuleSet
from rules.scoring import penalty, validate_deal
from scoring.models import PLAYER_NAME_MAX_LENGTH, SEASON_NAME_MAX_LENGTH, SEATS, Club, Season, Seat
from scoring.services import clean_player_name


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
    """Four seats, clockwise; each a roster name (any case) or a new player's name; and the
    season the game counts in (the current one unless changed)."""

    def __init__(self, *args: object, club: Club, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        for position in range(1, SEATS + 1):
            self.fields[f"seat_{position}"] = forms.CharField(
                label=_("Seat %(number)s") % {"number": position},
                max_length=PLAYER_NAME_MAX_LENGTH,
                error_messages={
                    "required": _("Seat %(number)s is empty — who sits there?")
                    % {"number": position},
                    "max_length": _("A name can be at most %(count)s characters")
                    % {"count": PLAYER_NAME_MAX_LENGTH},
                },
            )
        # Left out, the game goes into the current season (the form shows no choice while the
        # club has only one).
        self.fields["season"] = season_field(club, _("Season"))
        self.fields["season"].required = False
        self.fields["season"].initial = club.seasons.filter(is_current=True).first()

    def seat_fields(self) -> list[BoundField]:
        return [self[f"seat_{position}"] for position in range(1, SEATS + 1)]

    def clean(self) -> dict[str, object]:
        data = super().clean()
        seen: dict[str, int] = {}
        for position in range(1, SEATS + 1):
            name = clean_player_name(data.get(f"seat_{position}") or "")
            if not name:
                continue
            if name.casefold() in seen:
                self.add_error(
                    f"seat_{position}",
                    f"{name} already sits in seat {seen[name.casefold()]} — "
                    "a player can't sit twice",
                )
            else:
                seen[name.casefold()] = position
        return data

    def seat_names(self) -> list[str]:
        return [self.cleaned_data[f"seat_{position}"] for position in range(1, SEATS + 1)]


class SeasonForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Name"),
        max_length=SEASON_NAME_MAX_LENGTH,
        error_messages={"required": gettext_lazy("Give the season a name, e.g. “Spring 2027”")},
    )
    starts_on = forms.DateField(
        label=gettext_lazy("Starts on"),
        widget=forms.DateInput(attrs={"type": "date"}),
        error_messages={
            "required": gettext_lazy("When does it start?"),
            "invalid": gettext_lazy("Enter a date"),
        },
    )
    ends_on = forms.DateField(
        label=gettext_lazy("Ends on (optional)"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        error_messages={"invalid": gettext_lazy("Enter a date, or leave it empty")},
    )

    def clean(self) -> dict[str, object]:
        data = super().clean()
        starts_on, ends_on = data.get("starts_on"), data.get("ends_on")
        if starts_on and ends_on and ends_on < starts_on:
            self.add_error("ends_on", _("A season can't end before it starts"))
        return data


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


class DealForm(forms.Form):
    """Cards left for each seat, in seat order, plus which deal this is and a one-time token.

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

    @staticmethod
    def key(seat: Seat) -> str:
        return f"cards_{seat.position}"

    def clean(self) -> dict[str, object]:
        data = super().clean()
        cards = [data.get(self.key(seat)) for seat in self.seats]
        if any(count is None for count in cards):
            return data
        names = [seat.player.name for seat in self.seats]
        for problem in validate_deal(cards, names, self.rules):
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

    def rows(self) -> list[DealRow]:
        rows = []
        for seat in self.seats:
            field = self[self.key(seat)]
            points = self._penalty_of(field.value())
            rows.append(
                DealRow(
                    seat=seat,
                    field=field,
                    penalty=points,
                    new_total=None if points is None else seat.total + points,
                    invalid=bool(field.errors) or seat.position in self.invalid_positions,
                )
            )
        return rows

    def _penalty_of(self, value: object) -> int | None:
        try:
            count = int(str(value).strip())
        except ValueError:
            return None
        if not 0 <= count <= self.rules.hand_size:
            return None
        return penalty(count, self.rules)


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
