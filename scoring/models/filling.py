"""A deal filling in: each player's own seat's facts, sent from their own phone in a game played
with own counts (`Game.own_counts`), until the table's are in and the deal records itself
(`scoring.services.filling.send_own_facts`).

At most one a game (the game is its key), its rows in the database, not a cache: a number sent
is never silently dropped, and the rows go with the deal's recording or with the game.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone

from rules.deal_checks import MOST_POINTS, TWOS_IN_THE_DECK
from scoring.models.clubs import SEATS
from scoring.models.games import MOST_CARDS_IN_HAND, Game, Seat


class DealFilling(models.Model):
    """The deal `number` of `game` as its players have sent it so far."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="filling")
    number = models.PositiveIntegerField()
    started_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(number__gte=1), name="dealfilling_number_from_1"),
        ]

    def __str__(self) -> str:
        return f"Deal {self.number} of game {self.game_id}, filling in"


class SentFacts(models.Model):
    """One seat's own facts of a deal filling in, as its player last sent them: its cards
    left (0: "I went out"), twos held, place or points, as the game's rules ask; the winner's
    twos in their last play under Pusoy Dos scoring. `token` is the send's: the same send again
    (a double tap, a resend after a lost answer) finds this row and changes nothing."""

    filling = models.ForeignKey(DealFilling, on_delete=models.CASCADE, related_name="sent")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    token = models.UUIDField(unique=True)
    sent_at = models.DateTimeField(default=timezone.now)
    cards_left = models.PositiveSmallIntegerField(null=True, blank=True)
    twos_held = models.PositiveSmallIntegerField(null=True, blank=True)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    points = models.PositiveSmallIntegerField(null=True, blank=True)
    last_play_twos = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["filling_id", "seat__position"]
        constraints = [
            models.UniqueConstraint(fields=["filling", "seat"], name="sentfacts_one_a_seat"),
            models.CheckConstraint(
                condition=Q(cards_left__isnull=True) | Q(cards_left__lte=MOST_CARDS_IN_HAND),
                name="sentfacts_cards_left_0_to_39",
            ),
            models.CheckConstraint(
                condition=Q(twos_held__isnull=True)
                | (Q(twos_held__lte=TWOS_IN_THE_DECK) & Q(twos_held__lte=F("cards_left"))),
                name="sentfacts_twos_held_0_to_4_and_in_hand",
            ),
            models.CheckConstraint(
                condition=Q(place__isnull=True) | Q(place__gte=1, place__lte=SEATS),
                name="sentfacts_place_1_to_4",
            ),
            models.CheckConstraint(
                condition=Q(points__isnull=True) | Q(points__lte=MOST_POINTS),
                name="sentfacts_points_0_to_999",
            ),
            models.CheckConstraint(
                condition=Q(last_play_twos__isnull=True)
                | Q(last_play_twos__lte=TWOS_IN_THE_DECK, cards_left=0),
                name="sentfacts_last_play_twos_only_out",
            ),
            # Something was sent: a figure the rules ask for.
            models.CheckConstraint(
                condition=Q(cards_left__isnull=False)
                | Q(place__isnull=False)
                | Q(points__isnull=False),
                name="sentfacts_says_something",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.filling}: seat {self.seat_id}"
