"""Server benchmark, one process, no network: the cost of one request on each path.

Prints, for SQLite (a temporary file) and PostgreSQL (``REUSSITE_TEST_POSTGRES`` or the local
default; skipped when it does not answer), the mean milliseconds of: a view read from the
cache, a move through the storage layer (engine + one transaction), and a move through the
whole ASGI application (JSON, middleware, routing) with Starlette's test client.
The load test of many players over HTTP is ``bench/load.py``.
Run: ``.venv/bin/python bench/server.py [N]``.
"""

from __future__ import annotations

import os
import secrets
import sys
import tempfile
import time
import warnings

import sqlalchemy

from reussite.engine import Move
from reussite.web.app import create_app

warnings.filterwarnings("ignore", message="Using `httpx`")
from fastapi.testclient import TestClient  # noqa: E402


def measure(url: str, n: int) -> dict[str, float]:
    app = create_app(url)
    tables = app.state.tables
    out = tables.new_game("bench", "klondike", 3)
    t0 = time.perf_counter()
    for _ in range(n):
        tables.view("bench", out.row.id)
    view_ms = (time.perf_counter() - t0) / n * 1000
    t0 = time.perf_counter()
    for _ in range(n):
        out = tables.move("bench", out.row.id, Move("stock"), out.row.version)
    move_ms = (time.perf_counter() - t0) / n * 1000
    with TestClient(app) as client:
        v = client.post("/api/games", json={"game": "klondike", "number": 3}).json()
        t0 = time.perf_counter()
        for _ in range(n):
            v = client.post(f"/api/games/{v['id']}/moves",
                            json={"move": {"type": "stock"}, "version": v["version"]}).json()
        http_ms = (time.perf_counter() - t0) / n * 1000
    app.state.store.dispose()
    return {"view (cached)": view_ms, "move (storage)": move_ms, "move (ASGI app)": http_ms}


def postgres_url() -> tuple[str, sqlalchemy.Engine, str] | None:
    base = os.environ.get("REUSSITE_TEST_POSTGRES",
                          "postgresql+psycopg://postgres@127.0.0.1:5432/test")
    try:
        admin = sqlalchemy.create_engine(base)
        schema = f"bench_{secrets.token_hex(4)}"
        with admin.begin() as conn:
            conn.execute(sqlalchemy.text(f'CREATE SCHEMA "{schema}"'))
    except Exception:
        return None
    return f"{base}?options=-csearch_path%3D{schema}", admin, schema


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    print(f"{'database':<12}{'path':<18}{'ms/request':>12}{'requests/s':>12}")
    with tempfile.TemporaryDirectory() as tmp:
        for path, ms in measure(f"sqlite:///{tmp}/bench.sqlite3", n).items():
            print(f"{'sqlite':<12}{path:<18}{ms:>12.2f}{1000 / ms:>12.0f}")
    pg = postgres_url()
    if pg is None:
        print("postgresql: not reachable, skipped")
        return
    url, admin, schema = pg
    try:
        for path, ms in measure(url, n).items():
            print(f"{'postgresql':<12}{path:<18}{ms:>12.2f}{1000 / ms:>12.0f}")
    finally:
        with admin.begin() as conn:
            conn.execute(sqlalchemy.text(f'DROP SCHEMA "{schema}" CASCADE'))


if __name__ == "__main__":
    main()
