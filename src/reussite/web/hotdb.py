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
import contextlib
import re
import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

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


def row_of(values: Any) -> GameRow:
    return GameRow.from_mapping(dict(zip(_FIELDS, values, strict=True)))


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

    def get_game(self, game_id: str, player_id: str) -> GameRow | None:
        try:
            values = self.conn.execute(GET_GAME, {"gid": game_id, "pid": player_id}).fetchone()
        except sqlite3.OperationalError as e:
            if _is_busy(e):
                raise Busy() from e
            raise
        return None if values is None else row_of(values)

    def line(self, game_id: str, length: int) -> list[str]:
        try:
            rows = self.conn.execute(LINE, {"gid": game_id, "length": length}).fetchall()
        except sqlite3.OperationalError as e:
            if _is_busy(e):
                raise Busy() from e
            raise
        return [r[0] for r in rows]

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


def _pyformat(sql: str) -> str:
    """``:name`` parameters as psycopg's ``%(name)s``."""
    return re.sub(r":([a-z_]+)", r"%(\1)s", sql)


_PG_GET_GAME = _pyformat(GET_GAME)
_PG_LINE = _pyformat(LINE)
_PG_UPDATE = _pyformat(UPDATE)
_PG_UPDATE_WON = _pyformat(UPDATE_WON)
_PG_CUT_LINE = _pyformat(CUT_LINE)
_PG_APPEND = _pyformat(APPEND)
_PG_CREATE = _pyformat(CREATE)
_PG_MARK_HINT = _pyformat(MARK_HINT)
# The conditional update and the move's insertion in one statement: one round trip, one
# commit; the insertion happens only if the update found the game at the version seen.
_PG_MOVE = _pyformat("WITH u AS (UPDATE games SET " + _SET + _WHERE + " RETURNING id) "
                     "INSERT INTO moves (game_id, seq, move) SELECT id, :seq, :move FROM u")
_PG_MOVE_WON = _pyformat("WITH u AS (UPDATE games SET " + _SET_WON + _WHERE + " RETURNING id) "
                         "INSERT INTO moves (game_id, seq, move) SELECT id, :seq, :move FROM u")


class PostgresGames:
    """The game statements on PostgreSQL, for the event loop: asynchronous connections.

    The actions of :class:`~reussite.web.play.Tables` are plain functions; the hot path runs
    them in a greenlet on the event loop (:func:`run_on_loop`), and each statement here waits
    for PostgreSQL without blocking the loop (:func:`sqlalchemy.util.await_only`). So many
    actions are in flight at once (their commits share PostgreSQL's WAL flushes), and no
    thread is woken for any of them.

    Up to ``size`` autocommit connections, opened when needed; a connection that fails is
    closed (the action is answered 503) and the next action opens a new one.
    """

    def __init__(self, url: str, size: int = 16, wait: float = 10.0) -> None:
        engine = make_engine(url)  # only for the dialect's reading of the URL
        args, kwargs = engine.dialect.create_connect_args(make_url(url))
        engine.dispose()
        kwargs.setdefault("connect_timeout", 10)
        self._args, self._kwargs = args, kwargs
        self._size = size
        self._wait = wait
        self._idle: list[Any] = []
        self._slots: asyncio.Semaphore | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    async def _connect(self) -> Any:
        import psycopg

        return await psycopg.AsyncConnection.connect(*self._args, autocommit=True,
                                                     **self._kwargs)

    async def _run(self, work: Callable[[Any], Awaitable[T]]) -> T:
        import psycopg

        loop = asyncio.get_running_loop()
        if self._slots is None or loop is not self._loop:
            # Connections belong to one event loop (a test client may start several in turn).
            self._loop, self._slots, self._idle = loop, asyncio.Semaphore(self._size), []
        try:
            await asyncio.wait_for(self._slots.acquire(), self._wait)
        except TimeoutError:
            raise Unavailable("every connection stayed busy") from None
        conn = None
        try:
            conn = self._idle.pop() if self._idle else await self._connect()
            result = await work(conn)
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
            self._slots.release()

    # What the actions call, in their greenlet (see run_on_loop).

    def get_game(self, game_id: str, player_id: str) -> GameRow | None:
        async def work(c: Any) -> Any:
            cur = await c.execute(_PG_GET_GAME, {"gid": game_id, "pid": player_id})
            return await cur.fetchone()

        values = await_only(self._run(work))
        return None if values is None else row_of(values)

    def line(self, game_id: str, length: int) -> list[str]:
        async def work(c: Any) -> Any:
            cur = await c.execute(_PG_LINE, {"gid": game_id, "length": length})
            return await cur.fetchall()

        return [r[0] for r in await_only(self._run(work))]

    def commit(self, row: GameRow, change: Change) -> GameRow | None:
        values, params = commit_values(row, change)
        seq = change.cursor - 1

        async def work(c: Any) -> bool:
            if change.append is not None and row.length <= seq:
                # The usual move: nothing to cut, one statement is the whole transaction.
                params.update(seq=seq, move=change.append)
                cur = await c.execute(_PG_MOVE_WON if change.won else _PG_MOVE, params)
                return bool(cur.rowcount == 1)
            async with c.transaction():
                cur = await c.execute(_PG_UPDATE_WON if change.won else _PG_UPDATE, params)
                if cur.rowcount != 1:
                    return False  # nothing written; the transaction ends empty
                if change.append is not None:
                    await c.execute(_PG_CUT_LINE, {"gid": row.id, "seq": seq})
                    await c.execute(_PG_APPEND, {"gid": row.id, "seq": seq,
                                                 "move": change.append})
            return True

        return row_after(row, values) if await_only(self._run(work)) else None

    def create_game(self, game_id: str, player_id: str, game: str, number: int,
                    status: str) -> GameRow:
        values = new_game_values(game_id, player_id, game, number, status)

        async def work(c: Any) -> None:
            await c.execute(_PG_CREATE, values)

        await_only(self._run(work))
        return GameRow.from_mapping(values)

    def mark_hint(self, row: GameRow) -> None:
        if row.used_hint:
            return

        async def work(c: Any) -> None:
            await c.execute(_PG_MARK_HINT, {"gid": row.id, "yes": True})

        await_only(self._run(work))


async def run_on_loop(work: Callable[..., T], *args: Any) -> T:
    """``work(*args)``, a plain function whose statements wait with ``await_only`` (as
    :class:`PostgresGames`'s do), run in a greenlet on the event loop."""
    result: T = await greenlet_spawn(work, *args)
    return result
