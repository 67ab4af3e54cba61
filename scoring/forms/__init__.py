"""Forms read and check what people type; the writes themselves are in scoring.services.

- `clubs`: a new club, a new game's seats and season, moving a game.
- `seasons`: a season's house rules and stake, a new season, a game's stake.
- `deals`: the deal form, with each player's penalty as it is typed.
- `own_facts`: a player's own figure of the deal, in a game played with own counts.
- `players`: a player's new name, and the player to merge one into.
"""

from scoring.forms.clubs import ClubForm, MoveGameForm, NewGameForm
from scoring.forms.deal_values import form_values, with_out_next, with_went_out
from scoring.forms.deals import DealForm, DealRow
from scoring.forms.own_facts import OwnFactsForm
from scoring.forms.players import MergePlayerForm, RenamePlayerForm
from scoring.forms.ranking import GamesToRankForm
from scoring.forms.seasons import HouseRulesForm, SeasonForm, StakeForm

__all__ = [
    "ClubForm",
    "DealForm",
    "DealRow",
    "GamesToRankForm",
    "HouseRulesForm",
    "MergePlayerForm",
    "MoveGameForm",
    "NewGameForm",
    "OwnFactsForm",
    "RenamePlayerForm",
    "SeasonForm",
    "StakeForm",
    "form_values",
    "with_out_next",
    "with_went_out",
]
