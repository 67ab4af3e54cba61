"""The score-keeping pages, without a browser: access, forms, htmx, exports, query counts."""

import csv
import io
import json
import re

import pytest

from scoring.models import Club, Deal, Game, Membership
from tests.factories import make_club, make_deals, make_game, make_member, make_user, record
from tests.pages import HTMX, deal_post, text, who_is_asking

pytestmark = pytest.mark.django_db


def game_urls(game: Game) -> list[str]:
    return [
        f"/games/{game.pk}/",
        f"/games/{game.pk}/deals/1/edit/",
        f"/games/{game.pk}/deals/preview/",
        f"/games/{game.pk}/undo/",
        f"/games/{game.pk}/delete/",
        f"/games/{game.pk}.json",
        f"/games/{game.pk}.csv",
        f"/clubs/{game.club_id}/",
        f"/clubs/{game.club_id}/games/new/",
    ]


# Clubs


def test_creating_a_club_makes_you_its_owner(client):
    user = make_user("ann")
    client.force_login(user)
    html = text(client.get("/clubs/"))
    assert ">Name</label>" in html
    assert ">Create club</button>" in html
    response = client.post("/clubs/", {"name": "Friday table"})
    club = Club.objects.get()
    assert response["Location"] == f"/clubs/{club.pk}/"
    assert club.owner == user
    html = text(client.get(f"/clubs/{club.pk}/"))
    assert "New game" in html
    assert f"/join/{club.invite_token}/" in html
    assert "Reset invite link" in html


def test_a_club_needs_a_name(client):
    client.force_login(make_user())
    response = client.post("/clubs/", {"name": ""})
    assert response.status_code == 200
    assert "Give the club a name" in response.content.decode()
    assert not Club.objects.exists()


def test_members_see_their_clubs_only(client, club):
    other = make_club(name="Somebody else's")
    member = make_member(club, "ben")
    client.force_login(member)
    html = client.get("/clubs/").content.decode()
    assert club.name in html
    assert other.name not in html


def test_a_member_does_not_see_the_invite_link(client, club):
    client.force_login(make_member(club))
    html = client.get(f"/clubs/{club.pk}/").content.decode()
    assert club.invite_token not in html


def test_the_invite_link_adds_a_member_and_a_reset_one_stops_working(client, club, owner):
    newcomer = make_user("ben")
    client.force_login(newcomer)
    join_url = f"/join/{club.invite_token}/"
    assert client.get(f"/clubs/{club.pk}/").status_code == 404
    page = client.get(join_url)
    assert f"Join {club.name}" in page.content.decode()
    assert not Membership.objects.filter(club=club, user=newcomer).exists()  # GET changes nothing
    response = client.post(join_url)
    assert response["Location"] == f"/clubs/{club.pk}/"
    assert client.get(f"/clubs/{club.pk}/").status_code == 200

    client.force_login(owner)
    client.post(f"/clubs/{club.pk}/invite/reset/")
    client.force_login(make_user("cy"))
    assert client.get(join_url).status_code == 404
    assert client.post(join_url).status_code == 404
    assert "doesn't work" in client.get(join_url).content.decode()
    club.refresh_from_db()
    assert client.post(f"/join/{club.invite_token}/").status_code == 302


def test_only_the_owner_can_reset_the_invite_link(client, club):
    token = club.invite_token
    client.force_login(make_member(club))
    assert client.post(f"/clubs/{club.pk}/invite/reset/").status_code == 403
    club.refresh_from_db()
    assert club.invite_token == token


# Access to games


def test_a_non_member_gets_404_on_every_url_of_a_club(client, game):
    record(game, 0, 1, 2, 3)
    client.force_login(make_user("stranger"))
    for url in game_urls(game):
        assert client.get(url).status_code == 404, url
    for url in (f"/games/{game.pk}/deals/", f"/games/{game.pk}/undo/", f"/games/{game.pk}/delete/"):
        assert client.post(url, deal_post(game, 1, 0, 2, 3)).status_code == 404, url
    assert game.deals.count() == 1


def test_a_logged_out_user_is_sent_to_log_in(client, game):
    record(game, 0, 1, 2, 3)
    for url in [*game_urls(game), "/clubs/"]:
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith("/accounts/login/?next="), url
    response = client.post(f"/games/{game.pk}/deals/", deal_post(game, 1, 0, 2, 3))
    assert response["Location"].startswith("/accounts/login/")
    assert game.deals.count() == 1


