"""Every write of the score-keeping app, one named function per action.

Each runs in one transaction and refuses with `ScoringError` (its message is meant for the
person at the table). Views call these and nothing else that writes.
"""

from __future__ import annotations

import datetime
import secrets
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import BigIntegerField, F, Max, QuerySet, Value
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.options import Finish, TwosRule
from rules.penalties import DealResult, GameReplay, penalty, replay, validate_deal
from rules.ruleset import DEFAULT_RULES, RuleSet, parse_rules
from scoring.models import (
    FIRST_SEASON_DAY,
    LAST_SEASON_DAY,
    PLAYER_NAME_MAX_LENGTH,
    SEASON_NAME_MAX_LENGTH,
    Club,
    Deal,
    DealScore,
    Game,
    GameChange,
    Membership,
    Player,
    Season,
    SeasonChange,
    Seat,
    new_share_token,
    stake_text,
    token_digest,
)

CLUB_NAME_MAX_LENGTH = Club._meta.get_field("name").max_length


class ScoringError(Exception):
    """A change that was refused; `message` says why, in words for the scorer."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class DealAlreadyRecorded(ScoringError):
    """Someone else (another phone) recorded this deal number first."""


class DealWasUndone(ScoringError):
    """The form's deal was recorded, then undone: its token is spent, and sending the form
    again (a retry after a lost answer) records nothing."""

    def __init__(self, number: int) -> None:
        super().__init__(
            _("Deal %(number)s was undone after this phone sent it, so it was not recorded again.")
            % {"number": number}
        )
        self.number = number


class DealRecordedDifferently(ScoringError):
    """The form's deal is recorded, but not with the values sent again (they were changed
    while the form waited to be resent, or the deal was edited since)."""


class NotAllowed(ScoringError):
    """The user is a member of the club but this action is the owner's."""


class InvalidDeal(ScoringError):
    """The cards left don't make a deal; `problems` lists every reason."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__(". ".join(problems))
        self.problems = list(problems)


# Clubs and members


def create_club(*, name: str, owner: AbstractBaseUser) -> Club:
    name = " ".join(name.split())
    if not name:
        raise ScoringError(_("Give the club a name"))
    if len(name) > CLUB_NAME_MAX_LENGTH:
        raise ScoringError(
            _("A club's name can be at most %(count)s characters") % {"count": CLUB_NAME_MAX_LENGTH}
        )
    with transaction.atomic():
        club = Club(name=name, owner=owner)
        club.new_invite()
        club.save()
        Membership.objects.create(club=club, user=owner)
        Season.objects.create(
            club=club, name="Season 1", starts_on=timezone.localdate(), is_current=True
        )
    return club


def club_by_invite(token: str) -> Club | None:
    """The club whose invite link carries `token`, found by the token's digest."""
    club = Club.objects.filter(invite_digest=token_digest(token)).first()
    if club is None or not secrets.compare_digest(club.invite_token, token):
        return None
    return club


def shared_games(token: str) -> QuerySet[Game]:
    """The game (none or one) whose live view link carries `token`."""
    return Game.objects.filter(share_digest=token_digest(token), share_token__isnull=False)


def join_club(*, token: str, user: AbstractBaseUser) -> Club:
    """Make `user` a member of the club whose invite link carries `token` (again is harmless)."""
    with transaction.atomic():
        club = club_by_invite(token)
        if club is None:
            raise ScoringError(
                _("This invite link doesn't work any more. Ask the club's owner for a new one.")
            )
        Membership.objects.get_or_create(club=club, user=user)
    return club


def reset_invite(*, club: Club, by: AbstractBaseUser) -> str:
    """Give the club a new invite link; the old one stops working at once."""
    if club.owner_id != by.pk:
        raise NotAllowed(_("Only the club's owner can reset its invite link"))
    with transaction.atomic():
        club.new_invite()
        club.save(update_fields=["invite_token", "invite_digest"])
    return club.invite_token


# Games


def clean_player_name(name: str) -> str:
    return " ".join(name.split())


