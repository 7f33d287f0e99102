"""Request floods: a token bucket per player, answered with 429 and ``Retry-After``.

Each player (the id of a valid cookie) has a bucket of ``burst`` requests that refills at
``burst / period`` requests a second: a person clicking as fast as a person can never meets
it, and a script hammering the site is slowed to that rate while every other player goes on
as before. Requests without a valid cookie (a new visitor, or someone throwing the cookie away
to dodge the limit) share a bucket per client address, larger, since a first visit from
behind one address (an office, a school) may be many people.

Set with ``REUSSITE_RATE_LIMIT`` (``"600/10"``: 600 requests per 10 seconds per player, the
default) and ``REUSSITE_RATE_LIMIT_ANONYMOUS`` (``"3000/10"``); ``"off"`` disables one.

The buckets live in the process's memory, deliberately: they are not game state (losing them
loses nothing), and checking them costs no round trip to a database on every request. With N
processes behind a round-robin proxy, a flood spreads over them and each process lets through
its own share, so one player gets at most N times the limit: still bounded, and the proxy
(``limit_req`` in nginx) is the place for a site-wide limit across machines.
"""

from __future__ import annotations

import json
import math
import os
import time
from dataclasses import dataclass

from starlette.types import ASGIApp, Receive, Scope, Send

DEFAULT_PLAYER_LIMIT = "600/10"
DEFAULT_ANONYMOUS_LIMIT = "3000/10"
MAX_KEYS = 100_000


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

    def take(self, key: str, now: float | None = None) -> float:
        """Take one token: 0.0 if granted, else the seconds until one is there."""
        now = time.monotonic() if now is None else now
        tokens, last = self._state.get(key, (self.rate.burst, now))
        tokens = min(self.rate.burst, tokens + (now - last) * self.rate.per_second)
        if tokens >= 1:
            self._state[key] = (tokens - 1, now)
            if len(self._state) > self.max_keys:
                self._prune(now)
            return 0.0
        self._state[key] = (tokens, now)
        return (1 - tokens) / self.rate.per_second

    def _prune(self, now: float) -> None:
        """Forget full buckets (idle long enough); if still too many, the oldest half."""
        full = self.rate.period
        self._state = {k: v for k, v in self._state.items() if now - v[1] < full}
        if len(self._state) > self.max_keys:
            keep = sorted(self._state.items(), key=lambda kv: kv[1][1])[len(self._state) // 2:]
            self._state = dict(keep)


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


class RateLimit:
    """ASGI middleware, placed inside :class:`reussite.web.edge.Edge` (which names the player)."""

    def __init__(self, app: ASGIApp, player: Rate | None = None,
                 anonymous: Rate | None = None) -> None:
        self.app = app
        self.players = None if player is None else Buckets(player)
        self.anonymous = None if anonymous is None else Buckets(anonymous)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            state = scope.get("state", {})
            if state.get("player_known"):
                buckets, key = self.players, str(state.get("player"))
            else:
                client = scope.get("client")
                buckets, key = self.anonymous, str(client[0] if client else "?")
            wait = 0.0 if buckets is None else buckets.take(key)
            if wait > 0:
                await self.refuse(scope, send, wait)
                return
        await self.app(scope, receive, send)

    @staticmethod
    async def refuse(scope: Scope, send: Send, wait: float) -> None:
        seconds = max(1, math.ceil(wait))
        detail = f"Too many requests: wait {seconds} s and try again"
        path: str = scope.get("path", "")
        if path.startswith("/api/"):
            body, ctype = json.dumps({"detail": detail}).encode(), b"application/json"
        else:
            body, ctype = detail.encode(), b"text/plain; charset=utf-8"
        await send({"type": "http.response.start", "status": 429, "headers": [
            (b"content-type", ctype), (b"content-length", str(len(body)).encode()),
            (b"retry-after", str(seconds).encode()), (b"cache-control", b"no-store")]})
        await send({"type": "http.response.body", "body": body})
