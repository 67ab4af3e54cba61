"""Sharing at the table: the invite link opened signed out (sign up and you're in the club),
the share panel ("Copy link", "Share", the QR code) on the club page and the game page, and the
QR codes themselves, read back as a camera would."""

import re

import pytest

from scoring import services
from scoring.models import Membership
from tests.factories import PASSWORD, make_member, make_user
from tests.pages import text
from tests.qr import decode_svg

pytestmark = pytest.mark.django_db


def join_url(club) -> str:
    return f"/join/{club.invite_token}/"


# The invite link, signed out


def test_an_invite_opened_signed_out_names_its_club_and_leads_to_sign_up_or_log_in(client, club):
    page = client.get(join_url(club))
    assert page.status_code == 200
    html = text(page)
    assert "<h1>Join Friday table: sign up or log in</h1>" in html
    assert "owner invited you to keep score with Friday table." in html
    next_here = f"?next=/join/{club.invite_token}/"
    assert f'href="/accounts/signup/{next_here}">Sign up</a>' in html
    assert f'href="/accounts/login/{next_here}">Log in</a>' in html
    assert not Membership.objects.exclude(user=club.owner).exists()


def test_every_sign_up_and_log_in_link_on_an_invite_comes_back_to_it(client, club):
    """The header's links too: a newcomer who taps its "Sign up" still joins the club."""
    html = client.get(join_url(club)).content.decode()
    for page in ("signup", "login"):
        links = re.findall(rf'href="(/accounts/{page}/[^"]*)"', html)
        assert len(links) == 2  # the header's and the invite's own
        assert set(links) == {f"/accounts/{page}/?next={join_url(club)}"}

    signup_page = client.get(f"/accounts/signup/?next={join_url(club)}").content.decode()
    assert f'href="/accounts/login/?next={join_url(club)}"' in signup_page  # passed on
    fields = {"username": "ben", "password1": PASSWORD, "password2": PASSWORD}
    client.post("/accounts/signup/", fields | {"next": join_url(club)})
    assert Membership.objects.filter(club=club, user__username="ben").exists()


def test_the_header_s_log_in_link_comes_back_to_the_hand_being_checked(client):
    html = client.get("/check/?a=2S+2H&b=AS+AH").content.decode()
    assert 'href="/accounts/login/?next=/check/%3Fa%3D2S%2B2H%26b%3DAS%2BAH"' in html
    assert 'href="/accounts/login/"' in client.get("/").content.decode()  # home: to the clubs


def test_a_wrong_or_reset_invite_names_no_club_signed_out_either(client, club, owner):
    old = join_url(club)
    services.reset_invite(club=club, by=owner)
    for url in (old, "/join/no-such-token/"):
        response = client.get(url)
        assert response.status_code == 404
        assert "Friday table" not in response.content.decode()
        assert "doesn't work" in response.content.decode()


def test_joining_signed_out_asks_to_log_in_first(client, club):
    response = client.post(join_url(club))
    assert response["Location"] == f"/accounts/login/?next=/join/{club.invite_token}/"
    assert not Membership.objects.exclude(user=club.owner).exists()


def test_signing_up_from_an_invite_lands_in_the_club(client, club):
    form = text(client.get(f"/accounts/signup/?next={join_url(club)}"))
    assert "Signing up makes you a member of Friday table." in form
    assert f'name="next" value="{join_url(club)}"' in form

    fields = {"username": "ben", "password1": PASSWORD, "password2": PASSWORD}
    response = client.post("/accounts/signup/", fields | {"next": join_url(club)}, follow=True)

    assert response.redirect_chain == [(f"/clubs/{club.pk}/", 302)]
    assert Membership.objects.filter(club=club, user__username="ben").exists()
    html = text(response)
    assert "<h1>Friday table</h1>" in html
    assert "You&#x27;re a member of Friday table." in html


def test_signing_up_from_an_invite_reset_meanwhile_says_the_link_no_longer_works(
    client, club, owner
):
    old = join_url(club)
    services.reset_invite(club=club, by=owner)
    fields = {"username": "ben", "password1": PASSWORD, "password2": PASSWORD}
    response = client.post("/accounts/signup/", fields | {"next": old}, follow=True)
    assert response.redirect_chain == [(old, 302)]
    assert response.status_code == 404
    assert "This invite link doesn" in response.content.decode()
    assert not Membership.objects.filter(user__username="ben").exists()


def test_joining_by_an_invite_reset_while_the_join_was_sent_says_the_link_no_longer_works(
    client, club, owner, monkeypatch
):
    from scoring.views import clubs

    found_by_invite = clubs.selectors.club_by_invite

    def reset_once_found(token):  # the owner resets the link between the read and the write
        found = found_by_invite(token)
        services.reset_invite(club=club, by=owner)
        return found

    monkeypatch.setattr(clubs.selectors, "club_by_invite", reset_once_found)
    client.force_login(make_user("ben"))
    response = client.post(join_url(club))
    assert response.status_code == 404
    assert "This invite link doesn" in response.content.decode()
    assert not Membership.objects.filter(user__username="ben").exists()


