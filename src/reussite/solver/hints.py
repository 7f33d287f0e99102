"""Hints for a player, computed only from what the player sees (and has seen).

A hint is the honest player's move (:mod:`reussite.solver.honest`): it samples the hidden
cards from the player view and from the cards the player has seen go by, with a fixed seed,
and judges each move on every sample on a small budget. When the samples tell the moves
apart by nothing, the move that looks best from visible information is suggested: the legal
moves of a position never depend on the identity of a face-down card, and the scoring below
reads only face-up cards and pile sizes. Either way a hint never reveals a hidden card.
"""

from __future__ import annotations

from reussite.cards import UP
from reussite.engine import STOCK_CLICK, Position, RawMove


def visible_score(pos: Position, raw: RawMove) -> float:
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


def quick_move(pos: Position) -> RawMove | None:
    """The move that looks best from visible information alone (fast), or None."""
    moves = pos.raw_moves()
    if not moves:
        return None
    return max(moves, key=lambda m: visible_score(pos, m))


def visible_hints(pos: Position) -> bool:
    """Hints in this game come from the player that searches the visible moves
    (:mod:`.honest_visible`): Spider 4 suits and Astrocyte."""
    from reussite.solver.batch import VISIBLE_HINT_GAMES
    from reussite.solver.honest_visible import plays_visible

    return pos.rules.id in VISIBLE_HINT_GAMES and plays_visible(pos.rules)


def suggest_move(pos: Position, *, time_limit: float | None = 0.6, samples: int = 12,
                 states_per_sample: int | None = 2_000, seed: int = 0) -> RawMove | None:
    """A hint from what the player sees (and has seen), or None when no move is legal.

    ``time_limit`` bounds the whole hint (seconds, None: no limit); ``states_per_sample``
    bounds each search in positions, which makes the hint reproducible for a given seed. The
    cards the player has seen are those of ``pos``'s moves from the deal
    (:class:`reussite.solver.honest.Memory`). In Spider 4 suits and Astrocyte the hint is the
    visible search's move instead (:func:`visible_hints`; its budget is ``HINT_NODES``
    positions a search, well under ``time_limit``, and it uses no sampling at all).
    """
    from reussite.solver.honest import Effort, honest_move

    if time_limit is not None and time_limit <= 0:
        return quick_move(pos)
    if visible_hints(pos):
        from dataclasses import replace

        from reussite.solver.honest_visible import HINT_NODES, visible_effort, visible_move

        # no deeper search before a deal: it would take hints past 0.3 s (docs/solver.md)
        return visible_move(pos, replace(visible_effort(pos.rules.id, HINT_NODES), deep=0))
    return honest_move(pos, Effort(samples=samples, states_per_sample=states_per_sample,
                                   time_limit=time_limit), seed=seed)
