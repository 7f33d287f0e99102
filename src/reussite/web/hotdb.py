"""The hot path's storage: a game's row, its line and its changes, through the driver itself.

A move is most of what the site does, and SQLAlchemy's layers (pool checkout, statement
compilation lookup, result objects) cost more than the statements themselves on this path. The
classes here run the very statements of :mod:`reussite.web.storage` (the same conditional
``UPDATE ... WHERE version = :seen`` first, one transaction per action, committed before the
answer) on plain DB-API connections:

- :class:`SqliteGames`: one connection used only by the event loop's thread. SQLite lets one
  writer in at a time; in one process on the event loop the writes simply come one after the
  other, with no thread to wake and no lock to wait for. A write begins with ``BEGIN
  IMMEDIATE`` and does not wait (``busy_timeout`` 0): if another connection holds the write
  lock (another process, or this process's thread pool writing a new game), it raises
  :class:`Busy` before anything is written and the caller does the action again in a thread,
  through the patient :class:`~reussite.web.storage.Store`, so the event loop never sleeps.
- :class:`PostgresGames`: asynchronous autocommit connections awaited on the event loop
  (the action itself runs in a greenlet there); a move is a single statement (the conditional
  update and the move's insertion in one ``WITH``), so one round trip and one commit. A
  connection that fails is dropped (the next action opens a new one) and the action is
  answered 503.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import os
import re
import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

import psycopg
from psycopg import pq
from sqlalchemy.engine import make_url
from sqlalchemy.util import await_only, greenlet_spawn

from reussite.web.storage import (
    Change,
    GameRow,
    Unavailable,
    _sqlite_pragmas,
    commit_values,
    make_engine,
    new_game_values,
    row_after,
)

T = TypeVar("T")

_COLUMNS = ("id, player_id, game, number, version, cursor, length, status, used_undo, "
            "used_hint, elapsed_ms, created_at, updated_at, won_at, won_moves, won_ms, "
            "won_used_undo, won_used_hint")
_FIELDS = tuple(c.strip() for c in _COLUMNS.split(","))
GET_GAME = f"SELECT {_COLUMNS} FROM games WHERE id = :gid AND player_id = :pid"
LINE = "SELECT move FROM moves WHERE game_id = :gid AND seq < :length ORDER BY seq"
_SET = ("version = :new_version, cursor = :new_cursor, length = :new_length, "
        "status = :new_status, used_undo = (used_undo OR :new_used_undo), "
        "used_hint = (used_hint OR :new_used_hint), elapsed_ms = :new_elapsed_ms, "
        "updated_at = :new_updated_at")
_SET_WON = (_SET + ", won_at = :new_won_at, won_moves = :new_won_moves, won_ms = :new_won_ms, "
            "won_used_undo = (used_undo OR :new_used_undo), "
            "won_used_hint = (used_hint OR :new_used_hint)")
_WHERE = " WHERE id = :gid AND version = :seen"
UPDATE = "UPDATE games SET " + _SET + _WHERE
UPDATE_WON = "UPDATE games SET " + _SET_WON + _WHERE
CUT_LINE = "DELETE FROM moves WHERE game_id = :gid AND seq >= :seq"
APPEND = "INSERT INTO moves (game_id, seq, move) VALUES (:gid, :seq, :move)"
MARK_HINT = "UPDATE games SET used_hint = :yes WHERE id = :gid"
CREATE = (f"INSERT INTO games ({_COLUMNS}) VALUES (:id, :player_id, :game, :number, :version, "
          ":cursor, :length, :status, :used_undo, :used_hint, :elapsed_ms, :created_at, "
          ":updated_at, :won_at, :won_moves, :won_ms, :won_used_undo, :won_used_hint)")


assert GameRow.__slots__ == _FIELDS, "the columns in the order of GameRow's fields"


def row_of(values: Any) -> GameRow:
    return GameRow.from_values(values)


class GameStore(Protocol):
    """What the game actions need of a database (:class:`~reussite.web.storage.Store` too)."""

    def get_game(self, game_id: str, player_id: str) -> GameRow | None: ...

    def line(self, game_id: str, length: int) -> list[str]: ...

    def commit(self, row: GameRow, change: Change) -> GameRow | None: ...

    def create_game(self, game_id: str, player_id: str, game: str, number: int,
                    status: str) -> GameRow: ...

    def mark_hint(self, row: GameRow) -> None: ...


class Busy(Exception):
    """SQLite's write lock is held elsewhere: nothing was written, do it again patiently."""


