"""A deal that adds a row reaches the phones on the stream itself (scoring/views/streams.py):
`event: delta`, the version, then what the deal changed on the board, the part of a board
fetch's answer every phone at the table shares, so that a phone one version behind takes it
without fetching the board. Before, the stream said only the version, and every phone at the
table fetched the board after every deal. Served by the site's ASGI application as `make run`'s
server calls it; the tests commit."""

from __future__ import annotations

import threading

import pytest
from channels.layers import get_channel_layer

from scoring import caching, live, services
from scoring.models import Game
from scoring.views import streams
from tests.factories import record
from tests.live_support import Phone, done, opened, signed_in
from tests.scoring.own.helpers import member, own_game, send

pytestmark = pytest.mark.django_db(transaction=True)


def delta(said: str) -> tuple[int, str]:
    """The version and the HTML of an `event: delta`, as EventSource hands them to the page."""
    lines = said.removesuffix("\n\n").split("\n")
    assert lines[0] == "event: delta"
    assert all(line.startswith("data: ") for line in lines[1:])
    version, *html = [line.removeprefix("data: ") for line in lines[1:]]
    return int(version), "\n".join(html)


def following(loop, client, owner, game) -> Phone:
    """A member's stream, at deal 1: the first deal brings the whole board (its table is new)."""
    phone = opened(loop, f"/games/{game.pk}/changes/", signed_in(client, owner))
    assert phone.said() == "retry: 2000\n\ndata: 0\n\n"
    done(loop, record, game, 0, 5, 9, 13)
    assert phone.said() == "data: 1\n\n"
    return phone


def test_a_members_stream_carries_the_deals_new_row_and_history_line(loop, client, owner, game):
    phone = following(loop, client, owner, game)
    done(loop, record, game, 3, 0, 2, 1)

    version, html = delta(phone.said())
    assert version == 2
    assert html.count('<tr id="deal-') == 1 and '<tr id="deal-2">' in html
    assert 'hx-swap-oob="beforeend:#score-rows"' in html
    assert "owner recorded deal 2" in html  # the history line, put first
    assert 'hx-swap-oob="afterbegin:#history-lines"' in html
    assert "Undo deal 2" in html
    # No follower (each phone's own): the page brings it up to date itself. The stale notice a
    # form for deal 2 (a page one version behind has no later one) shows comes along.
    assert 'id="board-follow"' not in html
    assert '<div id="board-stale" hx-swap-oob="true">' in html
    assert "the next deal is deal 3" in html
    phone.hang_up()
    assert streams.RENDERING == {}


def test_a_live_views_stream_carries_the_shared_rendering(loop, owner, game):
    record(game, 0, 5, 9, 13)
    token = services.share_game(game=Game.objects.get(pk=game.pk), by=owner)
    phone = opened(loop, f"/live/{token}/changes/", "")
    phone.said()
    done(loop, record, game, 3, 0, 2, 1)

    version, html = delta(phone.said())
    assert version == Game.objects.get(pk=game.pk).version
    assert '<tr id="deal-2">' in html
    assert "history" not in html and "Undo" not in html and "/edit" not in html
    assert "board-stale" not in html
    phone.hang_up()


def test_the_delta_is_in_the_streams_language(loop, client, owner, game):
    phone = opened(
        loop,
        f"/games/{game.pk}/changes/",
        signed_in(client, owner),
        headers=[(b"host", b"testserver"), (b"accept-language", b"zh-hant")],
    )
    phone.said()
    done(loop, record, game, 0, 5, 9, 13)
    phone.said()
    done(loop, record, game, 3, 0, 2, 1)
    _version, html = delta(phone.said())
    assert "撤銷第 2 手" in html and "Undo deal" not in html
    phone.hang_up()


def mute(monkeypatch) -> None:
    """The layer misses the next changes: the stream hears none of them."""
    monkeypatch.setattr(live, "_tell", lambda group, message: None)


@pytest.mark.parametrize("change", ["two behind", "undo", "correction", "last deal"])
def test_a_change_that_is_not_the_one_deal_since_is_said_as_a_version(
    loop, client, owner, game, monkeypatch, change
):
    phone = following(loop, client, owner, game)
    done(loop, record, game, 0, 13, 13, 13)
    assert delta(phone.said())[0] == 2
    if change == "two behind":
        with monkeypatch.context() as muted:
            mute(muted)
            done(loop, record, game, 3, 0, 2, 1)
        done(loop, record, game, 3, 0, 2, 1)
    elif change == "undo":
        done(loop, services.undo_last_deal, game=game, by=owner)
    elif change == "correction":
        done(loop, services.edit_deal, game=game, number=1, by=owner, cards_left=[0, 1, 1, 1])
    else:
        done(loop, record, game, 0, 13, 13, 13)  # Ben reaches 83, the others 78: over
        assert Game.objects.get(pk=game.pk).is_finished
    assert phone.said() == f"data: {Game.objects.get(pk=game.pk).version}\n\n"
    phone.hang_up()