def test_a_member_can_start_a_game_and_record_a_deal(client, club):
    member = make_member(club, "ben")
    client.force_login(member)
    html = text(client.get(f"/clubs/{club.pk}/games/new/"))
    for n in range(1, 5):
        assert f">Seat {n}</label>" in html
    assert ">Start game</button>" in html
    response = client.post(
        f"/clubs/{club.pk}/games/new/",
        {"seat_1": "Ann", "seat_2": "Ben", "seat_3": "Cy", "seat_4": "Dee"},
    )
    game = Game.objects.get()
    assert response["Location"] == f"/games/{game.pk}/"
    response = client.post(f"/games/{game.pk}/deals/", deal_post(game, 0, 5, 10, 13))
    assert response.status_code == 302
    assert response["Location"] == f"/games/{game.pk}/"
    assert game.deals.get().recorded_by == member
    html = text(client.get(response["Location"]))
    assert "Deal 1 recorded." in html
    assert "+20" in html
    assert "+39" in html


def test_the_roster_is_suggested_when_seating_players(client, game):
    client.force_login(game.club.owner)
    html = client.get(f"/clubs/{game.club_id}/games/new/").content.decode()
    assert 'list="roster"' in html
    assert '<option value="Dee">' in html


def test_a_seat_taken_twice_or_left_empty_is_refused(client, club, owner):
    client.force_login(owner)
    response = client.post(
        f"/clubs/{club.pk}/games/new/",
        {"seat_1": "Ann", "seat_2": "ANN", "seat_3": "", "seat_4": "Dee"},
    )
    html = text(response)
    assert "ANN already sits in seat 1" in html
    assert "Seat 3 is empty" in html
    assert 'value="ANN"' in html
    assert not Game.objects.exists()


def test_only_the_owner_deletes_a_game_after_confirming(client, game):
    client.force_login(make_member(game.club))
    assert client.get(f"/games/{game.pk}/delete/").status_code == 403
    assert client.post(f"/games/{game.pk}/delete/").status_code == 403
    assert "Delete this game" not in client.get(f"/games/{game.pk}/").content.decode()
    client.force_login(game.club.owner)
    assert "Delete game" in client.get(f"/games/{game.pk}/delete/").content.decode()
    assert Game.objects.filter(pk=game.pk).exists()
    response = client.post(f"/games/{game.pk}/delete/")
    assert response["Location"] == f"/clubs/{game.club_id}/"
    assert not Game.objects.filter(pk=game.pk).exists()


# The deal form


def test_the_deal_form_has_a_numeric_input_and_went_out_button_per_player(owner_client, game):
    html = text(owner_client.get(f"/games/{game.pk}/"))
    for seat, name in enumerate(["Ann", "Ben", "Cy", "Dee"]):
        assert f'<label class="deal-name" for="id_cards_{seat}">{name}</label>' in html
        assert f'aria-label="{name} went out"' in html
    assert html.count('inputmode="numeric" min="0" max="13"') == 4
    assert ">Record deal</button>" in html
    assert 'name="number" value="1"' in html
    assert re.search(r'name="token" value="[0-9a-f-]{36}"', html)


def test_an_invalid_deal_keeps_the_typed_values_and_says_what_to_fix(owner_client, game):
    response = owner_client.post(f"/games/{game.pk}/deals/", deal_post(game, 0, 0, 7, 14))
    assert response.status_code == 200
    html = text(response)
    assert "Only one player can go out in a deal — Ann and Ben both have 0" in html
    assert "Cards left must be between 0 and 13 — Dee has 14" in html
    for seat, value in enumerate(["0", "0", "7", "14"]):
        assert re.search(rf'name="cards_{seat}" id="id_cards_{seat}" value="{value}"', html)
    assert html.count('aria-invalid="true"') == 3
    assert not game.deals.exists()


def test_an_empty_field_is_named(owner_client, game):
    data = deal_post(game, 0, 1, 2, 3) | {"cards_2": ""}
    html = text(owner_client.post(f"/games/{game.pk}/deals/", data))
    assert "Enter Cy&#x27;s cards left" in html
    assert not game.deals.exists()


