"""Faults: the server killed in the middle of a stream of moves, many times, and the database
out of reach for a while.

- SIGKILL (no shutdown at all) while a player streams moves and undos flat out; the server is
  started again on the same database, and the game holds every acknowledged action, plus at
  most the one in flight when the process died (committed but never answered), and replays
  to the same position.
- SQLite locked by another process, PostgreSQL cut off (a TCP relay we own between the server
  and PostgreSQL, closed and reopened; the shared PostgreSQL server is never touched): requests
  are answered 503 with a JSON sentence and Retry-After, nothing half-done is kept, and the
  site comes back by itself when the database does.
"""

from __future__ import annotations

import contextlib
import random
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from serverproc import Relay, Server, postgres_base, postgres_schema

from reussite.engine import Move, Position
from reussite.games import get_game

pytestmark = pytest.mark.slow


def replay(game: str, number: int, ops: list[tuple[str, Move | None]]) -> Position:
    """The position after ``ops`` (("move", m) or ("undo", None)) from the deal."""
    pos = Position.deal(get_game(game), number)
    for kind, m in ops:
        if kind == "move":
            assert m is not None
            pos.play(m)
        else:
            pos.pop()
    return pos


class Stream:
    """A player sending moves (and a few undos) flat out until the server stops answering."""

    def __init__(self, client: httpx.Client, server: Server, view: dict[str, Any],
                 rng: random.Random) -> None:
        self.client = client
        self.server = server
        self.view = view
        self.rng = rng
        self.acked: list[tuple[str, Move | None]] = []
        self.inflight: tuple[str, Move | None] | None = None
        self.errors: list[str] = []
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        gid = self.view["id"]
        while True:
            v = self.view
            if v["can_undo"] and self.rng.random() < 0.1:
                op: tuple[str, Move | None] = ("undo", None)
                path, body = f"/api/games/{gid}/undo", {"version": v["version"]}
            elif v["legal_moves"]:
                m = Move.from_json(self.rng.choice(v["legal_moves"]))
                op = ("move", m)
                path, body = f"/api/games/{gid}/moves", {"move": m.to_json(),
                                                         "version": v["version"]}
            else:
                return
            self.inflight = op
            try:
                r = self.client.post(f"{self.server.url}{path}", json=body)
            except httpx.TransportError:
                return  # the server died under this request
            if r.status_code != 200:
                self.errors.append(f"{r.status_code} {r.text[:200]}")
                return
            self.view = r.json()
            self.acked.append(op)
            self.inflight = None


def check_held(client: httpx.Client, server: Server, game: str, number: int, gid: str,
               stream: Stream) -> dict[str, Any]:
    """The game as the restarted server holds it is the acknowledged one (or one step on)."""
    held: dict[str, Any] = client.get(f"{server.url}/api/games/{gid}").json()
    acked_version = stream.view["version"]
    assert held["version"] in (acked_version, acked_version + 1), (held["version"],
                                                                  acked_version)
    if held["version"] == acked_version + 1:
        assert stream.inflight is not None
        stream.acked.append(stream.inflight)  # committed, only its answer was lost
    stream.inflight = None
    pos = replay(game, number, stream.acked)
    assert held["piles"] == pos.player_view()
    assert held["legal_moves"] == [m.to_json() for m in pos.legal_moves()]
    assert held["moves"] == pos.moves_played
    stream.view = held
    return held


@pytest.mark.parametrize("backend,kills", [("sqlite", 10), pytest.param(
    "postgres", 3, marks=pytest.mark.postgres)])
def test_sigkill_in_a_stream_of_moves_loses_no_acknowledged_move(
        tmp_path: Path, backend: str, kills: int) -> None:
    if backend == "postgres":
        base = postgres_base()
        if base is None:
            pytest.skip("no PostgreSQL on 127.0.0.1:5432 (set REUSSITE_TEST_POSTGRES)")
        with postgres_schema(base, "faults") as url:
            kill_many_times(tmp_path, url, kills)
    else:
        kill_many_times(tmp_path, f"sqlite:///{tmp_path / 'games.sqlite3'}", kills)


