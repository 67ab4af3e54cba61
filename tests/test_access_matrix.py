"""Who may do what, for every URL the site has.

The URLs come from the URLconf itself: a pattern that isn't in MATRIX fails
`test_every_url_is_in_the_matrix`, so a new page can't ship without someone deciding who may
see it. Each cell is what one kind of visitor gets for a GET or a POST (with no data):

- 200: the page; 204: nothing new (live polling); 302: a redirect after doing it
- "login": sent to log in; 403: a member asking for an owner's action
- 404: not found, so not even a club's existence leaks; 405: that method isn't allowed
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.signals import request_finished
from django.db import close_old_connections, connection
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import translation

from nights import services as nights
from scoring import services
from scoring.models import Club, Game
from tests.factories import finish, make_club, make_game, make_member, make_user, record
from tests.made_once import made_once
from tests.translations import UntranslatedFinder

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "stranger", "member", "owner")


@dataclass(frozen=True)
class Row:
    path: str
    get: tuple[object, object, object, object]  # anonymous, stranger, member, owner
    post: tuple[object, object, object, object]


def everyone(code: object) -> tuple[object, object, object, object]:
    return (code, code, code, code)


MEMBERS_ONLY = ("login", 404, 200, 200)
NO = everyone(405)
# Pages behind a login send a visitor to log in before looking at the method.
MEMBERS_NO = ("login", 405, 405, 405)

MATRIX: dict[str, Row] = {
    # Open to everyone
    "home": Row("/", everyone(200), NO),
    "ping": Row("/ping/", everyone(200), NO),
    # Django's set_language: it only changes the language for a POST with one, but answers
    # any method with a redirect (to `next`, the referring page, or "/").
    "set_language": Row("/i18n/setlang/", everyone(302), everyone(302)),
    "checker:check": Row("/check/", everyone(200), NO),
    "checker:api-classify": Row("/api/hands/classify?cards=9s", everyone(200), NO),
    "checker:api-compare": Row("/api/hands/compare?a=9s&b=9h", everyone(200), NO),
    "checker:play": Row("/play/?hand=9s9h3d&table=8s8h", everyone(200), NO),
    "checker:split": Row("/split/", everyone(200), NO),
    "checker:api-plays": Row("/api/hands/plays?hand=9s9h3d&table=8s8h", everyone(200), NO),
    "checker:api-split": Row("/api/hands/split?hand=3d4c5h6s7d7c9h9sjdqdkc2s2h", everyone(200), NO),
    "checker:api-score": Row("/api/deals/score?cards=0,5,13,10", everyone(200), NO),
    "scoring:ratings-help": Row("/ratings/", everyone(200), NO),
    "manifest": Row("/manifest.webmanifest", everyone(200), NO),
    "service-worker": Row("/sw.js", everyone(200), NO),
    "offline": Row("/offline/", everyone(200), NO),
    # Accounts
    "signup": Row("/accounts/signup/", everyone(200), everyone(200)),
    "login": Row("/accounts/login/", (200, 302, 302, 302), (200, 302, 302, 302)),
    "logout": Row("/accounts/logout/", NO, everyone(302)),
    # One's own account: changing the password, deleting it (the owner is told to hand the
    # club on first; an empty form is refused on the page).
    "password-change": Row(
        "/accounts/password/", ("login", 200, 200, 200), ("login", 200, 200, 200)
    ),
    "account-delete": Row("/accounts/delete/", ("login", 200, 200, 200), ("login", 200, 200, 200)),
    # Getting back in. The owner's link (to the member) works for whoever holds it: it moves
    # its token into the session and sends them on to the form. The emailed links' pages are
    # not found on a site without email (this one; tests/accounts/test_email_reset.py has them).
    "password-reset-link": Row(
        "/accounts/password/link/{club}/{reset}/", everyone(302), everyone(302)
    ),
    "password-reset-done": Row("/accounts/password/done/", everyone(200), NO),
    "password-forgot": Row("/accounts/password/forgot/", everyone(404), everyone(404)),
    "password-forgot-sent": Row("/accounts/password/forgot/sent/", everyone(404), everyone(404)),
    "password-reset-email": Row("/accounts/password/reset/{reset}/", everyone(404), everyone(404)),
    # A club's pages: members only; strangers get 404
    "scoring:clubs": Row("/clubs/", ("login", 200, 200, 200), ("login", 200, 200, 200)),
    "scoring:club": Row("/clubs/{club}/", MEMBERS_ONLY, MEMBERS_NO),
    "scoring:reset-invite": Row(
        "/clubs/{club}/invite/reset/", MEMBERS_NO, ("login", 404, 403, 302)
    ),
    "scoring:reset-link": Row(
        "/clubs/{club}/members/{membership}/reset-link/", MEMBERS_NO, ("login", 404, 403, 200)
    ),
    "scoring:new-game": Row("/clubs/{club}/games/new/", MEMBERS_ONLY, MEMBERS_ONLY),
    # A club's members and history. The owner can't leave before handing the club on (the
    # page says so); a member can.
    "scoring:club-history": Row("/clubs/{club}/history/", MEMBERS_ONLY, MEMBERS_NO),
    "scoring:leave-club": Row("/clubs/{club}/leave/", MEMBERS_ONLY, ("login", 404, 302, 200)),
    "scoring:remove-member": Row(
        "/clubs/{club}/members/{membership}/remove/",
        ("login", 404, 403, 200),
        ("login", 404, 403, 302),
    ),
    "scoring:make-owner": Row(
        "/clubs/{club}/members/{membership}/owner/",
        ("login", 404, 403, 200),
        ("login", 404, 403, 302),
    ),
    # The roster: any member. Sent empty, a rename or a merge is refused on its form; the
    # fixture's player sat in its game, so removing them is refused (and said so).
    "scoring:rename-player": Row(
        "/clubs/{club}/players/{player}/rename/", MEMBERS_ONLY, MEMBERS_ONLY
    ),
    "scoring:merge-player": Row(
        "/clubs/{club}/players/{player}/merge/", MEMBERS_ONLY, MEMBERS_ONLY
    ),
    "scoring:remove-player": Row(
        "/clubs/{club}/players/{player}/remove/", MEMBERS_ONLY, MEMBERS_ONLY
    ),
    # "This is me": any member, for themself; only the owner undoes it.
    "scoring:claim-player": Row(
        "/clubs/{club}/players/{player}/me/", MEMBERS_NO, ("login", 404, 302, 302)
    ),
    "scoring:unlink-player": Row(
        "/clubs/{club}/players/{player}/not-me/", MEMBERS_NO, ("login", 404, 403, 302)
    ),
    "scoring:all-time": Row("/clubs/{club}/standings/", MEMBERS_ONLY, MEMBERS_NO),
    "scoring:club-head-to-head": Row("/clubs/{club}/head-to-head/", MEMBERS_ONLY, MEMBERS_NO),
    "scoring:ratings-json": Row("/clubs/{club}/ratings.json", MEMBERS_ONLY, MEMBERS_NO),
    "scoring:new-season": Row(
        "/clubs/{club}/seasons/new/", ("login", 404, 403, 200), ("login", 404, 403, 200)
    ),
    # Importing old score sheets is the owner's: a member is told so.
    "scoring:import-scores": Row(
        "/clubs/{club}/import/", ("login", 404, 403, 200), ("login", 404, 403, 200)
    ),
    # The invite says which club it is for to anyone holding it, signed in or not (to sign up
    # from); joining is a POST by someone signed in.
    "scoring:join": Row("/join/{token}/", everyone(200), ("login", 302, 302, 302)),
    # The invite link is the owner's to share, its QR code too.
    "scoring:invite-qr": Row("/clubs/{club}/invite/qr.svg", ("login", 404, 403, 200), MEMBERS_NO),
    "scoring:season": Row("/seasons/{season}/", MEMBERS_ONLY, MEMBERS_NO),
    # The fixture's season has a game, so a change is refused (and said so) on the form.
    "scoring:season-rules": Row(
        "/seasons/{season}/rules/", ("login", 404, 403, 200), ("login", 404, 403, 200)
    ),
    # Sent with no number, the season ranks everyone (0).
    "scoring:games-to-rank": Row(
        "/seasons/{season}/ranking/", MEMBERS_NO, ("login", 404, 403, 302)
    ),
    "scoring:season-standings-csv": Row(
        "/seasons/{season}/standings.csv", MEMBERS_ONLY, MEMBERS_NO
    ),
    "scoring:season-deals-csv": Row("/seasons/{season}/deals.csv", MEMBERS_ONLY, MEMBERS_NO),
    "scoring:player": Row("/players/{player}/", MEMBERS_ONLY, MEMBERS_NO),
    "scoring:game": Row("/games/{game}/", MEMBERS_ONLY, MEMBERS_NO),
    "scoring:record": Row("/games/{game}/deals/", MEMBERS_NO, MEMBERS_ONLY),
    # A deal typed for a number another phone recorded first: the scorekeeper's choice.
    "scoring:settle-clash": Row("/games/{game}/deals/clash/", MEMBERS_NO, MEMBERS_ONLY),
    # A player's own figure of the deal (a game played with own counts): refused in words on the
    # game page to a member without a seat at the table.
    "scoring:send-own": Row("/games/{game}/deals/own/", MEMBERS_NO, MEMBERS_ONLY),
    "scoring:settle-own-clash": Row("/games/{game}/deals/own/clash/", MEMBERS_NO, MEMBERS_ONLY),
    "scoring:preview": Row("/games/{game}/deals/preview/", MEMBERS_ONLY, MEMBERS_NO),
    "scoring:edit": Row("/games/{game}/deals/1/edit/", MEMBERS_ONLY, MEMBERS_ONLY),
    # The fixture's game is in progress: "Play again" is refused, and said so on the game page.
    "scoring:play-again": Row("/games/{game}/play-again/", MEMBERS_NO, ("login", 404, 302, 302)),
    "scoring:undo": Row("/games/{game}/undo/", MEMBERS_ONLY, ("login", 404, 302, 302)),
    # The fixture's game plays to 100, so ending it is refused (and said so) on the game page.
    "scoring:end-match": Row("/games/{game}/end/", MEMBERS_NO, ("login", 404, 200, 200)),
    "scoring:stake": Row("/games/{game}/stake/", MEMBERS_NO, ("login", 404, 302, 302)),
    "scoring:delete": Row(
        "/games/{game}/delete/", ("login", 404, 403, 200), ("login", 404, 403, 302)
    ),
    "scoring:move-game": Row(
        "/games/{game}/season/", ("login", 404, 403, 200), ("login", 404, 403, 200)
    ),
    "scoring:game-json": Row("/games/{game}.json", MEMBERS_ONLY, MEMBERS_NO),
    "scoring:game-csv": Row("/games/{game}.csv", MEMBERS_ONLY, MEMBERS_NO),
    "scoring:game-score-file": Row("/games/{game}/score.txt", MEMBERS_ONLY, MEMBERS_NO),
    # Following a game live: any member shares; anyone with the link sees the scoreboard.
    # The game page's poll answers a signed-out visitor 403, not "login": a poll must never
    # take the page away from someone typing a deal.
    "scoring:board": Row("/games/{game}/board/", (403, 404, 200, 200), NO),
    # The stream of a game's versions (tests/scoring/views/test_streams.py): like the poll.
    # The test client is a WSGI server, which declines a member's stream (204: the page polls);
    # tests/scoring/views/test_streams.py opens them under ASGI.
    "scoring:changes": Row("/games/{game}/changes/", (403, 404, 204, 204), NO),
    "scoring:share": Row("/games/{game}/share/", MEMBERS_NO, ("login", 404, 302, 302)),
    "scoring:stop-sharing": Row("/games/{game}/share/stop/", MEMBERS_NO, ("login", 404, 302, 302)),
    "scoring:live": Row("/live/{share}/", everyone(200), NO),
    "scoring:live-board": Row("/live/{share}/board/", everyone(200), NO),
    "scoring:live-qr": Row("/live/{share}/qr.svg", everyone(200), NO),
    # The live view's stream: declined (204) by the test client's WSGI handler, as by any
    # WSGI server, for anyone with the link (tests/scoring/views/test_live_view_stream.py).
    "scoring:live-changes": Row("/live/{share}/changes/", everyone(204), NO),
    # A club night: any member draws one and runs it (sent empty, the forms are refused on
    # their page); its TV board, for anyone with the link.
    "nights:new": Row("/clubs/{club}/nights/new/", MEMBERS_ONLY, MEMBERS_ONLY),
    "nights:night": Row("/nights/{night}/", MEMBERS_ONLY, MEMBERS_NO),
    "nights:json": Row("/nights/{night}.json", MEMBERS_ONLY, MEMBERS_NO),
    "nights:who-is-here": Row("/nights/{night}/here/", MEMBERS_NO, MEMBERS_ONLY),
    "nights:start-round": Row(
        "/nights/{night}/rounds/1/start/", MEMBERS_NO, ("login", 404, 302, 302)
    ),
    "nights:show-on-tv": Row("/nights/{night}/tv/", MEMBERS_NO, ("login", 404, 302, 302)),
    "nights:stop-tv": Row("/nights/{night}/tv/stop/", MEMBERS_NO, ("login", 404, 302, 302)),
    "nights:tv": Row("/tv/{tv}/", everyone(200), NO),
    "nights:tv-board": Row("/tv/{tv}/board/", everyone(200), NO),
    "nights:tv-qr": Row("/tv/{tv}/qr.svg", everyone(200), NO),
}

# Django's admin guards itself (staff only) and isn't a page of ours.
NOT_OURS = ("admin:",)


def url_names(patterns=None, namespace: str = "") -> list[str]:
    names = []
    for pattern in patterns if patterns is not None else get_resolver().url_patterns:
        if isinstance(pattern, URLResolver):
            inner = namespace + (f"{pattern.namespace}:" if pattern.namespace else "")
            names += url_names(pattern.url_patterns, inner)
        elif isinstance(pattern, URLPattern):
            names.append(namespace + (pattern.name or f"<unnamed {pattern.pattern}>"))
    return names


def test_every_url_is_in_the_matrix():
    ours = {name for name in url_names() if not name.startswith(NOT_OURS)}
    missing = sorted(ours - set(MATRIX))
    assert not missing, f"add these URLs to MATRIX, deciding who may use them: {missing}"
    assert not sorted(set(MATRIX) - ours), "MATRIX names URLs that no longer exist"


@pytest.fixture(scope="module")
def site(django_db_setup, django_db_blocker):
    """The club every case of the matrix is asked of, made once for the module (each test's
    writes are rolled back: tests/made_once.py)."""
    with made_once(django_db_blocker):
        yield make_site()


def make_site() -> dict:
    owner = make_user("owner")
    club = make_club(owner)
    member = make_member(club, "member")
    game = make_game(club)
    record(game, 0, 3, 5, 7)
    night = nights.draw_night(
        club=club,
        here=list(club.players.all()),
        new_names=[],
        rounds=2,
        round_minutes=None,
        token=uuid.uuid4(),
        by=owner,
    )
    return {
        "users": {"stranger": make_user("stranger"), "member": member, "owner": owner},
        "values": {
            "club": club.pk,
            "game": game.pk,
            "season": game.season_id,
            "player": club.players.first().pk,
            "membership": club.memberships.get(user=member).pk,
            "token": club.invite_token,
            "share": services.share_game(game=game, by=owner),
            "night": night.pk,
            "tv": nights.show_on_tv(night=night, by=owner),
            # For another member: logging in (as the matrix's member does) spends a link.
            "reset": "/".join(reset_link_parts(club, make_member(club, "kim"))),
        },
    }


def reset_link_parts(club, member) -> tuple[str, str]:
    link = services.make_reset_link(club=club, member=member, by=club.owner)
    return link.uidb64, link.token


def given_back(stream) -> None:
    """A stream's place given back, as the test client closes an answer: closing fires
    request_finished, whose close_old_connections would otherwise close the test's database
    connection inside the module's transaction (tests/made_once.py)."""
    request_finished.disconnect(close_old_connections)
    try:
        stream.close()
    finally:
        request_finished.connect(close_old_connections)


