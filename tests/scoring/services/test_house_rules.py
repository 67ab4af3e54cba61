"""A club plays by its own house rules: chosen per season, kept by each game, scored right."""

from __future__ import annotations

import datetime
import re
from decimal import Decimal

import pytest

from rules.options import Finish, SuitOrder, TwosRule
from rules.ruleset import RuleSet, parse_rules
from scoring import services
from scoring.models import Game, Season
from tests.factories import make_game, make_member, record
from tests.pages import HTMX, PUSOY_TWOS, deal_post, text


def new_season(client, club, **fields) -> Season:
    data = {"name": "Manila nights", "starts_on": "2027-03-01", "ends_on": ""} | fields
    response = client.post(f"/clubs/{club.pk}/seasons/new/", data)
    assert response.status_code == 302, text(response)
    return Season.objects.get(name="Manila nights")


def play_season(client, club, **fields) -> Game:
    season = new_season(client, club, **(PUSOY_TWOS | fields))
    return make_game(club) if season.ruleset.players == 4 else None


def test_a_season_under_pusoy_dos_rules_with_the_twos_rule(owner_client, club):
    season = new_season(owner_client, club, **PUSOY_TWOS)
    assert season.ruleset == RuleSet(suits=SuitOrder.PUSOY_DOS, twos=TwosRule.DOUBLE)
    game = make_game(club)
    assert game.season == season and game.ruleset == season.ruleset

    page = text(owner_client.get(f"/games/{game.pk}/"))
    assert "Played by:" in page and "Pusoy Dos" in page
    assert "Went out on twos?" in page

    # The seed's deal: Alice out, the others caught with 4, 10 and 13 — on the two of spades.
    response = owner_client.post(
        f"/games/{game.pk}/deals/", deal_post(game, 0, 4, 10, 13, out_on_twos="on"), headers=HTMX
    )
    assert response.status_code == 200
    assert [seat.total for seat in game.seats.order_by("position")] == [0, 8, 40, 78]
    # Without the twos, the same counts cost the usual 4, 20 and 39.
    owner_client.post(f"/games/{game.pk}/deals/", deal_post(game, 4, 0, 10, 13), headers=HTMX)
    assert [seat.total for seat in game.seats.order_by("position")] == [4, 8, 60, 117]
    game.refresh_from_db()
    assert game.is_finished and game.winner.name == "Ann"


def test_a_game_keeps_the_rules_it_started_with(owner_client, club):
    before = make_game(club)
    new_season(owner_client, club, **PUSOY_TWOS)
    assert before.ruleset == RuleSet()
    record(before, 0, 4, 10, 13)
    assert [seat.total for seat in before.seats.order_by("position")] == [0, 4, 20, 39]


def test_the_new_season_form_offers_every_rule_and_starts_from_the_current_ones(owner_client, club):
    new_season(owner_client, club, **PUSOY_TWOS)
    page = text(owner_client.get(f"/clubs/{club.pk}/seasons/new/"))
    for words in ("Suit order", "Straights", "Flushes", "Penalties", "Twos rule"):
        assert words in page
    assert re.search(r'<input[^>]*value="pusoy-dos-suits"[^>]*checked', page)


def test_the_stronger_twos_rule_asks_for_each_players_twos(owner_client, club):
    game = play_season(owner_client, club, twos="twos-double-each")
    assert "twos held" in text(owner_client.get(f"/games/{game.pk}/"))
    # Nine cards with two twos, the winner out on twos: 9 × 2 × 2 × 2 = 72.
    data = deal_post(game, 0, 9, 1, 1, out_on_twos="on", twos_0="", twos_1="2", twos_2="0")
    owner_client.post(f"/games/{game.pk}/deals/", data, headers=HTMX)
    assert [seat.total for seat in game.seats.order_by("position")] == [0, 72, 2, 2]


