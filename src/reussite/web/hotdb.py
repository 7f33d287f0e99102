"""The hot path's storage: a game's row, its line and its changes, through the driver itself.

A move is most of what the site does, and SQLAlchemy's layers (pool checkout, statement
compilation lookup, result objects) cost more than the statements themselves on this path. The
classes here run the very statements of :mod:`reussite.web.storage`, compiled once to their
driver's SQL, in the order :class:`~reussite.web.storage.GameStatements` gives them (the
same conditional ``UPDATE ... WHERE version = :seen`` first, one transaction per action,
committed before the answer), on plain driver connections:

- :class:`SqliteGames`: one connection used only by the event loop's thread. SQLite lets one
  writer in at a time; in one process on the event loop the writes simply come one after the
  other, with no thread to wake and no lock to wait for. A write begins with ``BEGIN
  IMMEDIATE`` and does not wait (``busy_timeout`` 0): if another connection holds the write
  lock (another process, or this process's thread pool writing a new game), it raises
  :class:`Busy` before anything is written and the caller does the action again in a thread,
  through the patient :class:`~reussite.web.storage.Store`, so the event loop never sleeps.
- :class:`PostgresGames`: asynchronous connections awaited on the event loop (the action
  itself runs in a greenlet there); a move is a single statement (the conditional update and
  the move's insertion in one ``WITH``), and the statements of the actions in flight go to
  PostgreSQL in batches, one transaction a batch (libpq's pipeline mode), each answered once
  its batch is committed. A connection that fails is dropped (the next batch opens a new
  one) and the actions of its batch are answered 503.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import os
import re
import sqlite3
import sys
import threading
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import greenlet  # type: ignore[import-untyped]
import psycopg
from psycopg import pq
from sqlalchemy import (
    BigInteger,
    Boolean,
    Integer,
    Select,
    String,
    bindparam,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.postgresql.base import PGDialect
from sqlalchemy.dialects.sqlite.pysqlite import SQLiteDialect_pysqlite
from sqlalchemy.engine import make_url
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import ClauseElement
from sqlalchemy.types import TypeEngine
from sqlalchemy.util import await_only

from reussite.web.storage import (
    DB_DEADLINE,
    Change,
    Execute,
    GameRow,
    GameStatements,
    NewGame,
    Query,
    Sql,
    Store,
    Unavailable,
    _sqlite_pragmas,
    commit_values,
    compiled,
    conditional_update,
    connect_timeout,
    db_deadline,
    games,
    make_engine,
    moves,
    row_after,
    statements,
    tally_values,
    totals,
)

T = TypeVar("T")

class Busy(Exception):
    """SQLite's write lock is held elsewhere: nothing was written, do it again patiently."""


def _is_busy(e: sqlite3.OperationalError) -> bool:
    code = getattr(e, "sqlite_errorcode", None)
    return code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or "locked" in str(e)


class SqliteGames(GameStatements):
    """The game statements on one SQLite connection, for the event loop's thread only.

    The caller holds the store's write lock (:attr:`Store.write_lock`, which this process's
    threads queue on for their writes) around a write: within one process, writes take turns
    there rather than in SQLite's busy handler, which sleeps.
    """

    sql = compiled(SQLiteDialect_pysqlite(paramstyle="named"))

    def __init__(self, url: str) -> None:
        database = make_url(url).database
        assert database and database != ":memory:", "a SQLite file"
        self.conn = sqlite3.connect(database, isolation_level=None, check_same_thread=False)
        _sqlite_pragmas(self.conn, None)
        self.conn.execute("PRAGMA busy_timeout=0")

    def _read(self, stmt: str, params: dict[str, Any], many: bool) -> Any:
        """A read's rows (``many``) or first row; SQLite busy is :class:`Busy`."""
        try:
            cursor = self.conn.execute(stmt, params)
            return cursor.fetchall() if many else cursor.fetchone()
        except sqlite3.OperationalError as e:
            if _is_busy(e):
                raise Busy() from e
            raise

    def _one(self, stmt: str, params: dict[str, Any]) -> Any:
        return self._read(stmt, params, many=False)

    def _all(self, stmt: str, params: dict[str, Any]) -> list[Any]:
        rows: list[Any] = self._read(stmt, params, many=True)
        return rows

    def _transaction(self, writes: Callable[[Execute, Query], T]) -> T:
        """One write transaction, or Busy at once (nothing written)."""
        conn = self.conn
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as e:
            if _is_busy(e):
                raise Busy() from e
            raise
        try:
            result = writes(lambda stmt, params: conn.execute(stmt, params).rowcount,
                            lambda stmt, params: conn.execute(stmt, params).fetchall())
            conn.execute("ROLLBACK" if result is None else "COMMIT")
            return result
        except BaseException as e:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if isinstance(e, sqlite3.OperationalError) and _is_busy(e):
                raise Busy() from e
            raise


