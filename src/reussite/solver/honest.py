"""The honest player: it sees only what a player sees, and chooses moves within a budget.

Method (determinization, "perfect-information Monte Carlo", called hindsight optimization in
the Klondike literature): the unseen cards are known as a multiset (every card of the deck
minus the face-up ones and the ones the player remembers). The player deals them at random
into the face-down places of the *player view* (a seeded generator: the same views and seed
give the same samples) and judges each candidate *step* on every sample with the
full-information solver on a small budget of positions (:class:`Effort`):

- a step after which the solver wins the sample scores 1 there, one it proves lost 0;
- a step left ``unknown`` scores a share of a win: the step's own share of wins among its
  decided samples (so that a step that is merely hard to search is not taken for a bad one),
  scaled by the progress of the best line found (cards turned up, cards home), which is all
  there is to go on in games whose samples the solver never finishes;
- the step with the best total is played (ties: the one that looks best from visible
  information, ``hints.visible_score``); sampling stops early once the samples left cannot
  change the leader.

A step is one of the search's children (:func:`root_steps`): a move, or with a waste a few
stock clicks and a move of the waste's top card, used only when the player knows the stock.

**Memory.** A card the player has seen face up stays known when it is turned face down again:
the waste turned over into the stock (Klondike, Athena, Minerva), the reserves gathered into
the stock (Quadrennial). :class:`Memory` follows the game's moves and records every card at the
moment it is face up, and only then; samples keep those cards where the player saw them go.
Where the waste is turned over without limit, the player first clicks once round the stock
(:func:`scouting_click`): that costs nothing and shows every stock card.

Nothing here reads a face-down card the player has not seen: samples and steps are built from
:meth:`Position.player_view` and the cards remembered from earlier views alone.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from reussite.cards import UP, build_deck, parse_card
from reussite.engine import STOCK_RAW, TRANSFER, Position, RawMove
from reussite.rules import StockAction
from reussite.solver.search import _progress, knowledge, solve

UNKNOWN = -1


class Memory:
    """The cards the player has seen, by place: ``known[pile][i]`` is the card (without its
    face-up bit) at place ``i`` of the pile, or ``UNKNOWN`` when the player never saw it.

    Built from the views alone: after each move the face-up cards are recorded (they are in
    the view); a transfer carries what is known of its cards along with them (the player sees
    which cards a move takes where, even when a redeal turns them face down).
    """

    def __init__(self, pos: Position) -> None:
        self.known: list[list[int]] = [[c & ~UP if c & UP else UNKNOWN for c in p]
                                       for p in pos.piles]

    @classmethod
    def of(cls, pos: Position) -> Memory:
        """What a player who played ``pos``'s moves from the deal remembers now."""
        start = pos.copy()
        line = [raw for raw, _ in start.history]
        while start.history:
            start.pop()
        memory = cls(start)
        for raw in line:
            start.push_raw(raw)
            memory.follow(start)
        return memory

    def follow(self, pos: Position) -> None:
        """Take in the last move of ``pos`` (just played)."""
        known = self.known
        for op in pos.history[-1][1]:
            if op[0] == TRANSFER:
                _, src, dst, n = op
                known[dst] += known[src][-n:]
                del known[src][-n:]
        for k, p in zip(known, pos.piles, strict=True):
            for i, c in enumerate(p):
                if c & UP:
                    k[i] = c & ~UP

    def copy(self) -> Memory:
        twin = Memory.__new__(Memory)
        twin.known = [list(k) for k in self.known]
        return twin

    def hidden_known(self, pos: Position) -> int:
        """How many face-down cards of ``pos`` the player knows."""
        return sum(1 for k, p in zip(self.known, pos.piles, strict=True)
                   for i, c in enumerate(p) if not c & UP and k[i] != UNKNOWN)


