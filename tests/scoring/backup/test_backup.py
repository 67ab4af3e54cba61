"""export_club and import_club: a club's backup restores its whole history beside other clubs,
with new ids, and a file that holds anything else is refused whole, having written nothing."""

import copy
import dataclasses
import json
import stat
from decimal import Decimal

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group
from django.core.management import CommandError, call_command
from django.db import transaction
from django.db.models import JSONField, Model
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import services
from scoring.backup import CLUB_PARTS, BackupError, export_club, import_club, read
from scoring.backup.parts import Part
from scoring.models import (
    Club,
    ClubChange,
    DealFilling,
    DealScore,
    Game,
    GameChange,
    Membership,
    RatingsMark,
    RatingSnapshot,
    SeasonChange,
    Seat,
    SentFacts,
)
from scoring.selectors.standings import standings
from tests.concurrency import at_once, needs_postgres
from tests.factories import make_club, make_game, make_ruled_game, make_user, record, record_facts
from tests.scoring.backup.support import (
    VERSION_1_FILE,
    VERSION_2_FILE,
    build_club,
    empty_the_database,
)

User = get_user_model()
PASSWORD = "a long passphrase 7"


def snapshot(club: Club) -> dict:
    """What a club's members would see of it, without its ids."""
    club.refresh_from_db()
    games = Game.objects.filter(club=club).order_by("created_at", "pk")
    return {
        "club": (club.name, club.currency, club.invite_token),
        "members": sorted(
            (m.user.username, m.user.get_full_name(), m.user.email)
            for m in club.memberships.select_related("user")
        ),
        "players": sorted(club.players.values_list("name", "member__user__username")),
        "seasons": list(
            club.seasons.order_by("pk").values_list(
                "name", "starts_on", "is_current", "rules", "stake", "version"
            )
        ),
        "games": list(
            games.values_list(
                "season__name",
                "created_by__username",
                "status",
                "winner__name",
                "finished_at",
                "rules",
                "stake",
                "ended",
                "share_token",
                "version",
            )
        ),
        "seats": list(
            Seat.objects.filter(game__club=club)
            .order_by("game__created_at", "game", "position")
            .values_list("player__name", "total", "deals_played", "deals_won", "thirteens")
        ),
        "deals": list(
            DealScore.objects.filter(deal__game__club=club)
            .order_by("deal__game__created_at", "deal__game", "deal__number", "seat__position")
            .values_list(
                "deal__number",
                "deal__token",
                "deal__recorded_by__username",
                "deal__out_on_twos",
                "seat__player__name",
                "cards_left",
                "penalty",
                "twos_held",
            )
        ),
        "history": [
            (c.summary(), c.at)
            for c in GameChange.objects.filter(game__club=club).select_related("by")
        ],
        "season history": [
            (c.summary(), c.at)
            for c in SeasonChange.objects.filter(season__club=club).select_related("by")
        ],
        "club history": [
            (c.summary(), c.at) for c in ClubChange.objects.filter(club=club).select_related("by")
        ],
        "standings": [
            [
                dataclasses.replace(line, player_id=0)
                for line in standings(Game.objects.filter(season=season))
            ]
            for season in club.seasons.order_by("pk")
        ],
    }


def without_ids(text: str) -> dict:
    """A backup with every id, and every link to one, replaced by its place among its model's
    ids: a restore gives rows new ids in the order of the old ones."""
    document = json.loads(text)
    items = document["users"] + document["rows"]
    places: dict[str, dict[int, int]] = {}
    for label in {item["model"] for item in items}:
        ids = sorted(item["pk"] for item in items if item["model"] == label)
        places[label] = {pk: place for place, pk in enumerate(ids, start=1)}
    for item in items:
        model = apps.get_model(item["model"])
        item["pk"] = places[item["model"]][item["pk"]]
        for name, value in item["fields"].items():
            field = model._meta.get_field(name)
            if field.is_relation and value is not None:
                item["fields"][name] = places[field.related_model._meta.label_lower][value]
    return document


def ids_of(document: dict, label: str) -> set[int]:
    return {item["pk"] for item in document["rows"] + document["users"] if item["model"] == label}


def everything_countable() -> dict[str, int]:
    """How many rows each table a restore could touch holds."""
    counts = {
        model._meta.label: model.objects.count()
        for model in (*apps.get_app_config("scoring").get_models(), User, Group)
    }
    counts["groups of accounts"] = User.groups.through.objects.count()
    counts["permissions of accounts"] = User.user_permissions.through.objects.count()
    return counts


