"""Reads never tear: every page, poll and export shows a game as it was before a change or
after it, never half of each, and never fails because a change landed while it was read.

These tests need a database that other connections really commit to while a page is being
read: the test database, a WAL-mode file on SQLite as the server runs it (tests/conftest.py), with
every change committed (`transactional_db`).

- A change by another phone is committed before every query but the first that a page sends
  about the game: whatever the page shows must still be one state of the game. This is
  deterministic, and fails on any read path that reads a game in several queries outside one
  snapshot.
- Readers race a scorekeeper who records, corrects and undoes as fast as the database lets
  him, on every read path at once, as phones do.

The scorekeeper goes round three states: A (two deals, in progress), B (a third deal takes
Ben past 100: the game is over, Ann wins), C (that deal corrected so that nobody is out) and
back to A by undoing it. Every state is noted by version (`States`), so an answer is checked
against the state it claims to show: a board names its version in its poll's URL, an export's
deals say which state it is of.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import re
import threading
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import pytest
from django.db import connection, connections
from django.test import Client

from scoring import services
from scoring.models import Deal, Game
from tests.factories import make_club, make_game, record

HTMX = {"HX-Request": "true", "HX-Target": "game-live"}
NAMES = ("Ann", "Ben", "Cy", "Dee")
OPENING = ((0, 13, 1, 1), (0, 13, 1, 1))  # Ben on 78
FINISHING = (0, 13, 1, 1)  # Ben on 117: the game is over, Ann wins on 0
CORRECTED = (1, 0, 1, 1)  # nobody past 100: the game goes on
FINISHED_TOTALS = (0, 117, 3, 3)  # state B's, the only finished one: the standings' points


# The game and every state it is ever in


@dataclass(frozen=True, slots=True)
class State:
    version: int
    deals: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    finished: bool
    winner: str | None


def state_of(game_id: int) -> State:
    """The game as it is now; only called while nobody else is changing it."""
    game = Game.objects.select_related("winner").get(pk=game_id)
    deals = Deal.objects.filter(game_id=game_id).order_by("number")
    return State(
        version=game.version,
        deals=tuple(
            tuple(deal.scores.order_by("seat__position").values_list("cards_left", flat=True))
            for deal in deals
        ),
        totals=tuple(game.seats.order_by("position").values_list("total", flat=True)),
        finished=game.is_finished,
        winner=game.winner.name if game.winner else None,
    )


@dataclass
class States:
    """Every state the game has been in, by version."""

    by_version: dict[int, State] = field(default_factory=dict)

    def note(self, game_id: int) -> None:
        """Note the state the game is in now: call it after each change, before the next."""
        state = state_of(game_id)
        self.by_version[state.version] = state

    @property
    def latest(self) -> State:
        return self.by_version[max(self.by_version)]

    @property
    def phase(self) -> str:
        """A, B or C (see the top of this file)."""
        deals = self.latest.deals
        return "A" if len(deals) == len(OPENING) else "B" if deals[-1] == FINISHING else "C"

    def with_deals(self, deals: tuple[tuple[int, ...], ...]) -> State | None:
        return next((s for s in self.by_version.values() if s.deals == deals), None)


@dataclass
class Table:
    game: Game
    states: States
    member: Client  # the owner, signed in
    live: str  # the shared live view's path
    ann: int  # her player id
    other_phone: ThreadPoolExecutor  # one thread, so a database connection of its own

    def change(self) -> None:
        """The scorekeeper's next change, A → B → C → A, in this thread's connection."""
        game = Game.objects.select_related("club__owner").get(pk=self.game.pk)
        owner = game.club.owner
        phase = self.states.phase
        if phase == "A":
            token = uuid.uuid4()
            services.record_deal(game=game, number=3, cards_left=FINISHING, token=token, by=owner)
        elif phase == "B":
            services.edit_deal(game=game, number=3, cards_left=CORRECTED, by=owner)
        else:
            services.undo_last_deal(game=game, number=3, by=owner)
        self.states.note(game.pk)

    def change_elsewhere(self) -> None:
        """The scorekeeper's next change, made and committed on the other phone."""
        self.other_phone.submit(self.change).result(timeout=30)

    def go_to(self, phase: str) -> None:
        while self.states.phase != phase:
            self.change()


@pytest.fixture
def table(transactional_db) -> Iterator[Table]:
    club = make_club()
    game = make_game(club, names=NAMES)
    for cards in OPENING:
        record(game, *cards)
    services.share_game(game=game, by=club.owner)
    member = Client(raise_request_exception=False)
    member.force_login(club.owner)
    states = States()
    states.note(game.pk)
    ann = game.seats.get(position=0).player_id
    other_phone = ThreadPoolExecutor(max_workers=1)
    yield Table(game, states, member, f"/live/{game.share_token}/", ann, other_phone)
    other_phone.submit(connections.close_all).result()
    other_phone.shutdown()


