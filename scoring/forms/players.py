"""A player's new name, and the player to merge one into."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _

from scoring.models import PLAYER_NAME_MAX_LENGTH, Player


class RenamePlayerForm(forms.Form):
    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.fields["name"] = forms.CharField(
            label=_("New name"),
            max_length=PLAYER_NAME_MAX_LENGTH,
            error_messages={
                "required": _("Give the player a name"),
                "max_length": _("A name can be at most %(count)s characters")
                % {"count": PLAYER_NAME_MAX_LENGTH},
            },
        )


class PlayerChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Player) -> str:
        return obj.name


class MergePlayerForm(forms.Form):
    """The player of the same club to fold `player` into; none is chosen until someone does,
    since a merge can't be undone."""

    def __init__(self, *args: object, player: Player, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.fields["into"] = PlayerChoiceField(
            label=_("Merge into"),
            queryset=player.club.players.exclude(pk=player.pk),
            empty_label=_("Choose a player"),
            error_messages={
                "required": _("Choose the player to merge %(name)s into") % {"name": player.name},
                "invalid_choice": _("Choose one of the club's other players"),
            },
        )
