"""The edge of the site: what every request passes through before any route.

- The anonymous player: a random id in a signed, HttpOnly, SameSite=Lax cookie, made on the
  first visit (a missing, forged or tampered cookie gets a fresh id: no other player's games),
  but not on a refusal (:data:`NO_NEW_PLAYER`). The signatures of the Cookie headers seen are
  checked once, those found valid remembered in a bounded memory (:data:`KNOWN_COOKIE_BYTES`).
- The browser: the cookie signs ``player.browser``, a random browser id beside the player's
  (a cookie from before browsers, the player's id alone, names the browser
  :func:`legacy_browser` derives from it). A browser signed out (from another one, or by
  forgetting the player) is refused in every process: its cookie then gets a fresh player.
  Whether a browser is still signed in is asked of the database (``browser_valid``, in a
  thread) at most once every :func:`browser_check_seconds` a browser and process, the answer
  kept meanwhile (:class:`Signed`): the delay a sign-out takes to reach every process.
- A route that signs the browser in as another player (a sign-in code, forgetting the
  player) puts the new ``(player, browser)`` in ``scope["state"]["identity"]``: the answer
  carries its cookie.
  (The size of a request's headers is bounded before it gets here: :mod:`reussite.web.wire`.)
- Cross-site requests: a POST whose ``Sec-Fetch-Site`` or ``Origin`` says it comes from
  another site is refused (403). (API POSTs must also be JSON, 415 otherwise, which a
  cross-site form cannot send without a CORS preflight, never granted: see ``api.json_only``.)
- Bodies are read whole here, up to a limit (413 beyond it), so no route sees a huge payload.
- Security headers on every answer: a Content-Security-Policy without inline scripts, no
  sniffing, no framing, a strict referrer policy.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import secrets
import time
from collections.abc import Callable, Iterable, Mapping
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import urlsplit

import anyio.to_thread
from itsdangerous import BadSignature, Signer
from starlette.types import ASGIApp, Message, Receive, Scope, Send

PLAYER_COOKIE = "reussite_player"
PLAYER_COOKIE_AGE = 2 * 365 * 24 * 3600
MAX_BODY = 32 * 1024
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
NO_NEW_PLAYER = frozenset({429, 503})
"""A request refused (too many, or the site unavailable) mints no player: a client cannot
collect fresh cookies, each with a full bucket of its own, from its refusals."""
KNOWN_COOKIE_BYTES = 2 * 1024 * 1024
"""The Cookie headers remembered (their signature checked once) hold at most this many bytes."""
MAX_KNOWN_COOKIE = 1024
"""A Cookie header longer than this is checked every time, never remembered."""

SECURITY_HEADERS = {
    "content-security-policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
        "form-action 'self'; frame-ancestors 'none'"),
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "same-origin",
    "cross-origin-opener-policy": "same-origin",
}


_SECURITY_RAW = tuple((k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items())
_READ = {k.encode(): k for k in ("cookie", "sec-fetch-site", "origin", "host", "content-length")}
"""The request headers the edge reads (ASGI servers give their names in lower case)."""


def player_signer(secret: str) -> Signer:
    return Signer(secret, salt="reussite.player")


def new_player_id() -> str:
    return secrets.token_urlsafe(16)


def new_browser_id() -> str:
    return secrets.token_urlsafe(12)


def legacy_browser(player: str) -> str:
    """The browser of a cookie that names its player alone (made before browsers were):
    derived from the player's id (one-way), so that it can be listed and signed out."""
    digest = hashlib.sha256(b"reussite.legacy-browser:" + player.encode()).digest()[:12]
    return base64.urlsafe_b64encode(digest).decode()


Identity = tuple[str, str]
"""A cookie's player and browser."""

BROWSER_CHECK_SECONDS = 5.0
MAX_CHECKED = 100_000
"""Browsers whose last answer a process keeps at most (the stale ones dropped first)."""