# What each answer must agree with


@dataclass(frozen=True, slots=True)
class Answer:
    status: int
    text: str
    error: str  # the exception behind a 500

    @classmethod
    def of(cls, response) -> Answer:
        """Read now, streamed or not: a streamed body is read from the database as it goes."""
        body = b"".join(response.streaming_content) if response.streaming else response.content
        error = getattr(response, "exc_info", None)
        return cls(response.status_code, body.decode(), repr(error[1]) if error else "")

    def __str__(self) -> str:
        return f"answered {self.status} {self.error}".strip()


def problem_with_json(table: Table, answer: Answer) -> str | None:
    if answer.status != 200:
        return str(answer)
    data = json.loads(answer.text)
    deals = tuple(tuple(deal["cards_left"]) for deal in data["deals"])
    penalties = [deal["penalties"] for deal in data["deals"]]
    summed = [sum(column) for column in zip(*penalties, strict=True)] or [0] * len(NAMES)
    state = table.states.with_deals(deals)
    if state is None:
        return f"deals {deals} were never the game's"
    shown = (data["totals"], data["status"] == "finished", data["winner"])
    if shown != (list(state.totals), state.finished, state.winner) or summed != data["totals"]:
        return f"{shown} beside deals {deals} (penalties add up to {summed})"
    return None


def problem_with_csv(table: Table, answer: Answer) -> str | None:
    if answer.status != 200:
        return str(answer)
    rows = list(csv.DictReader(io.StringIO(answer.text)))
    asked = [column for column in (rows[0] if rows else {}) if column.endswith(" cards left")]
    deals = tuple(tuple(int(row[column]) for column in asked) for row in rows)
    if table.states.with_deals(deals) is None:
        return f"deals {deals} were never the game's"
    return None


def numbers(html: str) -> tuple[int, ...]:
    return tuple(int(number) for number in re.findall(r"\d+", re.sub(r"<[^>]+>", " ", html)))


def problem_with_board(table: Table, answer: Answer, *, members: bool = True) -> str | None:
    """The scoreboard is whole, and the one of the version its poll asks about: the version
    it is cached under."""
    if answer.status != 200:
        return str(answer)
    version = int(re.search(r'id="board-follow"[^>]*\?v=(\d+)', answer.text).group(1))
    state = table.states.by_version.get(version)
    if state is None:
        return f"version {version} was never noted"
    board = answer.text.split('id="game-board"', 1)[1]
    footer = re.search(r"<tfoot[^>]*>(.*?)</tfoot>", board, re.S)
    running = re.findall(r'<span class="run">= (\d+)</span>', board)
    shown = {
        "totals": numbers(footer.group(1)) if footer else None,
        "running totals": tuple(int(total) for total in running[-len(NAMES) :]),
        "deals": len(re.findall(r'<th scope="row">(?:<a [^>]*>)?\d', board)),
        "finished": "Final totals" in board,
    }
    expected = {
        "totals": state.totals,
        "running totals": state.totals,
        "deals": len(state.deals),
        "finished": state.finished,
    }
    if members:
        undo = re.search(r"Undo deal (\d+)", board)
        shown["undo"] = int(undo.group(1)) if undo else None
        expected["undo"] = len(state.deals)
    if shown != expected:
        return f"version {version} shows {shown}, but was {expected}"
    return None


def problem_with_shared_board(table: Table, answer: Answer) -> str | None:
    return problem_with_board(table, answer, members=False)


def problem_with_edit_page(table: Table, answer: Answer) -> str | None:
    """Deal 3 as it was, or "no such deal" (in state A)."""
    if answer.status == 404:
        return None
    if answer.status != 200:
        return str(answer)
    was = re.search(r"It was ([\d · ]+)\.", answer.text).group(1)
    cards = tuple(int(count) for count in was.split(" · "))
    if cards not in (FINISHING, CORRECTED):
        return f"deal 3 was never {cards}"
    return None


def problem_with_undo_page(table: Table, answer: Answer) -> str | None:
    if answer.status != 200:
        return str(answer)
    html = re.sub(r"\s+", " ", answer.text)
    found = re.search(r"Deal (\d+) will be taken off the scoreboard: ([^.]*)\.", html)
    number, listed = int(found.group(1)), found.group(2)
    cards = numbers(listed)
    states = table.states.by_version.values()
    if not any(len(s.deals) == number and s.deals[-1] == cards for s in states):
        return f"deal {number} was never the last deal with {cards} ({listed!r})"
    return None


