"""The full-information solver: depth-first search over engine positions.

The solver sees every card (face-down cards and the stock order included) and answers, for a
position, one of three things:

- ``won``: with a list of moves that the engine plays to a won position;
- ``lost``: the search visited every position reachable from here and found no win;
- ``unknown``: the budget (seconds and/or positions) ran out first. Never a guess.

It is generic over the rules model: it plays the engine's raw moves with
:meth:`Position.push_raw` and takes them back with :meth:`Position.pop`, in place. What it knows
of the games is read from the rules (:mod:`reussite.rules`) and used only through the
dominances documented below, each of which keeps ``lost`` exact.

**Canonical key (transposition table).** Two positions with the same key have the same future.

- Foundations are left out: the cards on them are the complement of the others, and for every
  foundation policy of the catalogue that multiset fixes the foundation heights (in-suit: each
  suit's foundations are ``A..h``; any-suit: the number of foundations reaching rank ``r`` is the
  number of rank-``r`` cards on them). A foundation-to-foundation move therefore never changes
  the key, and is never searched.
- Cells are sorted (any cell is like any other).
- Tableau piles are sorted when the rules treat them alike: always when the stock does not deal
  onto the tableau, otherwise once the stock is spent for good (a deal gives each pile its own
  card, so before that the piles' places matter).
- Reserve piles keep their places (the stock deals onto them in order, a gathering picks them
  up in order); once the stock is spent and no gathering is left, they are sorted.
- Where suits never matter (any-suit foundations fed only from reserves: Leap Year,
  Quadrennial, Auld Lang Syne), the key holds the cards' ranks only.
- A stock that only ever deals is known by its length; a stock formed again (waste turned over,
  reserves gathered) is kept whole, with the waste. Redeals used count only when limited.

**Pruning that keeps the search exhaustive.**

- Moves to an empty cell: only to the first one. Cell to cell: never (the key is the same).
- Moves to an empty tableau pile: only to the first one, and never a whole pile onto an empty
  pile, when tableau piles are interchangeable (as above).
- Foundations of the same height (and, for in-suit foundations, the same suit) are alike: a
  card is tried on one of them only.
- The exact reversal of the previous move (same cards back, nothing turned over) is skipped.
- **Safe foundation moves.** A card goes to an in-suit, one-card foundation as the only child of
  a position when no card could ever need it: every card that the tableau's build rule would let
  sit on it (rank one lower; opposite colour / same suit / any suit as the game builds) is
  already on the foundations. Aces are always safe. (Klondike's classic rule: a card is safe once
  both opposite-colour cards one rank lower are home.) Only from the tableau, a cell, or a
  draw-one waste: taking a card out of a draw-three waste changes the stock's grouping. With a
  draw-one waste turned over without limit, a safe card anywhere in the stock is played at once
  (after the clicks that reach it): where the stock stands in its cycle then does not matter.
  Not used for Astrocyte's completed suits, which the player may keep on the tableau (they
  are only tried first).
- **Idle splits and descents** (Klondike-type games without a reserve: Klondike, Klondike
  draw 3, Athena). A run whose base ``Y`` sits on a face-up card ``X`` it fits, taken off
  ``X`` (``X`` stays), is not searched when ``X`` cannot go home now and every other card that
  fits on ``X`` is buried (face down, or under a card it does not fit). Such a split changes
  only which card lies on ``X``: a line that plays it can play it just before ``X`` is used
  (sent home, or given another card), carrying the run along wherever ``X``'s own run goes
  until then, and the moves that use needs first do not need the split; so the use is
  possible as soon as the split is played. Likewise a foundation's top card ``F`` put onto the
  tableau, when every card that fits on ``F`` is buried and the card under ``F`` fits on no
  pile's top (``F`` down can only be given a card or let that card come down). The proof is
  in docs/solver.md, "Idle splits and descents".
- **Safe any-suit foundation moves** (games whose foundations build up regardless of suit and
  are fed only from reserves: Leap Year, Quadrennial, Auld Lang Syne). A reserve's top card of
  rank ``r`` goes home as the only child when the foundations waiting for a rank ``r`` card are
  at least as many as the rank ``r`` cards not yet home (it can never take the place another
  card needs), when the pile keeps a card (where an emptied pile is skipped by later deals, so
  that emptying it would change where the stock's cards fall; no matter once the stock is
  spent), and when no gathering of the reserves is left (a gather would pick the card up).
  Any line that wins from the position without this move plays the card some time; playing it
  first leaves every move of that line legal (same deals, same tops, no rank ``r`` card short of
  a place), so the position after it is won whenever the position before it is.
- **The rank bound** (the same reserve games, once no gathering is left): ``proven_lost``
  proves a position lost, which is then not searched further (a deal so proved is lost at 0
  positions). With ``N`` copies of each rank and ``h_r`` rank-``r`` cards home (a rank-``r``
  card goes home only while ``h_(r-1) > h_r``), number the rank-``r`` cards out from the last
  one home (``m = 1``): the card of place ``m`` leaves at most ``m - 1`` cards of each lower
  rank after it, so ``m`` exceeds the most cards of one lower rank under it in its pile; and
  the cards of a higher rank ``s`` above it go home before it, so ``m <= M_s - (those
  cards)``. Each card needs its own place in its interval (Hall's theorem; the greedy decides
  it). A card above another of its rank or lower has a greater place (the chains: least places
  carried up the piles, most places down). Stock cards are placed where they will fall, as far
  as that is sure: cards that no line can have played before a deal (a play-ahead of
  everything that could go home, no more cards of a rank dug out of a pile than any line can
  have played by then) lie under the card dealt onto their pile. The full proof is in
  ``docs/solver.md``.
- **The order bound** (Klondike-type games: one pack, alternate colours, Kings only in spaces,
  in-suit foundations, no cells, no deal onto the tableau), at the root only: ``order_lost``
  proves a deal lost when the first times the cards go home (``T``), leave their piles
  (``D``) and reach the tableau from the stock (``E``) admit no order: ``T(c)`` needs ``T`` of
  the card one lower and ``D(c)``; ``D(x)`` needs ``D`` of the card on it and either ``T`` of
  the card one lower (home) or a place for a base of one of its runs that may be free by then
  (a parent not under the base in its own pile, uncovered or arrived from the stock; a space
  for a King); ``E(v)`` needs a place for ``v``. The full proof is in ``docs/solver.md``.
- **Draw one, turned over without limit** (Klondike): every cut of the stock-and-waste cycle is
  reached from every other by clicks alone, which change nothing else; the key keeps the cycle
  of cards, not where it is cut.
- **Draw three (or more), turned over without limit** (Klondike draw 3, Athena): from the
  waste's turning over, clicks cut the stock-and-waste sequence after every third card and at
  its end, and turn it over again: all those cuts are reached from each other by clicks alone,
  which change nothing else, so the key holds the sequence and its cut, every such cut counting
  as 0. Another cut (a card was taken from the waste) keeps its own key: clicks from the
  turning over never come back to it.

**Move ordering.** Foundation moves first, then moves that turn a face-down card up or empty a
pile, moves that put order into the tableau (a run taken off a card it does not fit, a run
moved from a mixed-suit build onto its own suit, a card out of a cell, the waste or a
reserve), then a deal from the stock, and only then the shuffles (a run moved off a card it
already fits), moves to cells, and last cards taken off a foundation. A deal thus comes before
the endless rearrangements of face-up cards that games with cells and any-suit building allow.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Literal

from reussite.cards import UP, build_deck
from reussite.engine import STOCK_CLICK, STOCK_RAW, Move, Position, RawMove
from reussite.rules import (
    Build,
    FoundationTakes,
    GameRules,
    Redeal,
    Space,
    StockAction,
    Unit,
    WasteTakes,
)
from reussite.solver import core

Status = Literal["won", "lost", "unknown"]
Child = tuple[RawMove, ...]
"""One step of the search: a move, or (with a waste) a few stock clicks and a waste move."""
SAFE = 1000

_RANK = [(v & 63) >> 2 for v in range(128)]
_SUIT = [v & 3 for v in range(128)]
_RED = [int((v & 3) in (1, 2)) for v in range(128)]
_SEP = b"\x80"
_LAYOUT = ("tableau", "reserve", "cell")
"""The piles a game without foundations must empty."""
_NO_SUIT = bytes(c & ~3 for c in range(256))
"""Card bytes without their suit (a key where suits never matter)."""


@dataclass
class SolveResult:
    """What the solver found: ``status``, the winning ``moves`` (when won), effort spent."""

    status: Status
    moves: list[Move] = field(default_factory=list)
    states: int = 0
    seconds: float = 0.0
    raw_line: list[RawMove] = field(default_factory=list)
    """The winning line as raw moves; when ``unknown`` and asked for, the line that made the
    most progress (cards turned up, cards home)."""

    def to_json(self) -> dict[str, object]:
        return {"status": self.status, "moves": [m.to_json() for m in self.moves],
                "states": self.states, "seconds": round(self.seconds, 3)}


class GameKnowledge:
    """What the solver reads from a game's rules, computed once per game."""

    def __init__(self, rules: GameRules, pos: Position) -> None:
        lay = pos.layout
        st = rules.stock
        self.rules = rules
        self.tableau = tuple(lay.tableau)
        self.cells = tuple(lay.cells)
        self.reserves = tuple(lay.reserves)
        self.foundations = tuple(lay.foundations)
        self.waste = lay.waste
        self.kinds = lay.kinds
        self.deals_to_tableau = st.action is StockAction.DEAL_TO_TABLEAU
        self.deals_to_piles = st.action in (StockAction.DEAL_TO_TABLEAU,
                                            StockAction.DEAL_TO_RESERVE)
        self.stock_reformed = st.action is StockAction.DRAW_TO_WASTE or st.redeals != 0
        self.limited_redeals = st.redeals is not None and st.redeals > 0
        self.safe_foundation = rules.foundations.takes is FoundationTakes.UP_IN_SUIT
        self.waste_safe = st.action is StockAction.DRAW_TO_WASTE and st.draw == 1
        self.build = rules.tableau.build if rules.tableau else Build.DOWN_ANY_SUIT
        self.king_only = bool(rules.tableau and rules.tableau.space is Space.KING)
        self.no_space = bool(rules.tableau and rules.tableau.space is Space.NONE)
        # Piles covered by others (TriPeaks): each pile has its own place, never sorted.
        self.covers = bool(rules.tableau and rules.tableau.covers)
        # A game without foundations is won with cards left in the stock (Golf).
        self.clear_win = rules.clears_to_win
        # A waste that takes tableau cards: a click changes which of them it takes, so clicks
        # are searched as moves of their own, not only before a move of the waste's card.
        self.waste_macros = self.waste >= 0 and st.waste_takes is WasteTakes.NOTHING
        # The waste's cards never leave it (no foundation, cell or tableau pile takes them, no
        # redeal turns it over): only its top card matters to what follows.
        self.waste_sink = bool(
            self.waste >= 0 and not self.waste_macros and st.redeal is Redeal.NONE
            and not lay.foundations and not lay.cells and self.build is Build.NONE
            and self.no_space)
        # Draw one, turned over without limit: the stock and waste are one cycle of cards.
        self.stock_cycle = (st.action is StockAction.DRAW_TO_WASTE and st.draw == 1
                            and st.redeals is None and rules.packs == 1)
        # Draw three (or more), turned over without limit: the cuts of the stock-and-waste
        # sequence that clicks reach from its turning over are one (see the module's docstring).
        self.stock_turns = (st.action is StockAction.DRAW_TO_WASTE and st.draw > 1
                            and st.redeals is None)
        # Any-suit foundations fed only from reserves (Leap Year, Auld Lang Syne...).
        self.reserve_only = (rules.foundations.takes is FoundationTakes.UP_ANY_SUIT
                             and not lay.tableau and not lay.cells)
        self.gathers = st.redeal is Redeal.GATHER_RESERVES
        self.skip_empty = st.skip_empty_piles
        # In those games a card's suit never matters: the key holds ranks only.
        self.rank_key = self.reserve_only
        # How many copies of each card value the deck holds.
        self.copies = [0] * 64
        for c in build_deck(rules.packs, rules.suits):
            self.copies[c] += 1
        self.rank_copies = [sum(self.copies[r * 4:r * 4 + 4]) for r in range(14)]
        # The order bound (Klondike-type games: one pack, alternate colours, Kings only in
        # spaces, in-suit foundations, no cells, no deal onto the tableau).
        tab = rules.tableau
        self.order_bound = bool(
            tab and self.safe_foundation and tab.build is Build.DOWN_ALTERNATE_COLOURS
            and tab.unit is Unit.ALTERNATING_RUN and self.king_only and not lay.cells
            and rules.packs == 1 and sum(self.copies) == 52
            and not self.deals_to_tableau and not rules.foundations.auto_collect)

        # Idle splits (the same games, without a reserve): see idle_split.
        self.idle_splits = self.order_bound and not lay.reserves
        self.fit_on = [0] * 64
        for c in range(64):
            for v in range(64):
                if self.copies[v] and _RANK[v] + 1 == _RANK[c] and self.fits(v | UP, c | UP):
                    self.fit_on[c] |= 1 << v

    def tableau_interchangeable(self, pos: Position) -> bool:
        if self.covers:
            return False
        return not self.deals_to_tableau or (not pos.piles[0] and not self.stock_reformed)

    def key(self, pos: Position, cycle: bool = True) -> bytes:
        """The canonical key; ``cycle=False`` keeps where the stock's cycle is cut (the
        clear-end test follows single clicks)."""
        piles = pos.piles
        stock = piles[0]
        parts: list[bytes] = []
        if self.stock_cycle and cycle:
            # Where the cycle is cut does not matter: clicks alone reach every cut (see the
            # module's docstring), so the key holds the cycle from its lowest card.
            seq = [c & 63 for c in reversed(stock)] + [c & 63 for c in piles[self.waste]]
            if seq:
                i = seq.index(min(seq))
                seq = seq[i:] + seq[:i]
            parts.append(bytes(seq))
        elif self.stock_turns and cycle:
            # The cards in dealing order and where they are cut; every cut that clicks reach
            # from the waste's turning over (a multiple of the draw, or the end) is one.
            stock, waste = piles[0], piles[self.waste]
            cut = len(waste) if stock and len(waste) % self.rules.stock.draw else 0
            parts.append(bytes([c & 63 for c in waste] + [c & 63 for c in reversed(stock)]
                               + [64 + cut]))
        elif self.stock_reformed:
            parts.append(self.card_bytes(stock))
            if self.waste_sink:
                parts.append(bytes(piles[self.waste][-1:]))
            elif self.waste >= 0:
                parts.append(bytes(piles[self.waste]))
            if self.limited_redeals:
                parts.append(bytes((pos.redeals_used,)))
        else:
            parts.append(len(stock).to_bytes(2, "little"))
        if self.cells:
            parts.append(bytes(sorted(piles[i][0] if piles[i] else 0 for i in self.cells)))
        reserves = [self.card_bytes(piles[i]) for i in self.reserves]
        if self.reserves_interchangeable(pos):
            reserves.sort()
        parts.extend(reserves)
        tabs = [bytes(piles[i]) for i in self.tableau]
        if self.tableau_interchangeable(pos):
            tabs.sort()
        parts.extend(tabs)
        return _SEP.join(parts)

    def card_bytes(self, pile: list[int]) -> bytes:
        """A pile's cards for the key: ranks only where suits never matter."""
        return bytes(pile).translate(_NO_SUIT) if self.rank_key else bytes(pile)

    def gather_left(self, pos: Position) -> bool:
        """A gathering of the reserves (Quadrennial) is still to come."""
        redeals = self.rules.stock.redeals
        return self.gathers and (redeals is None or pos.redeals_used < redeals)

    def reserves_interchangeable(self, pos: Position) -> bool:
        """Reserve piles fed by the stock keep their places while the stock deals (each pile
        gets its own card) or may be gathered (pile 1 first); after that, nothing tells them
        apart."""
        return bool(self.reserves) and not pos.piles[0] and not self.gather_left(pos)

    def proven_lost(self, pos: Position) -> bool:
        """The rank bound of games whose any-suit foundations are fed only from reserves, once
        no gathering is left (see the module's docstring and ``docs/solver.md``): True only
        when no order of play can win from ``pos``."""
        if not self.reserve_only or self.gather_left(pos):
            return False
        piles = pos.piles
        heights = [0] * 15
        for f in self.foundations:
            heights[len(piles[f])] += 1
        home = [1000] + [0] * 13  # rank-r cards home: the foundations that reached r
        reached = len(self.foundations)
        for r in range(1, 14):
            reached -= heights[r - 1]
            home[r] = reached
        left = [self.rank_copies[r] - home[r] for r in range(14)]
        # Every card not home: its rank and the bounds of its place ``m`` (counted from the
        # last card of its rank home): ``least`` (1 + the most cards of one lower rank under
        # it, and 1 + the ``least`` of every card of its rank or lower under it: the chains),
        # the cards of each higher rank that lie above it (played before it), and the card
        # right under it when it was placed (the cards under it, down that chain).
        ranks: list[int] = []
        least: list[int] = []
        above: list[list[int]] = []
        under_of: list[int] = []
        stacks: list[list[int]] = []

        def place(j: int, r: int) -> None:
            stack = stacks[j]
            under = [0] * 14
            lo = 1
            for y in stack:
                under[ranks[y]] += 1
                if ranks[y] < r:
                    above[y][r] += 1
                if ranks[y] <= r:
                    lo = max(lo, least[y] + 1)
            least.append(max(lo, 1 + max(under[1:r], default=0)))
            ranks.append(r)
            above.append([0] * 14)
            under_of.append(stack[-1] if stack else -1)
            stack.append(len(ranks) - 1)

        highest = 0
        for j, i in enumerate(self.reserves):
            stacks.append([])
            if piles[i]:
                highest = max(highest, _RANK[piles[i][0]])
            for c in piles[i]:
                place(j, _RANK[c])
        occupied = [bool(piles[i]) for i in self.reserves]
        # Play, ahead, every card that some line could play before each deal: a card of rank
        # r only when r - 1 cards home or so played outnumber the rank-r cards home now, and
        # only when the cards of each rank s from it up its pile are no more than the rank-s
        # cards any line can have played by then (the counting play-ahead). A card still
        # there at a deal lies under the card dealt onto its pile.
        played = [0] * 14

        def playable(count: list[int], r: int) -> bool:
            if home[r - 1] + played[r - 1] <= home[r]:
                return False
            most = 1000  # the rank-(s-1) cards any line can have played by now, at most
            for s in range(1, 14):
                most = min(played[s] + (s == r), home[s - 1] - home[s] + most)
                if count[s] + (s == r) > most:
                    return False
            return True

        def play_ahead() -> None:
            counts = [[0] * 14 for _ in stacks]
            moved = True
            while moved:
                moved = False
                for stack, count in zip(stacks, counts, strict=True):
                    while stack and playable(count, ranks[stack[-1]]):
                        r = ranks[stack.pop()]
                        played[r] += 1
                        count[r] += 1
                        moved = True

        deal = [_RANK[c] for c in reversed(piles[0])]  # in the order they are dealt
        dealt = 0
        play_ahead()
        while dealt < len(deal):
            if self.skip_empty:
                # where a pile might be empty, later deals might fall elsewhere
                if any(occ and not stack for occ, stack in zip(occupied, stacks, strict=True)):
                    break
                targets = [j for j, occ in enumerate(occupied) if occ]
            else:
                targets = list(range(len(stacks)))
            if not targets:
                break
            for j in targets:
                if dealt < len(deal):
                    place(j, deal[dealt])
                    dealt += 1
            play_ahead()
        if dealt == len(deal) and any(stacks):
            return True  # a card that no order of play can ever play
        # The most place of each placed card: the fewest cards of a higher rank s left after
        # those above it, and 1 less than the most place of every card of its rank or higher
        # above it (the chains, from the last card placed down).
        most = []
        for r, up in zip(ranks, above, strict=True):
            hi = left[r]
            for s in range(r + 1, 14):
                if up[s]:
                    hi = min(hi, left[s] - up[s])
            most.append(hi)
        for a in range(len(ranks) - 1, -1, -1):
            y = under_of[a]
            while y >= 0:
                if ranks[y] <= ranks[a]:
                    most[y] = min(most[y], most[a] - 1)
                y = under_of[y]
        spans: list[list[tuple[int, int]]] = [[] for _ in range(14)]
        for r, lo, hi in zip(ranks, least, most, strict=True):
            spans[r].append((lo, hi))
        for r in deal[dealt:]:
            spans[r].append((2 if self.skip_empty and highest < r else 1, left[r]))
        # Hall's condition, rank by rank: distinct places 1..left[r], each card's in its span.
        return any(not _places(spans[r], left[r]) for r in range(2, 14))

    def order_lost(self, pos: Position) -> bool:
        """The order bound of Klondike-type games (see the module's docstring and
        ``docs/solver.md``): True only when no order of play can win from ``pos``.

        Events: ``T(c)``, the first time card ``c`` goes home from now (done for the cards
        home); ``D(x)``, the first time tableau card ``x`` leaves its pile; ``E(v)``, the first
        time stock or waste card ``v`` reaches the tableau. ``T(c)`` needs ``T`` of the card
        one lower of its suit and, for a tableau card, ``D(c)``. ``D(x)`` needs ``D`` of the
        card on ``x`` (it leaves first or with ``x``) and one of: going home (``T`` of the card
        one lower); a run based on ``x`` or on a face-up card ``b`` under it (valid from ``b``
        to ``x``) going to a place of ``b``. ``E(v)`` needs a place of ``v``. A place of a
        card: a parent ``p`` (one rank higher, the other colour): nothing more when ``p`` is
        on a foundation or a reserve or a pile's top, ``E(p)`` in the stock or waste, ``D`` of
        the card on ``p`` in another pile, ``D(p)`` above ``x``, impossible under ``b``; for
        a King, a space: nothing more when a pile is empty, else ``D`` of the bottom card of
        another pile. Events whose needs are met are marked until nothing changes; a ``T``
        left unmarked means that no line wins."""
        piles = pos.piles
        height = [0, 0, 0, 0]
        for f in self.foundations:
            if piles[f]:
                height[_SUIT[piles[f][0]]] = len(piles[f])
        where: dict[int, tuple[int, int]] = {}
        for t in self.tableau:
            for i, c in enumerate(piles[t]):
                where[c & 63] = (t, i)
        in_sw = {c & 63 for c in piles[0]}
        if self.waste >= 0:
            in_sw |= {c & 63 for c in piles[self.waste]}
        Option = tuple[set[int], set[int], set[int]]  # (T, D, E events needed)

        def places(b: int, t: int, k: int, above: set[int]) -> list[Option]:
            """The options of a card moving onto a place of ``b`` from pile ``t`` at height
            ``k`` (``t`` -1: from the stock or waste); one needing nothing when free."""
            opts: list[Option] = []
            if _RANK[b] == 13:
                for u in self.tableau:
                    if u != t:
                        opts.append((set(), {piles[u][0] & 63} | above if piles[u]
                                     else set(above), set()))
                return opts
            for s in range(4):
                q = (_RANK[b] + 1) * 4 + s
                if _RED[q] == _RED[b]:
                    continue
                if q not in where:
                    opts.append((set(), set(above), {q} if q in in_sw else set()))
                    continue
                qt, qi = where[q]
                if qt == t:
                    if qi > k:
                        opts.append((set(), {q} | above, set()))
                elif qi == len(piles[qt]) - 1:
                    opts.append((set(), set(above), set()))
                else:
                    opts.append((set(), {piles[qt][qi + 1] & 63} | above, set()))
            return opts

        d_options: dict[int, list[Option]] = {}
        for t in self.tableau:
            p = piles[t]
            for i, c in enumerate(p):
                x = c & 63
                above = {p[i + 1] & 63} if i + 1 < len(p) else set()
                opts: list[Option] = [({x - 4} if x >= 8 else set(), set(above), set())]
                for k in range(i, -1, -1):
                    b = p[k]
                    if k < i and (not b & UP or not self.fits(p[k + 1], b)):
                        break
                    opts.extend(places(b, t, k, above))
                d_options[x] = opts
        e_options = {v: places(v, -1, 0, set()) for v in in_sw}
        marked_t = {v for v in range(4, 56) if _RANK[v] <= height[_SUIT[v]]}
        marked_d = {v for v in range(4, 56) if v not in where}
        marked_e = {v for v in range(4, 56) if v not in in_sw}

        def met(option: Option) -> bool:
            return option[0] <= marked_t and option[1] <= marked_d and option[2] <= marked_e

        changed = True
        while changed:
            changed = False
            for v, opts in e_options.items():
                if v not in marked_e and any(met(o) for o in opts):
                    marked_e.add(v)
                    changed = True
            for x, opts in d_options.items():
                if x not in marked_d and any(met(o) for o in opts):
                    marked_d.add(x)
                    changed = True
            for v in range(4, 56):
                if v not in marked_t and (v < 8 or v - 4 in marked_t) and v in marked_d:
                    marked_t.add(v)
                    changed = True
        return len(marked_t) < 52

    def home_count(self, pos: Position, value: int) -> int:
        """How many copies of card ``value`` (rank and suit) lie on the foundations."""
        r, s = _RANK[value], _SUIT[value]
        n = 0
        for f in self.foundations:
            p = pos.piles[f]
            if p and _SUIT[p[0]] == s and len(p) >= r:
                n += 1
        return n

    def is_safe_to_foundation(self, pos: Position, c: int) -> bool:
        """No card could ever need ``c`` on the tableau (see the module's docstring)."""
        r = _RANK[c]
        if r == 1:
            return True
        below = r - 1
        for s in range(4):
            v = below * 4 + s
            if not self.copies[v]:
                continue
            if self.build is Build.DOWN_ALTERNATE_COLOURS and _RED[v] == _RED[c]:
                continue
            if self.build is Build.DOWN_SAME_SUIT and s != _SUIT[c]:
                continue
            if self.home_count(pos, v) < self.copies[v]:
                return False
        return True

    def is_safe_any_suit(self, pos: Position, src: int) -> bool:
        """A reserve's top card may go to an any-suit foundation as the only child when it can
        never take a place another card needs (see the module's docstring)."""
        piles = pos.piles
        c = piles[src][-1]
        r = _RANK[c]
        if self.gathers and (self.rules.stock.redeals is None
                             or pos.redeals_used < self.rules.stock.redeals):
            return False
        if self.skip_empty and piles[0] and len(piles[src]) < 2:
            return False
        slots = 0
        home = 0
        for f in self.foundations:
            h = len(piles[f])
            if h == r - 1:
                slots += 1
            elif h >= r:
                home += 1
        total = sum(self.copies[r * 4 + s] for s in range(4))
        return slots >= total - home

    def fits(self, c: int, top: int) -> bool:
        """Card ``c`` may sit on ``top`` in the tableau."""
        if self.build is Build.NONE or _RANK[top] != _RANK[c] + 1:
            return False
        if self.build is Build.DOWN_ALTERNATE_COLOURS:
            return _RED[top] != _RED[c]
        return self.build is Build.DOWN_ANY_SUIT or _SUIT[top] == _SUIT[c]

    def children(self, pos: Position, last: tuple[RawMove, int] | None,
                 macros: bool = True, idle: bool = True) -> list[Child]:
        """The moves worth searching from ``pos``, best first (a safe move alone).

        With a waste, stock clicks are not searched on their own: a child is a few clicks
        followed by a move of the waste's top card (the "K+" moves of Klondike solvers). A
        click commutes with every move that does not take the waste's top card, so any line
        can be reordered into such steps; clicks followed by nothing are useless.
        ``macros=False`` (a player who does not know the stock's cards): single moves only,
        a click on the stock among them. ``idle=False``: idle splits and descents are kept
        (the rule reads face-down cards: the honest player's own steps must not).
        """
        piles = pos.piles
        interch = self.tableau_interchangeable(pos)
        first_cell = next((i for i in self.cells if not piles[i]), -1)
        first_space = next((i for i in self.tableau if not piles[i]), -1) if interch else -1
        scored: list[tuple[int, Child]] = []
        homes: set[tuple[int, int, int]] = set()
        moves = pos.raw_moves()
        for m in moves:
            if m[0] == STOCK_CLICK and self.waste_macros and macros:
                continue
            score = self.score(pos, m, last, first_cell, first_space, homes, idle)
            if score is None:
                continue
            if score >= SAFE:
                return [(m,)]
            scored.append((score, (m,)))
        if macros and self.waste_macros and STOCK_RAW in moves:
            self.macro_children(pos, scored, first_cell, first_space)
        scored.sort(key=lambda sm: -sm[0])
        if scored and scored[0][0] >= SAFE:
            return [scored[0][1]]
        return [m for _, m in scored]

    def macro_children(self, pos: Position, scored: list[tuple[int, Child]], first_cell: int,
                       first_space: int) -> None:
        """Clicks then a waste move, for every waste card the clicks reach.

        The clicks are followed on copies of the stock and waste, exactly as the engine deals
        them; only the chosen child is then played through the engine.
        """
        piles = pos.piles
        stock = list(piles[0])
        waste = list(piles[self.waste])
        st = self.rules.stock
        redeals = pos.redeals_used
        start = len(waste)
        seen = {(start, redeals if self.limited_redeals else 0)}
        clicks = 0
        while True:
            if stock:
                for _ in range(min(st.draw, len(stock))):
                    waste.append(stock.pop())
            elif waste and st.redeals is None or redeals < (st.redeals or 0) and waste:
                stock.extend(reversed(waste))
                waste.clear()
                redeals += 1
            else:
                return
            clicks += 1
            state = (len(waste), redeals if self.limited_redeals else 0)
            if state in seen:
                return
            seen.add(state)
            if waste:
                self.waste_moves(pos, waste[-1] | UP, clicks, scored, first_space)

    def waste_moves(self, pos: Position, c: int, clicks: int, scored: list[tuple[int, Child]],
                    first_space: int) -> None:
        """The moves of waste card ``c`` reached after ``clicks`` clicks (as the engine's)."""
        piles = pos.piles
        prefix = (STOCK_RAW,) * clicks
        w = self.waste
        takes = self.rules.foundations.takes
        if takes is not FoundationTakes.COMPLETE_SUIT:
            homes: set[tuple[int, int]] = set()
            r = _RANK[c]
            for f in self.foundations:
                d = piles[f]
                if d:
                    top = d[-1]
                    if _RANK[top] + 1 != r or self.safe_foundation and _SUIT[top] != _SUIT[c]:
                        continue
                elif r != 1:
                    continue
                home = (len(d), _SUIT[d[0]] if d and self.safe_foundation else -1)
                if home not in homes:
                    homes.add(home)
                    safe = self.waste_safe and st_unlimited(self.rules) \
                        and self.is_safe_to_foundation(pos, c)
                    scored.append((SAFE if safe else 100 - clicks, prefix + ((w, f, 1),)))
        for j in self.tableau:
            d = piles[j]
            if d:
                if self.fits(c, d[-1]):
                    bonus = 10 if _SUIT[d[-1]] == _SUIT[c] else 0
                    scored.append((65 + bonus - clicks, prefix + ((w, j, 1),)))
            elif not self.no_space and (not self.king_only or _RANK[c] == 13) \
                    and (first_space < 0 or j == first_space):
                scored.append((65 - clicks, prefix + ((w, j, 1),)))

    def score(self, pos: Position, m: RawMove, last: tuple[RawMove, int] | None,
              first_cell: int, first_space: int,
              homes: set[tuple[int, int, int]], idle: bool = True) -> int | None:
        """How promising a move looks (``SAFE`` or more: play it alone), None: prune it."""
        src, dst, n = m
        if src == STOCK_CLICK:
            return 30
        piles = pos.piles
        kinds = self.kinds
        skind, dkind = kinds[src], kinds[dst]
        s, d = piles[src], piles[dst]
        if dkind == "foundation":
            if skind == "foundation":
                return None
            home = (src, len(d), _SUIT[d[0]] if d and self.safe_foundation else -1)
            if home in homes:
                return None
            homes.add(home)
            if self.safe_foundation and (skind in ("tableau", "cell")
                                         or skind == "waste" and self.waste_safe) \
                    and self.is_safe_to_foundation(pos, s[-1]):
                return SAFE
            if self.reserve_only and skind == "reserve" and self.is_safe_any_suit(pos, src):
                return SAFE
            return 100
        if dkind == "cell" and (skind == "cell" or dst != first_cell):
            return None
        if dkind == "tableau" and not d and first_space >= 0 and (
                dst != first_space or skind == "tableau" and n == len(s)):
            return None
        if last is not None and last[1] == 1:
            ls, ld, ln = last[0]
            if ls == dst and ld == src and ln == n:
                return None
        rest = len(s) - n
        c = s[rest]
        same_suit_dst = bool(d) and _SUIT[d[-1]] == _SUIT[c]
        if skind == "tableau":
            if rest > 0 and not s[rest - 1] & UP or rest == 0 and self.covers \
                    and pos.would_uncover(src):
                score = 90  # turns a card up
            elif rest == 0:
                score = 70 if d else 40  # empties a pile
            elif not self.fits(c, s[rest - 1]):
                score = 65  # takes the run off a card it does not belong on
            elif _SUIT[s[rest - 1]] != _SUIT[c] and same_suit_dst:
                score = 60  # from a mixed-suit build to a same-suit one
            else:
                score = 20  # the run already sits where it belongs: a shuffle
            if idle and self.idle_splits and dkind == "tableau" and rest > 0 and s[rest - 1] & UP \
                    and self.fits(c, s[rest - 1]) and self.idle_split(pos, s[rest - 1], c):
                return None
        elif skind == "foundation":
            score = 5
            if idle and self.idle_splits and dkind == "tableau" and self.idle_descent(pos, src):
                return None
        else:
            score = 65  # from a cell, the waste or a reserve
        if dkind == "cell":
            score = min(score, 50) - 35
        elif same_suit_dst:
            score += 5
        return score

    def idle_split(self, pos: Position, x: int, y: int) -> bool:
        """A run whose base ``y`` sits on the face-up card ``x`` it fits, moved off it, can be
        left out when ``x`` cannot go home now and every card that fits on ``x`` (``y`` aside)
        is buried: in the tableau under the run that reaches its pile's top. The split changes
        only which card is on ``x``; a line that plays it can play it just before ``x`` is
        used (sent home, or given a card), carrying the run along with ``x`` until then, and
        what that use needs first does not need the split (docs/solver.md, "Idle splits and
        descents")."""
        piles = pos.piles
        for f in self.foundations:
            d = piles[f]
            if (not d and _RANK[x] == 1) or (d and _RANK[d[-1]] + 1 == _RANK[x]
                                             and _SUIT[d[-1]] == _SUIT[x]):
                return False
        return self.fit_on[x & 63] & ~(1 << (y & 63)) & ~self.buried(pos) == 0

    def idle_descent(self, pos: Position, f: int) -> bool:
        """The top card ``F`` of foundation ``f`` put onto the tableau can be left out when
        every card that fits on ``F`` is buried and the card under ``F`` on its foundation (if
        any) fits on no tableau pile's top: ``F`` on the tableau can only be given a card or
        let the card under it come down too (docs/solver.md, "Idle splits and descents")."""
        piles = pos.piles
        d = piles[f]
        if len(d) >= 2:
            below = d[-2] | UP
            if any(piles[t] and piles[t][-1] & UP and self.fits(below, piles[t][-1])
                   for t in self.tableau):
                return False
        return self.fit_on[d[-1] & 63] & ~self.buried(pos) == 0

    def buried(self, pos: Position) -> int:
        """The cards no move can take now, as a bit set: those of the tableau under the run
        that reaches each pile's top (face down, or face up under a card that does not fit)."""
        piles = pos.piles
        buried = 0
        for t in self.tableau:
            pile = piles[t]
            i = len(pile) - 1
            if not pile or not pile[-1] & UP:
                i = len(pile)
            else:
                while i > 0 and pile[i - 1] & UP and self.fits(pile[i], pile[i - 1]):
                    i -= 1
            for v in pile[:i]:
                buried |= 1 << (v & 63)
        return buried


