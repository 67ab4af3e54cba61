"""Clubs, their players and games, and every deal of every game.

What a game *is* lives in its deals: seat totals, status and winner are stored for quick reading
but only ever written by `scoring.services.recompute`, from the deals, in the same transaction
as the change that made them stale. The invariants a bug must never break are database
constraints, so they hold whatever code writes the rows.

Every model and helper is named here; they live in `clubs` (clubs, members, players, seasons,
link tokens), `games` (games, seats, deals, scores), `history` (the lines of a game's, a
season's and a club's history, and how a stake is shown), `imports` (score files imported) and
`ratings` (each player's rating after each game). `facts`, pure Python, says what a deal's rows
mean to the rules engine, both ways.
"""

from scoring.models.clubs import (
    FIRST_SEASON_DAY,
    LAST_SEASON_DAY,
    MOST_GAMES_TO_RANK,
    PLAYER_NAME_MAX_LENGTH,
    SEASON_NAME_MAX_LENGTH,
    SEATS,
    Club,
    Membership,
    Player,
    Season,
    new_invite_token,
    new_share_token,
    season_day_problem,
    token_digest,
)
from scoring.models.filling import DealFilling, SentFacts
from scoring.models.games import MOST_CARDS_IN_HAND, Deal, DealScore, Game, Seat
from scoring.models.history import (
    ClubChange,
    GameChange,
    SeasonChange,
    shown_stake,
    spaced,
    stake_change,
    stake_text,
    who,
)
from scoring.models.imports import ImportedFile
from scoring.models.ratings import RatingsMark, RatingSnapshot

__all__ = [
    "FIRST_SEASON_DAY",
    "LAST_SEASON_DAY",
    "MOST_GAMES_TO_RANK",
    "MOST_CARDS_IN_HAND",
    "PLAYER_NAME_MAX_LENGTH",
    "SEASON_NAME_MAX_LENGTH",
    "SEATS",
    "Club",
    "ClubChange",
    "Deal",
    "DealFilling",
    "DealScore",
    "Game",
    "GameChange",
    "ImportedFile",
    "Membership",
    "Player",
    "RatingSnapshot",
    "RatingsMark",
    "Season",
    "SeasonChange",
    "Seat",
    "SentFacts",
    "new_invite_token",
    "new_share_token",
    "season_day_problem",
    "shown_stake",
    "spaced",
    "stake_change",
    "stake_text",
    "token_digest",
    "who",
]
