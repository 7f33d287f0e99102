"""Leap Year's wide beam (``_core.c``, ``wide_beam``) against a plain Python statement of it.

The C wide beam plays each closure in place (a play, the safe cards after it and a deal are
taken back, not copied) and keeps the key, the cards above lower ones and the counts home up
to date as it goes; it evaluates a dealt position only when it could rank above the worst kept.
The reference below states the same beam the simple way: every position a new copy, its key
the whole position, everything computed from scratch. Both must meet the same positions in the
same order, so the counts of positions and the answers are compared exactly."""

from __future__ import annotations

import heapq

import pytest
from helpers import assert_raw_line_wins

from reussite.cards import rank_of
from reussite.engine import Position
from reussite.games import get_game
from reussite.solver import core

TALL = 48      # a pile this tall gets no card (the C beam's WB_H)
LINE = 512     # moves in a line at most (WB_LINE)


class _S:
    """A position of the beam: the piles (ranks, bottom first), the live piles, the stock cards
    dealt, the rank-r cards home (h[0]: the foundations), the moves so far."""

    __slots__ = ("piles", "alive", "si", "h", "nm")

    def __init__(self, piles: list[list[int]], alive: int, si: int, h: list[int],
                 nm: int) -> None:
        self.piles, self.alive, self.si, self.h, self.nm = piles, alive, si, h, nm

    def copy(self) -> _S:
        return _S([list(p) for p in self.piles], self.alive, self.si, list(self.h), self.nm)

    def key(self) -> tuple[object, ...]:
        return (tuple(tuple(p) for p in self.piles), self.alive, self.si)


def reference_wide_beam(pos: Position, width: int, cap: int, w_inv: int,
                        w_empty: int) -> tuple[str, int]:
    """``(status, positions counted)`` of the wide beam without the rank bound."""
    lay = pos.layout
    stock = [rank_of(c) for c in reversed(pos.piles[0])]   # in dealing order
    ns, nr = len(stock), len(lay.reserves)
    copies = [0] * 14
    for pile in pos.piles:
        for c in pile:
            copies[rank_of(c)] += 1
    h = [0] * 14
    h[0] = len(lay.foundations)
    for f in lay.foundations:
        for r in range(1, min(len(pos.piles[f]), 13) + 1):
            h[r] += 1
    piles = [[rank_of(c) for c in pos.piles[i]] for i in lay.reserves]
    alive = sum(1 << q for q in range(nr) if piles[q])
    states = 0

    def legal(s: _S, q: int) -> bool:
        return bool(s.piles[q]) and s.h[s.piles[q][-1] - 1] > s.h[s.piles[q][-1]]

    def play(s: _S, q: int) -> None:
        s.nm += 1
        s.h[s.piles[q].pop()] += 1
        if not s.piles[q] and s.si < ns:
            s.alive &= ~(1 << q)

    def safe(s: _S) -> None:
        moved = True
        while moved:
            moved = False
            for q in range(nr):
                while s.nm < LINE - 1 and (len(s.piles[q]) > 1
                                           or (len(s.piles[q]) == 1 and s.si >= ns)):
                    r = s.piles[q][-1]
                    if s.h[r - 1] < copies[r] or not legal(s, q):
                        break
                    play(s, q)
                    moved = True

    def evaluate(s: _S) -> int:
        e = 10 * sum(s.h[1:14])
        if s.si < ns:
            e -= w_empty * sum(1 for q in range(nr) if not s.alive >> q & 1)
        inv = sum(1 for p in s.piles for k in range(len(p)) for i in range(k + 1, len(p))
                  if p[i] > p[k])
        return e - w_inv * inv

    s0 = _S(piles, alive, 0, h, 0)
    safe(s0)
    beam = [s0]
    while True:
        kept: list[tuple[int, int, int, _S]] = []   # (ev, -seq, tie, position): worst first
        seen: set[tuple[object, ...]] = set()
        seq = 0
        for b in beam:
            local: set[tuple[object, ...]] = set()
            stack = [b]
            while stack:
                s = stack.pop()
                states += 1
                if s.si >= ns:
                    if not any(s.piles):
                        return "won", states
                elif s.alive and s.nm < LINE - 1:
                    t = s.copy()
                    t.nm += 1
                    tall = False
                    for q in range(nr):
                        if t.si >= ns:
                            break
                        if t.alive >> q & 1:
                            if len(t.piles[q]) >= TALL:
                                tall = True
                                break
                            t.piles[q].append(stock[t.si])
                            t.si += 1
                    if not tall:
                        safe(t)
                        k = t.key()
                        if k not in seen:
                            seen.add(k)
                            ev, seq = evaluate(t), seq + 1
                            item = (ev, -seq, seq, t)
                            if len(kept) < width:
                                heapq.heappush(kept, item)
                            elif kept[0][:2] < item[:2]:
                                heapq.heapreplace(kept, item)
                for q in range(nr):
                    if not legal(s, q) or s.nm >= LINE - 1 or len(local) >= cap:
                        continue
                    t = s.copy()
                    play(t, q)
                    safe(t)
                    k = t.key()
                    if k not in local:
                        local.add(k)
                        stack.append(t)
        if not kept:
            return "unknown", states
        beam = [item[3] for item in sorted(kept, reverse=True)]


@pytest.mark.parametrize(("deal", "width", "cap", "w_inv"),
                         [(16, 40, 60, 3), (1002, 30, 80, 10), (3, 25, 40, 3), (1, 30, 50, 3)])
@pytest.mark.slow
def test_the_in_place_wide_beam_meets_the_positions_of_the_plain_one(
        deal: int, width: int, cap: int, w_inv: int) -> None:
    pos = Position.deal(get_game("leap-year"), deal)
    expected = reference_wide_beam(pos, width, cap, w_inv, 50)
    status, line, states, _ = core.testing_wide_beam(pos, width=width, cap=cap, w_inv=w_inv)
    assert (status, states) == expected
    if status == "won":
        assert_raw_line_wins(pos, line)


@pytest.mark.slow
def test_a_small_wide_beam_win_replays_and_matches_the_plain_one() -> None:
    """A win needs a beam wide enough; look for the narrowest of a few small settings that wins
    some tuning deal, so that the comparison above also covers a won run."""
    game = get_game("leap-year")
    for deal in (1002, 1021, 1023, 16, 3):
        pos = Position.deal(game, deal)
        for width, cap in ((120, 200), (300, 300)):
            status, line, states, _ = core.testing_wide_beam(pos, width=width, cap=cap)
            if status == "won":
                assert reference_wide_beam(pos, width, cap, 3, 50) == (status, states)
                assert_raw_line_wins(pos, line)
                return
    pytest.fail("no small wide beam won any of the deals tried")
