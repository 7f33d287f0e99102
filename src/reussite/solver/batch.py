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

from reussite.engine import Position, RawMove
from reussite.games import get_game
from reussite.solver.planning import BeamEffort, PlanningPlayer
from reussite.solver.player import Game, Player, play_game
from reussite.solver.players import PlayerEffort, player_name, seat
from reussite.solver.sampling import OUTCOMES, PER_OUTCOME, Effort, SamplingPlayer
from reussite.solver.search import budget_clock, solve
from reussite.solver.visible import VisibleEffort, VisiblePlayer

PLAYERS = ("full", "honest")


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
    """The honest player's: why the game ended (:class:`.player.Game`)."""


def honest_effort(game_id: str, time_limit: float | None, states: int | None,
                  samples: int | None = None) -> PlayerEffort:
    """The effort of the game's honest player (:func:`.players.seat`) for a run: ``states``
    positions for each search (of a sample, of a plan, or of the visible player; the same play
    on any machine), else ``time_limit`` seconds for each move (the sampling player) or each
    plan's search (the planning player, CPU seconds with ``--clock cpu``; the visible player
    has no time limit); ``samples`` samples (not the visible player's)."""
    effort = seat(game_id, "play")
    if isinstance(effort, VisibleEffort):
        return effort if states is None else replace(effort, nodes=states)
    if isinstance(effort, BeamEffort):
        effort = replace(effort, cpu=budget_clock() == "cpu")
        effort = replace(effort, states=states) if states is not None else replace(
            effort, states=None, time_limit=time_limit)
        return effort if samples is None else replace(effort, samples=samples)
    if states is None:
        effort = replace(effort, states_per_sample=None, time_limit=time_limit)
    else:
        effort = replace(effort, states_per_sample=states)
    return effort if samples is None else replace(effort, samples=samples)


def play_honest(pos: Position, effort: PlayerEffort, seed: int) -> Game:
    """Play ``pos`` to the end as the player of ``effort`` (seeded with ``seed``; the visible
    player draws nothing). The referee's limits: 2,000 turns, 120 without progress, for the
    sampling player; the Spider-type games' players get 5,000 and 300 (their games are
    longer, and a turn of the visible player is a move)."""
    player: Player
    if isinstance(effort, VisibleEffort):
        player = VisiblePlayer(effort)
    elif isinstance(effort, BeamEffort):
        player = PlanningPlayer(effort, seed)
    else:
        player = SamplingPlayer(effort, seed)
        return play_game(pos, player, max_moves=2_000, patience=120)
    return play_game(pos, player, max_moves=5_000, patience=300)


def decide(game_id: str, number: int, time_limit: float | None, player: str = "full",
           states: int | None = None, samples: int | None = None) -> DealOutcome:
    """Solve one deal (``full``: ``time_limit`` seconds and/or ``states`` positions for the
    deal) or play it as the game's honest player does (``honest``, :func:`honest_effort`)."""
    pos = Position.deal(get_game(game_id), number)
    cpu = time.process_time()
    if player == "honest":
        played = play_honest(pos, honest_effort(game_id, time_limit, states, samples), number)
        return DealOutcome(number, played.status, played.states, played.seconds,
                           played.moves, time.process_time() - cpu, played.ending)
    result = solve(pos, time_limit=time_limit, max_states=states)
    if result.status == "won":
        check_win(pos, result.raw_line)
    return DealOutcome(number, result.status, result.states, result.seconds, len(result.moves),
                       time.process_time() - cpu)


def check_win(pos: Position, line: list[RawMove]) -> None:
    """Replay a winning line through the engine, each move checked: a line that does not win
    is a solver bug, never a deal to count as won."""
    replay = pos.copy()
    for raw in line:
        replay.play(replay.to_move(raw))
    if not replay.is_won():
        raise RuntimeError(f"The solver's line for {pos.rules.id} deal {pos.number} "
                           "does not win when replayed")


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
        if self.player != "honest":
            if self.states is not None:
                return f"{self.states:,} positions per deal"
            return f"{self.time_limit:g} s per deal"
        effort = honest_effort(self.game, self.time_limit, self.states, self.samples)
        if isinstance(effort, VisibleEffort):
            return f"visible search, {effort.nodes:,} positions per search"
        if isinstance(effort, BeamEffort):
            per = (f"{effort.states:,} positions" if effort.states is not None
                   else f"{effort.time_limit:g} s")
            return f"planning (beam), {per} per plan, {effort.samples} samples"
        text = (f"{effort.states_per_sample:,} positions per search"
                if effort.states_per_sample is not None else f"{effort.time_limit:g} s per move")
        text += f", {effort.samples} samples per move"
        return text + "".join(f", {name}={value}" for name, value in _lookahead(effort).items())

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
            "effort": _lookahead(honest_effort(self.game, self.time_limit, self.states,
                                               self.samples))
            if self.player == "honest" else {},
            "method": player_name(seat(self.game, "play")) if self.player == "honest" else None,
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


def _lookahead(effort: PlayerEffort) -> dict[str, int]:
    """The sampling player's lookahead settings, when it looks ahead (else none)."""
    if not isinstance(effort, Effort) or not effort.lookahead:
        return {}
    return {"lookahead": effort.lookahead, "outcomes": OUTCOMES, "per_outcome": PER_OUTCOME}


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

