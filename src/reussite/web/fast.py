"""The hot path: a game's actions and its view, answered without FastAPI's layers.

A move, an undo, a redo, a restart and reading a game are nearly every request the site gets.
This pure ASGI middleware (inside :class:`~reussite.web.edge.Edge` and the rate limit, so
the player is named, cross-site requests are refused, bodies are bounded and every answer
carries the security headers) answers them directly, with the very actions of FastAPI's
routes (:mod:`reussite.web.actions`: the same routes, the body checked against the same
model, the same function, the same view; a failure answered by :mod:`reussite.web.errors`).
Anything it does not recognise as a well-formed request of those (another route, another
method, a body that is not JSON or does not fit the model, a content type other than JSON)
goes on to FastAPI unchanged, which answers it exactly as before (its 4xx sentences included),
so this module only ever answers requests that FastAPI would have accepted.

The catalogue (``/``) and the game pages (``/games/{id}``) are served here too, by the very
functions of their FastAPI routes (:mod:`reussite.web.pages`, whose pages are rendered once
and filled in with each player's own parts), the catalogue's read of the player's unfinished
games on the hot path's connection; a page this path cannot serve (an unknown game, the
database failing) goes on to FastAPI, which answers it as before.

Where the action runs: on SQLite, on the event loop's thread itself through
:class:`~reussite.web.hotdb.SqliteGames` (a SQLite write takes tens of microseconds; threads
waking each other and the interpreter lock handed over cost more than the work), and in the
thread pool through the patient store when SQLite's write lock is held elsewhere. On
PostgreSQL, on the event loop too, in a greenlet whose statements are awaited on
asynchronous connections (:class:`~reussite.web.hotdb.PostgresGames`): many actions are in
flight at once, their statements go to PostgreSQL in batches (one round trip and one commit
a batch), and no thread is involved.
"""

from __future__ import annotations

import asyncio
import functools
import re
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import orjson
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from reussite.games import CATALOGUE
from reussite.web import hintpool, pages
from reussite.web.actions import (
    ACTIONS,
    HINT,
    PREFIX,
    Action,
    Route,
    hint_from_elsewhere,
    hint_json,
)
from reussite.web.errors import ERRORS, failure
from reussite.web.hotdb import Busy, PostgresGames, SqliteGames, run_on_loop
from reussite.web.play import Outcome, Tables
from reussite.web.storage import Unavailable, sqlite_busy_ms
from reussite.web.views import view_json

Handler = Callable[[Scope, Send, str], Awaitable[bool]]
T = TypeVar("T")

_JSON = (b"content-type", b"application/json")
GAME_PAGE = re.compile(r"/games/([a-z0-9-]+)")
_NO_STORE = (b"cache-control", b"no-store")


def header(scope: Scope, name: bytes) -> bytes | None:
    for k, v in scope["headers"]:
        if k == name:
            return bytes(v)
    return None


