"""The game actions of the API, each written once: its route, the model of its body, what it
does with :class:`~reussite.web.play.Tables`, and the status of its answer.

Two callers answer them: the FastAPI routes (:mod:`reussite.web.api`: they make the OpenAPI
document, and answer whatever the hot path passes on) and the hot path
(:mod:`reussite.web.fast`), which finds the same routes here, checks the body against the same
model and runs the same function. Their failures are answered by :mod:`reussite.web.errors`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from reussite.engine import Move
from reussite.web.i18n import lang_of, move_sentence
from reussite.web.models import NewGame, PileMove, PlayMove, StockMove, VersionOnly
from reussite.web.play import Outcome, Tables
from reussite.web.views import dumps

PREFIX = "/api"
"""Where the API's routes are (the FastAPI router's prefix)."""


@dataclass(frozen=True)
class Route:
    """A method and a path under :data:`PREFIX`, as FastAPI writes it (``{game_id}``)."""

    method: str
    path: str
    pattern: re.Pattern[str] = field(init=False, repr=False, compare=False)
    """The whole path it matches, the game's id as its group."""

    def __post_init__(self) -> None:
        regex = re.escape(PREFIX + self.path).replace(re.escape("{game_id}"), "([^/]+)")
        object.__setattr__(self, "pattern", re.compile(regex))


NEW_GAME = Route("POST", "/games")
VIEW = Route("GET", "/games/{game_id}")
MOVE = Route("POST", "/games/{game_id}/moves")
UNDO = Route("POST", "/games/{game_id}/undo")
REDO = Route("POST", "/games/{game_id}/redo")
RESTART = Route("POST", "/games/{game_id}/restart")
RESIGN = Route("POST", "/games/{game_id}/resign")
PAUSE = Route("POST", "/games/{game_id}/pause")
RESUME = Route("POST", "/games/{game_id}/resume")
HINT = Route("GET", "/games/{game_id}/hint")


def move_of(model: PileMove | StockMove) -> Move:
    if isinstance(model, StockMove):
        return Move("stock")
    return Move("move", model.from_, model.to, model.count)


@dataclass(frozen=True)
class Action:
    """What a route does: ``run(tables, player, game_id, body)`` gives the game's view
    (answered with ``status``), ``body`` checked against the model ``model`` first."""

    route: Route
    run: Callable[[Tables, str, str, Any], Outcome]
    model: type[BaseModel] | None = None
    status: int = 200
    writes: bool = True
    """It changes the game (a view only reads it)."""


def _new_game(t: Tables, player: str, _game_id: str, body: NewGame) -> Outcome:
    return t.new_game(player, body.game, body.number, body.winnable, body.day())


def _view(t: Tables, player: str, game_id: str, _body: None) -> Outcome:
    return t.view(player, game_id)


def _move(t: Tables, player: str, game_id: str, body: PlayMove) -> Outcome:
    return t.move(player, game_id, move_of(body.move), body.version)


def _undo(t: Tables, player: str, game_id: str, body: VersionOnly) -> Outcome:
    return t.undo(player, game_id, body.version)


def _redo(t: Tables, player: str, game_id: str, body: VersionOnly) -> Outcome:
    return t.redo(player, game_id, body.version)


def _restart(t: Tables, player: str, game_id: str, body: VersionOnly) -> Outcome:
    return t.restart(player, game_id, body.version)


def _resign(t: Tables, player: str, game_id: str, body: VersionOnly) -> Outcome:
    return t.resign(player, game_id, body.version)


def _pause(t: Tables, player: str, game_id: str, body: VersionOnly) -> Outcome:
    return t.pause(player, game_id, body.version)


def _resume(t: Tables, player: str, game_id: str, body: VersionOnly) -> Outcome:
    return t.resume(player, game_id, body.version)


ACTIONS = {
    NEW_GAME: Action(NEW_GAME, _new_game, NewGame, status=201),
    VIEW: Action(VIEW, _view, writes=False),
    MOVE: Action(MOVE, _move, PlayMove),
    UNDO: Action(UNDO, _undo, VersionOnly),
    REDO: Action(REDO, _redo, VersionOnly),
    RESTART: Action(RESTART, _restart, VersionOnly),
    RESIGN: Action(RESIGN, _resign, VersionOnly),
    PAUSE: Action(PAUSE, _pause, VersionOnly),
    RESUME: Action(RESUME, _resume, VersionOnly),
}
"""Every route answered with a game's view. The hint (:data:`HINT`) is computed elsewhere by
each caller (in a thread, or awaited from the hint workers), and answered by
:func:`hint_json`."""


def hint_from_elsewhere(site: str | None) -> bool:
    """Whether a hint request comes from another site (``Sec-Fetch-Site``): refused, since
    asking for a hint is noted in the statistics."""
    return site is not None and site not in ("same-origin", "none")


def hint_json(move: Move | None, reason: str | None,
              headers: Iterable[tuple[bytes, bytes]]) -> bytes:
    """A hint's answer: the move (or null), its sentence in the player's language, and why
    there is no move (null, or a key of :data:`.i18n.HINT_REASONS`)."""
    data = None if move is None else move.to_json()
    return dumps({"move": data, "text": move_sentence(lang_of(headers), data, reason),
                  "reason": reason})
