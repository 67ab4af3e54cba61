"""Every write of the score-keeping app, one named function per action.

Each runs in one transaction and refuses with `ScoringError` (its message is meant for the
person at the table). Views call these and nothing else that writes, as
`services.record_deal(...)`: the functions live in a module per domain and are all named here.

- `errors`: `ScoringError` and its kinds.
- `permissions`: what only a club's owner may do (`NotAllowed` otherwise), and `is_owner`.
- `clubs`: a new club, joining it, its invite link.
- `seasons`: a new season, a season's rules.
- `games`: starting a game, playing again with the same table, its stake, its season, its live
  view link, ending it, deleting it.
- `deals`: recording, undoing and correcting deals.
- `totals`: `recompute` (what the deals add up to) and the steps the writes share.
"""

from scoring.services.clubs import create_club, join_club, reset_invite
from scoring.services.deals import edit_deal, record_deal, undo_last_deal
from scoring.services.errors import (
    DealAlreadyRecorded,
    DealRecordedDifferently,
    DealWasUndone,
    InvalidDeal,
    NotAllowed,
    ScoringError,
    SeatsDiffer,
)
from scoring.services.games import (
    clean_player_name,
    delete_game,
    end_match,
    move_game,
    play_again,
    set_stake,
    share_game,
    start_game,
    stop_sharing,
)
from scoring.services.seasons import season_day_problem, set_season_rules, start_season
from scoring.services.totals import SEAT_FIGURES, deal_sheet, recompute, seat_figures

__all__ = [
    "SEAT_FIGURES",
    "DealAlreadyRecorded",
    "DealRecordedDifferently",
    "DealWasUndone",
    "InvalidDeal",
    "NotAllowed",
    "ScoringError",
    "SeatsDiffer",
    "clean_player_name",
    "create_club",
    "deal_sheet",
    "delete_game",
    "edit_deal",
    "end_match",
    "join_club",
    "move_game",
    "play_again",
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
    "undo_last_deal",
]
