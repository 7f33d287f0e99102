"""Hints computed in the worker pool: a legal move of the position as the player has it; the
quick visible hint when the pool is crowded; in the web process when the pool is turned off."""

from __future__ import annotations

import pytest

from reussite.engine import Position
from reussite.games import get_game
from reussite.solver.hints import quick_move
from reussite.web import hintpool


def played(game: str, number: int, moves: int) -> Position:
    pos = Position.deal(get_game(game), number)
    for _ in range(moves):
        legal = pos.raw_moves()
        if not legal:
            break
        pos.push_raw(legal[len(legal) // 2])
    return pos


@pytest.mark.parametrize("game", ["klondike", "spider", "astrocyte"])
def test_the_pools_hint_is_a_legal_move_of_the_position_rebuilt_from_its_moves(
        game: str) -> None:
    pos = played(game, 21, 12)
    raw = hintpool.hint(pos)
    assert raw is not None and raw in pos.raw_moves()


def test_a_crowded_pool_answers_the_quick_hint_at_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    pos = played("klondike", 22, 5)
    monkeypatch.setattr(hintpool, "_waiting", hintpool.QUEUE_PER_WORKER * 10)
    assert hintpool.hint(pos) == quick_move(pos)


def test_no_pool_computes_in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REUSSITE_HINT_WORKERS", "0")
    pos = played("spider", 23, 8)
    raw = hintpool.hint(pos)
    assert raw is not None and raw in pos.raw_moves()
