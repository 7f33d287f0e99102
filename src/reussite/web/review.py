"""After the game: its analysis, asked for, read, and stepped through (docs/interfaces.md).

The analysis reveals every card, so it opens only once the game is over (won, stuck at the
clear end, or given up): on a game in play every route here answers 409. Asking for the
analysis of a stuck game ends it for good (``ended = "stuck"``: no undo after a look at the
cards). The work runs in the job tier (:mod:`reussite.web.jobs`); these routes only write the
request, hand it on and read the result, in any process.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field

from reussite.cards import UP, card_code
from reussite.engine import Move, Position, RawMove
from reussite.games import get_game
from reussite.web.analyses import Analyses, AnalysisRow, played_line
from reussite.web.api import POST_ERRORS, json_answer, json_only, player, tables
from reussite.web.days import is_over
from reussite.web.errors import DAILY_IN_PLAY
from reussite.web.i18n import N_, lang_of, move_sentence, translate, translations
from reussite.web.jobs import Jobs
from reussite.web.models import Error
from reussite.web.play import Loaded, steps_to_events
from reussite.web.storage import now_ms
from reussite.web.views import covers_view, dumps

router = APIRouter(prefix="/api", tags=["analysis"], dependencies=[Depends(json_only)])

HOUR_MS = 3_600_000


def hourly(name: str, default: int) -> int:
    text = os.environ.get(name, "")
    if not text:
        return default
    if not text.isdigit():
        raise ValueError(f"{name} is a whole number of analyses an hour: {text!r}")
    return int(text)


class AnalysisState(BaseModel):
    state: Literal["queued", "running", "done", "failed"]
    ahead: int | None = Field(default=None, description="Analyses queued before this one")
    result: dict[str, Any] | None = Field(default=None, description="When done")
    detail: str | None = Field(default=None, description="When failed: why, as a sentence")


class Replayed(BaseModel):
    line: Literal["player", "win"]
    at: int
    length: int
    piles: dict[str, list[dict[str, Any]]]
    events: list[dict[str, Any]]
    status: str


ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"model": Error, "description": "No such game (or no analysis asked for)"},
    409: {"model": Error, "description": "The game is still being played"},
    422: {"model": Error, "description": "A malformed request (a line or position that is"
                                          " not one)"},
    429: {"model": Error, "description": "Too many analyses asked for"},
}


@dataclass
class Refusal(Exception):
    """An answer other than the analysis: a status and a sentence (translated)."""

    status: int
    sentence: str
    retry_after: int | None = None


def _say(request: Request, e: Refusal) -> HTTPException:
    headers = None if e.retry_after is None else {"retry-after": str(e.retry_after)}
    return HTTPException(e.status, translate(lang_of(request.scope["headers"]), e.sentence),
                         headers=headers)


def _jobs(request: Request) -> Jobs:
    jobs: Jobs = request.app.state.jobs
    return jobs


def _finished(request: Request, game_id: str) -> Loaded:
    """The caller's game, refused (409) while it is being played."""
    lo = tables(request).load(player(request), game_id)
    if lo.row.status == "playing":
        raise Refusal(409, N_("The analysis shows every card: it opens once the game is over "
                              "(won, given up, or with no move left)"))
    if lo.row.daily is not None and not is_over(lo.row.daily):
        raise Refusal(409, DAILY_IN_PLAY)
    return lo


def _state(request: Request, row: AnalysisRow, table: Analyses) -> dict[str, Any]:
    out: dict[str, Any] = {"state": row.state}
    if row.state == "queued":
        out["ahead"] = table.ahead_of(row)
    elif row.state == "done" and row.result is not None:
        out["result"] = described(row.result, lang_of(request.scope["headers"]))
    elif row.state == "failed":
        out["detail"] = translate(lang_of(request.scope["headers"]),
                                  N_("The analysis could not be finished: ask for it again"))
    return out


def _resubmit(jobs: Jobs, ids: list[str]) -> None:
    for game_id in ids:
        jobs.submit(game_id)


@router.post("/games/{game_id}/analysis", response_model=AnalysisState,
             status_code=202, responses={**ERRORS, **POST_ERRORS})
def ask(request: Request, game_id: str) -> Response:
    """Ask for the analysis of a finished game: 202 while it is queued or running, 200 with
    the result once done (asking again costs nothing)."""
    try:
        lo = _finished(request, game_id)
        t = tables(request)
        table = Analyses(t.store)
        row = table.get(game_id)
        if row is None or row.state == "failed":
            who = player(request)
            address = request.client.host if request.client else "?"
            since = now_ms() - HOUR_MS
            if table.in_flight(who):
                raise Refusal(429, N_("One analysis at a time: wait for the one under way"),
                              retry_after=10)
            if (table.since(since, player_id=who)
                    >= hourly("REUSSITE_ANALYSES_PER_HOUR", 30)
                    or table.since(since, address=address)
                    >= hourly("REUSSITE_ANALYSES_PER_HOUR_ADDRESS", 120)):
                raise Refusal(429, N_("Too many analyses this hour: try again later"),
                              retry_after=600)
            # Sealed before any card is shown: a game stuck at the clear end could otherwise
            # still be undone, a won one played on.
            t.seal(lo)
            row, submit = table.request(game_id, who, address)
            if submit:
                _jobs(request).submit(game_id)
        else:
            _resubmit(_jobs(request), table.sweep(game_id))
            row = table.get(game_id) or row
    except Refusal as e:
        raise _say(request, e) from None
    return json_answer(dumps(_state(request, row, table)), 200 if row.state == "done" else 202)


