"""The hot path's PostgreSQL driver (reussite.web.hotdb.PostgresGames) against the store.

The driver runs the store's statements through libpq's asynchronous calls, prepared once per
connection, with parameters and columns in PostgreSQL's text format: every row it reads must
be the row the store (SQLAlchemy) reads, every change it commits the change the store would
have made, and a stale version must write nothing.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any, TypeVar

import pytest
from sqlalchemy.util import await_only
from webtools import run_async

from reussite.web.hotdb import (
    _PARAM_TYPES,
    PostgresGames,
    SqliteGames,
    Statement,
    _param,
    change_statement,
    run_on_loop,
)
from reussite.web.storage import Change, GameRow, NewGame, Store, Unavailable

T = TypeVar("T")
KINDS = ("klondike", "spider", "athena")


def test_statement_numbers_each_name_once_with_its_type() -> None:
    s = Statement("UPDATE games SET used_undo = (used_undo OR :new_used_undo), "
                  "won_used_undo = (used_undo OR :new_used_undo) WHERE id = :gid "
                  "AND version = :seen")
    assert s.sql == (b"UPDATE games SET used_undo = (used_undo OR $1), "
                     b"won_used_undo = (used_undo OR $1) WHERE id = $2 AND version = $3")
    assert s.names == ("new_used_undo", "gid", "seen")
    assert s.types == [16, 25, 23]
    assert s.values({"new_used_undo": True, "gid": "ab", "seen": 7, "other": 1}) == \
        [b"t", b"ab", b"7"]
    # Every parameter of the move statement has a type (none left for the server to guess).
    assert all(n in _PARAM_TYPES for n in change_statement(True, True, True, True).names)
    assert Statement("SELECT 1").name != Statement("SELECT 1").name


def test_parameters_in_text_format() -> None:
    assert _param(None) is None
    assert _param(True) == b"t" and _param(False) == b"f"
    assert _param(0) == b"0" and _param(-12) == b"-12" and _param(2**62) == str(2**62).encode()
    assert _param("été 3") == "été 3".encode()
    with pytest.raises(TypeError):
        _param(1.5)


@pytest.fixture(scope="module")
def store(postgres_url: str) -> Iterator[Store]:
    s = Store(postgres_url)
    s.migrate()
    yield s
    s.dispose()


def on_loop(db: PostgresGames, work: Callable[..., T], *args: Any) -> T:
    async def go() -> T:
        return await run_on_loop(work, *args)

    return run_async(go())


def change(row: GameRow, *, cursor: int, length: int, append: str | None = None,
           won: bool = False, undo: bool = False) -> Change:
    return Change(cursor=cursor, length=length, status="won" if won else "playing",
                  elapsed_ms=row.elapsed_ms + 1234, used_undo=row.used_undo or undo,
                  used_hint=row.used_hint, append=append, won=won)


@pytest.mark.postgres
def test_the_driver_reads_and_writes_what_the_store_does(store: Store, postgres_url: str
                                                         ) -> None:
    db = PostgresGames(postgres_url, size=2)
    gid = secrets.token_urlsafe(12)
    created = on_loop(db, db.create_game,
                      NewGame(gid, "player-1", "klondike", 2**64 - 1, "playing"), 50)
    assert store.get_game(gid, "player-1") == created
    assert on_loop(db, db.get_game, gid, "player-1") == created
    assert on_loop(db, db.get_game, gid, "player-2") is None  # another player's game
    assert on_loop(db, db.unfinished, "player-1", 5) == store.unfinished("player-1", 5) \
        == [created]
    assert on_loop(db, db.unfinished, "player-2", 5) == []

    # Three moves (one statement each), then a stale one: nothing written.
    row = created
    for k, text in enumerate(["stock", "t1 t2 1", "w f1 1"]):
        after = on_loop(db, db.commit, row, change(row, cursor=k + 1, length=k + 1,
                                                   append=text))
        assert after is not None and after.version == row.version + 1
        assert store.get_game(gid, "player-1") == after
        row = after
    assert on_loop(db, db.commit, created, change(created, cursor=1, length=1,
                                                  append="stock")) is None
    assert store.get_game(gid, "player-1") == row
    assert on_loop(db, db.line, gid, 3) == store.line(gid, 3) == ["stock", "t1 t2 1", "w f1 1"]
    assert on_loop(db, db.line, gid, 2) == ["stock", "t1 t2 1"]

    # An undo (no move written), then a move that cuts the line: one statement each.
    row = on_loop(db, db.commit, row, change(row, cursor=2, length=3, undo=True))
    assert row is not None and row.used_undo and store.get_game(gid, "player-1") == row
    stale = row
    row = on_loop(db, db.commit, row, change(row, cursor=3, length=3, append="t3 t4 2"))
    assert row is not None and store.line(gid, 3) == ["stock", "t1 t2 1", "t3 t4 2"]
    # The same cut at a stale version: refused, the line untouched.
    assert on_loop(db, db.commit, stale, change(stale, cursor=3, length=3,
                                                append="t5 t6 1")) is None
    assert store.line(gid, 3) == ["stock", "t1 t2 1", "t3 t4 2"]
    # Two undos, then a move that cuts two moves of the line: one statement; the move
    # written over seq 1, seq 2 deleted, in the same transaction.
    row = on_loop(db, db.commit, row, change(row, cursor=2, length=3, undo=True))
    row = on_loop(db, db.commit, row, change(row, cursor=1, length=3, undo=True))
    assert row is not None and row.cursor == 1
    row = on_loop(db, db.commit, row, change(row, cursor=2, length=2, append="t7 t8 1"))
    assert row is not None and store.get_game(gid, "player-1") == row
    assert store.line(gid, 10) == ["stock", "t7 t8 1"]
    # Back to three moves, as the rest of the test wants them.
    row = on_loop(db, db.commit, row, change(row, cursor=3, length=3, append="t3 t4 2"))
    assert row is not None and store.line(gid, 10) == ["stock", "t7 t8 1", "t3 t4 2"]

    # The hint flag, then a won game: the won_* columns (NULL until now) read back.
    on_loop(db, db.mark_hint, row)
    row = store.get_game(gid, "player-1")
    assert row is not None and row.used_hint and row.won_at is None
    assert on_loop(db, db.get_game, gid, "player-1") == row
    won = on_loop(db, db.commit, row, change(row, cursor=4, length=4, append="w f2 1",
                                             won=True))
    assert won is not None and won.won_at is not None and won.won_used_hint is True
    assert won.won_used_undo is True and won.won_moves == 4
    assert store.get_game(gid, "player-1") == won == on_loop(db, db.get_game, gid, "player-1")
    assert on_loop(db, db.unfinished, "player-1", 5) == store.unfinished("player-1", 5) == []


def test_the_sqlite_driver_reads_and_writes_what_the_store_does(sqlite_url: str) -> None:
    """The event loop's SQLite connection runs the store's statements, compiled for sqlite3:
    the same rows read, the same changes written, a stale version refused."""
    store = Store(sqlite_url)
    store.migrate()
    db = SqliteGames(sqlite_url)
    gid = secrets.token_urlsafe(12)
    created = db.create_game(NewGame(gid, "player-1", "spider", 2**64 - 1, "playing"), 50)
    assert store.get_game(gid, "player-1") == created == db.get_game(gid, "player-1")
    assert db.get_game(gid, "player-2") is None
    assert db.unfinished("player-1", 5) == store.unfinished("player-1", 5) == [created]
    assert db.unfinished("player-2", 5) == []
    row = created
    for k, text in enumerate(["stock", "t1 t2 1", "w f1 1"]):
        after = db.commit(row, change(row, cursor=k + 1, length=k + 1, append=text))
        assert after is not None and store.get_game(gid, "player-1") == after
        row = after
    assert db.commit(created, change(created, cursor=1, length=1, append="stock")) is None
    assert db.line(gid, 3) == store.line(gid, 3) == ["stock", "t1 t2 1", "w f1 1"]
    # Two undos, then a move that cuts the line.
    row = db.commit(row, change(row, cursor=2, length=3, undo=True))
    assert row is not None
    row = db.commit(row, change(row, cursor=1, length=3, undo=True))
    assert row is not None and row.used_undo
    row = db.commit(row, change(row, cursor=2, length=2, append="t7 t8 1"))
    assert row is not None and store.line(gid, 10) == ["stock", "t7 t8 1"]
    db.mark_hint(row)
    row = store.get_game(gid, "player-1")
    assert row is not None and row.used_hint and db.get_game(gid, "player-1") == row
    won = db.commit(row, change(row, cursor=3, length=3, append="w f2 1", won=True))
    assert won is not None and won.won_used_hint is True and won.won_moves == 3
    assert store.get_game(gid, "player-1") == won == db.get_game(gid, "player-1")
    assert db.unfinished("player-1", 5) == store.unfinished("player-1", 5) == []
    store.dispose()


def terminate(store: Store, pid: int) -> None:
    from sqlalchemy import text

    with store.engine.begin() as conn:
        conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})


@pytest.mark.postgres
def test_a_connection_cut_by_the_server_is_a_503_then_replaced(store: Store,
                                                               postgres_url: str) -> None:
    db = PostgresGames(postgres_url, size=1)
    gid = secrets.token_urlsafe(12)

    async def scenario() -> None:
        row = await run_on_loop(db.create_game, NewGame(gid, "p", "spider", 7, "playing"), 50)
        assert await run_on_loop(db.get_game, gid, "p") == row  # a connection opened
        # Cut while the event loop is busy elsewhere (it cannot notice before the next
        # statement): that statement fails, answered 503, and nothing is half written.
        terminate(store, db._idle[0].pg.backend_pid)
        with pytest.raises(Unavailable):
            await run_on_loop(db.get_game, gid, "p")
        assert await run_on_loop(db.get_game, gid, "p") == row  # a new connection
        # Cut while the connection is idle and the loop runs: the loop sees the connection
        # end, and the next action gets a new one without an error.
        wire = db._idle[0]
        terminate(store, wire.pg.backend_pid)
        for _ in range(100):
            if wire.broken:
                break
            await asyncio.sleep(0.02)
        assert wire.broken
        assert await run_on_loop(db.get_game, gid, "p") == row
        assert db._idle and db._idle[0] is not wire

    run_async(scenario())


class FakeWire:
    broken = False

    async def close(self) -> None:
        self.broken = True


def fake_pool(monkeypatch: pytest.MonkeyPatch, size: int, wait: float) -> tuple[PostgresGames,
                                                                                list[FakeWire]]:
    db = PostgresGames("postgresql+psycopg://nobody@127.0.0.1:1/none", size=size, wait=wait)
    opened: list[FakeWire] = []

    async def connect() -> FakeWire:
        opened.append(FakeWire())
        return opened[-1]

    monkeypatch.setattr(db, "_connect", connect)
    return db, opened


def test_the_pool_lends_at_most_size_connections_first_come_first_served(
        monkeypatch: pytest.MonkeyPatch) -> None:
    db, opened = fake_pool(monkeypatch, size=2, wait=5.0)
    order: list[int] = []
    busy = 0
    most = 0

    async def scenario() -> None:
        async def action(k: int) -> int:
            async def work(conn: Any) -> int:
                nonlocal busy, most
                busy += 1
                most = max(most, busy)
                order.append(k)
                await asyncio.sleep(0.01)
                busy -= 1
                return k

            return await db._run(work)

        assert await asyncio.gather(*(action(k) for k in range(7))) == list(range(7))

    run_async(scenario())
    assert most == 2 and len(opened) == 2 and order == list(range(7))
    assert db._free == 2 and not db._waiters


def test_a_request_that_waits_too_long_for_a_connection_is_a_503(
        monkeypatch: pytest.MonkeyPatch) -> None:
    db, _opened = fake_pool(monkeypatch, size=1, wait=0.05)

    async def scenario() -> None:
        release = asyncio.Event()

        async def hold(conn: Any) -> None:
            await release.wait()

        async def quick(conn: Any) -> str:
            return "done"

        holder = asyncio.ensure_future(db._run(hold))
        await asyncio.sleep(0)
        with pytest.raises(Unavailable):
            await db._run(quick)
        # A waiter cancelled while waiting takes no place with it.
        waiting = asyncio.ensure_future(db._run(quick))
        await asyncio.sleep(0.01)
        waiting.cancel()
        release.set()
        await holder
        assert await db._run(quick) == "done"
        assert db._free == 1 and not any(not w.done() for w in db._waiters)

    run_async(scenario())


def test_the_number_of_connections_comes_from_the_environment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from reussite.web.hotdb import pg_connections

    monkeypatch.delenv("REUSSITE_PG_CONNECTIONS", raising=False)
    assert pg_connections() == 2
    for value, size in (("40", 40), ("0", 2), ("many", 2), ("-3", 2)):
        monkeypatch.setenv("REUSSITE_PG_CONNECTIONS", value)
        assert pg_connections() == size
    monkeypatch.setenv("REUSSITE_PG_CONNECTIONS", "3")
    db = PostgresGames("postgresql+psycopg://nobody@127.0.0.1:1/none")
    assert db._size == db._free == 3


def game_ids(n: int) -> list[str]:
    return [secrets.token_urlsafe(12) for _ in range(n)]


@pytest.mark.postgres
def test_statements_in_flight_together_go_in_one_batch(store: Store, postgres_url: str
                                                       ) -> None:
    db = PostgresGames(postgres_url, size=1)
    gids = game_ids(3)

    async def scenario() -> None:
        # Three kinds of game: a new game of a kind abandons the player's one in play.
        rows = [await run_on_loop(db.create_game, NewGame(g, "p", KINDS[k], k, "playing"), 50)
                for k, g in enumerate(gids)]
        batches, statements = db.batches, db.statements
        # Sent in the same turn of the loop: one batch, one transaction. Two moves on game 0
        # at the same version: the first one wins, the second finds the new version (409).
        first, second, third, late = await asyncio.gather(
            run_on_loop(db.commit, rows[0], change(rows[0], cursor=1, length=1,
                                                    append="stock")),
            run_on_loop(db.commit, rows[1], change(rows[1], cursor=1, length=1,
                                                    append="t1 t2 1")),
            run_on_loop(db.get_game, gids[2], "p"),
            run_on_loop(db.commit, rows[0], change(rows[0], cursor=1, length=1,
                                                    append="t3 t4 1")))
        assert (db.batches - batches, db.statements - statements) == (1, 4)
        assert first is not None and first.version == rows[0].version + 1
        assert second is not None and third == rows[2] and late is None
        assert store.get_game(gids[0], "p") == first and store.line(gids[0], 5) == ["stock"]
        assert store.get_game(gids[1], "p") == second

    run_async(scenario())


@pytest.mark.postgres
def test_a_failing_statement_fails_alone_and_its_batch_is_run_again(store: Store,
                                                                   postgres_url: str) -> None:
    db = PostgresGames(postgres_url, size=1)
    gids = game_ids(2)

    async def scenario() -> None:
        import psycopg

        rows = [await run_on_loop(db.create_game, NewGame(g, "p", KINDS[k], k, "playing"), 50)
                for k, g in enumerate(gids)]
        other = await run_on_loop(db.create_game, NewGame(gids[1] + "x", "q", "klondike", 5,
                                                          "playing"), 50)
        other = await run_on_loop(db.commit, other, change(other, cursor=1, length=1,
                                                           append="stock"))
        assert other is not None
        batches = db.batches
        # A move written over one that exists (a row that says the line is empty) fails: the
        # batch's transaction is rolled back (the moves before it too), then every statement
        # is run alone: each move is written exactly once, only that one fails, with the
        # database's error.
        done = await asyncio.gather(
            run_on_loop(db.commit, rows[0], change(rows[0], cursor=1, length=1,
                                                    append="stock")),
            run_on_loop(db.commit, replace(other, cursor=0, length=0),
                        change(other, cursor=1, length=1, append="t1 t2 1")),
            run_on_loop(db.commit, rows[1], change(rows[1], cursor=1, length=1,
                                                    append="t1 t2 1")),
            return_exceptions=True)
        assert db.batches - batches == 1
        assert isinstance(done[1], psycopg.errors.UniqueViolation)
        for k in (0, 2):
            row = done[k]
            assert isinstance(row, GameRow) and row.version == rows[k // 2].version + 1
            assert store.get_game(row.id, "p") == row
        assert store.line(gids[0], 5) == ["stock"] and store.line(gids[1], 5) == ["t1 t2 1"]
        assert store.line(other.id, 5) == ["stock"]
        # The connection is still good.
        assert await run_on_loop(db.get_game, gids[0], "p") == done[0]

    run_async(scenario())


class HeldWire(FakeWire):
    """A connection whose batches end when the test says so."""

    def __init__(self, release: asyncio.Event) -> None:
        self.release = release
        self.sent: list[int] = []

    async def run_batch(self, jobs: list[Any]) -> list[Any]:
        self.sent.append(len(jobs))
        await self.release.wait()
        return [f"result {k}" for k in range(len(jobs))]


def test_a_statement_that_waits_too_long_for_a_connection_is_a_503(
        monkeypatch: pytest.MonkeyPatch) -> None:
    db = PostgresGames("postgresql+psycopg://nobody@127.0.0.1:1/none", size=1, wait=0.05)
    stmt = Statement("SELECT :gid")

    async def scenario() -> None:
        release = asyncio.Event()
        wire = HeldWire(release)

        async def connect() -> HeldWire:
            return wire

        monkeypatch.setattr(db, "_connect", connect)
        held = db._submit(stmt, {"gid": "a"})
        await asyncio.sleep(0.001)  # sent: the only connection is busy
        waiting = db._submit(stmt, {"gid": "b"})
        cancelled = db._submit(stmt, {"gid": "c"})
        cancelled.cancel()
        with pytest.raises(Unavailable):
            await waiting
        release.set()
        assert await held == "result 0"
        # Queued while the connection was busy: all of them in the next batch.
        more = [db._submit(stmt, {"gid": str(k)}) for k in range(3)]
        assert await asyncio.gather(*more) == ["result 0", "result 1", "result 2"]
        assert wire.sent == [1, 3] and db._free == 1 and not db._queue

    run_async(scenario())


@pytest.mark.postgres
def test_a_batch_whose_commit_fails_is_run_again_statement_by_statement(
        store: Store, postgres_url: str) -> None:
    """An error at the commit itself (a deferred constraint here) comes after every
    statement's own answer: nothing of the batch holds, so nothing may be acknowledged."""
    import psycopg
    from sqlalchemy import text

    with store.engine.begin() as conn:
        conn.execute(text("CREATE TABLE IF NOT EXISTS hotdb_deferred (id text, CONSTRAINT"
                          " hotdb_deferred_once UNIQUE (id) DEFERRABLE INITIALLY DEFERRED)"))
    twice = Statement("INSERT INTO hotdb_deferred (id) SELECT :gid UNION ALL SELECT :gid")
    db = PostgresGames(postgres_url, size=1)
    gid = secrets.token_urlsafe(12)

    async def scenario() -> None:
        row = await run_on_loop(db.create_game, NewGame(gid, "p", "klondike", 3, "playing"), 50)
        moved, failed = await asyncio.gather(
            run_on_loop(db.commit, row, change(row, cursor=1, length=1, append="stock")),
            db._submit(twice, {"gid": gid}), return_exceptions=True)
        assert isinstance(failed, psycopg.errors.UniqueViolation)
        assert isinstance(moved, GameRow) and moved.version == row.version + 1
        assert store.get_game(gid, "p") == moved and store.line(gid, 5) == ["stock"]

    try:
        run_async(scenario())
    finally:
        with store.engine.begin() as conn:
            conn.execute(text("DROP TABLE hotdb_deferred"))


def test_run_on_loop_runs_actions_in_greenlets_used_again() -> None:
    import greenlet

    seen: list[Any] = []

    def action(x: int) -> int:
        seen.append(greenlet.getcurrent())
        fut = asyncio.get_running_loop().create_future()
        asyncio.get_running_loop().call_soon(fut.set_result, x * 2)
        return await_only(fut) + 1

    def failing() -> None:
        fut = asyncio.get_running_loop().create_future()
        asyncio.get_running_loop().call_soon(fut.set_exception, KeyError("k"))
        try:
            await_only(fut)
        except KeyError:
            seen.append("caught inside")
        raise ValueError("out")

    async def scenario() -> None:
        assert await run_on_loop(action, 1) == 3
        with pytest.raises(ValueError, match="out"):
            await run_on_loop(failing)
        assert await run_on_loop(action, 5) == 11
        # Two at once: two greenlets.
        assert await asyncio.gather(run_on_loop(action, 2), run_on_loop(action, 3)) == [5, 7]

    run_async(scenario())
    assert seen[1] == "caught inside" and seen[0] is seen[2]  # the same greenlet again
    assert seen[3] is not seen[4]
