"""A player's recent games: the history that ``GET /api/history`` answers and the statistics
page draws (its list and its chart).

A game enters the history when it is over (won or lost) or abandoned: still "playing", with
at least one move, but no longer the game in play of its kind (:func:`games_in_play`: the
player dealt or resumed another one since). A game in play, and a game dealt and left without
a move, are not in it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from reussite.games import CATALOGUE
from reussite.web.storage import GameRow, games_in_play

HISTORY_LIMIT = 50
"""The most games the history lists."""


def result_of(row: GameRow) -> str:
    """``won``, ``lost`` or ``abandoned`` (a game that is not in play any more)."""
    if row.won_at is not None:
        return "won"
    return "lost" if row.status == "lost" else "abandoned"


def history_entry(row: GameRow) -> dict[str, Any]:
    """One game of the history. The deal number is given only for a game that is over: an
    abandoned game may still be resumed, and a deal dealt at random keeps its number secret
    while it can be played."""
    result = result_of(row)
    won = result == "won"
    ended = row.won_at if won and row.won_at is not None else row.updated_at
    rules = CATALOGUE.get(row.game)
    return {
        "id": row.id,
        "game": row.game,
        "names": dict(rules.names) if rules else {"en": row.game},
        "number": None if result == "abandoned" else row.number,
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
        if row.id in in_play or (row.status == "playing" and row.length == 0):
            continue
        out.append(history_entry(row))
        if len(out) == limit:
            break
    return out
