"""Statistics as running totals (docs/statistics.md): what counts, kept in the same
transaction as the game's event, read in a bounded number of rows."""

from __future__ import annotations

import json
import secrets
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from sqlalchemy import delete, func, select, text
from webtools import run_async

from reussite.engine import Move, Position
from reussite.games import get_game
from reussite.solver import solve
from reussite.solver.hints import Hint
from reussite.web import play
from reussite.web.hotdb import PostgresGames, SqliteGames, run_on_loop
from reussite.web.play import Conflict, Tables
from reussite.web.stats import player_stats
from reussite.web.storage import PLAYER_TOTALS, Store, games

WIN = 2
"""A deal of Klondike the solver wins; the tests play its line to win a game."""
KINDS = ("klondike", "spider-1-suit")


@pytest.fixture(scope="module")
def win_line() -> list[Move]:
    result = solve(Position.deal(get_game("klondike"), WIN), time_limit=30)
    assert result.status == "won"
    return result.moves


@pytest.fixture(scope="module")
def sqlite_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    s = Store(f"sqlite:///{tmp_path_factory.mktemp('stats') / 'games.sqlite3'}")
    s.migrate()
    yield s
    s.dispose()


@pytest.fixture(scope="module")
def pg_store(postgres_url: str) -> Iterator[Store]:
    s = Store(postgres_url)
    s.migrate()
    yield s
    s.dispose()


OPS = st.lists(st.one_of(
    st.tuples(st.just("new"), st.sampled_from(KINDS),
              st.sampled_from(["random", "number", "win-random", "win-number"])),
    st.tuples(st.just("move"), st.integers(0, 50)),
    st.tuples(st.just("undo")), st.tuples(st.just("hint")), st.tuples(st.just("win")),
    st.tuples(st.just("switch"), st.integers(0, 50)),
), max_size=25)


Call = Callable[..., Awaitable[Any]]


async def drive(t: Tables, call: Call, store: Store, ops: list[tuple[Any, ...]],
                line: list[Move]) -> tuple[list[tuple[str, str, str]], list[Any]]:
    """Play ``ops`` for a new player; the order in which the games ended (game, origin,
    ending), and the player's game rows at the end."""
    player = secrets.token_hex(8)
    ids: list[str] = []
    ended: dict[str, str | None] = {}
    order: list[tuple[str, str, str]] = []
    current: str | None = None
    for op in ops:
        try:
            if op[0] == "new":
                kind, mode = op[1], op[2]
                number = WIN if mode == "win-number" else 7 if mode == "number" else None
                if mode == "win-random":
                    with mock.patch.object(play.secrets, "randbelow", return_value=WIN):
                        out = await call(t.new_game, player, kind, None)
                else:
                    out = await call(t.new_game, player, kind, number)
                current = out.row.id
                ids.append(current)
            elif current is None:
                continue
            elif op[0] == "switch":
                current = ids[op[1] % len(ids)]
            else:
                out = await call(t.view, player, current)
                row, pos = out.row, out.pos
                if op[0] == "move" and pos.legal_moves():
                    legal = pos.legal_moves()
                    await call(t.move, player, current, legal[op[1] % len(legal)], row.version)
                elif op[0] == "undo" and row.cursor:
                    await call(t.undo, player, current, row.version)
                elif op[0] == "hint" and pos.legal_moves():
                    lo = await call(t.load, player, current)
                    await call(t.hint_given, lo, Hint(lo.pos.raw_moves()[0]))
                elif op[0] == "win" and row.game == "klondike" and row.number == WIN:
                    version = row.version
                    if row.cursor:
                        version = (await call(t.restart, player, current, version)).row.version
                    for m in line:
                        version = (await call(t.move, player, current, m, version)).row.version
        except Conflict:  # an abandoned game takes no action
            pass
        for gid in ids:
            r = store.get_game(gid, player)
            assert r is not None
            if ended.get(gid) is None and r.ended is not None and r.length > 0:
                order.append((r.game, r.origin, r.ended))
            ended[gid] = r.ended
    rows = [store.get_game(gid, player) for gid in ids]
    return order, rows


def recomputed(order: list[tuple[str, str, str]], rows: list[Any]) -> list[dict[str, Any]]:
    """The statistics recomputed from the game rows and the order in which they ended."""
    out = []
    for game, origin in sorted({(r.game, r.origin) for r in rows}):
        mine = [r for r in rows if (r.game, r.origin) == (game, origin)]
        played = [r for r in mine if r.length > 0]
        wins = [r for r in played if r.ended == "won"]
        run = best = 0
        for g, o, how in order:
            if (g, o) == (game, origin):
                run = run + 1 if how == "won" else 0
                best = max(best, run)
        out.append({
            "game": game, "origin": origin, "played": len(played), "won": len(wins),
            "lost": sum(1 for r in played if r.ended in ("lost", "abandoned")),
            "current_streak": run, "best_streak": best,
            "best_ms": min((r.won_ms for r in wins), default=None),
            "fewest_moves": min((r.won_moves for r in wins), default=None),
            "wins_with_undo": sum(1 for r in wins if r.won_used_undo),
            "wins_with_hint": sum(1 for r in wins if r.won_used_hint),
            "wins_unaided": sum(1 for r in wins if not r.won_used_undo and not r.won_used_hint),
        })
    return out