def browser_check_seconds() -> float:
    """How long a process trusts its last word on a browser: ``REUSSITE_BROWSER_CHECK``
    seconds (5 by default)."""
    text = os.environ.get("REUSSITE_BROWSER_CHECK", "").strip()
    try:
        value = float(text) if text else BROWSER_CHECK_SECONDS
    except ValueError:
        raise ValueError(f"REUSSITE_BROWSER_CHECK is a number of seconds: {text!r}") from None
    if not 0 <= value <= 3600:
        raise ValueError(f"REUSSITE_BROWSER_CHECK is 0 to 3600 seconds: {text!r}")
    return value


class Signed:
    """Which browsers are still signed in, as this process last heard from the database: a
    browser's answer is asked again once it is older than ``ttl`` seconds (in a thread, off
    the event loop); a sign-out made in this process counts at once (:meth:`signed_out`)."""

    def __init__(self, ask: Callable[[str], bool], ttl: float,
                 max_entries: int = MAX_CHECKED) -> None:
        self.ask = ask
        self.ttl = ttl
        self.max_entries = max_entries
        self._seen: dict[str, tuple[bool, float]] = {}

    async def valid(self, browser: str) -> bool:
        now = time.monotonic()
        known = self._seen.get(browser)
        if known is not None and now - known[1] < self.ttl:
            return known[0]
        try:
            ok = await anyio.to_thread.run_sync(self.ask, browser)
        except Exception:
            # The database does not answer: the last word stands (a browser never refused
            # stays in), asked again at the next request. Its answer would fail anyway.
            return known[0] if known is not None else True
        self._keep(browser, ok, time.monotonic())
        return ok

    def signed_out(self, browsers: Iterable[str]) -> None:
        now = time.monotonic()
        for b in browsers:
            self._keep(b, False, now)

    def _keep(self, browser: str, ok: bool, now: float) -> None:
        if len(self._seen) >= self.max_entries and browser not in self._seen:
            self._seen = {b: v for b, v in self._seen.items() if now - v[1] < self.ttl}
            if len(self._seen) >= self.max_entries:
                self._seen.clear()
        self._seen[browser] = (ok, now)


_NO_PLAYER = frozenset({"/favicon.ico", "/manifest.webmanifest"})
"""Paths outside ``/static/`` that are files, not pages: a request for them mints no player."""


