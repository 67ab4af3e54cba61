"""A club's roster: renaming a player, merging a mistyped player into the right one, removing
one who never sat at a table.

Any member may do each: whoever typed a name wrong fixes it at the table. Each locks the club's
row first (`lock_club`), as starting a game does when it adds players, so the roster's names and
who sits where can't change underneath; every change is a line of the club's history, and a
merge a line of each game it touches too. Sending the same change again (a double tap, a
resend) finds it made and writes nothing.
"""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.deal_checks import and_list
from scoring.models import PLAYER_NAME_MAX_LENGTH, Club, ClubChange, Deal, Game, GameChange, Player
from scoring.names import name_key, name_problem, tidy_name
from scoring.selectors import seats_of
from scoring.services import ratings
from scoring.services.clubs import lock_club
from scoring.services.errors import SatTogether, ScoringError
from scoring.services.versions import games_changed, player_renamed


def rename_player(*, player: Player, name: str, by: AbstractBaseUser) -> None:
    """Give the player a new name, unique in the club by how it looks (`scoring.names`: a
    change of case alone is allowed, a name that looks like another player's is not). Every
    page showing them shows the new name."""
    name = tidy_name(name)
    if not name:
        raise ScoringError(_("Give the player a name"))
    if len(name) > PLAYER_NAME_MAX_LENGTH:
        raise ScoringError(
            _("A player's name can be at most %(count)s characters")
            % {"count": PLAYER_NAME_MAX_LENGTH}
        )
    if (problem := name_problem(name)) is not None:
        raise ScoringError(problem)
    key = name_key(name)
    with transaction.atomic():
        club = lock_club(player.club)
        current = on_roster(club, player)
        # Compared as starting a game compares a seat's name with the roster, so that the name
        # typed at a new game still finds exactly one player.
        taken = list(club.players.exclude(pk=current.pk).filter(name_key=key))
        if taken:
            raise ScoringError(
                _(
                    "There is already a player called %(name)s. If %(old)s is the same person,"
                    " use “Merge into…” instead."
                )
                % {"name": taken[0].name, "old": current.name}
            )
        if current.name != name:
            ClubChange.objects.create(
                club=club,
                by=by,
                action=ClubChange.Action.RENAME_PLAYER,
                name=current.name,
                new_name=name,
            )
            current.name, current.name_key = name, key
            current.save(update_fields=["name", "name_key"])
            player_renamed(current)
    player.name, player.name_key = name, key


def merge_player(*, player: Player, into: Player, by: AbstractBaseUser) -> int:
    """Fold `player` (a name typed wrong) into `into`: every seat of theirs, with its totals, and
    every game they won become `into`'s, so the standings add up as if the name had been right;
    then `player` leaves the roster, and a member who said they are `player` is `into`.
    Refused when both sat in one game, or each is a different member: two people.

    Returns how many games moved over."""
    if player.pk == into.pk:
        raise ScoringError(_("Choose another player: a player can't be merged into themself"))
    if player.club_id != into.club_id:
        raise ScoringError(_("That player belongs to another club"))
    with transaction.atomic():
        club = lock_club(player.club)
        merged, kept = on_roster(club, player), on_roster(club, into)
        # Their games locked, in one order, as recording a deal locks its game: a deal being
        # recorded meanwhile finishes first, so the winner it names is moved over too.
        games = list(
            Game.objects.select_for_update(no_key=True)
            .filter(pk__in=merged.seats.values("game_id"))
            .order_by("pk")
        )
        refuse_if_sat_together(merged, kept, games)
        carry_link(merged, kept)
        merged.seats.update(player=kept)
        Game.objects.filter(winner=merged).update(winner=kept)
        history_of_merge(games, merged, kept, by)
        ClubChange.objects.create(
            club=club,
            by=by,
            action=ClubChange.Action.MERGE_PLAYER,
            name=merged.name,
            new_name=kept.name,
        )
        merged.delete()
        # Two players' games became one's: every rating from the first of them on changes.
        ratings.ratings_changed(club.pk, since=None)
        # Their boards show the new name and history, and their seasons' tables the new sums.
        games_changed(Game.objects.filter(pk__in=[game.pk for game in games]))
    return len(games)


def refuse_if_sat_together(merged: Player, kept: Player, games: list[Game]) -> None:
    together = (
        Game.objects.filter(pk__in=[game.pk for game in games], seats__player=kept)
        .order_by("-created_at", "-pk")
        .first()
    )
    if together is None:
        return
    names = and_list([seat.player.name for seat in seats_of(together)])
    started = date_format(timezone.localtime(together.created_at), "j M Y")
    raise SatTogether(
        _(
            "%(merged)s and %(kept)s both sat in the game of %(players)s started %(date)s, so"
            " they are two people and can't be merged."
        )
        % {"merged": merged.name, "kept": kept.name, "players": names, "date": started},
        game=together,
    )


def carry_link(merged: Player, kept: Player) -> None:
    """Merging `merged` into `kept`: the member who said they are `merged` is `kept` now.
    Refused when each is a different member: they are two people."""
    if merged.member_id is None or merged.member_id == kept.member_id:
        return
    if kept.member_id is not None:
        raise ScoringError(
            _("%(merged)s and %(kept)s are two members of the club, so they can't be merged.")
            % {"merged": merged.name, "kept": kept.name}
        )
    link = merged.member_id
    merged.member = None
    merged.save(update_fields=["member"])
    kept.member_id = link
    kept.save(update_fields=["member"])


def history_of_merge(games: list[Game], merged: Player, kept: Player, by: AbstractBaseUser) -> None:
    """A line in each game's history: whose seat it was before the merge."""
    last = dict(
        Deal.objects.filter(game__in=games)
        .values("game_id")
        .annotate(last=Max("number"))
        .values_list("game_id", "last")
    )
    GameChange.objects.bulk_create(
        GameChange(
            game=game,
            by=by,
            action=GameChange.Action.MERGE,
            deal_number=last.get(game.pk, 0),
            before=merged.name,
            after=kept.name,
        )
        for game in games
    )


def remove_player(*, player: Player, by: AbstractBaseUser) -> bool:
    """Take a player who never sat in a game off the roster (one who did stays, with their
    games; a name typed wrong is merged instead).

    Returns whether they were on the roster until now."""
    with transaction.atomic():
        club = lock_club(player.club)
        current = club.players.filter(pk=player.pk).first()
        if current is None:
            return False
        played = current.seats.count()
        if played:
            raise ScoringError(
                ngettext(
                    "%(name)s has played %(count)s game, so they stay on the roster. If the"
                    " name was typed wrong, use “Merge into…” instead.",
                    "%(name)s has played %(count)s games, so they stay on the roster. If the"
                    " name was typed wrong, use “Merge into…” instead.",
                    played,
                )
                % {"name": current.name, "count": played}
            )
        ClubChange.objects.create(
            club=club, by=by, action=ClubChange.Action.REMOVE_PLAYER, name=current.name
        )
        current.delete()
    return True


def on_roster(club: Club, player: Player) -> Player:
    """The player as the roster holds them now, or a refusal if they have left it since the
    page was shown (merged or removed on another phone)."""
    current = club.players.filter(pk=player.pk).first()
    if current is None:
        raise ScoringError(_("%(name)s is no longer on the club's roster") % {"name": player.name})
    return current
