"""A game as a whole: starting one, playing again with the same table, its stake, its season,
its live view link, ending an open-ended match, deleting it."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from decimal import Decimal

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import Prefetch
from django.utils.translation import gettext as _

from rules.deal_checks import and_list
from rules.options import Finish
from rules.penalties import outcome
from rules.ruleset import parse_rules
from scoring import live
from scoring.models import (
    PLAYER_NAME_MAX_LENGTH,
    Club,
    Deal,
    Game,
    GameChange,
    Player,
    Season,
    Seat,
    new_share_token,
    stake_text,
    token_digest,
)
from scoring.names import SeatingRefused, name_key, seat_names_for
from scoring.selectors import seats_of
from scoring.services import permissions, ratings
from scoring.services.errors import ScoringError, SeatsDiffer, TiedForLowest
from scoring.services.player_links import link_seated_members
from scoring.services.totals import last_deal_number, lock_game, recompute, refresh_from
from scoring.services.versions import game_changed, seasons_changed


def start_game(
    *,
    club: Club,
    seat_names: Sequence[str],
    by: AbstractBaseUser,
    season: Season | None = None,
    closes_at: datetime | None = None,
    token: uuid.UUID | None = None,
    own_counts: bool = False,
) -> Game:
    """Seat the players clockwise, adding new names: a name that looks like a roster name
    (`scoring.names.name_key`: whatever its case) is that player.

    The game goes into `season`, or the club's current season, and keeps that season's rules
    and stake as they are now. It seats as many players as those rules are for. A seat named
    as a member of the club (their username) links its player to them, as their "This is me"
    would (`link_seated_members`). `closes_at`, when given, is when the game's time runs out
    (a club night's round): the first deal recorded from then on is its last. `token`, the
    "New game" form's, makes a resend of that form (a double tap, two phones sending one form)
    find the game it started. `own_counts`: each player sends their own (`send_own_facts`).
    """
    if season is not None and season.club_id != club.pk:
        raise ScoringError(_("That season belongs to another club"))
    season = season or club.seasons.get(is_current=True)
    players = parse_rules(season.rules).players
    try:
        names = seat_names_for(seat_names, players=players, max_length=PLAYER_NAME_MAX_LENGTH)
    except SeatingRefused as refused:
        raise ScoringError(refused.message) from refused
    with transaction.atomic():
        # One game start at a time per club, so two new players of the same name can't race.
        Club.objects.select_for_update(no_key=True).get(pk=club.pk)
        if (started := started_with(token, club)) is not None:
            return started
        keys = [name_key(name) for name in names]
        roster = {player.name_key: player for player in club.players.filter(name_key__in=keys)}
        game = Game.objects.create(
            club=club,
            season=season,
            created_by=by,
            rules=season.rules,
            stake=season.stake,
            closes_at=closes_at,
            start_token=token,
            own_counts=own_counts,
        )
        seated = []
        for name, key in zip(names, keys, strict=True):
            player = roster.get(key)
            if player is None:
                player = Player.named(name, club=club)
                player.save()
            seated.append(player)
        Seat.objects.bulk_create(
            Seat(game=game, player=player, position=position)
            for position, player in enumerate(seated)
        )
        link_seated_members(club=club, players=seated, by=by)
        seasons_changed(season.pk)
    return game


def started_with(token: uuid.UUID | None, club: Club) -> Game | None:
    """The game a "New game" form's `token` already started (under the club's lock)."""
    started = Game.objects.filter(start_token=token).first() if token is not None else None
    if started is not None and started.club_id != club.pk:
        raise ScoringError(_("This form was already used for another club; reload the page"))
    return started


def play_again(*, game: Game, by: AbstractBaseUser) -> Game:
    """A new game for the finished `game`'s table: the same players in the same seats, in the
    club's current season, by that season's rules and stake as they are now, played as it was
    (each player entering their own cards, or not).

    Tapped twice, on two phones at once, or sent again after a lost answer, it makes one game:
    under the club's lock (which every game start takes), a game in progress seating exactly
    these players, started since `game` ended, is the rematch already made, and is returned.
    Refused while `game` is being played (an undo reopened it), and when the current season's
    rules seat another number of players: then the table chooses its seats on "New game".
    """
    with transaction.atomic():
        # The club first, then the game: the order every write that takes both locks in.
        Club.objects.select_for_update(no_key=True).get(pk=game.club_id)
        finished = Game.objects.select_for_update(no_key=True).filter(pk=game.pk).first()
        if finished is None:
            raise ScoringError(_("This game was deleted, so it can't be played again"))
        if not finished.is_finished:
            raise ScoringError(_("This game isn't over yet: play it to the end first"))
        players = list(
            Seat.objects.filter(game=finished)
            .order_by("position")
            .values_list("player_id", flat=True)
        )
        season = Season.objects.get(club_id=finished.club_id, is_current=True)
        seats_now = parse_rules(season.rules).players
        if seats_now != len(players):
            raise SeatsDiffer(
                _(
                    "%(season)s is played by %(count)s players and this game had %(had)s: "
                    "start a new game and choose who plays"
                )
                % {"season": season.name, "count": seats_now, "had": len(players)}
            )
        rematch = rematch_of(finished, players)
        if rematch is None:
            rematch = Game.objects.create(
                club_id=finished.club_id,
                season=season,
                created_by=by,
                rules=season.rules,
                stake=season.stake,
                own_counts=finished.own_counts,
            )
            Seat.objects.bulk_create(
                Seat(game=rematch, player_id=player, position=position)
                for position, player in enumerate(players)
            )
            seasons_changed(season.pk)
    return rematch


def rematch_of(finished: Game, players: Sequence[int]) -> Game | None:
    """The game in progress at `finished`'s club that seats `players` (ids, clockwise) and was
    started since `finished` ended: the rematch it got, if it got one."""
    candidates = (
        Game.objects.filter(
            club_id=finished.club_id,
            status=Game.Status.IN_PROGRESS,
            created_at__gte=finished.finished_at,
        )
        .order_by("created_at", "pk")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.order_by("position")))
    )
    for candidate in candidates:
        if [seat.player_id for seat in candidate.seats.all()] == list(players):
            return candidate
    return None


def move_game(*, game: Game, season: Season, by: AbstractBaseUser) -> None:
    """Put a game into another season of its club (where its result then counts), with a line
    in its history; moving it where it already is (a double tap) writes nothing."""
    permissions.check_may_move_game(game=game, by=by)
    if season.club_id != game.club_id:
        raise ScoringError(_("That season belongs to another club"))
    with transaction.atomic():
        locked = lock_game(game)
        if locked.season_id != season.pk:
            was = Season.objects.get(pk=locked.season_id)
            GameChange.objects.create(
                game=locked,
                by=by,
                action=GameChange.Action.MOVE,
                deal_number=last_deal_number(locked),
                before=was.name,
                after=season.name,
            )
            locked.season = season
            # The history shows on the game's board, and its result in the seasons' tables.
            game_changed(locked, saving=["season"], was_in=was.pk)
    refresh_from(game, locked)
    game.season = season


def share_game(*, game: Game, by: AbstractBaseUser) -> str:
    """Give the game a new read-only live view link and return its token.

    Any member may share (the caller has checked membership); a link shared before stops
    working at once, since its token is replaced.
    """
    with transaction.atomic():
        game.share_token = new_share_token()
        game.share_digest = token_digest(game.share_token)
        game.save(update_fields=["share_token", "share_digest"])
        live.share_changed(game.pk)  # a live view on the link before it ends
    return game.share_token


def stop_sharing(*, game: Game, by: AbstractBaseUser) -> None:
    """Switch the live view off: its link answers "not found" from now on."""
    with transaction.atomic():
        game.share_token = game.share_digest = None
        game.save(update_fields=["share_token", "share_digest"])
        live.share_changed(game.pk)  # its live views' streams end


def delete_game(*, game: Game, by: AbstractBaseUser) -> None:
    permissions.check_may_delete_game(game=game, by=by)
    with transaction.atomic():
        seasons_changed(game.season_id)
        live.game_deleted(game.pk, game.version + 1)  # its phones ask, find it gone
        # Where it stood as stored, not as the caller's copy last saw it.
        stored = Game.objects.filter(pk=game.pk).first()
        was = ratings.position(stored) if stored is not None else None
        game.delete()
        # Once it is gone: the games from its place on are rated again without it.
        if was is not None:
            ratings.ratings_changed(game.club_id, since=was)


def set_stake(*, game: Game, stake: Decimal | None, by: AbstractBaseUser) -> None:
    """Give the game a stake a point (or none): what its end shows each player paying.

    Any member may while the game is played; once it is over, only the club's owner, since it
    changes what everyone owes. Each change is a line in the game's history; sending the stake
    it already has (a double tap, a resend) changes nothing and writes no line."""
    if stake is not None and stake < 0:
        raise ScoringError(_("A stake can't be negative"))
    with transaction.atomic():
        locked = lock_game(game)
        # Checked under the lock: the last deal may have ended the game since the page showed.
        permissions.check_may_change_stake(club=game.club, finished=locked.is_finished, by=by)
        if locked.stake != stake:
            GameChange.objects.create(
                game=locked,
                by=by,
                action=GameChange.Action.STAKE,
                deal_number=last_deal_number(locked),
                before=stake_text(locked.stake),
                after=stake_text(stake),
            )
            locked.stake = stake
            # The settling up and the history show on the scoreboard.
            game_changed(locked, saving=["stake"])
    refresh_from(game, locked)
    game.stake = locked.stake


def end_match(*, game: Game, by: AbstractBaseUser, sharing: Sequence[int] = ()) -> None:
    """Bank an open-ended match's totals: the lowest total wins, alone or shared.

    While the lowest total is shared the table chooses: one more deal (nothing to do here), or
    the match ended now with the win shared, `sharing` naming the seats (positions) it agreed
    share it. Refused, nothing written: with TiedForLowest when the lowest total is shared and
    `sharing` doesn't name exactly those seats; when `sharing` is given but the totals have
    changed since (another phone recorded or undid a deal); before the first deal, and under
    rules whose matches end by themselves. A match already over (a double tap, a second phone,
    a resend) is left as it is.
    """
    if game.ruleset.finish is not Finish.OPEN:
        raise ScoringError(_("This game ends by itself under its rules; there is nothing to end"))
    with transaction.atomic():
        locked = lock_game(game)
        if not locked.is_finished:
            _end(locked, by, tuple(sorted(set(sharing))))
    refresh_from(game, locked)


def _end(locked: Game, by: AbstractBaseUser, sharing: tuple[int, ...]) -> None:
    """`end_match` of the locked game, still in progress."""
    if not Deal.objects.filter(game=locked).exists():
        raise ScoringError(_("Record a deal before ending the match"))
    totals = list(Seat.objects.filter(game=locked).order_by("position").values_list("total"))
    lowest = outcome([total for (total,) in totals], locked.ruleset, ended=True).lowest
    if sharing and sharing != lowest:
        raise ScoringError(
            _("The totals have changed since this page was shown: check them, then end the match")
        )
    if len(lowest) > 1 and sharing != lowest:
        names = [seat.player.name for seat in seats_of(locked)]
        raise TiedForLowest(
            _(
                "%(names)s are tied for lowest on %(total)s: end the match with the win shared,"
                " or play one more deal"
            )
            % {"names": and_list([names[seat] for seat in lowest]), "total": totals[lowest[0]][0]},
            lowest,
        )
    locked.ended = True
    locked.save(update_fields=["ended"])
    replayed = recompute(locked)
    GameChange.objects.create(
        game=locked,
        by=by,
        action=GameChange.Action.END,
        deal_number=len(replayed.deals),
        after=list(replayed.totals),
    )