# A genuine backup, restored


@pytest.mark.django_db
@pytest.mark.parametrize("club_id_collides", [True, False], ids=["same club id", "other club id"])
def test_a_restore_beside_a_club_whose_ids_collide_changes_nothing_of_that_club(
    club_id_collides,
):
    """The bug: rows were saved with their old ids, overwriting the other club's players,
    games and a member's account (or the restore was refused when the club's id was taken)."""
    empty_the_database(restart_ids=True)
    if not club_id_collides:
        make_club(name="Another club first")  # shifts the club's id, not its players' or games'
    restored_club = build_club("a", games=2)
    backup = export_club(restored_club, with_passwords=True)
    expected = snapshot(restored_club)

    empty_the_database(restart_ids=True)
    beside = build_club("b", games=2)
    # Made the same way in a fresh database, the other club holds the backup's very ids.
    document = json.loads(backup)
    for label in ("scoring.player", "scoring.game", "scoring.dealscore", "auth.user"):
        here = set(apps.get_model(label).objects.values_list("pk", flat=True))
        assert ids_of(document, label) & here, label
    assert (beside.pk in ids_of(document, "scoring.club")) is club_id_collides
    beside_before = export_club(beside)
    beside_snapshot = snapshot(beside)

    club = import_club(backup)

    assert export_club(beside) == beside_before
    assert snapshot(beside) == beside_snapshot
    assert club.pk != beside.pk
    assert snapshot(club) == expected
    assert without_ids(export_club(club, with_passwords=True)) == without_ids(backup)
    assert User.objects.get(username="a-bo").check_password(PASSWORD)
    assert User.objects.get(username="b-bo").check_password(PASSWORD)
    # Ids keep counting from the database's own sequences: nothing needed moving on.
    newest = max(Game.objects.values_list("pk", flat=True))
    assert make_game(club).pk > newest
    assert make_club(name="Later").pk > club.pk


def test_restored_accounts_are_plain_active_accounts_with_their_names(db):
    club = build_club("a")
    club.owner.is_active = False
    club.owner.save()
    backup = export_club(club)
    empty_the_database()

    import_club(backup)

    restored = User.objects.order_by("username")
    assert [user.username for user in restored] == ["a-ann", "a-bo", "a-cy"]
    assert all(user.is_active and not user.is_staff and not user.is_superuser for user in restored)
    bo = restored.get(username="a-bo")
    assert (bo.get_full_name(), bo.email) == ("Bo Chan", "a-bo@example.com")
    # The member who left is named by the history again, but is no member.
    assert not Membership.objects.filter(user__username="a-cy").exists()
    assert any(c.summary().startswith("a-cy recorded deal 2") for c in GameChange.objects.all())


def test_the_command_line_restores_a_file_and_says_where_the_club_went(db, tmp_path, capsys):
    club = build_club("a")
    path = tmp_path / "friday.json"
    call_command("export_club", str(club.pk), output=str(path))
    empty_the_database()
    make_club(name="Already here")

    call_command("import_club", str(path))

    restored = Club.objects.get(name="a table")
    said = capsys.readouterr().out
    assert f"as club {restored.pk}" in said
    assert "3 games and 2 members" in said


def logs_in(username: str, password: str) -> bool:
    response = Client().post("/accounts/login/", {"username": username, "password": password})
    return response.status_code == 302


def test_a_backup_holds_no_password_hashes_unless_asked(db, tmp_path):
    """The bug: the file the README tells owners to keep held every account's password hash,
    a superuser's and that of a member who runs another club among them."""
    club = build_club("a")
    admin = User.objects.create_superuser("a-admin", password=PASSWORD)
    services.join_club(token=club.invite_token, user=admin)
    make_club(club.memberships.get(user__username="a-bo").user, name="Bo's own table")
    hashes = {user.username: user.password for user in User.objects.all()}
    path = tmp_path / "friday.json"

    call_command("export_club", str(club.pk), output=str(path))

    kept = path.read_text(encoding="utf-8")
    accounts = [user["fields"] for user in json.loads(kept)["users"]]
    assert {account["username"] for account in accounts} == {"a-ann", "a-bo", "a-cy", "a-admin"}
    assert not any("password" in account for account in accounts)
    assert not any(password in kept for password in hashes.values())

    call_command("export_club", str(club.pk), output=str(path), with_passwords=True)

    moved = {
        user["fields"]["username"]: user["fields"]["password"]
        for user in json.loads(path.read_text(encoding="utf-8"))["users"]
    }
    assert moved == {name: hashes[name] for name in moved}


