"""The histories of games, seasons and clubs: who changed what, from what to what, as a line
says it."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from rules.ruleset import parse_rules

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser

from scoring.models.clubs import (
    PLAYER_NAME_MAX_LENGTH,
    SEASON_NAME_MAX_LENGTH,
    SEATS,
    Club,
    Season,
    validate_rules_name,
)
from scoring.models.games import Game


class GameChange(models.Model):
    """One line of a game's history: who recorded, undid or edited which deal, ended the
    match, changed the stake, moved the game to another season or merged one of its players
    into another, and how."""

    class Action(models.TextChoices):
        RECORD = "record", _("Recorded")
        UNDO = "undo", _("Undid")
        EDIT = "edit", _("Changed")
        END = "end", _("Ended the match")
        STAKE = "stake", _("Changed the stake")
        MOVE = "move", _("Moved the game")
        MERGE = "merge", _("Merged players")

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
    # as shown ("0.10"; null for none); a move keeps the seasons' names; a merge the names of
    # the player merged and of the one they were merged into.
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    # An undo keeps the one-time token of the deal form that recorded the deal, so that form
    # sent again (a retry after a lost answer) is refused instead of recording the deal anew.
    # Unique: a token is spent once, whichever game it was for.
    token = models.UUIDField(null=True, blank=True, unique=True, editable=False)
    # A deal recorded in a game played with own counts: in seat order, the username of whoever
    # entered each figure (its player, or whoever filled it in for the table), kept with the
    # line because a deal undone or changed takes its scores' senders with it.
    senders = models.JSONField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(action__in=["record", "undo", "edit", "end", "stake", "move", "merge"]),
                name="gamechange_action_known",
            ),
            models.CheckConstraint(
                condition=Q(token__isnull=True) | Q(action="undo"),
                name="gamechange_token_only_on_undo",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_action_display()} (deal {self.deal_number}) of game {self.game_id}"

    def clean(self) -> None:
        # What a line keeps before and after depends on what changed: cards left by default.
        check_both(self, GAME_HISTORY_VALUES.get(self.action, validate_cards_per_seat))

    def summary(self) -> str:
        """ "ann changed deal 3 from 0 5 9 13 to 0 5 8 13", for the game's history."""
        values = {
            "who": who(self.by),
            "number": self.deal_number,
            "before": spaced(self.before),
            "after": spaced(self.after),
        }
        # A deal typed whole on one phone, nobody's own figure in it, names its recorder alone.
        recorder_alone = self.by is not None and set(self.senders or ()) == {self.by.get_username()}
        if self.action == self.Action.RECORD and self.senders and not recorder_alone:
            return _("%(who)s recorded deal %(number)s: %(after)s, sent by %(senders)s") % (
                values | {"senders": senders_listed(self.senders)}
            )
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
        if self.action == self.Action.MERGE:
            return _("%(who)s merged the player %(name)s into %(new_name)s") % (
                values | {"name": self.before, "new_name": self.after}
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

    def clean(self) -> None:
        # `what` itself is checked against its choices: an unknown one is refused there.
        check_both(self, SEASON_HISTORY_VALUES.get(self.what, lambda value: None))

    def summary(self) -> str:
        """ "ann changed the rules from Standard rules to Pusoy Dos suits (♣ < ♠ < ♥ < ♦)"."""
        if self.what == self.Subject.STAKE:
            return stake_change(self.by, self.before, self.after)
        return _("%(who)s changed the rules from %(before)s to %(after)s") % {
            "who": who(self.by),
            "before": parse_rules(self.before).label,
            "after": parse_rules(self.after).label,
        }


# The club's history lines that name a player besides the member or player they are about.
TWO_NAMED = ["rename_player", "merge_player", "claim_player", "unlink_player"]


class ClubChange(models.Model):
    """One line of a club's history: who removed a member, left (or deleted their account),
    handed the club on, renamed, merged or removed a player, said which player they are (or
    had that undone by the owner), and when.

    Names are kept as they were at the time, as text: the line still reads right once the
    member's account is gone or the player renamed, merged or removed."""

    class Action(models.TextChoices):
        REMOVE_MEMBER = "remove_member", _("Removed a member")
        LEAVE = "leave", _("Left the club")
        MAKE_OWNER = "make_owner", _("Made a member the owner")
        RENAME_PLAYER = "rename_player", _("Renamed a player")
        MERGE_PLAYER = "merge_player", _("Merged players")
        REMOVE_PLAYER = "remove_player", _("Removed a player")
        DELETE_ACCOUNT = "delete_account", _("Deleted their account")
        CLAIM_PLAYER = "claim_player", _("Said which player they are")
        UNLINK_PLAYER = "unlink_player", _("Undid a member's “This is me”")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="changes")
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)
    action = models.CharField(max_length=20, choices=Action.choices)
    # The member's username (removed, left, deleted their account, made owner, said which
    # player they are, had that undone), or the player's name before the change (renamed,
    # merged, removed).
    name = models.CharField(max_length=150)
    # The player's new name, the player a merge folded them into, or the player a member said
    # they are (or no longer are); blank for the rest.
    new_name = models.CharField(max_length=PLAYER_NAME_MAX_LENGTH, blank=True, default="")

    class Meta:
        ordering = ["-at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(
                    action__in=[
                        "remove_member",
                        "leave",
                        "make_owner",
                        "rename_player",
                        "merge_player",
                        "remove_player",
                        "delete_account",
                        "claim_player",
                        "unlink_player",
                    ]
                ),
                name="clubchange_action_known",
            ),
            models.CheckConstraint(condition=~Q(name=""), name="clubchange_names_someone"),
            # A rename and a merge name the player they end with, a member's link the player
            # it is to; nothing else names two.
            models.CheckConstraint(
                condition=(
                    (Q(action__in=TWO_NAMED) & ~Q(new_name=""))
                    | (~Q(action__in=TWO_NAMED) & Q(new_name=""))
                ),
                name="clubchange_new_name_only_where_two_are_named",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_action_display()} ({self.name}) in club {self.club_id}"

    def summary(self) -> str:
        """ "ann removed bo from the club", "ann merged the player Anne into Ann"."""
        values = {"who": who(self.by), "name": self.name, "new_name": self.new_name}
        if self.action == self.Action.REMOVE_MEMBER:
            return _("%(who)s removed %(name)s from the club") % values
        if self.action == self.Action.LEAVE:
            return _("%(name)s left the club") % values
        if self.action == self.Action.DELETE_ACCOUNT:
            return _("%(name)s left the club (account deleted)") % values
        if self.action == self.Action.MAKE_OWNER:
            return _("%(who)s made %(name)s the club's owner") % values
        if self.action == self.Action.RENAME_PLAYER:
            return _("%(who)s renamed the player %(name)s to %(new_name)s") % values
        if self.action == self.Action.MERGE_PLAYER:
            return _("%(who)s merged the player %(name)s into %(new_name)s") % values
        if self.action == self.Action.CLAIM_PLAYER and values["who"] not in {self.name, who(None)}:
            # Seated by someone else, as a member chosen on the new game's list.
            return _("%(who)s seated %(name)s as the player %(new_name)s") % values
        if self.action == self.Action.CLAIM_PLAYER:
            return _("%(name)s said they are the player %(new_name)s") % values
        if self.action == self.Action.UNLINK_PLAYER:
            return _("%(who)s undid %(name)s's “This is me” for the player %(new_name)s") % values
        return _("%(who)s removed the player %(name)s from the roster") % values


