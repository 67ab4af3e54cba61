"""The home page: signed out, what the site does; signed in, first the games to get back to
("Continue: Ann · Ben · Cy · Dee, deal 7") and the user's clubs. And the club page, where the
games in progress come before the standings."""

import datetime
import re

import pytest

from scoring import services
from tests.factories import finish, make_club, make_game, make_member, make_user, record
from tests.pages import text, who_is_asking

pytestmark = pytest.mark.django_db


def continue_lines(html: str) -> list[str]:
    return re.findall(r"<strong>(Continue: [^<]*)</strong>", html)


def test_signed_out_the_home_page_says_what_the_site_does(client):
    html = text(client.get("/"))
    assert 'href="/accounts/signup/"' in html
    assert "Keep the score" in html
    assert "Continue:" not in html
    assert "My clubs" not in html.split("<main", 1)[1]


def test_signed_in_it_starts_with_the_games_in_progress_last_played_first(client):
    ann = make_user("ann")
    friday = make_club(ann, name="Friday table")
    sunday = make_club(make_user(), name="Sunday lunch")
    make_member(sunday, "dee")
    services.join_club(token=sunday.invite_token, user=ann)
    older = make_game(friday, names=["Ann", "Ben", "Cy", "Dee"])
    for _ in range(6):
        record(older, 0, 1, 1, 1)
    newer = make_game(sunday, names=["Eve", "Ann", "Fay"] + ["Gus"])
    record(newer, 1, 0, 1, 1)
    finish(make_game(friday, names=["Hal", "Ivy", "Jo", "Kim"]))  # over: not listed
    make_game(make_club(name="Not Ann's"), names=["Lee", "Mo", "Ned", "Oz"])  # not her club
    record(older, 1, 1, 0, 1)  # Friday's game is the one last played now
    client.force_login(ann)

    html = text(client.get("/"))

    assert continue_lines(html) == [
        "Continue: Ann · Ben · Cy · Dee, deal 8",
        "Continue: Eve · Ann · Fay · Gus, deal 2",
    ]
    assert f'href="/games/{older.pk}/"' in html
    assert html.index('id="continue-title"') < html.index('id="clubs-title"')
    assert html.index('id="clubs-title"') < html.index('href="/check/"', html.index("<main"))
    clubs = re.findall(r'class="game-link" href="/clubs/(\d+)/"', html)
    assert [int(pk) for pk in clubs] == [friday.pk, sunday.pk]
    assert 'Friday table</strong> <span class="muted">1 game in progress</span>' in html
    assert "Keep the score" not in html


def test_a_game_with_no_deal_yet_continues_at_deal_1(client):
    game = make_game()
    client.force_login(game.club.owner)
    assert continue_lines(text(client.get("/"))) == ["Continue: Ann · Ben · Cy · Dee, deal 1"]


def test_a_few_games_at_most_and_the_rest_counted(client):
    owner = make_user()
    club = make_club(owner)
    for n in range(7):
        make_game(club, names=[f"P{n}a", f"P{n}b", f"P{n}c", f"P{n}d"])
    client.force_login(owner)
    html = text(client.get("/"))
    assert len(continue_lines(html)) == 5
    assert "2 more games are in progress: they are on their clubs' pages." in html
    assert "7 games in progress" in html


def test_no_club_yet_says_how_to_get_one(client):
    client.force_login(make_user())
    html = text(client.get("/"))
    assert "Continue:" not in html
    assert "You're not in a club yet." in html
    assert 'href="/clubs/">Create a club</a>' in html


def test_the_home_page_takes_the_same_queries_for_one_game_or_many(
    client, django_assert_num_queries
):
    owner = make_user()
    club = make_club(owner)
    record(make_game(club), 0, 1, 2, 3)
    client.force_login(owner)
    # Who is asking (session, account), then games, their seats, clubs, the user's own figures,
    # and their seats at club-night games (none: no prefetch of those games' seats).
    with django_assert_num_queries(who_is_asking() + 5):
        client.get("/")
    other = make_club(owner, name="Second table")
    for n in range(6):
        game = make_game(other if n % 2 else club, names=[f"Q{n}a", f"Q{n}b", f"Q{n}c", "Z"])
        record(game, 0, 1, 2, 3)
    services.claim_player(player=club.players.get(name="Z"), by=owner)
    with django_assert_num_queries(who_is_asking() + 5):
        client.get("/")


