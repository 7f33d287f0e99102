"""The sampling player: it judges each step on samples of the hidden cards, within a budget.

Method (determinization, "perfect-information Monte Carlo", called hindsight optimization in
the Klondike literature): the unseen cards are known as a multiset (every card of the deck
minus the face-up ones and the ones the player remembers). The player deals them at random
into the face-down places of what it sees (:meth:`.observation.Observation.sample`, a seeded
generator: the same observation and seed give the same samples) and judges each candidate
*step* on every sample with the full-information solver on a small budget of positions
(:class:`Effort`):

- a step after which the solver wins the sample scores 1 there, one it proves lost 0;
- a step left ``unknown`` scores a share of a win: the step's own share of wins among its
  decided samples (so that a step that is merely hard to search is not taken for a bad one),
  scaled by the progress of the best line found (cards turned up, cards home), which is all
  there is to go on in games whose samples the solver never finishes;
- the step with the best total is played (ties: the one that looks best from visible
  information, :func:`.player.visible_score`); sampling stops early once the samples left
  cannot change the leader.

A step is one of the search's children (:func:`root_steps`): a move, or with a waste a few
stock clicks and a move of the waste's top card, used only when the player knows the stock.

**Memory.** The observation holds the cards the player has seen face up and then saw turned
face down (:class:`.observation.Memory`); samples keep those cards where the player saw them
go. Where the waste is turned over without limit, the player first clicks once round the
stock (:func:`scouting_click`): that costs nothing and shows every stock card.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from reussite.cards import UP
from reussite.engine import STOCK_RAW, Position, RawMove
from reussite.observation import UNKNOWN, Observation, observe
from reussite.rules import StockAction
from reussite.solver.player import Choice, Step, step_score
from reussite.solver.search import _progress, knowledge, solve

NEAR = 0.1
"""The lookahead judges again only the steps within this many wins per sample judged of the
best (:func:`ranked_steps`)."""

OUTCOMES = 4
"""The lookahead's draws of the hidden cards, for each step it judges again."""

PER_OUTCOME = 2
"""The lookahead's samples of each information set reached, for each draw that reached it."""


@dataclass(frozen=True)
class Effort:
    """How hard the sampling player thinks about one move.

    ``samples``: samples of the hidden cards, at most (fewer when the leader is settled).
    ``states_per_sample`` bounds each search in positions (reproducible, whatever the
    machine's load); ``time_limit`` bounds the whole move in seconds (None: no bound; the
    outer cap of a hint, which must answer in time).
    ``lookahead``: the best ``lookahead`` steps of that judging are judged again one
    decision deeper, through the chance node of what the step turns up
    (:func:`lookahead_value`: :data:`OUTCOMES` draws of the hidden cards, :data:`PER_OUTCOME`
    samples of each information set reached, the next step chosen once per information
    set), only those within :data:`NEAR` of the best and only when the first judging used
    every sample (it did not settle early); 0: not at all.
    """

    samples: int = 16
    states_per_sample: int | None = 1_000
    time_limit: float | None = None
    lookahead: int = 0


def scouting_click(obs: Observation) -> RawMove | None:
    """The stock click that looks through a stock the player does not know yet, when doing so
    costs nothing: a waste turned over without limit, before any other move (a whole round of
    clicks then brings the position back as it was, the player knowing every stock card).
    Playing a card meanwhile would change the stock's grouping, so scouting is done first."""
    st = obs.rules.stock
    if st.action is not StockAction.DRAW_TO_WASTE or st.redeals is not None:
        return None
    waste = obs.layout.waste
    if obs.redeals_used > 0 or any(raw[0] == waste for raw in obs.moves):
        return None
    unknown = any(k == UNKNOWN for k in obs.known[0])
    return STOCK_RAW if unknown or obs.piles[waste] else None


def root_steps(obs: Observation, stand: Position | None = None) -> list[Step]:
    """The steps worth telling apart: the search's children (moves it would prune as
    equivalent to another left out), or every legal move when it has none (``stand``: the
    observation's stand-in, when already made).

    The search's stock macros read the stock's cards: they are used only when the player
    knows them all. Otherwise the steps are single moves, a click on the stock among them.
    Idle splits and descents are not left out here: that rule reads face-down cards.
    """
    pos = obs.stand_in() if stand is None else stand
    steps = knowledge(pos).children(pos, None, macros=obs.stock_known(), idle=False)
    return steps if steps else [(m,) for m in pos.raw_moves()]


def _room(pos: Position) -> int:
    """The most progress still possible (as :func:`.search._progress` counts it): every card
    not home sent home (2 each), every face-down card turned up (1 each)."""
    down = sum(1 for p in pos.piles[1:] for c in p if not c & UP)
    return 2 * (pos.rules.cards - pos.cards_done) + down