def _places(spans: list[tuple[int, int]], count: int) -> bool:
    """Whether each span ``(lo, hi)`` can take its own place among ``1..count`` inside it."""
    todo = sorted(spans)
    waiting: list[int] = []
    k = 0
    for place in range(1, count + 1):
        while k < len(todo) and todo[k][0] <= place:
            waiting.append(todo[k][1])
            k += 1
        if waiting:
            waiting.sort()
            if waiting.pop(0) < place:
                return False
    return k == len(todo) and not waiting


def st_unlimited(rules: GameRules) -> bool:
    """The waste may be turned over any number of times: every stock card can be reached
    whenever wanted, so where the stock and waste stand in their cycle does not matter."""
    return rules.stock.redeals is None


_KNOWLEDGE: dict[str, GameKnowledge] = {}


def knowledge(pos: Position) -> GameKnowledge:
    k = _KNOWLEDGE.get(pos.rules.id)
    if k is None:
        k = _KNOWLEDGE[pos.rules.id] = GameKnowledge(pos.rules, pos)
    return k


CLOCKS = ("wall", "cpu")


def budget_clock(clock: str | None = None) -> str:
    """The clock of budgets in seconds: ``wall`` time, or the ``cpu`` time of the searching
    thread (a shared machine's load then does not change what a budget buys). By default the
    environment's ``REUSSITE_SOLVER_CLOCK`` (the CLI's ``--clock`` sets it), else ``wall``."""
    chosen = clock or os.environ.get("REUSSITE_SOLVER_CLOCK") or "wall"
    if chosen not in CLOCKS:
        raise ValueError(f"The solver's clock is wall or cpu: {chosen!r}")
    return chosen