def test_a_backup_file_is_readable_by_its_owner_alone(db, tmp_path):
    """Before, the file was written with the umask's mode (644): password hashes for anyone on
    the machine to read. A file already there, made by someone else's tools, is closed too."""
    club = build_club("a")
    path = tmp_path / "friday.json"
    call_command("export_club", str(club.pk), output=str(path), with_passwords=True)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600

    path.write_text("an older copy, much longer than the backup that overwrites it" * 10_000)
    path.chmod(0o644)
    call_command("export_club", str(club.pk), output=str(path), with_passwords=True)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert json.loads(path.read_text(encoding="utf-8"))["club"] == "a table"


def test_a_backup_is_never_written_through_a_symbolic_link(db, tmp_path):
    """A link planted where the backup goes would send the hashes wherever it points."""
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("not a backup")
    path = tmp_path / "friday.json"
    path.symlink_to(elsewhere)
    with pytest.raises(CommandError, match=r"friday.json is a symbolic link.*name the file"):
        call_command("export_club", str(build_club("a").pk), output=str(path), with_passwords=True)
    assert elsewhere.read_text() == "not a backup"
    assert path.is_symlink()


def test_a_member_restored_without_a_password_gets_in_by_the_owners_link(db, tmp_path, capsys):
    path = tmp_path / "friday.json"
    call_command("export_club", str(build_club("a").pk), output=str(path))
    empty_the_database()

    call_command("import_club", str(path))

    said = capsys.readouterr().out
    assert "The backup holds no passwords, so these members can't log in yet:" in said
    assert "- the owner: manage.py changepassword a-ann" in said
    assert "- a-bo: a-ann makes each a password reset link on the club's page" in said
    assert not logs_in("a-ann", PASSWORD) and not logs_in("a-bo", PASSWORD)
    owner = User.objects.get(username="a-ann")
    owner.set_password("the owner's new passphrase 3")  # what changepassword does
    owner.save()
    assert logs_in("a-ann", "the owner's new passphrase 3")
    club = Club.objects.get(name="a table")
    link = services.make_reset_link(club=club, member=User.objects.get(username="a-bo"), by=owner)
    bo = Client()
    opened = bo.get(f"/accounts/password/link/{club.pk}/{link.uidb64}/{link.token}/")
    new = "bo's own new passphrase 9"
    bo.post(opened["Location"], {"new_password1": new, "new_password2": new})
    assert logs_in("a-bo", new)


def test_a_version_1_backup_still_restores(db):
    """Files exported before version 2: accounts without names or addresses, and a member who
    left named by id only (their deals and history lines become someone's)."""
    make_club(name="Already here")
    here_before = {part.label: part.model.objects.count() for part in CLUB_PARTS}

    club = import_club(VERSION_1_FILE.read_text(encoding="utf-8"))

    assert (club.name, club.currency) == ("Friday table", "PHP")
    assert sorted(m.user.username for m in club.memberships.all()) == ["ann", "bo"]
    assert User.objects.get(username="ann").check_password(PASSWORD)
    summaries = [c.summary() for c in GameChange.objects.filter(game__club=club)]
    assert "Someone recorded deal 2: 5 0 2 1" in summaries
    assert "ann changed deal 1 from 0 3 10 13 to 0 4 10 13" in summaries
    manila = club.games.get(season__name="Manila")
    assert manila.is_finished and manila.ended and manila.stake == Decimal("0.125")
    assert manila.deals.get().out_on_twos
    # Every row of the file is restored, the derived totals as they were stored.
    document = json.loads(VERSION_1_FILE.read_text(encoding="utf-8"))
    for part in CLUB_PARTS:
        in_file = [row for row in document["rows"] if row["model"] == part.label]
        assert part.model.objects.count() == here_before[part.label] + len(in_file), part.label
    seat_totals = sorted(
        row["fields"]["total"] for row in document["rows"] if row["model"] == "scoring.seat"
    )
    assert sorted(Seat.objects.filter(game__club=club).values_list("total", flat=True)) == (
        seat_totals
    )
    assert not User.objects.filter(username="cy").exists()


