"""The HTML pages: the catalogue (``/``), one page per game, the statistics, the feedback form.

Server-rendered with Jinja2, one environment per language with its gettext catalogue
installed, so rendering is thread-safe. The game page holds ``#game``, which the browser
client (``/static/js/app.js``) brings to life, and its texts in ``#ui-strings``.

The catalogue and the game pages are rendered once per language (and per static files'
version) and kept (:mod:`reussite.web.pagecache`): what differs from one player to the next
is given as ``personal`` values (the feedback form's token) or rendered in a ``personal_``
block of the template (the player's unfinished games). The same functions answer them from
FastAPI's routes here and from the hot path (:mod:`reussite.web.fast`), which serves them
without FastAPI's layers.
"""

from __future__ import annotations

from collections.abc import Callable
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

from reussite.games import CATALOGUE, CLASSICS, SEED_GAMES
from reussite.rules import GameRules
from reussite.web import daily, i18n
from reussite.web.assets import accepts_gzip, assets
from reussite.web.days import daily_games, next_day, parse_day, today
from reussite.web.i18n import (
    DIFFICULTY,
    LANG_COOKIE,
    LANG_NAMES,
    LANGS,
    N_,
    translations,
    ui_strings,
)
from reussite.web.names import shown_name
from reussite.web.pagecache import PageCache
from reussite.web.play import FUTURE_DAY, NO_DAILY, Tables
from reussite.web.stats import player_stats
from reussite.web.storage import GameRow
from reussite.web.texts import rules_html

router = APIRouter(include_in_schema=False)

LANG_COOKIE_AGE = 365 * 24 * 3600
MAX_FEEDBACK = 2000
MAX_RESUMED = 3
"""The unfinished games the home page offers to continue, at most."""
MAX_FORM_FIELDS = 10
"""The feedback form has three fields; a body with more is refused before it is read."""
FEEDBACK_NOTES = ("thanks", "invalid")
"""What ``?feedback=`` tells the game page after the form was sent; any other value, nothing."""
WEB = resources.files("reussite.web")
PAGES = PageCache()
"""The pages rendered once (:mod:`reussite.web.pagecache`)."""

BLURBS = {
    # One line per game for the home page, in our own words.
    "astrocyte": N_("Two packs, eight piles and four cells: build whole suits and send them"
                    " home."),
    "spider": N_("The great two-pack Spider in four suits: ten piles, runs from King to Ace."),
    "spider-2-suits": N_("Spider with hearts and spades only: the same ten piles, kinder runs."),
    "spider-1-suit": N_("Spider in spades alone: the gentlest way into the game."),
    "leap-year": N_("Four packs and sixteen foundations, built regardless of suit from eight"
                    " reserves."),
    "athena": N_("Klondike with piles dealt down, up, down, up, drawing three at a time."),
    "klondike": N_("The best-known patience: seven piles, one card drawn at a time."),
    "klondike-draw-3": N_("Klondike drawing three cards at a time: fewer cards within reach."),
    "freds-spider": N_("Spider dealt all face up, with foundations built up from the Aces."),
    "auld-lang-syne": N_("One pack, four reserves and the four Aces: an old game, rarely"
                         " won."),
    "quadrennial": N_("Leap Year with two chances more: the reserves are gathered and dealt"
                      " again."),
    "minerva": N_("Athena's harder sister: a reserve of eleven cards, one card drawn, one"
                  " redeal."),
    "freecell": N_("Every card face up, four free cells: nearly every deal can be won."),
    "bakers-dozen": N_("Thirteen piles of four, one card at a time, and no space is ever"
                       " filled."),
    "yukon": N_("Klondike without a stock: any face-up card moves with all the cards on it."),
    "scorpion": N_("Whole suits built in the tableau, as in Spider, from piles moved as in"
                   " Yukon."),
    "forty-thieves": N_("Two packs, ten piles built in suit, one card at a time, one pass"
                        " through the stock."),
    "golf": N_("Seven piles face up, played onto the waste one rank up or down, any suit:"
               " plan the longest chain before turning the stock."),
    "tripeaks": N_("Three peaks over a row of ten, cleared onto the waste one rank up or down,"
                   " King and Ace wrapping: uncover the cards to turn them up."),
}
"""A game's line on the home page (``tests/web/test_pages.py`` checks every game has one)."""


