"""The bridge to the solver's C core (``_core.c``): the exact search of :mod:`.search`,
faster, and phases of its own that only the C core has.

**What the Python search mirrors, move for move.** ``search.py`` is the reference for the exact
search, and the C core runs the same one on bytes, about a hundred times faster: the engine's
raw moves, playing and taking back a move (``csrc/pos.c``, about 470 lines, twin of
``engine.py``), the canonical key (``key.c``, 170), the loss bounds ``proven_lost`` and
``order_lost`` (``bounds.c``, 350), the children and their order with every pruning of the
exact search: safe moves, stock macros, idle splits and descents (most of ``children.c``, about
330 of its 455), the depth-first round (``exact.c``'s ``search_round``, about 125, with the
budgets and frames of ``common.c``, 110), the root's bounds and the rounds capped at the deals
(the end of ``solve.c``'s ``solve_pos``), and the clear-end test ``is_stuck`` (``solve.c``'s
``stuck``, 65). With ``solve_raw(..., beam=False)`` the C core runs exactly that search: the
tests compare the two on every game (the same legal moves, positions after each move, children
in the same order, keys, and on a budget of positions the same status, count and line).

**What only the C core does** (about 2,350 lines with no Python twin), before that exact search
when ``beam`` is on (the default): the beam of the games dealt onto the tableau and of the
reserve games (``beam.c``, 375 lines, with its evaluation in ``common.c``, 95); Leap Year's wide
beam (``wide_beam.c``, 440); the best-first search of draw-three games (``best_first.c``, 280);
the streamlined searches (draw-three levels 1 and 2, the reserve games' restarts: about 50 lines
of ``children.c`` and ``phases.c``, 145, with the budget's shares); the card-set search of
Klondike-type games (``abstract.c``, 670); the draw-one relaxation of draw-three games (its
rules, about 80 lines of ``children.c`` and 40 of ``exact.c``); and the order of these phases
(``solve_pos``, about 180 of its 250 lines). The win finders prove nothing: they answer a won
line the engine replays, or leave the question to the phases after them. The card-set search
and the relaxation prove losses. The visible player's planner (``visible.c``, 260) has no
Python twin either. ``python.c`` (about 620) is the glue.

**Without the C core** (not built, or ``REUSSITE_SOLVER=python``), :func:`.search.solve` runs
the Python exact search, which is the C core's search with ``beam=False`` (on a budget of
positions, the very same answers). Every ``won`` still comes with a line the engine replays and
every ``lost`` is still a proof, so no answer contradicts the C core's; but on the same budget
fewer deals are decided (no win finder, no card-set search, no relaxation, and a time budget
buys about a hundred times fewer positions), and a ``won`` line may differ from the C core's (a
win finder's line rather than the exact search's first win). :func:`.search.is_stuck` answers
the same either way.

The C core is built when the package is installed (``pip install -e .`` compiles it with the
machine's C compiler). The functions named ``testing_*`` below are test hooks: one part of the
C core alone, or a part compared with ``search.py``, for the tests; the product never calls
them.
"""

from __future__ import annotations

import os
import threading
import types
from dataclasses import astuple, dataclass
from typing import Any, Literal

from reussite.cards import build_deck
from reussite.engine import Position, RawMove
from reussite.rules import (
    Build,
    FoundationTakes,
    GameRules,
    Redeal,
    StockAction,
    Unit,
    WasteTakes,
)

_core: types.ModuleType | None
try:
    from reussite.solver import _core
except ImportError:  # pragma: no cover - the package was installed without its C core
    _core = None

MAX_TABLE_BYTES = 3 << 30
"""The transposition table's memory bound per search (16 bytes a position): past it, the search
answers ``unknown``."""

_BUILD = {Build.DOWN_ANY_SUIT: 0, Build.DOWN_ALTERNATE_COLOURS: 1, Build.DOWN_SAME_SUIT: 2,
          Build.NONE: 3}
_TAKES = {FoundationTakes.COMPLETE_SUIT: 0, FoundationTakes.UP_IN_SUIT: 1,
          FoundationTakes.UP_ANY_SUIT: 2}
_ACTION = {StockAction.DEAL_TO_TABLEAU: 0, StockAction.DEAL_TO_RESERVE: 1,
           StockAction.DRAW_TO_WASTE: 2, StockAction.NONE: 3}