# PostgreSQL: the same statements, with $n parameters and their types, prepared once on each
# connection and run through libpq's asynchronous calls (psycopg.pq) with no cursor, no
# adaptation layer and no generator in between: a statement then costs this process a fraction
# of the CPU that psycopg's AsyncConnection.execute takes for it (docs/hardening.md).

_FATAL_ERROR = pq.ExecStatus.FATAL_ERROR
_DIALECT = PGDialect(paramstyle="named")  # type: ignore[no-untyped-call]
"""The statements' SQL for PostgreSQL, with ``:name`` parameters (numbered by
:class:`Statement`) and no casts: each parameter's type goes with the prepared statement."""


def _oid(type_: TypeEngine[Any]) -> int:
    """The PostgreSQL type a parameter of this column type is sent as."""
    if isinstance(type_, Boolean):
        return 16  # bool
    if isinstance(type_, BigInteger):
        return 20  # int8
    if isinstance(type_, Integer):
        return 23  # int4
    if isinstance(type_, String):
        return 25  # text
    raise TypeError(f"no parameter of type {type_!r}")


_PARAM_TYPES: dict[str, int] = {}
"""The type of each parameter of the statements below (a name has one type throughout)."""


def _sql(stmt: ClauseElement) -> str:
    """``stmt`` in PostgreSQL's SQL, its parameters' types noted in :data:`_PARAM_TYPES`."""
    c = stmt.compile(dialect=_DIALECT)
    assert isinstance(c, SQLCompiler)
    for name, bind in c.binds.items():
        oid = _oid(bind.type)
        if _PARAM_TYPES.setdefault(name, oid) != oid:
            raise TypeError(f"the parameter {name} has two types")
    return str(c)


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


def _text(v: bytes) -> str:
    return v.decode()


def _bool(v: bytes) -> bool:
    return v == b"t"


def _reader(type_: TypeEngine[Any]) -> Callable[[bytes], Any]:
    """How a column of this type reads from PostgreSQL's text format."""
    if isinstance(type_, Boolean):
        return _bool
    if isinstance(type_, Integer):
        return int
    if isinstance(type_, String):
        return _text
    raise TypeError(f"no column of type {type_!r}")


class Statement:
    """A statement with ``:name`` parameters, as PostgreSQL prepares it (``$1``, ``$2``...
    with their types) under a name of its own; a query's columns read from the text format
    with :attr:`readers`."""

    _count = 0

    def __init__(self, sql: str, readers: tuple[Callable[[bytes], Any], ...] = ()) -> None:
        names: list[str] = []

        def number(m: re.Match[str]) -> str:
            if m[1] not in names:
                names.append(m[1])
            return f"${names.index(m[1]) + 1}"

        self.sql = re.sub(r":([a-z_]+)", number, sql).encode()
        self.names = tuple(names)
        self.types = [_PARAM_TYPES[n] for n in names]
        self.readers = readers
        Statement._count += 1
        self.name = f"reussite_{Statement._count}".encode()

    @classmethod
    def of(cls, stmt: ClauseElement) -> Statement:
        """One of :mod:`reussite.web.storage`'s statements (a query reads its columns by
        their types)."""
        columns = stmt.selected_columns if isinstance(stmt, Select) else ()
        return cls(_sql(stmt), tuple(_reader(c.type) for c in columns))

    def values(self, params: dict[str, Any]) -> list[bytes | None]:
        return [_param(params[n]) for n in self.names]

    def row(self, res: Any, i: int) -> list[Any]:
        """Row ``i`` of this query's result (NULL is None)."""
        get = res.get_value
        return [None if (v := get(i, j)) is None else read(v)
                for j, read in enumerate(self.readers)]