def unseen_cards(pos: Position, view: dict[str, list[dict[str, object]]],
                 memory: Memory | None = None) -> list[int]:
    """The cards the player cannot place, as a sorted multiset (the deck minus the face-up
    cards, minus the face-down cards it remembers)."""
    left = Counter(build_deck(pos.rules.packs, pos.rules.suits))
    for entries in view.values():
        for e in entries:
            code = e["card"]
            if isinstance(code, str):
                left[parse_card(code)] -= 1
    if memory is not None:
        for pid, k in zip(pos.layout.ids, memory.known, strict=True):
            for e, c in zip(view[pid], k, strict=True):
                if e["card"] is None and c != UNKNOWN:
                    left[c] -= 1
    return sorted(left.elements())


def sample_position(pos: Position, rng: random.Random,
                    memory: Memory | None = None) -> Position:
    """A position that looks exactly like ``pos`` to the player (and agrees with what it
    remembers), the other hidden cards drawn at random."""
    view = pos.player_view()
    hidden = unseen_cards(pos, view, memory)
    rng.shuffle(hidden)
    piles: list[list[int]] = []
    for j, pid in enumerate(pos.layout.ids):
        pile = []
        for i, e in enumerate(view[pid]):
            code = e["card"]
            if isinstance(code, str):
                pile.append(parse_card(code) | UP)
            elif memory is not None and memory.known[j][i] != UNKNOWN:
                pile.append(memory.known[j][i])
            else:
                pile.append(hidden.pop())
        piles.append(pile)
    return Position(pos.rules, pos.number, piles, pos.redeals_used)


def visible_key(pos: Position) -> tuple[object, ...]:
    """What the player sees, as a hashable value (face-down cards as 0)."""
    return (pos.redeals_used, tuple(tuple(c if c & UP else 0 for c in p) for p in pos.piles))


NEAR = 0.1
"""The lookahead judges again only the steps within this many wins per sample judged of the
best (:func:`ranked_steps`)."""


@dataclass(frozen=True)
class Effort:
    """How hard the honest player thinks about one move.

    ``samples``: samples of the hidden cards, at most (fewer when the leader is settled).
    ``states_per_sample`` bounds each search in positions (reproducible, whatever the
    machine's load); ``time_limit`` bounds the whole move in seconds (None: no bound).
    ``lookahead``: the best ``lookahead`` steps of that judging are judged again one
    decision deeper, through the chance node of what the step turns up
    (:func:`lookahead_value`: ``outcomes`` draws of the hidden cards, ``per_outcome``
    samples of each information set reached, the next step chosen once per information
    set), only those within :data:`NEAR` of the best and only when the first judging used
    every sample (it did not settle early); 0: not at all.
    """

    samples: int = 16
    states_per_sample: int | None = 1_000
    time_limit: float | None = None
    lookahead: int = 0
    outcomes: int = 4
    per_outcome: int = 4


def scouting_click(pos: Position, memory: Memory | None) -> RawMove | None:
    """The stock click that looks through a stock the player does not know yet, when doing so
    costs nothing: a waste turned over without limit, before any other move (a whole round of
    clicks then brings the position back as it was, the player knowing every stock card).
    Playing a card meanwhile would change the stock's grouping, so scouting is done first."""
    st = pos.rules.stock
    if memory is None or st.action is not StockAction.DRAW_TO_WASTE or st.redeals is not None:
        return None
    waste = pos.layout.waste
    if pos.redeals_used > 0 or any(raw[0] == waste for raw, _ in pos.history):
        return None
    unknown = any(k == UNKNOWN for k in memory.known[0])
    return STOCK_RAW if unknown or pos.piles[pos.layout.waste] else None


Step = tuple[RawMove, ...]
"""What the honest player decides on: a move, or (with a waste) a few stock clicks and a move
of the waste's top card, as the search's children (:meth:`GameKnowledge.children`)."""


def stock_known(pos: Position, memory: Memory | None) -> bool:
    """The player knows every card of the stock (or it is empty)."""
    if not pos.piles[0]:
        return True
    return memory is not None and all(c != UNKNOWN for c in memory.known[0])