_UNIT = {Unit.SAME_SUIT_RUN: 0, Unit.ALTERNATING_RUN: 1, Unit.SINGLE_CARD: 2,
         Unit.ANY_FACE_UP: 3}
_REDEAL = {Redeal.NONE: 0, Redeal.TURN_WASTE: 1, Redeal.GATHER_RESERVES: 2}
_WASTE = {WasteTakes.NOTHING: 0, WasteTakes.UP_OR_DOWN: 1, WasteTakes.UP_OR_DOWN_WRAP: 2}
Status = Literal["won", "lost", "unknown"]
STATUS: tuple[Status, Status, Status] = ("won", "lost", "unknown")

Spec = tuple[Any, ...]
_SPECS: dict[str, Spec] = {}


def available() -> bool:
    """The C core is built and not switched off."""
    return _core is not None and os.environ.get("REUSSITE_SOLVER", "") != "python"


def spec_of(pos: Position) -> Spec:
    """The rules and layout of ``pos``'s game as the C core reads them (cached per game)."""
    rules: GameRules = pos.rules
    spec = _SPECS.get(rules.id)
    if spec is not None:
        return spec
    lay = pos.layout
    tab, fnd, st = rules.tableau, rules.foundations, rules.stock
    copies = [0] * 64
    for c in build_deck(rules.packs, rules.suits):
        copies[c] += 1

    def span(r: range) -> tuple[int, int]:
        return (r.start, len(r))

    # How many rows the stock holds at the deal, dealt onto the tableau (Spider 5, Scorpion 1).
    dealt = sum(len(p) for p in (*(tab.piles if tab else ()),
                                 *(rules.reserve.piles if rules.reserve else ())))
    if fnd.start_with_aces:
        dealt += len(lay.foundations)
    stock_rows = -(-(rules.cards - dealt) // max(1, len(lay.tableau)))

    spec = (
        len(lay.ids), lay.waste, *span(lay.foundations), *span(lay.cells), *span(lay.reserves),
        *span(lay.tableau),
        _BUILD[tab.build] if tab else 0,
        _UNIT[tab.unit] if tab else 0,
        int(bool(tab and tab.space.name == "KING")),
        int(bool(tab and tab.space.name == "NONE")),
        int(bool(tab and tab.free_places_limit)),
        _TAKES[fnd.takes], int(fnd.gives_back), int(fnd.between), int(fnd.auto_collect),
        int(bool(rules.reserve and rules.reserve.to_tableau)),
        _ACTION[st.action], st.draw, int(st.not_while_empty_pile), int(st.skip_empty_piles),
        _REDEAL[st.redeal], -1 if st.redeals is None else st.redeals, rules.cards, stock_rows,
        _WASTE[st.waste_takes], rules.layout_cards if rules.clears_to_win else rules.cards,
        tuple(copies),
        # Tableau.covers: for each tableau pile, the mask of the piles (by index) covering it
        tuple(sum(1 << lay.tableau[j] for j in js) for js in (tab.covers if tab else ())),
    )
    _SPECS[rules.id] = spec
    return spec


def piles_of(pos: Position) -> tuple[bytes, ...]:
    return tuple(bytes(p) for p in pos.piles)


@dataclass(frozen=True)
class Settings:
    """The parts of the C core's ``solve`` that a test may switch off to test the others alone.
    The product always runs :data:`SHIPPED` (every field true); a test passes its own value to
    one call (:func:`solve_raw`, :func:`testing_children`), which the C core carries through
    that search's context."""

    card_set: bool = True
    """The card-set search of Klondike-type games (it decides most Klondike deals first)."""
    card_set_safe: bool = True
    """In the card-set search, a safe card goes home as the only child."""
    best_first: bool = True
    """The best-first search of draw-three games (Klondike draw 3, Athena)."""
    idle: bool = True
    """Idle splits and descents are left out (as ``search.py`` does)."""


SHIPPED = Settings()

PHASES = ("root", "beam", "best-first", "level-2", "level-1", "relaxation",
          "reserve-streamlined", "exact", "wide-beam", "card-set")
"""The phases of the C core's ``solve``, as :func:`testing_last_phase` names them."""

_last = threading.local()


def _settings(settings: Settings) -> tuple[int, ...] | None:
    return None if settings == SHIPPED else tuple(int(v) for v in astuple(settings))


def solve_raw(pos: Position, time_limit: float | None, max_states: int | None,
              best_line: bool, beam: bool = True,
              cpu: bool = False,
              streamlined: bool | None = None,
              settings: Settings = SHIPPED) -> tuple[Status, list[RawMove], int]:
    """``(status, raw line, positions counted)``; the status as :func:`.search.solve` says.

    ``beam``: the C core's own phases (the win finders, the card-set search, the draw-one
    relaxation, see the module's docstring) run before the exact search; ``False`` runs exactly
    search.py's search (the tests compare the two that way). In games whose stock deals onto
    the tableau, a beam search looks for a win before the exact search (it takes the budget
    until a try has seen all it could, a third with ``best_line``, and does not run on fewer
    than 100,000 positions); in Leap Year and Auld Lang Syne one too, with half of the budget
    (in Leap Year, before it, the wide beam up to 75 % and the beam up to 92 %, not below 2
    million positions), not with ``best_line``; in draw-three waste games (Klondike draw 3,
    Athena), streamlined searches do with up to half of it, and in Leap Year and Auld Lang
    Syne one (no deal while a card can go home), unless ``best_line`` is asked for (they prove
    nothing, they find wins). In draw-three games turned over without limit, a best-first
    search looks for a win, on a tenth of the budget after the level-2 streamlined search, and
    again up to half of the budget when level 1 runs to its deadline (40 %), not with
    ``best_line`` (it proves nothing).
    ``cpu``: ``time_limit`` counts the CPU seconds of the searching thread, not wall time.
    ``streamlined``: run the draw-three streamlined searches (True) or not (False) whatever
    ``best_line`` says (None: only without ``best_line``).
    ``settings``: :data:`SHIPPED`, or a test's :class:`Settings` for this call."""
    assert _core is not None
    code, line, states, phase = _core.solve(
        spec_of(pos), piles_of(pos), pos.redeals_used,
        -1.0 if time_limit is None else max(0.0, time_limit),
        -1 if max_states is None else max_states, best_line, MAX_TABLE_BYTES // 16,
        beam, cpu, -1 if streamlined is None else int(streamlined), _settings(settings))
    _last.phase = phase
    return STATUS[code], [tuple(m) for m in line], states


def is_stuck_raw(pos: Position, max_states: int) -> bool:
    assert _core is not None
    return bool(_core.is_stuck(spec_of(pos), piles_of(pos), pos.redeals_used, max_states))


# Test hooks: the C core's parts alone, or compared with search.py, for tests/solver. The
# product never calls them.


def testing_last_phase() -> str:
    """Test hook: the phase of this thread's last :func:`solve_raw` that ran last: the one that
    decided, when the answer is ``won`` or ``lost`` (``root``: decided before any search;
    ``best-first``: the draw-three best-first search, either of its two runs)."""
    return PHASES[_last.phase]


def testing_exhaust(pos: Position, max_states: int, cover: bool = False,
                    bound: bool = False, home: bool = False) -> tuple[Status, int]:
    """Test hook: one exact search round of the C core alone (no win finder, no bound at the
    root, no relaxation), on ``max_states`` positions: ``(status, positions)``. ``cover``: a
    card played from the stock to the tableau must be covered at once (the draw-one
    relaxation's rule, exact only in a draw-one game turned over without limit); ``home`` (with
    ``cover``): a card other than a King or a safe one sent home from the stock must be
    followed at once by the next card of its suit (the relaxation's second rule, exact there
    too); ``bound``: the order bound is tried at every position (Klondike-type games)."""
    assert _core is not None
    code, states = _core.testing_exhaust(spec_of(pos), piles_of(pos), pos.redeals_used,
                                         max_states, cover, bound, home)
    return STATUS[code], states


def testing_cardset(pos: Position, max_states: int, chunk: int = 0,
                    safe: bool = True) -> tuple[int, int]:
    """Test hook: the card-set search alone, ``(status code, positions)``: 0 won, 1 lost, 2
    unknown, -1 when it does not apply. ``chunk`` > 0: in resumed runs of that many positions;
    ``safe``: its safe-card pruning."""
    assert _core is not None
    code, states = _core.testing_cardset(spec_of(pos), piles_of(pos), pos.redeals_used,
                                         max_states, chunk, safe)
    return int(code), int(states)


def testing_stream(pos: Position, max_states: int, level: int,
                   cap: int) -> tuple[Status, list[RawMove], int, int]:
    """Test hook: a draw-three streamlined search alone (level 1 or 2), in rounds capped at
    the flips from ``cap`` positions (times 4 a round) when ``cap`` > 0, else one round:
    ``(status, raw line, positions, rounds)``; ``won`` or ``unknown``, never ``lost``."""
    assert _core is not None
    code, line, states, rounds = _core.testing_stream(spec_of(pos), piles_of(pos),
                                                      pos.redeals_used, max_states, level, cap)
    return STATUS[code], [tuple(m) for m in line], states, rounds


def testing_restarts(pos: Position, size: int, tries: int,
                     salt: int = 1) -> tuple[Status, list[RawMove], int, int]:
    """Test hook: the reserve games' streamlined search (no deal while a card can go home) in
    restarts, as ``solve`` runs them after the beam: try ``t`` plays the cards in the order
    drawn from the salt ``salt + t`` (0: the engine's order) on ``size`` positions, until a win
    or ``tries`` tries. ``(status, raw line, positions counted, the winning try or -1)``; the
    status is ``won`` (a line the engine replays) or ``unknown``, never ``lost``."""
    assert _core is not None
    code, line, states, which = _core.testing_restarts(spec_of(pos), piles_of(pos),
                                                       pos.redeals_used, size, tries, salt)
    return STATUS[code], [tuple(m) for m in line], states, which


def testing_wide_beam(pos: Position, width: int = 2000, cap: int = 2000, w_inv: int = 3,
                      bound_deals: int = 0) -> tuple[Status, list[RawMove], int, int]:
    """Test hook: Leap Year's wide beam alone, one of the settings ``solve`` runs in turn: over
    the deals, the best ``width`` positions kept at each, every position that plays alone reach
    from one (up to ``cap``) dealt onto and judged (10 a card home, less ``w_inv`` a card lying
    above a lower one, less 50 a pile emptied while the stock deals). ``(status, raw
    line, positions, dealt positions the rank bound left out)``: ``won`` (a line the engine
    replays) or ``unknown``, never ``lost``; ``unknown`` in other games. ``bound_deals``: a
    dealt position at most that many deals (of 8 cards) from the end of the stock that the rank
    bound proves lost is left out of the beam; 0: no bound."""
    assert _core is not None
    code, line, states, cut = _core.testing_wide_beam(spec_of(pos), piles_of(pos),
                                                      pos.redeals_used, width, cap, w_inv,
                                                      bound_deals)
    return STATUS[code], [tuple(m) for m in line], states, cut


def testing_legal_moves(pos: Position) -> list[RawMove]:
    """Test hook: the C core's legal moves of ``pos`` (compared with the engine's)."""
    assert _core is not None
    return [tuple(m) for m in _core.testing_legal_moves(spec_of(pos), piles_of(pos),
                                                         pos.redeals_used)]


def testing_play(pos: Position, moves: list[RawMove]) -> tuple[tuple[bytes, ...], int,
                                                              tuple[bytes, ...], tuple[int, int]]:
    """Test hook: play ``moves`` in the C core: the piles and redeals after them, the piles
    after taking them all back, and the canonical key after them."""
    assert _core is not None
    after, redeals, back, k1, k2 = _core.testing_play(spec_of(pos), piles_of(pos),
                                                      pos.redeals_used, moves)
    return after, redeals, back, (k1, k2)


def testing_children(pos: Position, last: tuple[RawMove, int] | None,
                     settings: Settings = SHIPPED) -> list[tuple[tuple[RawMove, ...], int]]:
    """Test hook: the C core's children of ``pos`` with their scores (compared with
    ``search.py``'s)."""
    assert _core is not None
    lm, lops = (None, 0) if last is None else last
    return [(tuple(tuple(m) for m in step), score)
            for step, score in _core.testing_children(spec_of(pos), piles_of(pos),
                                                      pos.redeals_used, lm, lops,
                                                      _settings(settings))]


def testing_proven_lost(pos: Position) -> bool:
    """Test hook: the C core's rank bound (compared with ``search.py``'s ``proven_lost``)."""
    assert _core is not None
    return bool(_core.testing_proven_lost(spec_of(pos), piles_of(pos), pos.redeals_used))


def testing_order_lost(pos: Position) -> bool:
    """Test hook: the C core's order bound (compared with ``search.py``'s ``order_lost``)."""
    assert _core is not None
    return bool(_core.testing_order_lost(spec_of(pos), piles_of(pos), pos.redeals_used))
