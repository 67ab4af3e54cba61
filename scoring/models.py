"""Clubs, their players and games, and every deal of every game.

What a game *is* lives in its deals: seat totals, status and winner are stored for quick reading
but only ever written by `scoring.services.recompute`, from the deals, in the same transaction
as the change that made them stale. The invariants a bug must never break are database
constraints, so they hold whatever code writes the rows.
"""

from __future__ import annotations

import datetime
import hashlib
import secrets
from decimal import Decimal
from functools import cached_property
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from rules.ruleset import DEFAULT_RULES, RuleSet, parse_rules

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser

PLAYER_NAME_MAX_LENGTH = 40
SEASON_NAME_MAX_LENGTH = 60
SEATS = 4
# The dates a season may start or end on: wide enough for any club, narrow enough that date
# arithmetic (the day before a season starts, a year's standings) never leaves the calendar.
FIRST_SEASON_DAY = datetime.date(2000, 1, 1)
LAST_SEASON_DAY = datetime.date(2100, 12, 31)


def new_invite_token() -> str:
    """An unguessable token for a club's invite link (256 bits)."""
    return secrets.token_urlsafe(32)


def new_share_token() -> str:
    """An unguessable token for a game's live view link (256 bits)."""
    return secrets.token_urlsafe(32)


def token_digest(token: str) -> str:
    """What a link's token is looked up by.

    The database compares the SHA-256 of what was sent, never the secret itself, so the time
    a lookup takes says nothing about how much of a guess was right.
    """
    return hashlib.sha256(token.encode()).hexdigest()


class Club(models.Model):
    name = models.CharField(max_length=80)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="owned_clubs"
    )
    # Kept to show the owner the link again; looked up only by its digest (token_digest).
    invite_token = models.CharField(max_length=64, unique=True, default=new_invite_token)
    # Null only until the first invite is made (clubs from before digests were stored get
    # theirs in migration 0005); "" would collide under the unique constraint.
    invite_digest = models.CharField(  # noqa: DJ001
        max_length=64, unique=True, null=True, editable=False
    )
    created_at = models.DateTimeField(default=timezone.now)
    # What stakes are settled in: a symbol (£, HK$) or a three-letter code (HKD); may be blank.
    currency = models.CharField(max_length=8, blank=True, default="")

    class Meta:
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name

    def new_invite(self) -> None:
        """A fresh invite link (not saved): the old one stops working once this is."""
        self.invite_token = new_invite_token()
        self.invite_digest = token_digest(self.invite_token)


class Membership(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_unique_club_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.club}"


