"""Helpers shared by the web tests."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
from fastapi.testclient import TestClient

JSON = {"content-type": "application/json"}


def new_game(client: TestClient, game: str = "astrocyte", number: int = 7) -> dict[str, Any]:
    r = client.post("/api/games", json={"game": game, "number": number})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


T = TypeVar("T")


def run_async(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(main)`` in a thread of its own: a browser test of the same worker
    (Playwright's sync API) may have left an event loop running in the main thread, where
    ``asyncio.run`` is refused."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, main).result()


def start_server(db_url: str, port: int, log: Path) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    env.pop("REUSSITE_DATABASE_URL", None)
    env.setdefault("REUSSITE_WINNABLE_POOL", "0")  # no background solving beside the tests
    proc = subprocess.Popen(
        [sys.executable, "-m", "reussite", "serve", "--port", str(port), "--db", db_url],
        stdout=log.open("ab"), stderr=subprocess.STDOUT, env=env)
    deadline = time.monotonic() + 90  # a busy machine may take long to start a server
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"the server stopped: {log.read_text()}")
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/catalogue", timeout=1)
            return proc
        except httpx.TransportError:
            time.sleep(0.1)
    proc.kill()
    pytest.fail("the server did not start")


def stored_number(client: TestClient, game_id: str) -> int:
    """The deal number the database holds for a game (which its view may keep secret)."""
    from sqlalchemy import select

    from reussite.web.storage import games

    store = client.app.state.store  # type: ignore[attr-defined]
    with store.engine.connect() as conn:
        return int(conn.execute(select(games.c.number).where(games.c.id == game_id)).scalar_one())
