"""The daily deal served by two ``reussite serve`` processes on one PostgreSQL database: each
prepares the missing day's deal through its own job tier (the first request answered 503 with
Retry-After meanwhile), both deal the same deal, and a win played through both is ranked once
on the leaderboard either process reads."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import serverproc
from serverproc import Server, postgres_base

from reussite.web import daily
from reussite.web.days import today
from reussite.web.play import decode_move
from reussite.web.storage import Store

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


@pytest.fixture(scope="module")
def two_servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Server,
                                                                            str]]:
    base = postgres_base()
    if base is None:
        pytest.skip("no PostgreSQL on 127.0.0.1:5432 (set REUSSITE_TEST_POSTGRES)")
    env = {"REUSSITE_WINNABLE_POOL": "0", "REUSSITE_RATE_LIMIT": "off"}
    with serverproc.two_servers(tmp_path_factory.mktemp("daily"), "daily", env) as servers:
        yield servers


def daily_game(client: httpx.Client, server: Server) -> dict[str, Any]:
    """Today's Klondike deal, asked for again while it is being prepared (503, Retry-After)."""
    deadline = time.monotonic() + 180
    while True:
        r = client.post(f"{server.url}/api/games", json={"game": "klondike", "daily": True})
        if r.status_code != 503 or time.monotonic() > deadline:
            break
        assert "being prepared" in r.json()["detail"] and int(r.headers["retry-after"]) > 0
        time.sleep(1)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def test_two_processes_serve_the_same_daily_deal(two_servers: tuple[Server, Server,
                                                                     str]) -> None:
    a, b, url = two_servers
    with httpx.Client(timeout=30) as one, httpx.Client(timeout=30) as two:
        first = daily_game(one, a)
        second = daily_game(two, b)
        day = today()
        assert first["daily"] == second["daily"] == day
        assert first["piles"] == second["piles"] and first["number"] is None
        assert first["ranked"] and second["ranked"]
        store = Store(url)
        try:
            p = daily.stored(store, "klondike", day)
        finally:
            store.dispose()
        assert p is not None
        view = first
        for i, text in enumerate(p.line):  # the win, each move through the other process
            server = (a, b)[i % 2]
            r = one.post(f"{server.url}/api/games/{view['id']}/moves",
                         json={"move": decode_move(text).to_json(),
                               "version": view["version"]})
            assert r.status_code == 200, r.text
            view = r.json()
        assert view["status"] == "won" and view["number"] is None
        boards = [c.get(f"{s.url}/api/daily/klondike/{day}/leaderboard").json()
                  for c, s in ((one, a), (one, b), (two, a))]
        assert [bd["all"]["count"] for bd in boards] == [1, 1, 1]
        assert boards[0]["all"]["entries"] == boards[1]["all"]["entries"]
        assert boards[0]["all"]["you"]["moves"] == len(p.line)
        assert boards[2]["all"]["you"] is None and not boards[2]["all"]["entries"][0]["you"]
