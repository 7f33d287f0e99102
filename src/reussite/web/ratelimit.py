"""Request floods: token buckets per player and per client address, answered with 429 and
``Retry-After``.

Two rules, each a bucket of ``burst`` requests refilled at ``burst / period`` requests a
second:

- **per player** (the id of a valid cookie), ``REUSSITE_RATE_LIMIT`` (``"600/10"``, the
  default): a person clicking as fast as a person can never meets it, and a script hammering
  the site is slowed to that rate while every other player goes on as before;
- **per client address**, every request from it, with or without a cookie,
  ``REUSSITE_RATE_LIMIT_ADDRESS`` (``"3000/10"``): larger, since many people may share one
  address (an office, a school). New players (requests without a valid cookie) are counted
  here only; so a client that throws its cookie away, or makes new ones to get fresh player
  buckets, is still held to its address's rate. A refused request mints no cookie
  (:class:`~reussite.web.edge.Edge`).

``"off"`` disables a rule. The client's address is the connection's, or, from a trusted proxy
only (:func:`trusted_proxies`), the one it forwards.

Where the buckets live: in the process's memory by default (losing them loses nothing, and
checking them costs no round trip). With several processes (``--workers``, or several
machines), each would keep its own and a client would get N times the limit: set
``REUSSITE_REDIS_URL`` (``redis://127.0.0.1:6379/0``) and the buckets are kept in Redis,
shared by every process of the site, one round trip a request (one Lua script taking from both
buckets at once, on Redis's clock). If Redis fails or does not answer within
:data:`REDIS_TIMEOUT`, the process falls back to its own buckets and tries Redis again
:data:`REDIS_RETRY` seconds later; ``/api/health`` says which is in use (:attr:`RateLimit.store`).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import math
import os
import time
from dataclasses import dataclass
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from reussite.web.i18n import N_, lang_of, translate

log = logging.getLogger("reussite.web")

DEFAULT_PLAYER_LIMIT = "600/10"
DEFAULT_ADDRESS_LIMIT = "3000/10"
MAX_KEYS = 100_000
REDIS_TIMEOUT = 0.25
"""Seconds a request waits for Redis before the process's own buckets answer instead."""
REDIS_RETRY = 5.0
"""Seconds after a failure of Redis before it is tried again."""


@dataclass(frozen=True, slots=True)
class Rate:
    """``burst`` requests at once, refilled over ``period`` seconds."""

    burst: float
    period: float

    @property
    def per_second(self) -> float:
        return self.burst / self.period

    @classmethod
    def parse(cls, text: str) -> Rate | None:
        """``"600/10"`` -> 600 requests per 10 s; ``"off"`` -> None."""
        text = text.strip().lower()
        if text in ("off", "none", "0"):
            return None
        try:
            n, _, s = text.partition("/")
            rate = cls(float(n), float(s or "1"))
        except ValueError:
            raise ValueError(f"A rate limit reads like 600/10 (requests/seconds), not {text!r}"
                             ) from None
        if not (rate.burst >= 1 and rate.period > 0):
            raise ValueError(f"A rate limit needs at least one request per period: {text!r}")
        return rate


