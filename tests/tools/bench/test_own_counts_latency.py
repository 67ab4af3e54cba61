"""The own-counts latency benchmark (`python -m tools.bench.own_counts_latency`) reads what a
phone shows as its page does; it times nothing the suite relies on."""

import pytest

from tools.bench import own_counts_latency as bench


def test_a_phone_shows_the_seats_sent_and_the_last_deal_of_what_it_is_sent():
    phone = bench.Phone("ann", browser=None, game=1)
    phone.show(
        '<tr id="deal-2"><th>2</th></tr><div id="deal-filling"><ul class="own-sent">'
        "<li>ben: 3</li><li>dev: 0</li></ul><p>Waiting for ann and cat</p></div>"
        '<div id="board-stale"><p class="message stale-form">'
        '<a href="/games/1/" hx-get="/games/1/" hx-target="#game-live">Get the form</a></p></div>'
    )
    screen = phone.screens[-1]
    assert (screen.last_row, screen.sent) == (2, frozenset({"ben", "dev"}))
    assert phone.stale_link == "/games/1/"


def test_a_deal_delta_empties_the_filling_and_keeps_the_rows_shown():
    phone = bench.Phone("ann", browser=None, game=1)
    phone.show('<tr id="deal-3"></tr><div id="deal-filling"><ul><li>cat: 1</li></ul></div>')
    phone.show('<tr id="deal-4"></tr><div id="deal-filling"></div><div id="board-stale"></div>')
    screen = phone.screens[-1]
    assert (screen.last_row, screen.sent, phone.stale_link) == (4, frozenset(), "")


def test_the_benchmark_refuses_a_game_that_would_end(capsys):
    with pytest.raises(SystemExit):
        bench.main(["--deals", str(bench.MOST_DEALS + 1)])
    assert "--deals must be from 1 to 45" in capsys.readouterr().err
