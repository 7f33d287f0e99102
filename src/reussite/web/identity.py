"""The player's identity over HTTP (docs/interfaces.md): its name, its browsers, the code
that signs another browser in as the same player, reporting a name, forgetting everything.

The database work runs in the thread pool; the routes themselves run on the event loop, where
the shared rate limit's Redis client lives (the codes tried per address).
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from reussite.web.api import POST_ERRORS, REFUSED, Responses, json_answer, json_only
from reussite.web.edge import Signed, new_browser_id, new_player_id
from reussite.web.errors import BROWSER_THIS, BROWSER_UNKNOWN, CODE_GUESSES, Denied
from reussite.web.i18n import N_, lang_of, translations
from reussite.web.models import (
    BrowserEntry,
    CodeMade,
    Error,
    Forgotten,
    Me,
    NameReport,
    Reported,
    SetName,
    SignIn,
)
from reussite.web.names import shown_name
from reussite.web.players import BrowserRow, Players, grouped
from reussite.web.ratelimit import Rate, RateLimit
from reussite.web.storage import now_ms
from reussite.web.views import dumps

router = APIRouter(prefix="/api", tags=["identity"], dependencies=[Depends(json_only)])

DEFAULT_SIGN_IN_LIMIT = "10/3600"
"""Codes tried per client address (``REUSSITE_SIGN_IN_LIMIT``): ten an hour."""
TOO_MANY: Responses = {429: {"model": Error, "description": "Too many codes tried"}}
NOT_FOUND: Responses = {404: {"model": Error, "description": "No such name or browser"}}
UNKNOWN_AGENT = N_("a browser")
UNKNOWN_SYSTEM = N_("an unknown system")
# TRANSLATORS: a browser in the list of a player's browsers, e.g. "Firefox on Windows".
BROWSER_ON = N_("{agent} on {system}")


def _players(request: Request) -> Players:
    p: Players = request.app.state.players
    return p


def _who(request: Request) -> tuple[str, str]:
    return request.state.player, request.state.browser


def _lang(request: Request) -> str:
    return lang_of(request.scope["headers"])


def _iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).isoformat()


def _me(request: Request, player: str, name: str | None, hidden: bool) -> Response:
    return json_answer(dumps({"name": name, "display_name": shown_name(
        player, name, hidden, _lang(request)), "name_hidden": hidden}))


def _browser_json(request: Request, b: BrowserRow, this: str) -> dict[str, Any]:
    t = translations(_lang(request))
    return {"id": b.id, "description": t.gettext(BROWSER_ON).format(
                agent=b.agent or t.gettext(UNKNOWN_AGENT),
                system=b.system or t.gettext(UNKNOWN_SYSTEM)),
            "agent": b.agent, "system": b.system, "created_at": _iso(b.created_at),
            "last_seen_at": _iso(b.last_seen_at), "this": b.id == this}


@router.get("/me", response_model=Me)
async def me(request: Request) -> Response:
    """The caller's name, and the name other players see."""
    player, _ = _who(request)
    row = await run_in_threadpool(_players(request).get, player)
    return _me(request, player, row.name if row else None, row.name_hidden if row else False)


@router.put("/me", response_model=Me, responses={**REFUSED, **POST_ERRORS})
async def set_name(request: Request, body: SetName) -> Response:
    """Choose a display name (``null``: none); 422 with the rule broken, nothing stored."""
    player, browser = _who(request)
    t = _players(request)
    row = await run_in_threadpool(t.set_name, player, body.name)
    await run_in_threadpool(t.record_browser, player, browser,
                            request.headers.get("user-agent"))
    return _me(request, player, row.name, row.name_hidden)


@router.delete("/me", response_model=Forgotten,
               responses={403: {"model": Error, "description": "A request from another site"}})
async def forget(request: Request) -> Response:
    """Forget everything of the caller: games, statistics, name, reports made, codes; every
    browser of theirs signed out. This browser goes on as a new player."""
    if not request.state.player_known:  # a player named just now has nothing to forget
        return json_answer(dumps({"deleted": 0}))
    player, _ = _who(request)
    t = _players(request)
    signed_in = [b.id for b in await run_in_threadpool(t.browsers, player)]
    counts = await run_in_threadpool(t.forget, player)
    _signed(request).signed_out(signed_in)
    request.state.identity = (new_player_id(), new_browser_id())
    return json_answer(dumps({"deleted": counts["games"]}))