def check_both(line: GameChange | SeasonChange, check: Callable[[object], None]) -> None:
    """A history line's `before` and `after` checked, each error under its own name."""
    errors = {}
    for name in ("before", "after"):
        try:
            check(getattr(line, name))
        except ValidationError as error:
            errors[name] = error
    if errors:
        raise ValidationError(errors)


def validate_cards_per_seat(value: object) -> None:
    """Cards left (or a match's banked totals), one whole number per seat, or null."""
    if value is not None and not (
        isinstance(value, list)
        and len(value) <= SEATS
        and all(type(number) is int and 0 <= number < 2**31 for number in value)
    ):
        raise ValidationError(
            _("Enter at most %(seats)s whole numbers, one per seat"), params={"seats": SEATS}
        )


def validate_stake_text(value: object) -> None:
    """A stake as a line shows it ("0.10", `stake_text`), or null for none."""
    if value is None:
        return
    try:
        stake = Decimal(value) if isinstance(value, str) and len(value) <= 20 else None
    except ArithmeticError:
        stake = None
    if stake is None or not stake.is_finite() or stake < 0:
        raise ValidationError(_("Enter the stake as a number, e.g. 0.10"))


def name_of_at_most(count: int) -> Callable[[object], None]:
    """A season's or a player's name as a line keeps it: text of 1 to `count` characters."""

    def validate(value: object) -> None:
        if not isinstance(value, str) or not 0 < len(value) <= count:
            raise ValidationError(
                _("Enter a name of 1 to %(count)s characters"), params={"count": count}
            )

    return validate


GAME_HISTORY_VALUES: dict[str, Callable[[object], None]] = {
    GameChange.Action.STAKE: validate_stake_text,
    GameChange.Action.MOVE: name_of_at_most(SEASON_NAME_MAX_LENGTH),
    GameChange.Action.MERGE: name_of_at_most(PLAYER_NAME_MAX_LENGTH),
}
SEASON_HISTORY_VALUES: dict[str, Callable[[object], None]] = {
    SeasonChange.Subject.RULES: validate_rules_name,
    SeasonChange.Subject.STAKE: validate_stake_text,
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


def senders_listed(senders: list[str | None]) -> str:
    """Who sent each figure, in seat order as the figures are: "ann, ben, sam, sam"."""
    return pgettext("list separator", ", ").join(name or str(_("Someone")) for name in senders)


def spaced(cards: list[int] | None) -> str:
    return " ".join(str(count) for count in cards or [])
