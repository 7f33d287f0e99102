"""The engine: a position, its legal moves, playing and taking back a move, the status,
and the view of the position that a player may see.

Pure computation: no I/O. A position is made from a game's rules and a deal number::

    >>> from reussite.games import get_game
    >>> pos = Position.deal(get_game("astrocyte"), 1)
    >>> pos.status()
    'playing'
    >>> move = pos.legal_moves()[0]
    >>> before = pos.copy()
    >>> pos.play(move)
    >>> pos.pop() == move and pos == before
    True

Internally a pile is a list of int card values (see :mod:`reussite.cards`), bottom first, and a
move is a triple ``(source index, destination index, count)`` with source ``-1`` for a click on
the stock. The solver works on these raw forms; everything public speaks in :class:`Move`.

Every change to the piles is recorded as primitive steps (transfer ``n`` cards, turn the top
card over, count a redeal), so that :meth:`Position.pop` undoes a move *exactly*, including the
automatic turning of a face-down card and Spider's automatic removal of a completed suit.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from reussite.cards import (
    ACE,
    KING,
    UP,
    build_deck,
    card_code,
    rank_of,
)
from reussite.deals import microsoft_order, shuffled
from reussite.rules import (
    Build,
    DealNumbers,
    FoundationTakes,
    GameRules,
    Redeal,
    Space,
    StockAction,
    Unit,
    WasteTakes,
)

STOCK_CLICK = -1
RawMove = tuple[int, int, int]
STOCK_RAW: RawMove = (STOCK_CLICK, STOCK_CLICK, 0)

# Tables indexed by card value (with or without the UP flag): cheaper than arithmetic.
_RANK = [(v & 63) >> 2 for v in range(128)]
_SUIT = [v & 3 for v in range(128)]
_RED = [int((v & 3) in (1, 2)) for v in range(128)]

# Masks of a card value keeping its rank and suit, or its rank alone (rank * 4).
_RANK_SUIT, _RANK_ONLY = 63, 60

# Primitive steps of a record: (TRANSFER, src, dst, n), (FLIP, pile), (REDEAL,).
TRANSFER, FLIP, REDEAL = 0, 1, 2


class IllegalMoveError(ValueError):
    """A well-formed move that the rules do not allow now. The message is for the player."""


class InvalidMoveError(ValueError):
    """A move that is not well formed (unknown pile, bad count, unknown type)."""


@dataclass(frozen=True, slots=True)
class Move:
    """A move: ``Move("move", "tableau:3", "cell:0", 1)`` or the stock click ``Move("stock")``.

    >>> Move.from_json({"type": "move", "from": "tableau:3", "to": "cell:0", "count": 1})
    Move(kind='move', src='tableau:3', dst='cell:0', count=1)
    >>> Move("stock").to_json()
    {'type': 'stock'}
    """

    kind: str
    src: str = ""
    dst: str = ""
    count: int = 0

    def to_json(self) -> dict[str, Any]:
        if self.kind == "stock":
            return {"type": "stock"}
        return {"type": "move", "from": self.src, "to": self.dst, "count": self.count}

    @classmethod
    def from_json(cls, data: Any) -> Move:
        if not isinstance(data, dict):
            raise InvalidMoveError("A move is an object with a 'type'")
        kind = data.get("type")
        if kind == "stock":
            return cls("stock")
        if kind != "move":
            raise InvalidMoveError("A move's type is 'move' or 'stock'")
        src, dst, count = data.get("from"), data.get("to"), data.get("count", 1)
        if not isinstance(src, str) or not isinstance(dst, str):
            raise InvalidMoveError("A move names its 'from' and 'to' piles")
        if isinstance(count, bool) or not isinstance(count, int):
            raise InvalidMoveError("A move's 'count' is a whole number")
        return cls("move", src, dst, count)

    def __str__(self) -> str:
        if self.kind == "stock":
            return "stock"
        return f"{self.count} {self.src} -> {self.dst}"


class Layout:
    """Where each kind of pile lives in a position's flat list of piles, and their ids."""

    def __init__(self, rules: GameRules) -> None:
        ids = ["stock"]
        if rules.has_waste:
            ids.append("waste")
        self.waste = 1 if rules.has_waste else -1
        self.foundations = range(len(ids), len(ids) + rules.foundations.count)
        ids += [f"foundation:{i}" for i in range(rules.foundations.count)]
        self.cells = range(len(ids), len(ids) + rules.cells)
        ids += [f"cell:{i}" for i in range(rules.cells)]
        nres = len(rules.reserve.piles) if rules.reserve else 0
        self.reserves = range(len(ids), len(ids) + nres)
        ids += [f"reserve:{i}" for i in range(nres)]
        ntab = len(rules.tableau.piles) if rules.tableau else 0
        self.tableau = range(len(ids), len(ids) + ntab)
        ids += [f"tableau:{i}" for i in range(ntab)]
        self.ids: tuple[str, ...] = tuple(ids)
        self.index: dict[str, int] = {pid: i for i, pid in enumerate(ids)}
        kinds = []
        for pid in ids:
            kinds.append(pid.split(":")[0])
        self.kinds: tuple[str, ...] = tuple(kinds)
        # Tableau.covers, by pile index: the piles covering each pile, the piles each covers.
        self.covered_by, self.covering = covers_of(rules, self)


