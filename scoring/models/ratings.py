"""Each player's skill rating after each finished game of their club (see docs/ratings.md).

The rating is derived from the games, like a seat's total: `scoring.services.ratings` writes
these rows, from the first game a change touched on, and nothing else does.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from scoring.models.clubs import Club, Player
from scoring.models.games import Game


class RatingsMark(models.Model):
    """Whether a club's ratings cover all its finished games.

    A row of its own rather than a field of the club: a write that changes a game marks the
    ratings stale while it holds the game's lock, and the club's row is locked before a game's
    (scoring.services.games.play_again), so taking the club's row after would risk a deadlock.
    The ratings are brought up to date under this row's lock, which the writes take first.
    """

    club = models.OneToOneField(
        Club, on_delete=models.CASCADE, primary_key=True, related_name="ratings_mark"
    )
    stale = models.BooleanField(default=True)
    # Counted up with every change to the ratings: pages that show them are cached under it.
    version = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"Ratings of {self.club_id} ({'stale' if self.stale else 'fresh'})"


class RatingSnapshot(models.Model):
    """A player's rating (μ, σ) right after one finished game of their club."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_snapshots")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_snapshots")
    # The game's place among the club's finished games (by end time, then id), from 1.
    sequence = models.PositiveIntegerField()
    mu = models.FloatField()
    sigma = models.FloatField()
    # The player's finished games up to and including this one.
    games = models.PositiveIntegerField()

    class Meta:
        ordering = ["club_id", "sequence", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="ratingsnapshot_unique_player"),
            models.CheckConstraint(condition=Q(sigma__gt=0), name="ratingsnapshot_sigma_positive"),
            models.CheckConstraint(condition=Q(games__gte=1), name="ratingsnapshot_games_from_1"),
        ]
        indexes = [
            models.Index(fields=["club", "sequence"], name="ratingsnapshot_club_seq"),
            models.Index(fields=["player", "sequence"], name="ratingsnapshot_player_seq"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} after game {self.game_id}: {self.mu:.2f} ± {self.sigma:.2f}"
