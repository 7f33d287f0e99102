"""The visible player of the Spider-type games: it searches what it sees.

Between two cards turned up, a Spider-type game (Spider in 1, 2 or 4 suits, Astrocyte, Fred's
Spider) is deterministic: every card that can move is face up. This player searches that part
of the game instead of guessing the hidden cards:

- **The masked position.** The position the search gets is the observation's piles
  (:meth:`.observation.Observation.masked_piles`): every face-down card and every stock card
  is given as 0. The C core's ``visible_plan`` searches it best-first, never dealing;
  a card that a move turns up becomes an *unknown* (0 face up: nothing fits on it, it does not
  move), so a line found can be played whatever the hidden cards are, and is worth at least
  what the search saw (the real card can only allow more).
- **The evaluation** (:class:`Weights`, visible information only): face-down cards (each one
  costs, a pile with any costs more, and so does each piece of the pile that must move away to
  reach them), empty piles, suits completed, in-suit links (a card on the next rank of its
  suit), other links and breaks among face-up cards, cells taken (Astrocyte), cards turned up.
- **The plan.** The player goes to the best position the search reached (when it is better
  than the present one), move by move, and searches again as soon as a card turns up.
- **The deal.** When no position better than the present one is in reach, the player deals —
  first going to the best position to deal from (the same evaluation, an empty pile forbidding
  the deal worst of all: in Spider and Astrocyte every pile must be filled first). The deal is
  the one chance move; nothing is dealt while a better position, a card turned up among
  others, is in reach. With ``VisibleEffort.deep`` (Spider 4 suits and Astrocyte, in play:
  :mod:`.players`), a first search that finds nothing better is followed by a deeper one
  before the player deals; with ``VisibleEffort.resort_before_deal`` (Spider 4 suits) the
  player then first goes to any card it can turn up, as the last resort does.
- The game ends lost when nothing improves the position and the stock is empty (or cannot be
  dealt), or at the :class:`.player.Referee`'s ends.

Nothing here reads a hidden card: the search sees the masked position only, and the player has
no random choice at all (same view, same move).
"""

from __future__ import annotations

from dataclasses import astuple, dataclass, field, replace

from reussite.cards import UP
from reussite.engine import FLIP, STOCK_RAW, Position, RawMove, shown
from reussite.observation import Observation
from reussite.solver import core
from reussite.solver.player import Choice


@dataclass(frozen=True)
class Weights:
    """The evaluation's weights (``_core.c``'s ``v_eval``; the order is the C core's)."""

    down: int = 6
    """Each face-down card."""
    column: int = 10
    """Each pile with a face-down card."""
    empty: int = 16
    """Each empty pile."""
    suit: int = 4
    """Each card on the next rank of its own suit (face up)."""
    rank: int = 2
    """Each card on the next rank of another suit."""
    broken: int = 2
    """Each face-up card on a card that is not the next rank."""
    cell: int = 4
    """Each card in a cell (Astrocyte)."""
    cell2: int = 1
    """Each card in a cell, times the cards in cells."""
    home: int = 12
    """Each suit completed, more than its 12 links in a run counted as they were."""
    reach: int = 1
    """Each piece (in-suit run) above a pile's face-down cards."""
    unknown: int = 2
    """Each pile whose top card was just turned up (by the search: not yet seen)."""
    run: int = 2
    """In-suit runs: a run of L links counts this much times L(L-1)/2 more (long runs,
    towards a completed suit, weigh more than their links)."""
    king_cell: int = 0
    """Each King in a cell (it can go back only to an empty pile)."""
    king_high: int = 0
    """Each face-up King above another card of its pile (it can leave only for an empty
    pile, and keeps the cards under it there)."""


@dataclass(frozen=True)
class VisibleEffort:
    """How hard the player searches: ``nodes`` positions per search (the same play on any
    machine)."""

    nodes: int = 20_000
    weights: Weights = field(default_factory=Weights)
    last_resort: bool = False
    """When nothing improves the position and the stock cannot be dealt (the game would end),
    go to a card turned up at any cost in the evaluation (:func:`last_resort`)."""
    deep: int = 0
    """Before dealing (or giving up), search again with this many positions when the first
    search found nothing better (0: never)."""
    resort_before_deal: int | None = None
    """Before a deal (nothing better in reach), first go to a card turned up as the last
    resort does, when the evaluation there is at most this much below the present one (None:
    never)."""


RESORT_ANY_COST = 1_000_000
"""``VisibleEffort.resort_before_deal`` for a card turned up before a deal at any cost."""


def masked_search(obs: Observation, stand: Position,
                  effort: VisibleEffort) -> tuple[core.Spec, tuple[bytes, ...], int,
                                                  tuple[int, ...]]:
    """The first arguments of the C core's ``visible_plan``: the game, the masked piles, the
    redeals used, the evaluation's weights (``stand``: the observation's stand-in, whose
    rules the C core reads)."""
    return core.spec_of(stand), obs.masked_piles(), obs.redeals_used, astuple(effort.weights)


def plan(obs: Observation, stand: Position, effort: VisibleEffort,
         predeal: bool) -> tuple[int, int, list[RawMove], int]:
    """The C core's search of the masked position: (best evaluation, the present one, the
    line to the best, positions seen)."""
    # The C core is optional (built when a compiler is there): imported when searched with.
    from reussite.solver import _core

    best, root, line, seen = _core.visible_plan(
        *masked_search(obs, stand, effort), predeal, effort.nodes)
    return best, root, [(m[0], m[1], m[2]) for m in line], seen


