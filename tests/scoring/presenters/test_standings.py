"""Seasons and standings: figures worked out by hand on a small season."""

import csv
import datetime
import io
import re

import pytest

from scoring import services
from scoring.models import Game, Season
from scoring.selectors.standings import Standing, ranked
from tests.factories import make_club, make_game, make_member, make_user, record
from tests.pages import who_is_asking

HTMX = {"HX-Request": "true", "HX-Target": "standings"}


def finish(game: Game, *deal: int, times: int = 3) -> Game:
    for _ in range(times):
        record(game, *deal)
    game.refresh_from_db()
    assert game.is_finished
    return game


@pytest.fixture
def season_games(club):
    """Three finished games and one in progress, in the club's first season.

    Game 1: Ann goes out three times, the others are caught with 13 each time (117).
    Game 2: Ben likewise, against Ann, Cy and Eve.
    Game 3: Cy goes out three times; Ann holds one card each deal, Ben and Dee 13.
    Game 4 (in progress): Fay's only game, one deal.
    """
    finish(make_game(club, ("Ann", "Ben", "Cy", "Dee")), 0, 13, 13, 13)
    finish(make_game(club, ("Ben", "Ann", "Cy", "Eve")), 0, 13, 13, 13)
    finish(make_game(club, ("Ann", "Ben", "Cy", "Dee")), 1, 13, 0, 13)
    record(make_game(club, ("Ann", "Ben", "Cy", "Fay")), 0, 5, 5, 5)
    return club.seasons.get(is_current=True)


def table(client, season, **params):
    response = client.get(f"/seasons/{season.pk}/", params)
    assert response.status_code == 200
    return response.context["table"]


def test_every_figure_of_the_small_season(owner_client, season_games):
    lines = {line.name: line for line in table(owner_client, season_games).lines}
    ann = lines["Ann"]
    assert (ann.games, ann.wins, ann.deals, ann.deals_won) == (3, 1, 9, 3)
    assert (ann.penalty, ann.thirteens, ann.best) == (117 + 3, 3, 0)
    assert ann.average_penalty == pytest.approx(120 / 9)
    assert ann.win_percent == pytest.approx(100 / 3)
    ben = lines["Ben"]
    assert (ben.games, ben.wins, ben.deals, ben.deals_won, ben.penalty) == (3, 1, 9, 3, 234)
    assert ben.thirteens == 6
    eve = lines["Eve"]
    assert (eve.games, eve.wins, eve.deals, eve.penalty, eve.best) == (1, 0, 3, 117, 117)


def test_a_tie_in_games_won_is_broken_by_the_lower_average_penalty(owner_client, season_games):
    lines = table(owner_client, season_games).lines
    assert [(line.rank, line.name) for line in lines[:3]] == [(1, "Ann"), (2, "Ben"), (2, "Cy")]


def test_players_still_level_share_a_rank(owner_client, season_games):
    ranks = {line.name: line.rank for line in table(owner_client, season_games).lines}
    # Ben and Cy: one win each, 26 a deal, three deals won. Dee and Eve: no wins, 39 a deal.
    assert ranks == {"Ann": 1, "Ben": 2, "Cy": 2, "Dee": 4, "Eve": 4}


def test_a_game_in_progress_counts_for_nothing(owner_client, season_games):
    response = owner_client.get(f"/seasons/{season_games.pk}/")
    names = [line.name for line in response.context["table"].lines]
    assert "Fay" not in names
    assert len(response.context["games"].in_progress) == 1
    assert "These count for nothing until they finish" in response.content.decode()


def test_ranking_breaks_ties_on_deals_won_last():
    def line(name, wins, penalty, deals, deals_won):
        return Standing(0, name, 2, wins, deals, deals_won, penalty, 0, 0)

    lines = ranked(
        [
            line("A", 1, 20, 10, 2),
            line("B", 1, 20, 10, 4),
            line("C", 1, 10, 5, 1),
            line("D", 1, 10, 5, 1),
        ]
    )
    # All average exactly 2 a deal (20/10 = 10/5), so deals won decide; C and D stay level.
    assert [(entry.name, entry.rank) for entry in lines] == [
        ("B", 1),
        ("A", 2),
        ("C", 3),
        ("D", 3),
    ]


