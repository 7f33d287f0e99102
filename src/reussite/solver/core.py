"""The bridge to the solver's C core (``_core.c``): the same search as :mod:`.search`, faster.

``search.py`` is the reference: it says what the search does and why each pruning keeps
``lost`` exact. ``_core.c`` does the same on bytes, about a hundred times faster; the tests
compare the two on random positions of every game (legal moves, positions after each move,
children and their order, keys). The C core is built when the package is installed (``pip
install -e .`` compiles it with the machine's C compiler); without it, or with
``REUSSITE_SOLVER=python`` in the environment, the Python search runs instead.
"""

from __future__ import annotations

import os
import types
from typing import Any, Literal

from reussite.cards import build_deck
from reussite.engine import Position, RawMove
from reussite.rules import Build, FoundationTakes, GameRules, Redeal, StockAction

_core: types.ModuleType | None
try:
    from reussite.solver import _core
except ImportError:  # pragma: no cover - the package was installed without its C core
    _core = None

MAX_TABLE_BYTES = 3 << 30
"""The transposition table's memory bound per search (16 bytes a position): past it, the search
answers ``unknown``."""

_BUILD = {Build.DOWN_ANY_SUIT: 0, Build.DOWN_ALTERNATE_COLOURS: 1, Build.DOWN_SAME_SUIT: 2}
_TAKES = {FoundationTakes.COMPLETE_SUIT: 0, FoundationTakes.UP_IN_SUIT: 1,
          FoundationTakes.UP_ANY_SUIT: 2}
_ACTION = {StockAction.DEAL_TO_TABLEAU: 0, StockAction.DEAL_TO_RESERVE: 1,
           StockAction.DRAW_TO_WASTE: 2}
_REDEAL = {Redeal.NONE: 0, Redeal.TURN_WASTE: 1, Redeal.GATHER_RESERVES: 2}
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

    spec = (
        len(lay.ids), lay.waste, *span(lay.foundations), *span(lay.cells), *span(lay.reserves),
        *span(lay.tableau),
        _BUILD[tab.build] if tab else 0,
        int(bool(tab and tab.unit.name == "SAME_SUIT_RUN")),
        int(bool(tab and tab.space.name == "KING")),
        _TAKES[fnd.takes], int(fnd.gives_back), int(fnd.between), int(fnd.auto_collect),
        int(bool(rules.reserve and rules.reserve.to_tableau)),
        _ACTION[st.action], st.draw, int(st.not_while_empty_pile), int(st.skip_empty_piles),
        _REDEAL[st.redeal], -1 if st.redeals is None else st.redeals, rules.cards,
        tuple(copies),
    )
    _SPECS[rules.id] = spec
    return spec


def piles_of(pos: Position) -> tuple[bytes, ...]:
    return tuple(bytes(p) for p in pos.piles)


def solve_raw(pos: Position, time_limit: float | None, max_states: int | None,
              best_line: bool, beam: bool = True,
              cpu: bool = False,
              streamlined: bool | None = None,
              best_first: bool = True) -> tuple[Status, list[RawMove], int]:
    """``(status, raw line, positions counted)``; the status as :func:`.search.solve` says.

    ``beam``: in games whose stock deals onto the tableau, a beam search looks for a win
    before the exact search (it takes the budget until a try has seen all it could, a third
    with ``best_line``, and does not run on fewer than 100,000 positions); in Leap Year and
    Auld Lang Syne one too, with half of the budget (in Leap Year, before it, the wide beam
    up to 75 % and the beam up to 92 %, not below 2 million positions), not with
    ``best_line``; in draw-three waste
    games (Klondike draw 3, Athena), streamlined searches do with up to half of it, and in Leap
    Year and Auld Lang Syne one (no deal while a card can go home), unless ``best_line`` is
    asked for (``_core.c``: both prove nothing, they find wins); ``False``
    runs exactly search.py's search (the tests compare the two that way).
    ``cpu``: ``time_limit`` counts the CPU seconds of the searching thread, not wall time.
    ``streamlined``: run the draw-three streamlined searches (True) or not (False) whatever
    ``best_line`` says (None: only without ``best_line``).
    ``best_first``: in draw-three games turned over without limit (Klondike draw 3, Athena), a
    best-first search looks for a win, on a tenth of the budget after the level-2 streamlined
    search, and again up to half of the budget when level 1 runs to its deadline (40 %), not
    with ``best_line`` (``_core.c``: it proves nothing)."""
    assert _core is not None
    code, line, states = _core.solve(
        spec_of(pos), piles_of(pos), pos.redeals_used,
        -1.0 if time_limit is None else max(0.0, time_limit),
        -1 if max_states is None else max_states, best_line, MAX_TABLE_BYTES // 16,
        int(beam), cpu, -1 if streamlined is None else int(streamlined), best_first)
    return STATUS[code], [tuple(m) for m in line], states


def exhaust_raw(pos: Position, max_states: int, cover: bool = False,
                bound: bool = False, home: bool = False) -> tuple[Status, int]:
    """One exact search round of the C core alone (no win finder, no bound at the root, no
    relaxation), on ``max_states`` positions: ``(status, positions)``. ``cover``: a card played
    from the stock to the tableau must be covered at once (the draw-one relaxation's rule,
    exact only in a draw-one game turned over without limit); ``home`` (with ``cover``): a card
    other than a King or a safe one sent home from the stock must be followed at once by the
    next card of its suit (the relaxation's second rule, exact there too); ``bound``: the order
    bound is tried at every position (Klondike-type games). For the tests and for measuring."""
    assert _core is not None
    code, states = _core.exhaust(spec_of(pos), piles_of(pos), pos.redeals_used, -1.0,
                                 max_states, cover, bound, False, home)
    return STATUS[code], states


