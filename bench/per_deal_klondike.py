"""Klondike draw 3, per deal: status, CPU seconds, the phase that ran last (jsonl).

Usage: REUSSITE_SOLVER_CLOCK=cpu python bench/per_deal_klondike.py OUT CODE SECONDS DEAL...
(session 9, helper k3win9; every won line is replayed by batch.decide)."""
from __future__ import annotations

import json
import os
import sys
import time

from reussite.solver import batch, core


def main() -> None:
    out, code, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
    deals = [int(d) for d in sys.argv[4:]]
    assert os.environ.get("REUSSITE_SOLVER_CLOCK") == "cpu"
    tune = os.environ.get("K3W9_XCAP")  # experiments: the exact search's first flip cap (0: none)
    if tune:
        from reussite.solver import _core  # type: ignore[attr-defined]

        _core.tune(exact_cap=int(tune))
    with open(out, "a") as f:
        for d in deals:
            t = time.time()
            o = batch.decide("klondike-draw-3", d, seconds)
            row = {"deal": d, "status": o.status, "states": o.states,
                   "cpu_seconds": round(o.cpu_seconds, 3),
                   "wall_seconds": round(time.time() - t, 2),
                   "phase": core.last_phase(), "replays": True if o.status == "won" else None,
                   "moves": o.moves, "code": code}
            f.write(json.dumps(row) + "\n")
            f.flush()
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
