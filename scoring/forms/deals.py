"""The deal form: each player's cards left (and twos), with the penalty each would cost."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django import forms
from django.forms import BoundField
from django.utils.translation import gettext as _

from rules.options import TwosRule
from rules.penalties import penalty, validate_deal
from rules.ruleset import RuleSet
from scoring.models import Seat


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
