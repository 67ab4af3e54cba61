"""What `make run`'s server does with a big request body from someone not signed in.

`python -m tools.bench.request_bodies [--megabytes 50]` serves the site as `make run` does
(uvicorn, SQLite, a fresh temporary DJANGO_VAR_DIR), then POSTs a login form of that size (its
CSRF token, a username, a password and a file of filler) to the login page three ways and
prints, for each, the answer's status, how long it took and how much of the body the server
took before it answered:

- only the headers, Content-Length naming the size, the body never sent: a server that checks
  the length answers at once; one that reads first waits for a body that never comes (given up
  on after 10 s);
- the whole body, by Content-Length;
- the whole body, chunked (no Content-Length), which can only be counted as it arrives.

The body goes to a socket of its own, so the figures are the server's, not a client library's.
"""

from __future__ import annotations

import argparse
import http.client
import re
import socket
import time
from dataclasses import dataclass

from tools.bench.served import benchmark_site
from tools.loadtest.servers import Servers, machine_load

PATH = "/accounts/login/"
CHUNK = 64 * 1024
BOUNDARY = "request-bodies-boundary"
WAIT_SECONDS = 10.0


@dataclass
class Answer:
    status: str
    seconds: float
    sent: int

    def line(self, how: str) -> str:
        return f"{how:<34} {self.status:<40} {self.seconds:6.2f} s  {self.sent / 1e6:6.1f} MB sent"


def login_form(port: int) -> tuple[str, bytes, bytes]:
    """The login page's CSRF cookie, and a form's head and tail around a file's bytes."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT_SECONDS)
    connection.request("GET", PATH)
    answer = connection.getresponse()
    cookie = answer.getheader("Set-Cookie", "").split(";", 1)[0]
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', answer.read())[1]
    connection.close()
    fields = {"csrfmiddlewaretoken": token.decode(), "username": "nobody", "password": "guess"}
    head = "".join(
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'
        for name, value in fields.items()
    )
    head += (
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="upload"; filename="big.txt"\r\n'
        "Content-Type: text/plain\r\n\r\n"
    )
    return cookie, head.encode(), f"\r\n--{BOUNDARY}--\r\n".encode()


def post(port: int, size: int, *, chunked: bool, body: bool) -> Answer:
    """POST a login form of `size` bytes; what came back, after how long, and how much of
    the body the server took before it answered (or the connection closed)."""
    cookie, form_head, form_tail = login_form(port)
    framing = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {size}"
    head = (
        f"POST {PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\n{framing}\r\nCookie: {cookie}\r\n"
        f"Referer: http://127.0.0.1:{port}{PATH}\r\n"
        f"Content-Type: multipart/form-data; boundary={BOUNDARY}\r\n\r\n"
    )
    filler = size - len(form_head) - len(form_tail)
    started = time.perf_counter()
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT_SECONDS) as connection:
        connection.sendall(head.encode())
        sent = send_body(connection, form_head, filler, form_tail, chunked) if body else 0
        try:
            status = connection.recv(64).split(b"\r\n", 1)[0].decode() or "closed, no answer"
        except TimeoutError:
            status = f"no answer in {WAIT_SECONDS:.0f} s"
        except ConnectionError:
            status = "connection reset"
    return Answer(status, time.perf_counter() - started, sent)


def send_body(
    connection: socket.socket, head: bytes, filler: int, tail: bytes, chunked: bool
) -> int:
    """Send the body: `head`, `filler` bytes, `tail`; how many bytes went before the server
    stopped taking them (it answered and closed, or stopped reading for `WAIT_SECONDS`)."""
    sent, piece = 0, b"x" * CHUNK

    def send(data: bytes) -> None:
        nonlocal sent
        connection.sendall(b"%x\r\n%s\r\n" % (len(data), data) if chunked else data)
        sent += len(data)

    try:
        send(head)
        for start in range(0, filler, CHUNK):
            send(piece[: min(CHUNK, filler - start)])
        send(tail)
        if chunked:
            connection.sendall(b"0\r\n\r\n")
    except (TimeoutError, ConnectionError):
        pass
    return sent


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tools.bench.request_bodies", description=__doc__
    )
    parser.add_argument("--megabytes", type=float, default=50)
    options = parser.parse_args(argv)
    size = int(options.megabytes * 1_000_000)
    with benchmark_site() as environment:
        servers = Servers(environment, 1)
        servers.start()
        try:
            port = servers.ports[0]
            print(f"anonymous POST of {options.megabytes:g} MB to {PATH}, {machine_load()}")
            print(post(port, size, chunked=False, body=False).line("headers only (Content-Length)"))
            print(post(port, size, chunked=False, body=True).line("whole body (Content-Length)"))
            print(post(port, size, chunked=True, body=True).line("whole body (chunked)"))
        finally:
            servers.stop()


if __name__ == "__main__":
    main()
