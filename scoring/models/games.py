"""Games: their seats, their deals and each seat's score in a deal."""

from __future__ import annotations

import uuid
from functools import cached_property
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from rules.deal_checks import MOST_POINTS, TWOS_IN_THE_DECK
from rules.ruleset import DEFAULT_RULES, RuleSet, parse_rules

if TYPE_CHECKING:
    pass

from rules.deal_checks import and_list
from scoring.models.clubs import SEATS, Club, Player, Season, validate_rules_name

# The most cards any house rule leaves in one hand: two players dealt 13 each who draw on a
# pass, one of whom ends holding the whole stock (52 less the other's 13). A rule set's own
# bound (`RuleSet.hand_size`) is checked by the rules engine when a deal is scored.
MOST_CARDS_IN_HAND = 39


class Game(models.Model):
    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", _("In progress")
        FINISHED = "finished", _("Finished")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="games")
    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="games")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    # Derived from the deals by scoring.services.recompute; never set anywhere else. `winner`
    # is the one player who won; a win shared (`win_shared`: the table stopped with the lowest
    # total shared) has none, and each seat that won says so (`Seat.won`).
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.IN_PROGRESS)
    winner = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="games_won"
    )
    win_shared = models.BooleanField(default=False)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Goes up by one with every change the game's board shows
    # (scoring.services.versions.game_changed), so a phone following the game asks "anything
    # new since version 7?" with one lookup.
    version = models.PositiveIntegerField(default=0)
    # This game's own, in this database: cached fragments are kept under it and the version, so
    # a database restored or made anew, whose ids start again, never shows another game's.
    key = models.UUIDField(default=uuid.uuid4, editable=False)
    # The read-only live view's link (/live/<token>/), or null while the game isn't shared.
    # Sharing again makes a new token, so a link that was stopped never works again.
    share_token = models.CharField(max_length=64, unique=True, null=True, blank=True)
    share_digest = models.CharField(  # noqa: DJ001 (null while not shared, like the token)
        max_length=64, unique=True, null=True, editable=False
    )
    # The one-time token of the "New game" form that started it: a resend of that form (a double
    # tap, a retry after a lost answer) finds this game instead of starting another.
    start_token = models.UUIDField(unique=True, null=True, blank=True, editable=False)
    # The rules the game started with, copied from its season and never changed: a game is
    # scored by the rules it was played under, whatever the season's later become.
    rules = models.CharField(
        max_length=200, default=DEFAULT_RULES.name, editable=False, validators=[validate_rules_name]
    )
    stake = models.DecimalField(max_digits=9, decimal_places=3, null=True, blank=True)
    # The table stopped after the last deal: an open-ended match ends when the scorekeeper says
    # so ("End match"), and a game stopped with the lowest total shared (ended so, or a score
    # sheet that stops there) is a win shared rather than one that plays on. Undoing the last
    # deal, or recording another, clears it; a correction keeps it.
    ended = models.BooleanField(default=False)
    # When the game's time runs out: a club night starts its games with its round's end, and
    # ordinary games have none (null). Once it has passed, the next deal recorded is the last.
    closes_at = models.DateTimeField(null=True, blank=True)
    # The number of the deal the game ends on, the lowest total winning and a tie sharing the
    # win whatever its finish rule (`rules.penalties.replay`'s `last_deal`): the first deal
    # recorded at or after `closes_at`, set by that deal's recording; or an imported game's
    # last deal, when the owner chose to end the file's games as they stand. Undoing it clears
    # it (with a clock the time is still up, so the next deal recorded is the last again;
    # without, the game plays on by its rules); a correction keeps it.
    last_deal = models.PositiveIntegerField(null=True, blank=True)
    # Each player enters their own seat's facts on their own phone (`services.send_own_facts`):
    # the deal records itself once the table's are in. The whole-table form works as ever.
    own_counts = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(stake__isnull=True) | Q(stake__gte=0), name="game_stake_not_negative"
            ),
            # A finished game has an end time and one winner or a win shared (never both); a
            # game in progress has none of them.
            models.CheckConstraint(
                condition=(
                    Q(status="finished", finished_at__isnull=False)
                    & (
                        Q(winner__isnull=False, win_shared=False)
                        | Q(winner__isnull=True, win_shared=True)
                    )
                )
                | Q(
                    status="in_progress",
                    winner__isnull=True,
                    win_shared=False,
                    finished_at__isnull=True,
                ),
                name="game_status_matches_winner",
            ),
            # Deals count from 1.
            models.CheckConstraint(
                condition=Q(last_deal__isnull=True) | Q(last_deal__gte=1),
                name="game_last_deal_counts_from_one",
            ),
        ]

    def __str__(self) -> str:
        return f"Game {self.pk} ({self.club})"

    @cached_property
    def ruleset(self) -> RuleSet:
        """The rules this game is scored by: the ones it started with."""
        return parse_rules(self.rules)

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    @property
    def winners_named(self) -> str:
        """ "Ann", or "Ann and Ben" sharing the win: the players whose seats won, clockwise
        (from `seats`, which a list of games prefetches); empty while the game goes on."""
        names = [seat.player.name for seat in self.seats.all() if seat.won]
        return and_list(names) if names else ""