def start_game(
    *,
    club: Club,
    seat_names: Sequence[str],
    by: AbstractBaseUser,
    season: Season | None = None,
) -> Game:
    """Seat the players clockwise, matching roster names ignoring case, adding new names.

    The game goes into `season`, or the club's current season, and keeps that season's rules
    and stake as they are now. It seats as many players as those rules are for.
    """
    if season is not None and season.club_id != club.pk:
        raise ScoringError(_("That season belongs to another club"))
    season = season or club.seasons.get(is_current=True)
    players = parse_rules(season.rules).players
    names = [clean_player_name(name) for name in seat_names]
    if len(names) != players:
        raise ScoringError(_("A game needs %(count)s players") % {"count": players})
    empty = [
        _("Seat %(number)s") % {"number": position}
        for position, name in enumerate(names, start=1)
        if not name
    ]
    if empty:
        raise ScoringError(
            ngettext(
                "Every seat needs a player — %(seats)s is empty",
                "Every seat needs a player — %(seats)s are empty",
                len(empty),
            )
            % {"seats": _and(empty)}
        )
    too_long = [name for name in names if len(name) > PLAYER_NAME_MAX_LENGTH]
    if too_long:
        raise ScoringError(
            _("A player's name can be at most %(count)s characters — %(name)s… is longer")
            % {"count": PLAYER_NAME_MAX_LENGTH, "name": too_long[0][:PLAYER_NAME_MAX_LENGTH]}
        )
    seen: dict[str, str] = {}
    for name in names:
        if name.casefold() in seen:
            raise ScoringError(
                _("%(name)s can't sit twice — each seat needs a different player") % {"name": name}
            )
        seen[name.casefold()] = name
    with transaction.atomic():
        # One game start at a time per club, so two new players of the same name can't race.
        Club.objects.select_for_update().get(pk=club.pk)
        roster = {player.name.casefold(): player for player in club.players.all()}
        game = Game.objects.create(
            club=club, season=season, created_by=by, rules=season.rules, stake=season.stake
        )
        seats = []
        for position, name in enumerate(names):
            player = roster.get(name.casefold())
            if player is None:
                player = Player.objects.create(club=club, name=name)
            seats.append(Seat(game=game, player=player, position=position))
        Seat.objects.bulk_create(seats)
        season_changed(season.pk)
    return game


def start_season(
    *,
    club: Club,
    name: str,
    starts_on: datetime.date,
    ends_on: datetime.date | None = None,
    rules: RuleSet | None = None,
    stake: Decimal | None = None,
    currency: str | None = None,
    by: AbstractBaseUser,
) -> Season:
    """Open a new season and make it the current one; new games go into it, played by
    `rules` (the standard rules if not given) with `stake` a point (none if not given).
    `currency`, when given, becomes the club's currency.

    The season it replaces, if it has no end date, ends the day before the new one starts
    (or on its own first day, if the new one starts as early).
    """
    if club.owner_id != by.pk:
        raise NotAllowed(_("Only the club's owner can start a new season"))
    name = " ".join(name.split())
    if not name:
        raise ScoringError(_("Give the season a name"))
    if len(name) > SEASON_NAME_MAX_LENGTH:
        raise ScoringError(
            _("A season's name can be at most %(count)s characters")
            % {"count": SEASON_NAME_MAX_LENGTH}
        )
    for day in (starts_on, ends_on):
        if (problem := season_day_problem(day)) is not None:
            raise ScoringError(problem)
    if ends_on is not None and ends_on < starts_on:
        raise ScoringError(_("A season can't end before it starts — check the dates"))
    with transaction.atomic():
        Club.objects.select_for_update().get(pk=club.pk)
        previous = club.seasons.filter(is_current=True).first()
        if previous is not None:
            previous.is_current = False
            if previous.ends_on is None:
                previous.ends_on = max(previous.starts_on, starts_on - datetime.timedelta(days=1))
            previous.save(update_fields=["is_current", "ends_on"])
        if currency is not None:
            club.currency = currency.strip()
            club.save(update_fields=["currency"])
        return Season.objects.create(
            club=club,
            name=name,
            starts_on=starts_on,
            ends_on=ends_on,
            is_current=True,
            rules=(rules or DEFAULT_RULES).name,
            stake=stake,
        )


