"""What every honest player shares: the protocol, the game loop and its referee, the scores of
moves from visible information.

A player (:class:`Player`) is given an :class:`.observation.Observation` (what it sees and
remembers) and answers with a :class:`Choice`: candidate steps, best first, of which the
referee plays the first that leads to a view not seen before; or a line, played move by move.
After each move it is shown the new observation (:meth:`Player.follow`) and says whether the
move showed something that stops the rest of the step or line. Its effort is its own, fixed
when it is made; :attr:`Player.states` counts the positions its searches visited, the budget
that makes results reproducible on any machine.

:func:`play_game` plays any player to the end of a game, as the :class:`Referee` rules.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from reussite.cards import UP
from reussite.engine import STOCK_CLICK, Position, RawMove
from reussite.observation import Memory, Observation, observe, view_key
from reussite.solver.search import is_stuck

Step = tuple[RawMove, ...]
"""What a player decides on: a move, or (with a waste) a few stock clicks and a move of the
waste's top card, as the search's children (:meth:`.search.GameKnowledge.children`)."""


@dataclass(frozen=True)
class Choice:
    """A player's answer.

    ``steps``: the steps it would play, best first; the referee plays the first that leads to
    a view not seen before (a loop ends the game), one step a turn, and a step chosen at index
    ``detour_after`` or later counts as a detour. ``line``: the moves it means to play, each a
    turn, without looking back. ``ending``: the player resigns, for this reason.
    """

    steps: Sequence[Step] = ()
    detour_after: int = 1
    line: Sequence[RawMove] = ()
    ending: str = ""


class Player(Protocol):
    """An honest player: it sees only what a player sees."""

    states: int
    """Positions its searches visited so far."""

    def choose(self, obs: Observation) -> Choice:
        """The next step or line from what the player sees and remembers."""
        ...

    def follow(self, obs: Observation) -> bool:
        """Take in the move just played (the last of ``obs.history``): True when it showed
        something that ends the step or line being played (the plan may change)."""
        ...


def visible_score(pos: Position, raw: RawMove) -> float:
    """How good ``raw`` looks from visible information alone: it reads face-up cards and pile
    sizes only (``pos`` may be an observation's stand-in)."""
    src, dst, n = raw
    if src == STOCK_CLICK:
        return 0.5
    kinds = pos.layout.kinds
    s, d = pos.piles[src], pos.piles[dst]
    score = 1.0
    if kinds[dst] == "foundation":
        score += 10 if kinds[src] != "foundation" else -5
    if kinds[src] == "foundation":
        score -= 3
    if kinds[dst] == "cell":
        score -= 2
    if kinds[src] == "cell" and kinds[dst] != "cell":
        score += 2
    if kinds[src] == "cell" and kinds[dst] == "cell":
        score -= 10
    rest = len(s) - n
    if rest > 0 and not s[rest - 1] & UP:
        score += 5  # uncovers a face-down card
    if rest == 0 and kinds[src] == "tableau":
        score += 3 if d else -8  # empties a pile; moving a whole pile to a space is idle
    if d and (d[-1] & 3) == (s[-n] & 3):
        score += 2  # builds in suit
    return score


def step_score(pos: Position, step: Step) -> float:
    """How good a step looks from visible information (:func:`visible_score` of its move
    after its clicks; fewer clicks first)."""
    for m in step[:-1]:
        pos.push_raw(m)
    score = visible_score(pos, step[-1]) - 0.01 * (len(step) - 1)
    for _ in step[:-1]:
        pos.pop()
    return score


@dataclass
class Game:
    """How a game played by an honest player ended."""

    status: str
    moves: int
    states: int
    seconds: float
    """CPU seconds of the whole game."""
    ending: str = ""
    """Why the game ended: won, no move (or a clear end), a loop, no progress, too long, no
    plan (the player resigned)."""
    home: int = 0
    """Cards on the foundations at the end."""
    detours: int = 0
    """Times the best-ranked step was left aside because it led back to a view seen before."""
    line: list[RawMove] = field(default_factory=list)
    """The moves played, in order."""


def progress_mark(pos: Position) -> tuple[int, int, int]:
    """Cards home, cards face down, cards in the stock (and waste), the first negated: each
    can only go down for good (turning the stock round changes none of them)."""
    waste = pos.layout.waste
    down = sum(1 for p in pos.piles[1:] for c in p if not c & UP)
    return (-pos.cards_done, down,
            len(pos.piles[0]) + (len(pos.piles[waste]) if waste >= 0 else 0))


@dataclass
class Referee:
    """What ends a game played by an honest player: too many moves, ``patience`` turns in a
    row that brought no more cards home than ever before, turned no card up and dealt
    nothing, a clear end, or every step considered leading back to a view already seen (a
    loop)."""

    max_moves: int
    patience: int
    seen: set[tuple[object, ...]] = field(default_factory=set)
    progress: tuple[int, ...] = ()
    progress_turn: int = 0
    turn: int = 0
    detours: int = 0

    def start(self, pos: Position) -> None:
        self.seen.add(view_key(pos))
        self.progress = progress_mark(pos)

    def ending(self, pos: Position) -> str | None:
        """Why the game ends before the next turn, or None."""
        if self.turn >= self.max_moves:
            return "too long"
        if self.turn - self.progress_turn >= self.patience:
            return "no progress"
        if is_stuck(pos, max_states=300):
            return "no move"
        return None

    def first_unseen(self, pos: Position, steps: Sequence[Step],
                     detour_after: int = 1) -> Step | None:
        """The first of ``steps`` that leads to a view not seen before (now seen), None when
        there is none (a loop); a step chosen at index ``detour_after`` or later counts as a
        detour."""
        for k, step in enumerate(steps):
            for m in step:
                pos.push_raw(m)
            key = view_key(pos)
            for _ in step:
                pos.pop()
            if key not in self.seen:
                self.seen.add(key)
                self.detours += int(k >= detour_after)
                return step
        return None

    def moved(self, pos: Position) -> None:
        """A turn was played: count it, and whether it made progress."""
        self.turn += 1
        mark = progress_mark(pos)
        if any(a < b for a, b in zip(mark, self.progress, strict=True)):
            self.progress = tuple(min(a, b) for a, b in zip(mark, self.progress, strict=True))
            self.progress_turn = self.turn


def play_game(pos: Position, player: Player, *, max_moves: int, patience: int) -> Game:
    """Play ``pos`` (a copy) to the end as ``player``; ``won`` or ``lost``.

    Each turn the player is shown what it sees and chooses; its steps and lines are played
    move by move, each move shown to it, up to the first that it says changes its plan. The
    game ends lost when the player resigns (the visible player when nothing helps: "no move";
    the planning player: "no plan"), or at the :class:`Referee`'s ends. ``seconds`` is the
    CPU time of the whole game.
    """
    start = time.process_time()
    pos = pos.copy()
    memory = Memory.of(pos)
    referee = Referee(max_moves, patience)
    referee.start(pos)
    ending = ""

    line: list[RawMove] = []

    def play(m: RawMove) -> bool:
        line.append(m)
        pos.push_raw(m)
        memory.follow(pos)
        return player.follow(observe(pos, memory)) or pos.is_won()

    while not pos.is_won():
        ending = referee.ending(pos) or ""
        if ending:
            break
        choice = player.choose(observe(pos, memory))
        if choice.ending:
            ending = choice.ending
            break
        if choice.line:
            for m in choice.line:
                stop = play(m)
                referee.moved(pos)
                if stop:
                    break
            continue
        step = referee.first_unseen(pos, choice.steps, choice.detour_after)
        if step is None:
            ending = "loop"
            break
        for m in step:
            if play(m):
                break
        referee.moved(pos)
    won = pos.is_won()
    return Game("won" if won else "lost", len(pos.history), player.states,
                time.process_time() - start, "won" if won else ending, pos.cards_done,
                referee.detours, line)