def stored(store: Store, player: str) -> list[dict[str, Any]]:
    keys = ("game", "origin", "played", "won", "lost", "current_streak", "best_streak",
            "best_ms", "fewest_moves", "wins_with_undo", "wins_with_hint", "wins_unaided")
    return sorted(({k: t[k] for k in keys} for t in store.player_totals(player)),
                  key=lambda t: (t["game"], t["origin"]))


async def direct(fn: Callable[..., Any], *args: Any) -> Any:
    return fn(*args)


def check(order: list[tuple[str, str, str]], rows: list[Any], store: Store) -> None:
    if not rows:
        return
    assert stored(store, rows[0].player_id) == recomputed(order, rows)
    in_play = [r for r in rows if r.ended is None]
    assert len({r.game for r in in_play}) == len(in_play)  # one game of a kind in play


SETTINGS = settings(max_examples=12, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])
EXAMPLE: list[tuple[Any, ...]] = [
    ("new", "klondike", "win-random"), ("move", 0), ("hint",), ("win",),  # a win with a hint
    ("new", "klondike", "win-random"), ("move", 1), ("win",),  # restarted: a win with undo
    ("new", "klondike", "win-random"), ("win",),  # unaided
    ("new", "klondike", "number"), ("move", 0),  # abandoned by the next game of its kind
    ("new", "klondike", "win-number"), ("win",),
    ("new", "spider-1-suit", "random"), ("move", 3),  # abandoned by the bound (1)
    ("new", "klondike", "random"), ("move", 2), ("switch", 3), ("move", 0)]
"""One of each event: wins with a hint, with undo, unaided; games abandoned by another game of
their kind and by the bound; an action on an abandoned game."""
ONE_OF_EACH = example(ops=EXAMPLE, bound=1)


@SETTINGS
@ONE_OF_EACH
@given(ops=OPS, bound=st.sampled_from([1, 50]))
def test_running_totals_equal_a_recomputation_on_sqlite(sqlite_store: Store, win_line: list[Move],
                                                        ops: list[Any], bound: int) -> None:
    # The store (a page's, a thread's path) and the hot path's driver on the event loop.
    for t in (Tables(sqlite_store, max_in_play=bound),
              Tables(sqlite_store, max_in_play=bound).using(SqliteGames(sqlite_store.url))):
        order, rows = run_async(drive(t, direct, sqlite_store, ops, win_line))
        check(order, rows, sqlite_store)


@pytest.mark.postgres
@SETTINGS
@ONE_OF_EACH
@given(ops=OPS, bound=st.sampled_from([1, 50]))
def test_running_totals_equal_a_recomputation_on_postgresql(pg_store: Store, postgres_url: str,
                                                            win_line: list[Move],
                                                            ops: list[Any], bound: int) -> None:
    db = PostgresGames(postgres_url, size=1, store=pg_store)
    t = Tables(pg_store, max_in_play=bound).using(db)

    async def scenario() -> tuple[list[tuple[str, str, str]], list[Any]]:
        try:
            return await drive(t, run_on_loop, pg_store, ops, win_line)
        finally:
            for wire in db._idle:
                await wire.close()

    order, rows = run_async(scenario())
    check(order, rows, pg_store)


def test_the_example_covers_each_kind_of_event(sqlite_store: Store, win_line: list[Move]
                                               ) -> None:
    t = Tables(sqlite_store, max_in_play=1)
    order, rows = run_async(drive(t, direct, sqlite_store, EXAMPLE, win_line))
    check(order, rows, sqlite_store)
    stats = {(s["game"], s["origin"]): s for s in
             player_stats(sqlite_store.player_totals(rows[0].player_id))}
    random = stats["klondike", "random"]
    assert (random["played"], random["won"], random["lost"]) == (4, 3, 0)
    # the first, moved before its line was played, was restarted: undo and a hint
    assert (random["wins_with_hint"], random["wins_with_undo"], random["wins_unaided"]) == \
        (1, 2, 1)
    assert random["best_streak"] == 3 and random["fewest_moves"] == len(win_line)
    number = stats["klondike", "number"]
    assert (number["played"], number["won"], number["lost"]) == (2, 1, 1)
    assert number["current_streak"] == 1
    assert stats["spider-1-suit", "random"]["lost"] == 1


