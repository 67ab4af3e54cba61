"""A game takes at most GAME_MAX_DEALS deals, however they are sent (the deal form, a resend, a
phone back online), and a season can't agree on a match longer than that."""

from __future__ import annotations

import datetime
import re
import uuid
from functools import partial

import pytest

from rules.deal_options import Scoring
from rules.options import Finish
from rules.ruleset import RuleSet
from scoring import services
from scoring.models import Deal, Game, GameChange
from tests.concurrency import at_once, needs_postgres
from tests.factories import make_deals, make_game, make_ruled_game, record
from tests.pages import HTMX, PUSOY_TWOS, deal_post, text

pytestmark = pytest.mark.django_db

WAYS = pytest.mark.parametrize("headers", [HTMX, {}], ids=["htmx", "no-javascript"])


@pytest.fixture
def full(settings):
    """An open-ended game with all the deals a game may have: three."""
    settings.GAME_MAX_DEALS = 3
    game = make_ruled_game("open-ended")
    make_deals(game, 3)
    return game


def written(game: Game) -> tuple[int, int, int]:
    """What a refused deal must leave as it was: deals, history lines, the game's version."""
    return (
        game.deals.count(),
        GameChange.objects.filter(game=game).count(),
        Game.objects.get(pk=game.pk).version,
    )


def test_the_deal_past_the_bound_is_refused_naming_it_and_nothing_is_saved(full):
    before = written(full)
    with pytest.raises(services.GameFull) as refused:
        record(full, 0, 1, 1, 1)
    assert refused.value.message == (
        "A game can have at most 3 deals, and this one has them all, so deal 4 can't be"
        " recorded. End the match to bank the totals, then start a new game to play on."
    )
    assert written(full) == before


def test_a_game_that_ends_by_itself_is_told_to_start_a_new_one(settings):
    settings.GAME_MAX_DEALS = 2
    game = make_game()
    make_deals(game, 2)
    with pytest.raises(services.GameFull) as refused:
        record(game, 0, 1, 1, 1)
    assert refused.value.message == (
        "A game can have at most 2 deals, and this one has them all, so deal 3 can't be"
        " recorded. Start a new game to play on."
    )
    assert game.deals.count() == 2


def test_the_bound_is_the_setting_when_the_deal_is_sent(settings, full):
    settings.GAME_MAX_DEALS = 4
    record(full, 0, 1, 1, 1)
    assert full.deals.count() == 4


def test_the_last_deal_the_bound_allows_sent_again_is_still_that_deal(full):
    last = full.deals.get(number=3)
    again = services.record_deal(
        game=full, number=3, token=last.token, cards_left=[1, 1, 0, 1], by=full.club.owner
    )
    assert again.deal.pk == last.pk
    assert full.deals.count() == 3


@WAYS
def test_the_deal_form_past_the_bound_says_why_and_saves_nothing(client, full, headers):
    client.force_login(full.club.owner)
    before = written(full)
    response = client.post(f"/games/{full.pk}/deals/", deal_post(full, 0, 4, 5, 6), headers=headers)
    assert response.status_code == 200
    alert = re.search(r'role="alert">(.*?)</', response.content.decode(), re.S)
    assert alert and "A game can have at most 3 deals" in alert.group(1)
    assert written(full) == before


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_phones_racing_past_the_bound_record_no_more_deals_than_it(settings):
    settings.GAME_MAX_DEALS = 2
    game = make_ruled_game("open-ended")
    record(game, 0, 1, 1, 1)
    owner = game.club.owner

    def send(number: int, seat_out: int) -> int:
        cards = [1, 1, 1, 1]
        cards[seat_out] = 0
        services.record_deal(
            game=Game.objects.get(pk=game.pk),
            number=number,
            cards_left=cards,
            token=uuid.uuid4(),
            by=owner,
        )
        return number

    # Two phones send deal 2, and two more the deal after it, kept offline meanwhile.
    outcomes = at_once(*(partial(send, number, seat) for number in (2, 3) for seat in (0, 1)))

    assert outcomes.count("done: 2") == 1, outcomes
    refused = [outcome for outcome in outcomes if outcome != "done: 2"]
    assert all(outcome.startswith("refused: ") for outcome in refused), outcomes
    assert Deal.objects.filter(game=game).count() == 2


# A season's rules


def start(club, rules: RuleSet) -> None:
    services.start_season(
        club=club,
        name="Long nights",
        starts_on=datetime.date(2027, 3, 1),
        rules=rules,
        by=club.owner,
    )


def test_a_season_cant_agree_on_more_deals_than_a_game_can_have(club):
    with pytest.raises(services.ScoringError) as refused:
        start(club, RuleSet(finish=Finish.DEALS, deals=501))
    assert refused.value.message == (
        "A game can have at most 500 deals, so a match can't be 501 deals: choose 500 or fewer."
    )
    assert club.seasons.count() == 1
    start(club, RuleSet(finish=Finish.DEALS, deals=500))
    assert club.seasons.get(is_current=True).ruleset.deals == 500


def test_a_target_too_far_for_the_deals_a_game_can_have_is_refused_saying_which_fits(club):
    season = club.seasons.get()
    with pytest.raises(services.ScoringError) as refused:
        services.set_season_rules(
            season=season, rules=RuleSet(target=4001), stake=None, by=club.owner
        )
    assert refused.value.message == (
        "A match to 4001 would take about 501 deals under penalties for cards left, and a game"
        " can have at most 500: choose a target of at most 4000."
    )
    assert season.rules == club.seasons.get().rules == RuleSet().name
    pusoy = RuleSet(scoring=Scoring.PUSOY_DOS, target=626)
    with pytest.raises(services.ScoringError, match="choose a target of at most 625"):
        services.set_season_rules(season=season, rules=pusoy, stake=None, by=club.owner)
    services.set_season_rules(season=season, rules=RuleSet(target=4000), stake=None, by=club.owner)
    assert club.seasons.get().ruleset.target == 4000


def test_an_open_ended_season_is_as_long_as_the_table_plays(settings, club):
    settings.GAME_MAX_DEALS = 1
    start(club, RuleSet(finish=Finish.OPEN))
    assert club.seasons.get(is_current=True).ruleset.finish is Finish.OPEN


def test_the_season_form_says_the_bound_and_keeps_what_was_chosen(owner_client, club):
    data = PUSOY_TWOS | {"name": "Long nights", "starts_on": "2027-03-01", "ends_on": ""}
    response = owner_client.post(
        f"/clubs/{club.pk}/seasons/new/", data | {"finish": "deals", "deals": "600"}
    )
    assert response.status_code == 200
    page = text(response)
    assert "a match can&#x27;t be 600 deals: choose 500 or fewer." in page
    assert re.search(r'name="deals" value="600"', page)
    assert club.seasons.count() == 1