def season_day_problem(day: datetime.date | None) -> str | None:
    """Why `day` can't start or end a season (it is outside 2000–2100), or None if it can."""
    if day is None or FIRST_SEASON_DAY <= day <= LAST_SEASON_DAY:
        return None
    return _("Enter a date from %(first)s to %(last)s") % {
        "first": date_format(FIRST_SEASON_DAY, "j F Y"),
        "last": date_format(LAST_SEASON_DAY, "j F Y"),
    }


def set_season_rules(
    *,
    season: Season,
    rules: RuleSet,
    stake: Decimal | None,
    currency: str | None = None,
    by: AbstractBaseUser,
) -> None:
    """Change the rules (and stake) of a season no game has been started in yet: a new club's
    first season, say. Once games exist they keep their rules; a new season changes them.

    Each change is a line in the season's history; sending what it already has (a double tap)
    changes nothing and writes no line."""
    if season.club.owner_id != by.pk:
        raise NotAllowed(_("Only the club's owner can change a season's rules"))
    with transaction.atomic():
        Club.objects.select_for_update().get(pk=season.club_id)
        if season.games.exists():
            raise ScoringError(
                _(
                    "Games have been played in %(season)s, and they keep their rules:"
                    " start a new season to play by others"
                )
                % {"season": season.name}
            )
        # What the season has now, read under the lock: the history says what it was.
        was = Season.objects.get(pk=season.pk)
        changes = []
        if was.rules != rules.name:
            changes.append(
                SeasonChange(
                    season=was,
                    by=by,
                    what=SeasonChange.Subject.RULES,
                    before=was.rules,
                    after=rules.name,
                )
            )
        if was.stake != stake:
            changes.append(
                SeasonChange(
                    season=was,
                    by=by,
                    what=SeasonChange.Subject.STAKE,
                    before=stake_text(was.stake),
                    after=stake_text(stake),
                )
            )
        if changes:
            SeasonChange.objects.bulk_create(changes)
            was.rules, was.stake = rules.name, stake
            was.save(update_fields=["rules", "stake"])
            # The season's page shows its history, cached under its version.
            season_changed(season.pk)
        if currency is not None:
            season.club.currency = currency.strip()
            season.club.save(update_fields=["currency"])
    season.rules, season.stake = rules.name, stake


def move_game(*, game: Game, season: Season, by: AbstractBaseUser) -> None:
    """Put a game into another season of its club (where its result then counts), with a line
    in its history; moving it where it already is (a double tap) writes nothing."""
    if game.club.owner_id != by.pk:
        raise NotAllowed(_("Only the club's owner can move a game to another season"))
    if season.club_id != game.club_id:
        raise ScoringError(_("That season belongs to another club"))
    with transaction.atomic():
        locked = _lock(game)
        if locked.season_id != season.pk:
            was = Season.objects.get(pk=locked.season_id)
            GameChange.objects.create(
                game=locked,
                by=by,
                action=GameChange.Action.MOVE,
                deal_number=_last_number(locked),
                before=was.name,
                after=season.name,
            )
            season_changed(was.pk, season.pk)
            locked.season = season
            # The history shows on the game's board, cached under its version.
            locked.version += 1
            locked.save(update_fields=["season", "version"])
    _refresh(game, locked)
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
    return game.share_token


def stop_sharing(*, game: Game, by: AbstractBaseUser) -> None:
    """Switch the live view off: its link answers "not found" from now on."""
    with transaction.atomic():
        game.share_token = game.share_digest = None
        game.save(update_fields=["share_token", "share_digest"])


def delete_game(*, game: Game, by: AbstractBaseUser) -> None:
    if game.club.owner_id != by.pk:
        raise NotAllowed(_("Only the club's owner can delete a game"))
    with transaction.atomic():
        season_changed(game.season_id)
        game.delete()


