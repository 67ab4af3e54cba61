"""A club night's pages, as a phone asks them: the form (its refusals keep what was typed and
save nothing), the night page, its JSON, the TV board and a member's seat on the home page."""

from __future__ import annotations

import json
import re
import uuid

import pytest

from nights import services
from nights.models import Night
from scoring import services as scoring
from scoring.models import Player
from tests.factories import finish, make_member, record
from tests.nights.helpers import club_with_players, draw, games_of
from tests.pages import text

pytestmark = pytest.mark.django_db


def form(club, names, **fields):
    ids = [str(pk) for pk in club.players.filter(name__in=names).values_list("pk", flat=True)]
    return {
        "here": ids,
        "new_players": "",
        "rounds": "3",
        "round_minutes": "",
        "token": str(uuid.uuid4()),
    } | fields


def test_the_club_page_opens_the_night_form_with_a_box_per_player(client):
    club = club_with_players(5)
    client.force_login(club.owner)
    assert (
        f'href="/clubs/{club.pk}/nights/new/"' in client.get(f"/clubs/{club.pk}/").content.decode()
    )
    page = client.get(f"/clubs/{club.pk}/nights/new/").content.decode()
    for player in club.players.all():
        box = re.search(rf'<label class="tick" for="([^"]+)"><input[^>]*value="{player.pk}"', page)
        assert box and f'id="{box[1]}"' in page and player.name in page
    assert 'name="rounds"' in page and 'value="4"' in page
    assert "Draw the seats" in page and "Round time (minutes)" in page and "New players" in page


def test_drawing_the_seats_opens_the_night_page(client):
    club = club_with_players(13)
    client.force_login(club.owner)
    answer = client.post(
        f"/clubs/{club.pk}/nights/new/", form(club, [p.name for p in club.players.all()])
    )
    night = Night.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"/nights/{night.pk}/"
    page = text(client.get(f"/nights/{night.pk}/"))
    assert re.search(r"Table 1: \w+, \w+, \w+, \w+", page)
    assert re.search(r"Sitting out: \w+", page)
    assert f"draw seed {night.seed}" in page and "Start round 1" in page


@pytest.mark.parametrize(
    ("fields", "says"),
    [
        ({"rounds": "0"}, "Play at least 1 round"),
        ({"rounds": "13"}, "A night has at most 12 rounds"),
        ({"new_players": "Zed, zed"}, "Zed is named twice"),
        ({"new_players": "Ann"}, "Ann is named twice"),
        ({"round_minutes": "0"}, "A round lasts at least 1 minute"),
    ],
)
def test_a_refused_night_says_why_keeps_what_was_typed_and_saves_nothing(client, fields, says):
    club = club_with_players(6)
    client.force_login(club.owner)
    players = Player.objects.count()
    answer = client.post(
        f"/clubs/{club.pk}/nights/new/", form(club, ["Ann", "Ben", "Cy", "Dee"], **fields)
    )
    page = answer.content.decode()
    assert answer.status_code == 200 and says in text(answer)
    for name, value in fields.items():
        assert f'name="{name}"' in page and value in page
    assert re.search(r'value="\d+"[^>]*checked|checked[^>]*value="\d+"', page)
    assert Night.objects.count() == 0 and Player.objects.count() == players


def test_too_few_players_are_refused_on_the_form(client):
    club = club_with_players(5)
    client.force_login(club.owner)
    answer = client.post(f"/clubs/{club.pk}/nights/new/", form(club, ["Ann", "Ben", "Cy"]))
    assert "A table needs 4 players and 3 are here" in text(answer)
    assert Night.objects.count() == 0


def test_someone_elses_night_is_not_found(client):
    night = draw(club_with_players(4), count=4)
    other = club_with_players(4)
    client.force_login(other.owner)
    for address in [f"/nights/{night.pk}/", f"/nights/{night.pk}.json"]:
        assert client.get(address).status_code == 404
    assert client.post(f"/nights/{night.pk}/rounds/1/start/").status_code == 404
    assert client.get(f"/clubs/{night.club.pk}/nights/new/").status_code == 404


