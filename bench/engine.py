"""Engine benchmark: random playouts, per game.

Prints, for each game, full legal-move generations per second and play+take-back pairs per
second on one core, and the ratio to the targets of the Astrocyte issue (100,000 pairs and
20,000 generations per second). The pairs are the solver's: ``push_raw`` (no check) and
``pop``. The last column is the checked path of a player's move, ``play(Move)`` (which
generates the legal moves to check it) and ``pop``, for information.
Rates are per second of this process's CPU time (``time.process_time``), so that a machine
busy with other work still gives the figure of one core. Run:
``.venv/bin/python bench/engine.py [GAME ...]``.
"""

from __future__ import annotations

import random
import sys
import time

from reussite.engine import Position
from reussite.games import CATALOGUE

TARGET_PAIRS = 100_000
TARGET_GENERATIONS = 20_000


def sample_positions(game_id: str, count: int = 200) -> list[Position]:
    """Positions met along random playouts of deals 1.., each a fresh copy."""
    rng = random.Random(2026)
    out: list[Position] = []
    number = 1
    while len(out) < count:
        pos = Position.deal(CATALOGUE[game_id], number)
        number += 1
        for _ in range(60):
            moves = pos.raw_moves()
            if not moves:
                break
            pos.push_raw(rng.choice(moves))
            if rng.random() < 0.2:
                out.append(pos.copy())
    return out[:count]


def bench(game_id: str, seconds: float = 1.0) -> tuple[float, float, float]:
    positions = sample_positions(game_id)
    gens = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for p in positions:
            p.raw_moves()
        gens += len(positions)
    gen_rate = gens / (time.process_time() - start)
    work = [(p, p.raw_moves()) for p in positions]
    pairs = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for p, moves in work:
            push, pop = p.push_raw, p.pop
            for m in moves:
                push(m)
                pop()
            pairs += len(moves)
    pair_rate = pairs / (time.process_time() - start)
    checked = [(p, p.legal_moves()) for p in positions]
    plays = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for p, legal in checked:
            for m in legal:
                p.play(m)
                p.pop()
            plays += len(legal)
    play_rate = plays / (time.process_time() - start)
    return gen_rate, pair_rate, play_rate


def main() -> None:
    games = sys.argv[1:] or list(CATALOGUE)
    unknown = [g for g in games if g not in CATALOGUE]
    if unknown:
        print(f"bench/engine.py: unknown game {unknown[0]!r}; the games are:"
              f" {', '.join(CATALOGUE)}", file=sys.stderr)
        sys.exit(2)
    print(f"{'game':<16} {'generations/s':>14} {'ratio':>6} {'play+undo/s':>12} {'ratio':>6}"
          f" {'checked/s':>10}")
    for gid in games:
        g, p, c = bench(gid)
        print(f"{gid:<16} {g:>14,.0f} {g / TARGET_GENERATIONS:>6.2f} {p:>12,.0f}"
              f" {p / TARGET_PAIRS:>6.2f} {c:>10,.0f}")


if __name__ == "__main__":
    main()