def set_stake(*, game: Game, stake: Decimal | None, by: AbstractBaseUser) -> None:
    """Give the game a stake a point (or none): what its end shows each player paying.

    Any member may while the game is played; once it is over, only the club's owner, since it
    changes what everyone owes. Each change is a line in the game's history; sending the stake
    it already has (a double tap, a resend) changes nothing and writes no line."""
    if stake is not None and stake < 0:
        raise ScoringError(_("A stake can't be negative"))
    with transaction.atomic():
        locked = _lock(game)
        # Checked under the lock: the last deal may have ended the game since the page showed.
        if locked.is_finished and game.club.owner_id != by.pk:
            raise NotAllowed(_("Only the club's owner can change the stake of a finished game"))
        if locked.stake != stake:
            GameChange.objects.create(
                game=locked,
                by=by,
                action=GameChange.Action.STAKE,
                deal_number=_last_number(locked),
                before=stake_text(locked.stake),
                after=stake_text(stake),
            )
            locked.stake = stake
            # The settling up and the history show on the scoreboard, cached under the
            # game's version.
            locked.version += 1
            locked.save(update_fields=["stake", "version"])
            season_changed(locked.season_id)
    _refresh(game, locked)
    game.stake = locked.stake


# Deals


def record_deal(
    *,
    game: Game,
    number: int,
    cards_left: Sequence[int],
    token: uuid.UUID,
    by: AbstractBaseUser,
    out_on_twos: bool = False,
    twos_held: Sequence[int] | None = None,
) -> Deal:
    """Record deal `number` with each seat's cards left, in seat order.

    Under the twos rule, `out_on_twos` says the winner went out on twos; under its stronger
    form `twos_held` gives each seat's twos left in hand. Only pass what the game's rules ask.

    The game row is locked for the whole transaction, so two phones sending the same deal queue
    up: the second finds the number taken and is told so. A resend of the same form (same token)
    returns the deal it already recorded, so a double tap or a retry records one deal.
    """
    try:
        sheet = DealResult(tuple(cards_left), out_on_twos, _tuple_or_none(twos_held))
        deal, locked = _record_deal(game, number, sheet, token, by)
    except IntegrityError as error:
        # Only reachable if the row lock were bypassed: the database's unique constraint on
        # (game, number) still refuses the second deal, and the scorer hears it plainly.
        raise DealAlreadyRecorded(
            _("Deal %(number)s was already recorded") % {"number": number}
        ) from error
    _refresh(game, locked)
    return deal


def _record_deal(
    game: Game, number: int, sheet: DealResult, token: uuid.UUID, by: AbstractBaseUser
) -> tuple[Deal, Game]:
    with transaction.atomic():
        locked = _lock(game)
        # Looked up after the lock: a resend that waited for an undo to commit sees its line.
        used = _token_use(token)
        if used is not None:
            if used.game_id != locked.pk:
                raise ScoringError(
                    _("This form was already used for another game; reload the page")
                )
            if used.deal_id is None:
                raise DealWasUndone(used.number)
            return _same_deal(locked, used.deal_id, sheet), locked
        last = _last_number(locked)
        if number <= last:
            raise DealAlreadyRecorded(
                _("Deal %(number)s was already recorded — the scoreboard now shows it")
                % {"number": number}
            )
        if number != last + 1:
            raise ScoringError(
                _("The next deal is deal %(next)s, not deal %(number)s")
                % {"next": last + 1, "number": number}
            )
        if locked.is_finished:
            raise ScoringError(_("The game is over — no more deals can be recorded"))
        seats = list(locked.seats.select_related("player").order_by("position"))
        sheet = _checked(sheet, seats, locked)
        deal = Deal.objects.create(
            game=locked,
            number=number,
            token=token,
            recorded_by=by,
            out_on_twos=sheet.out_on_twos,
        )
        DealScore.objects.bulk_create(
            DealScore(deal=deal, seat=seat, cards_left=count, penalty=points, twos_held=twos)
            for seat, count, points, twos in zip(
                seats, sheet.cards_left, _penalties(locked, sheet), _twos(sheet), strict=True
            )
        )
        GameChange.objects.create(
            game=locked,
            by=by,
            action=GameChange.Action.RECORD,
            deal_number=number,
            after=list(sheet.cards_left),
        )
        recompute(locked)
    return deal, locked


@dataclass(frozen=True, slots=True)
class TokenUse:
    """Where a deal form's token was used: the deal it recorded, or (`deal_id` None) the
    number of the deal recorded with it and undone since."""

    game_id: int
    number: int
    deal_id: int | None


