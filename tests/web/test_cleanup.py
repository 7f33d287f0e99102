"""Cleanup (reussite.web.cleanup): exactly the abandoned games past the limit and the ended
games beyond each player's history are removed, never a game in play, never a statistic."""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import pytest
from sqlalchemy import func, select, update

from reussite.engine import Move
from reussite.web.cleanup import DAY_MS, cleanup
from reussite.web.play import Tables
from reussite.web.storage import Store, games, moves, now_ms


@pytest.fixture(scope="module")
def store(database_url: str) -> Iterator[Store]:
    s = Store(database_url)
    s.migrate()
    yield s
    s.dispose()


def age(store: Store, gid: str, days: float, ended: str | None = None) -> None:
    values: dict[str, object] = {"updated_at": now_ms() - int(days * DAY_MS)}
    if ended is not None:
        values["ended"] = ended
    with store.engine.begin() as conn:
        conn.execute(update(games).where(games.c.id == gid).values(**values))


def remaining(store: Store, ids: list[str]) -> set[str]:
    with store.engine.connect() as conn:
        return set(conn.execute(select(games.c.id).where(games.c.id.in_(ids))).scalars())


def move_count(store: Store, gid: str) -> int:
    with store.engine.connect() as conn:
        return int(conn.execute(select(func.count()).where(moves.c.game_id == gid))
                   .scalar_one())


def test_cleanup_removes_exactly_the_old_abandoned_and_the_games_beyond_the_history(
        store: Store) -> None:
    t = Tables(store)
    p = "c-" + secrets.token_hex(6)

    def played(game: str, number: int) -> str:
        gid = t.new_game(p, game, number).row.id
        t.move(p, gid, Move("stock"), 0)
        return gid

    old_abandoned = played("klondike", 1)
    recent_abandoned = played("klondike", 2)  # abandons the first
    in_play_old = played("klondike", 3)  # abandons the second; stays in play
    unplayed_old = t.new_game(p, "spider", 4).row.id  # in play, no move
    age(store, old_abandoned, 8)
    age(store, recent_abandoned, 6)
    age(store, in_play_old, 400)
    age(store, unplayed_old, 400)
    # Ended games of Athena (as if won or stuck), oldest first: the history keeps the newest 2.
    history = []
    for k in range(4):
        gid = played("athena", 10 + k)
        history.append(gid)
    for k, gid in enumerate(history):
        age(store, gid, 30 - k, ended="won" if k % 2 else "lost")
    before = store.player_totals(p)
    assert move_count(store, old_abandoned) == 1

    removed = cleanup(store, abandoned_after=7 * DAY_MS, keep=2, batch=1)

    everything = [old_abandoned, recent_abandoned, in_play_old, unplayed_old, *history]
    assert remaining(store, everything) == {recent_abandoned, in_play_old, unplayed_old,
                                            *history[2:]}
    assert move_count(store, old_abandoned) == 0 and move_count(store, in_play_old) == 1
    assert removed >= 3  # other tests' players may have old games too
    assert store.player_totals(p) == before  # the statistics keep every result
    cleanup(store, abandoned_after=7 * DAY_MS, keep=2)  # a second pass: nothing more of p's
    assert remaining(store, everything) == {recent_abandoned, in_play_old, unplayed_old,
                                            *history[2:]}
    assert t.view(p, in_play_old).row.ended is None


def test_the_cleanup_command_runs_one_pass(tmp_path: object) -> None:
    from typer.testing import CliRunner

    from reussite.cli import app

    url = f"sqlite:///{tmp_path}/games.sqlite3"
    s = Store(url)
    s.migrate()
    t = Tables(s)
    gid = t.new_game("p", "klondike", 1).row.id
    t.move("p", gid, Move("stock"), 0)
    t.new_game("p", "klondike", 2)
    age(s, gid, 30)
    s.dispose()
    r = CliRunner().invoke(app, ["cleanup", "--db", url])
    assert r.exit_code == 0 and r.output.strip() == "1 games removed"
    r = CliRunner().invoke(app, ["cleanup", "--db", url], env={"REUSSITE_ABANDONED_AFTER": "x"})
    assert r.exit_code != 0 and "REUSSITE_ABANDONED_AFTER" in str(r.exception)


def test_cleanup_removes_the_sign_in_codes_a_day_after_they_expired(store: Store) -> None:
    from sqlalchemy import insert

    from reussite.web.storage import sign_in_codes

    tag = secrets.token_hex(6)
    now = now_ms()
    rows = {f"old{tag}": now - 2 * DAY_MS, f"recent{tag}": now - DAY_MS // 2,
            f"live{tag}": now + 600_000}
    with store.engine.begin() as conn:
        conn.execute(insert(sign_in_codes), [
            {"hash": h, "player_id": "p" + tag, "created_at": at - 600_000, "expires_at": at}
            for h, at in rows.items()])
    cleanup(store, now=now)
    with store.engine.connect() as conn:
        left = set(conn.execute(select(sign_in_codes.c.hash).where(
            sign_in_codes.c.player_id == "p" + tag)).scalars())
    assert left == {f"recent{tag}", f"live{tag}"}
    with store.engine.begin() as conn:
        conn.execute(sign_in_codes.delete().where(sign_in_codes.c.player_id == "p" + tag))
