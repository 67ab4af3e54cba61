"""Seasons: a new one (the current one from then on), and the rules of one not yet played in."""

from __future__ import annotations

import datetime
from decimal import Decimal

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from rules.options import Finish
from rules.presets import deals_to_finish, target_within
from rules.ruleset import DEFAULT_RULES, RuleSet
from scoring.models import (
    MOST_GAMES_TO_RANK,
    SEASON_NAME_MAX_LENGTH,
    Club,
    Season,
    SeasonChange,
    season_day_problem,
    stake_text,
)
from scoring.names import hidden_characters, hidden_problem, tidy_name
from scoring.services import permissions
from scoring.services.errors import ScoringError
from scoring.services.versions import seasons_changed


def season_name(typed: str) -> str:
    """The season's name as kept (`scoring.names.tidy_name`), or why it can't be."""
    name = tidy_name(typed)
    if not name:
        raise ScoringError(_("Give the season a name"))
    if (hidden := next(hidden_characters(name), None)) is not None:
        raise ScoringError(hidden_problem(hidden))
    if len(name) > SEASON_NAME_MAX_LENGTH:
        raise ScoringError(
            _("A season's name can be at most %(count)s characters")
            % {"count": SEASON_NAME_MAX_LENGTH}
        )
    return name


def start_season(
    *,
    club: Club,
    name: str,
    starts_on: datetime.date,
    ends_on: datetime.date | None = None,
    rules: RuleSet | None = None,
    stake: Decimal | None = None,
    currency: str | None = None,
    min_games: int = 0,
    by: AbstractBaseUser,
) -> Season:
    """Open a new season and make it the current one; new games go into it, played by
    `rules` (the standard rules if not given) with `stake` a point (none if not given).
    `currency`, when given, becomes the club's currency.

    The season it replaces, if it has no end date, ends the day before the new one starts
    (or on its own first day, if the new one starts as early).
    """
    permissions.check_may_start_season(club=club, by=by)
    name = season_name(name)
    for day in (starts_on, ends_on):
        if (problem := season_day_problem(day)) is not None:
            raise ScoringError(problem)
    if ends_on is not None and ends_on < starts_on:
        raise ScoringError(_("A season can't end before it starts — check the dates"))
    if not 0 <= min_games <= MOST_GAMES_TO_RANK:
        raise ScoringError(
            _("Rank players with at least 0 to %(most)s games") % {"most": MOST_GAMES_TO_RANK}
        )
    if (problem := match_length_problem(rules or DEFAULT_RULES)) is not None:
        raise ScoringError(problem)
    with transaction.atomic():
        Club.objects.select_for_update(no_key=True).get(pk=club.pk)
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
            min_games=min_games,
        )


def set_games_to_rank(*, season: Season, min_games: int, by: AbstractBaseUser) -> None:
    """Rank only players with at least `min_games` finished games in `season`, the others
    listed apart as "Not yet ranked". Allowed at any time, games played or not: it changes how
    the table is shown, never a score. Sending what the season has already changes nothing."""
    permissions.check_may_change_season_rules(season=season, by=by)
    if not 0 <= min_games <= MOST_GAMES_TO_RANK:
        raise ScoringError(
            _("Rank players with at least 0 to %(most)s games") % {"most": MOST_GAMES_TO_RANK}
        )
    with transaction.atomic():
        changed = (
            Season.objects.filter(pk=season.pk)
            .exclude(min_games=min_games)
            .update(min_games=min_games)
        )
        if changed:
            seasons_changed(season.pk)


def match_length_problem(rules: RuleSet) -> str | None:
    """Why a match by `rules` can't be played within the deals a game may have
    (settings.GAME_MAX_DEALS), or None if it can: an agreed number of deals above it, or a
    target that would take more deals than that (as `rules.presets.deals_to_finish` reckons).
    A game that reaches the bound all the same is refused its next deal (`record_deal`)."""
    most = settings.GAME_MAX_DEALS
    deals = deals_to_finish(rules)
    if deals is None or deals <= most:
        return None
    if rules.finish is Finish.DEALS:
        return _(
            "A game can have at most %(most)s deals, so a match can't be %(deals)s deals:"
            " choose %(most)s or fewer."
        ) % {"most": most, "deals": deals}
    return _(
        "A match to %(target)s would take about %(deals)s deals under %(scoring)s, and a game"
        " can have at most %(most)s: choose a target of at most %(highest)s."
    ) % {
        "target": rules.target,
        "deals": deals,
        "scoring": rules.scoring.label,
        "most": most,
        "highest": target_within(rules, most),
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
    permissions.check_may_change_season_rules(season=season, by=by)
    if (problem := match_length_problem(rules)) is not None:
        raise ScoringError(problem)
    with transaction.atomic():
        Club.objects.select_for_update(no_key=True).get(pk=season.club_id)
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
            seasons_changed(season.pk)
        if currency is not None:
            season.club.currency = currency.strip()
            season.club.save(update_fields=["currency"])
    season.rules, season.stake = rules.name, stake
