"""After the game: was the deal winnable, which move lost it, and the win from there.

The analysis knows every card (it runs on a finished game only; the web layer refuses it
before). It works on the player's own line, the moves as played with undone moves cut:
``p_0`` is the deal and ``p_i`` the position after the player's first ``i`` moves.

**Winnability only falls along a line.** If ``p_{i+1}`` can be won, so can ``p_i`` (play move
``i+1``, then the win). So along the line the positions are winnable up to some index ``k`` and
lost after it, and move ``k+1`` is the one that threw the win away. A binary search finds ``k``
in a handful of solves instead of one per move:

- ``lo``: the furthest position known winnable (a solve answered ``won`` with a line that
  replays); a win found at ``p_i`` whose line starts with the player's next moves proves the
  positions along that common stretch winnable too, at no cost;
- ``hi``: the nearest position known lost (a proof: the solver's ``lost``, or the clear end);
- each solve asks about a position between them; one the solver cannot decide within its slice
  of the budget is set aside as *uncertain* and the search goes on with the others.

When ``hi == lo + 1`` the answer is exact: move ``hi`` lost the game. Otherwise the losing move
is one of moves ``lo + 1 .. hi``, and the analysis says so rather than guess.

The whole analysis has a budget of CPU seconds of the thread that runs it (``cpu_budget``),
shared out between the solves; tests pass ``max_states`` instead, a budget of positions for each
solve that gives the same answer on any machine.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from reussite.engine import Position, RawMove
from reussite.solver.search import SolveResult, Status, is_stuck, solve

Solver = Callable[[Position, float | None, int | None], SolveResult]
"""Decides one position: ``(position, CPU seconds or None, positions or None)``."""


def full_information(pos: Position, cpu_seconds: float | None,
                     max_states: int | None) -> SolveResult:
    """The shipped solver (:func:`.search.solve`, the C core when built) on a CPU clock."""
    return solve(pos, time_limit=cpu_seconds, max_states=max_states, clock="cpu")

DEFAULT_CPU_BUDGET = 10.0
"""CPU seconds for one whole analysis."""

MIN_SLICE = 0.05
"""No solve gets less than this many CPU seconds (while the budget lasts)."""

Opening = Literal["won", "lost", "unknown"]


@dataclass
class Analysis:
    """What the analysis found. Indices count the player's moves: position ``i`` is the one
    after the player's first ``i`` moves; move ``m`` (from 1) leads from position ``m - 1`` to
    position ``m``."""

    moves: int
    """The length of the player's line."""
    won: bool
    """The player won the game."""
    opening: Opening
    """Could the deal be won: ``won`` (with :attr:`opening_line`), ``lost`` (proved) or
    ``unknown`` (not decided within the budget)."""
    opening_line: list[RawMove] = field(default_factory=list)
    """A win from the deal, when :attr:`opening` is ``won``: the shortest the solver found."""
    last_winnable: int | None = None
    """The furthest position of the player's line known to be winnable."""
    win_from_last: list[RawMove] = field(default_factory=list)
    """A winning line from position :attr:`last_winnable` (it replays to a win)."""
    first_lost: int | None = None
    """The nearest position after :attr:`last_winnable` proved lost, if any."""
    uncertain: list[int] = field(default_factory=list)
    """Positions between the two that the solver could not decide within the budget."""
    solves: int = 0
    positions: int = 0
    cpu_seconds: float = 0.0

    @property
    def losing_move(self) -> int | None:
        """The move that lost the game, when both sides are decided: a winning line from the
        position before it, and a proof that the position after it is lost."""
        if self.last_winnable is not None and self.first_lost == self.last_winnable + 1:
            return self.first_lost
        return None

    @property
    def suspect_moves(self) -> list[int]:
        """When the losing move is not known exactly: the moves among which it lies (from the
        one after the last winnable position up to the one that reaches the first lost
        position, or the end of the line when no position after it was proved lost)."""
        if self.won or self.opening != "won" or self.losing_move is not None:
            return []
        if self.still_winnable:
            return []
        assert self.last_winnable is not None
        end = self.first_lost if self.first_lost is not None else self.moves
        return list(range(self.last_winnable + 1, end + 1))

    @property
    def still_winnable(self) -> bool:
        """The game ended (given up) in a position that could still be won."""
        return not self.won and self.last_winnable == self.moves

    @property
    def exact(self) -> bool:
        """Both sides decided: a won game, a deal proved lost, a game given up while still
        winnable, or the losing move found."""
        return (self.won or self.opening == "lost" or self.still_winnable
                or self.losing_move is not None)

    def to_json(self) -> dict[str, object]:
        return {
            "moves": self.moves,
            "won": self.won,
            "opening": self.opening,
            "opening_line": [list(m) for m in self.opening_line],
            "last_winnable": self.last_winnable,
            "win_from_last": [list(m) for m in self.win_from_last],
            "first_lost": self.first_lost,
            "losing_move": self.losing_move,
            "suspect_moves": self.suspect_moves,
            "uncertain": self.uncertain,
            "still_winnable": self.still_winnable,
            "exact": self.exact,
            "solves": self.solves,
            "positions": self.positions,
            "cpu_seconds": round(self.cpu_seconds, 3),
        }