class Budget:
    """Seconds and/or positions; ``spent()`` is checked every few hundred positions."""

    def __init__(self, seconds: float | None, states: int | None, clock: str = "wall") -> None:
        self.now = time.thread_time if clock == "cpu" else time.perf_counter
        self.deadline = None if seconds is None else self.now() + seconds
        self.states = states

    def spent(self, states: int) -> bool:
        if self.states is not None and states >= self.states:
            return True
        return self.deadline is not None and self.now() >= self.deadline


def _progress(pos: Position, steps: int, kinds: tuple[str, ...]) -> int:
    """Cards turned up by the player's moves (not by deals) plus cards sent home (x2; in a
    game without foundations, cards put away off the tableau, reserves and cells), over the
    last ``steps`` moves."""
    gain = 0
    clear = pos.rules.clears_to_win
    covers = bool(pos.rules.tableau and pos.rules.tableau.covers)
    for _, ops in pos.history[-steps:]:
        prev: tuple[int, ...] = ()
        # a move off a tableau pile that covers others (Tableau.covers): each card it turns
        # up counts, wherever it lies
        uncovering = covers and ops and ops[0][0] == 0 and kinds[ops[0][1]] == "tableau"
        for op in ops:
            if op[0] == 0:
                if kinds[op[2]] == "foundation":
                    gain += 2 * op[3]
                elif kinds[op[1]] == "foundation":
                    gain -= 2 * op[3]
                elif clear and (kinds[op[1]] in _LAYOUT) != (kinds[op[2]] in _LAYOUT):
                    gain += 2 * op[3] if kinds[op[1]] in _LAYOUT else -2 * op[3]
            elif op[0] == 1 and (prev and prev[0] == 0 and prev[1] == op[1]
                                 and kinds[op[1]] != "stock"
                                 or uncovering and kinds[op[1]] == "tableau"):
                gain += 1
            prev = op
    return gain