def test_columns_sort_on_tap_and_flip_on_a_second_tap(owner_client, season_games):
    by_points = table(owner_client, season_games, sort="penalty", order="asc")
    assert [line.penalty for line in by_points.lines] == sorted(
        line.penalty for line in by_points.lines
    )
    heading = next(h for h in by_points.headings if h.column == "penalty")
    assert heading.sort == "ascending"
    assert heading.url.endswith("?sort=penalty&order=desc")
    wins = next(h for h in by_points.headings if h.column == "wins")
    assert wins.url.endswith("?sort=wins&order=desc")  # a first tap shows the most wins first
    by_name = table(owner_client, season_games, sort="player", order="desc")
    assert [line.name for line in by_name.lines] == ["Eve", "Dee", "Cy", "Ben", "Ann"]


def test_an_unknown_sort_falls_back_to_the_league_order(owner_client, season_games):
    lines = table(owner_client, season_games, sort="nonsense", order="sideways").lines
    assert [line.name for line in lines] == ["Ann", "Ben", "Cy", "Dee", "Eve"]


def test_the_tables_cells_stand_under_their_headings(owner_client, season_games):
    """Each line's figures in the order of the headings (the deciding ones first)."""
    html = owner_client.get(f"/seasons/{season_games.pk}/").content.decode()
    headings = re.findall(r'<th scope="col" class="col-(\w+)"', html)
    assert headings[:5] == ["rank", "player", "wins", "average_penalty", "deals_won"]
    ann = re.search(r'<tr class="leader">(.*?)</tr>', html, re.S).group(1)
    cells = dict(re.findall(r'class="col-(\w+)">(?:<a [^>]*>)?([^<]+)', ann))
    assert list(cells) == headings
    assert cells == {
        "rank": "1",
        "player": "Ann",
        "wins": "1",
        "average_penalty": "13.33",
        "deals_won": "3",
        "rating": "4.1",
        "games": "3",
        "win_percent": "33%",
        "deals": "9",
        "penalty": "120",
        "thirteens": "3",
        "best": "0",
    }


@pytest.mark.parametrize(
    ("language", "caption"),
    [
        ("en", "Standings, sorted by Rank"),
        ("zh-hans", "排行榜，按“名次”排序"),
        ("zh-hant", "排行榜，按「名次」排序"),
    ],
)
def test_the_tables_caption_names_its_column_in_the_pages_language(
    owner_client, season_games, language, caption
):
    owner_client.post("/i18n/setlang/", {"language": language, "next": "/"})
    html = owner_client.get(f"/seasons/{season_games.pk}/").content.decode()
    shown = re.search(r"<caption[^>]*>(.*?)</caption>", html, re.S).group(1)
    assert shown.startswith(caption), shown