PHASES = ("root", "beam", "best-first", "level-2", "level-1", "relaxation",
          "reserve-streamlined", "exact", "wide-beam", "level-3", "card-set")
"""The phases of the C core's ``solve``, as :func:`last_phase` names them."""


def last_phase() -> str:
    """The phase of this thread's last :func:`solve_raw` that ran last: the one that decided,
    when the answer is ``won`` or ``lost`` (``root``: decided before any search; ``best-first``:
    the draw-three best-first search, either of its two runs)."""
    assert _core is not None
    return PHASES[_core.last_phase()]


def reserve_restarts(pos: Position, time_limit: float | None, size: int, tries: int,
                     salt: int = 1, cpu: bool = False) -> tuple[Status, list[RawMove], int, int]:
    """The reserve games' streamlined search (no deal while a card can go home) run alone as
    restarts: try ``t`` plays the cards in the order drawn from the salt ``salt + t`` (0: the
    engine's order) on ``size`` positions, until a win, ``tries`` tries or the time limit.
    ``(status, raw line, positions counted, the winning try or -1)``; the status is ``won``
    (a line the engine replays) or ``unknown``, never ``lost`` (``_core.c``: it proves
    nothing). For experiments and tests; ``solve`` runs the same restarts after the beam."""
    assert _core is not None
    code, line, states, which = _core.restarts(
        spec_of(pos), piles_of(pos), pos.redeals_used,
        -1.0 if time_limit is None else max(0.0, time_limit), size, tries, 0, 1.0, salt, cpu)
    return STATUS[code], [tuple(m) for m in line], states, which


def wide_beam(pos: Position, time_limit: float | None, width: int = 2000, cap: int = 2000,
              w_inv: int = 3, w_empty: int = 50,
              cpu: bool = False, bound_deals: int = 0) -> tuple[Status, list[RawMove], int]:
    """Leap Year's wide beam alone, one setting (``_core.c`` ``wide_beam``): over the deals, the
    best ``width`` positions kept at each, every position that plays alone reach from one (up
    to ``cap``) dealt onto and judged (10 a card home, less ``w_inv`` a card lying above a lower
    one, less ``w_empty`` a pile emptied while the stock deals). ``(status, raw line,
    positions)``: ``won`` (a line the engine replays) or ``unknown``, never ``lost`` (it
    proves nothing); ``unknown`` in other games. ``bound_deals``: a dealt position at most
    that many deals (of 8 cards) from the end of the stock that the rank bound
    (:func:`proven_lost`) proves lost is left out of the beam (:func:`wide_beam_cut` counts
    them); 0: no bound. For experiments and tests; ``solve`` runs it first in Leap Year."""
    assert _core is not None
    code, line, states = _core.wide_beam(
        spec_of(pos), piles_of(pos), pos.redeals_used,
        -1.0 if time_limit is None else max(0.0, time_limit), width, cap, w_inv, w_empty, cpu,
        bound_deals)
    return STATUS[code], [tuple(m) for m in line], states


def wide_beam_cut() -> int:
    """The dealt positions the rank bound left out of this thread's last wide beam."""
    assert _core is not None
    return int(_core.wide_beam_cut())


def is_stuck_raw(pos: Position, max_states: int) -> bool:
    assert _core is not None
    return bool(_core.is_stuck(spec_of(pos), piles_of(pos), pos.redeals_used, max_states))


def legal_moves(pos: Position) -> list[RawMove]:
    """The C core's legal moves of ``pos`` (for the tests that compare it with the engine)."""
    assert _core is not None
    return [tuple(m) for m in _core.legal_moves(spec_of(pos), piles_of(pos),
                                                 pos.redeals_used)]


def play(pos: Position, moves: list[RawMove]) -> tuple[tuple[bytes, ...], int,
                                                      tuple[bytes, ...], tuple[int, int]]:
    """Play ``moves`` in the C core: the piles and redeals after them, the piles after taking
    them all back, and the canonical key after them."""
    assert _core is not None
    after, redeals, back, k1, k2 = _core.play(spec_of(pos), piles_of(pos), pos.redeals_used,
                                              moves)
    return after, redeals, back, (k1, k2)


def children(pos: Position, last: tuple[RawMove, int] | None) -> list[tuple[tuple[RawMove, ...],
                                                                            int]]:
    """The C core's children of ``pos`` with their scores (compared with ``search.py``'s)."""
    assert _core is not None
    lm, lops = (None, 0) if last is None else last
    return [(tuple(tuple(m) for m in step), score)
            for step, score in _core.children(spec_of(pos), piles_of(pos), pos.redeals_used,
                                              lm, lops)]


def proven_lost(pos: Position) -> bool:
    """The C core's rank bound (compared with ``search.py``'s ``proven_lost``)."""
    assert _core is not None
    return bool(_core.proven_lost(spec_of(pos), piles_of(pos), pos.redeals_used))


def order_lost(pos: Position) -> bool:
    """The C core's order bound (compared with ``search.py``'s ``order_lost``)."""
    assert _core is not None
    return bool(_core.order_lost(spec_of(pos), piles_of(pos), pos.redeals_used))
