"""Hints for a player, computed only from what the player sees.

The legal moves of a position never depend on the identity of a face-down card, and the
scoring below reads only face-up cards and pile sizes, so a hint never reveals a hidden card.
"""

from __future__ import annotations

from reussite.cards import UP
from reussite.engine import STOCK_CLICK, Position, RawMove


def _visible_score(pos: Position, raw: RawMove) -> float:
    src, dst, n = raw
    if src == STOCK_CLICK:
        return 0.5
    kinds = pos.layout.kinds
    s, d = pos.piles[src], pos.piles[dst]
    score = 1.0
    if kinds[dst] == "foundation":
        score += 10 if kinds[src] != "foundation" else -5
    if kinds[src] == "foundation":
        score -= 3
    if kinds[dst] == "cell":
        score -= 2
    if kinds[src] == "cell" and kinds[dst] != "cell":
        score += 2
    if kinds[src] == "cell" and kinds[dst] == "cell":
        score -= 10
    rest = len(s) - n
    if rest > 0 and not s[rest - 1] & UP:
        score += 5  # uncovers a face-down card
    if rest == 0 and kinds[src] == "tableau":
        score += 3 if d else -8  # empties a pile; moving a whole pile to a space is idle
    if d and (d[-1] & 3) == (s[-n] & 3):
        score += 2  # builds in suit
    return score


def suggest_move(pos: Position) -> RawMove | None:
    """A sensible move from visible information only, or None when no move is legal."""
    moves = pos.raw_moves()
    if not moves:
        return None
    return max(moves, key=lambda m: _visible_score(pos, m))