# The fields added since the version 2 file was written, which a restore of it leaves empty: a
# game's clock (a club night's round), its last deal, whether it is played with own counts, and
# who entered each seat's figure of a deal, as its line in the history says it.
ADDED_SINCE_THE_FILE = {
    "scoring.game": {
        "closes_at": None,
        "last_deal": None,
        "start_token": None,
        "own_counts": False,
    },
    "scoring.dealscore": {"entered_by": None},
    "scoring.gamechange": {"senders": None},
}


def test_a_version_2_file_written_field_by_field_restores_and_is_written_back_the_same(db):
    """A file export_club wrote by hand, field by field, before it used Django's serializer:
    restored beside another club, every row and account comes back, and the club is written
    out again as the same document (ids aside)."""
    make_club(name="Already here")
    text = VERSION_2_FILE.read_text(encoding="utf-8")

    club = import_club(text)

    written = without_ids(export_club(club, with_passwords=True))
    for item in written["rows"]:
        for name, empty in ADDED_SINCE_THE_FILE.get(item["model"], {}).items():
            assert item["fields"].pop(name) == empty
    assert written == without_ids(text)
    assert User.objects.get(username="a-bo").check_password(PASSWORD)
    assert club.games.count() == 3


def test_export_finds_a_club_by_name_and_refuses_an_unknown_one(db, capsys):
    club = make_club(name="Friday table")
    call_command("export_club", "Friday table")
    assert json.loads(capsys.readouterr().out)["club"] == club.name
    with pytest.raises(CommandError, match="No single club"):
        call_command("export_club", "Nobody's club")


def test_every_model_of_the_scoring_app_is_in_a_club_backup():
    """A new model of the club needs its entry in backup.CLUB_PARTS, or it isn't backed up
    (unless worked out again from the others: the ratings, by scoring.services.ratings once
    the restore commits; nor a deal its players were still sending: it is recorded or not)."""
    left_out = {RatingsMark, RatingSnapshot, DealFilling, SentFacts}
    backed_up = {part.model for part in CLUB_PARTS} | left_out
    assert backed_up == set(apps.get_app_config("scoring").get_models())
    check_parts()


def check_parts() -> None:
    """Fail on a CLUB_PARTS that a backup couldn't carry whole."""
    earlier: set[type[Model]] = {User}
    assert CLUB_PARTS[0] == Part(Club, "pk"), "CLUB_PARTS starts with the club"
    for part in CLUB_PARTS:
        assert not part.model._meta.many_to_many, f"{part.label}: give its many-to-many a model"
        assert part.model._meta.pk.get_internal_type() in ("AutoField", "BigAutoField"), (
            f"{part.label} needs ids the database counts out"
        )
        for column in part.fields:
            where = f"{part.label}.{column.name}"
            if column.is_relation:
                assert column.related_model in earlier and column.target_field.primary_key, (
                    f"{where} must link by id to an account or a model earlier in CLUB_PARTS"
                )
            if isinstance(column, JSONField):
                # A JSON value's shape is the model's business, checked by full_clean().
                assert part.model.clean is not Model.clean, (
                    f"{where} holds JSON: check it in clean()"
                )
        earlier.add(part.model)


# Refusals: what is taken here, and files that fail halfway


@pytest.fixture
def victim(db):
    """An account and a club already here, which no restore may change."""
    user = make_user("victim")
    club = make_club(user, name="Victim's table")
    record(make_game(club), 0, 1, 2, 3)
    return user


@pytest.fixture(scope="module")
def genuine_backup(django_db_setup, django_db_blocker) -> str:
    """A genuine backup, made once for the module's eighty-odd tests of it (a club of
    everything takes a while to build): built and written out in a transaction, as in a test's;
    once that commits, every club and account is deleted again, ids counting on, as before."""
    with django_db_blocker.unblock():
        with transaction.atomic():
            backup = export_club(build_club("a"))
        empty_the_database()
    return backup


@pytest.fixture
def genuine(db, genuine_backup) -> dict:
    """A genuine backup of a club that isn't in this database (any more)."""
    return json.loads(genuine_backup)


def refused(document: dict, *words: str) -> str:
    """Restore `document`, see it refused, naming each of `words`, and return the message."""
    before = everything_countable()
    with pytest.raises(BackupError) as refusal:
        import_club(json.dumps(document))
    message = str(refusal.value)
    for word in words:
        assert word in message
    assert everything_countable() == before
    return message


def test_existing_usernames_are_refused_by_name_before_anything_is_written(genuine, victim):
    make_user("A-BO")  # usernames are unique ignoring case, as at sign-up
    make_user("a-cy")

    message = refused(genuine, "a-bo", "a-cy", "already exist")

    assert "a-ann" not in message
    assert User.objects.get(username="A-BO").check_password(PASSWORD)


