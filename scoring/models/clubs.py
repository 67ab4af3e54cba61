"""Clubs, their members and players, and their seasons; the tokens of the links into them."""

from __future__ import annotations

import datetime
import hashlib
import secrets
import uuid
from functools import cached_property
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from rules.ruleset import DEFAULT_RULES, RuleSet, parse_rules
from scoring.names import name_key, name_problem, tidy_name

if TYPE_CHECKING:
    pass

PLAYER_NAME_MAX_LENGTH = 40


SEASON_NAME_MAX_LENGTH = 60


SEATS = 4


# The dates a season may start or end on: wide enough for any club, narrow enough that date
# arithmetic (the day before a season starts, a year's standings) never leaves the calendar.
FIRST_SEASON_DAY = datetime.date(2000, 1, 1)


LAST_SEASON_DAY = datetime.date(2100, 12, 31)

# The most games a season may ask of a player before ranking them.
MOST_GAMES_TO_RANK = 1000


def season_day_problem(day: datetime.date | None) -> str | None:
    """Why `day` can't start or end a season (it is outside 2000–2100), or None if it can."""
    if day is None or FIRST_SEASON_DAY <= day <= LAST_SEASON_DAY:
        return None
    return _("Enter a date from %(first)s to %(last)s") % {
        "first": date_format(FIRST_SEASON_DAY),
        "last": date_format(LAST_SEASON_DAY),
    }


def validate_rules_name(value: object) -> None:
    """House rules named as `rules.ruleset.parse_rules` reads them (a season's, a game's)."""
    if not isinstance(value, str):
        raise ValidationError(_("Name the house rules in words"))
    try:
        parse_rules(value)
    except ValueError as error:
        raise ValidationError(str(error)) from error


def validate_roster_name(value: str) -> None:
    """A player's name as `scoring.names` keeps it: tidied, nothing hidden, something shown."""
    if problem := name_problem(value):
        raise ValidationError(problem)
    if tidy_name(value) != value:
        raise ValidationError(
            _("Write the name as %(name)s, its spaces tidied") % {"name": tidy_name(value)}
        )


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
    """Someone on a club's roster. Players need no account. A name is unique in its club by
    how it looks (`scoring.names.name_key`: blind to case, to what never shows and to
    look-alike letters of other scripts), so "Ann" and "Аnn" (a Cyrillic А) are one player.

    A member may say which player they are (`scoring.services.claim_player`): one player per
    member, so one per member in each club, held by the link's uniqueness. The link goes when
    they leave the club (their membership with it)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=PLAYER_NAME_MAX_LENGTH, validators=[validate_roster_name])
    # What the name is compared by, worked out from it wherever a name is written
    # (`Player.named`, a rename); a few times the name's length at most, so text.
    name_key = models.TextField(editable=False)
    # A membership of this player's club: the services check that, as no constraint can
    # across two tables.
    member = models.OneToOneField(
        Membership, on_delete=models.SET_NULL, null=True, blank=True, related_name="player"
    )

    class Meta:
        ordering = [Lower("name"), "pk"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name_key"], name="player_unique_key_in_club"),
            models.CheckConstraint(condition=~Q(name=""), name="player_name_not_empty"),
            models.CheckConstraint(condition=~Q(name_key=""), name="player_name_key_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        # The admin's form and a backup's restore check a name by full_clean(): its key follows.
        if isinstance(self.name, str):
            self.name_key = name_key(self.name)

    @classmethod
    def named(cls, name: str, **fields: object) -> Player:
        """A new player (not saved) called `name`, a name as `scoring.names` keeps it."""
        return cls(name=name, name_key=name_key(name), **fields)


class Season(models.Model):
    """A stretch of a club's games with its own league table; exactly one is current."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=SEASON_NAME_MAX_LENGTH)
    starts_on = models.DateField()
    ends_on = models.DateField(null=True, blank=True)
    is_current = models.BooleanField(default=False)
    # Counted up (scoring.services.versions.seasons_changed, game_changed) whenever one of its
    # games is added, removed, moved or rescored: the season's pages are cached under it.
    version = models.PositiveIntegerField(default=0)
    # The season's own, in this database (as `Game.key`): its cached pages are kept under it.
    key = models.UUIDField(default=uuid.uuid4, editable=False)
    # The house rules new games of the season are played by (rules.ruleset.parse_rules names),
    # and the money a point is worth at tables that play for it.
    rules = models.CharField(
        max_length=200, default=DEFAULT_RULES.name, validators=[validate_rules_name]
    )
    stake = models.DecimalField(max_digits=9, decimal_places=3, null=True, blank=True)
    # Players with fewer finished games in the season are listed apart, "Not yet ranked".
    min_games = models.PositiveSmallIntegerField(default=0)

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
            models.CheckConstraint(
                condition=Q(min_games__lte=MOST_GAMES_TO_RANK),
                name="season_min_games_at_most_1000",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @cached_property
    def ruleset(self) -> RuleSet:
        """The rules the season's new games start with."""
        return parse_rules(self.rules)