def _is_busy(e: sqlite3.OperationalError) -> bool:
    code = getattr(e, "sqlite_errorcode", None)
    return code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or "locked" in str(e)


class SqliteGames:
    """The game statements on one SQLite connection, for the event loop's thread only.

    The caller holds the store's write lock (:attr:`Store.write_lock`, which this process's
    threads queue on for their writes) around a write: within one process, writes take turns
    there rather than in SQLite's busy handler, which sleeps.
    """

    def __init__(self, url: str) -> None:
        database = make_url(url).database
        assert database and database != ":memory:", "a SQLite file"
        self.conn = sqlite3.connect(database, isolation_level=None, check_same_thread=False)
        _sqlite_pragmas(self.conn, None)
        self.conn.execute("PRAGMA busy_timeout=0")

    def _read(self, sql: str, params: dict[str, Any], many: bool) -> Any:
        """A read's rows (``many``) or first row; SQLite busy is :class:`Busy`."""
        try:
            cursor = self.conn.execute(sql, params)
            return cursor.fetchall() if many else cursor.fetchone()
        except sqlite3.OperationalError as e:
            if _is_busy(e):
                raise Busy() from e
            raise

    def get_game(self, game_id: str, player_id: str) -> GameRow | None:
        values = self._read(GET_GAME, {"gid": game_id, "pid": player_id}, many=False)
        return None if values is None else row_of(values)

    def line(self, game_id: str, length: int) -> list[str]:
        return [r[0] for r in self._read(LINE, {"gid": game_id, "length": length}, many=True)]

    def _write(self, work: Any) -> Any:
        """``work(conn)`` in one write transaction, or Busy at once (nothing written)."""
        conn = self.conn
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as e:
            if _is_busy(e):
                raise Busy() from e
            raise
        try:
            result = work(conn)
            if conn.in_transaction:
                conn.execute("COMMIT")
            return result
        except BaseException as e:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if isinstance(e, sqlite3.OperationalError) and _is_busy(e):
                raise Busy() from e
            raise

    def commit(self, row: GameRow, change: Change) -> GameRow | None:
        values, params = commit_values(row, change)

        def work(conn: sqlite3.Connection) -> bool:
            done = conn.execute(UPDATE_WON if change.won else UPDATE, params)
            if done.rowcount != 1:
                conn.execute("ROLLBACK")
                return False
            if change.append is not None:
                seq = change.cursor - 1
                if row.length > seq:
                    conn.execute(CUT_LINE, {"gid": row.id, "seq": seq})
                conn.execute(APPEND, {"gid": row.id, "seq": seq, "move": change.append})
            return True

        return row_after(row, values) if self._write(work) else None

    def create_game(self, game_id: str, player_id: str, game: str, number: int,
                    status: str) -> GameRow:
        values = new_game_values(game_id, player_id, game, number, status)
        self._write(lambda conn: conn.execute(CREATE, values))
        return GameRow.from_mapping(values)

    def mark_hint(self, row: GameRow) -> None:
        if not row.used_hint:
            self._write(lambda conn: conn.execute(MARK_HINT, {"gid": row.id, "yes": True}))


# PostgreSQL: the same statements, with $n parameters and their types, prepared once on each
# connection and run through libpq's asynchronous calls (psycopg.pq) with no cursor, no
# adaptation layer and no generator in between: a statement then costs this process about a
# fifth of the CPU that psycopg's AsyncConnection.execute took for it (see docs/hardening.md).

_TEXT, _INT4, _INT8, _BOOL = 25, 23, 20, 16
_FATAL_ERROR = pq.ExecStatus.FATAL_ERROR
_PARAM_TYPES = {
    "gid": _TEXT, "pid": _TEXT, "id": _TEXT, "player_id": _TEXT, "game": _TEXT,
    "number": _TEXT, "status": _TEXT, "new_status": _TEXT, "move": _TEXT,
    "length": _INT4, "seq": _INT4, "version": _INT4, "cursor": _INT4, "seen": _INT4,
    "new_version": _INT4, "new_cursor": _INT4, "new_length": _INT4, "won_moves": _INT4,
    "new_won_moves": _INT4,
    "elapsed_ms": _INT8, "created_at": _INT8, "updated_at": _INT8, "won_at": _INT8,
    "won_ms": _INT8, "new_elapsed_ms": _INT8, "new_updated_at": _INT8, "new_won_at": _INT8,
    "new_won_ms": _INT8,
    "used_undo": _BOOL, "used_hint": _BOOL, "won_used_undo": _BOOL, "won_used_hint": _BOOL,
    "new_used_undo": _BOOL, "new_used_hint": _BOOL, "yes": _BOOL,
}


