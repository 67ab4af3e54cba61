"""A club's backup carries who won each game, a win shared included, and a backup made before
wins could be shared still restores with each game's winner counted."""

from __future__ import annotations

import json

import pytest

from scoring import services
from scoring.backup import BackupError, export_club, import_club
from scoring.models import Game, Seat
from scoring.selectors.standings import standings
from tests.factories import make_club, make_ruled_game, record
from tests.scoring.backup.support import VERSION_1_FILE, empty_the_database


def a_club_with_a_win_shared_and_one_not():
    club = make_club(name="Shared wins")
    shared = make_ruled_game("open-ended", club=club)
    record(shared, 0, 5, 5, 5)
    record(shared, 5, 0, 5, 5)
    services.end_match(game=shared, by=club.owner, sharing=[0, 1])
    alone = make_ruled_game("open-ended", club=club, names=["Cy", "Ben", "Ann", "Dee"])
    record(alone, 0, 5, 5, 5)
    services.end_match(game=alone, by=club.owner)
    return club


def results(club) -> list[tuple]:
    """Each game's result and its winning seats, oldest first, without ids."""
    return [
        (
            game.status,
            game.winner.name if game.winner else None,
            game.win_shared,
            [seat.player.name for seat in game.seats.order_by("position") if seat.won],
        )
        for game in Game.objects.filter(club=club).order_by("created_at", "pk")
    ]


def wins(club) -> dict[str, int]:
    return {line.name: line.wins for line in standings(club.games.all())}


def without_winning_seats(text: str) -> str:
    """The backup as a site without shared wins wrote it: no `won`, no `win_shared`."""
    document = json.loads(text)
    for row in document["rows"]:
        row["fields"].pop("won", None)
        row["fields"].pop("win_shared", None)
    return json.dumps(document)


@pytest.mark.django_db
def test_a_win_shared_comes_back_from_a_backup():
    club = a_club_with_a_win_shared_and_one_not()
    expected = results(club)
    backup = export_club(club)

    empty_the_database()
    restored = import_club(backup)

    assert expected == [
        ("finished", None, True, ["Ann", "Ben"]),
        ("finished", "Cy", False, ["Cy"]),
    ]
    assert results(restored) == expected
    assert wins(restored) == {"Ann": 1, "Ben": 1, "Cy": 1, "Dee": 0}


@pytest.mark.django_db
def test_a_backup_made_before_wins_could_be_shared_restores_with_each_winner_counted():
    club = make_club(name="Older backup")
    game = make_ruled_game("open-ended", club=club)
    record(game, 0, 5, 5, 5)
    services.end_match(game=game, by=club.owner)
    backup = without_winning_seats(export_club(club))

    empty_the_database()
    restored = import_club(backup)

    assert results(restored) == [("finished", "Ann", False, ["Ann"])]
    assert wins(restored) == {"Ann": 1, "Ben": 0, "Cy": 0, "Dee": 0}


def test_the_version_1_backup_restores_with_its_winner_counted(db):
    club = import_club(VERSION_1_FILE.read_text(encoding="utf-8"))

    manila = club.games.get(season__name="Manila")
    won = Seat.objects.filter(game=manila, won=True)
    assert [seat.player_id for seat in won] == [manila.winner_id]
    assert not Seat.objects.filter(game__club=club, game__status="in_progress", won=True).exists()
    assert sum(line.wins for line in standings(Game.objects.filter(season=manila.season))) == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("change", "named"),
    [
        ("a loser marked as winning", "aren't those its result names"),
        ("the winner not marked", "aren't those its result names"),
        ("a win shared by one", "its win is shared, but one seat alone is lowest"),
    ],
)
def test_a_backup_whose_winning_seats_disagree_with_its_games_is_refused(change, named):
    club = a_club_with_a_win_shared_and_one_not()
    document = json.loads(export_club(club))
    seats = [row["fields"] for row in document["rows"] if row["model"] == "scoring.seat"]
    games = [row for row in document["rows"] if row["model"] == "scoring.game"]
    alone = next(row for row in games if not row["fields"]["win_shared"])
    alone_seats = [seat for seat in seats if seat["game"] == alone["pk"]]
    if change == "a loser marked as winning":
        next(seat for seat in alone_seats if not seat["won"])["won"] = True
    elif change == "the winner not marked":
        next(seat for seat in alone_seats if seat["won"])["won"] = False
    else:
        alone["fields"] |= {"win_shared": True, "winner": None}
    empty_the_database()

    with pytest.raises(BackupError, match=named):
        import_club(json.dumps(document))

    assert not Game.objects.exists()