def test_restoring_the_same_file_twice_is_refused_the_second_time(genuine, victim):
    text = json.dumps(genuine)
    import_club(text)
    with pytest.raises(BackupError, match="a-ann, a-bo, a-cy"):
        import_club(text)
    assert Club.objects.filter(name="a table").count() == 1


def test_a_copy_of_a_club_already_here_is_refused_by_its_tokens(genuine, victim):
    import_club(json.dumps(genuine))
    copied = copy.deepcopy(genuine)
    for account in copied["users"]:
        account["fields"]["username"] += "-copy"

    refused(copied, "invite_token", "token", "share_token")


def last(document: dict, label: str) -> dict:
    return [row for row in document["rows"] if row["model"] == label][-1]["fields"]


def number_a_late_deal_1(document: dict) -> None:
    """The last deal that isn't a game's first takes number 1, which its game already has."""
    deals = [row["fields"] for row in document["rows"] if row["model"] == "scoring.deal"]
    next(deal for deal in reversed(deals) if deal["number"] > 1)["number"] = 1


@pytest.mark.parametrize(
    "break_it",
    [
        pytest.param(lambda d: last(d, "scoring.dealscore").update(twos_held=2), id="check"),
        pytest.param(number_a_late_deal_1, id="unique"),
    ],
)
def test_a_file_the_database_refuses_halfway_writes_nothing(genuine, victim, break_it):
    """Its last rows break a constraint only the database checks: the rows before are undone."""
    last(genuine, "scoring.dealscore").update(cards_left=1, twos_held=0)
    break_it(genuine)

    refused(genuine, "nothing was written")


def two_players_alike(document: dict) -> None:
    players = [row["fields"] for row in document["rows"] if row["model"] == "scoring.player"]
    players[1]["name"] = players[0]["name"].upper()


def a_deal_token_twice(document: dict) -> None:
    deals = [row["fields"] for row in document["rows"] if row["model"] == "scoring.deal"]
    deals[1]["token"] = deals[0]["token"]


@pytest.mark.parametrize("repeat", [two_players_alike, a_deal_token_twice])
def test_a_value_the_file_repeats_where_it_must_be_unique_writes_nothing(genuine, victim, repeat):
    """Held by the database's unique constraints as the rows go in, not by the reading."""
    repeat(genuine)

    refused(genuine, "nothing was written")


def test_a_file_failing_halfway_through_the_command_line_writes_nothing(genuine, tmp_path):
    number_a_late_deal_1(genuine)
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(genuine))

    with pytest.raises(CommandError, match="nothing was written"):
        call_command("import_club", str(path))
    assert not Club.objects.exists()
    assert not User.objects.exists()


# Crafted files: refused whole, granting nothing


def first(document: dict, label: str) -> dict:
    return next(row for row in document["rows"] if row["model"] == label)


def grant(fields: dict) -> callable:
    return lambda document, victim: document["users"][0]["fields"].update(fields)


def replace_the_victims_account(document: dict, victim) -> None:
    document["rows"].append(
        {
            "model": "auth.user",
            "pk": victim.pk,
            "fields": {
                "username": "victim",
                "password": make_password("known to the attacker"),
                "is_superuser": True,
                "is_staff": True,
            },
        }
    )


def take_the_victims_username(document: dict, victim) -> None:
    document["users"][0]["fields"].update(
        username="victim", password=make_password("known to the attacker")
    )


def name_the_victim_in_the_history(document: dict, victim) -> None:
    first(document, "scoring.game")["fields"]["created_by"] = victim.pk + 1000
    first(document, "scoring.gamechange")["fields"]["by"] = victim.pk


def add_a_stranger(document: dict, victim) -> None:
    stranger = copy.deepcopy(document["users"][0])
    stranger["pk"] += 1000
    stranger["fields"]["username"] = "mallory"
    document["users"].append(stranger)


def add_a_group(document: dict, victim) -> None:
    document["rows"].append(
        {"model": "auth.group", "pk": 1, "fields": {"name": "admins", "permissions": [1, 2]}}
    )


def add_a_second_club(document: dict, victim) -> None:
    club = copy.deepcopy(first(document, "scoring.club"))
    club["pk"] += 1
    document["rows"].append(club)


def move_a_player_to_another_club(document: dict, victim) -> None:
    first(document, "scoring.player")["fields"]["club"] = Club.objects.get().pk


