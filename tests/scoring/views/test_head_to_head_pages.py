"""The head-to-head on the player page, the club's head-to-head matrix, and a player's figures,
over the hand-worked club of tests/scoring/rivals.py."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import (
    finish,
    make_game,
    make_member,
    make_ruled_game,
    make_user,
    record,
    record_facts,
)
from tests.pages import text, who_is_asking
from tests.scoring.rivals import a_club_of_rivals

pytestmark = pytest.mark.django_db


@pytest.fixture
def rivals(owner):
    return a_club_of_rivals(owner)


def row_of(html: str, name: str) -> list[str]:
    """The cells of the table row headed by `name`, as text."""
    headed = rf"<tr[^>]*>\s*<th scope=\"row\"[^>]*>(?:(?!</tr>).)*?>{name}<.*?</tr>"
    row = re.search(headed, html, re.S)
    assert row, f"no row for {name}"
    cells = re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row.group(0), re.S)
    return [re.sub(r"<[^>]+>|\s+", " ", cell).strip() for cell in cells]


def test_the_player_page_shows_head_to_head_nemesis_and_favourite(owner_client, rivals):
    club, _games = rivals
    ann = club.players.get(name="Ann")
    response = owner_client.get(f"/players/{ann.pk}/")
    html = response.content.decode()
    assert "Head-to-head" in html
    assert row_of(html, "Ben")[1:] == ["4", "3", "1", "+276"]
    assert row_of(html, "Cy")[1:] == ["4", "2", "2", "+60"]
    assert row_of(html, "Eve")[1:] == ["1", "1", "0", "+57"]
    page = text(response)
    assert re.search(r"Nemesis</dt> <dd><a href=\"/players/\d+/\">Cy</a>", page)
    assert "finished ahead of Ann in 2 of 4 games" in page
    assert re.search(r"Favourite opponent</dt> <dd><a href=\"/players/\d+/\">Dee</a>", page)
    assert "Ann finished ahead in 3 of 3 games" in page
    assert f'href="/clubs/{club.pk}/head-to-head/"' in page


def test_the_player_page_says_when_nobody_is_a_nemesis_yet(owner_client, rivals):
    club, _games = rivals
    page = text(owner_client.get(f"/players/{club.players.get(name='Eve').pk}/"))
    assert "Nobody yet: it takes 3 games together." in page


def test_the_player_page_shows_the_players_figures(owner_client, rivals):
    club, games = rivals
    page = text(owner_client.get(f"/players/{club.players.get(name='Ann').pk}/"))
    assert "Went out first</dt> <dd>6 of 12 deals (50%)</dd>" in page
    assert "Caught with 10 or more cards</dt> <dd>3 of 12 deals</dd>" in page
    assert "Caught with all 13</dt> <dd>0 of 12 deals</dd>" in page
    assert "Average penalty per deal</dt> <dd>6.25</dd>" in page
    assert "Longest run of games won</dt> <dd>2</dd>" in page
    assert f'Best game</dt> <dd><a href="/games/{games["A"].pk}/">0 points' in page
    assert f'Worst game</dt> <dd><a href="/games/{games["C"].pk}/">60 points' in page


def test_cards_caught_with_show_a_dash_where_the_rules_ask_no_cards_left(client):
    game = make_ruled_game("finishing-order")
    for _ in range(20):
        record_facts(game, order=(0, 1, 2, 3))
    client.force_login(game.club.owner)
    page = text(client.get(f"/players/{game.club.players.get(name='Ann').pk}/"))
    assert "Caught with 10 or more cards</dt> <dd>—</dd>" in page
    assert "Caught with all 13</dt> <dd>—</dd>" in page


def test_the_player_page_runs_as_many_queries_however_many_games(
    owner_client, club, django_assert_num_queries
):
    """Head-to-head and figures are one query each, whatever the club has played."""
    game = make_game(club)
    for _ in range(3):
        record(game, 0, 13, 13, 13)
    ann = club.players.get(name="Ann")
    with CaptureQueriesContext(connection) as one_game:
        assert owner_client.get(f"/players/{ann.pk}/").status_code == 200
    for names in (("Ann", "Ben", "Cy", "Eve"), ("Ann", "Dee", "Cy", "Fay")):
        game = make_game(club, names)
        for _ in range(3):
            record(game, 13, 0, 13, 13)
    with django_assert_num_queries(len(one_game.captured_queries)):
        assert owner_client.get(f"/players/{ann.pk}/").status_code == 200


def test_the_matrix_shows_wins_and_losses_of_each_row_player_over_each_column(
    owner_client, rivals, django_assert_num_queries
):
    club, _games = rivals
    # The club (and the member's access), each player's finished games, the seats of those
    # shown.
    with django_assert_num_queries(3 + who_is_asking()):
        response = owner_client.get(f"/clubs/{club.pk}/head-to-head/")
    assert response.status_code == 200
    html = response.content.decode()
    assert row_of(html, "Ann")[1:] == ["—", "3–1", "2–2", "3–0", "1–0"]
    assert row_of(html, "Dee")[1:] == ["0–3", "1–1", "0–2", "—", "—"]
    # The columns are the rows' numbers; their full names are there for screen readers.
    headings = re.findall(r"<th scope=\"col\"[^>]*>(.*?)</th>", html, re.S)
    assert [re.sub(r"<[^>]+>|\s+", " ", h).split() for h in headings[1:3]] == [
        ["1", "Ann"],
        ["2", "Ben"],
    ]


def test_the_matrix_is_linked_from_the_club_and_the_all_time_standings(owner_client, rivals):
    club, _games = rivals
    link = f'href="/clubs/{club.pk}/head-to-head/"'
    assert link in text(owner_client.get(f"/clubs/{club.pk}/"))
    assert link in text(owner_client.get(f"/clubs/{club.pk}/standings/"))


def test_the_matrix_before_any_finished_game(owner_client, club):
    record(make_game(club), 0, 13, 13, 13)
    page = text(owner_client.get(f"/clubs/{club.pk}/head-to-head/"))
    assert "No finished games yet." in page


def test_someone_elses_club_has_no_matrix(client, rivals):
    club, _games = rivals
    client.force_login(make_user())
    assert client.get(f"/clubs/{club.pk}/head-to-head/").status_code == 404
    client.force_login(make_member(club))
    assert client.get(f"/clubs/{club.pk}/head-to-head/").status_code == 200


@pytest.fixture
def big_club(club):
    """Fourteen players, each in four finished games, and Zed, P01, P02 and P03 in two more:
    the dozen with the most games are those four, then P04 to P11 by name."""
    names = [f"P{number:02}" for number in range(1, 14)] + ["Zed"]
    tables = [[names[(start + seat) % 14] for seat in range(4)] for start in range(14)]
    for seated in [*tables, ["Zed", "P01", "P02", "P03"], ["P01", "Zed", "P03", "P02"]]:
        finish(make_game(club, seated))
    return club


def column_names(html: str) -> list[str]:
    headings = re.findall(r"<th scope=\"col\"[^>]*>(.*?)</th>", html, re.S)
    return [re.sub(r"<[^>]+>|\s+", " ", heading).split()[-1] for heading in headings[1:]]


def test_a_big_clubs_matrix_is_the_dozen_with_the_most_games_and_any_other_row_on_asking(
    owner_client, big_club, django_assert_num_queries
):
    response = owner_client.get(f"/clubs/{big_club.pk}/head-to-head/")
    html = response.content.decode()
    shown = [f"P{number:02}" for number in range(1, 12)] + ["Zed"]
    assert column_names(html) == shown
    page = text(response)
    assert "The 12 players with the most finished games, of the club's 14." in page
    # The others are offered, by name, in a form that works without JavaScript.
    assert re.search(r'<form method="get" action="/clubs/\d+/head-to-head/#asked-row"', page)
    offered = re.findall(r'<option value="(\d+)"[^>]*>([^<]*)</option>', html)
    assert [name for _pk, name in offered] == ["P12", "P13"]
    p13 = {name: pk for pk, name in offered}["P13"]
    with django_assert_num_queries(3 + who_is_asking()):
        asked = owner_client.get(f"/clubs/{big_club.pk}/head-to-head/", {"player": p13})
    html = asked.content.decode()
    assert column_names(html) == shown
    # P13 sat at four tables, each won by its first seat, the others level on 117: behind P10
    # (P10 to P13), behind P11 (P11 to Zed), level (P12 to P01), and ahead of Zed, P01 and P02.
    dashes = ["—"] * 7
    assert row_of(html, "P13")[1:] == ["1–0", "1–0", *dashes, "0–1", "0–1", "1–0"]
    assert re.search(r'<option value="' + p13 + r'" selected>P13</option>', html)


@pytest.mark.parametrize("player", ["abc", "", "99999999999999999999999"])
def test_a_player_who_cant_be_added_is_said_so_and_the_matrix_stays(owner_client, big_club, player):
    response = owner_client.get(f"/clubs/{big_club.pk}/head-to-head/", {"player": player})
    assert response.status_code == 200
    page = text(response)
    assert "choose one from the list." in page or "Choose a player from the list." in page
    assert 'id="asked-row"' not in page
    assert "P11" in page


def test_a_small_clubs_matrix_offers_no_other_row(owner_client, rivals):
    club, _games = rivals
    page = text(owner_client.get(f"/clubs/{club.pk}/head-to-head/"))
    assert "players with the most finished games" not in page
    assert "Another player" not in page