def decide(obs: Observation, effort: VisibleEffort = VisibleEffort(),
           spent: list[int] | None = None) -> list[RawMove]:
    """The moves the player means to play (it looks again after any move that turns a card
    up): the line to the best position in reach; when none is better than now, the line to
    the best position to deal from, then the deal; empty when nothing helps. The positions
    searched are added to ``spent[0]``."""
    spent = [0] if spent is None else spent
    stand = obs.stand_in()
    best, root, line, seen = plan(obs, stand, effort, False)
    spent[0] += seen
    if not (line and best > root) and effort.deep > effort.nodes and seen >= effort.nodes:
        best, root, line, seen = plan(obs, stand, replace(effort, nodes=effort.deep), False)
        spent[0] += seen
    if line and best > root:
        return line
    if not obs.piles[0]:
        return last_resort(obs, stand, effort, spent) if effort.last_resort else []
    if effort.resort_before_deal is not None:
        turn = last_resort(obs, stand, effort, spent)
        if turn and evaluation_after(obs, stand, turn, effort) >= \
                root - effort.resort_before_deal:
            return turn
    best, root, line, seen = plan(obs, stand,
                                  replace(effort, nodes=max(effort.nodes, effort.deep)), True)
    spent[0] += seen
    if not (line and best > root):
        line = []
    if not line and STOCK_RAW not in stand.raw_moves():
        return last_resort(obs, stand, effort, spent) if effort.last_resort else []
    return line + [STOCK_RAW]


def _until_reveal(pos: Position, line: list[RawMove]) -> list[RawMove]:
    """``line`` up to its first move that turns a card up (or deals), that move included;
    empty when none does (``pos`` left as it was)."""
    done: list[RawMove] = []
    try:
        for m in line:
            pos.push_raw(m)
            done.append(m)
            if _turned(pos):
                return done
        return []
    finally:
        for _ in done:
            pos.pop()


def _masked_after(pos: Position, line: list[RawMove]) -> tuple[list[bytearray], list[int]]:
    """The masked piles after ``line`` played on ``pos`` (an observation's stand-in: a card
    turned up by the line shows a face there that only the caller may overwrite) and the
    piles whose card its last move turned up; ``pos`` left as it was."""
    for m in line:
        pos.push_raw(m)
    try:
        return ([bytearray(shown(c) for c in p) for p in pos.piles],
                [op[1] for op in pos.history[-1][1] if op[0] == FLIP])
    finally:
        for _ in line:
            pos.pop()


LAST_RESORT_DOWN = 1_000
"""What a face-down card weighs in the last resort's search (more than anything else)."""


def last_resort(obs: Observation, stand: Position, effort: VisibleEffort,
                spent: list[int]) -> list[RawMove]:
    """The line to the nearest card turned up that the search finds when the game would
    otherwise end (nothing improves the position, no deal): the same search with a face-down
    card weighing more than anything else, the line cut at its first card turned up; empty
    when no card can be turned up. Whatever it costs in the evaluation, the game is lost
    without it, and a card turned up is progress that cannot be undone (no loop)."""
    weights = replace(effort.weights, down=effort.weights.down + LAST_RESORT_DOWN)
    best, root, line, seen = plan(obs, stand, replace(effort, weights=weights), False)
    spent[0] += seen
    if not line or best <= root:
        return []
    return _until_reveal(stand, line)


def evaluation_after(obs: Observation, stand: Position, line: list[RawMove],
                     effort: VisibleEffort) -> int:
    """The evaluation (``effort``'s weights) of the masked position after ``line``, a line of
    :func:`last_resort` (only its last move may turn a card up): the card it turns up is seen
    as an unknown, as by the search (its face is not read)."""
    from reussite.solver import _core  # optional, as in plan()

    piles, flipped = _masked_after(stand, line)
    for i in flipped:
        if piles[i]:
            piles[i][-1] = UP  # the card turned up, unread: an unknown
    spec, _, redeals, weights = masked_search(obs, stand, effort)
    return int(_core.visible_plan(spec, tuple(bytes(p) for p in piles), redeals, weights,
                                  False, 1)[1])


def visible_move(obs: Observation, effort: VisibleEffort = VisibleEffort()) -> RawMove | None:
    """The player's move, or None when no move is legal; when nothing helps, the first legal
    move (a hint must say something)."""
    legal = obs.stand_in().raw_moves()
    if not legal:
        return None
    line = decide(obs, effort)
    return line[0] if line else legal[0]


def _turned(pos: Position) -> bool:
    """The last move turned a tableau card up (a deal's row is the deal's own)."""
    return _turns_up(pos.history[-1])


def _turns_up(record: tuple[RawMove, tuple[tuple[int, ...], ...]]) -> bool:
    """The move recorded turned a card up, or dealt."""
    raw, ops = record
    return raw == STOCK_RAW or any(op[0] == FLIP for op in ops)


class VisiblePlayer:
    """The visible player of a whole game (:class:`.player.Player`): each choice is the line
    :func:`decide` gives, played up to its first move that turns a card up (or deals)."""

    def __init__(self, effort: VisibleEffort = VisibleEffort()) -> None:
        self.effort = effort
        self.states = 0

    def choose(self, obs: Observation) -> Choice:
        spent = [0]
        line = decide(obs, self.effort, spent)
        self.states += spent[0]
        return Choice(line=line) if line else Choice(ending="no move")

    def follow(self, obs: Observation) -> bool:
        return _turns_up(obs.history[-1])
