"""The JSON API (docs/interfaces.md and docs/web-contract.md).

Every route is a plain function: FastAPI runs it in its thread pool, and the engine's work and
the database's are both synchronous. Views are answered as ready JSON (built by hand, the
models document them), because a view is the hot path of the site.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.responses import Response

from reussite.games import CATALOGUE
from reussite.games import get_game as game_rules
from reussite.web import daily
from reussite.web.actions import (
    ACTIONS,
    HINT,
    MOVE,
    NEW_GAME,
    PAUSE,
    PREFIX,
    REDO,
    RESIGN,
    RESTART,
    RESUME,
    UNDO,
    VIEW,
    Action,
    hint_from_elsewhere,
    hint_json,
)
from reussite.web.analyses import Analyses
from reussite.web.days import daily_games, is_over, parse_day, today
from reussite.web.history import history
from reussite.web.i18n import lang_of
from reussite.web.models import (
    GAME_IDS,
    CatalogueEntry,
    Daily,
    Error,
    GameStats,
    GameSummary,
    GameView,
    Health,
    Hint,
    HistoryEntry,
    Leaderboard,
    NewGame,
    PlayMove,
    StatsReset,
    VersionOnly,
)
from reussite.web.play import FUTURE_DAY, NO_DAILY, Refused, Tables, decode_move
from reussite.web.stats import player_stats
from reussite.web.views import dumps, view_json
from reussite.winnable import winnable_numbers


async def json_only(request: Request) -> None:
    """API POSTs (and PUTs) carry JSON: a cross-site form cannot send it without a CORS
    preflight."""
    if request.method in ("POST", "PUT"):
        ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if ctype != "application/json":
            raise HTTPException(415, "Send the body as JSON, with Content-Type:"
                                     " application/json")


router = APIRouter(prefix=PREFIX, tags=["api"], dependencies=[Depends(json_only)])

Responses = dict[int | str, dict[str, Any]]
NOT_FOUND: Responses = {404: {"model": Error, "description": "No such game for this player"}}
REFUSED: Responses = {
    422: {"model": Error, "description": "Malformed request, or refused by the rules"}}
STALE: Responses = {
    409: {"model": Error, "description": "The version is not the game's current one"}}
POST_ERRORS: Responses = {
    400: {"model": Error, "description": "The body cannot be read"},
    403: {"model": Error, "description": "A request from another site"},
    413: {"model": Error, "description": "The body is too large"},
    415: {"model": Error, "description": "The body is not JSON"},
}


def tables(request: Request) -> Tables:
    t: Tables = request.app.state.tables
    return t


def player(request: Request) -> str:
    p: str = request.state.player
    return p


def json_answer(body: bytes, status: int = 200) -> Response:
    """A JSON answer, never cached (the hot path's answers carry the same headers)."""
    return Response(body, status_code=status, media_type="application/json",
                    headers={"cache-control": "no-store"})


def json_response(data: Any) -> Response:
    return json_answer(dumps(data))


def perform(request: Request, action: Action, game_id: str = "", body: Any = None) -> Response:
    """``action`` for the caller, answered with the game's view (its failures by the
    application's exception handlers: :mod:`reussite.web.errors`)."""
    outcome = action.run(tables(request), player(request), game_id, body)
    return json_answer(view_json(outcome), action.status)


@router.get("/catalogue", response_model=list[CatalogueEntry])
async def catalogue() -> Response:
    """The games (no database: answered on the event loop)."""
    return json_response([
        {"id": g.id, "name": g.name, "names": dict(g.names), "decks": g.packs,
         "difficulty": g.difficulty, "redeals": g.stock.redeals, "related": list(g.related),
         "winnable_deals": len(winnable_numbers(g.id))}
        for g in CATALOGUE.values()])


@router.api_route(NEW_GAME.path, methods=[NEW_GAME.method], status_code=201,
                  response_model=GameView, responses={**REFUSED, **POST_ERRORS})
def new_game(request: Request, body: NewGame) -> Response:
    return perform(request, ACTIONS[NEW_GAME], body=body)


GameQuery = Annotated[str | None, Query(max_length=32, json_schema_extra={"enum": GAME_IDS})]
"""The ``?game=`` of a list: one game of the catalogue (else every game)."""


def known_game(game: str | None) -> None:
    """Refuse a game that is not in the catalogue (422, :class:`UnknownGameError`)."""
    if game is not None:
        game_rules(game)


@router.get("/games", response_model=list[GameSummary], responses=REFUSED)
def list_games(request: Request,
               game: GameQuery = None,
               status: Literal["playing", "won", "lost"] | None = None,
               limit: Annotated[int, Query(ge=1, le=100)] = 50) -> Response:
    """The caller's games, newest first (to resume an unfinished one)."""
    known_game(game)
    rows = tables(request).recent(player(request), game, status, limit)
    return json_response([
        {"id": r.id, "game": r.game, "number": r.shown_number, "status": r.status,
         "ended": r.ended, "moves": r.cursor, "daily": r.daily,
         "updated_at": datetime.fromtimestamp(r.updated_at / 1000, UTC).isoformat()}
        for r in rows])


@router.api_route(VIEW.path, methods=[VIEW.method], response_model=GameView,
                  responses=NOT_FOUND)
def get_game(request: Request, game_id: str) -> Response:
    return perform(request, ACTIONS[VIEW], game_id)


@router.api_route(MOVE.path, methods=[MOVE.method], response_model=GameView,
                  responses={**NOT_FOUND, **STALE, **REFUSED, **POST_ERRORS})
def play_move(request: Request, game_id: str, body: PlayMove) -> Response:
    """Play a move; 422 with the rules' sentence when it is illegal."""
    return perform(request, ACTIONS[MOVE], game_id, body)


@router.api_route(UNDO.path, methods=[UNDO.method], response_model=GameView,
                  responses={**NOT_FOUND, **STALE, **REFUSED, **POST_ERRORS})
def undo(request: Request, game_id: str, body: VersionOnly) -> Response:
    return perform(request, ACTIONS[UNDO], game_id, body)


@router.api_route(REDO.path, methods=[REDO.method], response_model=GameView,
                  responses={**NOT_FOUND, **STALE, **REFUSED, **POST_ERRORS})
def redo(request: Request, game_id: str, body: VersionOnly) -> Response:
    return perform(request, ACTIONS[REDO], game_id, body)


@router.api_route(RESTART.path, methods=[RESTART.method], response_model=GameView,
                  responses={**NOT_FOUND, **STALE, **REFUSED, **POST_ERRORS})
def restart(request: Request, game_id: str, body: VersionOnly) -> Response:
    """Back to the deal (same number); the moves taken back stay redoable, and one undo
    takes the restart back."""
    return perform(request, ACTIONS[RESTART], game_id, body)


@router.api_route(RESIGN.path, methods=[RESIGN.method], response_model=GameView,
                  responses={**NOT_FOUND, **STALE, **REFUSED, **POST_ERRORS})
def resign(request: Request, game_id: str, body: VersionOnly) -> Response:
    """Give the game up: it ends lost (``"ended": "resigned"``), for good, and counts as a
    loss; 409 on a game that is over already."""
    return perform(request, ACTIONS[RESIGN], game_id, body)


@router.api_route(PAUSE.path, methods=[PAUSE.method], response_model=GameView,
                  responses={**NOT_FOUND, **STALE, **REFUSED, **POST_ERRORS})
def pause(request: Request, game_id: str, body: VersionOnly) -> Response:
    """Stop the game's clock: the time up to now counts (within the idle cap), the paused
    spell does not (until resume or the next action)."""
    return perform(request, ACTIONS[PAUSE], game_id, body)


@router.api_route(RESUME.path, methods=[RESUME.method], response_model=GameView,
                  responses={**NOT_FOUND, **STALE, **REFUSED, **POST_ERRORS})
def resume(request: Request, game_id: str, body: VersionOnly) -> Response:
    """Start the game's clock again from now."""
    return perform(request, ACTIONS[RESUME], game_id, body)


@router.api_route(HINT.path, methods=[HINT.method], response_model=Hint,
                  responses={**NOT_FOUND, 403: {"model": Error, "description": "Cross-site"}})
def hint(request: Request, game_id: str) -> Response:
    """A suggested move, computed only from what the player sees (or none)."""
    if hint_from_elsewhere(request.headers.get("sec-fetch-site")):
        raise HTTPException(403, "Requests from another site are refused")
    _row, _pos, given, move = tables(request).hint(player(request), game_id)
    return json_answer(hint_json(move, given.reason, request.scope["headers"]))


@router.get("/health", response_model=Health,
            responses={503: {"model": Error, "description": "The database does not answer"}})
def health(request: Request) -> Response:
    """Whether this process can reach the database (for load balancers and monitors), and
    where its rate limit keeps its counts: ``redis`` (shared by every process) or ``memory``
    (this process's own: the default, and the fallback while Redis does not answer); and the
    job tier of the analyses: its kind, the analyses queued, the workers seen (null when the
    queue's service does not answer)."""
    store = tables(request).store
    store.ping()
    jobs = request.app.state.jobs
    return json_response({"status": "ok", "database": store.dialect,
                          "rate_limit": request.app.state.rate_limit.store,
                          "jobs": {"kind": jobs.kind, "queued": Analyses(store).queued(),
                                   "workers": jobs.workers()}})


@router.get("/stats", response_model=list[GameStats])
def stats(request: Request) -> Response:
    """The caller's statistics, per game played."""
    return json_response(player_stats(tables(request).store.player_totals(player(request))))



@router.delete("/stats", response_model=StatsReset, responses={
    **REFUSED, 403: {"model": Error, "description": "A request from another site"}})
def reset_stats(request: Request, game: GameQuery = None) -> Response:
    """Forget the caller's results (of one game, or of all): the statistics and the history
    start afresh; the games in play are kept."""
    known_game(game)
    deleted = tables(request).store.reset_stats(player(request), game)
    return json_response({"deleted": deleted})


@router.get("/history", response_model=list[HistoryEntry], responses=REFUSED)
def recent_history(request: Request, game: GameQuery = None) -> Response:
    """The caller's last games that are over or abandoned (at most 50), newest first."""
    known_game(game)
    return json_response(history(tables(request).store.history_rows(player(request), game)))


@router.get("/daily", response_model=Daily)
def daily_summary(request: Request) -> Response:
    """Today's date (UTC), the seconds to the next day, and for each daily game whether the
    caller played and won today's deal, with its ranked result; the caller's streaks."""
    return json_response(daily.summary(tables(request).store, player(request)))


def daily_of(game: str, day: str) -> str:
    """``day`` of ``game``'s daily deals, or 422 (not a daily game, not a date, a future
    day)."""
    game_rules(game)
    if game not in daily_games():
        raise Refused(NO_DAILY)
    try:
        day = parse_day(day)
    except ValueError as e:
        raise Refused(str(e)) from None
    if day > today():
        raise Refused(FUTURE_DAY)
    return day


@router.get("/daily/{game}/{day}/leaderboard", response_model=Leaderboard,
            responses=REFUSED)
def leaderboard(request: Request, game: str, day: str) -> Response:
    """A game's leaderboard of a day: the top 100 and the caller's own entry and rank, for
    every ranked win and for the clean ones (no undo, no hint); once the day is over, its
    deal's number and the solver's line."""
    day = daily_of(game, day)
    store = tables(request).store
    board = daily.leaderboard(store, game, day, player(request),
                              lang_of(request.scope["headers"]))
    board.update(number=None, line=None)
    if is_over(day):
        found = daily.stored(store, game, day)
        if found is not None:
            board.update(number=found.number,
                         line=[decode_move(m).to_json() for m in found.line])
    return json_response(board)