def _token_use(token: uuid.UUID) -> TokenUse | None:
    """The deal recorded with `token`, or the undo that spent it (one query for both)."""
    recorded = (
        Deal.objects.filter(token=token)
        .order_by()
        .annotate(deal_id=F("pk"))
        .values_list("game_id", "number", "deal_id")
    )
    undone = (
        GameChange.objects.filter(token=token)
        .order_by()
        .annotate(deal_id=Value(None, output_field=BigIntegerField()))
        .values_list("game_id", "deal_number", "deal_id")
    )
    # Both at once only if a row was written by hand: the undo wins, the token is spent.
    rows = sorted(recorded.union(undone, all=True), key=lambda row: row[2] is not None)
    return TokenUse(*rows[0]) if rows else None


def _same_deal(game: Game, deal_id: int, sent: DealResult) -> Deal:
    """The deal the form recorded, if what it sends now is what is stored; refused if not,
    saying what is stored (all the facts the form sends: cards left, and the twos)."""
    deal = Deal.objects.prefetch_related("scores__seat__player").get(pk=deal_id)
    scores = sorted(deal.scores.all(), key=lambda score: score.seat.position)
    stored = deal_sheet(
        game.ruleset,
        [score.cards_left for score in scores],
        deal.out_on_twos,
        [score.twos_held for score in scores],
    )
    twos = sent.twos_held or (0,) * len(sent.cards_left)
    cards = [int(count) for count in sent.cards_left]
    sent = deal_sheet(game.ruleset, cards, sent.out_on_twos, [int(held) for held in twos])
    if sent != stored:
        recorded = ", ".join(f"{score.seat.player.name} {score.cards_left}" for score in scores)
        raise DealRecordedDifferently(
            _(
                "Deal %(number)s is already recorded as %(cards)s;"
                " edit deal %(number)s to change it."
            )
            % {"number": deal.number, "cards": recorded}
        )
    return deal


def undo_last_deal(*, game: Game, by: AbstractBaseUser, number: int | None = None) -> int:
    """Take back the last deal and return its number.

    `number`, when given, is the deal the user confirmed undoing: if that deal is no longer the
    last (a double tap, or someone else undid or recorded meanwhile) nothing more is undone.
    """
    with transaction.atomic():
        locked = _lock(game)
        last = (
            Deal.objects.filter(game=locked)
            .order_by("-number")
            .prefetch_related("scores__seat")
            .first()
        )
        if last is None:
            raise ScoringError(_("There is no deal to undo"))
        if number is not None and last.number != number:
            raise ScoringError(
                (
                    _("Deal %(number)s is no longer the last deal, so nothing was undone")
                    if number < last.number
                    else _("Deal %(number)s was already undone")
                )
                % {"number": number}
            )
        before = _cards_of(last)
        undone = last.number
        last.delete()
        # Taking a deal back reopens a match the scorekeeper had ended: it ended on that deal.
        locked.ended = False
        locked.save(update_fields=["ended"])
        # The line keeps the deal form's token: that form sent again records nothing.
        GameChange.objects.create(
            game=locked,
            by=by,
            action=GameChange.Action.UNDO,
            deal_number=undone,
            before=before,
            token=last.token,
        )
        recompute(locked)
    _refresh(game, locked)
    return undone


def edit_deal(
    *,
    game: Game,
    number: int,
    cards_left: Sequence[int],
    by: AbstractBaseUser,
    out_on_twos: bool = False,
    twos_held: Sequence[int] | None = None,
) -> Deal:
    """Correct the cards left (and twos) of a recorded deal; totals and the end are worked out
    again.

    Refused when the corrected deals would end the game before its last recorded deal.
    """
    with transaction.atomic():
        locked = _lock(game)
        deal = (
            Deal.objects.filter(game=locked, number=number).prefetch_related("scores__seat").first()
        )
        if deal is None:
            raise ScoringError(_("There is no deal %(number)s in this game") % {"number": number})
        seats = list(locked.seats.select_related("player").order_by("position"))
        sheet = DealResult(tuple(cards_left), out_on_twos, _tuple_or_none(twos_held))
        sheet = _checked(sheet, seats, locked)
        before = _cards_of(deal)
        every_deal = _cards_by_deal(locked)
        if every_deal[number] == sheet:
            return deal
        every_deal[number] = sheet
        replayed = _replay(locked, every_deal)
        if replayed.ends_before_last_deal:
            raise ScoringError(
                _(
                    "With this change the game would have ended after deal %(after)s,"
                    " but %(count)s deals are recorded — undo the later deals first"
                )
                % {"after": replayed.finished_after, "count": len(replayed.deals)}
            )
        scores = sorted(deal.scores.all(), key=lambda score: score.seat.position)
        for score, count, points, twos in zip(
            scores, sheet.cards_left, _penalties(locked, sheet), _twos(sheet), strict=True
        ):
            score.cards_left, score.penalty, score.twos_held = count, points, twos
        DealScore.objects.bulk_update(scores, ["cards_left", "penalty", "twos_held"])
        if deal.out_on_twos != sheet.out_on_twos:
            deal.out_on_twos = sheet.out_on_twos
            deal.save(update_fields=["out_on_twos"])
        GameChange.objects.create(
            game=locked,
            by=by,
            action=GameChange.Action.EDIT,
            deal_number=number,
            before=before,
            after=list(sheet.cards_left),
        )
        recompute(locked)
    _refresh(game, locked)
    return deal