def _value(sample: Position, step: Step, effort: Effort, seconds: float | None,
           spent: list[int]) -> tuple[str, float, int]:
    """What the search says of ``step`` in ``sample``: its status, for ``unknown`` a weight
    (the share of the progress still possible that the best line found made, the step's own
    included), and the positions searched (also added to ``spent[0]``)."""
    room = _room(sample)
    for m in step:
        sample.push_raw(m)
    result = solve(sample, time_limit=seconds, max_states=effort.states_per_sample,
                   best_line=True)
    spent[0] += result.states
    weight = 1.0
    if result.status == "unknown":
        weight = _line_gain(sample, list(step) + result.raw_line, len(step)) / max(1, room)
    for _ in step:
        sample.pop()
    return result.status, weight, result.states


class Tally:
    """One step's results over the samples: wins, losses, and the weights of the unknowns."""

    __slots__ = ("lost", "unknown", "won", "won_states")

    def __init__(self) -> None:
        self.won = 0
        self.lost = 0
        self.unknown = 0.0
        self.won_states = 0

    def add(self, status: str, weight: float, states: int) -> None:
        if status == "won":
            self.won += 1
            self.won_states += states
        elif status == "lost":
            self.lost += 1
        else:
            self.unknown += weight

    def score(self) -> float:
        """Wins, plus each unknown sample counted as this step's own share of wins among its
        decided samples (with one win and one loss added: a step never lost is not hurt by
        being hard to search)."""
        share = (self.won + 1) / (self.won + self.lost + 2)
        return self.won + share * self.unknown

    def effort_to_win(self) -> float:
        """Positions the searches needed on average to win after this step: between steps
        that win in the same samples, the one whose wins were found sooner is the one whose
        continuation leans least on the exact hidden cards."""
        return self.won_states / self.won if self.won else float("inf")


def _line_gain(sample: Position, line: list[RawMove], played: int) -> int:
    """The progress of ``line``, whose first ``played`` moves are already played."""
    for m in line[played:]:
        sample.push_raw(m)
    gain = _progress(sample, len(line), sample.layout.kinds)
    for _ in line[played:]:
        sample.pop()
    return gain


def _settled(tallies: dict[Step, Tally], left: int) -> bool:
    """The samples left cannot change the leader: its wins alone beat what any other step
    could still reach (the unknowns' shares are estimated, so only wins are sure)."""
    best = max(tallies.values(), key=lambda t: t.won)
    return all(best.won > t.won + t.unknown + left for t in tallies.values() if t is not best)


def ranked_steps(obs: Observation, effort: Effort = Effort(), *, seed: int = 0,
                 spent: list[int] | None = None) -> list[tuple[float, Step]]:
    """The steps with their scores, best first (see the module's docstring); the positions
    searched are added to ``spent[0]``."""
    spent = [0] if spent is None else spent
    stand = obs.stand_in()
    if not stand.raw_moves():
        return []
    scout = scouting_click(obs)
    if scout is not None:
        return [(float(effort.samples), (scout,))]
    steps = root_steps(obs, stand)
    if len(steps) == 1:
        return [(float(effort.samples), steps[0])]
    tallies = {step: Tally() for step in steps}
    rng = random.Random(seed)
    deadline = None if effort.time_limit is None else time.perf_counter() + effort.time_limit
    judged = 0
    for k in range(effort.samples):
        per_search = None
        if deadline is not None:
            per_search = max(0.0, (deadline - time.perf_counter())
                             / ((effort.samples - k) * len(steps)))
        sample = obs.sample(rng)
        for step in steps:
            tallies[step].add(*_value(sample, step, effort, per_search, spent))
        judged = k + 1
        if judged < effort.samples and _settled(tallies, effort.samples - judged):
            break
    ranked = sorted(((t.score(), step) for step, t in tallies.items()),
                    key=lambda vm: (-vm[0], tallies[vm[1]].effort_to_win(),
                                    -step_score(stand, vm[1])))
    if judged >= effort.samples and effort.lookahead > 1:
        # Only the near-ties are judged again (a clear first judging stands).
        floor = ranked[0][0] - NEAR * judged
        near = sum(1 for v, _ in ranked if v >= floor)
        ranked = _rejudged(ranked, min(near, effort.lookahead), lambda step: lookahead_value(
            obs, step, effort, seed=seed, spent=spent))
    return ranked


