"""Every way a name arrives (a new game's seats, a rename, a club's or season's name, a score
file) refuses one hiding characters, and takes a name that looks like a roster name for that
player: "Ben" and "Ben\u200b", "Ann" and "Аnn" (a Cyrillic А) are one name."""

from __future__ import annotations

import datetime

import pytest

from scoring import services
from scoring.imports.preview import preview_import
from scoring.imports.readers import read_score_file
from scoring.imports.sheet import Holds
from scoring.migrations import __path__ as migrations_path
from scoring.models import ClubChange, Game, Player, Season
from tests.factories import make_game, make_user
from tests.scoring.imports.samples import keepscore_backup, upload

pytestmark = pytest.mark.django_db

CYRILLIC_ANN = "\u0410nn"


def roster(club) -> list[str]:
    return sorted(club.players.values_list("name", flat=True))


def test_a_seat_hiding_a_zero_width_space_is_refused_naming_it(club):
    with pytest.raises(services.ScoringError) as refused:
        make_game(club, ("Ann", "Ben\u200b", "Cy", "Dee"))
    assert refused.value.message.startswith("Seat 2: A name can’t hold invisible")
    assert "U+200B ZERO WIDTH SPACE" in refused.value.message
    assert not Game.objects.exists() and roster(club) == []


@pytest.mark.parametrize("alike", ["Ben\u200b", "Be\u00adn", "\u202eBen"])
def test_ben_and_a_ben_hiding_a_character_never_sit_at_one_table(club, alike):
    with pytest.raises(services.ScoringError):
        make_game(club, ("Ben", alike, "Cy", "Dee"))
    assert not Game.objects.exists()


def test_ann_and_a_cyrillic_ann_cant_sit_at_one_table(club):
    with pytest.raises(services.ScoringError, match="Аnn looks just like Ann"):
        make_game(club, ("Ann", CYRILLIC_ANN, "Cy", "Dee"))
    assert not Game.objects.exists()


def test_a_seat_that_looks_like_a_roster_name_is_that_player(club, game):
    again = make_game(club, (CYRILLIC_ANN, "BEN", "Ｃｙ", "Dee"))
    assert [seat.player for seat in again.seats.order_by("position")] == [
        seat.player for seat in game.seats.order_by("position")
    ]
    assert roster(club) == ["Ann", "Ben", "Cy", "Dee"]


def test_a_new_players_name_is_kept_in_nfkc(club):
    make_game(club, ("Ａｎｎ", "Ben", "Cy", "Dee"))
    assert roster(club) == ["Ann", "Ben", "Cy", "Dee"]


def test_a_rename_to_a_name_that_looks_like_another_players_points_at_merge(club, game):
    ben = club.players.get(name="Ben")
    with pytest.raises(services.ScoringError, match="already a player called Ann"):
        services.rename_player(player=ben, name=CYRILLIC_ANN, by=club.owner)
    with pytest.raises(services.ScoringError, match=r"U\+00AD SOFT HYPHEN"):
        services.rename_player(player=ben, name="Be\u00adn", by=club.owner)
    assert roster(club) == ["Ann", "Ben", "Cy", "Dee"]


def test_a_renamed_player_is_found_by_their_new_name_however_it_is_typed(club, game):
    services.rename_player(player=club.players.get(name="Ann"), name="Anna", by=club.owner)
    again = make_game(club, ("ANNA", "Ben", "Cy", "Dee"))
    assert again.seats.get(position=0).player.name == "Anna"


@pytest.mark.parametrize("hidden", ["\u202e", "\u200b", "\x07"])
def test_club_and_season_names_hiding_a_character_are_refused(owner, club, hidden):
    with pytest.raises(services.ScoringError, match="invisible or control characters"):
        services.create_club(name=f"Friday{hidden} table", owner=owner)
    with pytest.raises(services.ScoringError, match="invisible or control characters"):
        services.start_season(
            club=club, name=f"Spring{hidden}", starts_on=datetime.date(2026, 3, 1), by=owner
        )
    assert Season.objects.filter(club=club).count() == 1


def test_a_score_file_naming_a_player_with_a_hidden_character_is_refused(club):
    sheet = read_score_file("Ann,Ben\u200b,Cy,Dee\n0,4,10,13\n".encode(), holds=Holds.CARDS_LEFT)
    preview = preview_import(club, club.seasons.get(), sheet)
    assert not preview.can_import
    assert "U+200B ZERO WIDTH SPACE" in preview.problems[0].message


def test_keepscore_character_references_get_no_control_character_past_the_check(club):
    backup = keepscore_backup(
        ("Friday", {"Ann": "0,4", "Ben&#x9F;": "4,0", "Cy&#x202E;": "9,9", "Dee": "13,13"})
    )
    preview = preview_import(club, club.seasons.get(), read_score_file(backup))
    assert not preview.can_import
    assert any("U+009F" in problem.message for problem in preview.problems)


def test_a_score_files_names_are_matched_to_the_roster_as_seats_are(club, game):
    sheet = read_score_file(f"{CYRILLIC_ANN},BEN,Cy,Dee\n0,4,10,13\n".encode())
    preview = preview_import(club, club.seasons.get(), sheet)
    ann, ben = (club.players.get(name=name).pk for name in ("Ann", "Ben"))
    assert [seat.player_id for seat in preview.games[0].seats[:2]] == [ann, ben]


def test_the_migration_settles_clashing_names_without_losing_or_merging_anyone(club):
    """Players named before these rules: a name hiding a character loses it, and one that
    then looks like an earlier player's is numbered, each a line of the club's history."""
    settle_names = migration_function("0016_player_name_key", "settle_names")
    for number, name in enumerate(["Ben", "Ben\u200b", "\u200b", CYRILLIC_ANN, "Ann"]):
        Player.objects.create(club=club, name=name, name_key=f"old {number}")
    settle_names(django_apps(), None)
    assert list(club.players.order_by("pk").values_list("name", "name_key")) == [
        ("Ben", "ben"),
        ("Ben (2)", "ben (2)"),
        ("Player", "player"),
        (CYRILLIC_ANN, "ann"),
        ("Ann (2)", "ann (2)"),
    ]
    assert sorted(change.summary() for change in ClubChange.objects.filter(club=club)) == [
        "Someone renamed the player Ann to Ann (2)",
        "Someone renamed the player Ben\u200b to Ben (2)",
        "Someone renamed the player \u200b to Player",
    ]


def migration_function(module: str, name: str):
    import importlib

    assert migrations_path
    return getattr(importlib.import_module(f"scoring.migrations.{module}"), name)


def django_apps():
    from django.apps import apps

    return apps


def test_a_club_made_by_someone_else_keeps_its_own_names(club):
    make_game(club)
    other = services.create_club(name="Other", owner=make_user())
    make_game(other, (CYRILLIC_ANN, "Ben", "Cy", "Dee"))
    assert roster(other) == sorted([CYRILLIC_ANN, "Ben", "Cy", "Dee"])


def test_a_new_season_for_a_score_file_hiding_a_character_in_its_name_is_refused(
    owner_client, club
):
    response = upload(owner_client, club, season="new", season_name="Spring\u202e")
    assert "U+202E RIGHT-TO-LEFT OVERRIDE" in response.content.decode()
    assert Season.objects.filter(club=club).count() == 1