@pytest.mark.parametrize("headers", [HTMX, {}], ids=["htmx", "no-javascript"])
def test_twos_that_are_not_a_number_are_refused_saying_whose(owner_client, club, headers):
    game = play_season(owner_client, club, twos="twos-double-each")
    data = deal_post(game, 0, 0, 0, 0, twos_3=":")
    response = owner_client.post(f"/games/{game.pk}/deals/", data, headers=headers)
    assert response.status_code == 200
    errors = re.search(r'<div class="form-errors" role="alert">(.*?)</div>', text(response))
    assert errors is not None
    assert "Dee&#x27;s twos must be a whole number from 0 to 4" in errors.group(1)
    assert game.deals.count() == 0


def test_twos_that_cannot_be_are_refused_with_the_values_kept(owner_client, club):
    game = play_season(owner_client, club, twos="twos-double-each")
    data = deal_post(game, 0, 3, 5, 5, twos_1="3", twos_2="2", twos_3="1")
    response = owner_client.post(f"/games/{game.pk}/deals/", data, headers=HTMX)
    page = text(response)
    assert response.status_code == 200
    assert game.deals.count() == 0
    assert "two" in page.lower() and 'value="3"' in page


def test_a_heavier_scale_charges_its_penalties(owner_client, club):
    game = play_season(owner_client, club, twos="no-twos-rule", penalties="doubling-penalties")
    record(game, 0, 10, 11, 7)
    assert [seat.total for seat in game.seats.order_by("position")] == [0, 40, 44, 7]


def test_a_match_of_a_set_number_of_deals_ends_after_them(owner_client, club):
    game = play_season(owner_client, club, twos="no-twos-rule", finish="deals", deals="2")
    assert "The match ends after 2 deals." in text(owner_client.get(f"/games/{game.pk}/"))
    record(game, 0, 1, 2, 3)
    game.refresh_from_db()
    assert not game.is_finished
    record(game, 0, 1, 2, 3)
    game.refresh_from_db()
    assert game.is_finished and game.winner.name == "Ann"


def test_an_open_ended_match_ends_when_the_scorekeeper_says(owner_client, club):
    game = play_season(owner_client, club, twos="no-twos-rule", finish="open-ended")
    assert game.ruleset.finish is Finish.OPEN
    end_button = f'action="/games/{game.pk}/end/"'
    assert end_button not in text(owner_client.get(f"/games/{game.pk}/"))
    record(game, 0, 5, 5, 5)
    record(game, 5, 0, 5, 5)
    assert end_button in text(owner_client.get(f"/games/{game.pk}/"))
    # Ann and Ben are tied on 5: one more deal first.
    response = owner_client.post(f"/games/{game.pk}/end/")
    assert "Ann and Ben are tied for lowest" in text(response)
    game.refresh_from_db()
    assert not game.is_finished and not game.ended
    record(game, 0, 1, 1, 1)
    response = owner_client.post(f"/games/{game.pk}/end/")
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.is_finished and game.winner.name == "Ann"
    assert "ended the match after deal 3" in text(owner_client.get(f"/games/{game.pk}/"))
    # Undoing the last deal reopens the match.
    services.undo_last_deal(game=game, by=club.owner)
    game.refresh_from_db()
    assert not game.is_finished and not game.ended


def test_end_match_is_refused_under_rules_that_end_by_themselves(owner_client, game):
    record(game, 0, 5, 5, 5)
    response = owner_client.post(f"/games/{game.pk}/end/")
    assert "ends by itself" in text(response)
    game.refresh_from_db()
    assert not game.is_finished


def test_a_three_player_season_seats_three_and_counts_up_to_eighteen(owner_client, club):
    new_season(owner_client, club, **(PUSOY_TWOS | {"players": "3", "twos": "no-twos-rule"}))
    response = owner_client.post(
        f"/clubs/{club.pk}/games/new/", {"seat_1": "Ann", "seat_2": "Ben", "seat_3": "Cy"}
    )
    assert response.status_code == 302
    game = Game.objects.latest("pk")
    assert game.seats.count() == 3
    page = text(owner_client.get(f"/games/{game.pk}/"))
    assert 'max="18"' in page
    owner_client.post(f"/games/{game.pk}/deals/", deal_post(game, 0, 18, 12), headers=HTMX)
    assert [seat.total for seat in game.seats.order_by("position")] == [0, 54, 24]
    refused = owner_client.post(f"/games/{game.pk}/deals/", deal_post(game, 0, 19, 12))
    assert "between 0 and 18" in text(refused)