PG = Sql(*(Statement.of(stmt) for stmt in statements("postgresql")))


@functools.cache
def change_statement(won: bool, append: bool, cut: bool, tally: bool) -> Statement:
    """A change as one statement: the conditional update and, only if it found the game at
    the version seen, the move's insertion at ``seq`` (``append``) and the player's
    statistics (``tally``: :data:`~reussite.web.storage.TALLY`'s change, in the same
    transaction since it is the same statement).

    When the move cuts the redo line (played after an undo), the line beyond ``seq`` is
    deleted and the move written over the one at ``seq``. The sub-statements of a WITH see
    one snapshot and their order is PostgreSQL's choice, so they touch disjoint rows (``seq
    > :seq`` deleted, ``seq = :seq`` written with ON CONFLICT), and all only if the update
    found the game (they read ``u``). Its row count is the update's (or the move's)."""
    update = conditional_update(won)
    if not append and not tally:
        return Statement.of(update)
    u = update.returning(games.c.id, games.c.player_id, games.c.game, games.c.origin).cte("u")
    ctes = [u]
    if tally:
        ctes.append(update_totals(u).cte("t"))
    if not append:
        # The games row found is the row counted: a SELECT of the CTE gives its count.
        return Statement.of(select(u.c.id).add_cte(*ctes))
    rows = select(u.c.id, bindparam("seq", type_=Integer), bindparam("move", type_=String))
    columns = ["game_id", "seq", "move"]
    if not cut:
        return Statement.of(insert(moves).from_select(columns, rows).add_cte(*ctes))
    ctes.append(delete(moves).where(moves.c.game_id.in_(select(u.c.id)),
                                    moves.c.seq > bindparam("seq")).cte("d"))
    ins = pg_insert(moves).from_select(columns, rows).add_cte(*ctes)
    return Statement.of(ins.on_conflict_do_update(index_elements=[moves.c.game_id, moves.c.seq],
                                                  set_={"move": ins.excluded.move}))


def update_totals(u: Any) -> Any:
    """The statistics' change of the game updated in ``u`` (its player, game, origin)."""
    return update(totals).where(totals.c.player_id == u.c.player_id,
                                totals.c.game == u.c.game,
                                totals.c.origin == u.c.origin).values(tally_values())


_PIPELINE_SYNC = pq.ExecStatus.PIPELINE_SYNC
_PIPELINE_ABORTED = pq.ExecStatus.PIPELINE_ABORTED
_ERRORS = (_FATAL_ERROR, _PIPELINE_ABORTED)


