"""What the organiser types: who is here, new players, the rounds and their time."""

from __future__ import annotations

import uuid

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from nights.models import MOST_PLAYERS, MOST_ROUND_MINUTES, MOST_ROUNDS
from rules.deal_checks import and_list
from scoring.models import PLAYER_NAME_MAX_LENGTH, Club, Player
from scoring.names import name_key, name_problem, tidy_name

# Room for MOST_PLAYERS names of the longest length, with their commas: more is refused
# before anything is split.
NEW_PLAYERS_MAX_LENGTH = MOST_PLAYERS * (PLAYER_NAME_MAX_LENGTH + 2)


class PlayerBoxes(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj: Player) -> str:
        return obj.name


class WhoIsHereForm(forms.Form):
    """The club's players ticked as here, and names new to the club, separated by commas."""

    def __init__(self, *args: object, club: Club, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.fields["here"] = PlayerBoxes(
            label=_("Who is here"),
            queryset=club.players.all(),
            required=False,
            widget=forms.CheckboxSelectMultiple,
            error_messages={"invalid_choice": _("Tick players of this club only")},
        )
        self.fields["new_players"] = forms.CharField(
            label=_("New players"),
            required=False,
            max_length=NEW_PLAYERS_MAX_LENGTH,
            help_text=_("Names new to the club, separated by commas: Ann, Ben"),
            error_messages={
                "max_length": _("That is more names than a night seats: at most %(most)s")
                % {"most": MOST_PLAYERS}
            },
        )

    def clean_new_players(self) -> list[str]:
        names = [tidy_name(name) for name in self.cleaned_data["new_players"].split(",")]
        names = [name for name in names if name]
        for name in names:
            if problem := name_problem(name):
                raise forms.ValidationError(f"{name}: {problem}")
            if len(name) > PLAYER_NAME_MAX_LENGTH:
                raise forms.ValidationError(
                    _("%(name)s: a name can be at most %(count)s characters")
                    % {"name": name, "count": PLAYER_NAME_MAX_LENGTH}
                )
        return names

    def clean(self) -> dict:
        cleaned = super().clean()
        here = list(cleaned.get("here") or [])
        names = [player.name for player in here] + list(cleaned.get("new_players") or [])
        seen: dict[str, str] = {}
        twice = []
        for name in names:
            if name_key(name) in seen and seen[name_key(name)] not in twice:
                twice.append(seen[name_key(name)])
            seen.setdefault(name_key(name), name)
        if twice:
            raise forms.ValidationError(
                _("%(names)s is named twice: name each player once") % {"names": and_list(twice)}
            )
        return cleaned


class NewNightForm(WhoIsHereForm):
    rounds = forms.IntegerField(
        label=gettext_lazy("Rounds"),
        initial=4,
        min_value=1,
        max_value=MOST_ROUNDS,
        error_messages={
            "required": gettext_lazy("Say how many rounds: 4 is usual"),
            "min_value": gettext_lazy("Play at least 1 round"),
            "max_value": gettext_lazy("A night has at most %(limit_value)s rounds"),
        },
    )
    round_minutes = forms.IntegerField(
        label=gettext_lazy("Round time (minutes)"),
        required=False,
        min_value=1,
        max_value=MOST_ROUND_MINUTES,
        help_text=gettext_lazy("Optional: when it runs out, each table plays one last deal"),
        error_messages={
            "min_value": gettext_lazy("A round lasts at least 1 minute, or leave it empty"),
            "max_value": gettext_lazy("A round lasts at most %(limit_value)s minutes"),
        },
    )
    own_counts = forms.BooleanField(
        label=gettext_lazy("Each player enters their own cards"), required=False
    )
    token = forms.UUIDField(widget=forms.HiddenInput, initial=uuid.uuid4)
