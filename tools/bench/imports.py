"""What one member's score file can make the site do, measured against the site served as
`make run` serves it (uvicorn, SQLite in a fresh DJANGO_VAR_DIR), each figure printed:

- the preview of a ~6 KB gzip that unpacks to 200,000 one-deal games: how long until the
  answer (or none within 30 s), and how much the server grew meanwhile;
- twenty 5 MB files, each refused (not a text file): how much the server keeps;
- another club's deals recorded while a file of 2,000 deals (4 games of 500) is imported:
  the slowest answer, and any that wasn't a redirect (a 503 says the database was held).

    .venv/bin/python -m tools.bench.imports

The servers' memory is their resident set (VmRSS), read from /proc.
"""

from __future__ import annotations

import contextlib
import gzip
import http.client
import os
import re
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from tools.bench.served import benchmark_site
from tools.loadtest.servers import Servers, machine_load

PASSWORD = "a score file or two"
ANSWER_SECONDS = 30.0
ONE_DEAL_GAME = b"A B C D\n0 1 1 1\n"
REFUSED_FILE_BYTES = 5 * 1_000_000


@dataclass
class Member:
    """A signed-in browser: its cookies and its club."""

    port: int
    club: int
    cookies: dict[str, str] = field(default_factory=dict)

    def send(
        self,
        method: str,
        path: str,
        body: bytes = b"",
        content_type: str = "",
        seconds: float = ANSWER_SECONDS,
    ) -> tuple[int, str]:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        headers |= {"Referer": f"http://127.0.0.1:{self.port}/", "Host": f"127.0.0.1:{self.port}"}
        if content_type:
            headers["Content-Type"] = content_type
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=seconds)
        with contextlib.closing(connection):
            connection.request(method, path, body=body, headers=headers)
            reply = connection.getresponse()
            for cookie in reply.headers.get_all("Set-Cookie") or []:
                name, _, rest = cookie.partition("=")
                self.cookies[name.strip()] = rest.partition(";")[0]
            return reply.status, reply.read().decode(errors="replace")

    def post(
        self, path: str, fields: dict[str, str], files: dict[str, tuple[str, bytes]] | None = None
    ) -> tuple[int, str]:
        fields = {"csrfmiddlewaretoken": self.cookies["csrftoken"], **fields}
        body, content_type = multipart(fields, files or {})
        return self.send("POST", path, body, content_type)