class PgWire:
    """One PostgreSQL connection in libpq's pipeline mode, driven through libpq's asynchronous
    calls on the event loop: a batch of statements is sent in one write, followed by a
    synchronisation point, and their results are read when the socket has them.

    The statements of a batch run in one implicit transaction, committed at the
    synchronisation point (so one commit and one WAL flush for the batch); their results are
    handed out only once that point is reached, that is once the batch is committed.

    The socket stays registered with the event loop for reading as long as the connection
    lives (registering and unregistering it for every statement cost two system calls): when
    it becomes readable the batch waiting for it is woken; when nothing waits (the server
    closing the connection, a notice), the input is read at once and a connection found dead
    is marked :attr:`broken`, so that the pool replaces it before using it."""

    def __init__(self, conn: Any, loop: asyncio.AbstractEventLoop,
                 deadline: float = DB_DEADLINE) -> None:
        self.conn = conn  # the psycopg connection that opened it (and closes it)
        self.deadline = deadline
        """Seconds a batch may wait for its results (:func:`~reussite.web.storage.db_deadline`):
        past them the connection is closed and the batch fails (a 503)."""
        self.pg = conn.pgconn
        self.pg.nonblocking = 1
        self.pg.enter_pipeline_mode()
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

    async def _synced(self, count: int) -> list[Any]:
        """The results of the ``count`` statements sent before the synchronisation point,
        once it is reached: for each, its last result, or its error (a result whose status is
        an error: the first one; statements after an error are not run, PIPELINE_ABORTED)."""
        pg = self.pg
        while pg.flush():
            await self._writable()
        out: list[Any] = []
        current = None
        while True:
            # What is already read (nothing the first time: no read is tried before the
            # socket says there is something, which saves a system call a batch).
            while not pg.is_busy():
                res = pg.get_result()
                if res is None:
                    if current is None:
                        break  # nothing more until the server sends it
                    out.append(current)  # the end of one statement's results
                    current = None
                elif res.status == _PIPELINE_SYNC:
                    if current is not None:
                        out.append(current)
                    if len(out) == count + 1 and out[-1].status == _FATAL_ERROR:
                        # An error at the synchronisation point itself: the commit failed,
                        # so nothing of the batch holds, whatever each statement answered.
                        return [out[-1]] * count
                    if len(out) != count:
                        raise psycopg.OperationalError("the pipeline lost its place")
                    return out
                elif current is None or current.status not in _ERRORS:
                    current = res
            if self.broken:
                raise psycopg.OperationalError("the connection was closed")
            waiter = self._waiter = self.loop.create_future()
            try:
                await waiter
            finally:
                self._waiter = None
            pg.consume_input()

    async def _prepare(self, statements: list[Statement]) -> None:
        for stmt in statements:
            self.pg.send_prepare(stmt.name, stmt.sql, stmt.types)
        self.pg.pipeline_sync()
        for res in await self._synced(len(statements)):
            if res.status in _ERRORS:
                raise psycopg.errors.error_from_result(res, encoding="utf-8")
        self.prepared.update(stmt.name for stmt in statements)

    async def run_batch(self, jobs: list[tuple[Statement, list[bytes | None]]]) -> list[Any]:
        """Run the statements (with their parameters' values) in one transaction; each one's
        result, or its error as psycopg's exception (not raised: the whole transaction was
        rolled back then). A failure of the connection itself raises, and so does a batch
        not answered within :attr:`deadline` (the connection is then broken)."""
        try:
            async with asyncio.timeout(self.deadline):
                return await self._run_batch(jobs)
        except TimeoutError:
            if not self.broken:
                self.broken = True
                self.loop.remove_reader(self.fd)
            raise psycopg.OperationalError(
                f"the database did not answer within {self.deadline} s") from None

    async def _run_batch(self, jobs: list[tuple[Statement, list[bytes | None]]]) -> list[Any]:
        missing = {stmt.name: stmt for stmt, _ in jobs if stmt.name not in self.prepared}
        if missing:  # prepared on this connection the first time, in a round trip of its own
            await self._prepare(list(missing.values()))
        pg = self.pg
        for stmt, values in jobs:
            pg.send_query_prepared(stmt.name, values)
        pg.pipeline_sync()  # also sends the whole batch: one write
        return [psycopg.errors.error_from_result(res, encoding="utf-8")
                if res.status == _FATAL_ERROR
                else psycopg.errors.PipelineAborted("the batch was rolled back")
                if res.status == _PIPELINE_ABORTED else res
                for res in await self._synced(len(jobs))]

    async def run(self, stmt: Statement, params: dict[str, Any]) -> Any:
        """Run ``stmt`` alone and return its result (an error raises)."""
        res = (await self.run_batch([(stmt, stmt.values(params))]))[0]
        if isinstance(res, Exception):
            raise res
        return res

    async def close(self) -> None:
        if not self.broken:
            self.broken = True
            self.loop.remove_reader(self.fd)
        await self.conn.close()


DEFAULT_PG_CONNECTIONS = 2


def pg_connections() -> int:
    """How many connections a process's hot path opens at most (``REUSSITE_PG_CONNECTIONS``,
    default 2): as many batches of statements are in flight at once."""
    value = os.environ.get("REUSSITE_PG_CONNECTIONS", "")
    return int(value) if value.isdigit() and int(value) > 0 else DEFAULT_PG_CONNECTIONS


MAX_BATCH = 64
"""At most this many statements in one batch (one transaction)."""

