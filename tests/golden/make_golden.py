"""Write the golden files that pin the deals and the move generator. Not run by the tests.

Run it only when a change to the deals or to the move generator is *intended* (deal numbers
are stable forever: changing ``deals.json`` breaks every saved game and shared link), then
review the diff::

    .venv/bin/python tests/golden/make_golden.py

- ``deals.json``: for every game of the catalogue, deals 0..3 (and two far numbers for
  Astrocyte), every pile as a pile string, bottom to top, ``(5H)`` for a face-down card;
  the stock's last card is dealt next.
- ``move_counts.json``: for deals 1..3 of every game, the number of legal moves at each step
  of a fixed playout (see ``helpers.fixed_playout``), space-separated, and a digest of the
  final position.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from helpers import fixed_playout, piles_of  # noqa: E402

from reussite.engine import Position  # noqa: E402
from reussite.games import CATALOGUE  # noqa: E402

DEAL_NUMBERS = (0, 1, 2, 3)
EXTRA_DEAL_NUMBERS = {"astrocyte": (123_456_789, 2**64 - 1)}
PLAYOUT_DEALS = (1, 2, 3)


def golden_deals() -> dict[str, dict[str, dict[str, str]]]:
    out: dict[str, dict[str, dict[str, str]]] = {}
    for gid, rules in CATALOGUE.items():
        numbers = DEAL_NUMBERS + EXTRA_DEAL_NUMBERS.get(gid, ())
        out[gid] = {str(n): piles_of(Position.deal(rules, n)) for n in numbers}
    return out


def golden_move_counts() -> dict[str, dict[str, dict[str, str]]]:
    out: dict[str, dict[str, dict[str, str]]] = {}
    for gid, rules in CATALOGUE.items():
        out[gid] = {}
        for n in PLAYOUT_DEALS:
            counts, digest = fixed_playout(Position.deal(rules, n))
            out[gid][str(n)] = {"counts": " ".join(map(str, counts)), "final": digest}
    return out


def write(name: str, data: object) -> None:
    path = HERE / name
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    write("deals.json", golden_deals())
    write("move_counts.json", golden_move_counts())
