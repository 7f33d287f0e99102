"""The post-game analysis (solver/analysis.py): the binary search along the player's line.

The lines are built for the test: the solver's own win from Klondike deal 1 followed for a while,
then a move that throws the win away (the solver proves the position after it lost), then more
moves. Budgets are counted in positions, so the answers are the same on every machine.
"""

from __future__ import annotations

import pytest
from helpers import ANALYSIS_STATES, after, carry_on, lost_on_purpose

from reussite.engine import IllegalMoveError, Position, RawMove
from reussite.games import get_game
from reussite.solver.analysis import analyse, replays_to_win
from reussite.solver.search import SolveResult, solve

STATES = ANALYSIS_STATES


def deal(game: str, number: int) -> Position:
    return Position.deal(get_game(game), number)


def winning_line(pos: Position) -> list[RawMove]:
    result = solve(pos, time_limit=None, max_states=STATES)
    assert result.status == "won"
    return result.raw_line


@pytest.fixture(scope="module")
def klondike_loss() -> tuple[Position, list[RawMove], int]:
    """Klondike deal 1: the solver's line up to a losing deviation, then 40 more moves."""
    return lost_on_purpose("klondike", 1, start=10, more=40)


def test_the_binary_search_names_exactly_the_move_that_lost(
        klondike_loss: tuple[Position, list[RawMove], int]) -> None:
    pos, player, losing = klondike_loss
    result = analyse(pos, player, cpu_budget=None, max_states=STATES)
    assert result.opening == "won"
    assert result.losing_move == losing
    assert result.last_winnable == losing - 1 and result.first_lost == losing
    assert result.exact and result.suspect_moves == [] and result.uncertain == []
    # Both sides, checked independently: a win from position k that replays, a loss at k+1.
    assert replays_to_win(after(pos, player[:losing - 1]), result.win_from_last)
    assert solve(after(pos, player[:losing]), time_limit=None,
                 max_states=STATES).status == "lost"
    # A handful of solves, not one per move.
    assert result.solves <= 2 + len(player).bit_length() + 2


def test_the_losing_move_is_found_wherever_it_lies_on_the_line(
        klondike_loss: tuple[Position, list[RawMove], int]) -> None:
    pos, player, losing = klondike_loss
    # Cut the line right after the losing move: the last position is the lost one.
    short = analyse(pos, player[:losing], cpu_budget=None, max_states=STATES)
    assert short.losing_move == losing


def test_every_line_the_analysis_gives_replays_to_a_win(
        klondike_loss: tuple[Position, list[RawMove], int]) -> None:
    pos, player, _ = klondike_loss
    result = analyse(pos, player, cpu_budget=None, max_states=STATES)
    assert replays_to_win(pos, result.opening_line)
    assert result.last_winnable is not None
    assert replays_to_win(after(pos, player[:result.last_winnable]), result.win_from_last)


def test_a_won_game_compares_the_players_length_with_the_solvers_win() -> None:
    pos = deal("klondike", 1)
    line = winning_line(pos)
    result = analyse(pos, line, cpu_budget=None, max_states=STATES)
    assert result.won and result.exact and result.losing_move is None
    assert result.moves == len(line)
    assert result.opening == "won" and replays_to_win(pos, result.opening_line)


def test_a_deal_proved_lost_says_so_and_names_no_move() -> None:
    pos = deal("klondike", 3)
    assert solve(pos, time_limit=None, max_states=STATES).status == "lost"
    player = carry_on(pos, 30)
    result = analyse(pos, player, cpu_budget=None, max_states=STATES)
    assert result.opening == "lost" and result.exact
    assert result.losing_move is None and result.last_winnable is None
    assert result.opening_line == [] and result.win_from_last == []


def test_a_game_given_up_while_still_winnable_names_no_losing_move() -> None:
    pos = deal("klondike", 1)
    line = winning_line(pos)[:30]
    result = analyse(pos, line, cpu_budget=None, max_states=STATES)
    assert result.still_winnable and result.exact
    assert result.losing_move is None and result.suspect_moves == []
    assert result.last_winnable == 30
    assert replays_to_win(after(pos, line), result.win_from_last)


def test_positions_the_solver_cannot_decide_are_called_uncertain_not_guessed(
        klondike_loss: tuple[Position, list[RawMove], int]) -> None:
    pos, player, losing = klondike_loss
    undecided = {losing, losing + 1, losing + 2}

    def oracle(at: Position, seconds: float | None, states: int | None) -> SolveResult:
        """The real solver, except that it cannot decide a few positions around the loss."""
        if at.moves_played in undecided:
            return SolveResult("unknown")
        return solve(at, time_limit=None, max_states=STATES)

    result = analyse(pos, player, cpu_budget=None, max_states=STATES, solver=oracle)
    assert result.losing_move is None and not result.exact
    # Won up to losing - 1 (the player followed the deal's winning line so far), lost from
    # losing + 3 (decided): the losing move is one of the four moves between, and the answer
    # names them and the positions left undecided.
    assert result.last_winnable == losing - 1 and result.first_lost == losing + 3
    assert result.suspect_moves == [losing, losing + 1, losing + 2, losing + 3]
    assert result.uncertain == [losing, losing + 1, losing + 2]


def test_a_line_the_engine_refuses_is_an_error() -> None:
    pos = deal("klondike", 1)
    with pytest.raises(IllegalMoveError):
        analyse(pos, [(1, 1, 1)], cpu_budget=None, max_states=STATES)


def test_under_a_cpu_budget_every_answer_given_is_still_proved() -> None:
    pos = deal("spider", 5)
    player = carry_on(pos, 60)
    result = analyse(pos, player, cpu_budget=0.5)
    if result.opening == "won":
        assert replays_to_win(pos, result.opening_line)
        assert result.last_winnable is not None
        assert replays_to_win(after(pos, player[:result.last_winnable]), result.win_from_last)
    if result.losing_move is not None:
        assert solve(after(pos, player[:result.losing_move]), time_limit=None,
                     max_states=STATES).status != "won"
    if not result.exact:
        assert result.losing_move is None