async def respond(send: Send, status: int, body: bytes,
                  extra: tuple[tuple[bytes, bytes], ...] = ()) -> None:
    """An answer with the headers FastAPI's routes give it (a view or a hint: ``no-store``;
    an error: as the application's exception handlers make it)."""
    headers = [(b"content-length", str(len(body)).encode()), _JSON, *extra]
    if status < 400:
        headers.append(_NO_STORE)
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class FastPath:
    """Pure ASGI middleware answering the game actions and views (see the module's text)."""

    def __init__(self, app: ASGIApp, tables: Tables, url: str, dialect: str) -> None:
        self.app = app
        self.tables = tables
        self.loop_tables: Tables | None = None
        self.thread_tables = tables
        self.pg_tables: Tables | None = None
        if dialect == "sqlite" and url.startswith("sqlite:///") and \
                url.removeprefix("sqlite:///") not in ("", ":memory:"):
            self.loop_db: SqliteGames | None = SqliteGames(url)
            self.loop_tables = tables.using(self.loop_db)
        else:
            self.loop_db = None
        if dialect == "postgresql":
            self.pg_db: PostgresGames | None = PostgresGames(url, store=tables.store)
            self.pg_tables = tables.using(self.pg_db)
        else:
            self.pg_db = None
        self.routes: dict[str, list[tuple[re.Pattern[str], Handler]]] = {}
        """For each method, the routes answered here (:mod:`reussite.web.actions`)."""
        handlers: list[tuple[Route, Handler]] = [
            (route, functools.partial(self.act, action)) for route, action in ACTIONS.items()]
        for route, handle in [*handlers, (HINT, self.hint)]:
            self.routes.setdefault(route.method, []).append((route.pattern, handle))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            path: str = scope["path"]
            if path.startswith(PREFIX):
                for pattern, handle in self.routes.get(scope["method"], ()):
                    m = pattern.fullmatch(path)
                    if m is not None:
                        if await handle(scope, send, m[1] if m.lastindex else ""):
                            return
                        break
            elif scope["method"] == "GET" and await self.page(scope, receive, send, path):
                return
        await self.app(scope, receive, send)

    async def page(self, scope: Scope, receive: Receive, send: Send, path: str) -> bool:
        """Answer the catalogue or a game's page and return True; False leaves the request
        to FastAPI (another page, an unknown game, the database failing)."""
        if path == "/":
            state = scope["state"]
            player, known = state["player"], state["player_known"]
            try:
                rows = await self.perform(lambda t: pages.unfinished(t, player, known), False)
            except ERRORS:
                return False  # FastAPI's route tries again, and answers its error page
            response = pages.catalogue(Request(scope), rows)
        else:
            m = GAME_PAGE.fullmatch(path)
            if m is None or m[1] not in CATALOGUE:
                return False
            response = pages.game(Request(scope), m[1])
        await response(scope, receive, send)
        return True

    # ------------------------------------------------------------------ requests

    @staticmethod
    def json_body(scope: Scope) -> Any:
        """The JSON body of an API POST, or None to leave the request to FastAPI."""
        ctype = header(scope, b"content-type")
        if ctype is None or ctype.split(b";")[0].strip().lower() != b"application/json":
            return None
        body = scope.get("state", {}).get("body")
        if body is None:
            return None
        try:
            return orjson.loads(body)
        except orjson.JSONDecodeError:
            return None

    async def act(self, action: Action, scope: Scope, send: Send, game_id: str) -> bool:
        """Answer a well-formed request of ``action`` and return True; False leaves it to
        FastAPI, which says what is wrong with it, in its words."""
        body = None
        if action.model is not None:
            data = self.json_body(scope)
            if data is None:
                return False
            try:
                body = action.model.model_validate(data)
            except (ValidationError, TypeError, ValueError):
                return False
        player: str = scope["state"]["player"]
        run = action.run
        await self.run(scope, send, lambda t: run(t, player, game_id, body), action.status,
                       action.writes)
        return True

    # ------------------------------------------------------------------ running

    async def run(self, scope: Scope, send: Send, work: Callable[[Tables], Outcome],
                  status: int = 200, writes: bool = False) -> None:
        """Perform an action (or read a game) and answer its view, or the error it raises
        as the API says it."""
        try:
            outcome = await self.perform(work, writes)
        except ERRORS as e:
            await self.failed(scope, send, e)
            return
        await respond(send, status, view_json(outcome))

    async def answer(self, scope: Scope, send: Send, produce: Callable[[], Awaitable[bytes]],
                     status: int = 200) -> None:
        """Answer ``await produce()``, or the error it raises as the API says it."""
        try:
            body = await produce()
        except ERRORS as e:
            await self.failed(scope, send, e)
            return
        await respond(send, status, body)

    @staticmethod
    async def failed(scope: Scope, send: Send, e: BaseException) -> None:
        """The answer to one of :data:`~reussite.web.errors.ERRORS`, as FastAPI's exception
        handlers give it."""
        f = failure(e, scope["headers"])
        await respond(send, f.status, f.body,
                      tuple((k.encode(), v.encode()) for k, v in f.headers.items()))

    async def perform(self, work: Callable[[Tables], T], writes: bool) -> T:
        """``work(tables)``: on the event loop (SQLite), else in a thread."""
        if self.loop_tables is not None:
            lock = self.tables.store.write_lock
            if writes and lock is not None:
                await self.acquire(lock)
            try:
                return work(self.loop_tables)  # no await inside: the lock is held briefly
            except Busy:
                pass  # another process holds SQLite's write lock: wait for it in a thread
            finally:
                if writes and lock is not None:
                    lock.release()
        if self.pg_tables is not None:
            return await run_on_loop(work, self.pg_tables)
        return await run_in_threadpool(work, self.thread_tables)

    async def hint(self, scope: Scope, send: Send, game_id: str) -> bool:
        """A hint: the game read, the pool's answer awaited, the hint noted; no thread held
        (the FastAPI route's thread would wait for the pool, then write from a thread)."""
        if not hintpool.has_pool():
            return False  # hints computed in this process: a thread's work, FastAPI's route
        site = header(scope, b"sec-fetch-site")
        if hint_from_elsewhere(None if site is None else site.decode("latin-1")):
            return False  # refused by the FastAPI route, in its words
        player: str = scope["state"]["player"]

        async def produce() -> bytes:
            lo = await self.perform(lambda t: t.load(player, game_id), False)
            given = await hintpool.hint_async(lo.pos)
            _row, move = await self.perform(lambda t: t.hint_given(lo, given), True)
            return hint_json(move, given.reason, scope["headers"])

        await self.answer(scope, send, produce)
        return True

    @staticmethod
    async def acquire(lock: threading.Lock) -> None:
        """Take this process's SQLite write lock without blocking the event loop: a thread
        of the pool holds it for a write of its own (a new hint noted, feedback), briefly."""
        if lock.acquire(blocking=False):
            return
        deadline = time.monotonic() + sqlite_busy_ms() / 1000
        while not lock.acquire(blocking=False):
            if time.monotonic() > deadline:
                raise Unavailable("the database stayed busy")
            await asyncio.sleep(0.0005)