class Buckets:
    """Token buckets by key, pruned when there are too many keys."""

    def __init__(self, rate: Rate, max_keys: int = MAX_KEYS) -> None:
        self.rate = rate
        self.max_keys = max_keys
        self._state: dict[str, tuple[float, float]] = {}

    def level(self, key: str, now: float) -> float:
        """The tokens in ``key``'s bucket now."""
        tokens, last = self._state.get(key, (self.rate.burst, now))
        return min(self.rate.burst, tokens + (now - last) * self.rate.per_second)

    def wait(self, tokens: float) -> float:
        """Seconds until a bucket holding ``tokens`` has one (0.0: it has one now)."""
        return 0.0 if tokens >= 1 else (1 - tokens) / self.rate.per_second

    def keep(self, key: str, tokens: float, now: float) -> None:
        self._state[key] = (tokens, now)
        if len(self._state) > self.max_keys:
            self._prune(now)

    def take(self, key: str, now: float | None = None) -> float:
        """Take one token: 0.0 if granted, else the seconds until one is there."""
        return take_all([(self, key)], time.monotonic() if now is None else now)

    def _prune(self, now: float) -> None:
        """Forget full buckets (idle long enough); if still too many, the oldest half."""
        full = self.rate.period
        self._state = {k: v for k, v in self._state.items() if now - v[1] < full}
        if len(self._state) > self.max_keys:
            keep = sorted(self._state.items(), key=lambda kv: kv[1][1])[len(self._state) // 2:]
            self._state = dict(keep)


def take_all(pairs: list[tuple[Buckets, str]], now: float) -> float:
    """One token from each of these buckets if every one has one (0.0), else none taken and
    the seconds until every one has."""
    levels = [b.level(key, now) for b, key in pairs]
    wait = max((b.wait(t) for (b, _), t in zip(pairs, levels, strict=True)), default=0.0)
    spend = 1 if wait == 0 else 0
    for (b, key), t in zip(pairs, levels, strict=True):
        b.keep(key, t - spend, now)
    return wait


# One token from each bucket named in KEYS if every one has one, else none; on Redis's
# clock, so that every process sees the same time. ARGV: for each key, its burst and its
# refill rate (tokens a second). Returns the seconds to wait, as a string (0 when granted).
TAKE_SCRIPT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local levels, wait = {}, 0
for i, key in ipairs(KEYS) do
  local burst, rate = tonumber(ARGV[2 * i - 1]), tonumber(ARGV[2 * i])
  local state = redis.call('HMGET', key, 'tokens', 'at')
  local tokens = tonumber(state[1]) or burst
  local at = tonumber(state[2]) or now
  tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
  levels[i] = tokens
  if tokens < 1 then wait = math.max(wait, (1 - tokens) / rate) end
end
local spend = 0
if wait == 0 then spend = 1 end
for i, key in ipairs(KEYS) do
  local burst, rate = tonumber(ARGV[2 * i - 1]), tonumber(ARGV[2 * i])
  redis.call('HSET', key, 'tokens', tostring(levels[i] - spend), 'at', tostring(now))
  redis.call('PEXPIRE', key, math.ceil(burst / rate * 1000) + 1000)
end
return tostring(wait)
"""


class SharedBuckets:
    """The same buckets in Redis (see the module's text): one client per event loop."""

    def __init__(self, url: str, namespace: str) -> None:
        self.url = url
        self.namespace = namespace
        self._client: Any = None
        self._script: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.down_until = 0.0
        """Until when (``time.monotonic()``) Redis is not tried: it failed."""

    def _for_loop(self) -> Any:
        loop = asyncio.get_running_loop()
        if self._loop is not loop:  # connections belong to one loop (a test client's each)
            from redis.asyncio import Redis

            self._loop = loop
            self._client = Redis.from_url(self.url, socket_timeout=REDIS_TIMEOUT,
                                          socket_connect_timeout=REDIS_TIMEOUT)
            self._script = self._client.register_script(TAKE_SCRIPT)
        return self._script

    async def take(self, pairs: list[tuple[Rate, str]]) -> float:
        script = self._for_loop()
        keys = [f"{self.namespace}:{key}" for _, key in pairs]
        args: list[float] = []
        for rate, _ in pairs:
            args += [rate.burst, rate.per_second]
        # The whole call within the deadline, connecting included (redis-py's socket
        # timeouts bound each read and the connection, not a queue for a connection).
        async with asyncio.timeout(REDIS_TIMEOUT * 2):
            return float(await script(keys=keys, args=args))


def trusted_proxies() -> str:
    """The addresses whose ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed
    (``REUSSITE_TRUSTED_PROXIES``: addresses or networks, comma-separated; none by default,
    so that no client names its own address). uvicorn reads those headers (its
    ``forwarded_allow_ips``, set by ``reussite serve``) and puts the client's address in the
    request: the limits here then count the client, not the proxy."""
    return ",".join(p.strip() for p in os.environ.get("REUSSITE_TRUSTED_PROXIES", "").split(",")
                    if p.strip())


def rate_from_env(name: str, default: str) -> Rate | None:
    return Rate.parse(os.environ.get(name) or default)


def namespace_of(secret: str) -> str:
    """The prefix of a site's keys in Redis: from its secret key (never the key itself), so
    that two sites sharing a Redis never share buckets, and every process of one site does."""
    return "reussite:limit:" + hashlib.sha256(secret.encode()).hexdigest()[:16]


class RateLimit:
    """ASGI middleware, placed inside :class:`reussite.web.edge.Edge` (which names the player)."""

    def __init__(self, app: ASGIApp, player: Rate | None = None,
                 address: Rate | None = None, redis_url: str | None = None,
                 namespace: str = "reussite:limit") -> None:
        self.app = app
        self.players = None if player is None else Buckets(player)
        self.addresses = None if address is None else Buckets(address)
        self.shared = SharedBuckets(redis_url, namespace) if redis_url else None
        self._own: dict[Rate, Buckets] = {}

    @property
    def store(self) -> str:
        """Where the buckets are kept now: ``"redis"``, or ``"memory"`` (this process's)."""
        shared = self.shared
        return "redis" if shared is not None and shared.down_until <= time.monotonic() \
            else "memory"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            state = scope.get("state", {})
            pairs: list[tuple[Buckets, str]] = []
            if self.players is not None and state.get("player_known"):
                pairs.append((self.players, f"p:{state.get('player')}"))
            if self.addresses is not None:
                client = scope.get("client")
                pairs.append((self.addresses, f"a:{client[0] if client else '?'}"))
            shared = self.shared
            if not pairs:
                wait = 0.0
            elif shared is not None and shared.down_until <= time.monotonic():
                wait = await self.take_shared(shared, pairs)
            else:
                wait = take_all(pairs, time.monotonic())
            if wait > 0:
                await self.refuse(scope, send, wait)
                return
        await self.app(scope, receive, send)

    async def take_one(self, rate: Rate, key: str) -> float:
        """One token from ``key``'s bucket of ``rate``, a limit of a route's own (the
        sign-in codes tried per address): 0.0 if granted, else the seconds to wait. Kept in
        Redis with the others when it is in use, else in this process."""
        buckets = self._own.get(rate)
        if buckets is None:
            buckets = self._own[rate] = Buckets(rate)
        pairs = [(buckets, key)]
        shared = self.shared
        if shared is not None and shared.down_until <= time.monotonic():
            return await self.take_shared(shared, pairs)
        return take_all(pairs, time.monotonic())

    @staticmethod
    async def take_shared(shared: SharedBuckets, pairs: list[tuple[Buckets, str]]) -> float:
        """A token from each bucket in Redis; from this process's buckets if Redis fails."""
        try:
            return await shared.take([(b.rate, key) for b, key in pairs])
        except Exception as e:  # any failure of Redis (refused, timed out, an error)
            log.warning("rate limit: Redis unavailable (%s), this process's buckets for %s s",
                        type(e).__name__, REDIS_RETRY)
            shared.down_until = time.monotonic() + REDIS_RETRY
        return take_all(pairs, time.monotonic())

    @staticmethod
    async def refuse(scope: Scope, send: Send, wait: float) -> None:
        seconds = max(1, math.ceil(wait))
        detail = translate(lang_of(scope["headers"]),
                           N_("Too many requests: wait %(seconds)s s and try again")
                           ) % {"seconds": seconds}
        path: str = scope.get("path", "")
        if path.startswith("/api/"):
            body = json.dumps({"detail": detail}, ensure_ascii=False).encode()
            ctype = b"application/json"
        else:
            body, ctype = detail.encode(), b"text/plain; charset=utf-8"
        await send({"type": "http.response.start", "status": 429, "headers": [
            (b"content-type", ctype), (b"content-length", str(len(body)).encode()),
            (b"retry-after", str(seconds).encode()), (b"cache-control", b"no-store")]})
        await send({"type": "http.response.body", "body": body})
