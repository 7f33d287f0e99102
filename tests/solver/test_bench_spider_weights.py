"""``bench/spider_weights_cma.py`` (the CMA-ES fit of the Spider 4 suits weights): its games
are the shipped player's, CMA's start is the shipped weights, the judged deals are refused,
and its sign test is the binomial tail. (``cma`` itself is not needed for these.)"""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import asdict
from pathlib import Path
from types import ModuleType

import pytest

from reussite.solver.batch import decide
from reussite.solver.honest_visible import Weights

BENCH = Path(__file__).resolve().parents[2] / "bench" / "spider_weights_cma.py"


def load_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_spider_weights", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_start_is_the_shipped_weights_scaled() -> None:
    m = load_module()
    scaled = m.weights_of([0.0] * len(m.TUNED))
    assert asdict(scaled) == {k: m.SCALE * v for k, v in asdict(Weights()).items()}
    lower = m.weights_of([-100.0] * len(m.TUNED))
    assert all(getattr(lower, name) == 0 for name in m.TUNED)


def test_the_judged_deals_are_refused() -> None:
    m = load_module()
    assert m.deal_range("1001-1003,1101") == [1001, 1002, 1003, 1101]
    with pytest.raises(SystemExit):
        m.deal_range("999-1001")


def test_the_sign_test_is_the_binomial_tail() -> None:
    m = load_module()
    assert m.sign_test(0, 0) == 1.0
    assert m.sign_test(3, 0) == pytest.approx(1 / 8)
    assert m.sign_test(7, 2) == pytest.approx(46 / 512)


@pytest.mark.slow
def test_a_game_is_the_shipped_players_game() -> None:
    m = load_module()
    row = m.play_deal(1001, Weights())
    shipped = decide("spider", 1001, None, "honest")
    assert (row["status"], row["moves"], row["ending"]) == (
        shipped.status, shipped.moves, shipped.ending)
    assert row["up"] + row["down"] == 44 and 0 <= row["home"] <= 104
