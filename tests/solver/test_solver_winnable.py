"""The shipped lists of winnable deals: a sample of them really solves."""

from __future__ import annotations

import pytest

from reussite.engine import Position
from reussite.games import CATALOGUE, get_game
from reussite.solver.search import solve
from reussite.winnable import winnable_numbers

SHIPPED = [g for g in CATALOGUE if winnable_numbers(g)]
# Positions a listed deal was won within. Leap Year's listed deals of 761-1260 were won at 10 s
# of CPU a deal, by the wide beam on 75 % of the budget; each is listed only when it is won on
# 10 million positions too.
BUDGET = {"leap-year": 10_000_000}


def test_lists_are_shipped_for_the_main_games() -> None:
    for game in ("klondike", "klondike-draw-3", "athena", "spider-1-suit"):
        assert len(winnable_numbers(game)) >= 100, game


@pytest.mark.slow
@pytest.mark.parametrize("game", SHIPPED)
def test_a_sample_of_shipped_numbers_solves(game: str) -> None:
    numbers = winnable_numbers(game)
    assert len(set(numbers)) == len(numbers)
    # The first, the middle and the last number of the list: the solver is deterministic
    # given a budget of positions, and each listed deal was won within this (the lists of
    # the C core's time were extended with --states 1000000 or 2 s a deal; it stops as soon
    # as it wins, so easy deals cost little).
    for number in sorted({numbers[0], numbers[len(numbers) // 2], numbers[-1]}):
        pos = Position.deal(get_game(game), number)
        result = solve(pos, time_limit=None, max_states=BUDGET.get(game, 3_000_000))
        assert result.status == "won", (game, number)
        for m in result.moves:
            pos.play(m)
        assert pos.status() == "won"
