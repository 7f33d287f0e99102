"""A game's view as JSON: what the player sees, and nothing of what lies face down."""

from __future__ import annotations

import json
from typing import Any

import orjson

from reussite.engine import Position, RawMove
from reussite.web.play import Outcome
from reussite.web.storage import GameRow


def view_of(row: GameRow, pos: Position, events: list[dict[str, Any]],
            raw: list[RawMove] | None = None) -> dict[str, Any]:
    """A game's view: what the player sees, and nothing of what lies face down."""
    raw = pos.raw_moves() if raw is None else raw
    legal = [pos.to_move(m).to_json() for m in raw]
    status = pos.status(raw)
    rules = pos.rules
    return {
        "id": row.id, "game": row.game, "number": row.number, "version": row.version,
        "status": status, "piles": pos.player_view(), "legal_moves": legal,
        "can_undo": row.cursor > 0, "can_redo": row.cursor < row.length,
        "moves": pos.moves_played, "score": pos.score, "redeals_left": pos.redeals_left,
        "elapsed_seconds": row.elapsed_ms / 1000, "used_undo": row.used_undo,
        "used_hint": row.used_hint, "names": dict(rules.names), "events": events,
        "draw": rules.stock.draw if rules.has_waste else 0,
        "build": rules.tableau.build.value if rules.tableau else None,
    }


def dumps(data: Any) -> bytes:
    """Compact UTF-8 JSON (orjson; the standard library for what orjson refuses, such as an
    integer beyond 64 bits)."""
    try:
        return orjson.dumps(data)
    except TypeError:
        return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()


def view_json(outcome: Outcome) -> bytes:
    return dumps(view_of(outcome.row, outcome.pos, outcome.events, outcome.legal))