def _rejudged(ranked: list[tuple[float, Step]], count: int,
              value: Callable[[Step], float]) -> list[tuple[float, Step]]:
    """``ranked`` with its best ``count`` steps ordered again by ``value`` (the others after
    them, as they were); the first order breaks ties. Fewer than two: as it was."""
    head = ranked[:count]
    if len(head) < 2:
        return ranked
    deeper = [(value(step), k) for k, (_, step) in enumerate(head)]
    deeper.sort(key=lambda vk: (-vk[0], vk[1]))
    return [(v, head[k][1]) for v, k in deeper] + ranked[count:]


def lookahead_value(obs: Observation, step: Step, effort: Effort, *, seed: int = 0,
                    spent: list[int] | None = None) -> float:
    """What ``step`` is worth to a player who, after it, decides the next step seeing only
    what it will then see: the expectation, over the chance node of what the step turns up,
    of the best next step's share of wins (each next step judged on samples of the
    information set reached, as :func:`ranked_steps` judges the steps).

    :data:`OUTCOMES` samples of the hidden cards are drawn (the same ones for every step
    of a position: the generator is seeded by ``seed`` alone) and ``step`` is played on each;
    those that look alike afterwards are one information set. Each information set is sampled
    again, :data:`PER_OUTCOME` times for each draw that reached it, from what it shows (and
    what the player then remembers), and its value is the best next step's mean score there.
    A determinized search knows the hidden cards; here the next decision is made once for all
    the samples of an information set, so a step that shows a card before the choice it
    matters for is worth more than one that leaves the choice blind (strategy fusion one
    decision deep; below that, the searches are determinized as before).
    """
    spent = [0] if spent is None else spent
    rng = random.Random(seed * 1_000_003 + 17)
    groups: dict[tuple[object, ...], tuple[Observation, int]] = {}
    for _ in range(OUTCOMES):
        sample = obs.sample(rng)
        memory = obs.memory()
        for m in step:
            sample.push_raw(m)
            memory.follow(sample)
        # What the player would see after the step: the sample's moves are the step's alone.
        after = observe(sample, memory)
        key = after.key()
        first, n = groups.get(key, (after, 0))
        groups[key] = (first, n + 1)
    total = 0.0
    for after, draws in groups.values():
        total += draws * _info_set_value(after, effort, rng, draws * PER_OUTCOME, spent)
    return total / OUTCOMES


def _info_set_value(after: Observation, effort: Effort, rng: random.Random, samples: int,
                    spent: list[int]) -> float:
    """The best next step's mean score on ``samples`` samples of what ``after`` shows."""
    stand = after.stand_in()
    if stand.is_won():
        return 1.0
    if not stand.raw_moves():
        return 0.0
    steps = root_steps(after, stand)
    scout = scouting_click(after)
    if scout is not None:
        steps = [(scout,)]
    tallies = {s: Tally() for s in steps}
    for _ in range(samples):
        sample = after.sample(rng)
        for s in steps:
            tallies[s].add(*_value(sample, s, effort, None, spent))
    return max(t.score() for t in tallies.values()) / samples


def sampling_move(obs: Observation, effort: Effort = Effort(), *,
                  seed: int = 0) -> RawMove | None:
    """The sampling player's move, or None when no move is legal."""
    ranked = ranked_steps(obs, effort, seed=seed)
    return ranked[0][1][0] if ranked else None


def _reveals_unknown(obs: Observation) -> bool:
    """A click now would turn up a stock card the player does not know."""
    stock = obs.known[0]
    if not stock:
        return False
    return any(c == UNKNOWN for c in stock[-max(1, obs.rules.stock.draw):])


class SamplingPlayer:
    """The sampling player of a whole game (:class:`.player.Player`): each turn it ranks the
    steps on samples seeded from ``seed`` and the turn, and offers every legal move after
    them (a step may lead back to a view already seen, another move not); a click that turns
    up a stock card it did not know ends the step, as what it shows may change the plan."""

    def __init__(self, effort: Effort = Effort(), seed: int = 0) -> None:
        self.effort = effort
        self.seed = seed
        self.states = 0
        self.turn = 0
        self.last: Observation | None = None

    def choose(self, obs: Observation) -> Choice:
        spent = [0]
        ranked = ranked_steps(obs, self.effort, seed=self.seed * 7919 + self.turn, spent=spent)
        self.states += spent[0]
        self.turn += 1
        self.last = obs
        stand = obs.stand_in()
        legal = sorted(stand.raw_moves(), key=lambda m: -step_score(stand, (m,)))
        return Choice(steps=[s for _, s in ranked] + [(m,) for m in legal])

    def follow(self, obs: Observation) -> bool:
        before, self.last = self.last, obs
        return obs.moves[-1] == STOCK_RAW and before is not None and _reveals_unknown(before)
