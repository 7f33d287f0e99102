"""Pinned move counts ("perft"): any change to the move generator is seen.

For deals 1..3 of every game, ``golden/move_counts.json`` holds the number of legal moves at
each step of a fixed playout (at step ``s`` the move of index ``(s * 7) % len(moves)``, 60
steps; see ``helpers.fixed_playout``) and a digest of the position it ends in. The file is
written by ``golden/make_golden.py`` only when a change of the move generator is intended.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import fixed_playout

from reussite.engine import Position
from reussite.games import CATALOGUE

GOLDEN = json.loads((Path(__file__).parent.parent / "golden" / "move_counts.json").read_text())


def test_every_game_is_pinned_for_deals_1_to_3() -> None:
    assert set(GOLDEN) == set(CATALOGUE)
    assert all(set(GOLDEN[g]) == {"1", "2", "3"} for g in GOLDEN)


@pytest.mark.parametrize("game_id", list(CATALOGUE))
@pytest.mark.parametrize("number", [1, 2, 3])
def test_move_counts_along_a_fixed_playout(game_id: str, number: int) -> None:
    counts, final = fixed_playout(Position.deal(CATALOGUE[game_id], number))
    pinned = GOLDEN[game_id][str(number)]
    assert " ".join(map(str, counts)) == pinned["counts"]
    assert final == pinned["final"]