def plan_nodes(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield node
    for child in node.get("Plans", ()):
        yield from plan_nodes(child)


@pytest.mark.postgres
def test_statistics_read_a_bounded_number_of_rows_in_postgresqls_plan(pg_store: Store) -> None:
    """One player with 100,000 games, among 20,000 players: the statistics' query reads the
    player's rows of totals through its primary key, and no game."""
    player = "heavy-" + secrets.token_hex(4)
    t = Tables(pg_store)
    t.move(player, t.new_game(player, "klondike", 3).row.id, Move("stock"), 0)
    try:
        with pg_store.engine.begin() as conn:
            conn.execute(text(
                "INSERT INTO games SELECT 'h' || g || :p, :p, 'klondike', g::text, 1, 1, 1, 'lost',"
                " false, false, 0, g, g, NULL, NULL, NULL, NULL, NULL, 'random', true, 'lost'"
                " FROM generate_series(1, 100000) AS g"), {"p": player})
            conn.execute(text(
                "INSERT INTO totals SELECT 'other-' || g || :p, 'klondike', 'random', 1, 0, 1,"
                " 0, 0, NULL, NULL, 0, 0, 0 FROM generate_series(1, 20000) AS g"), {"p": player})
            conn.execute(text("ANALYZE games"))
            conn.execute(text("ANALYZE totals"))
            stmt = PLAYER_TOTALS.params(pid=player)
            compiled = stmt.compile(dialect=conn.dialect, compile_kwargs={"literal_binds": True})
            plan = conn.execute(text(f"EXPLAIN (ANALYZE, FORMAT JSON) {compiled}")).scalar_one()
            count = conn.execute(select(func.count()).where(games.c.player_id == player)
                                 ).scalar_one()
    finally:
        # The schema is the session's: the other tests of this process (the cleanup's among
        # them) must not find 100,000 games here.
        with pg_store.engine.begin() as conn:
            conn.execute(delete(games).where(games.c.player_id == player))
            conn.execute(text("DELETE FROM totals WHERE player_id LIKE 'other-%' || :p"),
                         {"p": player})
    assert count > 100_000
    if isinstance(plan, str):
        plan = json.loads(plan)
    nodes = list(plan_nodes(plan[0]["Plan"]))
    assert {n.get("Relation Name") for n in nodes} - {None} == {"totals"}, nodes
    scans = [n for n in nodes if "Relation Name" in n]
    assert all(n["Node Type"] in ("Index Scan", "Index Only Scan", "Bitmap Heap Scan")
               for n in scans), scans
    assert all(n["Actual Rows"] <= 3 * 21 for n in nodes)  # origins × games: not the games
    rows = pg_store.player_totals(player)
    assert [(r["played"], r["origin"]) for r in rows] == [(1, "number")]


def test_the_migration_backfills_the_totals_from_existing_games(tmp_path: Path) -> None:
    """A database of the first schema: its games' statistics, as they were computed from the
    rows, become the totals; older games in play of a kind are abandoned; numbers stay shown."""
    from importlib import resources

    from alembic import command
    from alembic.config import Config

    store = Store(f"sqlite:///{tmp_path}/old.sqlite3")
    cfg = Config()
    cfg.set_main_option("script_location", str(resources.files("reussite.web") / "migrations"))
    with store.engine.connect() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0001")
        conn.commit()

    def old(n: int, game: str, length: int, status: str, won_ms: int | None = None,
            undo: bool = False) -> dict[str, Any]:
        won = won_ms is not None
        return {"id": f"g{n}", "player_id": "p", "game": game, "number": str(n),
                "version": 1, "cursor": length, "length": length, "status": status,
                "used_undo": undo, "used_hint": False, "elapsed_ms": won_ms or 0,
                "created_at": n, "updated_at": n, "won_at": n if won else None,
                "won_moves": length if won else None, "won_ms": won_ms,
                "won_used_undo": undo if won else None, "won_used_hint": False if won else None}

    rows = [old(1, "klondike", 90, "won", 90_000), old(2, "klondike", 80, "won", 80_000, True),
            old(3, "klondike", 5, "lost"), old(4, "klondike", 70, "won", 70_000),
            old(5, "klondike", 3, "playing"), old(6, "klondike", 4, "playing"),
            old(7, "spider", 0, "playing")]
    with store.engine.begin() as conn:
        for r in rows:
            conn.execute(text(
                "INSERT INTO games VALUES (:id, :player_id, :game, :number, :version, :cursor,"
                " :length, :status, :used_undo, :used_hint, :elapsed_ms, :created_at,"
                " :updated_at, :won_at, :won_moves, :won_ms, :won_used_undo, :won_used_hint)"),
                r)
    store.migrate()
    totals = {(t["game"], t["origin"]): t for t in player_stats(store.player_totals("p"))}
    k = totals["klondike", "random"]
    assert (k["played"], k["won"], k["lost"]) == (6, 3, 2)  # game 6 is still in play
    assert (k["current_streak"], k["best_streak"]) == (0, 2)
    assert k["best_time_seconds"] == 70 and k["fewest_moves"] == 70
    assert (k["wins_with_undo"], k["wins_unaided"]) == (1, 2)
    assert totals["spider", "random"]["played"] == 0
    ended = {r.id: r.ended for r in (store.get_game(f"g{n}", "p") for n in range(1, 8))
             if r is not None}
    assert ended == {"g1": "won", "g2": "won", "g3": "lost", "g4": "won", "g5": "abandoned",
                     "g6": None, "g7": None}
    g6 = store.get_game("g6", "p")
    assert g6 is not None and g6.shown_number == 6 and g6.origin == "random"
    store.dispose()
