"""How many finished games a player needs in a season to be ranked: a setting of the
new-season form, and a form of its own once the season has games."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from scoring.models import MOST_GAMES_TO_RANK


def games_to_rank_field() -> forms.IntegerField:
    """ "Rank players with at least N games": the new-season form's, and the season's own."""
    return forms.IntegerField(
        label=gettext_lazy("Rank players with at least N games"),
        # Left empty, everyone is ranked (0).
        required=False,
        min_value=0,
        max_value=MOST_GAMES_TO_RANK,
        initial=0,
        help_text=gettext_lazy(
            "Players with fewer games this season are listed after the table, “Not yet ranked”."
        ),
        error_messages={
            "invalid": gettext_lazy("Enter a whole number of games"),
            "min_value": gettext_lazy("Enter a number of games, 0 to rank everyone"),
            "max_value": gettext_lazy("That's more games than a season needs: at most 1000"),
        },
    )


class GamesToRankForm(forms.Form):
    """How many finished games a player needs in a season to be ranked: changeable at any
    time, since it changes only how the table is shown."""

    min_games = games_to_rank_field()
