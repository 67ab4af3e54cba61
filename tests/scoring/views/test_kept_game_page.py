"""The game page kept rendered under the game's version (issue 16; scoring/views/pages.py,
`kept_game_page`): what each request gets is its own (CSRF token, deal token, poll pass), what a
change shows is shown at once, and who may not see the game still can't."""

import re
from unittest.mock import patch

import pytest
from django.contrib.messages import SUCCESS
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scoring import services
from scoring.models import Club, Deal
from scoring.poll_tokens import poll_series_key
from tests.factories import make_deals, make_game, make_member, record
from tests.pages import HTMX, deal_post, embedded, poll_address, text

pytestmark = pytest.mark.django_db


def deal_token(response) -> str:
    return re.search(r'name="token" value="([^"]+)"', response.content.decode())[1]


def csrf_token(response) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', response.content.decode())[1]


def test_each_load_gets_its_own_deal_token_csrf_token_and_poll_pass(owner, club):
    phone = Client(enforce_csrf_checks=True)
    phone.force_login(owner)
    game = make_game(club)
    make_deals(game, 2)
    first, second = (phone.get(f"/games/{game.pk}/") for _ in range(2))
    assert deal_token(first) != deal_token(second)
    # Each page's form is recorded with what that page carries.
    for page, cards in ((first, (0, 3, 5, 2)), (second, (4, 0, 1, 1))):
        data = deal_post(game, *cards, token=deal_token(page))
        data["csrfmiddlewaretoken"] = csrf_token(page)
        answer = phone.post(f"/games/{game.pk}/deals/", data)
        assert answer.status_code == 302, text(answer)
    assert game.deals.count() == 4
    # The pass each page's poll carries is one the server takes: nothing new is a 204.
    third = phone.get(f"/games/{game.pk}/")
    assert phone.get(poll_address(third)).status_code == 204


def test_a_deal_recorded_by_another_phone_shows_on_the_next_load(owner_client, owner, game):
    record(game, 0, 3, 5, 2)
    assert "Deal 2" in text(owner_client.get(f"/games/{game.pk}/"))
    other = Client()
    other.force_login(owner)
    other.post(f"/games/{game.pk}/deals/", deal_post(game, 4, 0, 1, 1))
    page = text(owner_client.get(f"/games/{game.pk}/"))
    assert "Deal 3" in page
    assert "Deal 2 recorded." not in page  # the other phone's message is the other phone's


def test_a_renamed_club_and_a_shared_game_show_at_once(owner_client, owner, club, game):
    owner_client.get(f"/games/{game.pk}/")
    Club.objects.filter(pk=club.pk).update(name="Thursday table")  # as the admin renames it
    assert "‹ Thursday table" in text(owner_client.get(f"/games/{game.pk}/"))
    token = services.share_game(game=game, by=owner)
    assert f"/live/{token}/" in text(owner_client.get(f"/games/{game.pk}/"))


def test_a_message_is_shown_once_then_the_kept_page_again(owner_client, game):
    owner_client.get(f"/games/{game.pk}/")
    answer = owner_client.post(f"/games/{game.pk}/deals/", deal_post(game, 0, 3, 5, 2))
    assert answer.status_code == 302
    with_message = owner_client.get(f"/games/{game.pk}/")
    assert [m.level for m in with_message.context["messages"]] == [SUCCESS]
    assert "Deal 1 recorded." in text(with_message)
    assert "Deal 1 recorded." not in text(owner_client.get(f"/games/{game.pk}/"))


def test_each_member_sees_their_own_page(owner_client, club, game):
    bo = make_member(club, "bo")
    owner_client.get(f"/games/{game.pk}/")
    bo_client = Client()
    bo_client.force_login(bo)
    page = text(bo_client.get(f"/games/{game.pk}/"))
    assert "Delete this game" not in page  # the owner's copy has it
    assert "Delete this game" in text(owner_client.get(f"/games/{game.pk}/"))


