"""Downloads: a game as JSON or CSV, a season's standings and every deal of it as CSV."""

from __future__ import annotations

import csv
import datetime
import functools
import io
import itertools
from collections.abc import Callable, Iterator, Sequence

from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    JsonResponse,
    StreamingHttpResponse,
)
from django.utils import timezone
from django.views.decorators.http import require_GET

from rules.deal_checks import DealResult
from rules.deal_options import Scoring
from rules.deal_score import facts_wanted
from rules.options import TwosRule
from rules.ruleset import RuleSet
from scoring import caching, selectors
from scoring.imports.tables import FORMULA_STARTS, SITE_CSV_HEADER
from scoring.presenters.board import Cell, Line, member_board
from scoring.presenters.score_out import score_file_text, writes_score_file
from scoring.presenters.tables import COLUMNS
from scoring.selectors.snapshot import read_snapshot
from scoring.selectors.standings import Standing
from scoring.views.pages import season_standings

# A download is of one version of its game, never out of date: kept until no longer asked for.
DOWNLOAD_SECONDS = 86400
KEPT_HEADERS = ("Content-Type", "Content-Disposition")
GameView = Callable[[HttpRequest, int], HttpResponse]


def kept_per_version(kind: str) -> Callable[[GameView], GameView]:
    """A game's download kept in Django's cache under the game's version
    (`caching.download_key`): asked again before the game changes, it is answered without
    reading a deal. Inside the view's `read_snapshot()`, so that the version is the one the
    download shows; a game the member may not see is not found, kept or not."""

    def decorate(view: GameView) -> GameView:
        @functools.wraps(view)
        def kept(request: HttpRequest, game_id: int) -> HttpResponse:
            key = caching.download_key(selectors.member_game(request.user, game_id), kind)
            found = cache.get(key)
            if found is not None:
                content, headers = found
                response = HttpResponse(content)
                for name, value in headers.items():
                    response[name] = value
                return response
            response = view(request, game_id)
            headers = {name: response[name] for name in KEPT_HEADERS if name in response}
            cache.set(key, (response.content, headers), DOWNLOAD_SECONDS)
            return response

        return kept

    return decorate


@login_required
@require_GET
@read_snapshot()
@kept_per_version("json")
def game_json(request: HttpRequest, game_id: int) -> JsonResponse:
    board = member_board(request.user, game_id)
    senders = selectors.entered_by(board.game)
    filling = selectors.deal_filling(board.game, board.seats)
    return JsonResponse(
        {
            "id": board.game.pk,
            "players": board.names,
            "rules": {"name": board.game.ruleset.name, "label": board.game.ruleset.label},
            "stake": str(board.game.stake) if board.game.stake is not None else None,
            "deals": [
                deal_json(line, board.game.ruleset) | {"entered_by": senders.get(line.number)}
                for line in board.lines
            ],
            "totals": [seat.total for seat in board.seats],
            "status": board.game.status,
            # The one winner's name (null while the game goes on and when the win is shared);
            # `winners` names everyone who won, one or more once the game is over.
            "winner": board.winner_name,
            "winners": board.winner_names,
            # A club night's game: when its time runs out (null for a game without a clock),
            # and the deal the game ended on because it had (null until then).
            "closes_at": board.game.closes_at,
            "last_deal": board.game.last_deal,
            # A game played with own counts: the next deal as its players have sent it so far
            # (null while nobody has).
            "filling": None
            if filling is None
            else {
                "number": filling.number,
                "sent": list(filling.sent_names),
                "waiting": list(filling.waiting),
            },
        }
    )


def deal_json(line: Line, rules: RuleSet) -> dict[str, object]:
    """A deal as the export gives it; the twos, places, points, the dragon and who paid for
    the table only where the game's rules ask about them (seats numbered from 0)."""
    deal: dict[str, object] = {
        "number": line.number,
        "cards_left": [cell.cards_left for cell in line.cells],
        "penalties": [cell.penalty for cell in line.cells],
    }
    if rules.twos is not TwosRule.OFF:
        deal["out_on_twos"] = line.out_on_twos
    if rules.twos is TwosRule.EACH_TWO:
        deal["twos_held"] = [cell.twos_held for cell in line.cells]
    facts = line.scored.facts if line.scored is not None else None
    allowed = facts_wanted(rules).allowed
    for name in ("last_play_twos", "order", "points", "pays", "dragon"):
        if name in allowed:
            value = getattr(facts, name, None)
            deal[name] = list(value) if isinstance(value, tuple) else value
    return deal


@login_required
@require_GET
@read_snapshot()
@kept_per_version("csv")
def game_csv(request: HttpRequest, game_id: int) -> HttpResponse:
    board = member_board(request.user, game_id)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="game-{board.game.pk}.csv"'
    writer = csv.writer(response)
    rules = board.game.ruleset
    header = ["deal", *deal_columns(rules)]
    for name in board.names:
        header += [f"{spreadsheet_safe(name)} {column}" for column in seat_columns(rules)]
    writer.writerow(header)
    for line in board.lines:
        row = [line.number, *deal_cells(line, rules, board.names)]
        for seat, cell in enumerate(line.cells):
            row += seat_cells(line, rules, seat, cell)
        writer.writerow(row)
    return response


def deal_columns(rules: RuleSet) -> list[str]:
    """The game CSV's columns about a whole deal, those the rules ask for."""
    allowed = facts_wanted(rules).allowed
    columns = ["out on twos"] if rules.twos is not TwosRule.OFF else []
    columns += ["twos in the last play"] if "last_play_twos" in allowed else []
    columns += ["pays for the table"] if "pays" in allowed else []
    return columns + (["dragon"] if "dragon" in allowed else [])


