"""Not found, not allowed, a bad request, a failure and an expired form: each in the site's own
layout (its header and navigation, a way on, and a way to log in for a visitor who isn't), never
Django's bare page. And a 404 tells nobody whether someone else's club exists."""

import re

import pytest
from django.conf import settings
from django.test import Client, override_settings

from scoring.models import Club, Game
from tests import failing_urls
from tests.factories import make_club, make_game, make_member, make_user, record

pytestmark = pytest.mark.django_db

FAILING_URLS = override_settings(ROOT_URLCONF="tests.failing_urls")


def page(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def in_the_sites_layout(html: str) -> bool:
    return '<header class="site-header">' in html and 'href="/check/">Check a hand</a>' in html


def test_the_tests_see_the_error_pages_a_visitor_sees():
    """With DEBUG on, Django shows its technical pages instead: the tests run with it off."""
    assert settings.DEBUG is False


def test_a_visitor_who_finds_nothing_is_offered_a_way_to_log_in_and_back_here(client):
    response = client.get("/no/such/page/?from=a+link")
    assert response.status_code == 404
    html = page(response)
    assert in_the_sites_layout(html)
    assert '<h1 id="error-title">Page not found</h1>' in html
    assert "The requested resource was not found on this server" not in html
    assert 'href="/accounts/login/?next=/no/such/page/%3Ffrom%3Da%2Blink"' in html
    assert 'href="/accounts/signup/"' in html


def test_a_signed_in_player_who_finds_nothing_is_pointed_to_their_clubs(client):
    client.force_login(make_user())
    html = page(client.get("/clubs/999999/"))
    assert in_the_sites_layout(html)
    assert "Page not found" in html
    assert "ask one of them for the club's invite link" in html
    assert 'href="/clubs/">My clubs</a>' in html
    assert "/accounts/login/?next=" not in html


@pytest.mark.parametrize("address", ["club", "season", "game", "player"])
def test_someone_elses_club_is_exactly_as_missing_as_one_that_never_was(
    client, monkeypatch, address
):
    """Asked of the same address while the club exists (someone else's) and after it is gone,
    the answer is the same to the byte: nothing tells the two apart."""
    # Every page carries two random values, the CSRF token's mask and the CSP nonce, drawn
    # afresh for each answer: draw them alike, so that anything else that differs shows.
    monkeypatch.setattr(
        "django.middleware.csrf.get_random_string", lambda length, **_: "m" * length
    )
    monkeypatch.setattr("django.utils.csp.generate_nonce", lambda: "the-same-nonce")
    olga = make_user("olga")
    club = make_club(olga, name="Olga's secret table")
    game = make_game(club, ("Olga", "Pia", "Quin", "Ros"))
    record(game, 0, 3, 5, 7)
    url = {
        "club": f"/clubs/{club.pk}/",
        "season": f"/seasons/{game.season_id}/",
        "game": f"/games/{game.pk}/",
        "player": f"/players/{club.players.get(name='Pia').pk}/",
    }[address]
    client.force_login(make_user("sam"))
    someone_elses = client.get(url)
    Game.objects.filter(club=club).delete()  # games first: they hold on to players, seasons
    Club.objects.filter(pk=club.pk).delete()
    never_was = client.get(url)
    assert someone_elses.status_code == never_was.status_code == 404
    assert someone_elses.content == never_was.content
    assert dict(someone_elses.headers) == dict(never_was.headers)
    assert "Olga" not in someone_elses.content.decode()


def test_an_owners_action_refused_to_a_member_shares_the_error_pages_look(client):
    club = make_club()
    client.force_login(make_member(club))
    response = client.get(f"/clubs/{club.pk}/seasons/new/")
    assert response.status_code == 403
    html = page(response)
    assert in_the_sites_layout(html)
    assert '<section class="error-page"' in html
    assert "Only the owner can do that" in html
    assert f'href="/clubs/{club.pk}/">Go back</a>' in html


@FAILING_URLS
def test_a_page_refused_to_a_visitor_offers_to_log_in(client):
    response = client.get(failing_urls.REFUSES)
    assert response.status_code == 403
    html = page(response)
    assert in_the_sites_layout(html)
    assert "Not allowed" in html
    assert "not for you, on purpose" not in html  # the exception's words are for the log
    assert f'href="/accounts/login/?next={failing_urls.REFUSES}"' in html


@FAILING_URLS
def test_a_bad_request_gets_the_sites_page(client):
    response = client.get(failing_urls.BAD_REQUEST)
    assert response.status_code == 400
    html = page(response)
    assert in_the_sites_layout(html)
    assert "couldn't be read" in html


@FAILING_URLS
@pytest.mark.parametrize("language", ["en", "zh-hans", "zh-hant"])
def test_a_failure_gets_the_sites_page_in_the_visitors_language(language):
    """Django renders 500.html with no request, user or CSRF token: the page must stand up
    without them, and claims nothing about who is signed in."""
    client = Client(raise_request_exception=False)
    client.force_login(make_user())
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(failing_urls.FAILS)
    assert response.status_code == 500
    html = page(response)
    assert in_the_sites_layout(html.replace("查牌型", "Check a hand"))
    assert f'<html lang="{language}">' in html
    assert 'href="/clubs/"' in html
    for account_link in (
        'href="/accounts/login/"',
        'href="/accounts/signup/"',
        "/accounts/logout/",
    ):
        assert account_link not in html
    assert 'name="csrfmiddlewaretoken"' not in html  # no form that could only be refused


def test_a_form_sent_with_an_expired_token_says_what_to_do(client):
    client = Client(enforce_csrf_checks=True)
    response = client.post("/i18n/setlang/", {"language": "zh-hant", "next": "/"})
    assert response.status_code == 403
    html = page(response)
    assert in_the_sites_layout(html)
    assert "This form has expired" in html
    assert "CSRF verification failed" not in html