FIRST_DEAL_CAP = 300
"""Positions allowed under one deal, per deal still to come, in the first round of a game whose
stock deals onto piles; each round multiplies it by four, and a round that cut nothing off is
exhaustive."""


def solve(pos: Position, time_limit: float | None = 10.0,
          max_states: int | None = None, best_line: bool = False,
          engine: str = "auto", clock: str | None = None,
          streamlined: bool | None = None) -> SolveResult:
    """Solve ``pos`` with full information. ``pos`` is left exactly as it was.

    Where the stock deals onto piles (Spider, Astrocyte, Leap Year...), a plain search gets a
    third of the budget; then the search runs in rounds: in each round the positions searched
    after one deal are capped (more for the earlier deals), so that the search cannot sink for
    ever into the last deals of one early choice; the cap grows fourfold from round to round. A
    round that cut nothing off searched everything, so ``lost`` is still a proof; a win found in
    any round is a win.

    ``best_line``: when the budget runs out, also return the line that made the most progress
    (the honest player's guidance on samples too hard to solve).

    ``engine``: ``"auto"`` runs the C core (:mod:`.core`: this search and its bounds, faster,
    and win finders and proofs of its own; its docstring says which) when it is built,
    ``"python"`` this module's search, ``"c"`` the C core or an error.

    ``clock``: what ``time_limit`` counts, ``"wall"`` or ``"cpu"`` seconds (see
    :func:`budget_clock`); ``seconds`` in the result is wall time either way.

    ``streamlined``: the C core's streamlined searches of draw-three games (they find wins,
    prove nothing): None runs them unless ``best_line`` is asked for; True or False decides
    (the reference search has none).
    """
    start = time.perf_counter()
    clock = budget_clock(clock)
    if _use_core(engine):
        found, line, states = core.solve_raw(pos, time_limit, max_states, best_line,
                                             cpu=clock == "cpu", streamlined=streamlined)
        moves = [pos.to_move(m) for m in line] if found == "won" else []
        return SolveResult(found, moves, states, time.perf_counter() - start, line)
    budget = Budget(time_limit, max_states, clock)
    info = knowledge(pos)
    if pos.is_won():
        return SolveResult("won", [], 0, time.perf_counter() - start)
    if info.proven_lost(pos) or info.order_bound and info.order_lost(pos):
        return SolveResult("lost", [], 0, time.perf_counter() - start)
    # Where the stock deals onto piles, a first plain round gets a third of the budget.
    rounds: list[tuple[Budget, int | None]] = [(budget, None)]
    if info.deals_to_piles:
        first = Budget(None if time_limit is None else time_limit / 3,
                       None if max_states is None else max_states // 3, clock)
        rounds = [(first, None), (budget, FIRST_DEAL_CAP)]
    total = 0
    best: list[RawMove] = []
    status: Status = "unknown"
    for round_budget, cap in rounds:
        while True:
            status, line, total, cut = _search(pos, info, round_budget, total, cap, best_line)
            if status == "unknown" and best_line and len(line) > len(best):
                best = line
            if status == "won":
                return SolveResult("won", [pos.to_move(m) for m in line], total,
                                   time.perf_counter() - start, line)
            if status == "unknown" or not cut:
                break
            assert cap is not None
            cap *= 4
        if status == "lost" or budget.spent(total):
            break
    seconds = time.perf_counter() - start
    if status == "unknown":
        return SolveResult("unknown", [], total, seconds, best if best_line else [])
    return SolveResult("lost", [], total, seconds)


def _search(pos: Position, info: GameKnowledge, budget: Budget, states: int, cap: int | None,
            best_line: bool) -> tuple[Status, list[RawMove], int, bool]:
    """One depth-first round; returns (status, line, positions counted so far, cut)."""
    seen: set[bytes] = {info.key(pos)}
    depth0 = len(pos.history)
    path: list[Child] = []
    # a search asked for its best line (the honest player's samples) keeps the idle moves, as
    # the C core does (_core.c solve_pos)
    idle = not best_line
    stack: list[list[Child]] = [info.children(pos, None, idle=idle)]
    index: list[int] = [0]
    gains: list[int] = [0]
    # Deals on the current line: (depth of the deal's step, positions counted then, cap).
    dealt: list[tuple[int, int, int]] = []
    best_gain = 0
    best: list[Child] = []
    cut = False
    status: Status = "lost"
    stock_size = max(1, len(pos.piles[0]))
    try:
        while stack:
            steps = stack[-1]
            i = index[-1]
            if i >= len(steps):
                stack.pop()
                index.pop()
                if path:
                    gains.pop()
                    if dealt and dealt[-1][0] == len(path):
                        dealt.pop()
                    for _ in path.pop():
                        pos.pop()
                continue
            index[-1] = i + 1
            step = steps[i]
            for m in step:
                pos.push_raw(m)
            # a win needs an empty stock, but in a game without foundations
            if (not pos.piles[0] or info.clear_win) and pos.is_won():
                path.append(step)
                status = "won"
                break
            k = info.key(pos)
            if k in seen:
                for _ in step:
                    pos.pop()
                continue
            seen.add(k)
            states += 1
            if not states & 255 and budget.spent(states):
                for _ in step:
                    pos.pop()
                status = "unknown"
                break
            if info.reserve_only and info.proven_lost(pos):
                for _ in step:  # no order of play wins from here: not searched further
                    pos.pop()
                continue
            path.append(step)
            if best_line:
                gain = gains[-1] + _progress(pos, len(step), info.kinds)
                gains.append(gain)
                if gain > best_gain:
                    best_gain, best = gain, list(path)
            else:
                gains.append(0)
            stack.append(info.children(pos, (step[-1], len(pos.history[-1][1])), idle=idle))
            index.append(0)
            if cap is not None:
                if step[0][0] == STOCK_CLICK:
                    left = 1 + len(pos.piles[0]) * 8 // stock_size
                    dealt.append((len(path), states, cap * left))
                if not states & 31 and dealt:
                    over = next((d for d, at, c in dealt if states - at > c), 0)
                    if over:
                        cut = True
                        while len(path) >= over:
                            stack.pop()
                            index.pop()
                            gains.pop()
                            if dealt and dealt[-1][0] == len(path):
                                dealt.pop()
                            for _ in path.pop():
                                pos.pop()
        line = path if status == "won" else best if status == "unknown" else []
        raw_line = [m for step in line for m in step]
    finally:
        while len(pos.history) > depth0:
            pos.pop()
    return status, raw_line, states, cut


def _use_core(engine: str) -> bool:
    if engine == "python":
        return False
    if engine == "c" and not core.available():
        raise RuntimeError("The solver's C core is not built (pip install -e . builds it)")
    if engine not in ("auto", "c"):
        raise ValueError(f"Unknown search engine {engine!r}: auto, c or python")
    return core.available()


def is_stuck(pos: Position, max_states: int = 20_000, engine: str = "auto") -> bool:
    """True when no legal move can change anything any more.

    "Change" means: win, turn a face-down card up, deal from a stock that deals onto piles, or
    put more cards on the foundations than there are now. The search explores everything
    reachable without such a change (shuffling visible cards, turning a waste stock round) and
    answers True only when it saw all of it; when its budget runs out it answers False, so
    there are no false alarms.
    """
    if _use_core(engine):
        return core.is_stuck_raw(pos, max_states)
    if not pos.raw_moves():
        return not pos.is_won()
    info = knowledge(pos)
    home = pos.cards_done
    depth0 = len(pos.history)
    seen: set[bytes] = {info.key(pos, cycle=False)}
    stack: list[list[RawMove]] = [pos.raw_moves()]
    index = [0]
    try:
        while stack:
            moves = stack[-1]
            i = index[-1]
            if i >= len(moves):
                stack.pop()
                index.pop()
                if len(pos.history) > depth0:
                    pos.pop()
                continue
            index[-1] = i + 1
            m = moves[i]
            if m[0] == STOCK_CLICK and not info.stock_reformed:
                return False
            if m[0] == STOCK_CLICK and pos.piles[0] and info.waste < 0:
                return False  # a deal onto piles puts new cards in play
            pos.push_raw(m)
            changed = pos.cards_done > home or pos.is_won() or any(
                op[0] == 1 and info.kinds[op[1]] in ("tableau", "reserve")
                for op in pos.history[-1][1])
            if changed:
                return False
            k = info.key(pos, cycle=False)
            if k in seen:
                pos.pop()
                continue
            seen.add(k)
            if len(seen) > max_states:
                return False
            stack.append(pos.raw_moves())
            index.append(0)
        return True
    finally:
        while len(pos.history) > depth0:
            pos.pop()
