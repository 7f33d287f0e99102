"""The application factory: ``create_app(database_url)`` gives the ASGI application.

Run it with ``reussite serve``, or under any ASGI server as a factory, several processes on one
PostgreSQL database (``uvicorn --factory reussite.web.app:serving_app --workers 4``, the URL in
``REUSSITE_DATABASE_URL``): no state lives only in a process's memory.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import BaseRoute, Match, Route
from starlette.types import ASGIApp, Receive, Scope, Send

from reussite import __version__
from reussite.web import api, cleanup, daily, hintpool, identity, pages, pool, review, settings
from reussite.web.assets import assets
from reussite.web.edge import Edge, Signed, browser_check_seconds, player_signer
from reussite.web.errors import ERRORS, failure
from reussite.web.fast import FastPath
from reussite.web.jobs import jobs_from_env
from reussite.web.play import Tables
from reussite.web.players import Players
from reussite.web.ratelimit import (
    DEFAULT_ADDRESS_LIMIT,
    DEFAULT_PLAYER_LIMIT,
    RateLimit,
    namespace_of,
    rate_from_env,
)
from reussite.web.storage import Store, default_url


def database_url(explicit: str | None = None) -> str:
    """``explicit``, else ``REUSSITE_DATABASE_URL``, else SQLite in ./data."""
    return explicit or os.environ.get("REUSSITE_DATABASE_URL") or default_url()


def validation_sentence(exc: RequestValidationError) -> str:
    """One readable sentence for pydantic's list of errors (the first one says enough)."""
    errors = exc.errors()
    if not errors:
        return "The request is malformed"
    e = errors[0]
    if e.get("type") == "json_invalid":
        return "The body is not valid JSON"
    loc = [str(p) for p in e.get("loc", ()) if p != "body"]
    if e.get("type") == "missing" and not loc:
        return "A JSON body is required"
    where = ".".join(loc)
    msg = str(e.get("msg", "is invalid")).removeprefix("Value error, ")
    return f"Invalid {where}: {msg}" if where else f"Invalid request: {msg}"


def wants_html(request: Request) -> bool:
    return not request.url.path.startswith(("/api/", "/openapi")) and \
        "text/html" in request.headers.get("accept", "")


def allowed_methods(app: FastAPI, request: Request) -> list[str]:
    """Every method some route takes at this path (Starlette names only the first route's)."""
    def flat(routes: list[BaseRoute]) -> Iterator[BaseRoute]:
        for r in routes:
            included = getattr(r, "original_router", None)  # FastAPI's included routers
            yield from flat(included.routes) if included is not None else (r,)

    methods: set[str] = set()
    for route in flat(app.router.routes):
        match, _ = route.matches(request.scope)
        if match is not Match.NONE:
            methods |= getattr(route, "methods", None) or set()
    return sorted(methods)


class Site(FastAPI):
    """FastAPI with the site's own pure ASGI layers in front (:attr:`front`)."""

    front: ASGIApp | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        scope["app"] = self  # as Starlette sets it, for the layers in front too (request.app)
        if self.front is None:
            await super().__call__(scope, receive, send)
        else:
            await self.front(scope, receive, send)