CRAFTED = [
    pytest.param(grant({"is_superuser": True}), ["is_superuser"], id="superuser"),
    pytest.param(grant({"is_staff": True}), ["is_staff"], id="staff"),
    pytest.param(grant({"groups": [1]}), ["groups"], id="groups"),
    pytest.param(grant({"user_permissions": [1, 2, 3]}), ["user_permissions"], id="permissions"),
    pytest.param(replace_the_victims_account, ["auth.user"], id="user row"),
    pytest.param(take_the_victims_username, ["victim", "already exist"], id="taken username"),
    pytest.param(name_the_victim_in_the_history, ["created_by", "by", "isn't in"], id="link"),
    pytest.param(add_a_stranger, ["mallory"], id="stranger"),
    pytest.param(add_a_group, ["auth.group"], id="group row"),
    pytest.param(add_a_second_club, ["2 clubs"], id="second club"),
    pytest.param(move_a_player_to_another_club, ["scoring.player", "club"], id="other club"),
    pytest.param(
        lambda d, v: first(d, "scoring.player")["fields"].update(owner=1), ["owner"], id="field"
    ),
    # Django's deserializer looks a link written as a natural key up among this site's accounts.
    pytest.param(
        lambda d, v: first(d, "scoring.game")["fields"].update(created_by=["victim"]),
        ["created_by", '["victim"]'],
        id="natural key",
    ),
]


@pytest.mark.parametrize(("craft", "named"), CRAFTED)
def test_a_crafted_file_grants_nothing_and_is_refused_naming_what_it_found(
    genuine, victim, craft, named
):
    """The bug: every field of every row was loaded, so a file made superusers and replaced
    another account's password."""
    victim_password = victim.password
    craft(genuine, victim)

    refused(genuine, *named)

    assert not User.objects.filter(is_superuser=True).exists()
    assert not User.objects.filter(is_staff=True).exists()
    victim.refresh_from_db()
    assert victim.password == victim_password
    assert victim.check_password(PASSWORD)


def test_a_username_sign_up_would_write_otherwise_is_refused(genuine, victim):
    """The bug: ｃａｒｏｌ (full-width) was restored as it was, and could never log in: the login
    form, as sign-up, reads what is typed as carol."""
    member = next(u for u in genuine["users"] if u["fields"]["username"] == "a-bo")
    member["fields"]["username"] = "ｃａｒｏｌ"

    refused(genuine, "(ｃａｒｏｌ)", "sign-up would write it 'carol'")


def test_a_club_whose_owner_is_not_a_member_is_refused(genuine, victim):
    """The bug: the club was restored, and was "not found" to its own owner."""
    owner = first(genuine, "scoring.club")["fields"]["owner"]
    genuine["rows"] = [
        row
        for row in genuine["rows"]
        if not (row["model"] == "scoring.membership" and row["fields"]["user"] == owner)
    ]

    refused(genuine, "the club's owner", "a-ann", "isn't one of its members")


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(genuine, tmp_path, settings):
    """The bug: a 95 MB file took 27 s to restore, holding SQLite's write lock throughout."""
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(genuine))
    settings.BACKUP_MAX_BYTES = path.stat().st_size - 1

    with pytest.raises(CommandError, match=r"huge.json is [\d.]+ MB: a restore takes at most"):
        call_command("import_club", str(path))
    assert not Club.objects.exists()
    settings.BACKUP_MAX_BYTES = path.stat().st_size
    call_command("import_club", str(path))
    assert Club.objects.get().name == "a table"


def test_a_version_1_file_is_read_as_strictly(victim):
    document = json.loads(VERSION_1_FILE.read_text(encoding="utf-8"))
    document["users"][0]["fields"].update(is_superuser=True, is_active=True)

    refused(document, "account 1 (ann) has is_superuser")

    assert not User.objects.filter(is_superuser=True).exists()


def test_reading_a_backup_asks_the_database_nothing(genuine, victim, django_assert_num_queries):
    """Every check of a file is made on the file alone: a link's row is found in it, not here
    (nor by a query per row, nor by a natural key), and a unique value is looked for here once,
    by the restore."""
    with django_assert_num_queries(0):
        read(json.dumps(genuine))
        first(genuine, "scoring.game")["fields"]["created_by"] = ["victim"]
        with pytest.raises(BackupError, match="created_by"):
            read(json.dumps(genuine))


