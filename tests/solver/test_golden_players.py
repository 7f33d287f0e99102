"""Golden replays: every shipped player on fixed deals, on budgets counted in positions, does
exactly what it did when tests/golden/players.json was written (the status, the moves, the
positions searched, the hints). A refactoring of the solver must leave these unchanged; a
change of behaviour rewrites the file (tests/golden/make_players.py) in a commit that says why.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

from reussite.games import CATALOGUE

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
EXPECTED = json.loads((GOLDEN / "players.json").read_text())


def _maker() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_players", GOLDEN / "make_players.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MAKER = _maker()


def test_every_game_has_golden_replays() -> None:
    assert sorted(EXPECTED) == sorted(CATALOGUE)


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(CATALOGUE))
def test_full_information_solver_replays_its_golden_answers(game: str) -> None:
    for number, expected in EXPECTED[game]["solve"].items():
        assert MAKER.solve_case(game, int(number)) == expected, (game, number)


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(CATALOGUE))
def test_honest_player_replays_its_golden_games(game: str) -> None:
    for number, expected in EXPECTED[game]["honest"].items():
        assert MAKER.honest_case(game, int(number)) == expected, (game, number)


@pytest.mark.parametrize("game", sorted(CATALOGUE))
def test_hints_replay_their_golden_answers(game: str) -> None:
    for number, expected in EXPECTED[game]["hint"].items():
        assert MAKER.hint_case(game, int(number)) == expected, (game, number)
