"""The HTML pages: the catalogue (``/``), one page per game, the statistics, the feedback form.

Server-rendered with Jinja2, one environment per language with its gettext catalogue
installed, so rendering is thread-safe. The game page holds ``#game``, which the browser
client (``/static/js/app.js``) brings to life, and its texts in ``#ui-strings``.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, quote

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from itsdangerous import BadSignature, Signer
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
from starlette.concurrency import run_in_threadpool

from reussite.games import CATALOGUE, SEED_GAMES
from reussite.rules import GameRules
from reussite.web import i18n
from reussite.web.assets import assets
from reussite.web.i18n import (
    DIFFICULTY,
    LANG_COOKIE,
    LANG_NAMES,
    LANGS,
    N_,
    translations,
    ui_strings,
)
from reussite.web.play import Tables
from reussite.web.stats import player_stats
from reussite.web.texts import rules_html

router = APIRouter(include_in_schema=False)

LANG_COOKIE_AGE = 365 * 24 * 3600
MAX_FEEDBACK = 2000
MAX_FORM_FIELDS = 10
"""The feedback form has three fields; a body with more is refused before it is read."""
WEB = resources.files("reussite.web")


@cache
def environment(lang: str) -> Environment:
    env = Environment(loader=FileSystemLoader(str(WEB / "templates")),
                      autoescape=select_autoescape(["html"]),
                      extensions=["jinja2.ext.i18n"], trim_blocks=True, lstrip_blocks=True,
                      auto_reload=False)  # templates ship with the package: no stat a page
    env.globals["static"] = assets().url  # a static file's URL with its content hash
    env.install_gettext_translations(translations(lang), newstyle=True)  # type: ignore[attr-defined]
    return env


def rules_text(game_id: str, lang: str) -> Markup | None:
    """The rules of a game in ``lang`` (else English): an HTML fragment of ours (``texts/``)."""
    try:
        return Markup(rules_html(game_id, lang))
    except FileNotFoundError:
        return None


def lang_of(request: Request) -> str:
    """The page's language: :func:`reussite.web.i18n.lang_of`, the ``lang`` query parameter
    (the language links) first."""
    return i18n.lang_of(request.scope["headers"], request.query_params.get("lang"))


def feedback_signer(request: Request) -> Signer:
    return Signer(request.app.state.signer.secret_keys[-1], salt="reussite.feedback")


def render(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    lang = lang_of(request)
    t = translations(lang)
    context.update(lang=lang, langs=[(code, LANG_NAMES[code], f"{here(request)}?lang={code}")
                                     for code in LANGS],
                   game_name=lambda g: g.names.get(lang, g.name),
                   difficulty=lambda g: t.gettext(DIFFICULTY.get(g.difficulty, g.difficulty)))
    html = environment(lang).get_template(template).render(**context)
    response = HTMLResponse(html, status_code=status)
    response.headers["vary"] = "Accept-Language, Cookie"
    response.headers["cache-control"] = "no-store"
    if request.query_params.get("lang") in LANGS \
            and request.cookies.get(LANG_COOKIE) != lang:
        response.set_cookie(LANG_COOKIE, lang, max_age=LANG_COOKIE_AGE, httponly=True,
                            samesite="lax", secure=request.url.scheme == "https")
    return response


def here(request: Request) -> str:
    """The page's own path, as a link that cannot leave the site: the path of
    ``GET //evil.example/x`` (a 404 page) would be read by the browser as another host's
    address, and so would ``/\\evil.example`` (a backslash is a slash to a browser)."""
    return quote("/" + request.url.path.lstrip("/"))


def error_page(request: Request, status: int, detail: str,
               retry_after: str | None = None) -> HTMLResponse:
    response = render(request, "error.html", status=status, status_code=status, detail=detail)
    if retry_after is not None:
        response.headers["retry-after"] = retry_after
    return response


def tables(request: Request) -> Tables:
    t: Tables = request.app.state.tables
    return t


# The pages are rendered on the event loop (a few milliseconds of Python), their database
# reads in the thread pool: a thread rendering a page would hold the interpreter lock in turns
# with the event loop, and every request of the hot path (reussite.web.fast) would wait for it.

@router.get("/", response_class=HTMLResponse)
async def catalogue_page(request: Request) -> HTMLResponse:
    player: str = request.state.player
    unfinished = await run_in_threadpool(tables(request).recent, player, None, "playing", 5)
    seeds = [CATALOGUE[g] for g in SEED_GAMES]
    relatives = [g for g in CATALOGUE.values() if g.id not in SEED_GAMES]
    resume = [(CATALOGUE[r.game], r) for r in unfinished if r.game in CATALOGUE]
    return render(request, "catalogue.html", seeds=seeds, relatives=relatives, resume=resume)


@router.get("/games/{game_id}", response_class=HTMLResponse)
async def game_page(request: Request, game_id: str) -> HTMLResponse:
    rules: GameRules | None = CATALOGUE.get(game_id)
    if rules is None:
        raise HTTPException(404, "There is no such game")
    lang = lang_of(request)
    player: str = request.state.player
    related = [CATALOGUE[g] for g in rules.related if g in CATALOGUE and g != game_id]
    token = feedback_signer(request).sign(player).decode()
    return render(request, "game.html", rules=rules, related=related,
                  rules_text=rules_text(game_id, lang), ui=ui_strings(lang),
                  csrf=token, feedback=request.query_params.get("feedback"),
                  max_feedback=MAX_FEEDBACK)


@router.get("/stats", response_class=HTMLResponse)
async def stats_page(request: Request) -> HTMLResponse:
    player: str = request.state.player
    rows = player_stats(await run_in_threadpool(tables(request).store.player_totals, player))
    return render(request, "stats.html", stats=[(CATALOGUE[s["game"]], s) for s in rows])


@router.post("/feedback")
async def post_feedback(request: Request) -> Response:
    """The "something odd? tell us" form: a plain form post, with a token bound to the player."""
    body = (await request.body()).decode("utf-8", errors="replace")
    try:
        form = {k: v[0] for k, v in parse_qs(body, max_num_fields=MAX_FORM_FIELDS).items()}
    except ValueError:  # more fields than the form has: not the site's form
        raise HTTPException(400, N_("The form is malformed: reload the page and send it again")
                            ) from None
    player: str = request.state.player
    try:
        ok = feedback_signer(request).unsign(form.get("csrf", "")).decode() == player
    except BadSignature:
        ok = False
    if not ok:
        raise HTTPException(403, N_("The form has expired: reload the page and send it again"))
    game = form.get("game")
    if game not in CATALOGUE:
        game = None
    message = form.get("message", "").replace("\x00", "").strip()
    back = f"/games/{game}" if game else "/"
    if not message or len(message) > MAX_FEEDBACK:
        return RedirectResponse(f"{back}?feedback=invalid#feedback", status_code=303)
    await run_in_threadpool(tables(request).store.add_feedback, player, game,
                            lang_of(request), message)
    return RedirectResponse(f"{back}?feedback=thanks#feedback", status_code=303)

