"""Following a game live: the read-only share link, and the polls that answer "nothing new"."""

import re

import pytest
from django.test import Client

from scoring import services
from scoring.models import Game
from tests.factories import make_deals, make_game, make_member, make_user, record
from tests.pages import embedded, poll_address, who_is_asking

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def share(client, game: Game) -> str:
    """Share `game` as the signed-in member of `client`; return the live view's path."""
    response = client.post(f"/games/{game.pk}/share/")
    assert response.status_code == 302
    game.refresh_from_db()
    return f"/live/{game.share_token}/"


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def board_version(html: str) -> str:
    return re.search(r'id="board-follow"[^>]*hx-get="[^"]*\?v=(\d+)', html).group(1)


# The share link


def test_sharing_makes_a_long_random_token_and_the_page_offers_the_link(owner_client, game):
    html = text(owner_client.get(f"/games/{game.pk}/"))
    assert "Share a live view" in html
    assert "Stop sharing" not in html

    path = share(owner_client, game)
    assert len(game.share_token) >= 43  # 32 random bytes, base64
    html = text(owner_client.get(f"/games/{game.pk}/"))
    assert f"http://testserver{path}" in html
    assert "Stop sharing" in html


def test_the_live_view_shows_the_scoreboard_without_an_account(client, owner_client, game):
    record(game, 0, 5, 10, 13)
    path = share(owner_client, game)
    client.logout()

    response = client.get(path)
    assert response.status_code == 200
    assert response["X-Robots-Tag"] == "noindex"
    html = text(response)
    assert '<th scope="col">Ann</th>' in html
    assert re.search(r"<tfoot[^>]*>.*>0<.*>5<.*>20<.*>39<.*</tfoot>", html)
    assert "Running totals after each deal" in html


def test_the_live_view_has_no_forms_links_into_the_club_or_usernames(client, club, owner):
    game = make_game(club, by=owner)
    record(game, 0, 5, 10, 13, by=owner)
    services.share_game(game=game, by=owner)

    html = text(client.get(f"/live/{game.share_token}/"))
    # The page's own content; the footer's language switcher is the site's, not the club's.
    assert "<form" not in html.split("<main")[1].split("</main>")[0]
    assert "Record deal" not in html
    assert f"/games/{game.pk}/" not in html
    assert f"/clubs/{club.pk}/" not in html
    assert club.name not in html
    assert "owner" not in html  # the recorder's username: no history here
    assert "History" not in html


def test_the_live_view_shows_the_result_of_a_finished_game(client, club, owner):
    game = make_game(club, by=owner)
    for cards in [(0, 13, 13, 5), (5, 13, 13, 0), (1, 0, 13, 1), (0, 1, 1, 2)]:
        record(game, *cards)
    services.share_game(game=game, by=owner)

    html = text(client.get(f"/live/{game.share_token}/"))
    assert "Ann wins with 6" in html
    assert "Final totals: Ann 6, Ben 79, Cy 118, Dee 8." in html


def test_stopping_sharing_makes_the_link_not_found_at_once(client, owner_client, game):
    path = share(owner_client, game)
    response = owner_client.post(f"/games/{game.pk}/share/stop/")
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.share_token is None
    assert client.get(path).status_code == 404
    assert client.get(f"{path}board/?v=0").status_code == 404
    assert "Share a live view" in text(owner_client.get(f"/games/{game.pk}/"))


def test_sharing_again_makes_a_new_link_and_the_old_one_stops(client, owner_client, game):
    old = share(owner_client, game)
    new = share(owner_client, game)
    assert new != old
    assert client.get(old).status_code == 404
    assert client.get(new).status_code == 200


def test_any_member_can_share_and_stop_sharing(client, club, game):
    member = make_member(club)
    client.force_login(member)
    share(client, game)
    assert client.get(f"/live/{game.share_token}/").status_code == 200
    client.post(f"/games/{game.pk}/share/stop/")
    game.refresh_from_db()
    assert game.share_token is None