def answer(response) -> object:
    if response.streaming:
        given_back(response)
    if response.status_code == 302 and response["Location"].startswith("/accounts/login/"):
        return "login"
    return response.status_code


CASES = [(name, method, role) for name in MATRIX for method in ("get", "post") for role in ROLES]


@pytest.mark.parametrize(("name", "method", "role"), CASES)
def test_access(client, site, name, method, role):
    row = MATRIX[name]
    expected = getattr(row, method)[ROLES.index(role)]
    if role != "anonymous":
        client.force_login(site["users"][role])
    path = row.path.format(**site["values"])
    response = getattr(client, method)(path)
    assert answer(response) == expected, f"{method.upper()} {path} as {role}"


REMOVED_CASES = [(name, method) for name in MATRIX for method in ("get", "post")]


@pytest.mark.parametrize(("name", "method"), REMOVED_CASES)
def test_a_removed_member_gets_what_a_stranger_gets(client, site, name, method):
    """Removed while signed in with the club open: from their next request on, every URL of the
    club (its pages, its games' polls, its exports) answers them as it answers a stranger."""
    member, owner = site["users"]["member"], site["users"]["owner"]
    client.force_login(member)
    assert client.get(f"/clubs/{site['values']['club']}/").status_code == 200
    services.remove_member(
        club=Club.objects.get(pk=site["values"]["club"]), member=member, by=owner
    )
    row = MATRIX[name]
    path = row.path.format(**site["values"])

    response = getattr(client, method)(path)

    assert answer(response) == getattr(row, method)[ROLES.index("stranger")], f"{method} {path}"


