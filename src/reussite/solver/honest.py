"""The honest player: it sees only what a player sees, and chooses moves within a budget.

Method (determinization, "perfect-information Monte Carlo"): the unseen cards are known as a
multiset (every card of the deck minus the face-up ones). The player deals them at random into
the face-down places of the *player view* (a seeded generator: the same view and seed give the
same samples), solves each sample with the full-information solver on a small budget, and votes:

- a sample the solver wins votes (weight 1) for the first move of its winning line;
- a sample left ``unknown`` votes (weight 1/4) for the first move of the line that made the
  most progress (cards turned up, cards home);
- a sample proved lost votes for nothing.

No vote at all: the move that looks best from visible information (``hints.visible_score``).
A safe move (see :mod:`reussite.solver.search`) is played at once: it reads only face-up cards.

Nothing here reads a face-down card of the real position: samples are built from
:meth:`Position.player_view` alone.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass

from reussite.cards import UP, build_deck, parse_card
from reussite.engine import Position, RawMove
from reussite.solver.search import SAFE, knowledge, solve

UNKNOWN_WEIGHT = 0.25


def unseen_cards(pos: Position, view: dict[str, list[dict[str, object]]]) -> list[int]:
    """The cards the player cannot see, as a sorted multiset (deck minus the face-up cards)."""
    left = Counter(build_deck(pos.rules.packs, pos.rules.suits))
    for entries in view.values():
        for e in entries:
            code = e["card"]
            if isinstance(code, str):
                left[parse_card(code)] -= 1
    return sorted(left.elements())


def sample_position(pos: Position, rng: random.Random) -> Position:
    """A position that looks exactly like ``pos`` to the player, hidden cards drawn at random."""
    view = pos.player_view()
    hidden = unseen_cards(pos, view)
    rng.shuffle(hidden)
    piles: list[list[int]] = []
    for pid in pos.layout.ids:
        pile = []
        for e in view[pid]:
            code = e["card"]
            pile.append(parse_card(code) | UP if isinstance(code, str) else hidden.pop())
        piles.append(pile)
    return Position(pos.rules, pos.number, piles, pos.redeals_used)


def visible_key(pos: Position) -> tuple[object, ...]:
    """What the player sees, as a hashable value (face-down cards as 0)."""
    return (pos.redeals_used, tuple(tuple(c if c & UP else 0 for c in p) for p in pos.piles))


def ranked_moves(pos: Position, *, samples: int = 6, time_limit: float | None = 1.0,
                 states_per_sample: int | None = 3_000, seed: int = 0,
                 effort: list[int] | None = None) -> list[tuple[float, RawMove]]:
    """The legal moves with their votes, best first (see the module's docstring)."""
    from reussite.solver.hints import visible_score

    moves = pos.raw_moves()
    if not moves:
        return []
    info = knowledge(pos)
    for m in moves:
        if info.score(pos, m, None, -1, -1, set()) == SAFE:
            return [(float(samples), m)]
    votes: dict[RawMove, float] = dict.fromkeys(moves, 0.0)
    rng = random.Random(seed)
    per_sample = None if time_limit is None else time_limit / samples
    for _ in range(samples):
        sample = sample_position(pos, rng)
        result = solve(sample, time_limit=per_sample, max_states=states_per_sample,
                       best_line=True)
        if effort is not None:
            effort[0] += result.states
        if result.status == "won" and result.raw_line:
            votes[result.raw_line[0]] = votes.get(result.raw_line[0], 0.0) + 1.0
        elif result.status == "unknown" and result.raw_line:
            votes[result.raw_line[0]] = votes.get(result.raw_line[0], 0.0) + UNKNOWN_WEIGHT
    return sorted(((v, m) for m, v in votes.items() if m in moves),
                  key=lambda vm: (-vm[0], -visible_score(pos, vm[1])))


def honest_move(pos: Position, *, samples: int = 6, time_limit: float | None = 1.0,
                states_per_sample: int | None = 3_000, seed: int = 0) -> RawMove | None:
    """The honest player's move, or None when no move is legal."""
    ranked = ranked_moves(pos, samples=samples, time_limit=time_limit,
                          states_per_sample=states_per_sample, seed=seed)
    return ranked[0][1] if ranked else None


@dataclass
class HonestGame:
    """How a game played by the honest player ended."""

    status: str
    moves: int
    states: int
    seconds: float


def play_honest_game(pos: Position, *, time_per_move: float = 0.5, seed: int = 0,
                     samples: int = 4, max_moves: int = 2_000) -> HonestGame:
    """Play ``pos`` (a copy) to the end as the honest player; ``won`` or ``lost``.

    The game ends lost when no move is legal, when the clear-end detector says nothing can
    change any more, or when every move the player would consider leads back to something it
    has already seen (it would only go round in circles).
    """
    from reussite.solver.search import is_stuck

    start = time.perf_counter()
    pos = pos.copy()
    seen: set[tuple[object, ...]] = {visible_key(pos)}
    turn = 0
    effort = [0]
    while not pos.is_won() and turn < max_moves:
        if is_stuck(pos, max_states=300):
            break
        legal = pos.raw_moves()
        if len(legal) == 1:
            ranked = [(0.0, legal[0])]
        else:
            ranked = ranked_moves(pos, samples=samples, time_limit=time_per_move,
                                  states_per_sample=None, seed=seed * 7919 + turn,
                                  effort=effort)
        chosen = None
        for _, m in ranked:
            pos.push_raw(m)
            key = visible_key(pos)
            pos.pop()
            if key not in seen:
                chosen = m
                seen.add(key)
                break
        if chosen is None:
            break
        pos.push_raw(chosen)
        turn += 1
    status = "won" if pos.is_won() else "lost"
    return HonestGame(status, turn, effort[0], time.perf_counter() - start)