def test_went_out_without_javascript_fills_in_a_zero_and_saves_nothing(owner_client, game):
    data = deal_post(game, 0, 5, 7, 9) | {"cards_0": "0", "went_out": "2"}
    data["cards_3"] = ""
    html = text(owner_client.post(f"/games/{game.pk}/deals/", data))
    assert 'id="id_cards_2" value="0"' in html
    assert 'id="id_cards_0" value=""' in html  # only one player goes out
    assert 'id="id_cards_1" value="5"' in html
    assert f'value="{data["token"]}"' in html
    assert "Enter" not in html.split("deal-rows")[0].split("deal-form")[-1]  # no errors shown
    assert not game.deals.exists()


def test_the_penalty_preview_is_worked_out_on_the_server(owner_client, game):
    record(game, 0, 5, 9, 13)
    response = owner_client.get(
        f"/games/{game.pk}/deals/preview/",
        {"cards_0": "10", "cards_1": "0", "cards_2": "13", "cards_3": "x"},
        headers=HTMX,
    )
    html = text(response)
    assert 'id="preview-0" hx-swap-oob="true">+20 → 20<' in html
    assert 'id="preview-1" hx-swap-oob="true">went out: 0<' in html
    assert 'id="preview-2" hx-swap-oob="true">+39 → 48<' in html
    assert 'id="preview-3" hx-swap-oob="true">on 39<' in html
    assert "<html" not in html


def test_a_double_submit_of_the_same_form_records_one_deal(owner_client, game):
    data = deal_post(game, 0, 5, 7, 9)
    first = owner_client.post(f"/games/{game.pk}/deals/", data)
    second = owner_client.post(f"/games/{game.pk}/deals/", data)
    assert first.status_code == second.status_code == 302
    assert game.deals.count() == 1


def test_a_deal_sent_by_two_phones_is_recorded_once_and_the_second_told(owner_client, game):
    """The second is offered back to choose (tests/scoring/views/test_deal_clash.py)."""
    owner_client.post(f"/games/{game.pk}/deals/", deal_post(game, 0, 5, 7, 9, number=1))
    response = owner_client.post(f"/games/{game.pk}/deals/", deal_post(game, 3, 0, 7, 9, number=1))
    assert response.status_code == 200
    html = text(response)
    assert "Deal 1 was already recorded" in html
    assert "Add mine as a new deal 2" in html
    assert game.deals.count() == 1