# What a GET must never send the database. The session's own row is left out: Django writes it
# whenever a request changes the visitor's session (a password link's token moved into it),
# which is the visitor's state, not the site's.
WRITE = re.compile(r'\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+[`"]?(\w+)', re.IGNORECASE)
SESSIONS = "django_session"


class WriteCounter:
    """A `connection.execute_wrapper` that keeps every statement that writes."""

    def __init__(self) -> None:
        self.written: list[str] = []

    def __call__(self, execute, sql, params, many, context):
        written = WRITE.match(sql)
        if written and written.group(1) != SESSIONS:
            self.written.append(sql)
        return execute(sql, params, many, context)


def read_whole(response) -> None:
    """The whole answer read, a streamed one too (its close then runs as a server runs it,
    leaving the test's connection open)."""
    if response.streaming and not response.is_async:
        b"".join(response.streaming_content)


def finished_game(site) -> Game:
    """Another game of the fixture's club played to its end by the owner, its write committed
    (its after-commit work done) as a request's is."""
    club = Club.objects.get(pk=site["values"]["club"])
    return finish(make_game(club, ("Ann", "Ben", "Cy", "Eve")))


def game_finished(site, capture) -> None:
    with capture(execute=True):
        finished_game(site)


def finished_game_deleted(site, capture) -> None:
    with capture(execute=True):
        game = finished_game(site)
    with capture(execute=True):
        services.delete_game(game=game, by=site["users"]["owner"])


