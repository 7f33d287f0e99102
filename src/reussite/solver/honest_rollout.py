"""The rollout player of the Spider-type games (``--method rollout``): the visible player,
its best candidates judged on samples of the hidden cards.

The visible player (:mod:`.honest_visible`) goes to the best position its search of the
masked position reaches. This player asks the same search for its *candidates*: the best
position reached through each of the root's moves (the C core's ``visible_plan`` with ``k``),
each line cut at its first card turned up (where the player looks again), and the deal (the
best position to deal from, then the deal); the visible player's own choice is always the
first of them. When there are two or more, each is judged on samples:

- **Samples.** ``samples`` positions that look exactly like the game, the unseen cards (face
  down and the stock) dealt at random (:func:`.honest.sample_position`), the generator seeded
  from the deal's number and the masked position alone: the same view, the same samples.
- **Judging** (the default, ``horizon`` 0, ``reveal``): on each sample, the candidate is
  played, which turns a card up (or deals a row) there, and the visible search
  (``rollout_nodes`` positions) looks on from the masked position that follows: the
  candidate is worth the best evaluation it reaches. Over the samples, that is a chance node
  at the card turned up, one level deep (an expectation over the unseen cards), the visible
  search as its value. With ``horizon`` H > 0 the visible player first plays H more
  decisions on the sample (-1: to the end of the game, a Monte Carlo rollout; without
  ``reveal`` the rollout is worth the evaluation where it stopped); ``win`` more for a won
  sample. The candidates share the samples (common random numbers).
- **The choice.** The candidate with the best mean is played (ties: the visible player's
  order), up to its first card turned up; then the player looks again.

This is policy improvement on the visible player (Bertsekas's rollouts; Yan et al. for
Klondike): the searches see only the masked position of a sample, and the samples read only
the player's view. Nothing else is random: the same view gives the same move.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable
from dataclasses import dataclass, replace

from reussite.engine import STOCK_RAW, Position, RawMove
from reussite.solver.honest import HonestGame, sample_position
from reussite.solver.honest_visible import (
    VisibleEffort,
    _turned,
    decide,
    masked_piles,
    masked_search,
    plan,
    play_lines,
    visible_effort,
)


@dataclass(frozen=True)
class RolloutEffort:
    """How hard the rollout player thinks: ``nodes`` positions for the search of a decision
    (the visible player's), ``candidates`` of its lines judged (the deal more, with
    ``deal``), on ``samples`` samples, by a search of ``rollout_nodes`` positions after
    ``horizon`` decisions of the visible player on the sample (0: at once; -1: at the end of
    the game); ``reveal``: the candidate is worth the best evaluation that search reaches,
    else the evaluation where the rollout stopped; ``win``: what a won sample adds."""

    nodes: int = 20_000
    candidates: int = 3
    samples: int = 6
    rollout_nodes: int = 20_000
    horizon: int = 0
    win: int = 1_000
    deal: bool = True
    reveal: bool = True


def rollout_effort(nodes: int | None = None, samples: int | None = None) -> RolloutEffort:
    """The default effort, ``nodes`` positions per search of a decision and ``samples``
    samples when given."""
    effort = RolloutEffort()
    if nodes is not None:
        effort = replace(effort, nodes=nodes)
    if samples is not None:
        effort = replace(effort, samples=samples)
    return effort


def _evaluation(pos: Position, effort: VisibleEffort) -> int:
    """The visible evaluation of ``pos`` (the C core's ``v_eval``)."""
    from reussite.solver import _core

    return int(_core.visible_plan(*masked_search(pos, effort), False, 1, False)[1])


def _cut(pos: Position, line: list[RawMove]) -> list[RawMove]:
    """``line`` up to its first card turned up (or the deal), as the player plays it."""
    done: list[RawMove] = []
    for m in line:
        pos.push_raw(m)
        done.append(m)
        if _turned(pos) or pos.is_won():
            break
    for _ in done:
        pos.pop()
    return done


def candidates(pos: Position, effort: RolloutEffort, weights: VisibleEffort,
               spent: list[int] | None = None) -> list[list[RawMove]]:
    """The lines judged at ``pos``, each cut at its first card turned up: the visible player's
    choice first, then the best position through each root move (those that turn a card up
    or improve the evaluation), then the deal; no two leading to the same position."""
    from reussite.solver import _core

    first = decide(pos, weights, spent)
    if not first:
        return []
    out = [_cut(pos, first)]
    seen = {_key_after(pos, out[0])}
    best, root, _, count, alts = _core.visible_plan(
        *masked_search(pos, weights), False, effort.nodes, weights.stop_at_reveal,
        effort.candidates + 2)
    if spent is not None:
        spent[0] += count
    lines: list[list[RawMove]] = []
    for value, alt in alts:
        line = _cut(pos, [(m[0], m[1], m[2]) for m in alt])
        if not line or (len(line) == len(alt) and value <= root):
            continue  # turns nothing up and improves nothing: a detour, not a step
        lines.append(line)
    if effort.deal and pos.piles[0] and STOCK_RAW in pos.raw_moves():
        _, _, pre, count = _core.visible_plan(
            *masked_search(pos, weights), True, effort.nodes, weights.stop_at_reveal)
        if spent is not None:
            spent[0] += count
        deal = [(m[0], m[1], m[2]) for m in pre] + [STOCK_RAW]
        cut = _cut(pos, deal)
        if cut == deal:
            lines.append(deal)
    for line in lines:
        if len(out) >= effort.candidates:
            break
        key = _key_after(pos, line)
        if key not in seen:
            seen.add(key)
            out.append(line)
    return out


def _key_after(pos: Position, line: list[RawMove]) -> tuple[bytes, ...]:
    for m in line:
        pos.push_raw(m)
    key = masked_piles(pos)
    for _ in line:
        pos.pop()
    return key


def rollout(sample: Position, line: list[RawMove], effort: RolloutEffort,
            weights: VisibleEffort) -> int:
    """The worth of playing ``line`` on ``sample`` (a copy is played), then the visible
    player with a small search for ``horizon`` decisions (-1: to the end): the best
    evaluation a search from there reaches (``reveal``), else the evaluation there."""
    pos = sample.copy()
    small = VisibleEffort(effort.rollout_nodes, weights.weights, weights.stop_at_reveal)
    for m in line:
        pos.push_raw(m)
    decisions = 0
    while not pos.is_won() and (effort.horizon < 0 or decisions < effort.horizon):
        step = decide(pos, small)
        if not step:
            break
        decisions += 1
        for m in step:
            pos.push_raw(m)
            if _turned(pos) or pos.is_won():
                break
        if len(pos.history) > 3_000:
            break
    if pos.is_won():
        return _evaluation(pos, weights) + effort.win
    if effort.reveal:
        best, root, _, _ = plan(pos, small, False)
        return max(best, root)
    return _evaluation(pos, weights)


def _seed(pos: Position) -> int:
    """The samples' seed: the deal's number and what the player sees, nothing else."""
    view = b"|".join(masked_piles(pos)) + bytes([pos.redeals_used & 255])
    return zlib.crc32(view) * 1_000_003 + pos.number


def choose(pos: Position, effort: RolloutEffort, weights: VisibleEffort,
           spent: list[int] | None = None) -> list[RawMove]:
    """The line the player plays from ``pos`` (up to its first card turned up), empty when
    nothing helps."""
    lines = candidates(pos, effort, weights, spent)
    if len(lines) < 2:
        return lines[0] if lines else []
    return lines[best_line(pos, lines, effort.samples,
                           lambda sample, line: rollout(sample, line, effort, weights))]


def best_line(pos: Position, lines: list[list[RawMove]], samples: int,
              judge: Callable[[Position, list[RawMove]], int]) -> int:
    """The index of the line of ``lines`` with the best total of ``judge(sample, line)`` over
    ``samples`` samples of the unseen cards (seeded from the view alone, :func:`_seed`; the
    lines share the samples); ties go to the earlier line. ``judge`` must leave the sample as
    it was."""
    rng = random.Random(_seed(pos))
    totals = [0] * len(lines)
    for _ in range(samples):
        sample = sample_position(pos, rng)
        for i, line in enumerate(lines):
            totals[i] += judge(sample, line)
    return max(range(len(lines)), key=lambda i: (totals[i], -i))


def rollout_move(pos: Position, effort: RolloutEffort = RolloutEffort()) -> RawMove | None:
    """The player's move from ``pos``, or None when no move is legal (when nothing helps, the
    first legal move)."""
    legal = pos.raw_moves()
    if not legal:
        return None
    line = choose(pos, effort, visible_effort(pos.rules.id, effort.nodes))
    return line[0] if line else legal[0]


def play_rollout_game(pos: Position, effort: RolloutEffort = RolloutEffort(), *,
                      max_moves: int = 5_000, patience: int = 300) -> HonestGame:
    """Play ``pos`` (a copy) to the end as this player; ``won`` or ``lost`` (``seconds``: CPU
    time)."""
    weights = visible_effort(pos.rules.id, effort.nodes)
    return play_lines(pos, lambda p, spent: choose(p, effort, weights, spent),
                      max_moves=max_moves, patience=patience)