class Edge:
    """Pure ASGI middleware (cheap: no per-request objects beyond the headers)."""

    def __init__(self, app: ASGIApp, signer: Signer, max_body: int = MAX_BODY,
                 allowed_origins: Iterable[str] = (), signed: Signed | None = None) -> None:
        self.app = app
        self.signer = signer
        self.max_body = max_body
        self.allowed_origins = frozenset(o.rstrip("/").lower() for o in allowed_origins)
        self.signed = signed
        """Which browsers are signed in (None: every browser is, as in tests of the edge)."""
        self._known: dict[str, Identity] = {}
        """Cookie headers already read whose signature is valid, and the identity each names:
        the same header always gives the same answer, so its signature is checked once.
        Only valid ones (a made-up header costs its sender, not this memory), of at most
        :data:`MAX_KNOWN_COOKIE` bytes, :data:`KNOWN_COOKIE_BYTES` in all."""
        self._known_bytes = 0

    def identity_from_cookie(self, header: str | None) -> Identity | None:
        """The player and browser a Cookie header's signed cookie names (None: none, or
        not validly signed)."""
        if not header or PLAYER_COOKIE not in header:
            return None
        try:
            return self._known[header]
        except KeyError:
            pass
        signed = self._read_cookie(header)
        if signed is None:
            return None
        player, _, browser = signed.partition(".")
        identity = (player, browser or legacy_browser(player))
        if len(header) <= MAX_KNOWN_COOKIE:
            if self._known_bytes + len(header) > KNOWN_COOKIE_BYTES:
                self._known.clear()
                self._known_bytes = 0
            self._known[header] = identity
            self._known_bytes += len(header)
        return identity

    def _read_cookie(self, header: str) -> str | None:
        cookie: SimpleCookie = SimpleCookie()
        try:
            cookie.load(header)
        except Exception:
            return None
        morsel = cookie.get(PLAYER_COOKIE)
        if morsel is None:
            return None
        try:
            return self.signer.unsign(morsel.value).decode("ascii")
        except (BadSignature, UnicodeDecodeError):
            return None

    def cross_site(self, headers: Mapping[str, str], scheme: str = "http") -> str | None:
        """Why a state-changing request is refused as cross-site, or None: another site is
        another scheme, host or port (``scheme`` is the request's own)."""
        site = headers.get("sec-fetch-site")
        if site is not None and site not in ("same-origin", "none"):
            return "Requests from another site are refused"
        origin = headers.get("origin")
        if origin is None:
            return None
        origin = origin.strip().lower().rstrip("/")
        if origin in self.allowed_origins:
            return None
        host = (headers.get("host") or "").lower()
        parts = urlsplit(origin)
        if parts.netloc != host or parts.scheme != scheme:  # "null" has neither
            return "Requests from another site are refused"
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        # The few headers read here, each its first value (as Starlette's Headers.get gives
        # it), in one pass over the raw list.
        headers: dict[str, str] = {}
        for k, v in scope["headers"]:
            if k in _READ and _READ[k] not in headers:
                headers[_READ[k]] = v.decode("latin-1")
        path: str = scope["path"]
        # files fetched without cookies (the manifest) or by the browser alone need no player
        needs_player = not path.startswith("/static/") and path not in _NO_PLAYER
        identity = self.identity_from_cookie(headers.get("cookie"))
        if identity is not None and needs_player and self.signed is not None \
                and not await self.signed.valid(identity[1]):
            identity = None  # signed out: a fresh player
        known = identity is not None
        mint = False
        if identity is None:
            identity = (new_player_id(), new_browser_id())
            mint = needs_player
        state = scope.setdefault("state", {})
        state["player"], state["browser"] = identity
        state["player_known"] = known  # a valid cookie came with the request

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                raw = message["headers"] = list(message.get("headers", ()))
                present = {bytes(k).lower() for k, _ in raw}
                raw.extend(kv for kv in _SECURITY_RAW if kv[0] not in present)
                changed: Identity | None = state.get("identity")
                if changed is not None:
                    raw.append((b"set-cookie", self.player_cookie(changed, scope)))
                elif mint and message["status"] not in NO_NEW_PLAYER:
                    raw.append((b"set-cookie", self.player_cookie(identity, scope)))
            await send(message)

        if scope["method"] not in SAFE_METHODS:
            is_api = path.startswith("/api/")
            why = self.cross_site(headers, scope.get("scheme", "http"))
            if why is not None:
                await self.refuse(send_with_headers, 403, why, is_api)
                return
            declared = headers.get("content-length")
            if declared is not None and (not declared.isdigit()
                                         or int(declared) > self.max_body):
                await self.refuse(send_with_headers, 413, self.too_large(), is_api)
                return
            chunks: list[bytes] = []
            size = 0
            more = True
            while more:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return
                chunk = message.get("body", b"")
                size += len(chunk)
                if size > self.max_body:
                    await self.refuse(send_with_headers, 413, self.too_large(), is_api)
                    return
                chunks.append(chunk)
                more = message.get("more_body", False)
            body = b"".join(chunks)
            state["body"] = body  # for the hot path (reussite.web.fast), read once here
            delivered = False

            async def replay() -> Message:
                nonlocal delivered
                if not delivered:
                    delivered = True
                    return {"type": "http.request", "body": body, "more_body": False}
                return await receive()

            await self.app(scope, replay, send_with_headers)
            return
        await self.app(scope, receive, send_with_headers)

    def player_cookie(self, identity: Identity, scope: Scope) -> bytes:
        secure = "; Secure" if scope.get("scheme") == "https" else ""
        value = self.signer.sign(".".join(identity)).decode()
        return (f"{PLAYER_COOKIE}={value}; Path=/; "
                f"Max-Age={PLAYER_COOKIE_AGE}; HttpOnly; SameSite=Lax{secure}").encode("latin-1")

    def too_large(self) -> str:
        return f"The request body is too large (at most {self.max_body} bytes)"

    @staticmethod
    async def refuse(send: Send, status: int, detail: str, as_json: bool) -> None:
        if as_json:
            body = json.dumps({"detail": detail}).encode()
            ctype = b"application/json"
        else:
            body = detail.encode()
            ctype = b"text/plain; charset=utf-8"
        headers: list[Any] = [(b"content-type", ctype),
                              (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