def after_commit_work_left(site, capture) -> None:
    """A game finished whose after-commit work never ran (a busy database, a crash)."""
    with capture(execute=False):
        finished_game(site)


MOMENTS = {
    "as set up": lambda site, capture: None,
    "right after a game finished": game_finished,
    "right after a finished game was deleted": finished_game_deleted,
    "with a write's after-commit work left undone": after_commit_work_left,
}


@pytest.mark.parametrize("moment", MOMENTS)
def test_no_get_writes_to_the_database(client, site, moment, django_capture_on_commit_callbacks):
    """Every GET of the matrix, as every role: reading never writes, whatever a write before
    it left (on SQLite a write would hold up every table's deals)."""
    MOMENTS[moment](site, django_capture_on_commit_callbacks)
    writes = {}
    for role in ROLES:
        client.logout()
        if role != "anonymous":
            client.force_login(site["users"][role])
        for name, row in MATRIX.items():
            counter = WriteCounter()
            with connection.execute_wrapper(counter):
                read_whole(client.get(row.path.format(**site["values"])))
            if counter.written:
                writes[f"GET {name} as {role}"] = counter.written
    assert not writes, writes


@pytest.fixture
def founded_in_simplified():
    """The fixture's club founded in Simplified Chinese: its first season's name, the one name
    the site gives rather than a member, is then 第 1 赛季, as its owner would have typed it."""
    with translation.override("zh-hans"):
        yield


