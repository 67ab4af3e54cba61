"""Every read of the score-keeping app: what pages, exports and writes read, and nothing that
writes. Each read is a function of a module per topic; the club and game reads are named here,
as `selectors.member_game(...)`.

- `clubs`: a club, season or player found through the user's memberships (anyone else gets a
  404), by an invite's or a password link's token; members, the roster, the new game's seats.
- `games`: a member's games and the shared ones, their seats, deals (`stored_deals`: as the
  rules read them) and history, a season's rows for its exports.
- `filling`: a deal its players are sending seat by seat (`deal_filling`): who sent, who is
  waited for, what is wrong.
- `standings`: the league table, aggregated by the database in one query.
- `head_to_head`, `player_figures`: a player against each opponent, and their own figures.
- `ratings`: the stored ratings (never worked out by a read); `rating_model`, the rating maths
  (openskill's model over the games), pure Python.
- `snapshot`: `read_snapshot()`, a read of several queries on one snapshot of the database.
"""

from scoring.selectors.clubs import (
    MEMBER_ACTIONS,
    club_by_invite,
    club_left_by,
    club_of_reset_link,
    clubs_of,
    clubs_run_by,
    clubs_with_games_in_progress,
    current_season,
    is_member,
    member_club,
    member_id,
    member_player,
    member_season,
    member_season_and_menu,
    membership_in,
    player_of,
    roster_by_name,
    roster_key,
    roster_player,
    seat_names,
)
from scoring.selectors.filling import Filling, deal_filling, entered_by, member_seat
from scoring.selectors.games import (
    HISTORY_SHOWN,
    board_seats,
    deal_numbered,
    deal_penalties,
    deal_recorded_with,
    games_in_progress_of,
    games_of_player,
    games_with_seats,
    last_game_players,
    member_game,
    member_game_version,
    member_games,
    recent_changes,
    recent_club_changes,
    recent_season_changes,
    season_deal_rows,
    seats_in_order,
    seats_of,
    shared_games,
    staked_seats,
    stored_deals,
)

__all__ = [
    "Filling",
    "deal_filling",
    "entered_by",
    "member_seat",
    "HISTORY_SHOWN",
    "MEMBER_ACTIONS",
    "board_seats",
    "club_by_invite",
    "club_left_by",
    "club_of_reset_link",
    "clubs_of",
    "clubs_run_by",
    "clubs_with_games_in_progress",
    "current_season",
    "deal_numbered",
    "deal_penalties",
    "deal_recorded_with",
    "games_in_progress_of",
    "games_of_player",
    "games_with_seats",
    "is_member",
    "last_game_players",
    "member_club",
    "member_game",
    "member_game_version",
    "member_games",
    "member_id",
    "member_player",
    "member_season",
    "member_season_and_menu",
    "membership_in",
    "player_of",
    "recent_changes",
    "recent_club_changes",
    "recent_season_changes",
    "roster_by_name",
    "roster_key",
    "roster_player",
    "season_deal_rows",
    "seat_names",
    "seats_in_order",
    "seats_of",
    "shared_games",
    "staked_seats",
    "stored_deals",
]