# The club page


def test_the_club_page_lists_games_in_progress_above_the_standings(client):
    club = make_club()
    playing = make_game(club, names=["Ann", "Ben", "Cy", "Dee"])
    done = finish(make_game(club, names=["Eve", "Fay", "Gus", "Hal"]))
    client.force_login(club.owner)
    html = text(client.get(f"/clubs/{club.pk}/"))
    in_progress = html.index('<h2 id="playing-title">Games in progress</h2>')
    assert in_progress < html.index(f'href="/games/{playing.pk}/"') < html.index("standings</h2>")
    assert html.index("standings</h2>") < html.index(f'href="/games/{done.pk}/"')


def test_a_club_with_only_games_in_progress_says_none_has_finished(client):
    club = make_game().club
    client.force_login(club.owner)
    html = text(client.get(f"/clubs/{club.pk}/"))
    assert "No game of this season has finished yet." in html
    assert "No games yet." not in html


# What tells two games of one table apart, and a new game where the user last played


def continue_cards(html: str) -> list[str]:
    """Each "Continue" card's heading and the line under it."""
    return [
        f"{heading} / {detail}"
        for heading, detail in re.findall(
            r'<strong>(Continue: [^<]*)</strong>.*?<span class="muted">([^<]*)</span>', html
        )
    ]


def test_each_continue_card_names_its_season_and_the_day_it_started(client):
    club = make_club(make_user("ann"), name="Friday table")
    autumn = make_game(club)
    autumn.created_at = datetime.datetime(2026, 9, 4, 19, 30, tzinfo=datetime.UTC)
    autumn.save(update_fields=["created_at"])
    record(autumn, 0, 1, 1, 1)
    services.start_season(
        club=club, name="Winter", starts_on=datetime.date(2026, 12, 1), by=club.owner
    )
    winter = make_game(club)
    winter.created_at = datetime.datetime(2026, 12, 2, 19, 30, tzinfo=datetime.UTC)
    winter.save(update_fields=["created_at"])
    record(winter, 1, 0, 1, 1)
    # Another game of the same table, season and day: the time tells it apart.
    again = make_game(club)
    again.created_at = datetime.datetime(2026, 12, 2, 21, 5, tzinfo=datetime.UTC)
    again.save(update_fields=["created_at"])
    client.force_login(club.owner)

    cards = continue_cards(text(client.get("/")))

    first_season = autumn.season.name
    assert sorted(cards) == sorted(
        [
            f"Continue: Ann · Ben · Cy · Dee, deal 2 / Friday table · {first_season} · "
            "started 4 Sep 2026",
            "Continue: Ann · Ben · Cy · Dee, deal 2 / Friday table · Winter · "
            "started 2 Dec 2026, 7:30 p.m.",
            "Continue: Ann · Ben · Cy · Dee, deal 1 / Friday table · Winter · "
            "started 2 Dec 2026, 9:05 p.m.",
        ]
    )
    assert len(set(cards)) == 3


def new_game_link(html: str) -> str | None:
    found = re.search(r'<a class="button primary" href="([^"]+)">(New game at [^<]*)</a>', html)
    return f"{found.group(2)} ({found.group(1)})" if found else None


def test_the_home_page_offers_a_new_game_at_the_club_last_played(client):
    ann = make_user("ann")
    friday = make_club(ann, name="Friday table")
    sunday = make_club(make_user(), name="Sunday lunch")
    services.join_club(token=sunday.invite_token, user=ann)
    client.force_login(ann)
    # No game yet anywhere: the club joined last.
    assert new_game_link(text(client.get("/"))) == (
        f"New game at Sunday lunch (/clubs/{sunday.pk}/games/new/)"
    )
    finish(make_game(sunday))
    finish(make_game(friday))  # over, and the latest started
    assert new_game_link(text(client.get("/"))) == (
        f"New game at Friday table (/clubs/{friday.pk}/games/new/)"
    )
    make_game(sunday, names=["Eve", "Fay", "Gus", "Hal"])
    assert new_game_link(text(client.get("/"))) == (
        f"New game at Sunday lunch (/clubs/{sunday.pk}/games/new/)"
    )


def test_no_club_no_new_game(client):
    client.force_login(make_user())
    assert new_game_link(text(client.get("/"))) is None