def test_a_refusal_names_every_problem_it_found(genuine, victim):
    grant({"is_superuser": True, "groups": [1]})(genuine, victim)
    add_a_group(genuine, victim)
    first(genuine, "scoring.player")["fields"]["name"] = 7

    message = refused(genuine, "is_superuser", "groups", "auth.group", "name")

    assert message.count("\n- ") >= 3


# Strict shapes: anything malformed is a clear BackupError, never a traceback


def at(label: str, name: str, value: object) -> callable:
    def change(document: dict) -> None:
        first(document, label)["fields"][name] = value

    return change


def history(label: str, action: str, name: str, value: object) -> callable:
    """Set `name` of the first history line of `label` recording `action` to `value`."""

    def change(document: dict) -> None:
        line = next(
            row
            for row in document["rows"]
            if row["model"] == label
            and action in (row["fields"].get("action"), row["fields"].get("what"))
        )
        line["fields"][name] = value

    return change


def account(name: str, value: object) -> callable:
    return lambda document: document["users"][0]["fields"].update({name: value})


def top(name: str, value: object) -> callable:
    return lambda document: document.update({name: value})


MALFORMED = [
    (top("version", 3), "version 3"),
    (top("version", "2"), "version"),
    (top("users", {}), "users"),
    (top("rows", "everything"), "rows"),
    (top("club", ["a table"]), "club"),
    (top("comment", "hello"), "comment"),
    (lambda d: d.pop("rows"), "rows"),
    (lambda d: d["rows"].append(5), "rows item"),
    (lambda d: d["rows"].append({"model": "scoring.player", "pk": 99}), "fields"),
    (lambda d: first(d, "scoring.player").update(pk="1"), "pk"),
    (lambda d: first(d, "scoring.player").update(pk=True), "pk"),
    (lambda d: first(d, "scoring.player").update(fields=["Ann"]), "fields"),
    (lambda d: first(d, "scoring.player").update(model=None), "model"),
    (lambda d: first(d, "scoring.player").update(extra=1), "extra"),
    (lambda d: first(d, "scoring.club")["fields"].pop("name"), "name"),
    (at("scoring.player", "name", 5), "name"),
    (at("scoring.player", "name", ""), "name"),
    (at("scoring.player", "name", None), "name"),
    (at("scoring.player", "name", "x" * 41), "name"),
    (at("scoring.player", "name", "A\x00n"), "name"),
    (at("scoring.player", "name", "A\ud800n"), "name holds a character that isn't Unicode"),
    (at("scoring.player", "club", "1"), "club"),
    (at("scoring.season", "stake", 0.5), "stake"),
    (at("scoring.season", "stake", "lots"), "stake"),
    (at("scoring.season", "stake", "1e99"), "stake"),
    (at("scoring.season", "stake", "NaN"), "stake"),
    (at("scoring.season", "starts_on", "2027-02-30"), "starts_on"),
    (at("scoring.season", "rules", "nonsense"), "rules"),
    (at("scoring.game", "created_at", "yesterday"), "created_at"),
    (at("scoring.game", "created_at", "2026-11-29T19:30:00"), "time zone"),
    (at("scoring.game", "created_at", 5), "created_at can't be 5"),
    (at("scoring.game", "created_at", "9999-12-31T23:00:00-05:00"), "created_at"),
    (
        at("scoring.game", "created_at", "2026-11-29T19:30:00Z"),
        'written "2026-11-29T19:30:00+00:00',
    ),
    (at("scoring.game", "status", "won"), "status"),
    (at("scoring.game", "version", -1), "version"),
    (at("scoring.game", "version", 2**70), "version"),
    (at("scoring.seat", "position", True), "position should be written 1, not true"),
    (at("scoring.seat", "total", 10.0), "total should be written 10, not 10.0"),
    (at("scoring.deal", "token", "not-a-uuid"), "token"),
    (at("scoring.deal", "out_on_twos", "yes"), "out_on_twos"),
    (at("scoring.gamechange", "after", "0 1 2 3"), "after"),
    (at("scoring.gamechange", "after", [0, "1", 2, 3]), "after"),
    (at("scoring.gamechange", "before", {"cards": [0, 1, 2, 3]}), "before"),
    (history("scoring.gamechange", "stake", "after", [0, 1, 2, 3]), "after"),
    (history("scoring.gamechange", "stake", "after", "-1"), "after"),
    (history("scoring.gamechange", "move", "before", 7), "before"),
    (history("scoring.gamechange", "merge", "after", ""), "after"),
    (history("scoring.gamechange", "merge", "before", ["Anne"]), "before"),
    (at("scoring.clubchange", "action", "coup"), "action"),
    (at("scoring.clubchange", "name", ""), "name"),
    (at("scoring.clubchange", "new_name", "x" * 41), "new_name"),
    (history("scoring.clubchange", "leave", "new_name", "Ann"), "new_name"),
    (history("scoring.seasonchange", "rules", "after", "nonsense"), "after"),
    (history("scoring.seasonchange", "rules", "before", None), "before"),
    (history("scoring.seasonchange", "rules", "after", 5), "after"),
    (history("scoring.seasonchange", "stake", "before", "lots"), "before"),
    (account("username", "no spaces allowed"), "username"),
    (account("username", None), "username"),
    (account("password", 5), "password"),
    (account("last_login", "soon"), "last_login"),
    (account("email", "not an address"), "email"),
    (lambda d: d["users"][0]["fields"].pop("date_joined"), "date_joined"),
    (lambda d: d["users"].append(copy.deepcopy(d["users"][0])), "twice"),
]