def root_steps(pos: Position, memory: Memory | None = None) -> list[Step]:
    """The steps worth telling apart from ``pos``: the search's children (moves it would prune
    as equivalent to another left out), or every legal move when it has none.

    The search's stock macros read the stock's cards: they are used only when the player
    knows them all. Otherwise the steps are single moves, a click on the stock among them.
    Idle splits and descents are not left out here: that rule reads face-down cards.
    """
    steps = knowledge(pos).children(pos, None, macros=stock_known(pos, memory), idle=False)
    return steps if steps else [(m,) for m in pos.raw_moves()]


def _room(pos: Position) -> int:
    """The most progress still possible (as :func:`.search._progress` counts it): every card
    not home sent home (2 each), every face-down card turned up (1 each)."""
    down = sum(1 for p in pos.piles[1:] for c in p if not c & UP)
    return 2 * (pos.rules.cards - pos.foundation_cards) + down


def _value(sample: Position, step: Step, effort: Effort, seconds: float | None,
           spent: list[int] | None) -> tuple[str, float, int]:
    """What the search says of ``step`` in ``sample``: its status, for ``unknown`` a weight
    (the share of the progress still possible that the best line found made, the step's own
    included), and the positions searched."""
    room = _room(sample)
    for m in step:
        sample.push_raw(m)
    result = solve(sample, time_limit=seconds, max_states=effort.states_per_sample,
                   best_line=True)
    if spent is not None:
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


def ranked_steps(pos: Position, effort: Effort = Effort(), *, seed: int = 0,
                 memory: Memory | None = None,
                 spent: list[int] | None = None) -> list[tuple[float, Step]]:
    """The steps with their scores, best first (see the module's docstring)."""
    if not pos.raw_moves():
        return []
    scout = scouting_click(pos, memory)
    if scout is not None:
        return [(float(effort.samples), (scout,))]
    steps = root_steps(pos, memory)
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
        sample = sample_position(pos, rng, memory)
        for step in steps:
            tallies[step].add(*_value(sample, step, effort, per_search, spent))
        judged = k + 1
        if judged < effort.samples and _settled(tallies, effort.samples - judged):
            break
    ranked = sorted(((t.score(), step) for step, t in tallies.items()),
                    key=lambda vm: (-vm[0], tallies[vm[1]].effort_to_win(),
                                    -step_score(pos, vm[1])))
    if judged >= effort.samples and effort.lookahead > 1:
        # Only the near-ties are judged again (a clear first judging stands).
        floor = ranked[0][0] - NEAR * judged
        near = sum(1 for v, _ in ranked if v >= floor)
        ranked = _look_ahead(pos, ranked, effort, seed, memory, spent,
                             min(near, effort.lookahead))
    return ranked


def _look_ahead(pos: Position, ranked: list[tuple[float, Step]], effort: Effort, seed: int,
                memory: Memory | None, spent: list[int] | None,
                count: int) -> list[tuple[float, Step]]:
    """``ranked`` with its best ``count`` steps ordered again by :func:`lookahead_value` (the
    others after them, as they were). The first judging's order breaks ties."""
    return _rejudged(ranked, count, lambda step: lookahead_value(
        pos, step, effort, seed=seed, memory=memory, spent=spent))


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