def deal_cells(line: Line, rules: RuleSet, names: list[str]) -> list[object]:
    facts = line.scored.facts if line.scored is not None else DealResult()
    allowed = facts_wanted(rules).allowed
    cells: list[object] = [int(line.out_on_twos)] if rules.twos is not TwosRule.OFF else []
    cells += [facts.last_play_twos] if "last_play_twos" in allowed else []
    for name, seat in (("pays", facts.pays), ("dragon", facts.dragon)):
        if name in allowed:
            cells.append("" if seat is None else spreadsheet_safe(names[seat]))
    return cells


def seat_columns(rules: RuleSet) -> list[str]:
    """The game CSV's columns for each player: what the deal form asked of them, the
    penalty, their total after the deal (what the board's total row says once it is played),
    and under the stronger twos rule the twos they held."""
    asked = {Scoring.FINISHING_ORDER: "place", Scoring.POINTS_BY_HAND: "points"}
    columns = [asked.get(rules.scoring, "cards left"), "penalty", "total"]
    return columns + (["twos held"] if rules.twos is TwosRule.EACH_TWO else [])


def seat_cells(line: Line, rules: RuleSet, seat: int, cell: Cell) -> list[object]:
    facts = line.scored.facts if line.scored is not None else DealResult()
    asked: object = cell.cards_left
    if facts.order is not None:
        asked = facts.order.index(seat) + 1
    elif facts.points is not None:
        asked = facts.points[seat]
    cells = [asked, cell.penalty, cell.total]
    return cells + ([cell.twos_held] if rules.twos is TwosRule.EACH_TWO else [])


def spreadsheet_safe(text: str) -> str:
    """Keep a name from being read as a formula when the CSV is opened in a spreadsheet."""
    return "'" + text if text[:1] in (*FORMULA_STARTS, "\t", "\r") else text


CSV_ROWS_PER_CHUNK = 1000


def csv_chunks(rows: Iterator[Sequence[object]]) -> Iterator[str]:
    """CSV text a thousand rows at a time: memory stays flat however long the file, and the
    server writes a few hundred chunks instead of one per row."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    for batch in itertools.batched(rows, CSV_ROWS_PER_CHUNK):
        writer.writerows(batch)
        yield buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()


def csv_response(filename: str, rows: Iterator[Sequence[object]]) -> StreamingHttpResponse:
    response = StreamingHttpResponse(csv_chunks(rows), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def standings_cell(line: Standing, column: str) -> object:
    """A figure of the league table as the standings CSV gives it: as many decimals as a
    spreadsheet needs, empty where the page shows a dash."""
    if column == "player":
        return spreadsheet_safe(line.name)
    if column == "win_percent":
        return f"{line.win_percent:.1f}"
    if column == "average_penalty":
        return f"{line.average_penalty:.2f}"
    if column == "rating":
        return "" if line.rating is None else f"{line.rating:.1f}"
    value = getattr(line, column)
    return "" if value is None else value


@login_required
@require_GET
def standings_csv(request: HttpRequest, season_id: int) -> StreamingHttpResponse:
    """The league table as the season page shows it: its headings, in its order (`COLUMNS`,
    which the page's table follows too), its rows sorted as the page's query asks."""
    season = selectors.member_season(request.user, season_id)
    # One query, read here rather than as the rows stream: one state of every game.
    table = season_standings(request, season)

    def rows() -> Iterator[list[object]]:
        yield [label for label, _higher_is_better in COLUMNS.values()]
        for line in [*table.lines, *table.unranked]:
            yield [standings_cell(line, column) for column in COLUMNS]

    return csv_response(f"standings-season-{season.pk}.csv", rows())


def local_date(stored: str, zone: datetime.tzinfo) -> datetime.date:
    """The date in `zone` of a time as the database gives it as text: with an offset
    (PostgreSQL), or as naive UTC (SQLite)."""
    moment = datetime.datetime.fromisoformat(stored)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.UTC)
    return moment.astimezone(zone).date()


@login_required
@require_GET
def season_deals_csv(request: HttpRequest, season_id: int) -> StreamingHttpResponse:
    """Every player's line of every deal of the season, streamed straight from the cursor.

    A thousand-game season is a hundred thousand rows, so the database shapes them (seats from
    1, the deal's time as text) and Python turns a deal's time into the local date only once
    for its four rows.

    No `read_snapshot()`: the rows are read as they stream, after the view has returned and a
    snapshot would have ended (on PostgreSQL, closing the cursor with it). They come from one
    query, which sees every deal with all its scores or none.
    """
    season = selectors.member_season(request.user, season_id)
    scores = selectors.season_deal_rows(season, spreadsheet_safe(season.name))

    zone = timezone.get_current_timezone()

    def rows() -> Iterator[Sequence[object]]:
        yield SITE_CSV_HEADER
        recorded, date = None, ""
        for row in scores.iterator(chunk_size=2000):
            if row[2] != recorded:  # a deal's four rows share its time: convert it once
                recorded = row[2]
                date = local_date(recorded, zone)
            yield (row[0], row[1], date, *row[3:5], spreadsheet_safe(row[5]), *row[6:])

    return csv_response(f"deals-season-{season.pk}.csv", rows())


@login_required
@require_GET
@read_snapshot()
@kept_per_version("score.txt")
def game_score_file(request: HttpRequest, game_id: int) -> HttpResponse:
    """The game as a big-two-scorer score file; not found for rules that format can't say."""
    board = member_board(request.user, game_id)
    if not writes_score_file(board.game.ruleset):
        raise Http404
    response = HttpResponse(score_file_text(board), content_type="text/plain; charset=utf-8")
    name = f"game-{board.game.pk}-score.txt"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
