"""The club's head-to-head: which other player's row to add to the matrix."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy


class AskedPlayerForm(forms.Form):
    """One of the club's players with a finished game and no row of their own in the matrix
    (`scoring.selectors.head_to_head.Matrix.others`), chosen from a list: sent in the page's
    address, so it works without JavaScript and can be shared."""

    player = forms.TypedChoiceField(
        label=gettext_lazy("Another player"),
        coerce=int,
        error_messages={
            "invalid_choice": gettext_lazy(
                "That player has no finished game in this club, or already has a row:"
                " choose one from the list."
            ),
            "required": gettext_lazy("Choose a player from the list."),
        },
    )

    def __init__(self, *args: object, others: list[tuple[int, str]], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = others
