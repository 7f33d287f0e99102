"""The load test of ``bench/load.py`` in a short, bounded form: a crowd of players (some at a
human pace, most flat out, under the site's default rate limit) plays every game for 1,500
requests against a real server process (bounded by count, with a 90 s safety limit, so that a
slow, shared machine changes how long it takes, not what it checks). No error, and no
acknowledged move lost: each player reads its game back at the end and finds exactly what it
was last answered. (No speed is
asserted here: ``python bench/load.py`` prints the figures.)"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
from serverproc import Server, postgres_base, postgres_schema
from webtools import run_async

from reussite.games import CATALOGUE

pytestmark = pytest.mark.slow
BENCH = Path(__file__).resolve().parents[2] / "bench" / "load.py"


def load_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_load", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def crowd_plays(db: str, log: Path) -> None:
    load = load_module()
    # The limits as the site has them, the load test a trusted proxy (see bench/load.py).
    server = Server(db, log, env={"REUSSITE_RATE_LIMIT": "600/10",
                                  "REUSSITE_RATE_LIMIT_ADDRESS": "3000/10",
                                  **load.TRUSTED}).start()
    try:
        tally, elapsed = run_async(load.run_players(
            "127.0.0.1", server.port, players=24, duration=90.0, max_requests=1500,
            human_share=0.25, seed=5, max_moves=60, human_pause=(0.05, 0.3)))
    finally:
        server.stop()
    print(load.report(tally, elapsed))
    assert tally.errors == []
    assert tally.lost_moves == 0
    assert tally.games_checked >= 24
    assert set(tally.by_game) == set(CATALOGUE)  # every game was played
    assert len(tally.latencies["move"]) >= 100
    assert tally.latencies["undo"] and tally.latencies["hint"]


def test_a_short_crowd_on_sqlite_loses_nothing(tmp_path: Path) -> None:
    crowd_plays(f"sqlite:///{tmp_path / 'games.sqlite3'}", tmp_path / "server.log")


@pytest.mark.postgres
def test_a_short_crowd_on_postgres_loses_nothing(tmp_path: Path) -> None:
    base = postgres_base()
    if base is None:
        pytest.skip("no PostgreSQL on 127.0.0.1:5432 (set REUSSITE_TEST_POSTGRES)")
    with postgres_schema(base, "load") as url:
        crowd_plays(url, tmp_path / "server.log")


@pytest.mark.postgres
def test_the_load_script_creates_the_schema_its_url_names() -> None:
    import secrets

    import sqlalchemy

    base = postgres_base()
    if base is None:
        pytest.skip("no PostgreSQL on 127.0.0.1:5432 (set REUSSITE_TEST_POSTGRES)")
    load = load_module()
    name = f"loadfresh_{secrets.token_hex(5)}"
    sep = "&" if "?" in base else "?"
    url = f"{base}{sep}options=-csearch_path%3D{name}"
    engine = sqlalchemy.create_engine(base)

    def exists() -> bool:
        with engine.connect() as conn:
            return conn.execute(sqlalchemy.text(
                "SELECT count(*) FROM pg_namespace WHERE nspname = :n"), {"n": name}).scalar() == 1

    try:
        assert not exists()
        assert load.ensure_schema(url) == name
        assert exists()
        assert load.ensure_schema(url) == name  # already there: nothing to do, no error
        assert load.ensure_schema(f"sqlite:///{name}.sqlite3") is None
        assert load.ensure_schema(base) is None  # no schema named: the default one
    finally:
        with engine.begin() as conn:
            conn.execute(sqlalchemy.text(f'DROP SCHEMA IF EXISTS "{name}" CASCADE'))
        engine.dispose()
