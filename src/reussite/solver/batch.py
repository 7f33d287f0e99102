"""Many deals at once: win rates with a confidence interval, on several processes.

>>> low, high = wilson_interval(80, 100)
>>> round(low, 3), round(high, 3)
(0.711, 0.867)
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from reussite.engine import Position, RawMove
from reussite.games import get_game

if TYPE_CHECKING:
    from reussite.solver.honest import Effort
    from reussite.solver.honest_beam import BeamEffort

PLAYERS = ("full", "honest")
VISIBLE_GAMES = frozenset({"spider", "astrocyte"})
"""The games whose honest player is the visible one (:mod:`.honest_visible`): where it wins as
often as ``beam`` at a tenth of the cost or better (docs/solver.md; Astrocyte since its cell
and King terms and the last resort: 6 of deals 1-20 against the planning player's 3, at a
twentieth of the CPU)."""

VISIBLE_HINT_GAMES = frozenset({"spider", "astrocyte"})
"""The games whose hints come from the ``visible`` player: fast enough (0.3 s at most), where
the sampling player of the hints won nothing (docs/solver.md)."""


@dataclass
class DealOutcome:
    """One deal's answer: ``won``/``lost``/``unknown`` with the effort spent."""

    number: int
    status: str
    states: int
    seconds: float
    moves: int
    cpu_seconds: float = 0.0
    """CPU seconds of the process for this deal (the whole game, for the honest player)."""
    ending: str = ""
    """The honest player's: why the game ended (:class:`.honest.HonestGame`)."""


def honest_method(game_id: str) -> str:
    """The honest player of this game: ``visible`` in the games of :data:`VISIBLE_GAMES`,
    ``beam`` in the other games it is for (Spider-type: the stock deals onto the tableau),
    else ``sample``."""
    from reussite.games import CATALOGUE
    from reussite.solver.honest_beam import plays_with_beam
    from reussite.solver.honest_visible import plays_visible

    if game_id not in CATALOGUE:
        return "sample"
    rules = CATALOGUE[game_id]
    if game_id in VISIBLE_GAMES and plays_visible(rules):
        return "visible"
    return "beam" if plays_with_beam(rules) else "sample"


LOOKAHEAD = {"lookahead": 3, "outcomes": 4, "per_outcome": 2}
"""The chance-node lookahead one decision deep (:func:`.honest.lookahead_value`)."""

GAME_EFFORT: dict[str, dict[str, int]] = {
    "klondike-draw-3": LOOKAHEAD,
    "klondike": LOOKAHEAD,
    "athena": LOOKAHEAD,
}
"""The sampling player's lookahead by game, where it was measured to win more (Klondike
draw 3: 87 of 220 deals against 61; Klondike 12 of 20 against 7; Athena 11 of 20 against 10;
docs/solver.md). Hints keep the plain :class:`.honest.Effort` (the lookahead costs about three
times the CPU a move)."""


def decide(game_id: str, number: int, time_limit: float | None, player: str = "full",
           states: int | None = None, samples: int | None = None) -> DealOutcome:
    """Solve one deal (``full``) or play it as the game's honest player does (``honest``,
    :func:`honest_method`).

    ``full``: ``time_limit`` seconds and/or ``states`` positions for the deal. ``honest``
    (``sample``): ``states`` positions for each search of a sample (:class:`.honest.Effort`),
    else ``time_limit`` seconds for each move; ``samples`` samples per move. ``honest``
    (``beam``): ``states`` positions, else ``time_limit`` seconds, for the search of each
    sample's plan (:class:`.honest_beam.BeamEffort`). ``honest`` (``visible``): ``states``
    positions for each search (:class:`.honest_visible.VisibleEffort`; no time limit).
    """
    from reussite.solver.honest import play_honest_game
    from reussite.solver.search import solve

    pos = Position.deal(get_game(game_id), number)
    cpu = time.process_time()
    if player == "honest":
        chosen = honest_method(game_id)
        if chosen == "visible":
            from reussite.solver.honest_visible import play_visible_game, visible_effort

            played = play_visible_game(pos, visible_effort(game_id, states))
        elif chosen == "beam":
            from reussite.solver.honest_beam import play_beam_game

            played = play_beam_game(pos, beam_effort(time_limit, states, samples), seed=number)
        else:
            played = play_honest_game(pos, honest_effort(game_id, time_limit, states, samples),
                                      seed=number)
        return DealOutcome(number, played.status, played.states, played.seconds,
                           played.moves, time.process_time() - cpu, played.ending)
    result = solve(pos, time_limit=time_limit, max_states=states)
    if result.status == "won":
        check_win(pos, result.raw_line)
    return DealOutcome(number, result.status, result.states, result.seconds, len(result.moves),
                       time.process_time() - cpu)


def beam_effort(time_limit: float | None, states: int | None,
                samples: int | None = None) -> BeamEffort:
    """The planning player's effort for a run: ``states`` positions for each plan's search
    (the same play on any machine), else ``time_limit`` seconds (CPU seconds with ``--clock
    cpu``)."""
    from reussite.solver.honest_beam import BeamEffort
    from reussite.solver.search import budget_clock

    effort = BeamEffort(cpu=budget_clock() == "cpu")
    if states is not None:
        effort = replace(effort, states=states)
    else:
        effort = replace(effort, states=None, time_limit=time_limit)
    return effort if samples is None else replace(effort, samples=samples)


