"""A player's identity across two ``reussite serve`` processes on one PostgreSQL database: a
code made through one process signs a browser in through the other, once; and a browser
signed out through one process is refused by the other within its check delay
(``REUSSITE_BROWSER_CHECK``), which the test waits for by asking again, not by sleeping it
out blindly."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest
import serverproc
from serverproc import Server, postgres_base

pytestmark = [pytest.mark.postgres, pytest.mark.slow]
CHECK_SECONDS = 1.0


@pytest.fixture(scope="module")
def two_servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Server]]:
    base = postgres_base()
    if base is None:
        pytest.skip("no PostgreSQL on 127.0.0.1:5432 (set REUSSITE_TEST_POSTGRES)")
    env = {"REUSSITE_BROWSER_CHECK": str(CHECK_SECONDS), "REUSSITE_CLEANUP_EVERY": "off",
           "REUSSITE_WINNABLE_POOL": "0"}
    with serverproc.two_servers(tmp_path_factory.mktemp("identity"), "identity",
                                env) as (a, b, _):
        yield a, b


def test_a_code_made_in_one_process_signs_in_through_the_other_once_and_a_sign_out_reaches_both(
        two_servers: tuple[Server, Server]) -> None:
    a, b = two_servers
    with httpx.Client() as first, httpx.Client() as second, httpx.Client() as third:
        view = first.post(f"{a.url}/api/games", json={"game": "klondike", "number": 5}).json()
        r = first.post(f"{a.url}/api/games/{view['id']}/moves",
                       json={"move": view["legal_moves"][0], "version": 0})
        assert r.status_code == 200
        assert first.put(f"{b.url}/api/me", json={"name": "Two Places"}).status_code == 200
        code = first.post(f"{a.url}/api/me/code", json={}).json()["code"]
        r = second.post(f"{b.url}/api/me/sign-in", json={"code": code})
        assert r.status_code == 200 and r.json()["name"] == "Two Places"
        r = third.post(f"{a.url}/api/me/sign-in", json={"code": code})
        assert r.status_code == 422 and "used already" in r.json()["detail"]
        for server in (a, b):
            assert second.get(f"{server.url}/api/games/{view['id']}").status_code == 200
        browsers = first.get(f"{a.url}/api/me/browsers").json()
        other = next(e["id"] for e in browsers if not e["this"])
        assert first.delete(f"{a.url}/api/me/browsers/{other}").status_code == 200
        cookie = second.cookies["reussite_player"]
        # At once in the process that signed it out; in the other within its delay.
        assert httpx.get(f"{a.url}/api/games/{view['id']}",
                         cookies={"reussite_player": cookie}).status_code == 404
        started = time.monotonic()
        while True:
            r = httpx.get(f"{b.url}/api/games/{view['id']}", cookies={"reussite_player": cookie})
            if r.status_code == 404:
                break
            assert r.status_code == 200
            assert time.monotonic() - started < 30, "the sign-out never reached the other process"
            time.sleep(0.1)
        assert "reussite_player=" in r.headers["set-cookie"]  # a fresh player instead
        assert first.get(f"{b.url}/api/games/{view['id']}").status_code == 200