Job = tuple[Statement, list[bytes | None], "asyncio.Future[Any]", float]
"""A statement waiting for a connection: its parameters' values, whoever waits for its
result, and when it came (the loop's clock)."""


class PostgresGames(GameStatements):
    """The game statements on PostgreSQL, for the event loop: batches on a few connections.

    The actions of :class:`~reussite.web.play.Tables` are plain functions; the hot path runs
    them in a greenlet on the event loop (:func:`run_on_loop`), and each statement here waits
    for PostgreSQL without blocking the loop (:func:`sqlalchemy.util.await_only`). So many
    actions are in flight at once, and no thread is woken for any of them.

    Every action is one statement (:func:`change_statement`). The statements of the
    actions in flight queue here and go to PostgreSQL in batches: when a connection is free,
    everything queued (up to :data:`MAX_BATCH`) is sent on it in one write, in pipeline mode,
    as one transaction (:meth:`PgWire.run_batch`); each statement's result is handed out when
    that transaction
    is committed, so an action is still answered only once its change is durable. A batch
    costs PostgreSQL one wake-up, one round trip and one commit (one WAL flush) for all its
    statements, where each statement alone cost one of each; and few connections are few
    backends taking turns on the machine's cores. Each statement keeps its own meaning: the
    conditional update that finds another version writes nothing and is a 409, whatever the
    other statements of its batch do, and two statements on one game in one batch see each
    other as if run one after the other. If any statement of a batch fails (an error, not a
    409), the transaction is rolled back, nothing of it was acknowledged, and each statement
    is run again alone, so that only the one that fails gets its error.

    Up to ``size`` (:func:`pg_connections`) connections (:class:`PgWire`), opened when
    needed; a connection that fails is closed (the actions of its batch are answered 503) and
    the next batch opens a new one. A statement that waits longer than ``wait`` seconds for a
    connection (by default :func:`~reussite.web.storage.db_deadline`) is a 503 too, and so is
    a batch not answered within that deadline (:meth:`PgWire.run_batch`).
    """

    sql = PG

    def __init__(self, url: str, size: int | None = None, wait: float | None = None,
                 store: Store | None = None) -> None:
        self.store = store
        """Where a new game's transaction runs (made when first needed if not given)."""
        self._url = url
        if size is None:
            size = pg_connections()
        if wait is None:
            wait = db_deadline()
        engine = make_engine(url)  # only for the dialect's reading of the URL
        args, kwargs = engine.dialect.create_connect_args(make_url(url))
        engine.dispose()
        self._deadline = db_deadline()
        kwargs.setdefault("connect_timeout", connect_timeout())
        kwargs["client_encoding"] = "utf8"
        self._args, self._kwargs = args, kwargs
        self._size = size
        self._wait = wait
        self._idle: list[PgWire] = []
        self._free = size
        """Connections that may still be taken (idle or not opened yet)."""
        self._waiters: collections.deque[asyncio.Future[None]] = collections.deque()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._queue: collections.deque[Job] = collections.deque()
        self._dispatching = False
        self._expiry: asyncio.TimerHandle | None = None
        self._sending: set[asyncio.Task[None]] = set()
        """The batches in flight (the loop keeps only weak references to tasks)."""
        self.batches = 0
        self.statements = 0
        """Batches sent and the statements in them (for the benchmarks)."""

    def _on(self, loop: asyncio.AbstractEventLoop) -> None:
        """Connections belong to one event loop (a test client may start several in turn)."""
        self._loop, self._idle, self._free = loop, [], self._size
        self._waiters = collections.deque()
        self._queue = collections.deque()
        self._dispatching = False
        self._expiry = None
        self._sending = set()

    async def _connect(self) -> PgWire:
        conn = await psycopg.AsyncConnection.connect(*self._args, autocommit=True,
                                                     **self._kwargs)
        return PgWire(conn, asyncio.get_running_loop(), self._deadline)

    # The connections: lent to one work at a time (a batch), at most ``size`` at once.

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
        """The place to the first work waiting for one, else to the queued statements, else
        to the free ones."""
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)
                return
        self._free += 1
        if self._queue:
            self._dispatch()

    async def _run(self, work: Callable[..., Awaitable[T]], *args: Any) -> T:
        """``await work(connection, *args)`` on a connection of the pool."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            self._on(loop)
        await self._take(loop)
        return await self._lent(work, *args)

    async def _lent(self, work: Callable[..., Awaitable[T]], *args: Any) -> T:
        """``await work(connection, *args)``, a place being taken; the place given back."""
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

    # The statements: queued, then sent in batches.

    def _submit(self, stmt: Statement, params: dict[str, Any]) -> asyncio.Future[Any]:
        """``stmt``'s result when its batch is committed (a future of the running loop)."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            self._on(loop)
        fut: asyncio.Future[Any] = loop.create_future()
        self._queue.append((stmt, stmt.values(params), fut, loop.time()))
        if not self._dispatching:
            # Sent once the loop has run what is ready now: the statements of the other
            # requests that came in the same turn join the batch.
            self._dispatching = True
            loop.call_soon(self._dispatch)
        return fut

    def _dispatch(self) -> None:
        """What is queued, to the free connections (all of it to the first one, up to
        MAX_BATCH a batch)."""
        self._dispatching = False
        queue, loop = self._queue, self._loop
        assert loop is not None
        while queue and self._free > 0:
            batch: list[Job] = []
            while queue and len(batch) < MAX_BATCH:
                job = queue.popleft()
                if not job[2].done():  # not cancelled meanwhile
                    batch.append(job)
            if batch:
                self._free -= 1
                task = loop.create_task(self._send(batch))
                self._sending.add(task)
                task.add_done_callback(self._sending.discard)
        if not queue:
            if self._expiry is not None:
                self._expiry.cancel()
                self._expiry = None
        elif self._expiry is None:
            self._expiry = loop.call_later(self._wait, self._expire)

    def _expire(self) -> None:
        """The statements that waited ``wait`` seconds for a connection: 503."""
        self._expiry = None
        queue, loop = self._queue, self._loop
        assert loop is not None
        limit = loop.time() - self._wait
        while queue and queue[0][3] <= limit:
            fut = queue.popleft()[2]
            if not fut.done():
                fut.set_exception(Unavailable("every connection stayed busy"))
        if queue:
            self._expiry = loop.call_later(queue[0][3] - limit, self._expire)

    async def _send(self, batch: list[Job]) -> None:
        """One batch on a connection (its place taken by :meth:`_dispatch`)."""
        try:
            await self._lent(self._batch, batch)
        except BaseException as e:  # the connection failed: every statement not answered
            for _stmt, _values, fut, _t in batch:
                if fut.done():
                    continue
                if isinstance(e, asyncio.CancelledError):
                    fut.cancel()
                else:
                    fut.set_exception(Unavailable(str(e)) if isinstance(e, Unavailable) else e)

    async def _batch(self, conn: PgWire, batch: list[Job]) -> None:
        results = await conn.run_batch([(job[0], job[1]) for job in batch])
        self.batches += 1
        self.statements += len(batch)
        if len(batch) > 1 and any(isinstance(r, Exception) for r in results):
            # Rolled back: each statement again alone (a request cancelled meanwhile is not
            # answered, and nothing of it was written: it is left out).
            results = []
            for stmt, values, fut, _t in batch:
                results.append((await conn.run_batch([(stmt, values)]))[0]
                               if not fut.done() else None)
        for (_stmt, _values, fut, _t), res in zip(batch, results, strict=True):
            if fut.done():
                continue
            if isinstance(res, psycopg.OperationalError):
                fut.set_exception(Unavailable(type(res).__name__))
            elif isinstance(res, Exception):
                fut.set_exception(res)
            else:
                fut.set_result(res)

    # What the actions call, in their greenlet (see run_on_loop): the reads and writes of
    # GameStatements, each statement waiting for its batch with await_only.

    def _one(self, stmt: Statement, params: dict[str, Any]) -> Any:
        res = await_only(self._submit(stmt, params))
        return stmt.row(res, 0) if res.ntuples else None

    def _all(self, stmt: Statement, params: dict[str, Any]) -> list[Any]:
        res = await_only(self._submit(stmt, params))
        return [stmt.row(res, i) for i in range(res.ntuples)]

    def _transaction(self, writes: Callable[[Execute, Query], T]) -> T:
        """Here a statement is a transaction of its own (autocommit, in a batch): the writes
        are a single statement (a change, several writes elsewhere, is one here:
        :meth:`commit`)."""
        count = 0

        def execute(stmt: Statement, params: dict[str, Any]) -> int:
            nonlocal count
            count += 1
            if count > 1:
                raise AssertionError("one statement a transaction on PostgreSQL")
            rows: int = await_only(self._submit(stmt, params)).command_tuples
            return rows

        def query(stmt: Statement, params: dict[str, Any]) -> list[Any]:
            raise AssertionError("no read in a transaction on PostgreSQL's hot path")

        return writes(execute, query)

    def commit(self, row: GameRow, change: Change) -> GameRow | None:
        values, params = commit_values(row, change)
        seq = change.cursor - 1
        cut = False
        if change.append is not None:
            params.update(seq=seq, move=change.append)
            cut = row.length > seq  # the usual move has nothing to cut
        stmt = change_statement(change.won, change.append is not None, cut,
                                change.tally is not None)
        res = await_only(self._submit(stmt, params))
        return row_after(row, values) if res.command_tuples == 1 else None

    # A new game's transaction (a read, then writes that depend on it) is not one statement:
    # it runs through the store, in a thread, the event loop free meanwhile. A game is dealt
    # far less often than a move is played.

    def create_game(self, new: NewGame, max_in_play: int) -> GameRow:
        row: GameRow = await_only(asyncio.to_thread(self._store().create_game, new,
                                                    max_in_play))
        return row

    def take_pooled(self, game: str) -> int | None:
        number: int | None = await_only(asyncio.to_thread(self._store().take_pooled, game))
        return number

    def _store(self) -> Store:
        if self.store is None:
            self.store = Store(self._url)
        return self.store


