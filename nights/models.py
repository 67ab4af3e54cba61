"""A club night: who is here, its rounds, the seats drawn for each and the games they started."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from scoring.models import SEATS, Club, Game, Player, Season

# Bounds a night is held to, on the form and in the database.
MOST_ROUNDS = 12
MOST_ROUND_MINUTES = 240
# A draw's work grows with the players; a room holds fewer than this.
MOST_PLAYERS = 80


class Night(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="nights")
    # The club's current season when the night was drawn: its games go there.
    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="nights")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    # The one-time token of the form that drew it: a resend of that form (a double tap, a
    # retry after a lost answer) finds this night instead of drawing another.
    token = models.UUIDField(unique=True)
    # The draw's seed, shown on the page: the same players, rounds and seed give the same seats.
    seed = models.PositiveIntegerField()
    rounds = models.PositiveSmallIntegerField()
    round_minutes = models.PositiveSmallIntegerField(null=True, blank=True)
    # How many sit at a table: the season's players when the night was drawn.
    table_size = models.PositiveSmallIntegerField()
    # The night's games are played with each player entering their own cards (`Game.own_counts`).
    own_counts = models.BooleanField(default=False)
    # Goes up with every change the night's own rows make (a redraw, a round started), so the
    # TV's board asks "anything new?" with one query (with its games' versions).
    version = models.PositiveIntegerField(default=0)
    # The TV board's link (/tv/<token>/), null while not shown; as a game's live view link.
    tv_token = models.CharField(max_length=64, unique=True, null=True, blank=True)
    tv_digest = models.CharField(  # noqa: DJ001 (null while not shown, like the token)
        max_length=64, unique=True, null=True, editable=False
    )

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(rounds__gte=1, rounds__lte=MOST_ROUNDS), name="night_rounds_1_to_12"
            ),
            models.CheckConstraint(
                condition=Q(round_minutes__isnull=True)
                | Q(round_minutes__gte=1, round_minutes__lte=MOST_ROUND_MINUTES),
                name="night_round_minutes_1_to_240",
            ),
            models.CheckConstraint(
                condition=Q(table_size__gte=2, table_size__lte=SEATS),
                name="night_table_size_2_to_4",
            ),
        ]

    def __str__(self) -> str:
        return f"Night {self.pk} ({self.club})"


class Attendee(models.Model):
    """A player on the night's list: here now, or gone (ticked off) after playing."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="attendees")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    here = models.BooleanField(default=True)

    class Meta:
        ordering = ["night_id", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["night", "player"], name="attendee_unique_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at night {self.night_id}"


class Round(models.Model):
    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    # Null while planned; a started round's seats never change again.
    started_at = models.DateTimeField(null=True, blank=True)
    # When its clock runs out (a night with a round time), copied to each of its games.
    closes_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["night_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["night", "number"], name="round_unique_number"),
            models.CheckConstraint(
                condition=Q(number__gte=1, number__lte=MOST_ROUNDS), name="round_number_1_to_12"
            ),
            models.CheckConstraint(
                condition=Q(closes_at__isnull=True) | Q(started_at__isnull=False),
                name="round_clock_only_once_started",
            ),
        ]

    def __str__(self) -> str:
        return f"Round {self.number} of night {self.night_id}"


class RoundSeat(models.Model):
    """A player's place in a round: a table (from 1) and a seat clockwise (from 0), or both null
    for sitting the round out."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    table = models.PositiveSmallIntegerField(null=True, blank=True)
    position = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["round_id", "table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="roundseat_unique_player"),
            models.UniqueConstraint(
                fields=["round", "table", "position"], name="roundseat_unique_place"
            ),
            models.CheckConstraint(
                condition=Q(table__isnull=True, position__isnull=True)
                | Q(table__gte=1, position__gte=0, position__lt=SEATS),
                name="roundseat_table_and_seat_or_out",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in round {self.round_id}"


class Table(models.Model):
    """A table of a started round and the game it plays (null once that game is deleted)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    game = models.OneToOneField(
        Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="night_table"
    )

    class Meta:
        ordering = ["round_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_from_1"),
        ]

    def __str__(self) -> str:
        return f"Table {self.number} of round {self.round_id}"