def multipart(fields: dict[str, str], files: dict[str, tuple[str, bytes]]) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    parts = []
    for name, value in fields.items():
        head = f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'
        parts.append(head.encode() + str(value).encode() + b"\r\n")
    for name, (file_name, data) in files.items():
        head = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}";'
            f' filename="{file_name}"\r\nContent-Type: application/octet-stream\r\n\r\n'
        )
        parts.append(head.encode() + data + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def seed() -> tuple[dict[str, object], dict[str, object]]:
    """Two owners, each of a club: one imports, the other keeps a game going (open-ended)."""
    from django.contrib.auth import get_user_model

    from rules.ruleset import parse_rules
    from scoring import services

    made = []
    for name in ("importer", "table"):
        user = get_user_model().objects.create_user(username=name, password=PASSWORD)
        club = services.create_club(name=f"{name} club", owner=user)
        made.append({"user": name, "club": club.pk, "owner": user, "season": club.seasons.get()})
    table = made[1]
    rules = parse_rules("open-ended")
    services.set_season_rules(season=table["season"], rules=rules, stake=None, by=table["owner"])
    game = services.start_game(
        club=table["season"].club, seat_names=["Ann", "Ben", "Cy", "Dee"], by=table["owner"]
    )
    table["game"] = game.pk
    return made[0], made[1]


def signed_in(port: int, who: dict[str, object]) -> Member:
    member = Member(port, int(who["club"]))
    member.send("GET", "/accounts/login/")
    fields = {"username": str(who["user"]), "password": PASSWORD}
    status, _ = member.post("/accounts/login/", fields)
    assert status == 302, f"login answered {status}"
    return member


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Peak:
    """The largest resident set of `pid` while the block runs, sampled every 20 ms."""

    def __init__(self, pid: int) -> None:
        self.pid, self.most, self.done = pid, rss_mb(pid), threading.Event()

    def __enter__(self) -> Peak:
        def sample() -> None:
            while not self.done.wait(0.02):
                with contextlib.suppress(OSError):
                    self.most = max(self.most, rss_mb(self.pid))

        self.thread = threading.Thread(target=sample, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.done.set()
        self.thread.join()


def preview(member: Member, name: str, data: bytes, **choices: str) -> tuple[int, str]:
    fields = {"season": "new", "season_name": "", "holds": "cards", **choices}
    return member.post(f"/clubs/{member.club}/import/", fields, {"score_file": (name, data)})


def said(page: str) -> str:
    """The page's first alert or problem, in a line."""
    found = re.search(r'role="alert"[^>]*>(.*?)</(?:p|section)>', page, re.S)
    text = re.sub(r"<[^>]+>|\s+", " ", found.group(1) if found else page[:200])
    return " ".join(text.split())[:160]


def many_games(member: Member, pid: int) -> None:
    data = gzip.compress(ONE_DEAL_GAME * 200_000, 9)
    before = rss_mb(pid)
    started = time.perf_counter()
    with Peak(pid) as peak:
        try:
            status, page = preview(member, "many.txt.gz", data)
            answer = f"{status} in {time.perf_counter() - started:.2f} s: {said(page)}"
        except TimeoutError:
            answer = f"no answer in {ANSWER_SECONDS:.0f} s"
    print(
        f"preview of a {len(data) / 1000:.1f} KB gzip of 200,000 one-deal games"
        f" ({len(ONE_DEAL_GAME) * 200_000 / 1e6:.1f} MB unpacked): {answer};"
        f" server memory {before:.0f} MB, at most {peak.most:.0f} MB"
        f" (+{peak.most - before:.0f} MB)"
    )


def refused_files(member: Member, pid: int) -> None:
    before = rss_mb(pid)
    statuses = set()
    for number in range(20):
        data = b"\x00" + os.urandom(REFUSED_FILE_BYTES - 1)
        status, page = preview(member, f"photo-{number}.jpg", data)
        statuses.add(f"{status} {said(page)[:60]}")
    after = rss_mb(pid)
    print(
        f"twenty refused 5 MB files: server memory {before:.0f} MB before, {after:.0f} MB after"
        f" (+{after - before:.0f} MB); answered {sorted(statuses)}"
    )


def big_import(importer: Member, table: Member, game: int) -> None:
    games = [b"Ann Ben Cy Dee\n" + b"0 1 1 1\n1 0 1 1\n" * 250 for _ in range(4)]
    data = b"2013-03-19\n" + b"".join(games)
    status, page = preview(importer, "long.txt", data)
    digest = re.search(r'name="digest" value="([0-9a-f]{64})"', page)
    assert status == 200 and digest, f"preview answered {status}: {said(page)}"
    fields = {"digest": digest.group(1), "season": "new", "season_name": "", "holds": "cards"}
    answers: list[tuple[float, int]] = []
    imported: list[str] = []

    def send_import() -> None:
        started = time.perf_counter()
        answer, _ = importer.post(f"/clubs/{importer.club}/import/", fields)
        imported.append(f"{answer} in {time.perf_counter() - started:.2f} s")

    importing = threading.Thread(target=send_import)
    importing.start()
    number = table_deals(table, game)
    while importing.is_alive() or not answers:
        number += 1
        form = {"number": str(number), "token": str(uuid.uuid4())}
        form |= {f"cards_{seat}": str(cards) for seat, cards in enumerate((0, 1, 2, 3))}
        started = time.perf_counter()
        answer, _ = table.post(f"/games/{game}/deals/", form)
        answers.append((time.perf_counter() - started, answer))
    importing.join()
    slowest = max(seconds for seconds, _ in answers)
    others = sorted({status for _, status in answers if status != 302})
    print(
        f"another club's deal while a 2,000-deal file imports (import {imported[0]}):"
        f" {len(answers)} deals, slowest {slowest:.2f} s,"
        f" answers other than 302: {others or 'none'}"
    )


def table_deals(table: Member, game: int) -> int:
    from scoring.models import Deal

    return Deal.objects.filter(game_id=game).count()


def main() -> None:
    with benchmark_site() as environment:
        importer_account, table_account = seed()
        servers = Servers(environment, 1)
        servers.start()
        try:
            port, pid = servers.ports[0], servers.processes[0].pid
            importer = signed_in(port, importer_account)
            table = signed_in(port, table_account)
            print(servers.describe())
            print(machine_load())
            refused_files(importer, pid)
            big_import(importer, table, int(table_account["game"]))
            many_games(importer, pid)
            print(machine_load())
        finally:
            servers.stop()


if __name__ == "__main__":
    main()