def _param(value: Any) -> bytes | None:
    """A parameter's value in PostgreSQL's text format."""
    if value is None:
        return None
    if value is True:
        return b"t"
    if value is False:
        return b"f"
    if isinstance(value, int):
        return b"%d" % value
    if isinstance(value, str):
        return value.encode()
    raise TypeError(f"no parameter of type {type(value).__name__}")


class Statement:
    """A statement with ``:name`` parameters, as PostgreSQL prepares it (``$1``, ``$2``...
    with their types) under a name of its own."""

    _count = 0

    def __init__(self, sql: str) -> None:
        names: list[str] = []

        def number(m: re.Match[str]) -> str:
            if m[1] not in names:
                names.append(m[1])
            return f"${names.index(m[1]) + 1}"

        self.sql = re.sub(r":([a-z_]+)", number, sql).encode()
        self.names = tuple(names)
        self.types = [_PARAM_TYPES[n] for n in names]
        Statement._count += 1
        self.name = f"reussite_{Statement._count}".encode()

    def values(self, params: dict[str, Any]) -> list[bytes | None]:
        return [_param(params[n]) for n in self.names]


def _text(v: bytes) -> str:
    return v.decode()


def _bool(v: bytes) -> bool:
    return v == b"t"


_GAME_TYPES: tuple[Callable[[bytes], Any], ...] = (
    _text, _text, _text, _text, int, int, int, _text, _bool, _bool, int, int, int, int, int,
    int, _bool, _bool)
"""How each column of ``_COLUMNS`` reads from the text format (NULL is None)."""
assert len(_GAME_TYPES) == len(_FIELDS)

PG_GET_GAME = Statement(GET_GAME)
PG_LINE = Statement(LINE)
PG_UPDATE = Statement(UPDATE)
PG_UPDATE_WON = Statement(UPDATE_WON)
PG_CREATE = Statement(CREATE)
PG_MARK_HINT = Statement(MARK_HINT)
# Every action is one statement in autocommit: one round trip, one commit, atomic as a
# statement is. An undo, a redo, a restart: the conditional update alone. A move: the
# conditional update and the move's insertion; the insertion happens only if the update found
# the game at the version seen.
_MOVE = ("WITH u AS (UPDATE games SET {set}" + _WHERE + " RETURNING id) "
         "INSERT INTO moves (game_id, seq, move) SELECT id, :seq, :move FROM u")
PG_MOVE = Statement(_MOVE.format(set=_SET))
PG_MOVE_WON = Statement(_MOVE.format(set=_SET_WON))
# A move that cuts the redo line (played after an undo): the line beyond ``seq`` deleted and
# the move written at ``seq`` over the one that was there. The sub-statements of a WITH see
# one snapshot and their order is PostgreSQL's choice, so they touch disjoint rows (``seq >
# :seq`` deleted, ``seq = :seq`` written with ON CONFLICT), and both only if the update found
# the game (they read ``u``).
_MOVE_CUT = ("WITH u AS (UPDATE games SET {set}" + _WHERE + " RETURNING id), "
             "d AS (DELETE FROM moves WHERE game_id IN (SELECT id FROM u) AND seq > :seq) "
             "INSERT INTO moves (game_id, seq, move) SELECT id, :seq, :move FROM u "
             "ON CONFLICT (game_id, seq) DO UPDATE SET move = EXCLUDED.move")
PG_MOVE_CUT = Statement(_MOVE_CUT.format(set=_SET))
PG_MOVE_CUT_WON = Statement(_MOVE_CUT.format(set=_SET_WON))


