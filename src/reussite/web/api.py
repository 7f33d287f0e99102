"""The JSON API (shared/INTERFACES.md and docs/web-contract.md).

Every route is a plain function: FastAPI runs it in its thread pool, and the engine's work and
the database's are both synchronous. Views are answered as ready JSON (built by hand, the
models document them), because a view is the hot path of the site.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.responses import Response

from reussite.engine import Move
from reussite.games import CATALOGUE
from reussite.web.i18n import lang_of, move_sentence
from reussite.web.models import (
    GAME_IDS,
    CatalogueEntry,
    Error,
    GameStats,
    GameSummary,
    GameView,
    Health,
    Hint,
    NewGame,
    PileMove,
    PlayMove,
    StockMove,
    VersionOnly,
)
from reussite.web.play import Outcome, Tables
from reussite.web.stats import player_stats
from reussite.web.views import dumps, view_json
from reussite.winnable import winnable_numbers


async def json_only(request: Request) -> None:
    """API POSTs carry JSON: a cross-site form cannot send it without a CORS preflight."""
    if request.method == "POST":
        ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if ctype != "application/json":
            raise HTTPException(415, "Send the body as JSON, with Content-Type:"
                                     " application/json")


router = APIRouter(prefix="/api", tags=["api"], dependencies=[Depends(json_only)])

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


def json_response(data: Any, status: int = 200) -> Response:
    return Response(dumps(data), status_code=status, media_type="application/json",
                    headers={"cache-control": "no-store"})


def answer(outcome: Outcome, status: int = 200) -> Response:
    return Response(view_json(outcome), status_code=status, media_type="application/json",
                    headers={"cache-control": "no-store"})


def move_of(model: PileMove | StockMove) -> Move:
    if isinstance(model, StockMove):
        return Move("stock")
    return Move("move", model.from_, model.to, model.count)


@router.get("/catalogue", response_model=list[CatalogueEntry])
async def catalogue() -> Response:
    """The games (no database: answered on the event loop)."""
    return json_response([
        {"id": g.id, "name": g.name, "names": dict(g.names), "decks": g.packs,
         "difficulty": g.difficulty, "redeals": g.stock.redeals, "related": list(g.related),
         "winnable_deals": len(winnable_numbers(g.id))}
        for g in CATALOGUE.values()])


@router.post("/games", status_code=201, response_model=GameView,
             responses={**REFUSED, **POST_ERRORS})
def new_game(request: Request, body: NewGame) -> Response:
    outcome = tables(request).new_game(player(request), body.game, body.number, body.winnable)
    return answer(outcome, 201)


@router.get("/games", response_model=list[GameSummary], responses=REFUSED)
def list_games(request: Request,
               game: Annotated[str | None, Query(max_length=32,
                                                 json_schema_extra={"enum": GAME_IDS})] = None,
               status: Literal["playing", "won", "lost"] | None = None,
               limit: Annotated[int, Query(ge=1, le=100)] = 50) -> Response:
    """The caller's games, newest first (to resume an unfinished one)."""
    if game is not None and game not in CATALOGUE:
        raise HTTPException(422, f"Unknown game {game!r}")
    rows = tables(request).recent(player(request), game, status, limit)
    return json_response([
        {"id": r.id, "game": r.game, "number": r.number, "status": r.status, "moves": r.cursor,
         "updated_at": datetime.fromtimestamp(r.updated_at / 1000, UTC).isoformat()}
        for r in rows])


def _act(request: Request, game_id: str, action: str, version: int,
         move: Move | None = None) -> Response:
    t = tables(request)
    p = player(request)
    if action == "move":
        assert move is not None
        outcome = t.move(p, game_id, move, version)
    else:
        outcome = getattr(t, action)(p, game_id, version)
    return answer(outcome)


@router.get("/games/{game_id}", response_model=GameView, responses=NOT_FOUND)
def get_game(request: Request, game_id: str) -> Response:
    return answer(tables(request).view(player(request), game_id))


@router.post("/games/{game_id}/moves", response_model=GameView,
             responses={**NOT_FOUND, **STALE, **REFUSED, **POST_ERRORS})
def play_move(request: Request, game_id: str, body: PlayMove) -> Response:
    """Play a move; 422 with the rules' sentence when it is illegal."""
    return _act(request, game_id, "move", body.version, move_of(body.move))


@router.post("/games/{game_id}/undo", response_model=GameView,
             responses={**NOT_FOUND, **STALE, **REFUSED, **POST_ERRORS})
def undo(request: Request, game_id: str, body: VersionOnly) -> Response:
    return _act(request, game_id, "undo", body.version)


@router.post("/games/{game_id}/redo", response_model=GameView,
             responses={**NOT_FOUND, **STALE, **REFUSED, **POST_ERRORS})
def redo(request: Request, game_id: str, body: VersionOnly) -> Response:
    return _act(request, game_id, "redo", body.version)


@router.post("/games/{game_id}/restart", response_model=GameView,
             responses={**NOT_FOUND, **STALE, **REFUSED, **POST_ERRORS})
def restart(request: Request, game_id: str, body: VersionOnly) -> Response:
    """Back to the deal (same number); the moves taken back stay redoable."""
    return _act(request, game_id, "restart", body.version)


@router.get("/games/{game_id}/hint", response_model=Hint,
            responses={**NOT_FOUND, 403: {"model": Error, "description": "Cross-site"}})
def hint(request: Request, game_id: str) -> Response:
    """A suggested move, computed only from what the player sees (or none)."""
    site = request.headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        # Asking for a hint is noted in the statistics: not from another site.
        raise HTTPException(403, "Requests from another site are refused")
    _row, _pos, move = tables(request).hint(player(request), game_id)
    data = None if move is None else move.to_json()
    lang = lang_of(request.scope["headers"])
    return json_response({"move": data, "text": move_sentence(lang, data)})


@router.get("/health", response_model=Health,
            responses={503: {"model": Error, "description": "The database does not answer"}})
def health(request: Request) -> Response:
    """Whether this process can reach the database (for load balancers and monitors)."""
    store = tables(request).store
    store.ping()
    return json_response({"status": "ok", "database": store.dialect})


@router.get("/stats", response_model=list[GameStats])
def stats(request: Request) -> Response:
    """The caller's statistics, per game played."""
    return json_response(player_stats(tables(request).store.player_games(player(request))))