def test_a_game_moved_on_before_the_delta_is_read_is_said_as_a_version(
    loop, client, owner, game, monkeypatch
):
    """The stream hears of deal 3, but deal 4 is in before it reads the board: deal 3's delta
    is no longer the board's, and the phone fetches the board."""
    phone = following(loop, client, owner, game)
    done(loop, record, game, 3, 0, 2, 1)
    assert delta(phone.said())[0] == 2
    with monkeypatch.context() as muted:
        mute(muted)
        done(loop, record, game, 1, 2, 0, 4)
        done(loop, record, game, 2, 1, 0, 3)
    send = get_channel_layer().group_send
    loop.run_until_complete(
        send(live.game_group(game.pk), {"type": live.GAME_CHANGED, "version": 3})
    )
    assert phone.said() == "data: 3\n\n"
    phone.hang_up()


def test_a_deal_is_noted_as_appended_before_the_streams_are_told(game, monkeypatch):
    """A stream reads the board as soon as it is told: what says the new version is a deal
    appended must be there by then. Before, it was noted after the streams were told."""
    record(game, 0, 5, 9, 13)
    noted = []

    def tell(group: str, message: dict) -> None:
        noted.append(caching.appended_deal(Game.objects.get(pk=game.pk)))

    monkeypatch.setattr(live, "_tell", tell)
    record(game, 3, 0, 2, 1)
    assert noted == [2]


def test_streams_of_one_game_in_one_language_read_the_board_once_a_deal(
    loop, client, owner, game, monkeypatch
):
    """Each stream of the table asks for the delta; the render under way is shared. The render
    is held until both have asked, so it can't be over before the second one does."""
    cookie = signed_in(client, owner)
    phones = [opened(loop, f"/games/{game.pk}/changes/", cookie) for _ in range(2)]
    for phone in phones:
        assert phone.said() == "retry: 2000\n\ndata: 0\n\n"
    done(loop, record, game, 0, 5, 9, 13)
    for phone in phones:
        assert phone.said() == "data: 1\n\n"
    asked, renders, both_asked = [], [], threading.Event()
    real_delta_of, real_render = streams.delta_of, streams.stream_delta

    async def delta_of(*args, **kwargs):
        asked.append(args)
        if len(asked) == 2:
            both_asked.set()
        return await real_delta_of(*args, **kwargs)

    def stream_delta(*args, **kwargs):
        renders.append(args)
        assert both_asked.wait(10)
        return real_render(*args, **kwargs)

    monkeypatch.setattr(streams, "delta_of", delta_of)
    monkeypatch.setattr(streams, "stream_delta", stream_delta)
    done(loop, record, game, 3, 0, 2, 1)

    said = [delta(phone.said()) for phone in phones]
    assert said[0] == said[1] and said[0][0] == 2
    assert len(renders) == 1
    assert streams.RENDERING == {}
    for phone in phones:
        phone.hang_up()


def test_each_line_of_the_fragment_is_a_data_line_of_its_own():
    said = streams.delta_event(7, '<p>\r\n  a</p>\n\n<p data-x="1">b</p>\r')
    assert said == (
        'event: delta\ndata: 7\ndata: <p>\ndata:   a</p>\ndata: \ndata: <p data-x="1">b</p>\n\n'
    )


def test_a_figure_sent_with_own_counts_reaches_every_phone_on_the_stream(loop, client):
    """A player's own figure changes only the deal filling in: the stream carries it, out of
    band, to every member's page and the live view one version behind, and no phone fetches
    the board for it."""
    game = own_game()
    token = services.share_game(game=Game.objects.get(pk=game.pk), by=game.club.owner)
    ben = opened(loop, f"/games/{game.pk}/changes/", signed_in(client, member(game, 1)))
    viewer = opened(loop, f"/live/{token}/changes/", "")
    for phone in (ben, viewer):
        phone.said()
    done(loop, send, game, 0, 5)

    for phone, shared in ((ben, False), (viewer, True)):
        version, html = delta(phone.said())
        assert version == Game.objects.get(pk=game.pk).version
        assert '<div id="deal-filling" class="deal-filling" hx-swap-oob="true">' in html
        assert "<li>ann: 5</li>" in html and "Waiting for ben, cy and dee" in html
        assert ('data-fill="cards_0"' in html) is not shared  # the table's form, members only
        assert 'id="board-follow"' not in html and "<tr" not in html
        phone.hang_up()