def end_match(*, game: Game, by: AbstractBaseUser) -> None:
    """Bank an open-ended match's totals: the lowest alone wins.

    Refused while the lowest total is shared — one more deal settles it — and under rules
    whose matches end by themselves.
    """
    if game.ruleset.finish is not Finish.OPEN:
        raise ScoringError(_("This game ends by itself under its rules; there is nothing to end"))
    with transaction.atomic():
        locked = _lock(game)
        if locked.is_finished:
            raise ScoringError(_("The match is already over"))
        if not Deal.objects.filter(game=locked).exists():
            raise ScoringError(_("Record a deal before ending the match"))
        locked.ended = True
        locked.save(update_fields=["ended"])
        replayed = recompute(locked)
        if not replayed.outcome.finished:
            seats = locked.seats.select_related("player").order_by("position")
            names = [seat.player.name for seat in seats]
            tied = [names[position] for position in replayed.outcome.lowest]
            raise ScoringError(
                _("%(names)s are tied for lowest — play one more deal, then end the match")
                % {"names": _and(tied)}
            )
        GameChange.objects.create(
            game=locked,
            by=by,
            action=GameChange.Action.END,
            deal_number=len(replayed.deals),
            after=list(replayed.totals),
        )
    _refresh(game, locked)


SEAT_FIGURES = ("total", "deals_played", "deals_won", "thirteens")


def seat_figures(replayed: GameReplay, position: int, rules: RuleSet) -> dict[str, int]:
    """What a seat stores about its game, derived from the deals (see `recompute`)."""
    held = [deal.cards_left[position] for deal in replayed.deals]
    return {
        "total": replayed.totals[position],
        "deals_played": len(held),
        "deals_won": held.count(0),
        "thirteens": held.count(rules.hand_size),
    }


def recompute(game: Game) -> GameReplay:
    """Derive seat totals, status, winner and end time from the deals, and store them.

    The one function that writes those fields. Call it inside the transaction that changed
    the deals, with the locked game row: it also counts the game's `version` up by one, which
    tells the phones following the game that there is something new to show.
    """
    by_deal, recorded_at = _sheets(game)
    replayed = _replay(game, by_deal)
    seats = list(Seat.objects.filter(game=game).order_by("position"))
    for position, seat in enumerate(seats):
        for field, value in seat_figures(replayed, position, game.ruleset).items():
            setattr(seat, field, value)
    Seat.objects.bulk_update(seats, list(SEAT_FIGURES))
    if replayed.finished_after is not None:
        game.status = Game.Status.FINISHED
        game.winner_id = seats[replayed.winner].player_id
        game.finished_at = recorded_at[replayed.finished_after]
    else:
        game.status = Game.Status.IN_PROGRESS
        game.winner_id = None
        game.finished_at = None
    game.version += 1
    game.save(update_fields=["status", "winner", "finished_at", "version"])
    season_changed(game.season_id)
    return replayed


def season_changed(*season_ids: int) -> None:
    """Count the seasons' `version` up: their pages, cached under it, are out of date.

    Call it in the transaction that adds, removes, moves or rescores one of their games.
    """
    Season.objects.filter(pk__in=season_ids).update(version=F("version") + 1)