class _Worker(greenlet.greenlet):  # type: ignore[misc]
    """A greenlet that runs one action after another (see :func:`run_on_loop`);
    :func:`await_only` recognises it by this attribute, as it does SQLAlchemy's own."""

    __sqlalchemy_greenlet_provider__ = True


class _Done:
    """What a worker hands back at the end of an action: its value or its exception."""

    __slots__ = ("value", "error")

    def __init__(self) -> None:
        self.value: Any = None
        self.error: BaseException | None = None


def _serve(work: Callable[..., Any], args: tuple[Any, ...]) -> None:
    """A worker's life: each action in turn, its end handed back to whoever switched to it."""
    while True:
        done = _Done()
        try:
            done.value = work(*args)
        except BaseException as e:  # noqa: BLE001 (handed back and raised by run_on_loop)
            done.error = e
        del work, args
        work, args = greenlet.getcurrent().parent.switch(done)


_workers = threading.local()
"""Each thread's idle workers (a greenlet belongs to the thread that made it)."""
_IDLE_WORKERS = 64


async def run_on_loop(work: Callable[..., T], *args: Any) -> T:
    """``work(*args)``, a plain function whose statements wait with ``await_only`` (as
    :class:`PostgresGames`'s do), run in a greenlet on the event loop.

    As SQLAlchemy's ``greenlet_spawn``, but the greenlets are kept and used again: a new
    greenlet's first call gets a Python frame stack of its own (a 16 KiB ``mmap``, then a
    ``munmap`` when it ends), which cost two system calls and their page faults a request."""
    idle: list[_Worker] | None = getattr(_workers, "idle", None)
    if idle is None:
        idle = _workers.idle = []
    worker = idle.pop() if idle else _Worker(_serve)
    driver = greenlet.getcurrent()
    worker.parent = driver
    worker.gr_context = driver.gr_context  # the request's context variables
    result = worker.switch(work, args)
    while not isinstance(result, _Done):
        try:
            value = await result
        except BaseException:
            result = worker.throw(*sys.exc_info())
        else:
            result = worker.switch(value)
    if len(idle) < _IDLE_WORKERS:
        idle.append(worker)
    if result.error is not None:
        error, result.error = result.error, None
        raise error
    value, result.value = result.value, None
    return value  # type: ignore[no-any-return]
