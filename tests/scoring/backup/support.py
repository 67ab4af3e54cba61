"""What the backup tests share: a club with something of everything a backup holds, backup
files written by earlier versions of the site, and a database emptied as a new site's would be."""

import datetime
import random
from decimal import Decimal
from pathlib import Path

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management.color import no_style
from django.db import connection

from rules.ruleset import parse_rules
from scoring import services
from scoring.models import Club
from scoring.services.demo import seed_season
from tests.factories import make_club, make_game, make_member, make_user, record

DATA = Path(__file__).parent / "data"
# Version 1, and version 2 as export_club wrote it by hand before it used Django's serializer
# (`build_club("a")` with its passwords, ids counted from 1).
VERSION_1_FILE = DATA / "club-backup-v1.json"
VERSION_2_FILE = DATA / "club-backup-v2.json"


def empty_the_database(*, restart_ids: bool = False) -> None:
    """Delete every club and account; with `restart_ids`, ids count from 1 again, as they
    would on a new site."""
    tables = [model._meta.db_table for model in apps.get_app_config("scoring").get_models()]
    tables.append(get_user_model()._meta.db_table)
    connection.check_constraints()  # PostgreSQL truncates no table with link checks pending
    connection.ops.execute_sql_flush(
        connection.ops.sql_flush(
            no_style(), tables, reset_sequences=restart_ids, allow_cascade=True
        )
    )


def build_club(prefix: str, *, games: int = 0) -> Club:
    """A club with something of everything a backup holds; its accounts are named `prefix`-…

    A member with a full name and address, another who recorded a deal and then left the
    club (their account is named only by the history), finished and unfinished games, an
    edit and an undo, a shared game, a season of house rules played for money with a
    match ended by hand, and the club's own history: players renamed, merged and removed,
    a member removed, the club handed on and back.
    """
    club = make_club(make_user(f"{prefix}-ann"), name=f"{prefix} table")
    member = make_member(club, f"{prefix}-bo")
    member.first_name, member.last_name, member.email = "Bo", "Chan", f"{prefix}-bo@example.com"
    member.save()
    leaver = make_member(club, f"{prefix}-cy")
    if games:
        seed_season(
            season=club.seasons.get(),
            by=club.owner,
            games=games,
            rng=random.Random(7),
            player_names=["Ann", "Ben", "Cy", "Dee", "Eve"],
        )
    game = make_game(club, ("Ann", "Ben", "Cy", "Dee"), by=member)
    record(game, 0, 3, 10, 13, by=member)
    record(game, 5, 0, 2, 1, by=leaver)
    record(game, 2, 2, 0, 7)
    services.edit_deal(game=game, number=1, cards_left=[0, 4, 10, 13], by=club.owner)
    services.undo_last_deal(game=game, by=member, number=3)
    services.share_game(game=game, by=member)
    services.leave_club(club=club, user=leaver)
    # The club's own history: a player renamed, a mistyped one merged, one who never played
    # removed, a member removed (named by the history only), the club handed on and back.
    typo = make_game(club, ("Anne", "Ben", "Cy", "Eve"), by=member)
    record(typo, 0, 4, 4, 4, by=member)
    services.merge_player(
        player=club.players.get(name="Anne"), into=club.players.get(name="Ann"), by=member
    )
    services.rename_player(player=club.players.get(name="Eve"), name="Evie", by=member)
    # Members who said which player they are: one still, one undone by the owner.
    services.claim_player(player=club.players.get(name="Ben"), by=member)
    services.claim_player(player=club.players.get(name="Ann"), by=club.owner)
    services.unlink_player(player=club.players.get(name="Ann"), by=club.owner)
    services.delete_game(game=make_game(club, ("Zed", "Ben", "Cy", "Dee")), by=club.owner)
    services.remove_player(player=club.players.get(name="Zed"), by=club.owner)
    services.remove_member(club=club, member=make_member(club, f"{prefix}-dee"), by=club.owner)
    owner = club.owner
    services.make_owner(club=club, member=member, by=owner)
    services.make_owner(club=club, member=owner, by=member)
    services.start_season(
        club=club,
        name="Manila",
        starts_on=datetime.date(2027, 1, 1),
        rules=parse_rules("pusoy-dos,twos-double-each,open-ended"),
        stake=Decimal("0.125"),
        currency="PHP",
        by=club.owner,
    )
    manila = make_game(club)
    record(manila, 0, 9, 5, 1, out_on_twos=True, twos_held=[0, 2, 0, 0])
    services.end_match(game=manila, by=club.owner)
    # What the history keeps besides deals: a stake changed, a game moved, a season's rules.
    services.set_stake(game=game, stake=Decimal("0.10"), by=member)
    services.move_game(game=game, season=club.seasons.get(name="Manila"), by=club.owner)
    summer = services.start_season(
        club=club, name="Summer", starts_on=datetime.date(2027, 6, 1), by=club.owner
    )
    services.set_season_rules(
        season=summer, rules=parse_rules("flat-penalties"), stake=Decimal("0.05"), by=club.owner
    )
    return club