def kill_many_times(tmp_path: Path, db: str, kills: int) -> None:
    game, number = "spider", 31337
    rng = random.Random(kills)
    server = Server(db, tmp_path / "server.log").start()
    client = httpx.Client(timeout=30)
    try:
        r = client.post(f"{server.url}/api/games", json={"game": game, "number": number})
        assert r.status_code == 201
        view = r.json()
        gid = view["id"]
        stream = Stream(client, server, view, rng)
        total = 0
        for _ in range(kills):
            stream.thread = threading.Thread(target=stream.run, daemon=True)
            stream.thread.start()
            time.sleep(rng.uniform(0.2, 0.8))
            server.kill()
            stream.thread.join(30)
            assert not stream.thread.is_alive()
            assert not stream.errors, stream.errors
            server.start()
            before = len(stream.acked)
            check_held(client, server, game, number, gid, stream)
            total += len(stream.acked) - before
        assert len(stream.acked) >= kills  # moves were really flowing at each kill
        # The whole line is there: undo it all, across the restarts, back to the deal.
        view = stream.view
        pos = replay(game, number, stream.acked)
        while view["can_undo"]:
            r = client.post(f"{server.url}/api/games/{gid}/undo",
                            json={"version": view["version"]})
            assert r.status_code == 200
            view = r.json()
            pos.pop()
            assert view["piles"] == pos.player_view()
        assert view["piles"] == Position.deal(get_game(game), number).player_view()
    finally:
        server.stop()
        client.close()


# ------------------------------------------------------------------ database out of reach


def assert_503(r: httpx.Response) -> None:
    assert r.status_code == 503, (r.status_code, r.text[:300])
    assert r.headers["content-type"].startswith("application/json")
    assert "briefly unavailable" in r.json()["detail"]
    assert int(r.headers["retry-after"]) >= 1


def first_move(view: dict[str, Any]) -> dict[str, Any]:
    return {"move": view["legal_moves"][0], "version": view["version"]}


