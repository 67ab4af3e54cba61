"""A new club, a new game's seats and season, moving a game to another season."""

from __future__ import annotations

import uuid

from django import forms
from django.forms import BoundField
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.models import PLAYER_NAME_MAX_LENGTH, SEATS, Club, Season
from scoring.names import name_key, name_problem, tidy_name


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
    """The seats, clockwise; each a roster name (in any case, compared as `scoring.names`
    compares names), a member's username, or a new player's name; and the season the game
    counts in (the current one unless changed).

    A season's rules say how many play (four, three or two): the form has as many seats as the
    club's seasons need at most, and the chosen season's number must be filled, no more.
    """

    def __init__(self, *args: object, club: Club, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        seasons = list(club.seasons.all())
        self.seats = max((season.ruleset.players for season in seasons), default=SEATS)
        # The seats every season of the club fills: the phone may insist on those; the others
        # depend on the season chosen, which the server checks (a blank seat the browser
        # insisted on would block a two-player game in a club that once played four).
        self.required_seats = min((season.ruleset.players for season in seasons), default=SEATS)
        current = next((season for season in seasons if season.is_current), None)
        for position in range(1, self.seats + 1):
            self.fields[f"seat_{position}"] = forms.CharField(
                label=_("Seat %(number)s") % {"number": position},
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
        self.fields["own_counts"] = forms.BooleanField(
            label=_("Each player enters their own cards"), required=False
        )
        # A resend of this form finds the game it started (`services.start_game`'s token).
        self.fields["token"] = forms.UUIDField(
            widget=forms.HiddenInput, initial=uuid.uuid4, required=False
        )

    def seat_fields(self) -> list[BoundField]:
        """The seats the season chosen (the current one, on a fresh form) is played by, and
        any other seat sent filled in or refused: a seat it doesn't use isn't shown."""
        shown = self.players()
        return [
            self[f"seat_{position}"]
            for position in range(1, self.seats + 1)
            if position <= shown or self[f"seat_{position}"].errors
        ]

    def players(self) -> int:
        """How many the chosen season's rules seat: as sent, or on a fresh form the current
        season's."""
        season = getattr(self, "cleaned_data", {}).get("season") or self._sent_season()
        return season.ruleset.players if season is not None else SEATS

    def _sent_season(self) -> Season | None:
        if self.is_bound and "season" not in getattr(self, "cleaned_data", {}):
            try:
                return self.fields["season"].clean(self["season"].data)
            except forms.ValidationError:
                pass
        return self.current_season

    def seating(self) -> str:
        """What the form asks, for the number of players the season chosen seats."""
        count = self.players()
        if count == 2:
            return _("Seat the two players. Pick a name from the club's players or type a new one.")
        if count == 3:
            return _(
                "Seat the three players clockwise. Pick a name from the club's players or type a"
                " new one."
            )
        return _(
            "Seat the four players clockwise. Pick a name from the club's players or type a new"
            " one."
        )

    def clean(self) -> dict[str, object]:
        data = super().clean()
        if "season" in self.errors:
            return data
        players = self.players()
        seen: dict[str, int] = {}
        for position in range(1, self.seats + 1):
            key = f"seat_{position}"
            name = tidy_name(data.get(key) or "")
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
            if (problem := name_problem(name)) is not None:
                self.add_error(key, problem)
            elif name_key(name) in seen:
                self.add_error(
                    key,
                    _("%(name)s already sits in seat %(seat)s — a player can't sit twice")
                    % {"name": name, "seat": seen[name_key(name)]},
                )
            else:
                seen[name_key(name)] = position
        return data

    def seat_names(self) -> list[str]:
        return [self.cleaned_data[f"seat_{position}"] for position in range(1, self.players() + 1)]


class MoveGameForm(forms.Form):
    def __init__(self, *args: object, club: Club, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.fields["season"] = season_field(club, _("Move to season"))