def names_typed(site) -> set[str]:
    """What members typed and the pages show as typed: usernames, the club's, players', seasons'."""
    club = Club.objects.get(pk=site["values"]["club"])
    return {
        *get_user_model().objects.values_list("username", flat=True),
        club.name,
        *club.players.values_list("name", flat=True),
        *club.seasons.values_list("name", flat=True),
    }


SHOWN_ROLES = ("anonymous", "member", "owner")
# The URLs that answer a GET with a page (not JSON, a file, an image or a stream), and the POSTs
# that answer with one (a form refused) or send to one (a change made, and said so there).
PAGES = [
    name
    for name in MATRIX
    if not re.search(r"json|csv|qr|txt|sw\.js|manifest|changes", MATRIX[name].path)
]
POSTED = [
    (name, role)
    for name in PAGES
    for role in SHOWN_ROLES
    if MATRIX[name].post[ROLES.index(role)] in (200, 302) and name != "logout"
]


@pytest.mark.parametrize("role", SHOWN_ROLES)
def test_every_page_reads_in_simplified_chinese(founded_in_simplified, client, site, role):
    """Every page a visitor of each kind can reach, in zh-hans: no message of the catalog left
    in English, no English sentence, no Traditional-only character (users' names aside)."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hans"
    if role != "anonymous":
        client.force_login(site["users"][role])
    finder = UntranslatedFinder("zh-hans", names_typed(site))
    untranslated = {}
    for name in PAGES:
        response = client.get(MATRIX[name].path.format(**site["values"]), follow=True)
        if response["Content-Type"].startswith("text/html"):
            untranslated[name] = finder.found(response.text)
    assert len(untranslated) > 40
    assert not {name: found for name, found in untranslated.items() if found}


@pytest.mark.parametrize(("name", "role"), POSTED)
def test_every_answer_to_a_form_reads_in_simplified_chinese(
    founded_in_simplified, client, site, name, role
):
    """What a form sent empty answers (its refusals) or sends to (saying what was done)."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hans"
    if role != "anonymous":
        client.force_login(site["users"][role])
    response = client.post(MATRIX[name].path.format(**site["values"]), follow=True)
    assert response["Content-Type"].startswith("text/html")
    assert not UntranslatedFinder("zh-hans", names_typed(site)).found(response.text)
