"""export_club and import_club: a club's backup restores every total, standing and history."""

import datetime
import json
import random
import uuid
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from rules.ruleset import parse_rules
from scoring import services
from scoring.demo import seed_season
from scoring.models import Club, Deal, DealScore, Game, GameChange, Membership, Player, Season, Seat
from scoring.standings import standings
from tests.scoring.conftest import make_club, make_game, make_member, record


def snapshot(club: Club) -> dict:
    """What a club would notice if a restore got anything wrong."""
    games = Game.objects.filter(club=club).order_by("pk")
    club.refresh_from_db()
    return {
        "currency": club.currency,
        "rules": list(club.seasons.order_by("pk").values_list("rules", "stake")),
        "game rules": list(games.values_list("rules", "stake", "ended")),
        "twos": list(
            DealScore.objects.filter(deal__game__club=club)
            .order_by("deal__game_id", "deal__number", "seat__position")
            .values_list("deal__out_on_twos", "twos_held")
        ),
        "members": sorted(m.user.username for m in club.memberships.select_related("user")),
        "players": sorted(club.players.values_list("name", flat=True)),
        "seasons": list(club.seasons.order_by("pk").values_list("name", "starts_on", "is_current")),
        "games": [
            (g.pk, g.season.name, g.status, g.winner and g.winner.name, g.finished_at)
            for g in games.select_related("season", "winner")
        ],
        "seats": list(
            Seat.objects.filter(game__club=club)
            .order_by("game", "position")
            .values_list("game", "player__name", "total", "deals_played", "deals_won", "thirteens")
        ),
        "deals": list(
            DealScore.objects.filter(deal__game__club=club)
            .order_by("deal__game", "deal__number", "seat__position")
            .values_list("deal__game", "deal__number", "cards_left", "penalty", "deal__token")
        ),
        "history": [
            (c.game_id, c.summary(), c.at) for c in GameChange.objects.filter(game__club=club)
        ],
        "standings": [
            {season.name: standings(season.games.all())} for season in club.seasons.all()
        ],
    }


def wipe() -> None:
    for model in (GameChange, DealScore, Deal, Seat, Game, Season, Player, Membership, Club):
        model.objects.all().delete()
    get_user_model().objects.all().delete()


@pytest.mark.django_db(transaction=True)
def test_a_club_round_trips_through_export_and_import(tmp_path, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    club = make_club(name="Friday table")
    member = make_member(club, "bo")
    seed_season(
        season=club.seasons.get(),
        by=club.owner,
        games=6,
        rng=random.Random(7),
        player_names=["Ann", "Ben", "Cy", "Dee", "Eve"],
    )
    game = make_game(club, ("Ann", "Ben", "Cy", "Dee"), by=member)
    record(game, 0, 3, 10, 13, by=member)
    services.edit_deal(game=game, number=1, cards_left=[0, 4, 10, 13], by=club.owner)
    # A season of house rules, played for money, with a match ended by hand.
    services.start_season(
        club=club,
        name="Manila",
        starts_on=datetime.date(2027, 1, 1),
        rules=parse_rules("pusoy-dos,twos-double-each,open-ended"),
        stake=Decimal("0.125"),
        currency="PHP",
        by=club.owner,
    )
    manila = make_game(club, ("Ann", "Ben", "Cy", "Dee"))
    services.record_deal(
        game=manila,
        number=1,
        cards_left=[0, 9, 5, 1],
        out_on_twos=True,
        twos_held=[0, 2, 0, 0],
        token=uuid.uuid4(),
        by=club.owner,
    )
    services.end_match(game=manila, by=club.owner)
    before = snapshot(club)
    assert before["twos"][-3:] == [(True, 2), (True, 0), (True, 0)]
    path = tmp_path / "friday.json"

    call_command("export_club", str(club.pk), output=str(path))
    wipe()
    call_command("import_club", str(path))

    restored = Club.objects.get()
    assert snapshot(restored) == before
    assert get_user_model().objects.get(username="bo").check_password("a long passphrase 7")
    # Ids keep counting after the restored rows (PostgreSQL's sequences were moved on).
    assert make_game(restored).pk > max(pk for pk, *_ in before["games"])


def test_export_finds_a_club_by_name_and_refuses_an_unknown_one(db, capsys):
    club = make_club(name="Friday table")
    call_command("export_club", "Friday table")
    assert json.loads(capsys.readouterr().out)["club"] == club.name
    with pytest.raises(CommandError, match="No single club"):
        call_command("export_club", "Nobody's club")


def test_import_refuses_a_database_that_already_holds_the_club(db, tmp_path):
    club = make_club(name="Friday table")
    path = tmp_path / "backup.json"
    call_command("export_club", str(club.pk), output=str(path))
    with pytest.raises(CommandError, match="already exist"):
        call_command("import_club", str(path))
    assert Club.objects.count() == 1


def test_import_refuses_a_file_that_is_not_a_backup(db, tmp_path):
    path = tmp_path / "notes.json"
    path.write_text('{"hello": 1}')
    with pytest.raises(CommandError, match="not a club backup"):
        call_command("import_club", str(path))
    path.write_text("not json at all")
    with pytest.raises(CommandError, match="not a backup file"):
        call_command("import_club", str(path))