@router.post("/me/code", response_model=CodeMade, status_code=201, responses=POST_ERRORS)
async def make_code(request: Request) -> Response:
    """A code that signs another browser in as the caller: single use, for ten minutes
    (any older code of the caller's stops working)."""
    player, browser = _who(request)
    t = _players(request)
    code, expires = await run_in_threadpool(t.make_code, player)
    await run_in_threadpool(t.record_browser, player, browser,
                            request.headers.get("user-agent"))
    return json_answer(dumps({"code": grouped(code), "expires_at": _iso(expires),
                              "seconds": max(0, round((expires - now_ms()) / 1000))}), 201)


@router.post("/me/sign-in", response_model=Me,
             responses={**REFUSED, **POST_ERRORS, **TOO_MANY})
async def sign_in(request: Request, body: SignIn) -> Response:
    """Sign this browser in as the player whose code it is: the answer's cookie names that
    player and a new browser. 422 for a code malformed, unknown, used or expired; 429 when
    this address has tried too many codes."""
    rate: Rate | None = request.app.state.sign_in_rate
    if rate is not None:
        limit: RateLimit = request.app.state.rate_limit
        address = request.client.host if request.client else "?"
        wait = await limit.take_one(rate, f"code:{address}")
        if wait > 0:
            seconds = math.ceil(wait)
            raise Denied(429, CODE_GUESSES, retry_after=seconds,
                         minutes=math.ceil(seconds / 60))
    old_player, old_browser = _who(request)
    t = _players(request)
    player = await run_in_threadpool(t.redeem, body.code, old_player)
    browser = new_browser_id()
    await run_in_threadpool(t.record_browser, player, browser,
                            request.headers.get("user-agent"))
    if await run_in_threadpool(t.sign_out, old_player, old_browser):
        _signed(request).signed_out([old_browser])
    request.state.identity = (player, browser)
    row = await run_in_threadpool(t.get, player)
    return _me(request, player, row.name if row else None, row.name_hidden if row else False)


def _signed(request: Request) -> Signed:
    signed: Signed = request.app.state.signed
    return signed


@router.get("/me/browsers", response_model=list[BrowserEntry])
async def list_browsers(request: Request) -> Response:
    """The caller's browsers signed in (this one marked ``this``), the last seen first."""
    player, browser = _who(request)
    t = _players(request)
    await run_in_threadpool(t.record_browser, player, browser,
                            request.headers.get("user-agent"))
    rows = await run_in_threadpool(t.browsers, player)
    return json_answer(dumps([_browser_json(request, b, browser) for b in rows]))


@router.delete("/me/browsers/{browser_id}", response_model=list[BrowserEntry],
               responses={**NOT_FOUND, **REFUSED})
async def sign_out(request: Request, browser_id: str) -> Response:
    """Sign another of the caller's browsers out: its cookie is refused from then on (in
    every process within REUSSITE_BROWSER_CHECK seconds). The browsers left."""
    player, browser = _who(request)
    if browser_id == browser:
        raise Denied(422, BROWSER_THIS)
    t = _players(request)
    if not await run_in_threadpool(t.sign_out, player, browser_id[:64]):
        raise Denied(404, BROWSER_UNKNOWN)
    _signed(request).signed_out([browser_id])
    rows = await run_in_threadpool(t.browsers, player)
    return json_answer(dumps([_browser_json(request, b, browser) for b in rows]))


@router.post("/names/report", response_model=Reported,
             responses={**NOT_FOUND, **REFUSED, **POST_ERRORS})
async def report_name(request: Request, body: NameReport) -> Response:
    """Report a name a player shows, for the site's operator to look at (once per reporter
    and name: reporting it again changes nothing); 404 when no player shows it."""
    player, _ = _who(request)
    address = request.client.host if request.client else "?"
    await run_in_threadpool(_players(request).report, player, body.name, address)
    return json_answer(dumps({"reported": True}))

