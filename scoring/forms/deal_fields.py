"""The deal form's fields, as the rules ask them (`scoring.forms.deals.DealForm` puts them
together): each player's row input, the twos they hold, the choice of who went out, and the
facts of the whole deal below the rows."""

from __future__ import annotations

from collections.abc import Sequence

from django import forms
from django.utils.translation import gettext as _

from rules.deal_checks import MOST_POINTS, TWOS_IN_THE_DECK
from rules.ruleset import RuleSet
from scoring.forms.deal_values import PLACE, POINTS, ordinal
from scoring.models import Seat

# The facts of the whole deal, below the rows, in the order they are shown.
DEAL_FIELDS = ("out_on_twos", "last_play_twos", "pays", "dragon")


def seat_field(seat: Seat, asks: str, rules: RuleSet, seats: int) -> forms.Field:
    """A player's row input: their place (a list), or their points or cards left (a number)."""
    name = seat.player.name
    if asks == PLACE:
        places = [(str(place), ordinal(place)) for place in range(1, seats + 1)]
        return forms.TypedChoiceField(
            label=name,
            choices=[("", "–"), *places],
            coerce=int,
            empty_value=None,
            required=False,
            widget=forms.Select(
                attrs={"class": "deal-place", "aria-describedby": f"preview-{seat.position}"}
            ),
        )
    invalid = (
        _("%(name)s's points must be a whole number from 0 to %(max)s")
        % {"name": name, "max": MOST_POINTS}
        if asks == POINTS
        else _("%(name)s's cards left must be a whole number from 0 to %(max)s")
        % {"name": name, "max": rules.hand_size}
    )
    return forms.IntegerField(label=name, required=False, error_messages={"invalid": invalid})


def twos_field(seat: Seat) -> forms.IntegerField:
    """Under the stronger twos rule: the twos left in a player's hand."""
    name = seat.player.name
    return forms.IntegerField(
        label=_("Twos in %(name)s's hand") % {"name": name},
        required=False,
        error_messages={
            "invalid": _("%(name)s's twos must be a whole number from 0 to 4") % {"name": name},
        },
    )


def winner_field(seats: Sequence[Seat]) -> forms.TypedChoiceField:
    """Who went out, where that is all a row asks (Pusoy Dos scoring): one choice, a "Went
    out" in each player's row."""
    return forms.TypedChoiceField(
        label=_("Who went out?"),
        choices=[(str(seat.position), seat.player.name) for seat in seats],
        coerce=int,
        empty_value=None,
        required=False,
        widget=forms.RadioSelect,
    )


def deal_fields(allowed: frozenset[str], seats: Sequence[Seat]) -> dict[str, forms.Field]:
    """The facts of the whole deal the rules ask (of `DEAL_FIELDS`), by field name."""
    fields: dict[str, forms.Field] = {}
    if "out_on_twos" in allowed:
        fields["out_on_twos"] = forms.BooleanField(
            label=_("Went out on twos?"),
            required=False,
            help_text=_("The winner's last play was nothing but twos: penalties double."),
        )
    if "last_play_twos" in allowed:
        fields["last_play_twos"] = forms.TypedChoiceField(
            label=_("How many twos were in the last play?"),
            choices=[(str(count), str(count)) for count in range(TWOS_IN_THE_DECK + 1)],
            coerce=int,
            empty_value=None,
            required=False,
            initial=0,
            widget=forms.RadioSelect,
        )
    nobody = [("", _("nobody"))]
    players = [(str(seat.position), seat.player.name) for seat in seats]
    if "pays" in allowed:
        fields["pays"] = forms.TypedChoiceField(
            label=_("Pays for the table"),
            choices=nobody + players,
            coerce=int,
            empty_value=None,
            required=False,
            help_text=_(
                "Who led carelessly into a one-card hand and lost, or went out without saying"
                " “last card”: they take every loser's penalty, their own included."
            ),
        )
    if "dragon" in allowed:
        fields["dragon"] = forms.TypedChoiceField(
            label=_("Dragon"),
            choices=nobody + players,
            coerce=int,
            empty_value=None,
            required=False,
            help_text=_(
                "Whoever was dealt one card of every rank wins at once: nothing else is needed."
            ),
        )
    return fields