_LAYOUTS: dict[str, Layout] = {}


def layout_of(rules: GameRules) -> Layout:
    lay = _LAYOUTS.get(rules.id)
    if lay is None:
        lay = _LAYOUTS[rules.id] = Layout(rules)
    return lay


def _pattern_deal(patterns: tuple[str, ...], cards: list[int]) -> list[list[int]]:
    """Deal by rows, as a person deals: one card to each pile that still needs one, repeat."""
    piles: list[list[int]] = [[] for _ in patterns]
    for row in range(max((len(p) for p in patterns), default=0)):
        for pile, pattern in zip(piles, patterns, strict=True):
            if row < len(pattern):
                c = cards.pop()
                pile.append(c | UP if pattern[row] == "u" else c)
    return piles


def covers_of(rules: GameRules, lay: Layout) -> tuple[dict[int, tuple[int, ...]],
                                                     dict[int, tuple[int, ...]]]:
    """:attr:`~reussite.rules.Tableau.covers` by pile index: for each covered pile, the piles
    covering it; for each covering pile, the piles it covers (both empty without covers)."""
    covers = rules.tableau.covers if rules.tableau else ()
    t = lay.tableau
    covered_by = {t[i]: tuple(t[j] for j in js) for i, js in enumerate(covers) if js}
    covering: dict[int, list[int]] = {}
    for i, js in covered_by.items():
        for j in js:
            covering.setdefault(j, []).append(i)
    return covered_by, {j: tuple(v) for j, v in covering.items()}


