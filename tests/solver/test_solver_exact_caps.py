"""The exact search of draw-three games turned over without limit in rounds capped at the flips
(``_core.c``, ``solve_pos``, ``EXACT_CAP0``; session 9, helper k3win9; an experiment, off in
the solver: ``_core.tune(exact_cap=...)`` turns it on).

The positions searched below a move that turns a face-down card up are capped (300 at first,
times 4 a round, as the streamlined searches' capped rounds); the round that cuts nothing off is
the whole exact search, so a ``lost`` answer still comes from a search that saw everything.
"""

from __future__ import annotations

import pytest
from helpers import assert_raw_line_wins, without_the_card_set_search  # noqa: F401 (a fixture)

from reussite.engine import Position
from reussite.games import get_game
from reussite.solver import _core, core  # type: ignore[attr-defined]

pytestmark = pytest.mark.usefixtures("without_the_card_set_search")


def _stream(pos: Position, level: int, cap: int, states: int) -> tuple[int, list, int, int]:
    return _core.stream(core.spec_of(pos), core.piles_of(pos), pos.redeals_used, -1.0, states,
                        False, level, cap, 4)


def test_the_exact_search_capped_at_the_flips_wins_where_one_round_sinks() -> None:
    """Klondike draw 3, deal 1191 (not judged): the exact search's children (level 0) in rounds
    capped at the flips win within 20,000 positions (4,937 measured) and the line replays; the
    same search in one round finds nothing in 200,000."""
    pos = Position.deal(get_game("klondike-draw-3"), 1191)
    status, line, states, _ = _stream(pos, 0, 300, 20_000)
    assert status == 0 and states < 20_000
    assert_raw_line_wins(pos, [tuple(m) for m in line])
    pos = Position.deal(get_game("klondike-draw-3"), 1191)
    status, line, _, _ = _stream(pos, 0, 0, 200_000)
    assert status != 0 and line == []


def test_the_capped_exact_search_proves_a_loss_only_in_a_round_that_cut_nothing() -> None:
    """Klondike draw 3, deal 1045 (not judged) is lost: the exact search's children in one round
    see everything in 27,895 positions; in rounds capped at the flips the first two cut something
    off and the third, which cuts nothing, proves the loss (82,177 positions in all: the cost of
    the caps on a lost deal). With the capped exact search on, the solver answers lost too."""
    pos = Position.deal(get_game("klondike-draw-3"), 1045)
    status, line, states, rounds = _stream(pos, 0, 300, 400_000)
    assert status == 1 and line == [] and rounds == 3
    status, _, states1, rounds1 = _stream(pos, 0, 0, 400_000)
    assert status == 1 and rounds1 == 1 and states1 < states
    try:
        _core.tune(exact_cap=300)
        pos = Position.deal(get_game("klondike-draw-3"), 1045)
        status, line, _ = core.solve_raw(pos, None, 400_000, False)
        assert status == "lost" and line == []
    finally:
        _core.tune()


def test_the_solvers_exact_search_can_run_capped_or_in_one_round() -> None:
    """The solver wins Klondike draw 3 deal 1191 with its exact search capped at the flips or in
    one round (``_core.tune``'s ``exact_cap``, the first cap; 0: one round): its win finders win
    it first; the line replays both ways."""
    try:
        for cap in (0, 300):
            _core.tune(exact_cap=cap)
            pos = Position.deal(get_game("klondike-draw-3"), 1191)
            status, line, _ = core.solve_raw(pos, None, 400_000, False)
            assert status == "won"
            assert_raw_line_wins(pos, line)
    finally:
        _core.tune()


def test_the_best_first_search_in_restarts_of_luby_sizes_wins_sooner_on_deal_1184() -> None:
    """``_core.best_first`` with growth 0 (an experiment, off in the solver): the tries' sizes
    follow the Luby sequence (5,000 times 1, 1, 2, 1, 1, 2, 4, ...) rather than doubling each
    round of the six weightings. Klondike draw 3 deal 1184 (not judged): won within 60,000
    positions (51,226) with Luby sizes, the line replays; with doubling sizes not (71,228)."""
    pos = Position.deal(get_game("klondike-draw-3"), 1184)
    args = (core.spec_of(pos), core.piles_of(pos), pos.redeals_used, (), -1.0, 60_000, False,
            5000)
    status, line, states = _core.best_first(*args, 0)
    assert status == 0 and states <= 60_000
    assert_raw_line_wins(pos, [tuple(m) for m in line])
    status, line, _ = _core.best_first(*args, 2)
    assert status == 2 and line == []
