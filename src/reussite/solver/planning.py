"""The planning player of the Spider-type games: determinized planning with the C core's beam.

In the games whose stock deals a row onto the tableau (Spider in 1 or 2 suits, Fred's Spider:
:mod:`.players`) the sampling player of :mod:`.sampling` judges each step with small searches that
never see a sample's win: the beam, which wins most full-information deals of these games, needs
about 100,000 positions. This player spends its budget the other way round:

- **Samples.** ``samples`` positions that look exactly like the game to the player, the unseen
  cards (face down, and the stock) dealt at random (:meth:`.observation.Observation.sample`,
  seeded).
- **Plans.** On a sample the full-information solver (the beam first) looks for a winning line
  (the sample's *plan*), on a ninth, a third, then all of ``states`` positions, until
  :data:`PLANS` samples have one (:meth:`BeamEffort.levels`).
- **Votes, then a leader.** When a card has turned up, the plans vote: the plan that turns up
  the most cards when replayed on the *other* samples (until its first illegal move there: it
  leans least on its own sample's guesses) leads, then the plan whose first move has the most
  votes, then the move that looks best from visible information (:func:`.player.visible_score`).
  Until the next card turns up, the player plays the leader's plan move by move (those moves
  reveal nothing), with no vote and no search; a move leading back to a view already seen is
  left for the next one.
- **Following.** After the move, each sample plays it too. A sample whose plan started with it
  keeps the rest of its plan; another keeps its plan with that move taken out when the plan
  still wins so (replayed through the engine), else its plan is dropped.
- **Reveals.** When a card is turned up (a move uncovers it, or the stock deals a row), each
  sample is *repaired*: where its guess differs from the card now seen, that card is swapped in
  from one of the sample's face-down places (so the sample again looks exactly like the game and
  holds the same cards), and a repaired sample's plan is kept only when it still wins when
  replayed. So plans are searched after reveals (nearly every reveal changes every sample), not
  after every move.
- When no sample has a plan (the searches found no win), the player plays the move that looks
  best from visible information; it resigns when that happened after :data:`GIVE_UP` reveals
  in a row.

It reads only its observation: samples and repairs are built from the piles it sees (face-up
cards, and how many cards lie face down where), legal moves depend on nothing else, and its
random choices come from a generator seeded from the deal's seed alone. Nothing in a
Spider-type game is turned face down again, so there is nothing to remember beyond the view.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from reussite.cards import UP
from reussite.engine import FLIP, HIDDEN, STOCK_RAW, Position, RawMove
from reussite.observation import Observation
from reussite.solver import core
from reussite.solver.player import Choice, visible_score

PLANS = 2
"""The plans wanted before a move: a sample's searches stop when that many samples have one."""

GIVE_UP = 3
"""Decisions in a row where every sample was searched and none had a plan, before the player
resigns (the searches cost the most where nothing is found)."""


