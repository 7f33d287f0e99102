"""A player's recent games: the history that ``GET /api/history`` answers and the statistics
page draws (its list and its chart).

A game enters the history when it has ended (``games.ended``): won, lost (stuck at the clear
end, or given up) or abandoned (another game of its kind dealt while it was in play). A game
in play (:func:`games_in_play`), and a game dealt and left without a move, are not in it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from reussite.games import CATALOGUE
from reussite.web.storage import GameRow, games_in_play

HISTORY_LIMIT = 50
"""The most games the history lists."""


def result_of(row: GameRow) -> str:
    """``won``, ``lost`` or ``abandoned``."""
    if row.won_at is not None:
        return "won"
    return "abandoned" if row.ended == "abandoned" else "lost"


def history_entry(row: GameRow) -> dict[str, Any]:
    """One game of the history (its deal number as the player may see it: every game here has
    ended, so a secret deal's number is shown too)."""
    result = result_of(row)
    won = result == "won"
    ended = row.won_at if won and row.won_at is not None else row.updated_at
    rules = CATALOGUE.get(row.game)
    return {
        "id": row.id,
        "game": row.game,
        "names": dict(rules.names) if rules else {"en": row.game},
        "number": row.shown_number,
        "result": result,
        "moves": row.won_moves if won and row.won_moves is not None else row.cursor,
        "seconds": (row.won_ms if won and row.won_ms is not None else row.elapsed_ms) / 1000,
        "used_undo": bool(row.won_used_undo if won else row.used_undo),
        "used_hint": bool(row.won_used_hint if won else row.used_hint),
        "ended_at": datetime.fromtimestamp(ended / 1000, UTC).isoformat(),
    }


def history(newest_first: list[GameRow], limit: int = HISTORY_LIMIT) -> list[dict[str, Any]]:
    """The history from a player's newest games (newest first by ``updated_at``, as
    :meth:`Store.history_rows` reads them): at most ``limit`` entries, newest first."""
    in_play = games_in_play(newest_first)
    out = []
    for row in newest_first:
        if row.id in in_play or row.length == 0:
            continue
        out.append(history_entry(row))
        if len(out) == limit:
            break
    return out
