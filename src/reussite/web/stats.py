"""A player's statistics per game, computed from their stored games."""

from __future__ import annotations

from typing import Any

from reussite.games import CATALOGUE
from reussite.web.storage import GameRow


def game_stats(game: str, rows: list[GameRow]) -> dict[str, Any]:
    """Statistics of one game from its rows, oldest first.

    A game counts as played once a move was made in it (or it was won). Streaks run over the
    played games in order; the newest game does not break a streak while it is still being
    played.
    """
    played = [r for r in rows if r.length > 0 or r.won_at is not None]
    wins = [r for r in played if r.won_at is not None]
    finished = list(played)
    if finished and finished[-1].won_at is None and finished[-1].status == "playing":
        finished.pop()
    best = run = 0
    for r in finished:
        run = run + 1 if r.won_at is not None else 0
        best = max(best, run)
    current = run
    times = [r.won_ms for r in wins if r.won_ms is not None]
    counts = [r.won_moves for r in wins if r.won_moves is not None]
    return {
        "game": game,
        "name": CATALOGUE[game].name if game in CATALOGUE else game,
        "played": len(played),
        "won": len(wins),
        "win_percent": round(100 * len(wins) / len(played), 1) if played else None,
        "current_streak": current,
        "best_streak": best,
        "best_time_seconds": min(times) / 1000 if times else None,
        "fewest_moves": min(counts) if counts else None,
        "wins_with_undo": sum(1 for r in wins if r.won_used_undo),
        "wins_with_hint": sum(1 for r in wins if r.won_used_hint),
        "wins_unaided": sum(1 for r in wins if not r.won_used_undo and not r.won_used_hint),
    }


def player_stats(rows: list[GameRow]) -> list[dict[str, Any]]:
    """One entry per game the player has started, in catalogue order."""
    by_game: dict[str, list[GameRow]] = {}
    for r in rows:
        by_game.setdefault(r.game, []).append(r)
    order = {g: i for i, g in enumerate(CATALOGUE)}
    return [game_stats(g, by_game[g]) for g in sorted(by_game, key=lambda g: order.get(g, 99))]