def test_a_fourth_player_in_a_three_player_season_is_turned_away(owner_client, club):
    new_season(owner_client, club, **(PUSOY_TWOS | {"players": "3"}))
    response = owner_client.post(
        f"/clubs/{club.pk}/games/new/",
        {"seat_1": "Ann", "seat_2": "Ben", "seat_3": "Cy", "seat_4": "Dee"},
    )
    assert response.status_code == 200
    assert "This season is played by 3: leave seat 4 empty" in text(response)


def test_a_finished_game_with_a_stake_shows_who_pays_whom(owner_client, club):
    fields = PUSOY_TWOS | {"twos": "no-twos-rule", "stake": "0.10", "currency": "£"}
    season = new_season(owner_client, club, **fields)
    assert season.stake == Decimal("0.100")
    game = make_game(club)
    assert game.stake == Decimal("0.100")
    for cards in [(0, 4, 10, 13), (0, 12, 9, 13), (1, 0, 1, 13)]:
        record(game, *cards)
    game.refresh_from_db()
    assert game.is_finished
    assert [seat.total for seat in game.seats.order_by("position")] == [1, 28, 30, 117]
    page = text(owner_client.get(f"/games/{game.pk}/"))
    assert "Settling up at £0.10 a point" in page
    # Ann collects from everybody: (27 + 29 + 116) × 0.10; Dev pays everybody.
    for line in ("Ann wins £17.20", "Ben wins £6.40", "Cy wins £5.60", "Dee owes £29.20"):
        assert line in page
    for line in ("Dee pays Ann £17.20", "Dee pays Ben £6.40", "Dee pays Cy £5.60"):
        assert line in page