def lookahead_value(pos: Position, step: Step, effort: Effort, *, seed: int = 0,
                    memory: Memory | None = None, spent: list[int] | None = None) -> float:
    """What ``step`` is worth to a player who, after it, decides the next step seeing only
    what it will then see: the expectation, over the chance node of what the step turns up,
    of the best next step's share of wins (each next step judged on samples of the
    information set reached, as :func:`ranked_steps` judges the steps).

    ``effort.outcomes`` samples of the hidden cards are drawn (the same ones for every step
    of a position: the generator is seeded by ``seed`` alone) and ``step`` is played on each;
    those that look alike afterwards are one information set. Each information set is sampled
    again, ``effort.per_outcome`` times for each draw that reached it, from what it shows (and
    what the player then remembers), and its value is the best next step's mean score there.
    A determinized search knows the hidden cards; here the next decision is made once for all
    the samples of an information set, so a step that shows a card before the choice it
    matters for is worth more than one that leaves the choice blind (strategy fusion one
    decision deep; below that, the searches are determinized as before).
    """
    rng = random.Random(seed * 1_000_003 + 17)
    groups: dict[tuple[object, ...], tuple[Position, Memory | None, int]] = {}
    for _ in range(effort.outcomes):
        sample = sample_position(pos, rng, memory)
        after_memory = memory.copy() if memory is not None else None
        for m in step:
            sample.push_raw(m)
            if after_memory is not None:
                after_memory.follow(sample)
        key = visible_key(sample)
        if key in groups:
            first, mem, n = groups[key]
            groups[key] = (first, mem, n + 1)
        else:
            groups[key] = (sample, after_memory, 1)
    total = 0.0
    for after, after_memory, draws in groups.values():
        total += draws * _info_set_value(after, effort, rng, after_memory,
                                         draws * effort.per_outcome, spent)
    return total / effort.outcomes


def _info_set_value(after: Position, effort: Effort, rng: random.Random,
                    memory: Memory | None, samples: int, spent: list[int] | None) -> float:
    """The best next step's mean score on ``samples`` samples of what ``after`` shows."""
    if after.is_won():
        return 1.0
    if not after.raw_moves():
        return 0.0
    steps = root_steps(after, memory)
    scout = scouting_click(after, memory)
    if scout is not None:
        steps = [(scout,)]
    tallies = {s: Tally() for s in steps}
    for _ in range(samples):
        sample = sample_position(after, rng, memory)
        for s in steps:
            tallies[s].add(*_value(sample, s, effort, None, spent))
    return max(t.score() for t in tallies.values()) / samples


def step_score(pos: Position, step: Step) -> float:
    """How good a step looks from visible information (``hints.visible_score`` of its move
    after its clicks; fewer clicks first)."""
    from reussite.solver.hints import visible_score

    for m in step[:-1]:
        pos.push_raw(m)
    score = visible_score(pos, step[-1]) - 0.01 * (len(step) - 1)
    for _ in step[:-1]:
        pos.pop()
    return score


def ranked_moves(pos: Position, effort: Effort = Effort(), *, seed: int = 0,
                 memory: Memory | None = None) -> list[tuple[float, RawMove]]:
    """The first moves of the ranked steps, best first, each once."""
    out: list[tuple[float, RawMove]] = []
    for v, step in ranked_steps(pos, effort, seed=seed, memory=memory):
        if all(m != step[0] for _, m in out):
            out.append((v, step[0]))
    return out


def honest_move(pos: Position, effort: Effort = Effort(), *, seed: int = 0,
                memory: Memory | None = None) -> RawMove | None:
    """The honest player's move, or None when no move is legal. ``memory``: what the player
    remembers (by default, rebuilt from ``pos``'s moves with :meth:`Memory.of`)."""
    if memory is None:
        memory = Memory.of(pos)
    ranked = ranked_steps(pos, effort, seed=seed, memory=memory)
    return ranked[0][1][0] if ranked else None


def _reveals_unknown(pos: Position, memory: Memory) -> bool:
    """A click now would turn up a stock card the player does not know."""
    stock = memory.known[0]
    if not stock:
        return False
    return any(c == UNKNOWN for c in stock[-max(1, pos.rules.stock.draw):])


@dataclass
class HonestGame:
    """How a game played by the honest player ended."""

    status: str
    moves: int
    states: int
    seconds: float
    ending: str = ""
    """Why the game ended: won, no move (or a clear end), a loop, no progress, too long."""
    home: int = 0
    """Cards on the foundations at the end."""
    detours: int = 0
    """Times the best-ranked step was left aside because it led back to a view seen before."""