def test_someone_outside_the_club_can_neither_share_nor_stop_sharing(client, owner, game):
    services.share_game(game=game, by=owner)
    token = game.share_token
    client.force_login(make_user())
    assert client.post(f"/games/{game.pk}/share/").status_code == 404
    assert client.post(f"/games/{game.pk}/share/stop/").status_code == 404
    game.refresh_from_db()
    assert game.share_token == token


def test_sharing_needs_a_signed_in_member_and_a_post(client, owner_client, game):
    assert owner_client.get(f"/games/{game.pk}/share/").status_code == 405
    client.logout()
    response = client.post(f"/games/{game.pk}/share/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
    game.refresh_from_db()
    assert game.share_token is None


@pytest.mark.parametrize("token", ["", "x", "not-a-token", "a" * 43, "a" * 500])
def test_any_wrong_token_is_simply_not_found(client, owner, game, token):
    services.share_game(game=game, by=owner)
    Game.objects.filter(pk=game.pk).update(share_token=None)  # and a game that isn't shared
    for path in (f"/live/{token}/", f"/live/{token}/board/?v=0"):
        assert client.get(path).status_code == 404


# The version and the polls


def test_every_change_to_the_deals_counts_the_version_up(game, owner):
    assert game.version == 0
    record(game, 0, 5, 10, 13)
    assert game.version == 1
    services.edit_deal(game=game, number=1, cards_left=[0, 5, 10, 12], by=owner)
    assert game.version == 2
    services.undo_last_deal(game=game, by=owner)
    assert game.version == 3
    game.refresh_from_db()
    assert game.version == 3


def test_a_resent_deal_changes_nothing_and_keeps_the_version(game, owner):
    deal = record(game, 0, 5, 10, 13)
    again = record(game, 0, 5, 10, 13, token=deal.token)
    assert again == deal
    game.refresh_from_db()
    assert game.version == 1


def test_the_live_poll_answers_204_while_nothing_changed(client, owner, game):
    services.share_game(game=game, by=owner)
    html = client.get(f"/live/{game.share_token}/").content.decode()
    version = board_version(html)
    assert f'hx-get="/live/{game.share_token}/board/?v={version}"' in html
    # A poll every 2 s, which its stream holds back while it speaks (test_live_view_stream.py).
    assert 'hx-trigger="every 2s, changed"' in html

    response = client.get(f"/live/{game.share_token}/board/?v={version}", headers=HTMX)
    assert response.status_code == 204
    assert response.content == b""
    assert "no-store" in response["Cache-Control"]


def test_the_live_poll_answers_the_new_board_after_a_deal(client, owner, game):
    services.share_game(game=game, by=owner)
    version = board_version(client.get(f"/live/{game.share_token}/").content.decode())
    record(game, 0, 5, 10, 13)

    response = client.get(f"/live/{game.share_token}/board/?v={version}", headers=HTMX)
    assert response.status_code == 200
    html = text(response)
    assert html.lstrip().startswith('<div id="game-board"')
    assert "<html" not in html
    assert re.search(r'<th scope="row">1</th> <td class="went-out-cell">', html)
    assert board_version(html) == str(int(version) + 1)
    assert "/edit/" not in html
    # The new board asks from its own version on: nothing new again.
    again = client.get(f"/live/{game.share_token}/board/?v={board_version(html)}")
    assert again.status_code == 204


def test_the_members_poll_answers_204_then_the_board_without_the_form(owner_client, game):
    html = owner_client.get(f"/games/{game.pk}/").content.decode()
    version = board_version(html)
    assert f'hx-get="/games/{game.pk}/board/?v={version}&amp;deal=1"' in html
    poll = f"/games/{game.pk}/board/?v={version}&deal=1"
    assert owner_client.get(poll, headers=HTMX).status_code == 204

    record(game, 0, 5, 10, 13)
    response = owner_client.get(poll, headers=HTMX)
    assert response.status_code == 200
    html = text(response)
    assert html.lstrip().startswith('<div id="game-board"')
    assert 'id="deal-form"' not in html
    assert "Edit deal 1" in html
    assert "owner recorded deal 1: 0 5 10 13" in html
    # The form still on the page is for deal 1, which is now taken: say so, and offer a new one.
    assert "the next deal is deal 2" in html
    assert "Get the form for deal 2" in html


def test_the_members_poll_says_when_the_game_ended_elsewhere(owner_client, game):
    for cards in [(0, 13, 13, 5), (5, 13, 13, 0), (1, 0, 13, 1)]:
        record(game, *cards)
    record(game, 0, 1, 1, 2)  # another phone records the last deal
    html = text(owner_client.get(f"/games/{game.pk}/board/?v=3&deal=4", headers=HTMX))
    assert "Ann wins with 6" in html
    assert "The game is over" in html
    assert "Show the result" in html


def test_the_members_board_names_no_stale_form_when_the_form_is_current(owner_client, game):
    record(game, 0, 5, 10, 13)
    html = text(owner_client.get(f"/games/{game.pk}/board/?v=0&deal=2", headers=HTMX))
    assert 'id="game-board"' in html
    assert "stale-form" not in html


def test_the_members_poll_is_for_members_only_and_never_redirects(client, game):
    url = f"/games/{game.pk}/board/?v=0"
    assert client.get(url, headers=HTMX).status_code == 403
    client.force_login(make_user())
    assert client.get(url, headers=HTMX).status_code == 404
    assert client.get(f"/games/{game.pk + 1000}/board/?v=0").status_code == 404


def test_the_live_poll_with_nothing_new_costs_one_query(
    client, owner, game, django_assert_num_queries
):
    services.share_game(game=game, by=owner)
    url = f"/live/{game.share_token}/board/?v=0"
    with django_assert_num_queries(1):
        assert client.get(url, headers=HTMX).status_code == 204


@pytest.mark.parametrize("deals", [0, 12])
def test_the_members_poll_with_nothing_new_costs_one_query_and_who_is_asking(
    owner_client, game, deals, django_assert_num_queries
):
    """The game's version with the member's access, however long the game, and who is
    asking."""
    make_deals(game, deals)
    url = f"/games/{game.pk}/board/?v={deals}&deal={deals + 1}"
    with django_assert_num_queries(1 + who_is_asking()):
        assert owner_client.get(url, headers=HTMX).status_code == 204


@pytest.mark.parametrize("deals", [2, 12])
def test_the_live_board_runs_a_fixed_number_of_queries(
    client, owner, game, deals, django_assert_num_queries
):
    make_deals(game, deals)
    services.share_game(game=game, by=owner)
    # The version; the seats, with the game as it is now, if it is still shared; the deals.
    with django_assert_num_queries(3):
        assert client.get(f"/live/{game.share_token}/board/?v=0").status_code == 200


@pytest.mark.parametrize("deals", [2, 12])
def test_the_members_board_runs_a_fixed_number_of_queries(
    owner_client, game, deals, django_assert_num_queries
):
    make_deals(game, deals)
    url = f"/games/{game.pk}/board/?v=0&deal=1"
    # The version; the seats, with the game, if the member may still see it; the deals; the
    # history.
    with django_assert_num_queries(4 + who_is_asking()):
        assert owner_client.get(url, headers=HTMX).status_code == 200


def test_the_live_pages_need_no_inline_script_style_or_eval(client, owner_client, owner, game):
    record(game, 0, 13, 13, 5)
    services.share_game(game=game, by=owner)
    pages = [
        client.get(f"/live/{game.share_token}/").content.decode(),
        client.get(f"/live/{game.share_token}/board/?v=0").content.decode(),
        owner_client.get(f"/games/{game.pk}/board/?v=0&deal=1").content.decode(),
        owner_client.get(f"/games/{game.pk}/").content.decode(),
    ]
    for html in pages:
        assert " style=" not in html
        assert "hx-on" not in html
        # A JSON data block (`json_script`, for static/js/waiting-deals.js) runs nothing.
        assert not re.search(r'<script(?![^>]*(?:nonce=|src=|type="application/json"))', html)
        assert not re.search(r'hx-trigger="[^"]*\[', html)


# A deal typed is never lost (the page side; the retry itself is in tests/browser/test_live.py)


def test_the_deal_form_loads_the_queue_and_what_it_keeps_deals_under(owner_client, game):
    html = owner_client.get(f"/games/{game.pk}/").content.decode()
    offline = embedded(html, "offline-game")
    assert (offline["game"], offline["user"]) == (game.pk, str(game.club.owner.pk))
    assert re.search(r'<script src="/static/js/waiting-deals.js" defer></script>', html)
    assert 'id="live-notice" class="live-notice" role="status"' in html


def test_an_open_live_view_is_told_when_sharing_stops_and_stops_polling(client, game):
    token = services.share_game(game=game, by=game.club.owner)
    services.stop_sharing(game=game, by=game.club.owner)
    response = client.get(f"/live/{token}/board/?v=0", headers={"HX-Request": "true"})
    assert response.status_code == 286
    assert "This live view has been stopped" in response.content.decode()
    assert client.get(f"/live/{token}/board/?v=0").status_code == 404


def test_the_cached_board_follows_every_change_and_never_crosses_views(owner_client, game):
    """The board is cached per game version and view: an edit shows at once, and the shared
    view never gets the members' copy (with its history and usernames), nor the reverse."""
    record(game, 0, 5, 9, 13)
    token = services.share_game(game=game, by=game.club.owner)
    member_page = owner_client.get(f"/games/{game.pk}/").content.decode()
    shared_page = Client().get(f"/live/{token}/").content.decode()
    assert "History" in member_page
    assert "History" not in shared_page
    assert game.club.owner.username not in shared_page

    services.edit_deal(game=game, number=1, cards_left=[0, 5, 8, 13], by=game.club.owner)
    assert "8 left" in owner_client.get(f"/games/{game.pk}/").content.decode()
    assert "8 left" in Client().get(f"/live/{token}/").content.decode()


# Who may poll: checked on every poll, so a member who loses access is refused at once


def test_a_removed_members_poll_does_not_get_them_the_board(client, owner, club, game):
    member = make_member(club)
    client.force_login(member)
    poll = poll_address(client.get(f"/games/{game.pk}/"))
    assert client.get(poll, headers=HTMX).status_code == 204
    services.remove_member(club=club, member=member, by=owner)

    assert client.get(poll, headers=HTMX).status_code == 404
    record(game, 0, 5, 10, 13)
    response = client.get(poll, headers=HTMX)
    assert response.status_code == 404
    assert "0 5 10 13" not in response.content.decode()


def test_a_member_who_leaves_is_refused_by_the_next_poll(client, club, game):
    member = make_member(club)
    client.force_login(member)
    poll = poll_address(client.get(f"/games/{game.pk}/"))
    services.leave_club(club=club, user=member)
    assert client.get(poll, headers=HTMX).status_code == 404


def test_a_poll_is_for_the_members_own_games_only(client, owner, club, game):
    other = make_game()  # in a club of its own
    client.force_login(owner)
    poll = poll_address(client.get(f"/games/{game.pk}/"))
    stolen = re.sub(r"/games/\d+/board/\?v=\d+", f"/games/{other.pk}/board/?v=0", poll)
    assert client.get(stolen, headers=HTMX).status_code == 404
    client.logout()
    assert client.get(stolen, headers=HTMX).status_code == 403


def test_a_signed_out_phones_poll_is_refused_at_once(owner_client, game):
    poll = poll_address(owner_client.get(f"/games/{game.pk}/"))
    owner_client.logout()
    assert owner_client.get(poll, headers=HTMX).status_code == 403
