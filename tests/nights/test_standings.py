"""What the night page tells the room: the standings with the figures that decide a rank, in the
order they decide it, and the rule named; and how many pairs meet twice in the night's plan,
where the draw can't give everyone new opponents."""

from __future__ import annotations

import html
import re
from collections import Counter
from itertools import combinations

import pytest

from nights import services
from nights.models import RoundSeat
from nights.selectors import TV_STANDINGS, night_plan
from tests.factories import finish, make_player, record
from tests.nights.helpers import club_with_players, draw, games_of
from tests.pages import text

pytestmark = pytest.mark.django_db

RULE = (
    "Ranked by games won, then the lowest penalty a deal, then the most deals gone out in."
    " Players level on all three share a rank."
)


def rows(page: str) -> list[list[str]]:
    """The standings' rows as the page shows them, each cell's text."""
    table = page[page.index('class="night-standings"') :]
    body = table[table.index("<tbody>") : table.index("</tbody>")]
    return [
        [
            re.sub(r"<[^>]+>", "", cell).strip()
            for cell in re.findall(r"<t[dh][^>]*>.*?</t[dh]>", row)
        ]
        for row in re.findall(r"<tr>.*?</tr>", body, re.S)
    ]


def test_the_standings_show_and_name_the_figures_that_decide_a_rank(client):
    """Seats 2 and 3 end level on games, wins, points and points a deal; seat 2 went out in a
    deal and seat 3 didn't. Before, the page showed them identical, ranked 2 and 3, and said
    nothing of deals gone out in."""
    club = club_with_players(4)
    night = draw(club, count=4)
    services.start_round(night=night, number=1, by=club.owner)
    game = games_of(night, 1)[0]
    record(game, 1, 0, 1, 1)
    record(game, 0, 2, 1, 1)
    finish(game)
    names = [seat.player.name for seat in game.seats.order_by("position")]
    client.force_login(club.owner)
    page = client.get(f"/nights/{night.pk}/").content.decode()
    assert RULE in text(client.get(f"/nights/{night.pk}/"))
    headings = re.findall(r'<th scope="col">([^<]*)</th>', page)
    assert headings[:5] == ["#", "Player", "Won", "A deal", "Went out"]
    shown = {row[1]: row for row in rows(page)}
    # Rank, player, won, a deal, went out, games, points.
    assert shown[names[0]][0] == "1"
    assert shown[names[1]] == ["2", names[1], "0", "23.80", "1", "1", "119"]
    assert shown[names[2]] == ["3", names[2], "0", "23.80", "0", "1", "119"]
    assert shown[names[3]] == ["3", names[3], "0", "23.80", "0", "1", "119"]


def meeting_twice(night) -> int:
    """Pairs at one table in two rounds or more, counted from the seats stored."""
    seated: dict[tuple[int, int], list[int]] = {}
    for seat in RoundSeat.objects.filter(round__night=night, table__isnull=False):
        seated.setdefault((seat.round_id, seat.table), []).append(seat.player_id)
    pairs = Counter(pair for table in seated.values() for pair in combinations(sorted(table), 2))
    return sum(count > 1 for count in pairs.values())


def test_the_night_page_says_how_many_pairs_meet_twice_instead_of_promising_new_opponents(
    client,
):
    """13 players over 3 rounds at tables of four can't all meet new opponents: some pairs
    meet twice or more. Before, the form promised "new opponents" and the night said no more."""
    club = club_with_players(13)
    client.force_login(club.owner)
    assert "new opponents" not in text(client.get(f"/clubs/{club.pk}/nights/new/"))
    night = draw(club, rounds=3)
    twice = meeting_twice(night)
    assert twice > 0 and night_plan(night).pairs_meeting_again == twice
    page = text(client.get(f"/nights/{night.pk}/"))
    assert re.search(rf"{twice} pairs? of players meets? twice or more tonight", page)


def test_a_night_where_nobody_meets_twice_says_so(client):
    club = club_with_players(8)
    for number in range(8):
        make_player(club, f"Guest {number}")
    night = draw(club, count=16, rounds=5)
    assert night_plan(night).pairs_meeting_again == 0 == meeting_twice(night)
    client.force_login(club.owner)
    assert "Nobody meets the same player twice tonight." in text(client.get(f"/nights/{night.pk}/"))


def test_the_tv_shows_the_standings_first_lines_and_how_many_more(client):
    club = club_with_players(13)
    for number in range(12):
        make_player(club, f"Guest {number}")
    night = draw(club, count=24, rounds=2)
    services.start_round(night=night, number=1, by=club.owner)
    for game in games_of(night, 1):
        finish(game)
    token = services.show_on_tv(night=night, by=club.owner)
    page = client.get(f"/tv/{token}/").content.decode()
    assert len(rows(page)) == TV_STANDINGS
    more = f"…and {24 - TV_STANDINGS} more on the night's page."
    assert more in html.unescape(text(client.get(f"/tv/{token}/")))
