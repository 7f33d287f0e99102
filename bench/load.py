"""A bounded load test of the web site: simulated players on 127.0.0.1, stopping by itself.

Each player is one browser (one cookie, one keep-alive connection): it opens the site, then
plays games of every kind in turn: it starts a game, plays legal moves taken from the view's
``legal_moves``, sometimes takes one back, redoes it, asks for a hint, and goes on until the
game is won, lost, or long enough; then it checks that the server holds exactly the game it
was last answered (no acknowledged move lost) and starts the next one. Some players play at a
human pace (a pause between actions), the others flat out. A share of the players
(``--board-readers``) only read the daily deals' leaderboards, at a human pace: the crowd that
comes to see the board after the day's start.

    python bench/load.py                            # 200 players, 20 s, SQLite in a temp dir
    python bench/load.py --db postgresql+psycopg://postgres@127.0.0.1:5432/test
    python bench/load.py --url http://127.0.0.1:8123 --players 50 --duration 10
    python bench/load.py --board-readers 0.2       # a fifth of the players read leaderboards
    python bench/load.py --board-readers 0.2 --board-wins 5000   # ... of 5,000 wins each

The server is started here (``reussite serve`` on a free port) unless ``--url`` is given; the
run stops after ``--duration`` seconds or ``--max-requests`` requests, whichever comes first.
It prints requests per second, moves per second, latency percentiles per kind of request, and
every error (any answer other than the one expected, or a lost move). Exit status 1 on errors.

The HTTP client is a small one of ours over asyncio streams (HTTP/1.1, keep-alive), so that
the load generator spends little of the machine's CPU that the server needs.

All the players come from 127.0.0.1, where the site would count them as one client (its rate
limit and its cap of connections per address). So the load test acts as a trusted proxy: the
server it starts trusts 127.0.0.1 (``REUSSITE_TRUSTED_PROXIES=127.0.0.1``) and each player
sends ``X-Forwarded-For`` with an address of its own (198.18.0.0/15, the range set aside for
benchmarks). A server given with ``--url`` must be started with that setting too.

The server started here is a site that has been running: its daily deals are prepared before
it starts, and it proves no secret winnable deals at start (``REUSSITE_WINNABLE_POOL=0``), so
that the run measures serving, not the solving a fresh database sets off.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import resource
import socket
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from orjson import dumps, loads  # the site's JSON library: the client's CPU is the server's too

GAMES_FALLBACK = ["astrocyte", "athena", "auld-lang-syne", "freds-spider", "klondike",
                  "klondike-draw-3", "leap-year", "minerva", "spider"]


# --------------------------------------------------------------------------- HTTP client

class HttpError(Exception):
    pass


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes
    cookies: list[str] = field(default_factory=list)
    """The Set-Cookie headers' values."""

    def json(self) -> Any:
        return loads(self.body)


