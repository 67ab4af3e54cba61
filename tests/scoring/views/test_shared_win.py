"""Ending a tied open-ended match from the game page, without JavaScript: the page says who is
tied and offers the choice (one more deal, or the match ended with the win shared), and every
page that names a game's winner names each who shared it."""

from __future__ import annotations

import re

from scoring.models import Game
from tests.factories import make_ruled_game, record
from tests.pages import text


def tied_open_match(club=None) -> Game:
    """An open-ended match after two deals: Ann and Ben on 5, Cy and Dee on 10."""
    game = make_ruled_game("open-ended", club=club)
    record(game, 0, 5, 5, 5)
    record(game, 5, 0, 5, 5)
    return game


def end_form(page: str) -> str:
    found = re.search(r'<form class="end-match".*?</form>', page, re.S)
    assert found, "no End match form"
    return found[0]


def test_a_tied_match_shows_plain_end_match_while_it_is_played(client, db):
    """Open-ended, a tie matters only when the table stops: the page doesn't dwell on it."""
    game = tied_open_match()
    client.force_login(game.club.owner)

    page = text(client.get(f"/games/{game.pk}/"))

    assert "End match</button>" in end_form(page)
    assert "Ann and Ben are tied" not in page and 'name="sharing"' not in page


def test_end_match_on_a_tie_offers_one_more_deal_or_the_win_shared(client, db):
    game = tied_open_match()
    client.force_login(game.club.owner)

    response = client.post(f"/games/{game.pk}/end/")

    assert response.status_code == 200
    page = text(response)
    form = end_form(page)
    assert "Ann and Ben are tied for lowest on 5." in form
    assert 'type="submit"' in form and "End match: Ann and Ben share the win" in form
    assert '<input type="hidden" name="sharing" value="0">' in form
    assert '<input type="hidden" name="sharing" value="1">' in form
    assert f'href="/games/{game.pk}/#deal-form"' in form and "Play one more deal" in form
    # The choice comes first, above the deal form, where the answer opens.
    assert page.index('class="end-match"') < page.index('id="deal-form"')
    game.refresh_from_db()
    assert not game.is_finished and not game.ended


def test_choosing_the_shared_win_ends_the_match_and_the_page_says_who_shares_it(client, db):
    game = tied_open_match()
    client.force_login(game.club.owner)

    response = client.post(f"/games/{game.pk}/end/", {"sharing": ["0", "1"]})

    assert response.status_code == 302
    page = text(client.get(response["Location"]))
    assert "The match is over." in page
    assert '<h2 id="result-title">Ann and Ben share the win with 5</h2>' in page
    assert 'id="deal-form"' not in page and 'class="end-match"' not in page
    assert "ended the match after deal 2: 5 5 10 10" in page


def test_a_shared_win_on_totals_changed_since_is_refused_and_the_page_shows_them(client, db):
    game = tied_open_match()
    record(game, 0, 1, 1, 1)  # Ann now lowest alone
    client.force_login(game.club.owner)

    response = client.post(f"/games/{game.pk}/end/", {"sharing": ["0", "1"]})

    page = text(response)
    assert 'role="alert">The totals have changed since this page was shown' in page
    assert "End match</button>" in end_form(page)  # Ann alone lowest: nothing to choose
    game.refresh_from_db()
    assert not game.is_finished


def test_the_club_page_lists_the_game_as_a_win_shared(client, db):
    game = tied_open_match()
    client.force_login(game.club.owner)
    client.post(f"/games/{game.pk}/end/", {"sharing": ["0", "1"]})

    page = text(client.get(f"/clubs/{game.club_id}/"))

    assert "Ann and Ben shared the win" in page


def test_the_live_view_shows_the_win_shared(client, db):
    game = tied_open_match()
    client.force_login(game.club.owner)
    client.post(f"/games/{game.pk}/share/")
    client.post(f"/games/{game.pk}/end/", {"sharing": ["0", "1"]})
    game.refresh_from_db()
    client.logout()

    page = text(client.get(f"/live/{game.share_token}/"))

    assert "Ann and Ben share the win with 5" in page


def test_the_game_page_reads_in_chinese(client, db):
    game = tied_open_match()
    client.force_login(game.club.owner)
    client.post(f"/games/{game.pk}/end/", {"sharing": ["0", "1"]})

    client.post("/i18n/setlang/", {"language": "zh-hant", "next": "/"})
    page = text(client.get(f"/games/{game.pk}/"))

    assert "Ann 和 Ben 同以 5 分並列勝出" in page
