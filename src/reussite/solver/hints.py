"""Hints for a player, computed only from what the player sees (and has seen).

A hint is the move of the game's hint player (:mod:`.players`): the visible player's in
Spider 4 suits and Astrocyte, else the sampling player's, which samples the hidden cards from
the observation (the cards the player sees and remembers) with a fixed seed and judges each
move on every sample on a small budget. Either way a hint is computed from an
:class:`.observation.Observation`, which holds no hidden card.

**The game's line.** The observation holds the moves played (the game's line, up to its
cursor: moves taken back are not in it). A hint never leads to a position already reached in
the game: positions are compared by :func:`.observation.repeat_key` (what the player sees, the
redeals used where they are limited; within one game that tells whole positions apart). When
the player's choice would lead back, the hint is the first move of the shortest line of new
positions to *progress* (:func:`toward_progress`): a card home beyond what is home now, a card
turned up, a deal, fewer cards in the stock and waste, or a stock card the player has not seen
yet. When no such line exists, the hint has no move and says why (:class:`Hint`): the game
cannot be won any more from here (the clear end, :func:`.search.is_stuck`, as far as the
player can know it), or nothing useful is left but undoing, or dealing from the stock.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, replace
from typing import Literal

from reussite.engine import FLIP, STOCK_RAW, Position, RawMove
from reussite.observation import UNKNOWN, Memory, Observation, observe, repeat_key
from reussite.rules import StockAction
from reussite.solver.player import progress_mark, visible_score
from reussite.solver.players import HINT, seat
from reussite.solver.sampling import Effort, ranked_steps
from reussite.solver.search import is_stuck
from reussite.solver.visible import VisibleEffort, decide

Reason = Literal["undo_or_deal", "undo", "cannot_win"]

PATH_STATES = 4_000
"""Positions the search for the shortest new line to progress may visit."""

STUCK_STATES = 20_000
"""Positions the clear-end test may visit (it answers "stuck" only when it saw them all)."""


@dataclass(frozen=True)
class Hint:
    """A hint: a move, or none and why.

    ``reason`` (only without a move, and only when a move is legal): ``cannot_win`` when the
    clear end says the game cannot be won any more from here; ``undo_or_deal`` when nothing
    useful is left but the stock can still be clicked to a new position; ``undo`` when
    nothing useful is left at all.
    """

    move: RawMove | None
    reason: Reason | None = None


def _observed(seen: Observation | Position) -> Observation:
    """What the player sees: ``seen`` itself, or the observation of a position (nothing else
    of the position is read)."""
    return seen if isinstance(seen, Observation) else observe(seen)


class Line:
    """The game's line as a hint sees it: the positions reached (the present one included)
    and what counts as progress from the present one."""

    def __init__(self, obs: Observation, stand: Position,
                 played: Position | None = None) -> None:
        # The positions reached, by their keys: the line taken back move by move from the
        # stand-in (or from the position itself, when given: its keys are views the player
        # saw, so nothing hidden is read either way).
        pos = (played if played is not None else stand).copy()
        self.reached = {repeat_key(pos)}
        while pos.history:
            pos.pop()
            self.reached.add(repeat_key(pos))
        self.mark = progress_mark(stand)
        self.kinds = stand.layout.kinds
        st = obs.rules.stock
        self.draws = st.action is StockAction.DRAW_TO_WASTE
        self.draw = st.draw
        # Stock places below this (counted from the bottom) hold cards the player never saw.
        self.unseen_below = max((i + 1 for i, k in enumerate(obs.known[0]) if k == UNKNOWN),
                                default=0)

    def is_new(self, pos: Position) -> bool:
        return repeat_key(pos) not in self.reached

    def reveals(self, pos: Position, stock_before: int) -> bool:
        """The move just played on ``pos`` turned a card up (or dealt), or showed a stock card
        the player never saw (``stock_before``: the stock's size before it). Such a move
        always leads to a new position (what it shows was never in view there); on a
        stand-in, what it shows is not the real card."""
        raw, ops = pos.history[-1]
        if any(op[0] == FLIP and self.kinds[op[1]] in ("tableau", "reserve") for op in ops):
            return True
        return (self.draws and raw == STOCK_RAW and stock_before > 0
                and stock_before - self.draw < self.unseen_below)

    def advances(self, pos: Position) -> bool:
        """``pos`` has more cards home, fewer face down, or fewer in the stock and waste than
        the present position."""
        return any(a < b for a, b in zip(progress_mark(pos), self.mark, strict=True))

    def leads_somewhere(self, stand: Position, raw: RawMove) -> bool:
        """``raw`` shows something, or leads to a position not reached yet."""
        before = len(stand.piles[0])
        stand.push_raw(raw)
        try:
            return self.reveals(stand, before) or self.is_new(stand)
        finally:
            stand.pop()


def toward_progress(stand: Position, line: Line,
                    budget: int = PATH_STATES) -> tuple[RawMove | None, bool]:
    """The first move of a shortest line from ``stand`` (an observation's stand-in) to
    progress through positions not reached yet (the moves that look best first, among lines
    as short), and whether the search was complete: ``(None, True)`` when there is none at
    all, ``(None, False)`` when the budget ran out first.

    A line stops at its progress: what a card turned up (or a stock card never seen) allows
    next depends on its face, which the stand-in does not know."""
    root = Position(stand.rules, 0, [list(p) for p in stand.piles], stand.redeals_used)
    visited = set(line.reached)
    queue: deque[tuple[Position, RawMove | None]] = deque([(root, None)])
    spent = 0
    while queue:
        pos, first = queue.popleft()
        moves = pos.raw_moves()
        if first is None:
            moves.sort(key=lambda m: -visible_score(pos, m))
        for m in moves:
            before = len(pos.piles[0])
            pos.push_raw(m)
            try:
                spent += 1
                if line.reveals(pos, before):
                    return (m if first is None else first), True
                key = repeat_key(pos)
                if key in visited:
                    continue
                if line.advances(pos):
                    return (m if first is None else first), True
                visited.add(key)
                child = Position(pos.rules, 0, [list(p) for p in pos.piles], pos.redeals_used)
                child.history = [pos.history[-1]]
                queue.append((child, m if first is None else first))
            finally:
                pos.pop()
            if spent >= budget:
                return None, False
    return None, True


def cannot_win(obs: Observation, stand: Position) -> bool:
    """The clear end, as far as the player can know it: no move can change anything any more
    (:func:`.search.is_stuck` on the stand-in). Never while the stock holds a card the
    player has not seen (clicking it shows something new; the stand-in's stock cards are not
    the real ones)."""
    if any(k == UNKNOWN for k in obs.known[0]):
        return False
    return is_stuck(stand, max_states=STUCK_STATES)


def _player_choice(obs: Observation, stand: Position, *, time_limit: float | None,
                   samples: int, states_per_sample: int | None,
                   seed: int) -> RawMove | None:
    """The hint player's first choice (None: the player sees nothing that helps)."""
    effort = seat(obs.rules.id, "hint")
    if isinstance(effort, VisibleEffort):
        line = decide(obs, effort)
        return line[0] if line else None
    assert isinstance(effort, Effort), "hints come from the visible or the sampling player"
    ranked = ranked_steps(obs, replace(effort, samples=samples, time_limit=time_limit,
                                       states_per_sample=states_per_sample), seed=seed)
    return ranked[0][1][0] if ranked else None


def _nothing_useful(stand: Position, line: Line) -> Hint:
    """No move leads anywhere new: undo, or deal when the stock can still be clicked to a
    position not reached."""
    if STOCK_RAW in stand.raw_moves() and line.leads_somewhere(stand, STOCK_RAW):
        return Hint(None, "undo_or_deal")
    return Hint(None, "undo")


def advise(seen: Observation | Position, *, time_limit: float | None = HINT.time_limit,
           samples: int = HINT.samples, states_per_sample: int | None = HINT.states_per_sample,
           seed: int = 0) -> Hint:
    """The hint for ``seen`` (see the module's docstring): no move and no reason when no move
    is legal.

    For the sampling player, ``time_limit`` bounds its search (seconds, None: no limit);
    ``states_per_sample`` bounds each search in positions, which makes the hint reproducible
    for a given seed. The visible player's budget is the table's (:data:`.players.HINT_NODES`
    positions a search; it uses no sampling at all). A time limit of 0 or less: the quick hint
    (:func:`quick_hint`).
    """
    if time_limit is not None and time_limit <= 0:
        return quick_hint(seen)
    obs = _observed(seen)
    stand = obs.stand_in()
    if not stand.raw_moves():
        return Hint(None)
    line = Line(obs, stand, seen if isinstance(seen, Position) else None)
    if cannot_win(obs, stand):
        return Hint(None, "cannot_win")
    choice = _player_choice(obs, stand, time_limit=time_limit, samples=samples,
                            states_per_sample=states_per_sample, seed=seed)
    if choice is not None and line.leads_somewhere(stand, choice):
        return Hint(choice)
    move, complete = toward_progress(stand, line)
    if move is not None:
        return Hint(move)
    if not complete:
        # Not sure that nothing is left: the best-looking move to a new position, if any.
        fresh = [m for m in stand.raw_moves() if line.leads_somewhere(stand, m)]
        if fresh:
            return Hint(max(fresh, key=lambda m: visible_score(stand, m)))
    return _nothing_useful(stand, line)


def quick_hint(seen: Observation | Position) -> Hint:
    """The move that looks best from visible information alone (fast) among those that lead
    somewhere new, or none and why (no clear-end test: that is a search). It reads face-up
    cards and pile sizes only, so a position's memory is not rebuilt for it (the hint pool's
    answer when its CPU budget is spent)."""
    obs = seen if isinstance(seen, Observation) else observe(seen, Memory(seen))
    stand = obs.stand_in()
    moves = stand.raw_moves()
    if not moves:
        return Hint(None)
    line = Line(obs, stand, seen if isinstance(seen, Position) else None)
    fresh = [m for m in moves if line.leads_somewhere(stand, m)]
    if not fresh:
        return _nothing_useful(stand, line)
    return Hint(max(fresh, key=lambda m: visible_score(stand, m)))


def suggest_move(seen: Observation | Position, *, time_limit: float | None = HINT.time_limit,
                 samples: int = HINT.samples,
                 states_per_sample: int | None = HINT.states_per_sample,
                 seed: int = 0) -> RawMove | None:
    """The move of :func:`advise` (None: no move, whatever the reason)."""
    return advise(seen, time_limit=time_limit, samples=samples,
                  states_per_sample=states_per_sample, seed=seed).move


def quick_move(seen: Observation | Position) -> RawMove | None:
    """The move of :func:`quick_hint`."""
    return quick_hint(seen).move