class Player(models.Model):
    """Someone on a club's roster. Players need no account; names are unique ignoring case."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=PLAYER_NAME_MAX_LENGTH)

    class Meta:
        ordering = [Lower("name"), "pk"]
        constraints = [
            models.UniqueConstraint(Lower("name"), "club", name="player_unique_name_in_club"),
            models.CheckConstraint(condition=~Q(name=""), name="player_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name


class Season(models.Model):
    """A stretch of a club's games with its own league table; exactly one is current."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=SEASON_NAME_MAX_LENGTH)
    starts_on = models.DateField()
    ends_on = models.DateField(null=True, blank=True)
    is_current = models.BooleanField(default=False)
    # Counted up by scoring.services whenever one of its games is added, removed, moved or
    # rescored: the season's pages are cached under it.
    version = models.PositiveIntegerField(default=0)
    # The house rules new games of the season are played by (rules.ruleset.parse_rules names),
    # and the money a point is worth at tables that play for it.
    rules = models.CharField(max_length=200, default=DEFAULT_RULES.name)
    stake = models.DecimalField(max_digits=9, decimal_places=3, null=True, blank=True)

    class Meta:
        ordering = ["-starts_on", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(stake__isnull=True) | Q(stake__gte=0), name="season_stake_not_negative"
            ),
            models.UniqueConstraint(
                fields=["club"], condition=Q(is_current=True), name="season_one_current_per_club"
            ),
            models.CheckConstraint(
                condition=Q(ends_on__isnull=True) | Q(ends_on__gte=F("starts_on")),
                name="season_ends_after_it_starts",
            ),
            models.CheckConstraint(condition=~Q(name=""), name="season_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name

    @cached_property
    def ruleset(self) -> RuleSet:
        """The rules the season's new games start with."""
        return parse_rules(self.rules)


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
    # Derived from the deals by scoring.services.recompute; never set anywhere else.
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.IN_PROGRESS)
    winner = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="games_won"
    )
    finished_at = models.DateTimeField(null=True, blank=True)
    # Goes up by one with every change to the deals (scoring.services.recompute), so a phone
    # following the game asks "anything new since version 7?" with one indexed lookup.
    version = models.PositiveIntegerField(default=0)
    # The read-only live view's link (/live/<token>/), or null while the game isn't shared.
    # Sharing again makes a new token, so a link that was stopped never works again.
    share_token = models.CharField(max_length=64, unique=True, null=True, blank=True)
    share_digest = models.CharField(  # noqa: DJ001 (null while not shared, like the token)
        max_length=64, unique=True, null=True, editable=False
    )
    # The rules the game started with, copied from its season and never changed: a game is
    # scored by the rules it was played under, whatever the season's later become.
    rules = models.CharField(max_length=200, default=DEFAULT_RULES.name, editable=False)
    stake = models.DecimalField(max_digits=9, decimal_places=3, null=True, blank=True)
    # Open-ended matches end when the scorekeeper says so ("End match"); a deal undone or
    # corrected after that reopens nothing by itself.
    ended = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(stake__isnull=True) | Q(stake__gte=0), name="game_stake_not_negative"
            ),
            # A finished game has a winner and an end time; a game in progress has neither.
            models.CheckConstraint(
                condition=(
                    Q(status="finished", winner__isnull=False, finished_at__isnull=False)
                    | Q(status="in_progress", winner__isnull=True, finished_at__isnull=True)
                ),
                name="game_status_matches_winner",
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
    thirteens = models.PositiveIntegerField(default=0)

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

    class Meta:
        ordering = ["game_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="deal_unique_number_in_game"),
            models.CheckConstraint(condition=Q(number__gte=1), name="deal_number_from_1"),
        ]

    def __str__(self) -> str:
        return f"Deal {self.number} of game {self.game_id}"


class DealScore(models.Model):
    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="scores")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="scores")
    cards_left = models.PositiveSmallIntegerField()
    penalty = models.PositiveSmallIntegerField()
    # The stronger twos rule: twos left in this hand, each doubling its penalty.
    twos_held = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["deal_id", "seat_id"]
        constraints = [
            models.UniqueConstraint(fields=["deal", "seat"], name="dealscore_unique_seat"),
            # Three players hold 17 or 18 cards; the rules of the game check the exact limit.
            models.CheckConstraint(
                condition=Q(cards_left__gte=0, cards_left__lte=18),
                name="dealscore_cards_left_0_to_18",
            ),
            models.CheckConstraint(
                condition=Q(twos_held__lte=4) & Q(twos_held__lte=F("cards_left")),
                name="dealscore_twos_held_0_to_4_and_in_hand",
            ),
            models.CheckConstraint(
                condition=Q(penalty__gte=0), name="dealscore_penalty_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.deal}: seat {self.seat_id} had {self.cards_left}"


class GameChange(models.Model):
    """One line of a game's history: who recorded, undid or edited which deal, ended the
    match, changed the stake or moved the game to another season, and how."""

    class Action(models.TextChoices):
        RECORD = "record", _("Recorded")
        UNDO = "undo", _("Undid")
        EDIT = "edit", _("Changed")
        END = "end", _("Ended the match")
        STAKE = "stake", _("Changed the stake")
        MOVE = "move", _("Moved the game")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="changes")
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)
    action = models.CharField(max_length=10, choices=Action.choices)
    # The deal a deal's change is about; for a change to the whole game (ending it, its stake,
    # its season) the number of deals played when it was made (0 before the first).
    deal_number = models.PositiveIntegerField()
    # Cards left per seat before and after the change; null where there was (or is) no deal.
    # Ending a match keeps the totals it banked in `after`. A stake change keeps the stakes
    # as shown ("0.10"; null for none); a move keeps the seasons' names.
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    # An undo keeps the one-time token of the deal form that recorded the deal, so that form
    # sent again (a retry after a lost answer) is refused instead of recording the deal anew.
    # Unique: a token is spent once, whichever game it was for.
    token = models.UUIDField(null=True, blank=True, unique=True, editable=False)

    class Meta:
        ordering = ["-at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(action__in=["record", "undo", "edit", "end", "stake", "move"]),
                name="gamechange_action_known",
            ),
            models.CheckConstraint(
                condition=Q(token__isnull=True) | Q(action="undo"),
                name="gamechange_token_only_on_undo",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_action_display()} (deal {self.deal_number}) of game {self.game_id}"

    def summary(self) -> str:
        """ "ann changed deal 3 from 0 5 9 13 to 0 5 8 13", for the game's history."""
        values = {
            "who": who(self.by),
            "number": self.deal_number,
            "before": spaced(self.before),
            "after": spaced(self.after),
        }
        if self.action == self.Action.RECORD:
            return _("%(who)s recorded deal %(number)s: %(after)s") % values
        if self.action == self.Action.UNDO:
            return _("%(who)s undid deal %(number)s (it was %(before)s)") % values
        if self.action == self.Action.END:
            return _("%(who)s ended the match after deal %(number)s: %(after)s") % values
        if self.action == self.Action.STAKE:
            return stake_change(self.by, self.before, self.after)
        if self.action == self.Action.MOVE:
            return _("%(who)s moved the game from %(before)s to %(after)s") % (
                values | {"before": self.before, "after": self.after}
            )
        return _("%(who)s changed deal %(number)s from %(before)s to %(after)s") % values


