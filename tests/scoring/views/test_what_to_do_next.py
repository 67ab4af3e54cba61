"""The game page says what to do next (issue 29): after "Went out", what is left to type and
whose button it marked (item 4); in a tie, the banner above the form and a hint that no longer
speaks of a target already passed (item 9). Both without JavaScript: the server draws them."""

from __future__ import annotations

import html
import re

import pytest

from scoring import services
from tests.factories import make_ruled_game, record
from tests.pages import deal_post, text

pytestmark = pytest.mark.django_db


def hint(page: str) -> str:
    found = re.search(r'<p class="muted small hint" id="deal-hint"[^>]*>(.*?)</p>', page)
    assert found, "no hint under the deal form"
    return html.unescape(found[1])


def pressed(page: str) -> dict[str, str]:
    """Each player's "Went out": its aria-pressed."""
    return {
        name: state
        for state, name in re.findall(
            r'name="went_out" aria-pressed="(true|false)"[^>]*aria-label="(\w+) went out"', page
        )
    }


def test_went_out_says_what_to_type_next_and_shows_whose_it_marked(owner_client, game):
    page = text(owner_client.get(f"/games/{game.pk}/"))
    assert hint(page) == (
        "Tap “Went out” for the player who played their last card. The game ends once anyone"
        " reaches 100."
    )
    assert pressed(page) == {"Ann": "false", "Ben": "false", "Cy": "false", "Dee": "false"}

    # Without JavaScript the tap sends the form, and the server marks Cy out.
    tapped = deal_post(game, 4, 5, 7, 9) | {"went_out": "2"}
    page = text(owner_client.post(f"/games/{game.pk}/deals/", tapped))
    assert hint(page) == (
        "Cy went out. Now type the cards left by the others, then tap “Record deal”."
    )
    assert pressed(page) == {"Ann": "false", "Ben": "false", "Cy": "true", "Dee": "false"}
    # The words for static/js/game-page.js, which says the same as a player is marked out.
    assert 'data-say-went-out="{name} went out. Now type the cards left by the others' in page
    assert not game.deals.exists()


def test_under_points_by_hand_went_out_asks_the_others_points(owner_client, club):
    game = make_ruled_game("points-by-hand", club=club)
    data = deal_post(game) | {"points_1": "0", "points_2": "", "went_out": "1"}
    page = text(owner_client.post(f"/games/{game.pk}/deals/", data))
    assert hint(page) == "Ben went out. Now type the others' points, then tap “Record deal”."


def tied_past_the_target(game) -> None:
    """Ben and Cy tied for lowest on 40 with Dee on 117: the target is passed, play goes on."""
    record(game, 13, 0, 1, 13)
    record(game, 13, 1, 0, 13)
    record(game, 0, 13, 13, 13)
    assert [seat.total for seat in game.seats.order_by("position")] == [78, 40, 40, 117]


def test_a_tie_is_said_above_the_form_and_the_hint_forgets_the_target(owner_client, game):
    tied_past_the_target(game)
    page = text(owner_client.get(f"/games/{game.pk}/"))
    banner = page.index("Ben and Cy are tied for lowest on 40 — play another deal")
    assert banner < page.index('<form id="deal-form"')
    assert page.count("Ben and Cy are tied for lowest") == 1  # not on the board as well
    assert "reaches 100" not in hint(page)
    assert hint(page) == (
        "Tap “Went out” for the player who played their last card. The game ends after the"
        " first deal that leaves one player lowest alone."
    )


def test_the_live_view_still_shows_the_tie_on_its_board(owner_client, club, game):
    tied_past_the_target(game)
    token = services.share_game(game=game, by=club.owner)
    page = text(owner_client.get(f"/live/{token}/"))
    assert "Ben and Cy are tied for lowest on 40 — play another deal" in page