@pytest.mark.parametrize(("malform", "named"), MALFORMED)
def test_a_malformed_file_is_refused_with_a_clear_message(genuine, victim, malform, named):
    malform(genuine)
    refused(genuine, named)


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("not json at all", "not a backup file"),
        ('{"hello": 1}', "not a club backup"),
        ("[]", "not a club backup"),
        ("[" * 100_000, "not a backup file"),
        ('{"format": "bigtwo-club-backup", "version": 1' + "9" * 5000 + "}", "not a backup"),
    ],
)
def test_a_file_that_is_not_a_backup_is_refused(db, tmp_path, text, named):
    path = tmp_path / "notes.json"
    path.write_text(text)
    with pytest.raises(CommandError, match=named):
        call_command("import_club", str(path))
    assert not Club.objects.exists()


def leaves(value: object, path: tuple = ()) -> list[tuple]:
    """The path to every value inside a JSON document, containers included."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += leaves(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += leaves(item, (*path, index))
    return found


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**64), max_value=2**64)
    | st.floats(allow_nan=False)
    | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3)
    ),
    max_leaves=6,
)


class RolledBack(Exception):
    pass


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_no_change_to_a_backup_makes_a_restore_fail_other_than_with_a_backup_error(
    genuine_once, data
):
    document = copy.deepcopy(genuine_once)
    path = data.draw(st.sampled_from(leaves(document)[1:]))
    parent = document
    for step in path[:-1]:
        parent = parent[step]
    if data.draw(st.booleans()) and isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent[path[-1]] = data.draw(json_values)
    try:
        with transaction.atomic():
            import_club(json.dumps(document))
            raise RolledBack
    except (BackupError, RolledBack):
        pass


@pytest.fixture
def genuine_once(genuine, victim):
    return genuine


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_the_same_file_restored_twice_at_once_is_restored_once():
    """Two restores racing: the usernames' unique index holds whichever inserts second until
    the first commits, then refuses it, and its transaction undoes everything it wrote. (One
    that starts after the first has committed is refused before writing, by the check that
    finds the backup's unique values here already: as good an answer, in other words.)"""
    text = export_club(build_club("a"))
    empty_the_database()
    make_club(name="Already here")

    def restore() -> str:
        import_club(text)
        return "restored"

    outcomes = at_once(restore, restore, refusals=(BackupError,), seconds=60)
    assert outcomes.count("done: restored") == 1, outcomes
    (refusal,) = [outcome for outcome in outcomes if outcome != "done: restored"]
    assert refusal.startswith("refused: ") and "nothing was written" in refusal.lower(), outcomes
    assert Club.objects.filter(name="a table").count() == 1
    assert User.objects.filter(username__startswith="a-").count() == 3
    assert Game.objects.count() == 3


def test_a_club_playing_by_finishing_order_restores(db):
    """The bug: a seat of a game whose rules ask no cards left keeps no count of full hands
    (thirteens null), and full_clean() refused every such seat ("cannot be blank"), so the
    backup of a club that ever played by finishing order or points could not be restored."""
    game = make_ruled_game("finishing-order")
    record_facts(game, order=(2, 0, 3, 1))
    backup = export_club(game.club)
    assert any(
        row["model"] == "scoring.seat" and row["fields"]["thirteens"] is None
        for row in json.loads(backup)["rows"]
    )
    empty_the_database()

    club = import_club(backup)

    assert without_ids(export_club(club)) == without_ids(backup)