def _progress_mark(pos: Position) -> tuple[int, int, int]:
    """Cards home, cards face down, cards in the stock (and waste), the first negated: each
    can only go down for good (turning the stock round changes none of them)."""
    waste = pos.layout.waste
    down = sum(1 for p in pos.piles[1:] for c in p if not c & UP)
    return (-pos.foundation_cards, down,
            len(pos.piles[0]) + (len(pos.piles[waste]) if waste >= 0 else 0))


class Referee:
    """What ends a game played by an honest player (both players of this package): too many
    moves, ``patience`` moves in a row that brought no more cards home than ever before,
    turned no card up and dealt nothing, a clear end, or every step considered leading back
    to a view already seen (a loop)."""

    def __init__(self, pos: Position, max_moves: int, patience: int) -> None:
        self.max_moves = max_moves
        self.patience = patience
        self.seen: set[tuple[object, ...]] = {visible_key(pos)}
        self.progress: tuple[int, ...] = _progress_mark(pos)
        self.progress_turn = 0
        self.turn = 0
        self.detours = 0

    def ending(self, pos: Position) -> str | None:
        """Why the game ends before the next step, or None."""
        from reussite.solver.search import is_stuck

        if self.turn >= self.max_moves:
            return "too long"
        if self.turn - self.progress_turn >= self.patience:
            return "no progress"
        if is_stuck(pos, max_states=300):
            return "no move"
        return None

    def first_unseen(self, pos: Position, steps: list[Step],
                     detour_after: int = 1) -> Step | None:
        """The first of ``steps`` that leads to a view not seen before (now seen), None when
        there is none (a loop); a step chosen at index ``detour_after`` or later counts as a
        detour."""
        for k, step in enumerate(steps):
            for m in step:
                pos.push_raw(m)
            key = visible_key(pos)
            for _ in step:
                pos.pop()
            if key not in self.seen:
                self.seen.add(key)
                self.detours += int(k >= detour_after)
                return step
        return None

    def moved(self, pos: Position) -> None:
        """A step was played: count it, and whether it made progress."""
        self.turn += 1
        mark = _progress_mark(pos)
        if any(a < b for a, b in zip(mark, self.progress, strict=True)):
            self.progress = tuple(min(a, b) for a, b in zip(mark, self.progress, strict=True))
            self.progress_turn = self.turn


def play_honest_game(pos: Position, effort: Effort = Effort(), *, seed: int = 0,
                     max_moves: int = 2_000, patience: int = 120) -> HonestGame:
    """Play ``pos`` (a copy) to the end as the honest player; ``won`` or ``lost``.

    The game ends lost when no move is legal, when the clear-end detector says nothing can
    change any more, when every move the player would consider leads back to something it
    has already seen (it would only go round in circles), or when ``patience`` moves in a row
    brought no more cards home than ever before, turned no card up and dealt nothing (it
    gives up).
    """
    start = time.perf_counter()
    pos = pos.copy()
    memory = Memory.of(pos)
    referee = Referee(pos, max_moves, patience)
    spent = [0]
    ending = ""
    while not pos.is_won():
        ending = referee.ending(pos) or ""
        if ending:
            break
        ranked = ranked_steps(pos, effort, seed=seed * 7919 + referee.turn, memory=memory,
                              spent=spent)
        # Every legal move comes after the ranked steps: a step may lead back to a view
        # already seen (a card taken off a foundation goes back at once), another move not.
        legal = sorted(pos.raw_moves(), key=lambda m: -step_score(pos, (m,)))
        chosen = referee.first_unseen(pos, [s for _, s in ranked] + [(m,) for m in legal])
        if chosen is None:
            ending = "loop"
            break
        for m in chosen:
            # A click that turns up a card the player does not know ends the step: what it
            # shows may change the plan.
            reveals = m == STOCK_RAW and _reveals_unknown(pos, memory)
            pos.push_raw(m)
            memory.follow(pos)
            if reveals:
                break
        referee.moved(pos)
    won = pos.is_won()
    return HonestGame("won" if won else "lost", len(pos.history), spent[0],
                      time.perf_counter() - start, "won" if won else ending,
                      pos.foundation_cards, referee.detours)