def test_htmx_sorting_swaps_only_the_table(owner_client, season_games):
    response = owner_client.get(
        f"/seasons/{season_games.pk}/", {"sort": "wins", "order": "desc"}, headers=HTMX
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="standings">')
    assert "<html" not in html
    assert "HX-Request" in response["Vary"]


def test_standings_csv_is_the_table_as_shown(owner_client, season_games):
    response = owner_client.get(
        f"/seasons/{season_games.pk}/standings.csv", {"sort": "penalty", "order": "asc"}
    )
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert rows[0][:4] == ["Rank", "Player", "Won", "Per deal"]
    # Ben, Cy and Dee all have 234 points: a tie keeps the league order.
    assert [row[1] for row in rows[1:]] == ["Eve", "Ann", "Ben", "Cy", "Dee"]
    ann = next(row for row in rows if row[1] == "Ann")
    assert ann == ["1", "Ann", "1", "13.33", "3", "4.1", "3", "33.3", "9", "120", "3", "0"]


def test_the_standings_csv_has_the_columns_of_the_screen_in_its_order(owner_client, season_games):
    """Someone reading the download beside the page finds each column where the page has it."""
    html = owner_client.get(f"/seasons/{season_games.pk}/").content.decode()
    table_html = re.search(r'<table class="standings">.*?</table>', html, re.S).group(0)
    on_screen = [
        re.sub(r"<[^>]+>|[▲▼]", "", heading).strip()
        for heading in re.findall(r'<th scope="col"[^>]*>(.*?)</th>', table_html, re.S)
    ]
    response = owner_client.get(f"/seasons/{season_games.pk}/standings.csv")
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert rows[0] == on_screen
    # Each figure under its own heading, as the page shows it for Ann.
    ann = dict(zip(rows[0], next(row for row in rows if row[1] == "Ann"), strict=True))
    assert (ann["Won"], ann["Per deal"], ann["Went out"], ann["Games"]) == ("1", "13.33", "3", "3")
    # The page's rows keep the headings' order too.
    ann_on_screen = re.search(r"<tr[^>]*>(?:(?!</tr>).)*>Ann</a>.*?</tr>", table_html, re.S)
    cells = re.findall(r'class="col-(\w+)"', ann_on_screen.group(0))
    headings = re.findall(r'<th scope="col" class="col-(\w+)"', table_html)
    assert cells == headings and len(cells) == 12


def test_deals_csv_has_a_row_per_player_per_deal(owner_client, season_games):
    response = owner_client.get(f"/seasons/{season_games.pk}/deals.csv")
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert list(rows[0]) == [
        "season",
        "game",
        "date",
        "deal",
        "seat",
        "player",
        "cards_left",
        "penalty",
    ]
    assert len(rows) == 4 * (3 + 3 + 3 + 1)
    first_game = min(int(row["game"]) for row in rows)
    first = [row for row in rows if int(row["game"]) == first_game and row["deal"] == "1"]
    assert [(r["seat"], r["player"], r["cards_left"], r["penalty"]) for r in first] == [
        ("1", "Ann", "0", "0"),
        ("2", "Ben", "13", "39"),
        ("3", "Cy", "13", "39"),
        ("4", "Dee", "13", "39"),
    ]
    assert {row["season"] for row in rows} == {"Season 1"}
    datetime.date.fromisoformat(rows[0]["date"])


@pytest.mark.parametrize("games", [1, 4])
def test_standings_and_csvs_run_a_fixed_number_of_queries(
    owner_client, club, games, django_assert_num_queries
):
    for _ in range(games):
        finish(make_game(club), 0, 13, 13, 13)
    season = club.seasons.get()
    # The season with its club's seasons; the ratings' version; the table; each player's
    # rating as of the season's end; the finished games counted, then a page of them, the games
    # in progress, their seats; the games played for money; the history.
    with django_assert_num_queries(10 + who_is_asking()):
        assert owner_client.get(f"/seasons/{season.pk}/").status_code == 200
    # Again: every costly part is cached under the season's and the ratings' versions; only
    # access is checked.
    with django_assert_num_queries(2 + who_is_asking()):
        assert owner_client.get(f"/seasons/{season.pk}/").status_code == 200
    # The season, the table, each player's rating as of the season's end.
    with django_assert_num_queries(3 + who_is_asking()):
        b"".join(owner_client.get(f"/seasons/{season.pk}/standings.csv").streaming_content)
    with django_assert_num_queries(2 + who_is_asking()):
        b"".join(owner_client.get(f"/seasons/{season.pk}/deals.csv").streaming_content)


def test_a_new_club_has_a_current_first_season(club):
    season = club.seasons.get()
    assert season.is_current and season.name == "Season 1"


def test_the_owner_starts_a_new_season_and_new_games_go_into_it(owner_client, club, game):
    first = club.seasons.get()
    response = owner_client.post(
        f"/clubs/{club.pk}/seasons/new/",
        {"name": "Spring 2027", "starts_on": "2027-03-01", "ends_on": ""},
    )
    spring = Season.objects.get(name="Spring 2027")
    assert response.status_code == 302
    assert response["Location"] == f"/seasons/{spring.pk}/"
    first.refresh_from_db()
    assert (first.is_current, first.ends_on) == (False, datetime.date(2027, 2, 28))
    assert spring.is_current
    assert make_game(club).season == spring
    game.refresh_from_db()
    assert game.season == first


def test_a_new_season_cannot_end_before_it_starts(owner_client, club):
    response = owner_client.post(
        f"/clubs/{club.pk}/seasons/new/",
        {"name": "Backwards", "starts_on": "2027-03-01", "ends_on": "2027-01-01"},
    )
    assert response.status_code == 200
    assert "can&#x27;t end before it starts" in response.content.decode()
    assert club.seasons.count() == 1


def test_the_new_game_form_can_choose_another_season(owner_client, club):
    first = club.seasons.get()
    services.start_season(club=club, name="Two", starts_on=datetime.date.today(), by=club.owner)
    response = owner_client.post(
        f"/clubs/{club.pk}/games/new/",
        {
            "seat_1": "Ann",
            "seat_2": "Ben",
            "seat_3": "Cy",
            "seat_4": "Dee",
            "season": first.pk,
        },
    )
    assert response.status_code == 302
    assert Game.objects.get().season == first


def test_the_owner_moves_a_game_to_another_season(owner_client, club, game):
    other = services.start_season(
        club=club, name="Two", starts_on=datetime.date.today(), by=club.owner
    )
    response = owner_client.post(f"/games/{game.pk}/season/", {"season": other.pk})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.season == other


def test_a_member_cannot_move_games_or_start_seasons(client, club, game):
    client.force_login(make_member(club))
    assert client.post(f"/games/{game.pk}/season/", {"season": game.season_id}).status_code == 403
    response = client.post(
        f"/clubs/{club.pk}/seasons/new/", {"name": "Mine", "starts_on": "2027-01-01"}
    )
    assert response.status_code == 403
    assert club.seasons.count() == 1


def test_a_game_cannot_move_into_another_clubs_season(owner_client, club, game):
    elsewhere = make_club(club.owner, name="Elsewhere").seasons.get()
    response = owner_client.post(f"/games/{game.pk}/season/", {"season": elsewhere.pk})
    assert response.status_code == 200
    assert "Pick one of the club" in response.content.decode()
    game.refresh_from_db()
    assert game.season.club == club


def test_the_club_page_shows_the_current_seasons_standings(owner_client, club, season_games):
    html = owner_client.get(f"/clubs/{club.pk}/").content.decode()
    assert "Season 1: standings" in html
    assert 'id="standings"' in html
    assert "In progress" in html


def test_all_time_standings_cover_every_season(owner_client, club, season_games):
    services.start_season(club=club, name="Two", starts_on=datetime.date.today(), by=club.owner)
    finish(make_game(club, ("Dee", "Ann", "Ben", "Cy")), 0, 13, 13, 13)
    response = owner_client.get(f"/clubs/{club.pk}/standings/")
    dee = next(line for line in response.context["table"].lines if line.name == "Dee")
    assert (dee.games, dee.wins) == (3, 1)
    two = club.seasons.get(name="Two")
    assert [line.name for line in table(owner_client, two).lines][0] == "Dee"


def test_a_players_page_lists_games_seasons_and_the_chart(owner_client, club, season_games):
    ann = club.players.get(name="Ann")
    response = owner_client.get(f"/players/{ann.pk}/")
    assert response.status_code == 200
    played = response.context["played"]
    assert len(played) == 4
    places = [(entry.place, entry.total) for entry in played if entry.game.is_finished]
    assert sorted(places) == [(1, 0), (2, 3), (2, 117)]
    [(season_name, line)] = response.context["per_season"]
    assert (season_name, line.games, line.wins) == ("Season 1", 3, 1)
    html = response.content.decode()
    assert "<svg" in html and "Average penalty per deal" in html


def test_a_player_with_one_finished_game_sees_their_average_as_a_number(owner_client, club):
    """One game is one point: drawn, it is a lone dot. The page gives the figure instead, and
    draws the line once a second game gives it somewhere to go."""
    finish(make_game(club, ("Ann", "Ben", "Cy", "Dee")), 0, 13, 13, 13)
    ben = club.players.get(name="Ben")
    html = owner_client.get(f"/players/{ben.pk}/").content.decode()
    section = re.search(r'<section aria-labelledby="trend-title">.*?</section>', html, re.S)
    assert section, "the player page has no average penalty section"
    assert "<svg" not in section.group(0)
    assert '<span class="trend-number" aria-hidden="true">39.0</span>' in section.group(0)
    assert "1 finished game: 39.0 points a deal. Lower is better." in section.group(0)

    finish(make_game(club, ("Ann", "Ben", "Cy", "Dee")), 13, 0, 13, 13)
    html = owner_client.get(f"/players/{ben.pk}/").content.decode()
    assert '<svg class="chart-svg trend"' in html
    assert "trend-number" not in html


def test_a_player_with_no_finished_game_has_an_empty_page(owner_client, club, season_games):
    fay = club.players.get(name="Fay")
    response = owner_client.get(f"/players/{fay.pk}/")
    assert response.context["per_season"] == []
    assert response.context["chart"] is None
    assert "No finished games yet" in response.content.decode()


@pytest.mark.parametrize(
    "url",
    [
        "/seasons/{season}/",
        "/seasons/{season}/standings.csv",
        "/seasons/{season}/deals.csv",
        "/clubs/{club}/standings/",
        "/clubs/{club}/seasons/new/",
        "/players/{player}/",
        "/games/{game}/season/",
    ],
)
def test_non_members_get_404_and_visitors_are_sent_to_log_in(client, club, game, url):
    url = url.format(
        season=game.season_id, club=club.pk, player=club.players.first().pk, game=game.pk
    )
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
    client.force_login(make_user())
    assert client.get(url).status_code == 404


def test_finished_games_are_listed_twenty_to_a_page_newest_first(owner_client, club):
    games = [finish(make_game(club), 0, 13, 13, 13) for _ in range(22)]
    season = club.seasons.get()
    first = owner_client.get(f"/seasons/{season.pk}/", {"sort": "wins", "order": "desc"})
    page = first.context["games"].finished
    assert [game.pk for game in page] == [game.pk for game in reversed(games)][:20]
    assert "page=2" in first.content.decode()
    assert "sort=wins&amp;order=desc&amp;page=2" in first.content.decode()
    second = owner_client.get(f"/seasons/{season.pk}/", {"page": 2})
    assert [game.pk for game in second.context["games"].finished] == [games[1].pk, games[0].pk]
    assert "Games 21–22 of 22" in second.content.decode()


def test_deals_csv_dates_are_the_clubs_local_dates(owner_client, game, settings):
    settings.TIME_ZONE = "Asia/Hong_Kong"
    deal = record(game, 0, 1, 2, 3)
    deal.recorded_at = datetime.datetime(2026, 11, 29, 20, 30, tzinfo=datetime.UTC)
    deal.save()
    response = owner_client.get(f"/seasons/{game.season_id}/deals.csv")
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert {row["date"] for row in rows} == {"2026-11-30"}  # 04:30 the next day in Hong Kong


def test_the_cached_season_page_changes_with_every_game_that_changes(owner_client, club):
    season = club.seasons.get()
    first = make_game(club)
    assert "None yet." in owner_client.get(f"/seasons/{season.pk}/").content.decode()
    finish(first, 0, 13, 13, 13)
    page = owner_client.get(f"/seasons/{season.pk}/").content.decode()
    assert "None yet." not in page
    second = make_game(club)
    finish(second, 13, 0, 13, 13)
    later = owner_client.get(f"/seasons/{season.pk}/?sort=rank").content.decode()
    assert later.count(f"/games/{second.pk}/") >= 1
    owner_client.post(f"/games/{second.pk}/delete/", {"confirm": "yes"})
    after = owner_client.get(f"/seasons/{season.pk}/?sort=rank").content.decode()
    assert f"/games/{second.pk}/" not in after


def test_a_players_games_name_the_others_with_no_stray_comma(owner_client, club, season_games):
    """Dee sat last: "Ann, Ben, Cy", not "Ann, Ben, Cy,"."""
    dee = club.players.get(name="Dee")
    html = re.sub(r"\s+", " ", owner_client.get(f"/players/{dee.pk}/").content.decode())
    assert "Season 1 · Ann, Ben, Cy</span>" in html
    assert "," + "</span>" not in html.replace(" ", "")


@pytest.mark.parametrize("asked", ["0", "-1", "10001", "²"])
def test_a_page_asked_out_of_range_is_the_first_and_leaves_the_cached_first_page_the_first(
    owner_client, club, asked
):
    """The cached lists are kept under the page the query string names, read as the cache's key
    reads it: the games listed are that page's too. A page Django's paginator took for its last
    (0, -1, past the last a key allows) was cached as the first page's, and every visitor after
    saw the last games on the first page."""
    for _ in range(22):
        finish(make_game(club), 0, 13, 13, 13)
    season = club.seasons.get()
    assert (
        "Games 1–20 of 22"
        in owner_client.get(f"/seasons/{season.pk}/", {"page": asked}).content.decode()
    )
    assert "Games 1–20 of 22" in owner_client.get(f"/seasons/{season.pk}/").content.decode()