def test_the_night_as_json(client):
    club = club_with_players(13)
    night = draw(club)
    services.start_round(night=night, number=1, by=club.owner)
    for game in games_of(night, 1):
        finish(game)
    client.force_login(club.owner)
    data = json.loads(client.get(f"/nights/{night.pk}.json").content)
    assert set(data) == {"id", "season", "seed", "rounds", "standings"}
    assert data["id"] == night.pk and data["seed"] == night.seed
    assert [r["status"] for r in data["rounds"]] == ["done", "planned", "planned"]
    first = data["rounds"][0]
    assert set(first) == {"number", "status", "tables", "sitting_out"}
    games = games_of(night, 1)
    assert [t["game"] for t in first["tables"]] == [game.pk for game in games]
    assert first["tables"][0]["seats"] == [
        s.player.name for s in games[0].seats.order_by("position")
    ]
    assert data["rounds"][1]["tables"][0]["game"] is None
    assert len(first["sitting_out"]) == 1
    standings = {line["player"]: line for line in data["standings"]}
    assert sum(line["won"] for line in standings.values()) == 3
    for game in games:
        for seat in game.seats.all():
            assert standings[seat.player.name]["points"] == seat.total
            assert standings[seat.player.name]["games"] == 1


def test_the_tv_board_opens_without_an_account_and_stops(client):
    club = club_with_players(4)
    night = draw(club, count=4)
    token = services.show_on_tv(night=night, by=club.owner)
    page = client.get(f"/tv/{token}/")
    assert page.status_code == 200 and "Next: round 1" in text(page)
    assert client.get(f"/tv/{token}/qr.svg")["Content-Type"] == "image/svg+xml"
    services.stop_tv(night=night, by=club.owner)
    assert client.get(f"/tv/{token}/").status_code == 404


def test_the_tv_board_answers_204_until_a_deal_changes_it(client, django_assert_num_queries):
    club = club_with_players(4)
    night = draw(club, count=4)
    token = services.show_on_tv(night=night, by=club.owner)
    services.start_round(night=night, number=1, by=club.owner)
    page = client.get(f"/tv/{token}/").content.decode()
    state = re.search(r"board/\?state=(\d+)", page)[1]
    with django_assert_num_queries(3):
        assert client.get(f"/tv/{token}/board/?state={state}").status_code == 204
    game = games_of(night, 1)[0]
    record(game, 0, 5, 7, 13)
    board = client.get(f"/tv/{token}/board/?state={state}")
    assert board.status_code == 200 and "39" in text(board)


def test_a_member_sees_their_seat_on_the_home_page(client):
    club = club_with_players(4)
    member = make_member(club, "ann")
    scoring.claim_player(player=club.players.get(name="Ann"), by=member)
    night = draw(club, count=4)
    services.start_round(night=night, number=1, by=club.owner)
    game = games_of(night, 1)[0]
    seats = list(game.seats.order_by("position").select_related("player"))
    ann = next(seat for seat in seats if seat.player.name == "Ann")
    before = seats[(ann.position - 1) % 4].player.name
    client.force_login(member)
    home = text(client.get("/"))
    assert f"Club night, round 1: table 1, seat {ann.position + 1}, after {before}" in home


def test_the_night_page_in_traditional_chinese(client):
    club = club_with_players(5)
    night = draw(club, count=5)
    client.force_login(club.owner)
    page = text(client.get(f"/nights/{night.pk}/", headers={"Accept-Language": "zh-hant"}))
    assert "俱樂部聚會" in page and "開始第 1 輪" in page and "第 1 桌" in page and "輪空" in page


def test_the_night_form_lists_the_clubs_latest_nights_to_get_back_to(client):
    club = club_with_players(4)
    nights = [draw(club, count=4) for _ in range(6)]
    client.force_login(club.owner)
    page = client.get(f"/clubs/{club.pk}/nights/new/").content.decode()
    shown = [int(pk) for pk in re.findall(r'href="/nights/(\d+)/"', page)]
    assert shown == [night.pk for night in reversed(nights)][:5]


def test_a_started_round_keeps_its_tables_seat_order_and_shows_their_totals(client):
    club = club_with_players(4)
    night = draw(club, count=4)
    services.start_round(night=night, number=1, by=club.owner)
    game = games_of(night, 1)[0]
    record(game, 0, 5, 7, 13)
    names = ", ".join(s.player.name for s in game.seats.order_by("position"))
    client.force_login(club.owner)
    page = re.sub(r"<[^>]+>", "", text(client.get(f"/nights/{night.pk}/")))
    assert f"Table 1: {names} (totals 0 · 5 · 7 · 39)" in page