def test_one_member_s_load_renders_the_page_for_the_table(owner_client, club, game):
    """Members see the same page: the first to open a version renders it, the others get it
    kept, each with their own pass, deal token and the user their phone keeps deals under."""
    make_deals(game, 2)
    bo, cy = make_member(club, "bo"), make_member(club, "cy")
    phones = {}
    for member in (bo, cy):
        phones[member] = Client()
        phones[member].force_login(member)
    first = phones[bo].get(f"/games/{game.pk}/")
    with CaptureQueriesContext(connection) as queries:
        second = phones[cy].get(f"/games/{game.pk}/")
    assert not any("scoring_deal" in query["sql"] for query in queries)  # nothing rendered
    assert first.templates and not second.templates
    assert offline_user(first) == str(bo.pk) and offline_user(second) == str(cy.pk)
    assert deal_token(first) != deal_token(second)
    assert poll_address(first) != poll_address(second)
    assert phones[cy].get(poll_address(second)).status_code == 204  # cy's own pass
    # The owner's page has the owner's links: kept apart from the members'.
    assert "Delete this game" in text(owner_client.get(f"/games/{game.pk}/"))
    assert "Delete this game" not in text(phones[cy].get(f"/games/{game.pk}/"))


def test_a_kept_page_reads_its_pass_series_along_with_the_page(club, game, settings):
    """Where one store (Redis) keeps both the rendered pages and the passes' series, one round
    trip reads the page and what its pass is signed with."""
    settings.CACHES = {**settings.CACHES, "rendered": settings.CACHES["shared"]}
    bo = make_member(club, "bo")
    phone = Client()
    phone.force_login(bo)
    phone.get(f"/games/{game.pk}/")  # renders the page and keeps it
    cache, reads = caches["rendered"], []
    read_one, read_many = cache.get, cache.get_many

    def get(key, *args, **kwargs):
        reads.append([key])
        return read_one(key, *args, **kwargs)

    def get_many(keys, *args, **kwargs):
        reads.append(list(keys))
        # Django's own get_many may call get once a key: those aren't round trips of their own.
        with patch.object(cache, "get", read_one):
            return read_many(keys, *args, **kwargs)

    with patch.object(cache, "get", get), patch.object(cache, "get_many", get_many):
        kept = phone.get(f"/games/{game.pk}/")
    assert not kept.templates
    series = poll_series_key(bo.pk)
    assert [series] not in reads
    assert any(series in keys and keys[0].startswith("game-page:") for keys in reads), reads
    assert phone.get(poll_address(kept)).status_code == 204  # the pass is good


def offline_user(response) -> str:
    return embedded(response.content.decode(), "offline-game")["user"]


def test_a_member_who_left_gets_a_404_not_the_kept_page(club, game):
    bo = make_member(club, "bo")
    bo_client = Client()
    bo_client.force_login(bo)
    assert bo_client.get(f"/games/{game.pk}/").status_code == 200
    services.leave_club(club=club, user=bo)
    assert bo_client.get(f"/games/{game.pk}/").status_code == 404


def test_htmx_asks_for_the_live_part_alone(owner_client, game):
    owner_client.get(f"/games/{game.pk}/")
    live = owner_client.get(f"/games/{game.pk}/", headers=HTMX)
    assert live.content.decode().lstrip().startswith('<div id="game-live"')


def test_an_undone_deal_comes_back_in_the_form_after_the_kept_page(owner_client, game):
    record(game, 0, 3, 5, 2)
    owner_client.get(f"/games/{game.pk}/")
    assert owner_client.post(f"/games/{game.pk}/undo/", {"number": "1"}).status_code == 302
    assert not Deal.objects.filter(game=game).exists()
    page = text(owner_client.get(f"/games/{game.pk}/"))
    assert 'name="cards_1" id="id_cards_1" value="3"' in page
    assert 'name="cards_1" id="id_cards_1" value=""' in text(owner_client.get(f"/games/{game.pk}/"))