# Helpers


def _lock(game: Game) -> Game:
    """The game row, locked until the transaction ends (PostgreSQL; SQLite locks the file)."""
    return Game.objects.select_for_update().get(pk=game.pk)


def _refresh(game: Game, locked: Game) -> None:
    """Let the caller's game object see what was just written."""
    game.status, game.winner_id, game.finished_at, game.version, game.ended = (
        locked.status,
        locked.winner_id,
        locked.finished_at,
        locked.version,
        locked.ended,
    )


def _last_number(game: Game) -> int:
    return Deal.objects.filter(game=game).aggregate(last=Max("number"))["last"] or 0


def _tuple_or_none(values: Sequence[int] | None) -> tuple[int, ...] | None:
    return None if values is None else tuple(int(value) for value in values)


def _twos(sheet: DealResult) -> tuple[int, ...]:
    return sheet.twos_held or (0,) * len(sheet.cards_left)


def _penalties(game: Game, sheet: DealResult) -> list[int]:
    return [
        penalty(cards, game.ruleset, out_on_twos=sheet.out_on_twos, twos_held=twos)
        for cards, twos in zip(sheet.cards_left, _twos(sheet), strict=True)
    ]


def _checked(sheet: DealResult, seats: Sequence[Seat], game: Game) -> DealResult:
    sheet = DealResult(
        tuple(int(count) for count in sheet.cards_left), sheet.out_on_twos, sheet.twos_held
    )
    counts = [len(sheet.cards_left)] + ([len(sheet.twos_held)] if sheet.twos_held else [])
    if any(count != len(seats) for count in counts):
        raise ScoringError(
            _("Enter the cards left for all %(count)s players") % {"count": len(seats)}
        )
    problems = validate_deal(
        sheet.cards_left,
        [seat.player.name for seat in seats],
        game.ruleset,
        out_on_twos=sheet.out_on_twos,
        twos_held=sheet.twos_held,
    )
    if problems:
        raise InvalidDeal(problems)
    return sheet


def _cards_of(deal: Deal) -> list[int]:
    return [score.cards_left for score in sorted(deal.scores.all(), key=lambda s: s.seat.position)]


def _cards_by_deal(game: Game) -> dict[int, DealResult]:
    return _sheets(game)[0]


def _sheets(game: Game) -> tuple[dict[int, DealResult], dict[int, datetime.datetime]]:
    """Every deal's score sheet by number, as the rules read it, and when each was recorded."""
    rows = (
        DealScore.objects.filter(deal__game=game)
        .order_by("deal__number", "seat__position")
        .values_list(
            "deal__number", "deal__recorded_at", "deal__out_on_twos", "cards_left", "twos_held"
        )
    )
    cards: dict[int, list[int]] = {}
    twos: dict[int, list[int]] = {}
    out_on_twos: dict[int, bool] = {}
    recorded_at: dict[int, datetime.datetime] = {}
    for number, at, out, count, held in rows:
        cards.setdefault(number, []).append(count)
        twos.setdefault(number, []).append(held)
        out_on_twos[number], recorded_at[number] = out, at
    sheets = {
        number: deal_sheet(game.ruleset, counts, out_on_twos[number], twos[number])
        for number, counts in cards.items()
    }
    return sheets, recorded_at


def deal_sheet(
    rules: RuleSet, cards_left: Sequence[int], out_on_twos: bool, twos_held: Sequence[int]
) -> DealResult:
    """A stored deal as the rules read it: the twos held count only under the stronger twos
    rule (the rows keep 0 for them otherwise)."""
    counted = tuple(twos_held) if rules.twos is TwosRule.EACH_TWO else None
    return DealResult(tuple(cards_left), out_on_twos, counted)


def _replay(game: Game, by_deal: dict[int, DealResult]) -> GameReplay:
    deals = [by_deal[number] for number in sorted(by_deal)]
    return replay(deals, game.ruleset, players=game.ruleset.players, ended=game.ended)


def _and(items: Sequence[str]) -> str:
    if len(items) == 1:
        return items[0]
    return _("%(items)s and %(last)s") % {"items": ", ".join(items[:-1]), "last": items[-1]}