LOCKER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
sys.stdin.readline()
conn.execute("ROLLBACK")
conn.close()
"""


@pytest.fixture
def sqlite_server(tmp_path: Path) -> Iterator[tuple[Server, Path]]:
    path = tmp_path / "games.sqlite3"
    server = Server(f"sqlite:///{path}", tmp_path / "server.log",
                    env={"REUSSITE_SQLITE_BUSY_MS": "400"}).start()
    try:
        yield server, path
    finally:
        server.stop()


def test_sqlite_locked_by_another_process_is_a_503_then_recovers(
        sqlite_server: tuple[Server, Path]) -> None:
    server, path = sqlite_server
    with httpx.Client(base_url=server.url, timeout=30) as client:
        view = client.post("/api/games", json={"game": "klondike", "number": 5}).json()
        gid = view["id"]
        locker = subprocess.Popen([sys.executable, "-c", LOCKER, str(path)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            assert locker.stdout is not None and locker.stdout.readline() == "locked\n"
            for _ in range(3):
                assert_503(client.post(f"/api/games/{gid}/moves", json=first_move(view)))
            assert_503(client.post("/api/games", json={"game": "klondike"}))
            assert_503(client.post(f"/api/games/{gid}/restart",
                                   json={"version": view["version"]}))
            # Reading goes on beside the writer (WAL): the player still sees the game.
            seen = client.get(f"/api/games/{gid}")
            assert seen.status_code == 200 and seen.json()["version"] == view["version"]
        finally:
            assert locker.stdin is not None
            locker.stdin.write("\n")
            locker.stdin.close()
            locker.wait(30)
        # Back by itself: the same request now goes through, and nothing was half-done.
        r = client.post(f"/api/games/{gid}/moves", json=first_move(view))
        assert r.status_code == 200
        assert r.json()["version"] == view["version"] + 1 and r.json()["moves"] == 1
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM moves WHERE game_id = ?",
                            (gid,)).fetchone() == (1,)


@contextlib.contextmanager
def client_through_relay(tmp_path: Path, schema: str, timeout: float,
                         env: dict[str, str] | None = None) -> Iterator[tuple[httpx.Client,
                                                                               Relay]]:
    """A client of a server whose PostgreSQL (a schema of its own) is reached through a relay
    the test can cut or freeze; the relay is restored, and cut again once the server has
    stopped."""
    base = postgres_base()
    if base is None:
        pytest.skip("no PostgreSQL on 127.0.0.1:5432 (set REUSSITE_TEST_POSTGRES)")
    from sqlalchemy.engine import make_url

    u = make_url(base)
    relay = Relay((u.host or "127.0.0.1", u.port or 5432))
    relay.restore()
    with postgres_schema(base, schema) as url:
        through = str(make_url(url).set(host="127.0.0.1", port=relay.port)
                      .render_as_string(hide_password=False))
        server = Server(through, tmp_path / "server.log", env=env).start()
        try:
            with httpx.Client(base_url=server.url, timeout=timeout) as client:
                yield client, relay
        finally:
            relay.thaw()
            server.stop()
            relay.cut()


@pytest.mark.postgres
def test_postgres_cut_off_is_a_503_then_recovers(tmp_path: Path) -> None:
    with client_through_relay(tmp_path, "faults", 30) as (client, relay):
        view = client.post("/api/games", json={"game": "athena", "number": 8}).json()
        gid = view["id"]
        relay.cut()
        for _ in range(2):
            assert_503(client.get(f"/api/games/{gid}"))
            assert_503(client.post(f"/api/games/{gid}/moves", json=first_move(view)))
            assert_503(client.get("/api/games"))
        page = client.get("/", headers={"accept": "text/html"})
        assert page.status_code == 503 and "<html" in page.text
        relay.restore()
        deadline = time.monotonic() + 30
        while True:
            r = client.post(f"/api/games/{gid}/moves", json=first_move(view))
            if r.status_code == 200 or time.monotonic() > deadline:
                break
            assert_503(r)
            time.sleep(0.2)
        assert r.status_code == 200 and r.json()["moves"] == 1
        assert client.get(f"/api/games/{gid}").json()["version"] == \
            view["version"] + 1


@pytest.mark.postgres
def test_postgres_frozen_is_a_503_within_the_deadline_then_recovers(tmp_path: Path) -> None:
    """A database that stops answering without closing anything (a network partition): every
    request is answered 503 within the deadline (``REUSSITE_DB_DEADLINE``), on the hot path's
    connections and the pool's alike, for as long as the partition lasts."""
    deadline_s = 2.0
    with client_through_relay(tmp_path, "frozen", 20,
                              {"REUSSITE_DB_DEADLINE": str(deadline_s)}) as (client, relay):
        view = client.post("/api/games", json={"game": "athena", "number": 8}).json()
        gid = view["id"]
        assert client.get("/api/stats").status_code == 200  # a pool connection open
        relay.freeze()
        # A wait for a connection, then one for the batch (hot path); a ping, a new
        # connection and the statement (the pool): each bounded by the deadline.
        for method, path, body, most in (
                ("POST", f"/api/games/{gid}/moves", first_move(view), 2),
                ("GET", f"/api/games/{gid}", None, 2),
                ("GET", "/api/stats", None, 3),
                ("GET", "/api/games", None, 3)):
            t0 = time.monotonic()
            r = client.request(method, path, json=body)
            took = time.monotonic() - t0
            assert_503(r)
            assert took < most * deadline_s + 1.5, (path, took)
        t0 = time.monotonic()
        page = client.get("/stats", headers={"accept": "text/html"})
        assert page.status_code == 503 and "<html" in page.text
        assert int(page.headers["retry-after"]) >= 1
        assert time.monotonic() - t0 < 3 * deadline_s + 1.5
        relay.thaw()
        until = time.monotonic() + 30
        while True:
            r = client.post(f"/api/games/{gid}/moves", json=first_move(view))
            if r.status_code != 503 or time.monotonic() > until:
                break
            time.sleep(0.2)
        assert r.status_code == 200 and r.json()["moves"] == 1
        assert client.get("/api/stats").status_code == 200
