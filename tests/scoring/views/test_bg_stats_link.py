"""The link "Send to BG Stats" comes with the board that finishes the game: in htmx's answer to
the deal that ends it and in the board a following phone fetches, not only after a reload; the
shared live view, which offers nothing to do, has none."""

from __future__ import annotations

import pytest

from scoring import services
from tests.factories import record
from tests.pages import HTMX, deal_post, text

pytestmark = pytest.mark.django_db

SEND = "Send to BG Stats"


@pytest.fixture
def last_deal_to_play(game):
    """Two deals of 0 13 13 13: the third ends the game (Ben, Cy and Dee pass 100)."""
    for _ in range(2):
        record(game, 0, 13, 13, 13)
    return game


def test_the_answer_to_the_deal_that_ends_the_game_offers_it(owner_client, last_deal_to_play):
    game = last_deal_to_play
    data = deal_post(game, 0, 13, 13, 13) | {"shown": str(game.version)}

    page = text(owner_client.post(f"/games/{game.pk}/deals/", data, headers=HTMX))

    assert "Ann wins" in page
    assert SEND in page


def test_the_board_a_following_phone_fetches_offers_it(owner_client, last_deal_to_play):
    game = last_deal_to_play
    shown = game.version
    record(game, 0, 13, 13, 13)

    board = owner_client.get(f"/games/{game.pk}/board/?v={shown}&deal=3", headers=HTMX)

    assert "Ann wins" in text(board)
    assert SEND in text(board)


def test_the_shared_live_view_offers_nothing_to_send(client, owner, last_deal_to_play):
    game = last_deal_to_play
    token = services.share_game(game=game, by=owner)
    record(game, 0, 13, 13, 13)

    assert SEND not in text(client.get(f"/live/{token}/"))
    assert SEND not in text(client.get(f"/live/{token}/board/?v=2", headers=HTMX))
