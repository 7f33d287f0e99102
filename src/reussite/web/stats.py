"""A player's statistics, read from their running totals.

What counts (docs/statistics.md says it for players, and the statistics page's footnote):

- A game counts as **played** from its first move.
- It counts once, at its **first end**: **won** (its time, moves and help, undo or hints, are
  those of that moment), or **lost**: stuck at the clear end (no move can change anything
  any more), or **abandoned** (the player dealt another game of the same kind while it was
  in play, or it was pushed out by the bound on games in play). Taking moves back after that
  end changes nothing in the statistics.
- Each **origin** of a deal is counted apart: dealt at random by the site, from its
  proven-winnable deals ("winnable deals only"), chosen by its number by the player, today's
  daily deal, or a past day's (practice). A given-up game ends counted as lost.
- A **streak** runs over the games of one game and origin in the order they end; a game
  still in play does not break it.

The totals (``storage.totals``) change in the same transaction as the game whose event
changes them (:func:`reussite.web.play.tally_of`), so reading them costs one row per game
and origin, whatever the number of games played.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from reussite.games import CATALOGUE
from reussite.web.storage import ORIGINS


def game_stats(t: Mapping[str, Any]) -> dict[str, Any]:
    """One row of ``totals`` as the statistics of one game and origin."""
    game = t["game"]
    played, won = t["played"], t["won"]
    return {
        "game": game,
        "origin": t["origin"],
        "name": CATALOGUE[game].name if game in CATALOGUE else game,
        "played": played,
        "won": won,
        "lost": t["lost"],
        "win_percent": round(100 * won / played, 1) if played else None,
        "current_streak": t["current_streak"],
        "best_streak": t["best_streak"],
        "best_time_seconds": None if t["best_ms"] is None else t["best_ms"] / 1000,
        "fewest_moves": t["fewest_moves"],
        "wins_with_undo": t["wins_with_undo"],
        "wins_with_hint": t["wins_with_hint"],
        "wins_unaided": t["wins_unaided"],
    }


def player_stats(rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One entry per game and origin the player has dealt, in catalogue order, then
    random, winnable, by number."""
    game_order = {g: i for i, g in enumerate(CATALOGUE)}
    origin_order = {o: i for i, o in enumerate(ORIGINS)}
    return [game_stats(t) for t in sorted(
        rows,
        key=lambda t: (game_order.get(t["game"], len(game_order)), t["game"],
                       origin_order.get(t["origin"], len(origin_order))))]
