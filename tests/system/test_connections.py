"""What a real server does with hostile connections (issue 26): oversize headers are a 431 and
leave no memory behind, remembered cookies stay bounded, slow and idle connections are closed
by their deadlines, and one address holds a bounded number of connections."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from serverproc import Server


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def connect(server: Server) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    return s


def closed_by_server(s: socket.socket, within: float) -> bool:
    """Whether the server closes ``s`` within ``within`` seconds (what it sent is skipped)."""
    s.settimeout(within)
    try:
        while s.recv(65536):
            pass
    except TimeoutError:
        return False
    except ConnectionResetError:
        pass
    return True


def answers(s: socket.socket, count: int) -> bytes:
    """Read until ``count`` answers have come (their status lines counted)."""
    got = b""
    while got.count(b"HTTP/1.1 ") < count:
        chunk = s.recv(1 << 20)
        assert chunk, "the server closed the connection"
        got += chunk
    return got


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose every request past the first of a player or an address is a 429 (the
    cheapest answer: the requests here are about what reaches the edge), with short
    deadlines and a small cap of connections per address."""
    tmp = tmp_path_factory.mktemp("connections")
    srv = Server(f"sqlite:///{tmp / 'games.sqlite3'}", tmp / "server.log", env={
        "REUSSITE_RATE_LIMIT": "1/1000", "REUSSITE_RATE_LIMIT_ADDRESS": "5/1000",
        "REUSSITE_HEADER_TIMEOUT": "2", "REUSSITE_BODY_TIMEOUT": "2",
        "REUSSITE_MAX_CONNECTIONS_PER_ADDRESS": "8"}).start()
    try:
        yield srv
    finally:
        srv.stop()


def test_oversize_headers_are_431_and_big_cookies_leave_no_memory(server: Server) -> None:
    with connect(server) as s:
        s.sendall(b"GET /api/catalogue HTTP/1.1\r\nHost: x\r\nAccept-Language: fr\r\n"
                  b"Cookie: reussite_player=x; pad=" + b"y" * 20_000 + b"\r\n\r\n")
        head = answers(s, 1)
        assert head.startswith(b"HTTP/1.1 431 ") and b"trop grands" in head
    assert server.proc is not None
    pid = server.proc.pid
    before = rss_mb(pid)
    refused = 0
    for i in range(1000):  # a unique 1 MB Cookie header each
        with connect(server) as s:
            try:
                s.sendall(b"GET /api/catalogue HTTP/1.1\r\nHost: x\r\nCookie: reussite_player=x;"
                          b" n=%d; pad=" % i + b"z" * (1 << 20) + b"\r\n\r\n")
                refused += s.recv(64).startswith(b"HTTP/1.1 431 ")
            except (ConnectionResetError, BrokenPipeError):
                refused += 1  # closed before the whole megabyte was sent
    assert refused == 1000
    assert rss_mb(pid) - before < 40
    assert httpx.get(f"{server.url}/api/health").status_code in (200, 429)


def test_many_unique_cookies_of_a_valid_size_keep_memory_bounded(server: Server) -> None:
    cookie = httpx.get(f"{server.url}/api/catalogue").cookies["reussite_player"]
    assert server.proc is not None
    pid = server.proc.pid
    before = rss_mb(pid)
    batch, total = 500, 100_000
    with connect(server) as s:
        for start in range(0, total, batch):
            s.sendall(b"".join(
                b"GET /api/catalogue HTTP/1.1\r\nHost: x\r\nCookie: reussite_player=%s; "
                b"n=%d; pad=%s\r\n\r\n" % (cookie.encode(), start + i, b"p" * 4000)
                for i in range(batch)))
            answers(s, batch)
    assert rss_mb(pid) - before < 40


def test_slow_and_idle_connections_are_closed_by_their_deadlines(server: Server) -> None:
    idle = connect(server)  # sends nothing at all
    head = connect(server)  # a head that never ends, a byte a second
    head.sendall(b"GET /api/catalogue HTTP/1.1\r\nHost: x\r\n")
    body = connect(server)  # a body that never ends
    body.sendall(b"POST /feedback HTTP/1.1\r\nHost: x\r\nContent-Type: "
                 b"application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nmessage=")
    kept = connect(server)  # an answered request, then idle on a kept-alive connection
    kept.sendall(b"GET /api/catalogue HTTP/1.1\r\nHost: x\r\n\r\n")
    assert answers(kept, 1)
    start = time.monotonic()
    for _ in range(3):
        head.sendall(b"X")
        body.sendall(b"x")
        time.sleep(1)
    for s in (idle, head, body):
        assert closed_by_server(s, 3), "open past its deadline"
        s.close()
    assert time.monotonic() - start < 7
    assert closed_by_server(kept, 8)  # uvicorn's keep-alive timeout, 5 s
    kept.close()


def test_one_address_holds_a_bounded_number_of_connections(server: Server) -> None:
    held = [connect(server) for _ in range(8)]
    try:
        time.sleep(0.2)
        extra = connect(server)
        assert closed_by_server(extra, 1)  # closed at once, not at its deadline
        extra.close()
        held.pop().close()
        time.sleep(0.2)
        with connect(server) as s:
            s.sendall(b"GET /api/catalogue HTTP/1.1\r\nHost: x\r\n\r\n")
            assert answers(s, 1).startswith(b"HTTP/1.1 ")
    finally:
        for s in held:
            s.close()
