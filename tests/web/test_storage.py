"""Storage: the migrations build exactly the tables the code uses, and games are safe when
several server processes share one database (two `Tables` with their own caches stand for
two processes here; tests/system/test_restart.py uses real processes)."""

from __future__ import annotations

import threading

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from reussite.engine import Move, Position
from reussite.games import get_game
from reussite.web.play import Conflict, Tables
from reussite.web.storage import Store, metadata


@pytest.fixture(scope="module")
def store(database_url: str) -> Store:
    s = Store(database_url)
    s.migrate()
    return s


def test_migrations_match_the_tables_of_the_code(store: Store) -> None:
    with store.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), metadata)
    assert diff == []


def test_migrating_twice_changes_nothing(store: Store) -> None:
    store.migrate()
    assert store.secret_key() == store.secret_key()


def test_two_processes_take_turns_on_one_game(store: Store) -> None:
    a, b = Tables(store), Tables(store)
    pos = Position.deal(get_game("klondike"), 12)
    out = a.new_game("p", "klondike", 12)
    gid = out.row.id
    version = out.row.version
    for i in range(8):
        server = (a, b)[i % 2]
        move = pos.legal_moves()[0]
        pos.play(move)
        version = server.move("p", gid, move, version).row.version
    version = b.undo("p", gid, version).row.version
    undone = [pos.pop()]
    version = a.undo("p", gid, version).row.version
    undone.append(pos.pop())
    out = b.redo("p", gid, version)
    pos.play(undone.pop())
    assert a.view("p", gid).pos == pos and b.view("p", gid).pos == pos
    out = a.restart("p", gid, out.row.version)
    assert b.view("p", gid).pos == Position.deal(get_game("klondike"), 12)


def test_racing_moves_one_wins_the_other_conflicts(store: Store) -> None:
    a, b = Tables(store), Tables(store)
    out = a.new_game("p", "klondike", 13)
    gid, version = out.row.id, out.row.version
    b.view("p", gid)  # both "processes" have the position cached at version 0
    results: list[str] = []
    barrier = threading.Barrier(2)

    def play(t: Tables) -> None:
        barrier.wait()
        try:
            t.move("p", gid, Move("stock"), version)
            results.append("ok")
        except Conflict:
            results.append("conflict")

    threads = [threading.Thread(target=play, args=(t,)) for t in (a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["conflict", "ok"]
    final = a.view("p", gid)
    assert final.row.version == 1 and final.pos.moves_played == 1
    assert b.view("p", gid).pos == final.pos


def test_an_in_memory_database_keeps_its_games() -> None:
    memory = Store("sqlite://")
    memory.migrate()
    t = Tables(memory)
    out = t.new_game("p", "spider", 3)
    out = t.move("p", out.row.id, out.pos.legal_moves()[0], 0)
    assert Tables(memory).view("p", out.row.id).pos == out.pos


def test_a_process_with_a_stale_cache_answers_409_not_a_wrong_move(store: Store) -> None:
    a, b = Tables(store), Tables(store)
    out = a.new_game("p", "klondike", 14)  # a holds the game at version 0, unread since
    gid = out.row.id
    b.move("p", gid, Move("stock"), 0)  # the other process moves: version 1
    with pytest.raises(Conflict):
        a.move("p", gid, Move("stock"), 0)
    a.new_game("p", "klondike", 15)
    out = a.new_game("p", "klondike", 16)
    gid = out.row.id
    b.move("p", gid, Move("stock"), 0)
    illegal = Move("move", "tableau:0", "stock", 1)
    with pytest.raises(Conflict):  # refused on a stale position: the version is what is wrong
        a.move("p", gid, illegal, 0)
    with pytest.raises(Conflict):
        a.undo("p", gid, 0)


def test_a_hint_noted_by_one_process_is_kept_by_the_other(store: Store) -> None:
    a, b = Tables(store), Tables(store)
    out = a.new_game("p", "klondike", 17)
    gid = out.row.id
    b.hint("p", gid)
    out = a.move("p", gid, Move("stock"), 0)  # a's cached row says no hint was used
    assert store.get_game(gid, "p").used_hint  # type: ignore[union-attr]
    assert a.view("p", gid).row.used_hint
