"""The honest player of the Spider-type games that searches what it sees (``--method visible``).

Between two cards turned up, a Spider-type game (Spider in 1, 2 or 4 suits, Astrocyte, Fred's
Spider) is deterministic: every card that can move is face up. This player searches that part
of the game instead of guessing the hidden cards:

- **The masked position.** The position the search gets is built from
  :meth:`Position.player_view` alone: every face-down card and every stock card is given as 0
  (:func:`masked_piles`). The C core's ``visible_plan`` searches it best-first, never dealing;
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
  others, is in reach. With ``VisibleEffort.deep`` (Spider 4 suits and Astrocyte:
  :data:`GAME_DEEP`), a first search that finds nothing better is followed by a deeper one
  before the player deals; with ``VisibleEffort.resort_before_deal`` (Spider 4 suits:
  :data:`GAME_RESORT_BEFORE_DEAL`) the player then first goes to any card it can turn up, as
  the last resort does.
- The game ends lost when nothing improves the position and the stock is empty (or cannot be
  dealt), or at the :class:`.honest.Referee`'s ends.

Nothing here reads a hidden card: the search sees the masked position only, and the player has
no random choice at all (same view, same move).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import astuple, dataclass, field, replace

from reussite.cards import UP
from reussite.engine import FLIP, STOCK_RAW, Position, RawMove
from reussite.rules import GameRules, Redeal
from reussite.solver import core
from reussite.solver.honest import HonestGame, Referee
from reussite.solver.honest_beam import plays_with_beam, view_cards


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


HINT_NODES = 50_000
"""Positions a search of a hint (``hints.suggest_move``): about 0.1-0.3 s of CPU."""

GAME_WEIGHTS: dict[str, Weights] = {
    "astrocyte": Weights(down=10, column=6, suit=5, rank=1, cell=0, king_cell=20, king_high=5),
}
"""Weights tuned for a game (docs/solver.md: on deals 101-130, Astrocyte's cell and King terms
on deals 1001-1200, the King terms lowered to 20 and 5 on deals 1301-1400 in session 9,
docs/solver-s9-astro9.md; never on the deals measured)."""


LAST_RESORT_GAMES = frozenset({"astrocyte", "spider"})
"""The games whose player takes the last resort (docs/solver.md; Spider 4 suits since
1 December, session 8: deals 1001-1200, 9 won against 7)."""


RESORT_ANY_COST = 1_000_000
"""``VisibleEffort.resort_before_deal`` for a card turned up before a deal at any cost."""

GAME_RESORT_BEFORE_DEAL: dict[str, int] = {
    "spider": RESORT_ANY_COST,
}
"""The games whose player turns a card up, at any cost, before each deal
(``VisibleEffort.resort_before_deal``; docs/solver.md: Spider 4 suits, chosen on deals
1001-1200)."""


GAME_DEEP: dict[str, int] = {
    "spider": 200_000,
    "astrocyte": 200_000,
}
"""Positions of the second, deeper search before a deal (``VisibleEffort.deep``) for a game
(docs/solver.md: Spider 4 suits chosen on deals 1001-1100, 15 of deals 1-300 won against 9
without it; Astrocyte on deals 1001-1200, 69 won against 54, and 87 of deals 1-300 against
79). Not used by hints."""


def visible_effort(game_id: str, nodes: int | None = None) -> VisibleEffort:
    """The effort for a game: its tuned weights, the last resort, the deeper search and the
    card turned up before a deal where they are used, ``nodes`` positions per search (None:
    the default)."""
    effort = VisibleEffort(weights=GAME_WEIGHTS.get(game_id, Weights()),
                           last_resort=game_id in LAST_RESORT_GAMES,
                           deep=GAME_DEEP.get(game_id, 0),
                           resort_before_deal=GAME_RESORT_BEFORE_DEAL.get(game_id))
    return effort if nodes is None else replace(effort, nodes=nodes)


def plays_visible(rules: GameRules) -> bool:
    """The games this player is for: the planning player's (the stock deals a row onto the
    tableau, the C core is built), the stock never formed again."""
    return plays_with_beam(rules) and rules.stock.redeal is Redeal.NONE


def masked_piles(pos: Position) -> tuple[bytes, ...]:
    """The piles as the player sees them: each face-down card (the stock's too) as 0."""
    return tuple(bytes(0 if c is None else c for c in pile) for pile in view_cards(pos))


def masked_search(pos: Position, effort: VisibleEffort) -> tuple[core.Spec, tuple[bytes, ...],
                                                                  int, tuple[int, ...]]:
    """The first arguments of the C core's ``visible_plan`` for ``pos``: the game, the masked
    piles, the redeals used, the evaluation's weights."""
    return core.spec_of(pos), masked_piles(pos), pos.redeals_used, astuple(effort.weights)


SEARCH_PAST_REVEALS = False
"""The C core's ``stop_at_reveal`` argument: a position where a card was turned up is
searched further, the card an unknown."""


def plan(pos: Position, effort: VisibleEffort, predeal: bool) -> tuple[int, int, list[RawMove],
                                                                          int]:
    """The C core's search of the masked position: (best evaluation, the present one, the
    line to the best, positions seen)."""
    from reussite.solver import _core

    best, root, line, seen = _core.visible_plan(
        *masked_search(pos, effort), predeal, effort.nodes, SEARCH_PAST_REVEALS)
    return best, root, [(m[0], m[1], m[2]) for m in line], seen


def decide(pos: Position, effort: VisibleEffort = VisibleEffort(),
           spent: list[int] | None = None) -> list[RawMove]:
    """The moves the player means to play from ``pos`` (it looks again after any move that
    turns a card up): the line to the best position in reach; when none is better than now,
    the line to the best position to deal from, then the deal; empty when nothing helps."""
    best, root, line, seen = plan(pos, effort, False)
    if spent is not None:
        spent[0] += seen
    if not (line and best > root) and effort.deep > effort.nodes and seen >= effort.nodes:
        best, root, line, seen = plan(pos, replace(effort, nodes=effort.deep), False)
        if spent is not None:
            spent[0] += seen
    if line and best > root:
        return line
    if not pos.piles[0]:
        return last_resort(pos, effort, spent) if effort.last_resort else []
    if effort.resort_before_deal is not None:
        turn = last_resort(pos, effort, spent)
        if turn and evaluation_after(pos, turn, effort) >= root - effort.resort_before_deal:
            return turn
    best, root, line, seen = plan(pos, replace(effort, nodes=max(effort.nodes, effort.deep)),
                                  True)
    if spent is not None:
        spent[0] += seen
    if not (line and best > root):
        line = []
    if not line and STOCK_RAW not in pos.raw_moves():
        return last_resort(pos, effort, spent) if effort.last_resort else []
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
    """The masked piles after ``line`` (:func:`masked_piles`: a card turned up by it shows
    its face there) and the piles whose card its last move turned up; ``pos`` left as it
    was."""
    for m in line:
        pos.push_raw(m)
    try:
        return ([bytearray(p) for p in masked_piles(pos)],
                [op[1] for op in pos.history[-1][1] if op[0] == FLIP])
    finally:
        for _ in line:
            pos.pop()


LAST_RESORT_DOWN = 1_000
"""What a face-down card weighs in the last resort's search (more than anything else)."""


def last_resort(pos: Position, effort: VisibleEffort,
                spent: list[int] | None = None) -> list[RawMove]:
    """The line to the nearest card turned up that the search finds when the game would
    otherwise end (nothing improves the position, no deal): the same search with a face-down
    card weighing more than anything else, the line cut at its first card turned up; empty
    when no card can be turned up. Whatever it costs in the evaluation, the game is lost
    without it, and a card turned up is progress that cannot be undone (no loop)."""
    weights = replace(effort.weights, down=effort.weights.down + LAST_RESORT_DOWN)
    best, root, line, seen = plan(pos, replace(effort, weights=weights), False)
    if spent is not None:
        spent[0] += seen
    if not line or best <= root:
        return []
    return _until_reveal(pos, line)


def evaluation_after(pos: Position, line: list[RawMove], effort: VisibleEffort) -> int:
    """The evaluation (``effort``'s weights) of the masked position after ``line``, a line of
    :func:`last_resort` (only its last move may turn a card up): the card it turns up is seen
    as an unknown, as by the search (its face is not read)."""
    from reussite.solver import _core

    piles, flipped = _masked_after(pos, line)
    for i in flipped:
        if piles[i]:
            piles[i][-1] = UP  # the card turned up, unread: an unknown
    spec, _, redeals, weights = masked_search(pos, effort)
    return int(_core.visible_plan(spec, tuple(bytes(p) for p in piles), redeals, weights,
                                  False, 1, SEARCH_PAST_REVEALS)[1])


def visible_move(pos: Position, effort: VisibleEffort = VisibleEffort()) -> RawMove | None:
    """The player's move from ``pos``, or None when no move is legal; when nothing helps, the
    first legal move (a hint must say something)."""
    legal = pos.raw_moves()
    if not legal:
        return None
    line = decide(pos, effort)
    return line[0] if line else legal[0]


def _turned(pos: Position) -> bool:
    """The last move turned a tableau card up (a deal's row is the deal's own)."""
    raw, ops = pos.history[-1]
    return raw == STOCK_RAW or any(op[0] == FLIP for op in ops)


def play_lines(pos: Position, choose: Callable[[Position, list[int]], list[RawMove]], *,
               max_moves: int, patience: int,
               until: Callable[[Position], bool] = lambda pos: False) -> HonestGame:
    """Play ``pos`` (a copy) to the end by lines: ``choose(pos, spent)`` gives the next line
    (adding the positions it searched to ``spent[0]``), played move by move up to the first
    position where ``until`` holds; ``won`` or ``lost`` (``seconds``: CPU time). The game
    ends lost at the :class:`.honest.Referee`'s ends or when no line is given ("no move")."""
    start = time.process_time()
    pos = pos.copy()
    referee = Referee(pos, max_moves, patience)
    spent = [0]
    ending = ""
    while not pos.is_won():
        ending = referee.ending(pos) or ""
        if ending:
            break
        line = choose(pos, spent)
        if not line:
            ending = "no move"
            break
        for m in line:
            pos.push_raw(m)
            referee.moved(pos)
            if until(pos):
                break
    won = pos.is_won()
    return HonestGame("won" if won else "lost", len(pos.history), spent[0],
                      time.process_time() - start, "won" if won else ending,
                      pos.foundation_cards, referee.detours)


def play_visible_game(pos: Position, effort: VisibleEffort = VisibleEffort(), *,
                      max_moves: int = 5_000, patience: int = 300) -> HonestGame:
    """Play ``pos`` (a copy) to the end as this player, searching again after every card
    turned up; ``won`` or ``lost`` (``seconds``: CPU time)."""
    return play_lines(pos, lambda p, spent: decide(p, effort, spent), max_moves=max_moves,
                      patience=patience, until=lambda p: _turned(p) or p.is_won())