def problem_with_game_lists(table: Table, answer: Answer) -> str | None:
    """The game is listed once, as finished or in progress, and the standings agree."""
    if answer.status != 200:
        return str(answer)
    listed = answer.text.count(f'href="/games/{table.game.pk}/" class="game-link"')
    won = "Ann won" in answer.text
    problem = problem_with_standings(table, answer)
    in_standings = 'class="standings"' in answer.text
    if listed != 1 or won != in_standings or problem:
        return f"listed {listed} times, won: {won}, standings: {problem or in_standings}"
    return None


def problem_with_standings(table: Table, answer: Answer) -> str | None:
    """No line (no game finished), or the finished game's (state B) four."""
    if answer.status != 200:
        return str(answer)
    # A line's points are its third figure from the end (then thirteens, then best).
    ends = re.findall(r"<td>(\d+)</td>\s*<td>\d+</td>\s*<td>\d+</td>\s*</tr>", answer.text)
    points = [int(total) for total in ends]
    if points and sorted(points) != sorted(FINISHED_TOTALS):
        return f"points {points}"
    return None


def problem_with_standings_csv(table: Table, answer: Answer) -> str | None:
    if answer.status != 200:
        return str(answer)
    rows = list(csv.DictReader(io.StringIO(answer.text)))
    points = sorted(int(row["Points"]) for row in rows)
    if points and points != sorted(FINISHED_TOTALS):
        return f"points {points}"
    return None


def problem_with_season_deals(table: Table, answer: Answer) -> str | None:
    if answer.status != 200:
        return str(answer)
    rows = list(csv.DictReader(io.StringIO(answer.text)))
    by_deal: dict[int, list[int]] = {}
    for row in rows:
        by_deal.setdefault(int(row["deal"]), []).append(int(row["cards_left"]))
    deals = tuple(tuple(by_deal[number]) for number in sorted(by_deal))
    if table.states.with_deals(deals) is None:
        return f"deals {deals} were never the game's"
    return None


def problem_with_player_page(table: Table, answer: Answer) -> str | None:
    if answer.status != 200:
        return str(answer)
    html = re.sub(r"\s+", " ", answer.text)
    entry = re.search(r'class="game-link"[^>]*> <strong>([^<]*)</strong>', html).group(1)
    seen = {
        f"Won with {s.totals[0]}" if s.finished else f"In progress, on {s.totals[0]}"
        for s in table.states.by_version.values()
    }
    if entry not in seen:
        return f"{entry!r}, but the game was only ever {sorted(seen)}"
    return None


@dataclass(frozen=True, slots=True)
class Read:
    name: str
    path: Callable[[Table], str]
    problem: Callable[[Table, Answer], str | None]
    headers: dict[str, str] = field(default_factory=dict)
    signed_in: bool = True

    def by(self, table: Table, client: Client) -> Answer:
        return Answer.of(client.get(self.path(table), headers=self.headers))


READS = [
    Read("game page", lambda t: f"/games/{t.game.pk}/", problem_with_board),
    Read("game page, htmx", lambda t: f"/games/{t.game.pk}/", problem_with_board, HTMX),
    Read("members' poll", lambda t: f"/games/{t.game.pk}/board/?v=0&deal=3", problem_with_board),
    Read("live view", lambda t: t.live, problem_with_shared_board, signed_in=False),
    Read("live poll", lambda t: f"{t.live}board/?v=0", problem_with_shared_board, signed_in=False),
    Read("JSON", lambda t: f"/games/{t.game.pk}.json", problem_with_json),
    Read("CSV", lambda t: f"/games/{t.game.pk}.csv", problem_with_csv),
    Read("edit page", lambda t: f"/games/{t.game.pk}/deals/3/edit/", problem_with_edit_page),
    Read("undo page", lambda t: f"/games/{t.game.pk}/undo/", problem_with_undo_page),
    Read("season page", lambda t: f"/seasons/{t.game.season_id}/", problem_with_game_lists),
    Read("club page", lambda t: f"/clubs/{t.game.club_id}/", problem_with_game_lists),
    Read(
        "all-time standings",
        lambda t: f"/clubs/{t.game.club_id}/standings/",
        problem_with_standings,
    ),
    Read("player page", lambda t: f"/players/{t.ann}/", problem_with_player_page),
    Read(
        "standings CSV",
        lambda t: f"/seasons/{t.game.season_id}/standings.csv",
        problem_with_standings_csv,
    ),
    Read(
        "season deals CSV",
        lambda t: f"/seasons/{t.game.season_id}/deals.csv",
        problem_with_season_deals,
    ),
]


# A change between two queries of a read