class PgWire:
    """One autocommit PostgreSQL connection, driven through libpq's asynchronous calls on the
    event loop: a statement is sent, then its results are read when the socket has them.

    The socket stays registered with the event loop for reading as long as the connection
    lives (registering and unregistering it for every statement cost two system calls): when
    it becomes readable the statement waiting for it is woken; when nothing waits (the server
    closing the connection, a notice), the input is read at once and a connection found dead
    is marked :attr:`broken`, so that the pool replaces it before using it."""

    def __init__(self, conn: Any, loop: asyncio.AbstractEventLoop) -> None:
        self.conn = conn  # the psycopg connection that opened it (and closes it)
        self.pg = conn.pgconn
        self.pg.nonblocking = 1
        self.fd: int = self.pg.socket
        self.loop = loop
        self.prepared: set[bytes] = set()
        self.broken = False
        self._waiter: asyncio.Future[None] | None = None
        loop.add_reader(self.fd, self._readable)

    def _readable(self) -> None:
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(None)
            return
        try:
            self.pg.consume_input()  # whatever came unasked, so that it is not seen again
            dead = self.pg.status != pq.ConnStatus.OK
        except psycopg.Error:
            dead = True
        if dead:  # at the end of the stream the socket stays readable: stop watching it
            self.broken = True
            self.loop.remove_reader(self.fd)

    async def _writable(self) -> None:
        loop = self.loop
        fut = loop.create_future()

        def wake() -> None:
            if not fut.done():
                fut.set_result(None)

        loop.add_writer(self.fd, wake)
        try:
            await fut
        finally:
            loop.remove_writer(self.fd)

    async def _results(self) -> Any:
        """The last result of what was sent (an error raises it as psycopg's exception)."""
        pg = self.pg
        while pg.flush():
            await self._writable()
        last = error = None
        while True:
            pg.consume_input()
            while not pg.is_busy():
                res = pg.get_result()
                if res is None:
                    if error is not None:
                        raise psycopg.errors.error_from_result(error, encoding="utf-8")
                    if last is None:
                        raise psycopg.OperationalError("no result from the server")
                    return last
                if res.status == _FATAL_ERROR:
                    error = error or res
                else:
                    last = res
            # Wait until the socket can be read (inline: no coroutine of its own).
            if self.broken:
                raise psycopg.OperationalError("the connection was closed")
            waiter = self._waiter = self.loop.create_future()
            try:
                await waiter
            finally:
                self._waiter = None

    async def run(self, stmt: Statement, params: dict[str, Any]) -> Any:
        """Run ``stmt`` (prepared on this connection the first time) and return its result."""
        if stmt.name not in self.prepared:
            self.pg.send_prepare(stmt.name, stmt.sql, stmt.types)
            await self._results()
            self.prepared.add(stmt.name)
        self.pg.send_query_prepared(stmt.name, stmt.values(params))
        return await self._results()

    async def query(self, sql: bytes) -> Any:
        """A statement without parameters (``BEGIN``, ``COMMIT``...)."""
        self.pg.send_query(sql)
        return await self._results()

    async def close(self) -> None:
        if not self.broken:
            self.broken = True
            self.loop.remove_reader(self.fd)
        await self.conn.close()


def pg_connections() -> int:
    """How many connections a process's hot path opens at most
    (``REUSSITE_PG_CONNECTIONS``, default 16): as many statements are in flight at once."""
    value = os.environ.get("REUSSITE_PG_CONNECTIONS", "")
    return int(value) if value.isdigit() and int(value) > 0 else 16