def positions_along(deal: Position, line: list[RawMove]) -> list[Position]:
    """``p_0 .. p_n``: the deal and the position after each of the player's moves, each move
    checked by the engine (a line that does not replay is refused with the engine's error)."""
    out = [deal.copy()]
    pos = deal.copy()
    for raw in line:
        pos.play(pos.to_move(raw))
        out.append(pos.copy())
    return out


def replays_to_win(pos: Position, line: list[RawMove]) -> bool:
    """True when ``line`` is legal from ``pos`` move by move and ends in a win."""
    replay = pos.copy()
    for raw in line:
        if raw not in replay.raw_moves():
            return False
        replay.push_raw(raw)
    return replay.is_won()


class _Search:
    """The binary search's state: what is known of each position, and the budget."""

    def __init__(self, along: list[Position], line: list[RawMove], cpu_budget: float | None,
                 max_states: int | None, solver: Solver) -> None:
        self.solver = solver
        self.along = along
        self.line = line
        self.max_states = max_states
        self.start = time.thread_time()
        self.deadline = None if cpu_budget is None else self.start + cpu_budget
        self.known: dict[int, Status] = {}
        self.wins: dict[int, list[RawMove]] = {}
        self.solves = 0
        self.positions = 0

    def left(self) -> float | None:
        return None if self.deadline is None else self.deadline - time.thread_time()

    def out_of_budget(self) -> bool:
        left = self.left()
        return left is not None and left <= 0

    def slice(self, solves_to_come: int) -> float | None:
        left = self.left()
        if left is None:
            return None
        return max(MIN_SLICE, left / max(1, solves_to_come))

    def ask(self, i: int, solves_to_come: int) -> Status:
        """Decide position ``i`` (once; later asks read the answer)."""
        if i in self.known:
            return self.known[i]
        pos = self.along[i]
        status: Status
        line: list[RawMove]
        if pos.is_won():
            status, line = "won", []
        elif is_stuck(pos):
            status, line = "lost", []
        else:
            result = self.solver(pos, self.slice(solves_to_come), self.max_states)
            self.solves += 1
            self.positions += result.states
            status, line = result.status, result.raw_line
            if status == "won" and not replays_to_win(pos, line):
                # A line that does not replay proves nothing: never count the position won.
                status, line = "unknown", []
        self.known[i] = status
        if status == "won":
            self._won(i, line)
        return status

    def _won(self, i: int, line: list[RawMove]) -> None:
        """Position ``i`` wins by ``line``: so does every position of the player's line that
        follows the same moves."""
        self.wins[i] = line
        j = i
        while j < len(self.line) and j - i < len(line) and self.line[j] == line[j - i]:
            j += 1
            self.known[j] = "won"
            self.wins[j] = line[j - i:]


def analyse(deal: Position, line: list[RawMove], *,
            cpu_budget: float | None = DEFAULT_CPU_BUDGET,
            max_states: int | None = None,
            solver: Solver = full_information) -> Analysis:
    """Analyse the player's ``line`` (the moves as played, undone moves cut) from ``deal``.

    ``cpu_budget``: CPU seconds for the whole analysis (None: no limit); ``max_states``: a
    budget of positions for each solve (None: none). A test that wants the same answer on
    every machine passes ``cpu_budget=None`` and ``max_states``. ``solver``: what decides a
    position (the shipped solver; a test may pass its own oracle).
    """
    along = positions_along(deal, line)
    n = len(line)
    s = _Search(along, line, cpu_budget, max_states, solver)
    won = along[-1].is_won()
    opening = s.ask(0, solves_to_come=1 if won else 1 + math.ceil(math.log2(n + 1)))
    result = Analysis(moves=n, won=won, opening=opening)
    if opening == "won":
        result.opening_line = s.wins[0]
    if won or opening != "won":
        result.last_winnable = n if won else None
        result.solves, result.positions = s.solves, s.positions
        result.cpu_seconds = time.thread_time() - s.start
        return result

    hi: int | None = None
    last = s.ask(n, solves_to_come=1 + math.ceil(math.log2(n + 1)))
    if last == "lost":
        hi = n
    uncertain: set[int] = {n} if last == "unknown" else set()
    lo = max(i for i, v in s.known.items() if v == "won")
    while not s.out_of_budget():
        top = hi if hi is not None else n
        open_ = [i for i in range(lo + 1, top) if i not in uncertain]
        if not open_:
            break
        middle = (lo + top) / 2
        i = min(open_, key=lambda j: (abs(j - middle), j))
        answer = s.ask(i, solves_to_come=1 + math.ceil(math.log2(len(open_) + 1)))
        if answer == "won":
            lo = max(j for j, v in s.known.items() if v == "won" and (hi is None or j < hi))
        elif answer == "lost":
            hi = i
        else:
            uncertain.add(i)
    result.last_winnable = lo
    result.win_from_last = s.wins[lo]
    result.first_lost = hi
    top = hi if hi is not None else n + 1
    result.uncertain = sorted(i for i in uncertain if lo < i < top)
    result.solves, result.positions = s.solves, s.positions
    result.cpu_seconds = time.thread_time() - s.start
    return result