class _Reader(asyncio.Protocol):
    """The client side of one connection: the bytes received, and whoever waits for an
    answer (one at a time: the client sends its next request after the answer)."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.waiter: asyncio.Future[Answer] | None = None
        self.closed: Exception | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        waiter = self.waiter
        if waiter is None or waiter.done():
            return
        try:
            answer = self.parse()
        except Exception as e:  # a malformed answer: the waiter says so
            waiter.set_exception(HttpError(f"{type(e).__name__}: {e}"))
            return
        if answer is not None:
            self.waiter = None
            waiter.set_result(answer)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = exc or ConnectionResetError("the server closed the connection")
        waiter, self.waiter = self.waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_exception(self.closed)

    def parse(self) -> Answer | None:
        """The first whole answer of the buffer (taken out of it), or None while incomplete.
        Only the headers the client acts on are read (the answers carry a dozen)."""
        buf = self.buffer
        end = buf.find(b"\r\n\r\n")
        if end < 0:
            return None
        head = bytes(buf[:end + 2]).decode("latin-1")
        low = head.lower()
        headers = {name: head[i + len(name) + 3:head.index("\r\n", i + 2)].strip()
                   for name in _READ_HEADERS if (i := low.find("\r\n" + name + ":")) >= 0}
        pos = end + 4
        if headers.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            while True:
                eol = buf.find(b"\r\n", pos)
                if eol < 0:
                    return None
                size = int(bytes(buf[pos:eol]).split(b";")[0], 16)
                if len(buf) < eol + 2 + size + 2:
                    return None
                if size == 0:
                    pos = eol + 4
                    break
                parts.append(bytes(buf[eol + 2:eol + 2 + size]))
                pos = eol + 2 + size + 2
            data = b"".join(parts)
        else:
            length = int(headers.get("content-length", "0"))
            if len(buf) < pos + length:
                return None
            data = bytes(buf[pos:pos + length])
            pos += length
        del buf[:pos]
        cookies = []
        if "\r\nset-cookie:" in low:
            cookies = [line.partition(":")[2].strip() for line in head.split("\r\n")
                       if line[:11].lower() == "set-cookie:"]
        return Answer(int(head[9:12]), headers, data, cookies)


_READ_HEADERS = ("content-length", "transfer-encoding", "connection", "content-type")
"""The headers :meth:`_Reader.parse` reads into :attr:`Answer.headers`."""


def _expire(waiter: asyncio.Future[Answer]) -> None:
    if not waiter.done():
        waiter.set_exception(TimeoutError())


class Connection:
    """One keep-alive HTTP/1.1 connection to 127.0.0.1, with a cookie jar of one cookie.

    A protocol of its own on the event loop (no stream reader and writer, no task per
    request): the client's CPU is taken from the machine the server runs on."""

    def __init__(self, host: str, port: int, timeout: float = 30.0,
                 address: str | None = None) -> None:
        self.host = host
        self.port = port
        self.timeout = timeout
        self.proto: _Reader | None = None
        self.cookies: dict[str, str] = {}
        self._cookie_line = b""
        forwarded = f"X-Forwarded-For: {address}\r\n" if address else ""
        self._head = (f"Host: {host}:{port}\r\nAccept: application/json, text/html\r\n"
                      f"{forwarded}").encode()

    async def close(self) -> None:
        proto, self.proto = self.proto, None
        if proto is not None and proto.transport is not None:
            proto.transport.close()

    async def request(self, method: str, path: str, body: Any = None) -> Answer:
        for attempt in (0, 1):
            fresh = self.proto is None
            if self.proto is None:
                loop = asyncio.get_running_loop()
                _t, self.proto = await loop.create_connection(_Reader, self.host, self.port)
            try:
                return await self._exchange(self.proto, method, path, body)
            except (ConnectionError, HttpError) as e:
                await self.close()
                # A kept-alive connection the server closed meanwhile: retry once on a new one.
                if fresh or attempt:
                    raise HttpError(f"{type(e).__name__}: {e}") from None
            except TimeoutError:
                await self.close()  # an answer may still come: not on this connection
                raise
        raise AssertionError("unreachable")

    async def _exchange(self, proto: _Reader, method: str, path: str, body: Any) -> Answer:
        if proto.closed is not None:
            raise ConnectionResetError("the server closed the connection")
        head = b"%s %s HTTP/1.1\r\n" % (method.encode(), path.encode()) + self._head \
            + self._cookie_line
        if body is not None:
            payload = dumps(body)
            head += b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (
                len(payload), payload)
        else:
            head += b"\r\n"
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[Answer] = loop.create_future()
        proto.waiter = waiter
        assert proto.transport is not None
        proto.transport.write(head)
        timer = loop.call_later(self.timeout, _expire, waiter)  # cheaper than asyncio.timeout
        try:
            a = await waiter
        finally:
            timer.cancel()
        if a.cookies:
            for v in a.cookies:
                name, _, rest = v.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
            self._cookie_line = ("Cookie: " + "; ".join(
                f"{k}={v}" for k, v in self.cookies.items()) + "\r\n").encode()
        if a.headers.get("connection", "").lower() == "close":
            await self.close()
        return a


# --------------------------------------------------------------------------- measures

