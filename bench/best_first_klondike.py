"""The Klondike draw 3 best-first search alone (``_core.best_first``, the built-in weightings),
per deal: won or not, CPU seconds, positions (jsonl). Session 9, helper k3win9.

Usage: python bench/best_first_klondike.py OUT LABEL SECONDS FIRST GROW DEAL...
(GROW 0: restarts of Luby sizes, FIRST times 1, 1, 2, 1, 1, 2, 4, ...)."""
from __future__ import annotations

import json
import sys
import time

from reussite.engine import Position
from reussite.games import get_game
from reussite.solver import _core, core  # type: ignore[attr-defined]
from reussite.solver.batch import check_win


def main() -> None:
    out, label, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
    first, grow = int(sys.argv[4]), int(sys.argv[5])
    with open(out, "a") as f:
        for d in [int(x) for x in sys.argv[6:]]:
            pos = Position.deal(get_game("klondike-draw-3"), d)
            t = time.process_time()
            st, line, states = _core.best_first(core.spec_of(pos), core.piles_of(pos),
                                                pos.redeals_used, (), seconds, -1, True,
                                                first, grow)
            cpu = time.process_time() - t
            won = st == 0 and bool(line)
            if won:
                check_win(pos, [tuple(m) for m in line])
            row = {"deal": d, "won": won, "cpu_seconds": round(cpu, 3), "states": states,
                   "label": label}
            f.write(json.dumps(row) + "\n")
            f.flush()
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