def test_signing_up_without_an_invite_joins_nothing(client, club):
    form = text(client.get("/accounts/signup/?next=/join/no-such-token/"))
    assert "Signing up makes you a member" not in form
    fields = {"username": "ben", "password1": PASSWORD, "password2": PASSWORD}
    response = client.post("/accounts/signup/", fields | {"next": "/check/"})
    assert response["Location"] == "/check/"
    assert not Membership.objects.filter(user__username="ben").exists()


def test_logging_in_from_an_invite_comes_back_to_its_join_button(client, club):
    make_user("ben")
    response = client.post(
        f"/accounts/login/?next={join_url(club)}",
        {"username": "ben", "password": PASSWORD, "next": join_url(club)},
    )
    assert response["Location"] == join_url(club)
    assert ">Join Friday table</button>" in text(client.get(join_url(club)))
    for _ in range(2):  # a double tap joins once
        assert client.post(join_url(club))["Location"] == f"/clubs/{club.pk}/"
    assert Membership.objects.filter(club=club, user__username="ben").count() == 1


# The share panel


def test_the_owner_shares_the_invite_with_copy_share_and_its_qr_code(client, club, owner):
    client.force_login(owner)
    html = text(client.get(f"/clubs/{club.pk}/"))
    link = f"http://testserver/join/{club.invite_token}/"
    assert f'<input type="text" id="invite-url" value="{link}" readonly data-share-link>' in html
    assert '<button type="button" class="button" data-copy hidden>Copy link</button>' in html
    assert '<button type="button" class="button" data-share hidden>Share</button>' in html
    assert 'role="status" data-share-status' in html
    assert 'data-say-copied="Link copied"' in html
    assert "<summary>Show the QR code</summary>" in html
    assert (
        f'<img class="qr-code" src="/clubs/{club.pk}/invite/qr.svg" '
        'alt="QR code for the invite link"' in html
    )
    assert re.search(r'<script src="/static/js/share\.js" defer></script>', html)
    assert 'data-share-title="Join Friday table"' in html


def test_a_member_gets_no_invite_to_share(client, club):
    client.force_login(make_member(club))
    html = client.get(f"/clubs/{club.pk}/").content.decode()
    assert "data-share-panel" not in html
    assert "invite/qr.svg" not in html
    assert client.get(f"/clubs/{club.pk}/invite/qr.svg").status_code == 403


def test_a_shared_game_shows_its_live_link_in_the_share_panel(client, club, owner, game):
    client.force_login(owner)
    assert "data-share-panel" not in client.get(f"/games/{game.pk}/").content.decode()
    token = services.share_game(game=game, by=owner)
    html = text(client.get(f"/games/{game.pk}/"))
    link = f"http://testserver/live/{token}/"
    assert f'id="share-url" value="{link}" readonly data-share-link>' in html
    assert f'src="/live/{token}/qr.svg" alt="QR code for the live view link"' in html
    assert ">Copy link</button>" in html


# The QR codes


def test_the_invite_qr_code_reads_as_the_invite_link_and_follows_a_reset(client, club, owner):
    client.force_login(owner)
    response = client.get(f"/clubs/{club.pk}/invite/qr.svg")
    assert response["Content-Type"] == "image/svg+xml"
    assert "no-cache" in response["Cache-Control"]
    assert decode_svg(response.content) == [f"http://testserver/join/{club.invite_token}/"]

    services.reset_invite(club=club, by=owner)
    response = client.get(f"/clubs/{club.pk}/invite/qr.svg")
    assert decode_svg(response.content) == [f"http://testserver/join/{club.invite_token}/"]


def test_the_live_qr_code_reads_as_the_live_link_until_sharing_stops(client, owner, game):
    token = services.share_game(game=game, by=owner)
    response = client.get(f"/live/{token}/qr.svg")  # anyone with the link
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    assert decode_svg(response.content) == [f"http://testserver/live/{token}/"]

    services.stop_sharing(game=game, by=owner)
    assert client.get(f"/live/{token}/qr.svg").status_code == 404
    assert client.get("/live/no-such-token/qr.svg").status_code == 404


def test_the_qr_code_is_black_on_white_with_its_quiet_zone_and_no_style_attribute(
    client, owner, game
):
    """CSP's style-src 'self' would drop inline styles: the code's colours are attributes."""
    token = services.share_game(game=game, by=owner)
    svg = client.get(f"/live/{token}/qr.svg").content.decode()
    assert "style" not in svg
    assert "<title>QR code for the live view link</title>" in svg
    size = int(re.search(r'width="(\d+)"', svg).group(1))
    assert f'<path fill="#fff" d="M0 0h{size}v{size}h-{size}z"/>' in svg  # white, edge to edge
    assert 'stroke="#000" d="M4 4.5h7' in svg  # the first finder pattern starts 4 modules in