class Seat(models.Model):
    """A player's place at one game's table, clockwise from 0; `total` is derived."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()
    # Derived from the deals by scoring.services.recompute, so that standings over a thousand
    # games add up a few thousand seats instead of a hundred thousand deal scores.
    total = models.IntegerField(default=0)
    deals_played = models.PositiveIntegerField(default=0)
    deals_won = models.PositiveIntegerField(default=0)
    # The game is over and this seat won it: alone (the game's `winner`) or sharing the win.
    won = models.BooleanField(default=False)
    # Deals ended holding a full hand; null when the game's rules don't ask for cards left
    # (finishing order, points by hand), so the standings show a dash rather than a 0.
    thirteens = models.PositiveIntegerField(default=0, null=True, blank=True)

    class Meta:
        ordering = ["game_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_unique_position"),
            models.UniqueConstraint(fields=["game", "player"], name="seat_unique_player"),
            models.CheckConstraint(
                condition=Q(position__gte=0, position__lt=SEATS), name="seat_position_0_to_3"
            ),
            models.CheckConstraint(condition=Q(total__gte=0), name="seat_total_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.player} (seat {self.position + 1})"


class Deal(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveIntegerField()
    # The one-time token of the form that recorded it: a resend of the same form (double tap,
    # network retry) finds this deal instead of recording another.
    token = models.UUIDField(unique=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)
    # The twos rule: the winner's last play was nothing but twos (asked only under that rule).
    out_on_twos = models.BooleanField(default=False)
    # Pusoy Dos scoring: the twos in the winner's last play, 0 to 4 (null under other scoring).
    last_play_twos = models.PositiveSmallIntegerField(null=True, blank=True)
    # The dragon: the seat (its position, from 0) dealt one card of every rank, who won at once.
    dragon_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # Paying for the table: the seat (its position) who took every loser's penalty.
    payer_seat = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["game_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="deal_unique_number_in_game"),
            models.CheckConstraint(condition=Q(number__gte=1), name="deal_number_from_1"),
            models.CheckConstraint(
                condition=Q(last_play_twos__isnull=True) | Q(last_play_twos__lte=TWOS_IN_THE_DECK),
                name="deal_last_play_twos_0_to_4",
            ),
            models.CheckConstraint(
                condition=Q(dragon_seat__isnull=True) | Q(dragon_seat__lt=SEATS),
                name="deal_dragon_seat_at_the_table",
            ),
            models.CheckConstraint(
                condition=Q(payer_seat__isnull=True) | Q(payer_seat__lt=SEATS),
                name="deal_payer_seat_at_the_table",
            ),
            # A dragon wins before a card is played: nobody went out on twos or paid for the
            # table, and there was no last play.
            models.CheckConstraint(
                condition=Q(dragon_seat__isnull=True)
                | Q(out_on_twos=False, last_play_twos__isnull=True, payer_seat__isnull=True),
                name="deal_dragon_takes_nothing_else",
            ),
        ]

    def __str__(self) -> str:
        return f"Deal {self.number} of game {self.game_id}"


class DealScore(models.Model):
    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="scores")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="scores")
    # Null where the rules don't ask (finishing order, points by hand); 13 each after a dragon.
    cards_left = models.PositiveSmallIntegerField(null=True, blank=True)
    # As the rules engine scored it (`rules.deal_score.score_deal`).
    penalty = models.PositiveSmallIntegerField()
    # The stronger twos rule: twos left in this hand, each doubling its penalty.
    twos_held = models.PositiveSmallIntegerField(default=0)
    # Finishing order: 1 for the first out, up to the number of players.
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    # Points by hand: the points as typed, 0 for the winner.
    points = models.PositiveSmallIntegerField(null=True, blank=True)
    # Who entered this seat's figure: its own player, sending it from their phone (own counts),
    # or whoever recorded the deal on the whole-table form. Null for deals from before.
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["deal_id", "seat_id"]
        constraints = [
            models.UniqueConstraint(fields=["deal", "seat"], name="dealscore_unique_seat"),
            # Two players who draw on a pass can hold 39; the rules of the game check the exact
            # limit of each rule set.
            models.CheckConstraint(
                condition=Q(cards_left__isnull=True)
                | Q(cards_left__gte=0, cards_left__lte=MOST_CARDS_IN_HAND),
                name="dealscore_cards_left_0_to_39",
            ),
            models.CheckConstraint(
                condition=Q(twos_held__lte=TWOS_IN_THE_DECK)
                & (Q(twos_held__lte=F("cards_left")) | Q(cards_left__isnull=True, twos_held=0)),
                name="dealscore_twos_held_0_to_4_and_in_hand",
            ),
            models.CheckConstraint(
                condition=Q(place__isnull=True) | Q(place__gte=1, place__lte=SEATS),
                name="dealscore_place_1_to_4",
            ),
            # Two seats of a deal can't share a place (nulls never clash).
            models.UniqueConstraint(fields=["deal", "place"], name="dealscore_unique_place"),
            models.CheckConstraint(
                condition=Q(points__isnull=True) | Q(points__lte=MOST_POINTS),
                name="dealscore_points_0_to_999",
            ),
            models.CheckConstraint(
                condition=Q(penalty__gte=0), name="dealscore_penalty_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.deal}: seat {self.seat_id} had {self.cards_left}"
