"""The rate limit across processes (issue 26): two server processes sharing Redis refuse past
one limit together; with Redis cut off, each falls back to its own buckets and says so; the
client's address comes from X-Forwarded-For only when a trusted proxy sends it."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from serverproc import Relay, Server, redis_address


@pytest.fixture
def redis() -> tuple[str, int]:
    address = redis_address()
    if address is None:
        pytest.skip("no Redis on 127.0.0.1:6379 (set REUSSITE_TEST_REDIS)")
    return address


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for s in started:
        s.stop()


def statuses(server: Server, count: int, headers: dict[str, str] | None = None) -> list[int]:
    # A new client each time: no cookie, a new player each request (the address counts).
    return [httpx.get(f"{server.url}/api/catalogue", headers=headers).status_code
            for _ in range(count)]


def test_two_processes_sharing_redis_refuse_past_one_limit(
        tmp_path: Path, redis: tuple[str, int], servers: list[Server]) -> None:
    env = {"REUSSITE_REDIS_URL": "redis://{}:{}/0".format(*redis),
           "REUSSITE_RATE_LIMIT_ADDRESS": "40/3600"}  # no refill during the test
    db = f"sqlite:///{tmp_path / 'games.sqlite3'}"  # one site: one secret, one namespace
    for name in ("a", "b"):
        servers.append(Server(db, tmp_path / f"{name}.log", env=env).start())
    for s in servers:
        assert httpx.get(f"{s.url}/api/health").json()["rate_limit"] == "redis"
    a, b = servers
    seen = [code for _ in range(30) for code in statuses(a, 1) + statuses(b, 1)]
    # 40 in all, the two start-ups' and health checks' 4 requests included: 36 left
    assert seen.count(200) == 36 and set(seen[36:]) == {429}
    assert 200 in seen[1::2] and 200 in seen[0::2]  # both answered some of them


def test_redis_cut_off_the_processes_own_limit_takes_over(
        tmp_path: Path, redis: tuple[str, int], servers: list[Server]) -> None:
    relay = Relay(redis)
    relay.restore()
    try:
        server = Server(f"sqlite:///{tmp_path / 'games.sqlite3'}", tmp_path / "server.log",
                        env={"REUSSITE_REDIS_URL": f"redis://127.0.0.1:{relay.port}/0",
                             "REUSSITE_RATE_LIMIT_ADDRESS": "30/3600"}).start()
        servers.append(server)
        health = f"{server.url}/api/health"
        assert httpx.get(health).json()["rate_limit"] == "redis"
        relay.cut()
        t0 = time.monotonic()
        r = httpx.get(health)  # answered all the same, by this process's buckets
        assert r.status_code == 200 and r.json()["rate_limit"] == "memory"
        assert time.monotonic() - t0 < 2
        seen = statuses(server, 40)
        assert 200 in seen and seen[-10:] == [429] * 10  # the process's own limit holds
        relay.restore()
        time.sleep(5.5)  # Redis is tried again 5 s after it failed
        r = httpx.get(health)
        assert r.status_code == 200 and r.json()["rate_limit"] == "redis"
        # Redis's bucket again, not the exhausted one of the process: 3 of 30 taken so far.
        assert statuses(server, 30).count(200) == 27
    finally:
        relay.cut()


def test_x_forwarded_for_is_believed_from_trusted_proxies_only(
        tmp_path: Path, servers: list[Server]) -> None:
    limit = {"REUSSITE_RATE_LIMIT_ADDRESS": "5/3600"}
    direct = Server(f"sqlite:///{tmp_path / 'a.sqlite3'}", tmp_path / "a.log",
                    env=limit).start()
    servers.append(direct)
    # A client naming a new address each time is still counted under its own.
    seen = [statuses(direct, 1, {"x-forwarded-for": f"192.0.2.{i}"})[0] for i in range(10)]
    assert seen.count(429) >= 5
    proxied = Server(f"sqlite:///{tmp_path / 'b.sqlite3'}", tmp_path / "b.log",
                     env={**limit, "REUSSITE_TRUSTED_PROXIES": "127.0.0.1"}).start()
    servers.append(proxied)
    # Behind a trusted proxy, each client is counted under the address it forwards.
    for i in range(3):
        assert statuses(proxied, 5, {"x-forwarded-for": f"192.0.2.{i}"}) == [200] * 5
        assert statuses(proxied, 1, {"x-forwarded-for": f"192.0.2.{i}"}) == [429]
