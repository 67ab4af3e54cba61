"""A request's body is bounded on every address, and refused by its length before it is read
(bigtwo_site/request_bodies.py): settings.REQUEST_MAX_BYTES, and on the import page a score file
of IMPORT_MAX_BYTES with room for the form's other fields.

Before, `make run`'s server read and spooled any body before Django looked at it, from anyone:
an anonymous 300 MB POST to the login page was taken whole, 230 MB of it written to /tmp. The
tests against the real server send the headers alone, or a body without its end: a server that
reads before it checks never answers them (each read gives up after 10 s).
"""

from __future__ import annotations

import socket

import pytest

from tests.servers import Server, collect_static, served

pytestmark = pytest.mark.django_db

FIFTY_MB = 50_000_000


@pytest.fixture(scope="module")
def static(tmp_path_factory):
    """The refusal is a page of the site's: its static files, collected once."""
    return collect_static(tmp_path_factory.mktemp("collected"))


def answer_to_headers(
    server: Server, head: str, body: bytes = b""
) -> tuple[int, str, bytes | None]:
    """Send a request's head (and `body`, the start of a longer one, never finished); the
    answer's status, its text, and, if the answer says it closes the connection, what the
    server sent after it: b"" if it did close rather than wait for the rest. None for an
    answer that keeps the connection: waiting to see it close would wait out the server's
    keep-alive (5 s a request)."""
    with socket.create_connection((server.host, server.port), timeout=10) as connection:
        connection.sendall(head.encode() + b"\r\n" + body)
        answer = b""
        while b"</html>" not in answer:
            received = connection.recv(65536)
            assert received, f"closed without a whole answer: {answer[:200]!r}"
            answer += received
        headers = answer.partition(b"\r\n\r\n")[0].lower().split(b"\r\n")
        closes = b"connection: close" in headers
        after = connection.recv(65536) if closes else None
    status = int(answer.split(b" ", 2)[1])
    return status, answer.decode(errors="replace"), after


def post_head(path: str, *framing: str) -> str:
    lines = [f"POST {path} HTTP/1.1", "Host: 127.0.0.1", *framing]
    lines.append("Content-Type: application/x-www-form-urlencoded")
    return "".join(f"{line}\r\n" for line in lines)


def chunks(total: int, size: int = 8192) -> bytes:
    """`total` bytes of body, chunked, the closing chunk left out."""
    return b"".join(b"%x\r\n%s\r\n" % (size, b"x" * size) for _ in range(total // size))


def test_an_anonymous_50_mb_post_is_refused_by_its_length_before_a_byte_is_read(tmp_path, static):
    with served(tmp_path, static=static) as server:
        head = post_head("/accounts/login/", f"Content-Length: {FIFTY_MB}")
        status, page, after = answer_to_headers(server, head)
    assert status == 413
    assert "Too much sent at once" in page
    assert "at most 1 MB in one request" in page
    assert "connection: close" in page.lower()
    assert after == b""  # the server hung up rather than take the body


def test_a_chunked_body_is_counted_as_it_arrives_and_cut_off_at_the_limit(tmp_path, static):
    """No length to go by: the site reads up to the limit, then answers without the rest."""
    with served(tmp_path, static=static, DJANGO_REQUEST_MAX_MB="0.05") as server:
        head = post_head("/accounts/login/", "Transfer-Encoding: chunked")
        status, page, after = answer_to_headers(server, head, chunks(64 * 1024))
    assert status == 413
    assert "at most 0.05 MB in one request" in page
    assert after == b""


def test_a_body_within_the_limit_is_read_as_ever(tmp_path, static):
    """By length or chunked, the login page gets the form (and refuses it, as it has no CSRF
    token: the 403 of a form read)."""
    with served(tmp_path, static=static, DJANGO_REQUEST_MAX_MB="0.05") as server:
        form = b"username=ann&password=" + b"x" * 40_000
        head = post_head("/accounts/login/", f"Content-Length: {len(form)}")
        assert answer_to_headers(server, head, form)[0] == 403
        chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(form), form)
        head = post_head("/accounts/login/", "Transfer-Encoding: chunked")
        assert answer_to_headers(server, head, chunked)[0] == 403


def test_the_import_page_takes_a_score_file_and_the_forms_other_fields(tmp_path, static):
    """There the bound is IMPORT_MAX_BYTES and REQUEST_MAX_BYTES more, as nginx's 21m for a
    20 MB file (docs/deploying.md); one byte past it is refused at once, naming the file's
    bound."""
    limits = {"DJANGO_REQUEST_MAX_MB": "0.01", "DJANGO_IMPORT_MAX_MB": "0.05"}
    with served(tmp_path, migrate=True, static=static, **limits) as server:
        body = b"x" * 60_000
        head = post_head("/clubs/1/import/", f"Content-Length: {len(body)}")
        status, page, _ = answer_to_headers(server, head, body)
        assert status == 403  # read, then refused for want of a CSRF token
        head = post_head("/clubs/1/import/", f"Content-Length: {60_001}")
        status, page, after = answer_to_headers(server, head)
    assert status == 413
    assert "A score file can be at most 0.05 MB" in page
    assert after == b""


def test_under_wsgi_a_body_too_long_is_refused_before_the_form_is_read(client, settings):
    """The same bound where Django's WSGI handler serves (gunicorn, runserver, the test client):
    the length is checked before the view, or CSRF, reads the form."""
    settings.REQUEST_MAX_BYTES = 1000
    answer = client.post("/accounts/login/", {"username": "ann", "password": "x" * 1000})
    assert answer.status_code == 413
    assert "at most 0.001 MB in one request" in answer.content.decode()
    answer = client.post("/accounts/login/", {"username": "ann", "password": "x" * 500})
    assert answer.status_code == 200  # the login form again: no such account


def test_the_refusal_is_in_the_visitors_language(client, settings):
    settings.REQUEST_MAX_BYTES = 1000
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hant"
    answer = client.post("/check/", {"a": "x" * 2000})
    assert answer.status_code == 413
    page = answer.content.decode()
    assert "一次送出的內容太多" in page  # "Too much sent at once"
    assert "網站每次最多只接收 0.001 MB" in page