@dataclass(frozen=True)
class BeamEffort:
    """How hard the planning player thinks.

    ``samples``: samples of the hidden cards (each with its own plan, once searched).
    ``states`` bounds each plan's search in positions (the same play on any machine),
    ``time_limit`` in seconds (of CPU time with ``cpu``); either may be None, not both. Each
    sample is searched first on a ninth of that, then a third, then all of it, as long as
    plans are wanted (most samples are won on a small budget or not at all)."""

    samples: int = 6
    states: int | None = 300_000
    time_limit: float | None = None
    cpu: bool = True

    def levels(self) -> list[tuple[float | None, int | None]]:
        """The budgets of the successive searches of one sample: (seconds, positions)."""
        out: list[tuple[float | None, int | None]] = []
        for share in (9, 3, 1):
            seconds = None if self.time_limit is None else self.time_limit / share
            states = None if self.states is None else max(100_000, self.states // share)
            if not out or out[-1] != (seconds, states):
                out.append((seconds, states))
        return out


def view_cards(obs: Observation) -> list[list[int | None]]:
    """What the player sees as cards: each place's card (face-up bit set), or None when face
    down."""
    return [[None if c == HIDDEN else c for c in pile] for pile in obs.piles]


def replay(pos: Position, plan: list[RawMove]) -> tuple[bool, int]:
    """Play ``plan`` from ``pos`` until its first illegal move: whether it was legal to the end
    and won, and how many face-down cards of the tableau it turned up (not the stock's: a deal
    turns up a row whatever the cards; ``pos`` is left as it was)."""
    played = turned = 0
    for m in plan:
        if m not in pos.raw_moves():
            break
        pos.push_raw(m)
        played += 1
        if m != STOCK_RAW:
            turned += sum(1 for op in pos.history[-1][1] if op[0] == FLIP)
    won = played == len(plan) and pos.is_won()
    for _ in range(played):
        pos.pop()
    return won, turned


def wins(pos: Position, plan: list[RawMove]) -> bool:
    """``plan`` is legal move by move from ``pos`` and wins (``pos`` is left as it was)."""
    return replay(pos, plan)[0]


def reveals(pos: Position, plan: list[RawMove]) -> int:
    """How many face-down cards ``plan`` turns up in ``pos`` before its first illegal move (and
    one more when it wins there). A plan searched on one sample that goes far on the others
    leans little on that sample's guesses; one that deals from the stock early, counting on
    its sample's stock, goes no further on the others than the deal."""
    won, turned = replay(pos, plan)
    return turned + int(won)


class Sample:
    """One guess of the hidden cards, kept in step with the game, and its plan."""

    __slots__ = ("plan", "pos", "tried")

    def __init__(self, pos: Position) -> None:
        self.pos = pos
        self.plan: list[RawMove] | None = None
        self.tried = 0
        """The budget levels searched without a win since the last card turned up (not
        searched again on them before the next)."""

    def repair(self, view: list[list[int | None]]) -> bool:
        """Make the sample look like ``view`` again after a move that turned cards up: each
        wrong guess is swapped with the card seen, taken from a place of the sample that is
        face down in the view or also guessed wrong (the first such place, pile by pile).
        True when anything changed."""
        piles = self.pos.piles
        changed = False
        for pile, seen in zip(piles, view, strict=True):
            for k, c in enumerate(seen):
                if c is None or pile[k] == c:
                    continue
                j, q = next((j, q) for j, p in enumerate(piles) for q, d in enumerate(p)
                            if d & ~UP == c & ~UP and view[j][q] != d)
                other = view[j][q]
                piles[j][q] = pile[k] & ~UP if other is None else pile[k] | UP
                pile[k] = c
                changed = True
        return changed


class PlanningPlayer:
    """The planning player (see the module's docstring; :class:`.player.Player`): its samples
    are drawn at its first choice, then followed move by move."""

    def __init__(self, effort: BeamEffort = BeamEffort(), seed: int = 0) -> None:
        self.effort = effort
        self.rng = random.Random(seed)
        self.samples: list[Sample] = []
        self.states = 0
        self.searches = 0
        self.planless = 0
        """Decisions in a row where every sample was searched and none had a plan."""
        self.leader: Sample | None = None
        """The sample whose plan the player follows until a card turns up."""

    def start(self, obs: Observation) -> None:
        """Draw the samples from what the player sees (at its first choice)."""
        self.samples = [Sample(obs.sample(self.rng)) for _ in range(self.effort.samples)]

    def _plan(self, s: Sample, level: int) -> None:
        seconds, states = self.effort.levels()[level]
        status, line, spent = core.solve_raw(s.pos, seconds, states, False, True,
                                             self.effort.cpu)
        self.states += spent
        self.searches += 1
        s.plan = line if status == "won" else None
        s.tried = level + 1

    def ranked(self, stand: Position) -> list[tuple[int, RawMove]]:
        """The first moves of the samples' plans with their votes, most votes first. Samples
        without a plan are searched first while fewer than :data:`PLANS` have one (each on the
        smallest budget it has not failed yet, see :meth:`BeamEffort.levels`); the plan that
        turns up the most cards on the other samples comes first, and leads the play until
        the next card turns up (see the module's docstring). ``stand``: the observation's
        stand-in (for the visible scores that break ties)."""
        lead = self.leader
        if lead is not None and lead.plan:
            return [(len(self.samples), lead.plan[0])]
        want = min(PLANS, len(self.samples))
        before = self.searches
        for level in range(len(self.effort.levels())):
            for s in self.samples:
                if sum(1 for t in self.samples if t.plan) >= want:
                    break
                if s.plan is None and s.tried <= level:
                    self._plan(s, level)
        votes = Counter(s.plan[0] for s in self.samples if s.plan)
        searched = self.searches > before
        self.planless = 0 if votes else self.planless + int(searched)
        reach: dict[RawMove, tuple[int, Sample]] = {}
        for s in self.samples:
            if s.plan:
                r = sum(reveals(t.pos, s.plan) for t in self.samples if t is not s)
                if s.plan[0] not in reach or r > reach[s.plan[0]][0]:
                    reach[s.plan[0]] = (r, s)
        ranked = sorted(((v, m) for m, v in votes.items()),
                        key=lambda vm: (-reach.get(vm[1], (0, None))[0], -vm[0],
                                        -visible_score(stand, vm[1]), vm[1]))
        if ranked:
            top = ranked[0][1]
            self.leader = reach[top][1] if top in reach else next(
                s for s in self.samples if s.plan and s.plan[0] == top)
        return ranked

    def choose(self, obs: Observation) -> Choice:
        """The plans' moves, best first, then every other legal move by how it looks; the
        player resigns after :data:`GIVE_UP` fruitless decisions."""
        if not self.samples:
            self.start(obs)
        stand = obs.stand_in()
        legal = stand.raw_moves()
        ranked = [m for _, m in self.ranked(stand) if m in legal]
        if self.planless >= GIVE_UP:
            return Choice(ending="no plan")
        legal.sort(key=lambda m: (-visible_score(stand, m), m))
        return Choice(steps=[(m,) for m in ranked + legal],
                      detour_after=1 if ranked else len(legal) + 1)

    def follow(self, obs: Observation) -> bool:
        """Take in the move just played (what it turned up included); a move never ends a
        step (each step is one move)."""
        move, ops = obs.history[-1]
        flipped = any(op[0] == FLIP for op in ops)
        if flipped:
            self.leader = None
        view = view_cards(obs)
        shape = [len(p) for p in view]
        for s in self.samples:
            s.pos.push_raw(move)
            if flipped:
                s.tried = 0
            if [len(p) for p in s.pos.piles] != shape:
                # A card dealt from the stock completed a suit in the sample only, or in the
                # game only (collected at once in Spider): a new sample.
                s.pos, s.plan = obs.sample(self.rng), None
                continue
            changed = s.repair(view)
            plan = s.plan
            if plan is None:
                continue
            if not changed and plan[0] == move:
                s.plan = plan[1:]
                continue
            if plan[0] == move:
                rest = plan[1:]
            elif move in plan:
                i = plan.index(move)
                rest = plan[:i] + plan[i + 1:]
            else:
                s.plan = None
                continue
            s.plan = rest if wins(s.pos, rest) else None
        if self.leader is not None and not self.leader.plan:
            self.leader = None
        return False