def test_recording_with_htmx_swaps_the_live_part_in_place(owner_client, game):
    response = owner_client.post(
        f"/games/{game.pk}/deals/", deal_post(game, 0, 5, 10, 13), headers=HTMX
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="game-live"')
    assert "<html" not in html
    assert "Deal 1 recorded." in html
    assert 'name="number" value="2"' in html
    assert "HX-Request" in response["Vary"]


def test_the_game_page_with_htmx_is_only_its_live_part(owner_client, game):
    response = owner_client.get(f"/games/{game.pk}/", headers=HTMX)
    assert response.content.decode().lstrip().startswith('<div id="game-live"')
    assert "HX-Request" in response["Vary"]


def test_an_invalid_deal_with_htmx_comes_back_as_200_with_the_message(owner_client, game):
    response = owner_client.post(
        f"/games/{game.pk}/deals/", deal_post(game, 1, 5, 10, 13), headers=HTMX
    )
    assert response.status_code == 200
    assert "Nobody went out" in response.content.decode()


# The scoreboard, banners and the chart


def test_the_scoreboard_shows_each_deal_and_marks_the_lowest_total(owner_client, game):
    record(game, 0, 5, 9, 13)
    record(game, 3, 0, 10, 2)
    html = text(owner_client.get(f"/games/{game.pk}/"))
    assert html.count('aria-label="Edit deal') == 2
    assert '<span class="pen">+20</span> <span class="meta">10 left</span>' in html
    assert '<span class="run">= 29</span>' in html
    assert (
        '<td class="lowest"><span aria-hidden="true">★ </span>3'
        '<span class="visually-hidden"> (lowest)</span></td>'
    ) in html
    assert "Undo deal 2" in html


def test_a_tie_past_100_is_announced_and_entry_stays_open(owner_client, game):
    for cards in [(0, 13, 13, 5), (5, 13, 13, 0), (1, 0, 13, 1)]:
        record(game, *cards)
    html = text(owner_client.get(f"/games/{game.pk}/"))
    assert "Ann and Dee are tied for lowest on 6 — play another deal" in html
    assert ">Record deal</button>" in html


def test_the_end_names_the_winner_with_the_final_totals_and_the_form_is_gone(owner_client, game):
    for cards in [(0, 13, 13, 5), (5, 13, 13, 0), (1, 0, 13, 1), (0, 1, 1, 2)]:
        record(game, *cards)
    html = text(owner_client.get(f"/games/{game.pk}/"))
    assert "Ann wins with 6" in html
    assert "Final totals: Ann 6, Ben 79, Cy 118, Dee 8" in html
    assert "Record deal" not in html
    assert "tied" not in html
    response = owner_client.post(f"/games/{game.pk}/deals/", deal_post(game, 0, 1, 1, 1))
    assert "The game is over" in text(response)
    assert game.deals.count() == 4


def test_the_chart_is_an_accessible_svg_with_the_100_line(owner_client, game):
    assert "<svg" not in owner_client.get(f"/games/{game.pk}/").content.decode()
    record(game, 0, 5, 9, 13)
    html = text(owner_client.get(f"/games/{game.pk}/"))
    assert 'role="img" aria-labelledby="chart-title chart-desc"' in html
    assert '<title id="chart-title">Running totals after each deal</title>' in html
    assert "Running totals after deal 1: Ann 0, Ben 5, Cy 9, Dee 39." in html
    assert 'class="chart-target"' in html
    assert html.count('class="series series-') == 4
    assert "Dee (diamond): 39" in html


def test_the_game_page_needs_no_inline_script_style_or_eval(owner_client, game):
    for cards in [(0, 13, 13, 5), (5, 13, 13, 0), (1, 0, 13, 1)]:
        record(game, *cards)
    pages = [
        owner_client.get(f"/games/{game.pk}/").content.decode(),
        owner_client.get(f"/games/{game.pk}/", headers=HTMX).content.decode(),
        owner_client.get(f"/games/{game.pk}/deals/3/edit/").content.decode(),
        owner_client.get(f"/games/{game.pk}/undo/").content.decode(),
    ]
    for html in pages:
        assert " style=" not in html
        assert "hx-on" not in html
        # A JSON data block (`json_script`, for static/js/waiting-deals.js) runs nothing.
        assert not re.search(r'<script(?![^>]*(?:nonce=|src=|type="application/json"))', html)
        assert not re.search(r'hx-trigger="[^"]*\[', html)  # trigger filters need eval


# Corrections


def test_undo_asks_first_then_takes_back_the_last_deal(owner_client, game):
    record(game, 0, 5, 9, 13)
    record(game, 3, 0, 10, 2)
    html = text(owner_client.get(f"/games/{game.pk}/undo/"))
    assert "Undo deal 2?" in html
    assert "Ann 3, Ben 0, Cy 10, Dee 2" in html
    assert game.deals.count() == 2
    response = owner_client.post(f"/games/{game.pk}/undo/", {"number": "2"})
    assert response["Location"] == f"/games/{game.pk}/"
    assert game.deals.count() == 1
    # A second tap on the same confirmation undoes nothing more.
    owner_client.post(f"/games/{game.pk}/undo/", {"number": "2"})
    assert game.deals.count() == 1
    assert "Deal 2 was already undone" in text(owner_client.get(f"/games/{game.pk}/"))


def test_undo_with_htmx_confirms_in_place_then_swaps_the_live_part(owner_client, game):
    record(game, 0, 5, 9, 13)
    confirm = owner_client.get(f"/games/{game.pk}/undo/", headers=HTMX).content.decode()
    assert confirm.lstrip().startswith('<div class="confirm"')
    assert "Yes, undo deal 1" in confirm
    response = owner_client.post(f"/games/{game.pk}/undo/", {"number": "1"}, headers=HTMX)
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="game-live"')
    assert "Deal 1 undone." in html
    assert not game.deals.exists()


def test_edit_shows_the_deal_and_saves_the_correction(owner_client, game):
    record(game, 0, 5, 9, 13)
    html = text(owner_client.get(f"/games/{game.pk}/deals/1/edit/"))
    assert "Fix deal 1" in html
    assert 'id="id_cards_2" value="9"' in html
    data = deal_post(game, 0, 5, 8, 13, number=1)
    response = owner_client.post(f"/games/{game.pk}/deals/1/edit/", data)
    assert response["Location"] == f"/games/{game.pk}/"
    html = text(owner_client.get(f"/games/{game.pk}/"))
    assert "owner changed deal 1 from 0 5 9 13 to 0 5 8 13" in html


def test_an_edit_needs_only_the_cards_the_deal_is_named_by_its_address(owner_client, game):
    """The edit form's hidden number and token say nothing its address doesn't: sent without
    them (or with others), it still corrects the deal it was opened for, never silently
    refusing with no message."""
    record(game, 0, 5, 9, 13)
    cards = {"cards_0": "0", "cards_1": "5", "cards_2": "8", "cards_3": "13"}
    for extra in ({}, {"number": "7", "token": "not a token"}):
        response = owner_client.post(f"/games/{game.pk}/deals/1/edit/", cards | extra)
        assert response.status_code == 302
    assert list(game.deals.get().scores.order_by("seat__position").values_list("cards_left")) == [
        (0,),
        (5,),
        (8,),
        (13,),
    ]


def test_an_edit_that_would_end_the_game_early_is_refused_on_the_page(owner_client, game):
    for cards in [(0, 13, 5, 5), (0, 13, 5, 5), (0, 1, 1, 1), (0, 1, 1, 1)]:
        record(game, *cards)
    data = deal_post(game, 0, 13, 1, 1, number=3)
    html = text(owner_client.post(f"/games/{game.pk}/deals/3/edit/", data))
    assert "would have ended after deal 3, but 4 deals are recorded" in html
    assert 'id="id_cards_1" value="13"' in html


def test_editing_a_deal_that_does_not_exist_is_404(owner_client, game):
    assert owner_client.get(f"/games/{game.pk}/deals/1/edit/").status_code == 404


# Exports


def test_the_json_export(owner_client, game):
    record(game, 0, 5, 9, 13)
    record(game, 3, 0, 10, 2)
    data = json.loads(owner_client.get(f"/games/{game.pk}.json").content)
    owner = game.club.owner.username
    assert data == {
        "id": game.pk,
        "players": ["Ann", "Ben", "Cy", "Dee"],
        "rules": {"name": "standard", "label": "Standard rules"},
        "stake": None,
        "deals": [
            {
                "number": 1,
                "cards_left": [0, 5, 9, 13],
                "penalties": [0, 5, 9, 39],
                "entered_by": [owner] * 4,
            },
            {
                "number": 2,
                "cards_left": [3, 0, 10, 2],
                "penalties": [3, 0, 20, 2],
                "entered_by": [owner] * 4,
            },
        ],
        "totals": [3, 5, 29, 41],
        "status": "in_progress",
        "winner": None,
        "winners": [],
        "closes_at": None,
        "last_deal": None,
        "filling": None,
    }


def test_the_json_export_of_a_finished_game_names_the_winner(owner_client, game):
    for cards in [(0, 13, 13, 5), (0, 13, 13, 5), (0, 13, 1, 5)]:
        record(game, *cards)
    data = json.loads(owner_client.get(f"/games/{game.pk}.json").content)
    assert (data["status"], data["winner"], data["totals"]) == ("finished", "Ann", [0, 117, 79, 15])


def test_the_csv_export(owner_client, game):
    record(game, 0, 5, 9, 13)
    record(game, 3, 0, 10, 2)
    response = owner_client.get(f"/games/{game.pk}.csv")
    assert response["Content-Type"].startswith("text/csv")
    assert f'filename="game-{game.pk}.csv"' in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows == [
        [
            "deal",
            "Ann cards left",
            "Ann penalty",
            "Ann total",
            "Ben cards left",
            "Ben penalty",
            "Ben total",
            "Cy cards left",
            "Cy penalty",
            "Cy total",
            "Dee cards left",
            "Dee penalty",
            "Dee total",
        ],
        ["1", "0", "0", "0", "5", "5", "5", "9", "9", "9", "13", "39", "39"],
        ["2", "3", "3", "3", "0", "0", "5", "10", "20", "29", "2", "2", "41"],
    ]


def test_the_game_csv_gives_each_players_running_total_after_every_deal(owner_client, game):
    """The totals a scorekeeper reads aloud, deal by deal, as the board's total row ends."""
    for cards in [(0, 5, 9, 13), (3, 0, 10, 2), (7, 1, 0, 11)]:
        record(game, *cards)
    rows = list(csv.DictReader(io.StringIO(owner_client.get(f"/games/{game.pk}.csv").text)))
    totals = [[int(row[f"{name} total"]) for name in ("Ann", "Ben", "Cy", "Dee")] for row in rows]
    # Penalties 0/5/9/39, 3/0/20/2, 7/1/0/22: added up deal by deal.
    assert totals == [[0, 5, 9, 39], [3, 5, 29, 41], [10, 6, 29, 63]]
    game.refresh_from_db()
    assert totals[-1] == [seat.total for seat in game.seats.order_by("position")]


def test_a_name_that_looks_like_a_formula_is_kept_inert_in_the_csv(owner_client, club):
    game = make_game(club, names=("=SUM(A1)", "Ben", "Cy", "Dee"))
    header = owner_client.get(f"/games/{game.pk}.csv").content.decode().splitlines()[0]
    assert header.startswith("deal,'=SUM(A1) cards left")


# Query counts


@pytest.mark.parametrize("deals", [2, 12])
def test_the_game_page_runs_a_fixed_number_of_queries(
    owner_client, club, deals, django_assert_num_queries
):
    game = make_game(club)
    make_deals(game, deals)
    # The seats with the game (and the member's access), the deals, the history.
    with django_assert_num_queries(3 + who_is_asking()):
        assert owner_client.get(f"/games/{game.pk}/").status_code == 200
    # Again: the board's fragments are cached for this version of the game.
    with django_assert_num_queries(1 + who_is_asking()):
        assert owner_client.get(f"/games/{game.pk}/").status_code == 200


@pytest.mark.parametrize("deals", [2, 12])
@pytest.mark.parametrize("htmx", [False, True])
def test_recording_a_deal_runs_a_fixed_number_of_queries(
    owner_client, club, deals, htmx, django_assert_num_queries
):
    game = make_game(club)
    make_deals(game, deals)
    data = deal_post(game, 0, 1, 1, 1)
    # The seats with the game; in the write (its savepoint and release), the game locked, the
    # token looked up, the deal, its scores, its history line, the seats' figures (an UPDATE a
    # seat), the game's and season's: the new deal is added to the seats' stored totals. With
    # htmx, the whole live part (this post names no board version) shows the game and seats as
    # written: the deals (read only if the game is still as written) and the history.
    with django_assert_num_queries((16 if htmx else 14) + who_is_asking()):
        response = owner_client.post(f"/games/{game.pk}/deals/", data, headers=HTMX if htmx else {})
    assert response.status_code == (200 if htmx else 302)
    assert Deal.objects.filter(game=game).count() == deals + 1


@pytest.mark.parametrize("deals", [2, 12])
def test_recording_on_a_board_one_deal_behind_reads_the_game_once(
    owner_client, club, deals, django_assert_num_queries
):
    """The answer is what the deal changed on the board the phone shows, from the game and
    seats as the write left them (which knows the version is this deal, before it commits):
    after the write, only the chart's penalties (read only if the game is still as written)
    and the history."""
    game = make_game(club)
    make_deals(game, deals)
    data = deal_post(game, 0, 1, 1, 1, shown=str(Game.objects.get(pk=game.pk).version))
    with django_assert_num_queries(16 + who_is_asking()):  # 4 of them the seats' figures
        response = owner_client.post(f"/games/{game.pk}/deals/", data, headers=HTMX)
    assert response["HX-Retarget"] == "#deal-area"
    assert f'id="deal-{deals + 1}"' in text(response)


@pytest.mark.parametrize("deals", [2, 12])
def test_correcting_a_deal_reads_the_game_and_its_seats_once(
    owner_client, club, deals, django_assert_num_queries, monkeypatch
):
    from scoring.forms import deals as deal_form
    from scoring.services import totals

    scored = []
    real = deal_form.score_deal

    def counted(facts, *args, **kwargs):
        scored.append(facts.cards_left)
        return real(facts, *args, **kwargs)

    monkeypatch.setattr(deal_form, "score_deal", counted)
    monkeypatch.setattr(totals, "score_deal", counted)
    game = make_game(club)
    make_deals(game, deals)
    data = {"cards_0": "0", "cards_1": "3", "cards_2": "4", "cards_3": "5"}  # was 1, 0, 1, 1
    before = list(game.seats.order_by("position").values_list("total", flat=True))
    # The seats with the game, the deal, its scores; in the write (its savepoint and release):
    # the game locked, the deal, every deal's scores once, the deal saved, its scores read and
    # saved, the history line, the seats' figures (an UPDATE a seat), the game's and season's.
    # The seats the page read and the deal as its form scored it are the write's.
    with django_assert_num_queries(18 + who_is_asking()):
        response = owner_client.post(f"/games/{game.pk}/deals/2/edit/", data)
    assert response.status_code == 302
    after = list(game.seats.order_by("position").values_list("total", flat=True))
    assert [now - was for now, was in zip(after, before, strict=True)] == [-1, 3, 3, 4]
    assert scored.count((0, 3, 4, 5)) == 1  # by the form; the write takes its score


def test_recording_a_deal_scores_it_once_and_reads_the_seats_once(owner_client, club, monkeypatch):
    """The deal's request in one pass: the form scores the deal, the write keeps that score
    and the seats the form was built on, and the answer (what the deal changed on the board
    the phone shows) is made from what the write left, reading no deal again."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from scoring.forms import deals as deal_form
    from scoring.presenters import board
    from scoring.services import totals

    game = make_game(club)
    make_deals(game, 6)
    scored = []
    real = deal_form.score_deal

    def counted(*args, **kwargs):
        scored.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(deal_form, "score_deal", counted)
    monkeypatch.setattr(totals, "score_deal", counted)
    monkeypatch.setattr(board, "replay", lambda *args, **kwargs: pytest.fail("replayed"))
    shown = Game.objects.get(pk=game.pk).version
    data = deal_post(game, 0, 1, 10, 13, shown=str(shown))
    with CaptureQueriesContext(connection) as queries:
        response = owner_client.post(f"/games/{game.pk}/deals/", data, headers=HTMX)
    assert response["HX-Retarget"] == "#deal-area"  # the answer is what the deal changed
    assert [facts.cards_left for facts, *_ in scored].count((0, 1, 10, 13)) == 1
    reads = [query["sql"] for query in queries if query["sql"].startswith("SELECT")]
    assert sum('FROM "scoring_seat"' in sql for sql in reads) == 1
    assert not any('"scoring_dealscore"."cards_left"' in sql for sql in reads)
    assert "+20" in text(response) and "+39" in text(response)


def test_an_htmx_request_after_the_session_ran_out_reloads_to_the_login_page(client, game):
    response = client.get(f"/games/{game.pk}/", headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert response["HX-Redirect"].startswith("/accounts/login/?next=")


def test_after_logging_in_again_the_phone_is_back_on_its_page(client, game):
    """A deal sent by a phone whose session ended: the login page comes back to the game page
    the phone showed, not to the address the deal was sent to (which only takes a POST)."""
    shown = {"HX-Request": "true", "HX-Current-URL": f"http://testserver/games/{game.pk}/"}
    response = client.post(f"/games/{game.pk}/deals/", deal_post(game, 0, 1, 2, 3), headers=shown)
    assert response["HX-Redirect"] == f"/accounts/login/?next=%2Fgames%2F{game.pk}%2F"
    # Another site's address is no page to come back to: the request's own, as before.
    elsewhere = shown | {"HX-Current-URL": "https://elsewhere.example/"}
    response = client.get(f"/games/{game.pk}/", headers=elsewhere)
    assert response["HX-Redirect"] == f"/accounts/login/?next=/games/{game.pk}/"


def test_a_penalty_preview_for_a_phone_signed_out_meanwhile_is_nothing(client, game):
    """No trip to log in for a preview: it would take away what is being typed."""
    preview = f"/games/{game.pk}/deals/preview/?cards_0=3"
    response = client.get(preview, headers={"HX-Request": "true"})
    assert response.status_code == 204
    assert "HX-Redirect" not in response
    assert client.get(preview)["Location"].startswith("/accounts/login/?next=")