def test_a_stake_can_be_given_to_a_game_and_a_bad_one_is_explained(owner_client, game):
    response = owner_client.post(f"/games/{game.pk}/stake/", {"stake": "-1"})
    assert response.status_code == 200
    assert "can&#x27;t be negative" in response.content.decode()
    response = owner_client.post(f"/games/{game.pk}/stake/", {"stake": "abc"})
    assert "The stake wasn&#x27;t saved: Enter the stake as a number, e.g. 0.10" in text(response)
    response = owner_client.post(f"/games/{game.pk}/stake/", {"stake": "0.25"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.stake == Decimal("0.25")


@pytest.mark.parametrize(
    "name", ["standard", "pusoy-dos-suits,twos-double", "3-players,open-ended"]
)
def test_a_seasons_rules_are_stored_by_their_name(name, owner, club):
    rules = parse_rules(name)
    season = services.start_season(
        club=club, name="Named", starts_on=datetime.date(2027, 1, 1), rules=rules, by=owner
    )
    season.refresh_from_db()
    assert season.ruleset == rules and season.rules == rules.name


def test_the_season_adds_up_its_games_played_for_money(owner_client, club):
    fields = PUSOY_TWOS | {"twos": "no-twos-rule", "stake": "0.10", "currency": "HKD"}
    season = new_season(owner_client, club, **fields)
    first = make_game(club)
    for cards in [(0, 4, 10, 13), (0, 12, 9, 13), (1, 0, 1, 13)]:
        record(first, *cards)  # totals 1, 28, 30, 117
    second = make_game(club, ("Dee", "Cy", "Ben", "Eve"))
    services.set_stake(game=second, stake=Decimal("0.20"), by=club.owner)
    for cards in [(0, 13, 13, 13), (0, 13, 13, 13), (0, 13, 13, 13)]:
        record(second, *cards)  # Dee 0, the others 117 each
    unstaked = make_game(club)
    services.set_stake(game=unstaked, stake=None, by=club.owner)
    record(unstaked, 0, 13, 13, 13)
    page = text(owner_client.get(f"/seasons/{season.pk}/"))
    assert "2 games played for money" in page
    # Game 1 as above; game 2: Dee collects 3 × 117 × 0.20 = 70.20, the others pay 23.40 each.
    # Dee: -29.20 + 70.20 = 41.00; Cy: 5.60 - 23.40 = -17.80; Ben: 6.40 - 23.40 = -17.00.
    for line in ("Dee wins 41.00 HKD", "Ann wins 17.20 HKD", "Cy owes 17.80 HKD"):
        assert line in page
    for line in ("Ben owes 17.00 HKD", "Eve owes 23.40 HKD"):
        assert line in page
    assert page.count(" pays ") == 4


def test_the_exports_carry_the_twos(owner_client, club):
    game = play_season(owner_client, club, twos="twos-double-each")
    record(game, 0, 9, 4, 1, out_on_twos=True, twos_held=[0, 2, 0, 0])
    data = owner_client.get(f"/games/{game.pk}.json").json()
    assert data["rules"]["name"] == "pusoy-dos-suits,twos-double-each"
    assert data["deals"] == [
        {
            "number": 1,
            "cards_left": [0, 9, 4, 1],
            "penalties": [0, 72, 8, 2],
            "out_on_twos": True,
            "twos_held": [0, 2, 0, 0],
            "entered_by": [club.owner.username] * 4,
        }
    ]
    rows = owner_client.get(f"/games/{game.pk}.csv").content.decode().splitlines()
    assert rows[0].startswith(
        "deal,out on twos,Ann cards left,Ann penalty,Ann total,Ann twos held,"
    )
    assert rows[1] == "1,1,0,0,0,0,9,72,72,2,4,8,8,0,1,2,2,0"
    page = text(owner_client.get(f"/games/{game.pk}/"))
    assert "went out on twos" in page and "9 left, 2 twos" in page


def test_the_game_page_links_to_the_hand_checker_under_its_rules(owner_client, club):
    game = play_season(owner_client, club)
    page = owner_client.get(f"/games/{game.pk}/").content.decode()
    link = "/check/?rules=pusoy-dos-suits%2Ctwos-double"
    assert link in page
    checker = text(owner_client.get(link + "&a=9d&b=9s"))
    assert "A beats B" in checker and "Pusoy Dos" in checker


def test_a_new_club_chooses_its_rules_before_the_first_game(owner_client, club):
    season = club.seasons.get()
    page = text(owner_client.get(f"/clubs/{club.pk}/"))
    assert "Choose the house rules" in page
    response = owner_client.post(
        f"/seasons/{season.pk}/rules/", PUSOY_TWOS | {"stake": "0.20", "currency": "HK$"}
    )
    assert response.status_code == 302
    season.refresh_from_db()
    assert season.ruleset == RuleSet(suits=SuitOrder.PUSOY_DOS, twos=TwosRule.DOUBLE)
    assert season.stake == Decimal("0.2")
    assert "New games are played by: Pusoy Dos" in text(owner_client.get(f"/clubs/{club.pk}/"))
    game = make_game(club)
    assert game.ruleset == season.ruleset and game.stake == Decimal("0.2")
    # Once a game has started, the season's rules stay: the page says to start a new season.
    assert "Choose the house rules" not in text(owner_client.get(f"/clubs/{club.pk}/"))
    assert "start a new season" in text(owner_client.get(f"/seasons/{season.pk}/rules/")).lower()
    refused = owner_client.post(
        f"/seasons/{season.pk}/rules/", PUSOY_TWOS | {"twos": "no-twos-rule"}
    )
    assert "they keep the rules they started with" in text(refused)
    season.refresh_from_db()
    assert season.ruleset.twos is TwosRule.DOUBLE


def test_only_the_owner_changes_a_seasons_rules(client, club):
    member = make_member(club)
    client.force_login(member)
    season = club.seasons.get()
    response = client.post(f"/seasons/{season.pk}/rules/", PUSOY_TWOS)
    assert response.status_code == 403
    season.refresh_from_db()
    assert season.rules == "standard"


def test_a_deal_under_the_stronger_twos_rule_is_previewed_and_corrected(owner_client, club):
    game = play_season(owner_client, club, twos="twos-double-each")
    preview = owner_client.get(
        f"/games/{game.pk}/deals/preview/",
        {"cards_0": "0", "cards_1": "9", "twos_1": "2", "out_on_twos": "on"},
    )
    assert "+72" in text(preview)
    record(game, 0, 9, 4, 1, out_on_twos=True, twos_held=[0, 2, 0, 0])
    page = text(owner_client.get(f"/games/{game.pk}/deals/1/edit/"))
    assert 'name="twos_1" id="id_twos_1" value="2"' in page.replace("  ", " ")
    assert re.search(r'name="out_on_twos"[^>]*checked', page)
    # The scorer remembers Ben held only one two, and the winner didn't go out on twos.
    data = {"number": "1", "cards_0": "0", "cards_1": "9", "cards_2": "4", "cards_3": "1"}
    data |= {"twos_1": "1", "token": str(game.deals.get().token)}
    response = owner_client.post(f"/games/{game.pk}/deals/1/edit/", data)
    assert response.status_code == 302
    assert [seat.total for seat in game.seats.order_by("position")] == [0, 18, 4, 1]


def test_a_new_currency_shows_on_games_already_settled(owner_client, club):
    season = new_season(owner_client, club, **(PUSOY_TWOS | {"stake": "1", "currency": "£"}))
    game = make_game(club)
    for _ in range(3):
        record(game, 0, 13, 13, 13)
    assert "Ann wins £351.00" in text(owner_client.get(f"/games/{game.pk}/"))
    services.start_season(
        club=club,
        name="Next",
        starts_on=season.starts_on,
        rules=season.ruleset,
        currency="HKD",
        by=club.owner,
    )
    assert "Ann wins 351.00 HKD" in text(owner_client.get(f"/games/{game.pk}/"))


def test_undoing_the_deal_an_open_match_ended_on_shows_it_open_again(owner_client, club):
    game = play_season(owner_client, club, twos="no-twos-rule", finish="open-ended")
    record(game, 0, 5, 5, 5)
    record(game, 5, 0, 5, 5)
    record(game, 0, 1, 1, 1)
    owner_client.post(f"/games/{game.pk}/end/")
    response = owner_client.post(f"/games/{game.pk}/undo/", {"number": "3"}, headers=HTMX)
    page = text(response)
    assert "Deal 3 undone." in page and 'id="deal-form"' in page
    # Ann and Ben are level on 5 again: open-ended, that matters only when the match ends.
    assert "tied for lowest" not in page


@pytest.mark.parametrize(
    ("seasons", "shown_seats", "required_seats"),
    [
        ([{"players": "2", "two_player_deal": "17"}], 2, 2),
        ([{"players": "3"}, {"players": "4"}], 4, 3),
    ],
    ids=["four-then-two", "four-three-then-four"],
)
def test_the_new_game_form_requires_only_the_seats_every_season_fills(
    owner_client, club, seasons, shown_seats, required_seats
):
    """A club that played four at a table and now plays two (or three, or four again): the
    phone must not refuse to send the form for an empty seat that the season chosen may not
    have. The server says which seats the chosen season needs. The form shows the seats of
    the current season (issue 29: a two-player season shows no Seat 3 or 4)."""
    for number, fields in enumerate(seasons):
        data = {"name": f"Season {number + 2}", "starts_on": f"2027-0{number + 1}-01"}
        response = owner_client.post(f"/clubs/{club.pk}/seasons/new/", data | fields)
        assert response.status_code == 302, text(response)
    html = owner_client.get(f"/clubs/{club.pk}/games/new/").content.decode()
    seats = re.findall(r'<input type="text" name="seat_(\d)"[^>]*>', html)
    tags = re.findall(r'<input type="text" name="seat_\d"[^>]*>', html)
    required = [(seat, " required" in tag) for seat, tag in zip(seats, tags, strict=True)]
    assert required == [(str(seat), seat <= required_seats) for seat in range(1, shown_seats + 1)]