@dataclass
class Tally:
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: list[str] = field(default_factory=list)
    requests: int = 0
    games_started: int = 0
    games_finished: int = 0
    games_checked: int = 0
    lost_moves: int = 0
    by_game: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    sent: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    """When each request of ``latencies[kind]`` was sent (``time.perf_counter()``)."""

    def error(self, text: str) -> None:
        if len(self.errors) < 10_000:
            self.errors.append(text)


def percentile(values: Sequence[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    k = min(len(s) - 1, max(0, round(p / 100 * (len(s) - 1))))
    return s[k]


# --------------------------------------------------------------------------- players

@dataclass
class Settings:
    host: str
    port: int
    deadline: float
    max_requests: int
    human_share: float
    human_pause: tuple[float, float]
    max_moves: int
    games: list[str]
    interval: float = 0.0
    hint_share: float = 0.02
    """Paced mode: each player sends a request every ``interval`` seconds (0: flat out)."""
    board_readers: float = 0.0
    """The share of the players that only read the daily leaderboards."""
    page_share: float = 0.0
    """The share of a player's actions after which it asks for its game's page again."""


def player_address(n: int) -> str:
    """Player ``n``'s own address, sent as ``X-Forwarded-For`` (see the module's text)."""
    return f"198.{18 + n // 65536 % 2}.{n // 256 % 256}.{n % 256}"


TRUSTED = {"REUSSITE_TRUSTED_PROXIES": "127.0.0.1"}
"""What the server started here is told: the load test is a trusted proxy."""
STEADY = {"REUSSITE_WINNABLE_POOL": "0"}
"""And what makes it a site that has been running: no secret winnable deals proved at start
(a running site's pool is full; the players here ask for numbered deals); the daily deals are
prepared before it starts (:func:`prepare_daily`)."""


def prepare_daily(db: str) -> None:
    """Today's and tomorrow's daily deals, prepared before the server starts (a site that has
    been running has them: it prepares each day ahead), so that the run measures serving, not
    the solving a fresh database sets off at start."""
    from reussite.web.daily import prepare_days
    from reussite.web.days import today
    from reussite.web.storage import Store

    store = Store(db)
    try:
        store.migrate()
        prepare_days(store, today(), 2)
    finally:
        store.dispose()


class Player:
    def __init__(self, n: int, cfg: Settings, tally: Tally, rng: random.Random,
                 human: bool, reader: bool = False) -> None:
        self.n = n
        self.reader = reader
        self.cfg = cfg
        self.tally = tally
        self.rng = rng
        self.human = human
        self.conn = Connection(cfg.host, cfg.port, address=player_address(n))
        # Paced players start at a random point of their first interval, so they do not
        # knock all at once.
        self.next_at = time.monotonic() + rng.uniform(0, cfg.interval)

    def running(self) -> bool:
        return (time.monotonic() < self.cfg.deadline
                and self.tally.requests < self.cfg.max_requests)

    async def call(self, kind: str, method: str, path: str, body: Any = None,
                   expect: int = 200) -> Answer | None:
        if self.cfg.interval > 0:
            now = time.monotonic()
            if self.next_at > now:
                await asyncio.sleep(self.next_at - now)
            # The next request is due one interval (jittered) after this one was due, or
            # after now if the player is late: a late player does not send a burst to catch up.
            self.next_at = max(self.next_at, now) + self.cfg.interval * self.rng.uniform(0.5, 1.5)
        self.tally.requests += 1
        t0 = time.perf_counter()
        try:
            a = await self.conn.request(method, path, body)
        except (TimeoutError, HttpError, OSError) as e:
            self.tally.error(f"{kind} {path}: {type(e).__name__} {e}")
            return None
        self.tally.latencies[kind].append(time.perf_counter() - t0)
        self.tally.sent[kind].append(t0)
        if a.status != expect:
            self.tally.error(f"{kind} {path}: HTTP {a.status} {a.body[:200]!r}")
            return None
        return a

    async def pause(self) -> None:
        if self.human:
            await asyncio.sleep(self.rng.uniform(*self.cfg.human_pause))

    async def run(self) -> None:
        if self.reader:
            await self.read_boards()
            return
        try:
            # A first visit: a new player (a cookie minted) on a new connection, all of
            # them in the run's first seconds; its own row in the table ("first").
            await self.call("first", "GET", "/")
            k = self.n
            while self.running():
                game = self.cfg.games[k % len(self.cfg.games)]
                k += 1
                if self.rng.random() < 0.3:
                    await self.call("page", "GET", f"/games/{game}")
                await self.play(game)
        finally:
            await self.conn.close()

    async def read_boards(self) -> None:
        """A player who only reads the leaderboards of today's daily deals (the daily page
        first), pausing as a person reads."""
        try:
            a = await self.call("daily", "GET", "/api/daily")
            if a is None:
                return
            today = a.json()
            games = [g["game"] for g in today["games"]]
            while self.running():
                await asyncio.sleep(self.rng.uniform(*self.cfg.human_pause))
                game = self.rng.choice(games)
                await self.call("board", "GET",
                                f"/api/daily/{game}/{today['day']}/leaderboard")
        finally:
            await self.conn.close()

    async def play(self, game: str) -> None:
        a = await self.call("new", "POST", "/api/games",
                            # below a million: a number of every game (FreeCell's end there)
                            {"game": game, "number": self.rng.randrange(10**6)}, expect=201)
        if a is None:
            return
        self.tally.games_started += 1
        self.tally.by_game[game] += 1
        view: dict[str, Any] = a.json()
        gid = view["id"]
        moves = 0
        while self.running() and view["status"] == "playing" and moves < self.cfg.max_moves:
            await self.pause()
            roll = self.rng.random()
            if roll < 0.06 and view["can_undo"]:
                a = await self.call("undo", "POST", f"/api/games/{gid}/undo",
                                    {"version": view["version"]})
            elif roll < 0.09 and view["can_redo"]:
                a = await self.call("redo", "POST", f"/api/games/{gid}/redo",
                                    {"version": view["version"]})
            elif self.cfg.hint_share > 0 and roll < 0.09 + self.cfg.hint_share:
                h = await self.call("hint", "GET", f"/api/games/{gid}/hint")
                if h is None:
                    return
                a = None
                suggestion = h.json()["move"]
                if suggestion is not None and suggestion in view["legal_moves"]:
                    a = await self.call("move", "POST", f"/api/games/{gid}/moves",
                                        {"move": suggestion, "version": view["version"]})
                    moves += 1
                elif suggestion is not None:
                    self.tally.error(f"hint {gid}: {suggestion} is not a legal move")
                    return
                else:
                    continue
            else:
                legal = view["legal_moves"]
                # Prefer moves between piles: a player does not click the stock forever.
                piles = [m for m in legal if m["type"] == "move"]
                choice = self.rng.choice(piles if piles and self.rng.random() < 0.8 else legal)
                a = await self.call("move", "POST", f"/api/games/{gid}/moves",
                                    {"move": choice, "version": view["version"]})
                moves += 1
            if a is None:
                return
            view = a.json()
            if self.cfg.page_share > 0 and self.rng.random() < self.cfg.page_share:
                # The page asked again, as a reload does (the game goes on from the view).
                await self.call("page", "GET", f"/games/{game}")
        # What the server holds is what it last answered: nothing acknowledged was lost.
        check = await self.call("view", "GET", f"/api/games/{gid}")
        if check is None:
            return
        held = check.json()
        self.tally.games_checked += 1
        if (held["version"], held["moves"], held["piles"]) != (
                view["version"], view["moves"], view["piles"]):
            self.tally.lost_moves += 1
            self.tally.error(f"game {gid}: the server holds version {held['version']}"
                             f" ({held['moves']} moves), the player saw {view['version']}"
                             f" ({view['moves']} moves)")
        if view["status"] != "playing":
            self.tally.games_finished += 1


# --------------------------------------------------------------------------- server

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used (Linux /proc), 0 if unknown."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def children_cpu(pid: int) -> dict[int, float]:
    """CPU seconds of each child process of ``pid`` (the hint workers of the server)."""
    out: dict[int, float] = {}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out[int(d.name)] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return out


def postgres_cpu() -> float:
    """CPU seconds of every ``postgres`` process on this machine (shared with whatever else
    uses that server meanwhile: an upper bound of what the run cost PostgreSQL)."""
    total = 0.0
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            head, _, rest = (d / "stat").read_text().rpartition(")")
        except OSError:
            continue
        if head.endswith("(postgres"):
            fields = rest.split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def switches(pid: int | None = None) -> tuple[int, int]:
    """Context switches (voluntary, involuntary) of every thread of process ``pid`` (this
    one by default), or of every ``postgres`` process of the machine when ``pid`` is 0."""
    if pid == 0:
        tasks = [d for d in Path("/proc").iterdir() if d.name.isdigit()]
    else:
        tasks = list(Path(f"/proc/{pid or os.getpid()}/task").iterdir())
    vol = inv = 0
    for d in tasks:
        try:
            text = (d / "status").read_text()
        except OSError:
            continue
        if pid == 0 and not text.startswith("Name:\tpostgres"):
            continue
        for line in text.splitlines()[-2:]:
            key, _, value = line.partition(":")
            if key == "voluntary_ctxt_switches":
                vol += int(value)
            elif key == "nonvoluntary_ctxt_switches":
                inv += int(value)
    return vol, inv


def own_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def ensure_schema(db: str) -> str | None:
    """Create the PostgreSQL schema a URL's ``options=-csearch_path=NAME`` names, if it does not
    exist yet (the server's migrations create tables in it, not the schema: on a fresh
    database they fail with "no schema has been selected to create in"). Returns its name."""
    from urllib.parse import parse_qs

    if not db.startswith("postgresql"):
        return None
    options = " ".join(parse_qs(urlsplit(db).query).get("options", []))
    m = re.search(r"-c\s*search_path\s*=\s*([^\s,]+)", options)
    if m is None:
        return None
    schema = m[1].strip('"')
    import sqlalchemy

    engine = sqlalchemy.create_engine(db)
    try:
        with engine.begin() as conn:
            quoted = conn.dialect.identifier_preparer.quote_identifier(schema)
            conn.execute(sqlalchemy.text(f"CREATE SCHEMA IF NOT EXISTS {quoted}"))
    finally:
        engine.dispose()
    return schema


def seed_board_wins(db: str, wins: int, seed: int) -> int:
    """``wins`` ranked wins of today's deal in every daily game, written straight into the
    database before the server starts (as many players' games would have left them), so that
    the board readers read full boards. Returns the rows written."""
    import secrets as secrets_

    from sqlalchemy import insert

    from reussite.web.days import daily_games, today
    from reussite.web.storage import Store, games, now_ms

    store = Store(db)
    store.migrate()
    rng = random.Random(seed)
    day, at = today(), now_ms()
    rows = []
    for game in daily_games():
        for _ in range(wins):
            played, ms = rng.randint(80, 400), rng.randint(60_000, 1_800_000)
            undo, hint = rng.random() < 0.5, rng.random() < 0.3
            rows.append(dict(
                id=secrets_.token_urlsafe(12), player_id=secrets_.token_urlsafe(16), game=game,
                number="1", version=played, cursor=played, length=played, status="won",
                used_undo=undo, used_hint=hint, elapsed_ms=ms, created_at=at, updated_at=at,
                won_at=at - rng.randint(0, 3_600_000), won_moves=played, won_ms=ms,
                won_used_undo=undo, won_used_hint=hint, origin="daily", secret=True,
                ended="won", played=played, won_played=played, daily=day, ranked=True))
    try:
        with store.engine.begin() as conn:
            for start in range(0, len(rows), 5_000):
                conn.execute(insert(games), rows[start:start + 5_000])
    finally:
        store.dispose()
    return len(rows)


def postgres_commits(db: str | None) -> int:
    """Transactions committed in the URL's database so far (every user's; PostgreSQL's
    statistics lag up to a second behind), or 0 when it is not PostgreSQL."""
    if not db or not db.startswith("postgresql"):
        return 0
    import sqlalchemy

    engine = sqlalchemy.create_engine(db)
    try:
        with engine.connect() as conn:
            conn.execute(sqlalchemy.text("SELECT pg_stat_force_next_flush()"))
            return int(conn.execute(sqlalchemy.text(
                "SELECT xact_commit FROM pg_stat_database"
                " WHERE datname = current_database()")).scalar_one())
    finally:
        engine.dispose()


def start_server(db: str, port: int, log: Path, env_extra: dict[str, str] | None = None,
                 workers: int = 1) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    env.pop("REUSSITE_DATABASE_URL", None)
    env.update(env_extra or {})
    proc = subprocess.Popen(
        [sys.executable, "-m", "reussite", "serve", "--port", str(port), "--db", db,
         "--no-access-log", "--workers", str(workers)],
        stdout=log.open("ab"), stderr=subprocess.STDOUT, env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server stopped:\n{log.read_text()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start within 60 s")


# --------------------------------------------------------------------------- the run

async def fetch_games(host: str, port: int) -> list[str]:
    """The games, and each page the players will ask for asked once before the run: a site
    that has been running has rendered them (web/pagecache.py renders a page once, on its
    first request), so that the run measures serving them, not their first rendering."""
    conn = Connection(host, port)
    try:
        a = await conn.request("GET", "/api/catalogue")
        games = [g["id"] for g in json.loads(a.body)] if a.status == 200 else GAMES_FALLBACK
        for path in ["/", *(f"/games/{g}" for g in games)]:
            await conn.request("GET", path)
        return games
    finally:
        await conn.close()


async def run_players(host: str, port: int, players: int, duration: float, max_requests: int,
                      human_share: float, seed: int, max_moves: int = 200,
                      human_pause: tuple[float, float] = (0.3, 1.5),
                      rate: float = 0.0, hint_share: float = 0.02,
                      board_readers: float = 0.0,
                      page_share: float = 0.0) -> tuple[Tally, float]:
    games = await fetch_games(host, port)
    tally = Tally()
    start = time.monotonic()
    cfg = Settings(host, port, start + duration, max_requests, human_share, human_pause,
                   max_moves, games, interval=players / rate if rate > 0 else 0.0,
                   hint_share=hint_share, board_readers=board_readers,
                   page_share=page_share)
    rng = random.Random(seed)
    readers = round(players * board_readers)
    # The readers are the last players; the others play, a share of them at a human pace.
    crowd = [Player(i, cfg, tally, random.Random(rng.random()), i < players * human_share,
                    reader=i >= players - readers)
             for i in range(players)]
    await asyncio.gather(*(p.run() for p in crowd))
    return tally, time.monotonic() - start


def run_loop(main: Any) -> Any:
    """``asyncio.run(main)``, on uvloop when it is installed (the server's loop, which
    uvicorn[standard] brings): the client then costs the shared machine less CPU a request."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)


def report(tally: Tally, elapsed: float) -> str:
    out = []
    moves = tally.latencies.get("move", [])
    out.append(f"duration {elapsed:.1f} s, {tally.requests} requests,"
               f" {tally.requests / elapsed:.0f} requests/s, {len(moves) / elapsed:.0f} moves/s")
    out.append(f"games: {tally.games_started} started, {tally.games_finished} finished,"
               f" {tally.games_checked} checked, {tally.lost_moves} with a lost move;"
               f" kinds: {dict(sorted(tally.by_game.items()))}")
    out.append(f"{'request':<8} {'count':>7} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}"
               f" {'max ms':>8}")
    for kind in ("move", "new", "undo", "redo", "hint", "view", "page", "first", "daily",
                 "board"):
        lat = tally.latencies.get(kind, [])
        if not lat:
            continue
        out.append(f"{kind:<8} {len(lat):>7} {percentile(lat, 50) * 1000:>8.1f}"
                   f" {percentile(lat, 95) * 1000:>8.1f} {percentile(lat, 99) * 1000:>8.1f}"
                   f" {max(lat) * 1000:>8.1f}")
    if moves:
        # The p99 in each 5 s of the run, of moves and of pages: a tail at the start (the
        # players opening the site at once) or all along.
        start = min(tally.sent["move"])
        for kind in ("move", "page"):
            slices: dict[int, list[float]] = defaultdict(list)
            for t, lat in zip(tally.sent[kind], tally.latencies.get(kind, []), strict=True):
                slices[int((t - start) // 5)].append(lat)
            if slices:
                out.append(f"{kind} p99 by 5 s of the run: " + ", ".join(
                    f"{percentile(v, 99) * 1000:.0f}" for _, v in sorted(slices.items()))
                    + " ms")
    out.append(f"errors: {len(tally.errors)}")
    for e in tally.errors[:10]:
        out.append(f"  {e}")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", help="a running site (http://127.0.0.1:PORT); else one is started")
    ap.add_argument("--db", help="database URL for the started server (default: SQLite in a"
                                 " temporary folder)")
    ap.add_argument("--players", type=int, default=200)
    ap.add_argument("--duration", type=float, default=20.0, help="seconds (default 20)")
    ap.add_argument("--max-requests", type=int, default=200_000)
    ap.add_argument("--human-share", type=float, default=0.25,
                    help="share of players pausing 0.3-1.5 s between actions (default 0.25)")
    ap.add_argument("--rate", type=float, default=0.0,
                    help="paced mode: the players send this many requests per second in all,"
                         " each at an even pace (default 0: flat out, --human-share pausing)")
    ap.add_argument("--hint-share", type=float, default=0.02,
                    help="share of a player's actions that ask for a hint (default 0.02)")
    ap.add_argument("--page-share", type=float, default=0.0,
                    help="share of a player's actions followed by its game's page asked again"
                         " (a reload), so that pages have a tail of their own to measure"
                         " (default 0: only at a game's start)")
    ap.add_argument("--board-wins", type=int, default=0,
                    help="ranked wins of today's deal written into each daily game's board"
                         " before the run (a started server only; default 0: empty boards)")
    ap.add_argument("--board-readers", type=float, default=0.0,
                    help="share of the players that only read the daily leaderboards, at a"
                         " human pace (default 0)")
    ap.add_argument("--workers", type=int, default=1,
                    help="server processes for the started server (default 1)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = ap.parse_args(argv)
    if not 1 <= args.players <= 5000 or not 0 < args.duration <= 3600:
        ap.error("--players must be 1..5000 and --duration 0..3600 s")
    if not 0 <= args.rate <= 100_000 or not 1 <= args.workers <= 16:
        ap.error("--rate must be 0..100000 and --workers 1..16")
    if not 0 <= args.board_wins <= 100_000:
        ap.error("--board-wins must be 0..100000")
    if args.board_wins and args.url:
        ap.error("--board-wins writes into the database of a server started here, not --url")
    if not 0 <= args.page_share <= 1:
        ap.error("--page-share is a share: 0 to 1")
    if not 0 <= args.board_readers < 1:
        ap.error("--board-readers is a share: 0 or more, less than 1")
    human_share = 0.0 if args.rate > 0 else args.human_share

    proc = None
    tmp = tempfile.TemporaryDirectory(prefix="reussite-load-")
    try:
        if args.url:
            u = urlsplit(args.url)
            host, port = u.hostname or "127.0.0.1", u.port or 80
            if host not in ("127.0.0.1", "localhost", "::1"):
                ap.error("the load test only targets this machine (127.0.0.1)")
        else:
            host, port = "127.0.0.1", free_port()
            db = args.db or f"sqlite:///{Path(tmp.name) / 'load.sqlite3'}"
            log = Path(tmp.name) / "server.log"
            ensure_schema(db)
            if args.board_wins:
                written = seed_board_wins(db, args.board_wins, args.seed)
                print(f"boards: {written} ranked wins of today's deals written", file=sys.stderr)
            prepare_daily(db)
            proc = start_server(db, port, log, {**TRUSTED, **STEADY}, workers=args.workers)
            print(f"server: reussite serve --port {port} --db {db.split('@')[-1]}",
                  file=sys.stderr)
        cpu0 = cpu_seconds(proc.pid) if proc is not None else 0.0
        kids0 = children_cpu(proc.pid) if proc is not None else {}
        mine0 = own_cpu()
        pg0 = postgres_cpu()
        commits0 = postgres_commits(args.db)
        sw0 = [switches(proc.pid if proc is not None else None), switches(0), switches()]
        load0 = os.getloadavg()[0]
        tally, elapsed = run_loop(run_players(
            host, port, args.players, args.duration, args.max_requests, human_share,
            args.seed, rate=args.rate, hint_share=args.hint_share,
            board_readers=args.board_readers, page_share=args.page_share))
        client_cpu = own_cpu() - mine0
        pg_cpu = postgres_cpu() - pg0
        sw1 = [switches(proc.pid if proc is not None else None), switches(0), switches()]
        load1 = os.getloadavg()[0]
        server_cpu = cpu_seconds(proc.pid) - cpu0 if proc is not None else 0.0
        kids = children_cpu(proc.pid) if proc is not None else {}
        kids_cpu = sum(v - kids0.get(k, 0.0) for k, v in kids.items())
        if args.workers > 1 and proc is not None:
            # The server processes are the children; the parent only watches them.
            server_cpu, kids_cpu = server_cpu + kids_cpu, 0.0
    finally:
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
            time.sleep(0.5)  # the server's backends end, which flushes their statistics
        tmp.cleanup()
    commits = postgres_commits(args.db) - commits0
    print(report(tally, elapsed))
    per = 1000 / max(1, tally.requests)
    if server_cpu:
        print(f"server CPU: {server_cpu:.1f} s, {server_cpu * per:.2f} ms per request;"
              f" its hint workers {kids_cpu:.1f} s; this load client {client_cpu:.1f} s,"
              f" {client_cpu * per:.2f} ms per request")
    if pg_cpu > 0:
        print(f"PostgreSQL processes (all of them, shared): {pg_cpu:.1f} s,"
              f" {pg_cpu * per:.2f} ms per request; {commits * per / 1000:.2f} commits"
              f" per request")
    sw = [(b[0] - a[0], b[1] - a[1]) for a, b in zip(sw0, sw1, strict=True)]
    print("context switches per request (voluntary + involuntary): "
          + ("" if proc is None else f"server {sw[0][0] * per / 1000:.2f} + "
             f"{sw[0][1] * per / 1000:.2f}, ")
          + (f"PostgreSQL {sw[1][0] * per / 1000:.2f} + {sw[1][1] * per / 1000:.2f}, "
             if pg_cpu > 0 else "")
          + f"client {sw[2][0] * per / 1000:.2f} + {sw[2][1] * per / 1000:.2f}")
    print(f"load average: {load0:.2f} at the start, {load1:.2f} at the end"
          f" ({os.cpu_count()} cores)")
    if args.json:
        moves = tally.latencies.get("move", [])
        print(json.dumps({
            "requests": tally.requests, "seconds": elapsed,
            "requests_per_s": tally.requests / elapsed, "moves_per_s": len(moves) / elapsed,
            "move_p50_ms": percentile(moves, 50) * 1000,
            "move_p95_ms": percentile(moves, 95) * 1000,
            "move_p99_ms": percentile(moves, 99) * 1000,
            "board_p99_ms": percentile(tally.latencies.get("board", []), 99) * 1000,
            "errors": len(tally.errors), "lost_moves": tally.lost_moves,
            "server_cpu_ms_per_request": server_cpu * per,
            "hint_workers_cpu_s": kids_cpu,
            "postgres_cpu_ms_per_request": pg_cpu * per,
            "postgres_commits_per_request": commits * per / 1000,
            "client_cpu_ms_per_request": client_cpu * per,
            "switches_per_request": {k: [v[0] * per / 1000, v[1] * per / 1000]
                                     for k, v in zip(("server", "postgres", "client"), sw,
                                                     strict=True)},
            "load_average": [load0, load1]}))
    return 1 if tally.errors else 0


if __name__ == "__main__":
    sys.exit(main())