class Interloper:
    """The other phone: once armed, it has the scorekeeper's next change committed just before
    each query the reader sends about the game (any query of a scoring_ table).

    It arms itself at the reader's first query about the game, unless told to wait for `arm`.
    """

    def __init__(self, table: Table, *, arms_itself: bool = True) -> None:
        self.table = table
        self.arms_itself = arms_itself
        self.armed = False
        self.changes = 0

    def arm(self) -> None:
        self.armed = True

    def __call__(self, execute, sql, params, many, context):
        if "scoring_" in sql:
            if self.armed:
                self.table.change_elsewhere()
                self.changes += 1
            elif self.arms_itself:
                self.armed = True
        return execute(sql, params, many, context)


def test_a_change_between_any_two_queries_of_a_read_never_shows(table):
    """Each read from each state, so that each change falls between each two of its queries."""
    problems = {}
    for read in READS:
        client = table.member if read.signed_in else Client(raise_request_exception=False)
        for start in "ABC":
            table.go_to(start)
            interloper = Interloper(table)
            with connection.execute_wrapper(interloper):
                answer = read.by(table, client)
            assert interloper.changes, f"{read.name}: one query about the game, nothing to tear"
            if problem := read.problem(table, answer):
                problems[f"{read.name}, from {start}"] = problem
    assert problems == {}


def test_a_change_between_a_write_and_the_board_it_answers_with_never_shows(table, monkeypatch):
    """Recording and undoing with htmx answer with the game's board: whatever another phone
    changes once the write is done, that board is one state of the game, under its version."""
    interlopers: list[Interloper] = []

    def then_interlope(write):
        def written(**kwargs):
            result = write(**kwargs)
            table.states.note(table.game.pk)
            interlopers[-1].arm()
            return result

        return written

    monkeypatch.setattr(services, "record_deal", then_interlope(services.record_deal))
    monkeypatch.setattr(services, "undo_last_deal", then_interlope(services.undo_last_deal))
    finishing = {f"cards_{seat}": str(count) for seat, count in enumerate(FINISHING)}
    posts = {
        "record": (f"/games/{table.game.pk}/deals/", {"number": 3, "token": uuid.uuid4()}),
        "undo": (f"/games/{table.game.pk}/undo/", {"number": 3}),
    }
    problems = {}
    for start, action in [("A", "record"), ("B", "undo"), ("C", "undo")]:
        table.go_to(start)
        interlopers.append(Interloper(table, arms_itself=False))
        path, data = posts[action]
        with connection.execute_wrapper(interlopers[-1]):
            response = table.member.post(path, data | finishing, headers=HTMX)
        assert interlopers[-1].changes > 0
        problems[f"{action} from {start}"] = problem_with_board(table, Answer.of(response))
    assert problems == dict.fromkeys(problems)


# Readers racing a scorekeeper

READERS = 3
# Ten times round A → B → C → A, however long that takes: the same work on any machine (about
# every other change tore a read before reads took a snapshot), and the three phones' reads.
CHANGES = 30
ENOUGH_READS = 4 * len(READS)  # and the scorekeeper goes on until there were as many


def test_readers_racing_a_scorekeeper_never_see_half_a_change(table):
    """Three phones read every page, poll and export of a game over and over while its
    scorekeeper records, corrects and undoes a deal as fast as the database lets him."""
    done = threading.Event()
    answers: list[tuple[Read, Answer]] = []
    failures: list[BaseException] = []
    clients = []
    for _ in range(READERS):
        client = Client(raise_request_exception=False)
        client.force_login(table.game.club.owner)
        clients.append(client)

    def scorekeeper() -> None:
        try:
            for changes in itertools.count():
                if changes >= CHANGES and len(answers) >= ENOUGH_READS:
                    break
                table.change()
        except BaseException as error:  # reported by the assertion below
            failures.append(error)
        finally:
            done.set()
            connections.close_all()

    def reader(client: Client, first: int) -> None:
        anonymous = Client(raise_request_exception=False)
        try:
            for index in itertools.count(first):
                if done.is_set():
                    break
                read = READS[index % len(READS)]
                answers.append((read, read.by(table, client if read.signed_in else anonymous)))
        except BaseException as error:  # reported by the assertion below
            failures.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=scorekeeper)] + [
        threading.Thread(target=reader, args=(client, 5 * n)) for n, client in enumerate(clients)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a thread waited two minutes"
    assert not failures, failures
    problems = [
        f"{read.name}: {problem}"
        for read, answer in answers
        if (problem := read.problem(table, answer)) is not None
    ]
    print(f"{len(answers)} reads around {len(table.states.by_version) - 1} changes")
    assert problems == []
