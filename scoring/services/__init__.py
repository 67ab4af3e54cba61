"""Every write of the score-keeping app, one named function per action.

Each runs in one transaction and refuses with `ScoringError` (its message is meant for the
person at the table). Views call these and nothing else that writes, as
`services.record_deal(...)`: the functions live in a module per domain and are all named here.

- `errors`: `ScoringError` and its kinds.
- `permissions`: what only a club's owner may do (`NotAllowed` otherwise), and `is_owner`.
- `clubs`: a new club, joining it, its invite link.
- `seasons`: a new season, a season's rules.
- `games`: starting a game, its stake, its season, its live view link, ending it, deleting it.
- `deals`: recording, undoing and correcting deals.
- `totals`: `recompute` (what the deals add up to) and the steps the writes share.
- `facts`: a deal's facts as its rows store them and as the rules engine reads them.
"""

from scoring.services.clubs import create_club, join_club, reset_invite
from scoring.services.deals import UndoneDeal, edit_deal, record_deal, undo_last_deal
from scoring.services.errors import (
    DealAlreadyRecorded,
    DealRecordedDifferently,
    DealWasUndone,
    InvalidDeal,
    NotAllowed,
    ScoringError,
)
from scoring.services.facts import described, extras, facts_of, figures, stored_facts
from scoring.services.games import (
    clean_player_name,
    delete_game,
    end_match,
    move_game,
    set_stake,
    share_game,
    start_game,
    stop_sharing,
)
from scoring.services.seasons import season_day_problem, set_season_rules, start_season
from scoring.services.totals import SEAT_FIGURES, recompute, seat_figures

__all__ = [
    "SEAT_FIGURES",
    "UndoneDeal",
    "DealAlreadyRecorded",
    "DealRecordedDifferently",
    "DealWasUndone",
    "InvalidDeal",
    "NotAllowed",
    "ScoringError",
    "clean_player_name",
    "create_club",
    "described",
    "delete_game",
    "edit_deal",
    "end_match",
    "extras",
    "facts_of",
    "figures",
    "join_club",
    "move_game",
    "recompute",
    "record_deal",
    "reset_invite",
    "season_day_problem",
    "seat_figures",
    "set_season_rules",
    "set_stake",
    "share_game",
    "start_game",
    "start_season",
    "stop_sharing",
    "stored_facts",
    "undo_last_deal",
]