def create_app(database: str | None = None, *, migrate: bool = True) -> FastAPI:
    url = database_url(database)
    store = Store(url)
    if migrate:
        store.migrate()
    secret = store.secret_key()
    signer = player_signer(secret)

    app = Site(title="Réussite", version=__version__, docs_url=None, redoc_url=None,
                  description="Patience games: play free online, no registration.")
    app.state.store = store
    app.state.tables = Tables(store)
    app.state.signer = signer
    app.state.jobs = jobs_from_env(url)
    app.state.tables.prepare_daily = daily.Asker(app.state.jobs.prepare)
    app.state.players = Players(store, secret)
    app.state.signed = Signed(app.state.players.browser_valid, browser_check_seconds())
    app.state.sign_in_rate = rate_from_env("REUSSITE_SIGN_IN_LIMIT",
                                           identity.DEFAULT_SIGN_IN_LIMIT)
    app.include_router(api.router)
    app.include_router(review.router)
    app.include_router(identity.router)
    app.include_router(pages.router)
    static = assets()
    app.mount("/static", static, name="static")
    app.router.routes += [  # ASGI apps, as routes: Starlette calls them with the scope
        Route("/favicon.ico", static.one("icon.svg"), include_in_schema=False),
        Route("/manifest.webmanifest", static.one("manifest.webmanifest"),
              include_in_schema=False)]
    origins = [o for o in os.environ.get("REUSSITE_ALLOWED_ORIGINS", "").split(",") if o]

    # The site's own layers, in front of FastAPI (and of Starlette's middleware stack, which
    # every request would otherwise cross first): the edge names the player, refuses
    # cross-site requests and adds the security headers; the rate limit inside it, so a 429
    # carries the site's headers too; innermost, the hot path answers the game actions and
    # views without FastAPI's layers, and hands everything else on to FastAPI.
    async def fastapi_app(scope: Scope, receive: Receive, send: Send) -> None:
        await FastAPI.__call__(app, scope, receive, send)

    front: ASGIApp = fastapi_app
    if os.environ.get("REUSSITE_FAST_PATH", "on").lower() not in ("off", "0", "no"):
        front = FastPath(front, tables=app.state.tables, url=url, dialect=store.dialect)
    limit = app.state.rate_limit = RateLimit(
        front, player=rate_from_env("REUSSITE_RATE_LIMIT", DEFAULT_PLAYER_LIMIT),
        address=rate_from_env("REUSSITE_RATE_LIMIT_ADDRESS", DEFAULT_ADDRESS_LIMIT),
        redis_url=os.environ.get("REUSSITE_REDIS_URL") or None,
        namespace=namespace_of(secret))
    app.front = Edge(limit, signer=signer, allowed_origins=origins, signed=app.state.signed)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> Response:
        return JSONResponse({"detail": validation_sentence(exc)}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if wants_html(request):
            return pages.error_page(request, exc.status_code, str(exc.detail))
        detail = exc.detail if isinstance(exc.detail, str) else "The request was refused"
        if exc.status_code == 400 and detail == "There was an error parsing the body":
            # FastAPI's word for a body that is not UTF-8, or JSON nested too deep to read.
            return JSONResponse({"detail": "The body is not valid JSON"}, status_code=422)
        if exc.status_code == 404 and detail == "Not Found":
            detail = "There is nothing at this address"
        headers = getattr(exc, "headers", None)
        if exc.status_code == 405:
            detail = "This method is not allowed here"
            headers = {"allow": ", ".join(allowed_methods(app, request))}
        return JSONResponse({"detail": detail}, status_code=exc.status_code, headers=headers)

    async def failed(request: Request, exc: Exception) -> Response:
        f = failure(exc, request.scope["headers"])
        if f.status == 503 and wants_html(request):
            return pages.error_page(request, 503, "The site is briefly unavailable",
                                    retry_after=f.headers.get("retry-after"))
        return Response(f.body, status_code=f.status, headers=f.headers,
                        media_type="application/json")

    for error in ERRORS:
        app.add_exception_handler(error, failed)
    return app



def serving_app(database: str | None = None) -> FastAPI:
    """:func:`create_app` for a server process (``reussite serve``, or a factory for uvicorn).

    The objects made so far (modules, the application, its routes and models: about 110,000)
    are frozen out of the garbage collector's reach, so that a full collection, which pauses
    every request of the process, walks only the objects made since (about 25,000 under the
    load test) instead of all of them. The hint workers are started here too
    (:func:`reussite.web.hintpool.warm`).
    """
    settings.check()  # a bad setting said now, not in a thread or at a first request
    app = create_app(database)
    gc.collect()
    gc.freeze()
    hintpool.warm()  # the hint workers started now, not at the first hint
    app.state.jobs.start()  # the local pool of analysis workers, started with the site
    cleanup.start(app.state.store)  # old abandoned games removed in the background
    pool.start(app.state.store)  # secret winnable deals proved in the background
    daily.start(app.state.store, app.state.jobs.prepare)  # today's and tomorrow's deals
    return app