class SeasonChange(models.Model):
    """One line of a season's history: who changed its rules or its stake, from what to what.

    New games copy both from their season, so these say what the season's games are played
    by and for (the games' own changes are in GameChange)."""

    class Subject(models.TextChoices):
        RULES = "rules", _("Rules")
        STAKE = "stake", _("Stake")

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="changes")
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)
    what = models.CharField(max_length=10, choices=Subject.choices)
    # Rules by their name (rules.ruleset.parse_rules reads it); stakes as shown ("0.10"),
    # null for none.
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(what__in=["rules", "stake"]), name="seasonchange_what_known"
            ),
            models.CheckConstraint(
                condition=Q(what="stake") | Q(before__isnull=False, after__isnull=False),
                name="seasonchange_rules_both_named",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_what_display()} of season {self.season_id}"

    def summary(self) -> str:
        """ "ann changed the rules from Standard rules to Pusoy Dos suits (♣ < ♠ < ♥ < ♦)"."""
        if self.what == self.Subject.STAKE:
            return stake_change(self.by, self.before, self.after)
        return _("%(who)s changed the rules from %(before)s to %(after)s") % {
            "who": who(self.by),
            "before": parse_rules(self.before).label,
            "after": parse_rules(self.after).label,
        }


def who(user: AbstractBaseUser | None) -> str:
    return user.get_username() if user else _("Someone")


def shown_stake(stake: Decimal | None) -> Decimal | None:
    """0.10 as 0.10 (not the stored 0.100), an eighth of a cent as 0.125."""
    if stake is None:
        return None
    cents = stake.quantize(Decimal("0.01"))
    return cents if cents == stake else stake


def stake_text(stake: Decimal | None) -> str | None:
    """A stake as a history line keeps it: "0.10", or None for no stake."""
    return None if stake is None else str(shown_stake(stake))


def stake_change(by: AbstractBaseUser | None, before: str | None, after: str | None) -> str:
    """ "ann changed the stake from 0.10 to 0.20" (or "from none to 0.10")."""
    nothing = pgettext("no stake", "none")
    return _("%(who)s changed the stake from %(before)s to %(after)s") % {
        "who": who(by),
        "before": before if before is not None else nothing,
        "after": after if after is not None else nothing,
    }


def spaced(cards: list[int] | None) -> str:
    return " ".join(str(count) for count in cards or [])