def check_win(pos: Position, line: list[RawMove]) -> None:
    """Replay a winning line through the engine, each move checked: a line that does not win
    is a solver bug, never a deal to count as won."""
    replay = pos.copy()
    for raw in line:
        replay.play(replay.to_move(raw))
    if not replay.is_won():
        raise RuntimeError(f"The solver's line for {pos.rules.id} deal {pos.number} "
                           "does not win when replayed")


def honest_effort(game_id: str, time_limit: float | None, states: int | None,
                  samples: int | None = None) -> Effort:
    """The sampling player's effort for a run: by positions when ``states`` is given (the same
    play on any machine), else by seconds per move; the game's lookahead
    (:data:`GAME_EFFORT`)."""
    from reussite.solver.honest import Effort

    effort = Effort(**GAME_EFFORT.get(game_id, {}))
    if states is None:
        effort = replace(effort, states_per_sample=None, time_limit=time_limit)
    else:
        effort = replace(effort, states_per_sample=states)
    return effort if samples is None else replace(effort, samples=samples)


Task = tuple[str, int, float | None, str, int | None, int | None]


def _decide_args(args: Task) -> DealOutcome:
    return decide(*args)


def decide_many(game_id: str, numbers: Iterable[int], time_limit: float | None, jobs: int = 1,
                player: str = "full", states: int | None = None,
                samples: int | None = None) -> Iterator[DealOutcome]:
    """Decide each deal, yielding outcomes as they come (in order when ``jobs`` is 1)."""
    tasks: list[Task] = [(game_id, n, time_limit, player, states, samples) for n in numbers]
    if jobs <= 1:
        for t in tasks:
            yield _decide_args(t)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(_decide_args, tasks, chunksize=1)


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95 % Wilson score interval for a proportion (``(0, 1)`` with no trials)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class Tally:
    """Counts of a run of deals, and the win rate's interval."""

    game: str
    player: str
    time_limit: float | None
    states: int | None = None
    samples: int | None = None
    outcomes: list[DealOutcome] = field(default_factory=list)

    def budget(self) -> str:
        """The run's budget in words: "10 s", "5,000 positions per search, 16 samples"."""
        honest = self.player == "honest"
        method = honest_method(self.game) if honest else None
        if method == "visible":
            from reussite.solver.honest_visible import visible_effort

            nodes = visible_effort(self.game, self.states).nodes
            return f"visible search, {nodes:,} positions per search"
        if method == "beam":
            from reussite.solver.honest_beam import BeamEffort

            per = (f"{self.states:,} positions" if self.states is not None
                   else f"{self.time_limit:g} s")
            return (f"planning (beam), {per} per plan, "
                    f"{self.samples or BeamEffort().samples} samples")
        if self.states is not None:
            text = f"{self.states:,} positions" + (" per search" if honest else " per deal")
        else:
            text = f"{self.time_limit:g} s" + (" per move" if honest else " per deal")
        if honest:
            from reussite.solver.honest import Effort

            text += f", {self.samples or Effort().samples} samples per move"
            text += "".join(f", {name}={value}"
                            for name, value in GAME_EFFORT.get(self.game, {}).items())
        return text

    def add(self, o: DealOutcome) -> None:
        self.outcomes.append(o)

    def count(self, status: str) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.count("won"), len(self.outcomes))

    def summary(self) -> dict[str, object]:
        won, lost, unknown = self.count("won"), self.count("lost"), self.count("unknown")
        n = len(self.outcomes)
        low, high = wilson_interval(won, n)
        seconds = sorted(o.seconds for o in self.outcomes)
        cpu = sum(o.cpu_seconds for o in self.outcomes)
        moves = sum(o.moves for o in self.outcomes)
        return {
            "game": self.game, "player": self.player, "time_limit": self.time_limit,
            "states_limit": self.states, "samples": self.samples,
            "effort": dict(GAME_EFFORT.get(self.game, {}))
            if self.player == "honest" and honest_method(self.game) == "sample" else {},
            "method": honest_method(self.game) if self.player == "honest" else None,
            "deals": n, "won": won, "lost": lost, "unknown": unknown,
            "win_rate": won / n if n else 0.0,
            "interval_95": [low, high],
            "win_rate_if_unknown_won": (won + unknown) / n if n else 0.0,
            "median_seconds": seconds[n // 2] if n else 0.0,
            "mean_seconds": sum(seconds) / n if n else 0.0,
            "states": sum(o.states for o in self.outcomes),
            "cpu_seconds": cpu,
            "cpu_seconds_per_deal": cpu / n if n else 0.0,
            "moves": moves,
            "cpu_seconds_per_move": cpu / moves if moves else 0.0,
            "won_numbers": [o.number for o in self.outcomes if o.status == "won"],
            "endings": dict(Counter(o.ending for o in self.outcomes if o.ending)),
        }


def parse_range(text: str) -> range:
    """``"1-100"`` (both ends included) or a single number ``"7"``."""
    try:
        if "-" in text:
            a, b = text.split("-", 1)
            lo, hi = int(a), int(b)
        else:
            lo = hi = int(text)
    except ValueError:
        raise ValueError(f"A deal range is A-B, e.g. 1-100: {text!r}") from None
    if lo < 0 or hi < lo:
        raise ValueError(f"A deal range runs from a smaller number to a larger one: {text!r}")
    return range(lo, hi + 1)