class PostgresGames:
    """The game statements on PostgreSQL, for the event loop: asynchronous connections.

    The actions of :class:`~reussite.web.play.Tables` are plain functions; the hot path runs
    them in a greenlet on the event loop (:func:`run_on_loop`), and each statement here waits
    for PostgreSQL without blocking the loop (:func:`sqlalchemy.util.await_only`). So many
    actions are in flight at once (their commits share PostgreSQL's WAL flushes), and no
    thread is woken for any of them.

    Up to ``size`` (:func:`pg_connections`) autocommit connections (:class:`PgWire`), opened
    when needed; a connection that fails is closed (the action is answered 503) and the next
    action opens a new one.
    """

    def __init__(self, url: str, size: int | None = None, wait: float = 10.0) -> None:
        if size is None:
            size = pg_connections()
        engine = make_engine(url)  # only for the dialect's reading of the URL
        args, kwargs = engine.dialect.create_connect_args(make_url(url))
        engine.dispose()
        kwargs.setdefault("connect_timeout", 10)
        kwargs["client_encoding"] = "utf8"
        self._args, self._kwargs = args, kwargs
        self._size = size
        self._wait = wait
        self._idle: list[PgWire] = []
        self._free = size
        """Connections that may still be taken (idle or not opened yet)."""
        self._waiters: collections.deque[asyncio.Future[None]] = collections.deque()
        self._loop: asyncio.AbstractEventLoop | None = None

    async def _connect(self) -> PgWire:
        conn = await psycopg.AsyncConnection.connect(*self._args, autocommit=True,
                                                     **self._kwargs)
        return PgWire(conn, asyncio.get_running_loop())

    async def _take(self, loop: asyncio.AbstractEventLoop) -> None:
        """A place among the ``size`` connections: at once when one is free, else in turn
        (first come, first served), or Unavailable after ``wait`` seconds."""
        if self._free > 0:
            self._free -= 1
            return
        waiter: asyncio.Future[None] = loop.create_future()
        self._waiters.append(waiter)

        def expire() -> None:
            if not waiter.done():
                waiter.set_exception(Unavailable("every connection stayed busy"))

        timer = loop.call_later(self._wait, expire)
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled() and waiter.exception() is None:
                self._give_back()  # handed over just as this request was cancelled
            raise
        finally:
            timer.cancel()

    def _give_back(self) -> None:
        """The place to the first request waiting for one, else to the free ones."""
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)
                return
        self._free += 1

    async def _run(self, work: Callable[..., Awaitable[T]], *args: Any) -> T:
        """``await work(connection, *args)`` on a connection of the pool (the actions pass
        ``PgWire.run`` and its statement: no closure a request)."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            # Connections belong to one event loop (a test client may start several in turn).
            self._loop, self._idle, self._free = loop, [], self._size
            self._waiters = collections.deque()
        if self._free > 0:  # _take's first case, without a coroutine of its own
            self._free -= 1
        else:
            await self._take(loop)
        conn = None
        try:
            while self._idle and conn is None:
                conn = self._idle.pop()
                if conn.broken:  # closed by the server while idle: replaced, no error
                    with contextlib.suppress(Exception):
                        await conn.close()
                    conn = None
            if conn is None:
                conn = await self._connect()
            result = await work(conn, *args)
        except BaseException as e:
            if conn is not None:  # in an unknown state: not used again
                with contextlib.suppress(Exception):
                    await conn.close()
            if isinstance(e, psycopg.OperationalError):
                raise Unavailable(type(e).__name__) from e
            raise
        else:
            self._idle.append(conn)
            return result
        finally:
            self._give_back()

    # What the actions call, in their greenlet (see run_on_loop).

    def get_game(self, game_id: str, player_id: str) -> GameRow | None:
        res = await_only(self._run(PgWire.run, PG_GET_GAME, {"gid": game_id, "pid": player_id}))
        if res.ntuples == 0:
            return None
        get = res.get_value
        return row_of([None if (v := get(0, i)) is None else read(v)
                       for i, read in enumerate(_GAME_TYPES)])

    def line(self, game_id: str, length: int) -> list[str]:
        res = await_only(self._run(PgWire.run, PG_LINE, {"gid": game_id, "length": length}))
        get = res.get_value
        return [get(i, 0).decode() for i in range(res.ntuples)]

    def commit(self, row: GameRow, change: Change) -> GameRow | None:
        values, params = commit_values(row, change)
        seq = change.cursor - 1

        if change.append is None:
            stmt = PG_UPDATE_WON if change.won else PG_UPDATE
        else:
            params.update(seq=seq, move=change.append)
            if row.length <= seq:  # the usual move: nothing to cut
                stmt = PG_MOVE_WON if change.won else PG_MOVE
            else:
                stmt = PG_MOVE_CUT_WON if change.won else PG_MOVE_CUT
        res = await_only(self._run(PgWire.run, stmt, params))
        return row_after(row, values) if res.command_tuples == 1 else None

    def create_game(self, game_id: str, player_id: str, game: str, number: int,
                    status: str) -> GameRow:
        values = new_game_values(game_id, player_id, game, number, status)
        await_only(self._run(PgWire.run, PG_CREATE, values))
        return GameRow.from_mapping(values)

    def mark_hint(self, row: GameRow) -> None:
        if row.used_hint:
            return
        await_only(self._run(PgWire.run, PG_MARK_HINT, {"gid": row.id, "yes": True}))


async def run_on_loop(work: Callable[..., T], *args: Any) -> T:
    """``work(*args)``, a plain function whose statements wait with ``await_only`` (as
    :class:`PostgresGames`'s do), run in a greenlet on the event loop."""
    result: T = await greenlet_spawn(work, *args)
    return result
