"""Write tests/golden/players.json: what every shipped player does on fixed deals, on budgets
counted in positions (so the same on any machine). Not run by the tests; run it only when a
player's behaviour is meant to change, and say why in the commit.

    .venv/bin/python tests/golden/make_players.py
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from reussite.engine import Position
from reussite.games import CATALOGUE, get_game
from reussite.solver.batch import decide
from reussite.solver.hints import suggest_move
from reussite.solver.search import solve

HERE = Path(__file__).parent
SOLVE_STATES = 300_000
"""Positions of each full-information solve."""
HONEST_STATES = 200
"""Positions per search of the honest players (per sample, per plan or per visible search)."""
HONEST_SAMPLES = 4
HINT_MOVES = (0, 5, 20)
"""Hints asked after this many moves of the solver's line (or of the first legal moves)."""


def line_digest(line: list[Any]) -> str:
    return hashlib.sha256(json.dumps([list(m) for m in line]).encode()).hexdigest()[:16]


def solve_case(game: str, number: int) -> dict[str, Any]:
    pos = Position.deal(get_game(game), number)
    r = solve(pos, time_limit=None, max_states=SOLVE_STATES)
    return {"status": r.status, "states": r.states, "moves": len(r.raw_line),
            "line": line_digest(r.raw_line)}


def honest_case(game: str, number: int) -> dict[str, Any]:
    o = decide(game, number, None, "honest", states=HONEST_STATES, samples=HONEST_SAMPLES)
    return {"status": o.status, "moves": o.moves, "states": o.states, "ending": o.ending}


def hint_case(game: str, number: int) -> list[Any]:
    pos = Position.deal(get_game(game), number)
    out: list[Any] = []
    played = 0
    for target in HINT_MOVES:
        while played < target:
            moves = pos.raw_moves()
            if not moves:
                break
            pos.push_raw(moves[played % len(moves)])
            played += 1
        hint = suggest_move(pos, time_limit=None, samples=4, states_per_sample=500, seed=0)
        out.append([played, None if hint is None else list(hint)])
    return out


def main() -> None:
    games = sys.argv[1:] or list(CATALOGUE)
    path = HERE / "players.json"
    data: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {}
    for game in games:
        data[game] = {
            "solve": {str(n): solve_case(game, n) for n in (1, 2)},
            "honest": {str(n): honest_case(game, n) for n in (1,)},
            "hint": {str(n): hint_case(game, n) for n in (1,)},
        }
        print(game, json.dumps(data[game]), flush=True)
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