class Position:
    """A position of one game: the piles, the redeals used, and the moves that led here."""

    __slots__ = ("rules", "number", "layout", "piles", "redeals_used", "history", "_total",
                 "_build", "_unit", "_unit_suit", "_space_king", "_space_none", "_limited",
                 "_ftakes", "_fsuit", "_waste_takes", "_wrap", "_clear", "_goal", "_covered_by",
                 "_covering")

    def __init__(self, rules: GameRules, number: int, piles: list[list[int]],
                 redeals_used: int = 0) -> None:
        self.rules = rules
        self.number = number
        self.layout = layout_of(rules)
        self.piles = piles
        self.redeals_used = redeals_used
        self.history: list[tuple[RawMove, tuple[tuple[int, ...], ...]]] = []
        self._total = rules.cards
        tab = rules.tableau
        self._build = tab.build if tab else Build.DOWN_ANY_SUIT
        self._unit = tab.unit if tab else Unit.SINGLE_CARD
        self._unit_suit = bool(tab and tab.unit is Unit.SAME_SUIT_RUN)
        self._space_king = bool(tab and tab.space is Space.KING)
        self._space_none = bool(tab and tab.space is Space.NONE)
        self._limited = bool(tab and tab.free_places_limit)
        self._ftakes = rules.foundations.takes
        self._fsuit = self._ftakes is FoundationTakes.UP_IN_SUIT
        self._waste_takes = rules.stock.waste_takes is not WasteTakes.NOTHING
        self._wrap = rules.stock.waste_takes is WasteTakes.UP_OR_DOWN_WRAP
        self._covered_by, self._covering = self.layout.covered_by, self.layout.covering
        self._clear = rules.clears_to_win
        self._goal = rules.layout_cards if self._clear else rules.cards

    # ------------------------------------------------------------------ making positions

    @classmethod
    def deal(cls, rules: GameRules, number: int) -> Position:
        """The opening position of deal ``number`` (see :mod:`reussite.deals`)."""
        lay = layout_of(rules)
        deck = build_deck(rules.packs, rules.suits)
        piles: list[list[int]] = [[] for _ in lay.ids]
        if rules.foundations.start_with_aces:
            for f in lay.foundations:
                ace = next(c for c in deck if rank_of(c) == ACE)
                deck.remove(ace)
                piles[f].append(ace | UP)
        if rules.numbers is DealNumbers.MICROSOFT:
            cards = microsoft_order(number)[::-1]  # the card dealt first is popped first
        else:
            cards = shuffled(deck, number)
        if rules.tableau:
            for i, pile in zip(lay.tableau, _pattern_deal(rules.tableau.piles, cards),
                               strict=True):
                if rules.tableau.kings_to_bottom:
                    pile = ([c for c in pile if rank_of(c) == KING]
                            + [c for c in pile if rank_of(c) != KING])
                piles[i] = pile
        if rules.reserve:
            for i, pile in zip(lay.reserves, _pattern_deal(rules.reserve.piles, cards),
                               strict=True):
                piles[i] = pile
        piles[0] = cards
        if rules.stock.first_to_waste and lay.waste >= 0 and cards:
            piles[lay.waste].append(cards.pop() | UP)
        return cls(rules, number, piles)

    def copy(self) -> Position:
        """An independent copy with the same piles, redeals and history."""
        other = Position(self.rules, self.number, [list(p) for p in self.piles],
                         self.redeals_used)
        other.history = list(self.history)
        return other

    # ------------------------------------------------------------------ comparing

    def state(self) -> tuple[Any, ...]:
        return (self.rules.id, self.redeals_used, tuple(tuple(p) for p in self.piles))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self.state() == other.state()

    def __hash__(self) -> int:
        return hash(self.state())

    def __repr__(self) -> str:
        return f"<Position {self.rules.id} #{self.number} after {len(self.history)} moves>"

    # ------------------------------------------------------------------ simple questions

    def pile(self, pile_id: str) -> list[int]:
        return self.piles[self.layout.index[pile_id]]

    @property
    def foundation_cards(self) -> int:
        return sum(len(self.piles[f]) for f in self.layout.foundations)

    @property
    def moves_played(self) -> int:
        return len(self.history)

    @property
    def suits_completed(self) -> int:
        """Foundations holding a complete suit (13 cards)."""
        return sum(1 for f in self.layout.foundations if len(self.piles[f]) == 13)

    @property
    def score(self) -> int | None:
        """Spider's familiar score (500, -1 per move, +100 per suit), where the game has it."""
        if not self.rules.spider_score:
            return None
        return 500 - len(self.history) + 100 * self.suits_completed

    @property
    def redeals_left(self) -> int | None:
        limit = self.rules.stock.redeals
        return None if limit is None else limit - self.redeals_used

    @property
    def cards_done(self) -> int:
        """The cards put away for good: those on the foundations or, in a game without
        foundations (:attr:`~reussite.rules.GameRules.clears_to_win`), those that left the
        tableau, the reserves and the cells."""
        if not self._clear:
            return self.foundation_cards
        lay, piles = self.layout, self.piles
        left = sum(len(piles[i]) for r in (lay.tableau, lay.reserves, lay.cells) for i in r)
        return self._goal - left

    def is_won(self) -> bool:
        return self.cards_done == self._goal

    def status(self, moves: list[RawMove] | None = None) -> str:
        """``"won"``, ``"lost"`` or ``"playing"``.

        Lost: no legal move remains but moves of a card from one foundation to another. Such
        a move never changes what can happen next (the two foundations swap their tops, so the
        foundations accept the same cards as before), so it cannot save a game. ``moves`` may
        pass the position's raw moves when the caller has them already.
        """
        if self.is_won():
            return "won"
        foundations = self.layout.foundations
        for src, dst, _ in self.raw_moves() if moves is None else moves:
            if src not in foundations or dst not in foundations:
                return "playing"
        return "lost"

    # ------------------------------------------------------------------ the stock

    def _stock_targets(self) -> list[int]:
        """The piles a click on the stock deals onto now (deal-type stocks)."""
        st = self.rules.stock
        lay = self.layout
        piles = lay.tableau if st.action is StockAction.DEAL_TO_TABLEAU else lay.reserves
        if st.skip_empty_piles:
            return [i for i in piles if self.piles[i]]
        return list(piles)

    def _stock_refusal(self) -> str | None:
        """Why a click on the stock is refused now, or None when it is allowed."""
        st = self.rules.stock
        if st.action is StockAction.NONE:
            return "This game has no stock"
        piles = self.piles
        stock = piles[0]
        redeal_left = st.redeals is None or self.redeals_used < st.redeals
        if st.action is StockAction.DRAW_TO_WASTE:
            if stock:
                return None
            if not piles[self.layout.waste]:
                return "The stock and the waste are both empty"
            if st.redeal is Redeal.NONE or not redeal_left:
                return "No redeal is left: the stock cannot be formed again"
            return None
        if not stock:
            if st.redeal is Redeal.GATHER_RESERVES:
                if not redeal_left:
                    return "No redeal is left: the stock cannot be formed again"
                if not any(piles[i] for i in self.layout.reserves):
                    return "There are no reserve cards to gather"
                return None
            return "The stock is empty"
        if st.not_while_empty_pile and not all(piles[i] for i in self.layout.tableau):
            return "Dealing is not allowed while a pile is empty"
        if not self._stock_targets():
            return "Every reserve pile is empty: there is no pile left to deal onto"
        return None

    # ------------------------------------------------------------------ legal moves

    def _run_length(self, pile: list[int]) -> int:
        """How many cards on top of a tableau pile may move as a unit (0 for an empty pile)."""
        n = len(pile)
        if not n:
            return 0
        unit = self._unit
        if unit is Unit.SINGLE_CARD:
            return 1
        k = 1
        if unit is Unit.ANY_FACE_UP:
            while k < n and pile[-k - 1] & UP:
                k += 1
            return k
        same_suit = self._unit_suit
        while k < n:
            upper, lower = pile[-k], pile[-k - 1]
            if not lower & UP or _RANK[lower] != _RANK[upper] + 1:
                break
            if same_suit:
                if _SUIT[lower] != _SUIT[upper]:
                    break
            elif _RED[lower] == _RED[upper]:
                break
            k += 1
        return k

    def run_limit(self, to_space: bool) -> int:
        """How many cards may move as a unit now where free cells and empty piles limit it
        (:attr:`~reussite.rules.Tableau.free_places_limit`): (free cells + 1) x 2 ** (empty
        piles), the target pile not counted when it is a space."""
        piles = self.piles
        free = sum(1 for j in self.layout.cells if not piles[j])
        spaces = sum(1 for j in self.layout.tableau if not piles[j]) - int(to_space)
        return (free + 1) << max(spaces, 0)

    def _fits_tableau(self, c: int, top: int) -> bool:
        """Card ``c`` may be built on the tableau card ``top``."""
        b = self._build
        if b is Build.NONE or _RANK[top] != _RANK[c] + 1:
            return False
        if b is Build.DOWN_ANY_SUIT:
            return True
        if b is Build.DOWN_ALTERNATE_COLOURS:
            return _RED[top] != _RED[c]
        return _SUIT[top] == _SUIT[c]

    def _fits_waste(self, c: int) -> bool:
        """The face-up card ``c`` may go onto the waste (:class:`~reussite.rules.WasteTakes`):
        one rank above or below its top card, any suit, King and Ace wrapping or not."""
        waste = self.piles[self.layout.waste]
        if not waste or not c & UP:
            return False
        gap = abs(_RANK[waste[-1]] - _RANK[c])
        return gap == 1 or self._wrap and gap == 12

    def is_covered(self, i: int) -> bool:
        """Pile ``i`` is covered: a pile covering it (:attr:`~reussite.rules.Tableau.covers`)
        still holds a card."""
        return any(self.piles[j] for j in self._covered_by.get(i, ()))

    def _foundation_slots(self, mask: int) -> dict[int, list[int]]:
        """The foundations that take a card now (one-card foundations), keyed by the card's
        value ``& mask``: its rank and suit (building in suit) or its rank alone (any suit).

        One look-up per available card instead of a test per foundation: Leap Year has 16.
        """
        piles = self.piles
        aces = [ACE * 4 + s for s in range(4)] if mask == _RANK_SUIT else [ACE * 4]
        slots: dict[int, list[int]] = {}
        for j in self.layout.foundations:
            f = piles[j]
            if not f:
                for key in aces:
                    slots.setdefault(key, []).append(j)
            elif _RANK[f[-1]] != KING:
                slots.setdefault((f[-1] & mask) + 4, []).append(j)
        return slots

    def raw_moves(self) -> list[RawMove]:
        """Every legal move, as raw triples (see the module's docstring)."""
        piles = self.piles
        lay = self.layout
        rules = self.rules
        out: list[RawMove] = []
        tableau = lay.tableau
        foundations = lay.foundations
        complete = self._ftakes is FoundationTakes.COMPLETE_SUIT
        key = _RANK_SUIT if self._fsuit else _RANK_ONLY
        slots = {} if complete else self._foundation_slots(key)
        no_slot: list[int] = []
        empty_cells = [j for j in lay.cells if not piles[j]]
        king_only = self._space_king
        no_space = self._space_none
        # Single available cards that are not tableau runs: waste, cells, reserves, foundations.
        singles: list[tuple[int, bool, bool]] = []  # (pile, may go to tableau, to foundation)
        if lay.waste >= 0 and piles[lay.waste]:
            singles.append((lay.waste, True, not complete))
        for i in lay.cells:
            if piles[i]:
                singles.append((i, True, not complete))
        to_tab = bool(rules.reserve and rules.reserve.to_tableau)
        for i in lay.reserves:
            if piles[i] and piles[i][-1] & UP:
                singles.append((i, to_tab, True))
        fnd = rules.foundations
        if fnd.gives_back or fnd.between:
            for i in foundations:
                if piles[i]:
                    singles.append((i, fnd.gives_back, fnd.between))
        for i, may_tab, may_fnd in singles:
            c = piles[i][-1]
            if may_tab:
                for j in tableau:
                    p = piles[j]
                    if p:
                        if self._fits_tableau(c, p[-1]):
                            out.append((i, j, 1))
                    elif not no_space and (not king_only or _RANK[c] == KING):
                        out.append((i, j, 1))
            if may_fnd:
                for j in slots.get(c & key, no_slot):
                    if j != i:
                        out.append((i, j, 1))
            if i in lay.cells:
                for j in empty_cells:
                    out.append((i, j, 1))
        # Tableau runs.
        empty_found = [j for j in foundations if not piles[j]] if complete else []
        any_up = self._unit is Unit.ANY_FACE_UP
        limit = limit_space = 0
        if self._limited:
            limit, limit_space = self.run_limit(False), self.run_limit(True)
        covered_by = self._covered_by
        for i in tableau:
            p = piles[i]
            if not p or i in covered_by and self.is_covered(i):
                continue
            k = self._run_length(p)
            r0 = _RANK[p[-1]]
            for j in tableau:
                q = piles[j]
                if q:
                    if any_up:
                        for n in range(1, min(k, limit) + 1 if limit else k + 1):
                            if self._fits_tableau(p[-n], q[-1]):
                                out.append((i, j, n))
                        continue
                    n = _RANK[q[-1]] - r0
                    if 1 <= n <= k and self._fits_tableau(p[-n], q[-1]) \
                            and (not limit or n <= limit):
                        out.append((i, j, n))
                elif j != i and not no_space:
                    if king_only:
                        if any_up:
                            for n in range(1, min(k, limit_space) + 1 if limit else k + 1):
                                if _RANK[p[-n]] == KING:
                                    out.append((i, j, n))
                            continue
                        n = KING - r0 + 1
                        if n <= k and (not limit or n <= limit_space):
                            out.append((i, j, n))
                    else:
                        for n in range(1, min(k, limit_space) + 1 if limit else k + 1):
                            out.append((i, j, n))
            for j in empty_cells:
                out.append((i, j, 1))
            if complete:
                if k >= 13 and r0 == ACE and not fnd.auto_collect \
                        and (not any_up or self._is_suit_run(p)):
                    for j in empty_found:
                        out.append((i, j, 13))
            else:
                for j in slots.get(p[-1] & key, no_slot):
                    out.append((i, j, 1))
            if self._waste_takes and self._fits_waste(p[-1]):
                out.append((i, lay.waste, 1))
        if self._stock_refusal() is None:
            out.append(STOCK_RAW)
        return out

    def legal_moves(self) -> list[Move]:
        """Exactly the moves the rules allow now, the stock click included."""
        return [self.to_move(m) for m in self.raw_moves()]

    def to_move(self, raw: RawMove) -> Move:
        src, dst, n = raw
        if src == STOCK_CLICK:
            return Move("stock")
        ids = self.layout.ids
        return Move("move", ids[src], ids[dst], n)

    def to_raw(self, move: Move) -> RawMove:
        """The raw form of a well-formed move (unknown piles raise :class:`InvalidMoveError`)."""
        if move.kind == "stock":
            return STOCK_RAW
        if move.kind != "move":
            raise InvalidMoveError(f"Unknown move type {move.kind!r}")
        index = self.layout.index
        for pid in (move.src, move.dst):
            if pid not in index:
                raise InvalidMoveError(f"There is no pile {pid!r} in {self.rules.name}")
        return (index[move.src], index[move.dst], move.count)

    # ------------------------------------------------------------------ playing

    def play(self, move: Move, legal: list[RawMove] | None = None) -> None:
        """Play ``move`` if the rules allow it, else raise a precise error (``legal``: this
        position's :meth:`raw_moves` when the caller has them already)."""
        raw = self.to_raw(move)
        if raw not in (self.raw_moves() if legal is None else legal):
            raise IllegalMoveError(self.why_illegal(raw))
        self.push_raw(raw)

    def push(self, move: Move) -> None:
        """Play a move known to be legal, without checking it (as the solver does)."""
        self.push_raw(self.to_raw(move))

    def push_raw(self, raw: RawMove) -> None:
        piles = self.piles
        ops: list[tuple[int, ...]] = []
        src, dst, n = raw
        if src == STOCK_CLICK:
            self._click_stock(ops)
        else:
            s = piles[src]
            piles[dst] += s[-n:]
            del s[-n:]
            ops.append((TRANSFER, src, dst, n))
            if s and not s[-1] & UP:
                s[-1] |= UP
                ops.append((FLIP, src))
            if not s and src in self._covering:
                self._uncover(src, ops)
        if self.rules.foundations.auto_collect:
            self._collect_suits(ops)
        self.history.append((raw, tuple(ops)))

    def would_uncover(self, src: int) -> bool:
        """Emptying pile ``src`` would turn up a face-down card that it covers."""
        piles = self.piles
        return any(piles[i] and not piles[i][-1] & UP
                   and all(j == src or not piles[j] for j in self._covered_by[i])
                   for i in self._covering.get(src, ()))

    def _uncover(self, src: int, ops: list[tuple[int, ...]]) -> None:
        """Pile ``src`` was just emptied: each face-down card it covered, now covered by no
        pile, turns face up (a FLIP step of the same move)."""
        piles = self.piles
        for i in self._covering[src]:
            p = piles[i]
            if p and not p[-1] & UP and not self.is_covered(i):
                p[-1] |= UP
                ops.append((FLIP, i))

    def _click_stock(self, ops: list[tuple[int, ...]]) -> None:
        piles = self.piles
        stock = piles[0]
        st = self.rules.stock
        lay = self.layout
        if st.action is StockAction.DRAW_TO_WASTE:
            waste = piles[lay.waste]
            if stock:
                for _ in range(min(st.draw, len(stock))):
                    waste.append(stock.pop() | UP)
                    ops.append((TRANSFER, 0, lay.waste, 1))
                    ops.append((FLIP, lay.waste))
            else:
                while waste:
                    stock.append(waste.pop() & ~UP)
                    ops.append((TRANSFER, lay.waste, 0, 1))
                    ops.append((FLIP, 0))
                self.redeals_used += 1
                ops.append((REDEAL,))
        elif not stock:
            # Gather the reserves: pile 0 first, each keeping its order, then turn the packet
            # over, so that pile 0's bottom card is dealt first. Every pile is empty now, so
            # the redeal starts as the opening deal did: one card onto each reserve pile.
            for i in reversed(lay.reserves):
                r = piles[i]
                while r:
                    stock.append(r.pop() & ~UP)
                    ops.append((TRANSFER, i, 0, 1))
                    ops.append((FLIP, 0))
            self.redeals_used += 1
            ops.append((REDEAL,))
            self._deal_row(lay.reserves, ops)
        else:
            self._deal_row(self._stock_targets(), ops)

    def _deal_row(self, targets: Iterable[int], ops: list[tuple[int, ...]]) -> None:
        """One card from the stock face up onto each target pile, while the stock lasts."""
        piles = self.piles
        stock = piles[0]
        for i in targets:
            if not stock:
                break
            piles[i].append(stock.pop() | UP)
            ops.append((TRANSFER, 0, i, 1))
            ops.append((FLIP, i))

    def _collect_suits(self, ops: list[tuple[int, ...]]) -> None:
        """Spider: every complete K..A same-suit run on top of a pile leaves it by itself."""
        piles = self.piles
        for i in self.layout.tableau:
            p = piles[i]
            if len(p) >= 13 and _RANK[p[-1]] == ACE and _RANK[p[-13]] == KING \
                    and p[-13] & UP and self._is_suit_run(p):
                f = next(j for j in self.layout.foundations if not piles[j])
                piles[f] += p[-13:]
                del p[-13:]
                ops.append((TRANSFER, i, f, 13))
                if p and not p[-1] & UP:
                    p[-1] |= UP
                    ops.append((FLIP, i))

    @staticmethod
    def _is_suit_run(p: list[int]) -> bool:
        suit = _SUIT[p[-1]]
        for k in range(1, 13):
            lower, upper = p[-k - 1], p[-k]
            if _SUIT[lower] != suit or _RANK[lower] != _RANK[upper] + 1 or not lower & UP:
                return False
        return True

    def pop(self) -> Move:
        """Take back the last move exactly, and return it."""
        raw, ops = self.history.pop()
        piles = self.piles
        for op in reversed(ops):
            if op[0] == TRANSFER:
                _, src, dst, n = op
                d = piles[dst]
                piles[src] += d[-n:]
                del d[-n:]
            elif op[0] == FLIP:
                piles[op[1]][-1] ^= UP
            else:
                self.redeals_used -= 1
        return self.to_move(raw)

    def last_steps(self) -> tuple[tuple[int, ...], ...]:
        """The primitive steps of the last move (for animating it), or ``()``."""
        return self.history[-1][1] if self.history else ()

    # ------------------------------------------------------------------ explaining refusals

    def why_illegal(self, raw: RawMove) -> str:
        """A sentence a player can read, saying why this move is refused now."""
        src, dst, n = raw
        if src == STOCK_CLICK:
            return self._stock_refusal() or "The stock cannot be clicked now"
        lay, piles, rules = self.layout, self.piles, self.rules
        skind, dkind = lay.kinds[src], lay.kinds[dst]
        s, d = piles[src], piles[dst]
        if skind == "stock":
            return "Cards cannot be taken from the stock: click it to deal"
        if dkind == "stock" or dkind == "waste" and not self._waste_takes:
            return f"Nothing can be placed on the {dkind}"
        if src == dst:
            return "A card cannot move onto its own pile"
        if n < 1:
            return "At least one card must move"
        if not s:
            return f"There is no card on {lay.ids[src]}"
        if n > len(s):
            if len(s) == 1:
                return f"There is only 1 card on {lay.ids[src]}"
            return f"There are only {len(s)} cards on {lay.ids[src]}"
        if skind == "tableau" and self.is_covered(src):
            return "A card covered by another card cannot move"
        if any(not c & UP for c in s[-n:]):
            return "A face-down card cannot move"
        if dkind == "waste":
            return self._waste_refusal(skind, n, d)
        fnd = rules.foundations
        if dkind == "reserve":
            if skind == "reserve":
                return "Cards never move between reserve piles"
            return "Nothing is ever built on a reserve pile"
        if skind == "foundation":
            if dkind == "foundation" and not fnd.between:
                if fnd.gives_back:
                    return "A foundation's card may come back to the tableau, not to a foundation"
                return "Cards never come back from a foundation"
            if dkind != "foundation" and not fnd.gives_back:
                return "Cards never come back from a foundation"
        if skind == "reserve" and dkind == "tableau" and not (rules.reserve
                                                               and rules.reserve.to_tableau):
            return "A reserve card may only go to a foundation"
        if skind != "tableau" and n > 1:
            return "Only one card at a time can move from there"
        if skind == "tableau" and n > self._run_length(s):
            if self._unit is Unit.SINGLE_CARD:
                return "Cards move one at a time in this game"
            if self._unit_suit:
                return "Only a same-suit run can move as a unit"
            return "Only a run in alternating colours can move as a unit"
        if skind == "tableau" and dkind == "tableau" and self._limited \
                and n > self.run_limit(not d):
            return "Not enough free cells and empty piles to move that many cards at once"
        c = s[-n]
        if dkind == "cell":
            if n > 1:
                return "A cell holds a single card"
            return "That cell is not empty" if d else "That move is not allowed"
        if dkind == "foundation":
            return self._foundation_refusal(skind, n, c, s, d)
        if dkind == "tableau":
            return self._tableau_refusal(c, d)
        return "That move is not allowed"

    def _waste_refusal(self, skind: str, n: int, d: list[int]) -> str:
        if skind != "tableau":
            return "Only a tableau pile's top card may go onto the waste"
        if n != 1:
            return "Cards go onto the waste one at a time"
        if not d:
            return "The waste is empty: turn a card from the stock first"
        if self._wrap:
            return ("A card goes onto the waste one rank above or below its top card (a King"
                    " on an Ace, an Ace on a King)")
        return "A card goes onto the waste one rank above or below its top card"

    def _foundation_refusal(self, skind: str, n: int, c: int, s: list[int],
                            d: list[int]) -> str:
        if self._ftakes is FoundationTakes.COMPLETE_SUIT:
            if skind == "cell":
                return "A card in a cell can never go to a foundation"
            if self.rules.foundations.auto_collect:
                return "Completed suits go to the foundations by themselves"
            if n == 1:
                return ("Single cards never go to a foundation: only a complete suit from"
                        " King to Ace")
            if n == 13 and d:  # n cards of one suit in a run: 13 are King down to Ace
                return "A completed suit goes onto an empty foundation"
            return "Only a complete same-suit run from King down to Ace goes to a foundation"
        if n > 1:
            return "Cards go to a foundation one at a time"
        if not d:
            return "An empty foundation takes only an Ace"
        if self._fsuit and _SUIT[c] != _SUIT[d[-1]]:
            return "A foundation builds up in suit"
        if _RANK[d[-1]] == KING:
            return "That foundation is complete"
        return "A foundation builds up one rank at a time, from Ace to King"

    def _tableau_refusal(self, c: int, d: list[int]) -> str:
        if self._build is Build.NONE and d:
            return "Nothing is ever built on the tableau in this game"
        if not d:
            if self._space_king:
                return "Only a King or a run led by a King can fill a space"
            if self._space_none:
                return "Nothing can be placed in a space in this game"
            return "That move is not allowed"
        top = d[-1]
        if _RANK[top] == ACE:
            return "Nothing builds on an Ace (a King never goes on an Ace)"
        if _RANK[top] != _RANK[c] + 1:
            return "A card goes onto a card one rank higher"
        if self._build is Build.DOWN_ALTERNATE_COLOURS:
            return "Build down in alternating colours: red on black, black on red"
        if self._build is Build.DOWN_SAME_SUIT:
            return "Build down in suit"
        return "That move is not allowed"

    # ------------------------------------------------------------------ what is shown

    def to_json(self) -> dict[str, Any]:
        """Every pile with every card shown (for ``reussite deal``; never for a player)."""
        return {"game": self.rules.id, "number": self.number,
                "piles": {pid: [{"card": card_code(c), "up": bool(c & UP)} for c in p]
                          for pid, p in zip(self.layout.ids, self.piles, strict=True)}}

    def player_view(self) -> dict[str, list[dict[str, Any]]]:
        """The piles as the player sees them (:func:`view_entry`): the identity of a face-down
        card (the stock's order included) is not in the result at all."""
        return {pid: [view_entry(c) for c in p]
                for pid, p in zip(self.layout.ids, self.piles, strict=True)}

    def replay(self, moves: Iterable[Move]) -> Iterator[Move]:
        """Play each move in turn (checking it), yielding it once played."""
        for m in moves:
            self.play(m)
            yield m


HIDDEN = 0
"""A face-down card as the player sees it (no card has the value 0)."""


def shown(c: int) -> int:
    """The card ``c`` as the player sees it: itself when face up, :data:`HIDDEN` when face down.

    The one rule of what is hidden: the player view, the honest players' observation
    (:mod:`reussite.observation`) and the site's pages all mask cards with it.
    """
    return c if c & UP else HIDDEN


def view_entry(c: int) -> dict[str, Any]:
    """One card as the player view shows it: ``{"card": "QH", "up": True}`` face up,
    ``{"card": None, "up": False}`` face down (:func:`shown`)."""
    seen = shown(c)
    return {"card": card_code(seen), "up": True} if seen != HIDDEN else {"card": None,
                                                                        "up": False}
