"""Hints for a player, computed only from what the player sees (and has seen).

A hint is the move of the game's hint player (:mod:`.players`): the visible player's in
Spider 4 suits and Astrocyte, else the sampling player's, which samples the hidden cards from
the observation (the cards the player sees and remembers) with a fixed seed and judges each
move on every sample on a small budget. When the samples tell the moves apart by nothing, the
move that looks best from visible information is suggested. Either way a hint is computed from
an :class:`.observation.Observation`, which holds no hidden card.
"""

from __future__ import annotations

from dataclasses import replace

from reussite.engine import Position, RawMove
from reussite.observation import Memory, Observation, observe
from reussite.solver.player import visible_score
from reussite.solver.players import HINT, seat
from reussite.solver.sampling import Effort, sampling_move
from reussite.solver.visible import VisibleEffort, visible_move


def _observed(seen: Observation | Position) -> Observation:
    """What the player sees: ``seen`` itself, or the observation of a position (nothing else
    of the position is read)."""
    return seen if isinstance(seen, Observation) else observe(seen)


def quick_move(seen: Observation | Position) -> RawMove | None:
    """The move that looks best from visible information alone (fast), or None. It reads
    face-up cards and pile sizes only, so a position's memory is not rebuilt for it (the
    hint pool's answer when its CPU budget is spent)."""
    obs = seen if isinstance(seen, Observation) else observe(seen, Memory(seen))
    stand = obs.stand_in()
    moves = stand.raw_moves()
    if not moves:
        return None
    return max(moves, key=lambda m: visible_score(stand, m))


def suggest_move(seen: Observation | Position, *, time_limit: float | None = HINT.time_limit,
                 samples: int = HINT.samples,
                 states_per_sample: int | None = HINT.states_per_sample,
                 seed: int = 0) -> RawMove | None:
    """A hint from what the player sees (and has seen), or None when no move is legal.

    For the sampling player, ``time_limit`` bounds the whole hint (seconds, None: no limit);
    ``states_per_sample`` bounds each search in positions, which makes the hint reproducible
    for a given seed. The visible player's budget is the table's (:data:`.players.HINT_NODES`
    positions a search, well under ``time_limit``; it uses no sampling at all). A time limit
    of 0 or less: the quick hint (:func:`quick_move`).
    """
    if time_limit is not None and time_limit <= 0:
        return quick_move(seen)
    obs = _observed(seen)
    effort = seat(obs.rules.id, "hint")
    if isinstance(effort, VisibleEffort):
        return visible_move(obs, effort)
    assert isinstance(effort, Effort), "hints come from the visible or the sampling player"
    return sampling_move(obs, replace(effort, samples=samples, time_limit=time_limit,
                                      states_per_sample=states_per_sample), seed=seed)