@router.get("/games/{game_id}/analysis", response_model=AnalysisState, responses=ERRORS)
def read(request: Request, game_id: str) -> Response:
    """Where the analysis stands, and its result once done."""
    try:
        _finished(request, game_id)
        table = Analyses(tables(request).store)
        _resubmit(_jobs(request), table.sweep(game_id))
        row = table.get(game_id)
        if row is None:
            raise Refusal(404, N_("No analysis of this game was asked for"))
    except Refusal as e:
        raise _say(request, e) from None
    return json_answer(dumps(_state(request, row, table)))


def _revealed(pos: Position) -> dict[str, list[dict[str, Any]]]:
    """Every pile with every card named (face-down ones too: the game is over)."""
    ids = pos.layout.ids
    return {ids[i]: [{"card": card_code(c & ~UP), "up": bool(c & UP)} for c in pile]
            for i, pile in enumerate(pos.piles)}


@router.get("/games/{game_id}/analysis/position", response_model=Replayed, responses=ERRORS)
def position(request: Request, game_id: str,
             line: Literal["player", "win"] = "player",
             at: Annotated[int, Query(ge=0, le=100_000)] = 0,
             from_: Annotated[int | None, Query(alias="from", ge=0, le=100_000)] = None
             ) -> Response:
    """Position ``at`` of the player's line, or of the solver's win from the last winnable
    position, with every card shown; ``from``: the position shown now (one step away: the
    events that lead from it)."""
    try:
        lo = _finished(request, game_id)
        row = Analyses(tables(request).store).get(game_id)
        if row is None or row.state != "done" or row.result is None:
            raise Refusal(404, N_("This game has no analysis yet"))
    except Refusal as e:
        raise _say(request, e) from None
    deal = Position.deal(get_game(lo.row.game), lo.row.number)
    played = played_line(deal, lo.line[:lo.row.cursor])
    moves: list[RawMove]
    start = deal
    if line == "player":
        moves = played
    else:
        k = row.result.get("last_winnable")
        if k is None:
            raise HTTPException(404, translate(lang_of(request.scope["headers"]),
                                               N_("This game had no win to show")))
        for raw in played[:k]:
            start.push_raw(raw)
        here = start.copy()
        moves = []
        for m in row.result["win_from_last"]:
            raw = here.to_raw(Move.from_json(m))
            moves.append(raw)
            here.push_raw(raw)
    if at > len(moves):
        raise HTTPException(422, f"This line has {len(moves)} moves: at is 0 to {len(moves)}")
    pos = start.copy()
    for raw in moves[:at]:
        pos.push_raw(raw)
    events: list[dict[str, Any]] = []
    if from_ == at - 1 and at > 0:
        events = steps_to_events(pos, pos.last_steps())
    elif from_ == at + 1 and at < len(moves):
        after = pos.copy()
        after.push_raw(moves[at])
        events = steps_to_events(after, after.last_steps(), backwards=True)
    rules = pos.rules
    return json_answer(dumps({
        "line": line, "at": at, "length": len(moves), "piles": _revealed(pos),
        "events": events, "status": pos.status(), "names": dict(rules.names),
        "draw": rules.stock.draw if rules.has_waste else 0, "has_stock": rules.has_stock,
        "build": rules.tableau.build.value if rules.tableau else None,
        "covers": covers_view(rules)}))


def described(result: dict[str, Any], lang: str) -> dict[str, Any]:
    """The stored result with its sentences in ``lang``: ``summary``, and ``losing_text``
    (the losing move named) when there is one."""
    t = translations(lang)
    out = dict(result)
    losing = result.get("losing_move")
    out["losing_text"] = None
    if result.get("won"):
        shortest = result.get("shortest_win")
        summary = t.gettext("You won in {moves} moves.").format(moves=result["moves"])
        if shortest:
            summary += " " + t.gettext(
                "The shortest win the solver found from the deal takes {shortest}.").format(
                shortest=shortest)
    elif result.get("opening") == "lost":
        summary = t.gettext("This deal could not be won: the solver proved it.")
    elif result.get("opening") == "unknown":
        summary = t.gettext("The solver could not decide within its budget whether this deal "
                            "could be won.")
    elif result.get("still_winnable"):
        summary = t.gettext("When the game ended it could still be won: the solver shows a "
                            "win from there.")
    elif losing is not None:
        move = result["player_line"][losing - 1]
        out["losing_text"] = t.gettext(
            "Your move {number}: {move}. After it no win remained.").format(
            number=losing, move=move_sentence(lang, move))
        summary = t.gettext("The deal could be won. Your move {number} lost it: before it a "
                            "win existed, after it none remained.").format(number=losing)
    else:
        suspects = result.get("suspect_moves") or []
        summary = t.gettext("The deal could be won, and the game was lost between your moves "
                            "{first} and {last}: the solver could not decide every position "
                            "in between within its budget.").format(
            first=suspects[0] if suspects else "?", last=suspects[-1] if suspects else "?")
    out["summary"] = summary
    return out