@cache
def environment(lang: str) -> Environment:
    env = Environment(loader=FileSystemLoader(str(WEB / "templates")),
                      autoescape=select_autoescape(["html"]),
                      extensions=["jinja2.ext.i18n"], trim_blocks=True, lstrip_blocks=True,
                      auto_reload=False)  # templates ship with the package: no stat a page
    env.globals["static"] = static_url
    env.install_gettext_translations(translations(lang), newstyle=True)  # type: ignore[attr-defined]
    return env


def static_url(path: str) -> str:
    """A static file's URL with its content hash (``static('js/app.js')`` in a template)."""
    return assets().url(path)


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


def page_context(request: Request, lang: str) -> dict[str, Any]:
    """What every page's template is given: its language, the language links, names."""
    t = translations(lang)
    return {"lang": lang,
            "langs": [(code, LANG_NAMES[code], f"{here(request)}?lang={code}") for code in LANGS],
            "game_name": lambda g: g.names.get(lang, g.name),
            "difficulty": lambda g: t.gettext(DIFFICULTY.get(g.difficulty, g.difficulty))}


def render(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    """A page rendered for this request alone (the statistics, an error)."""
    lang = lang_of(request)
    context.update(page_context(request, lang))
    html = environment(lang).get_template(template).render(**context)
    return html_response(request, lang, html.encode(), status)


def render_shared(request: Request, template: str, key: tuple[Any, ...],
                  context: Callable[[str], dict[str, Any]],
                  personal: dict[str, Any]) -> HTMLResponse:
    """A page rendered once for every player (:data:`PAGES`), ``personal`` filled in for
    this one: ``key`` names everything ``context(lang)`` depends on besides the language,
    the page's path and the static files."""
    lang = lang_of(request)
    path = here(request)
    compressed = accepts_gzip(request.headers.get("accept-encoding", "").encode("latin-1"))
    body = PAGES.render(environment(lang), template, (lang, path, assets().fingerprint, *key),
                        lambda: {**context(lang), **page_context(request, lang)}, personal,
                        compressed)
    response = html_response(request, lang, body, vary="Accept-Language, Cookie, Accept-Encoding")
    if compressed:
        response.headers["content-encoding"] = "gzip"
    return response


def html_response(request: Request, lang: str, body: bytes, status: int = 200,
                  vary: str = "Accept-Language, Cookie") -> HTMLResponse:
    """A page's answer: never stored by a cache (it holds the player's own parts); the
    language remembered when it was chosen by a link."""
    response = HTMLResponse(body, status_code=status)
    response.headers["vary"] = vary
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


# The pages are rendered on the event loop (a few milliseconds of Python, the first time),
# their database reads in the thread pool: a thread rendering a page would hold the
# interpreter lock in turns with the event loop, and every request of the hot path
# (reussite.web.fast) would wait for it. The hot path serves these pages itself (the same
# functions below), its reads on its own connections.

RESUME_LIMIT = 20
"""The unfinished games read for the catalogue, newest first (it offers one of each kind, at
most :data:`MAX_RESUMED`)."""


def unfinished(t: Tables, player: str, known: bool) -> list[GameRow]:
    """The games the catalogue offers to resume. A player without a valid cookie was named
    just now (:mod:`reussite.web.edge`): no game is theirs, no need to ask the database."""
    return t.unfinished(player, RESUME_LIMIT) if known else []


def catalogue(request: Request, rows: list[GameRow]) -> HTMLResponse:
    """The catalogue, with ``rows`` (:func:`unfinished`) offered to resume."""
    def context(lang: str) -> dict[str, Any]:
        t = translations(lang)
        return {"seeds": [CATALOGUE[g] for g in SEED_GAMES],
                "relatives": [g for g in CATALOGUE.values()
                              if g.id not in SEED_GAMES and g.id not in CLASSICS],
                "classics": [CATALOGUE[g] for g in CLASSICS],
                "blurb": lambda g: t.gettext(BLURBS[g.id]) if g.id in BLURBS else ""}

    # A game's page resumes the newest unfinished game of its kind: one card a kind, newest
    # first (the rows come newest first). A daily deal in play is resumed from /daily.
    resume: dict[str, tuple[GameRules, GameRow]] = {}
    for r in rows:
        if r.game in CATALOGUE and r.game not in resume and len(resume) < MAX_RESUMED \
                and r.daily is None:
            resume[r.game] = (CATALOGUE[r.game], r)
    return render_shared(request, "catalogue.html", (), context,
                         {"resume": list(resume.values())})


def game(request: Request, game_id: str, day: str | None = None) -> HTMLResponse:
    """A game's page (``game_id`` one of the catalogue's); with ``day``, the page of that
    day's daily deal (its banner, its leaderboard)."""
    rules = CATALOGUE[game_id]
    feedback = request.query_params.get("feedback")
    if feedback not in FEEDBACK_NOTES:
        feedback = None

    def context(lang: str) -> dict[str, Any]:
        return {"rules": rules, "rules_text": rules_text(game_id, lang), "ui": ui_strings(lang),
                "related": [CATALOGUE[g] for g in rules.related
                            if g in CATALOGUE and g != game_id],
                "feedback": feedback, "max_feedback": MAX_FEEDBACK, "daily": daily_context}

    daily_context = None
    if day is not None:
        now = today()
        daily_context = {"day": day, "today": day == now, "previous": next_day(day, -1),
                         "next": None if day >= now else next_day(day)}
    player: str = request.state.player
    token = feedback_signer(request).sign(player).decode()
    key = (game_id, feedback) if day is None else (game_id, feedback, day, day == today())
    return render_shared(request, "game.html", key, context, {"csrf": token})


@router.get("/", response_class=HTMLResponse)
async def catalogue_page(request: Request) -> HTMLResponse:
    rows = await run_in_threadpool(unfinished, tables(request), request.state.player,
                                   request.state.player_known)
    return catalogue(request, rows)


@router.get("/games/{game_id}", response_class=HTMLResponse)
async def game_page(request: Request, game_id: str) -> HTMLResponse:
    if game_id not in CATALOGUE:
        raise HTTPException(404, "There is no such game")
    return game(request, game_id)


@router.get("/daily", response_class=HTMLResponse)
async def daily_page(request: Request) -> HTMLResponse:
    """Today's deals of every daily game, the caller's results, the time left."""
    summary = await run_in_threadpool(daily.summary, tables(request).store,
                                      request.state.player)
    return render(request, "daily.html", yesterday=next_day(summary["day"], -1), **summary)


@router.get("/daily/{game_id}/{day}", response_class=HTMLResponse)
async def daily_game_page(request: Request, game_id: str, day: str) -> HTMLResponse:
    """A daily deal's page: today's is ranked, a past day's is practice."""
    if game_id not in daily_games():
        raise HTTPException(404, NO_DAILY)
    try:
        day = parse_day(day)
    except ValueError:
        raise HTTPException(404, N_("There is no such day")) from None
    if day > today():
        raise HTTPException(404, FUTURE_DAY)
    return game(request, game_id, day)


@router.get("/stats", response_class=HTMLResponse)
async def stats_page(request: Request) -> HTMLResponse:
    player: str = request.state.player
    store = tables(request).store
    rows = player_stats(await run_in_threadpool(store.player_totals, player))
    days = await run_in_threadpool(daily.player_days, store, player)
    streaks = daily.daily_streaks(days, today())
    me = await run_in_threadpool(request.app.state.players.get, player)
    name, hidden = (me.name, me.name_hidden) if me is not None else (None, False)
    return render(request, "stats.html", stats=[(CATALOGUE[s["game"]], s) for s in rows],
                  me={"name": name, "name_hidden": hidden, "display_name": shown_name(
                      player, name, hidden, lang_of(request))},
                  daily_streaks=streaks if days else None,
                  daily_names={g: CATALOGUE[g] for g in streaks["games"]})


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
    thanks, invalid = FEEDBACK_NOTES
    if not message or len(message) > MAX_FEEDBACK:
        return RedirectResponse(f"{back}?feedback={invalid}#feedback", status_code=303)
    await run_in_threadpool(tables(request).store.add_feedback, player, game,
                            lang_of(request), message)
    return RedirectResponse(f"{back}?feedback={thanks}#feedback", status_code=303)

