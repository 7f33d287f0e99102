"""Astrocyte against a second, naive reading of docs/rules.md.

The engine's move generator is fast and general. Here the rules of Astrocyte are written a
second time, slowly and literally, pile by pile and count by count, and both must agree on
every position met: random positions rich in same-suit runs, complete suits, full cells and
empty piles, and the positions of random playouts from them and from real deals. Playing a
move must also change the piles exactly as the rules say.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reussite.cards import ACE, KING, UP, build_deck, card, rank_of, suit_of
from reussite.engine import Move, Position, layout_of
from reussite.games import get_game

ASTROCYTE = get_game("astrocyte")


# ---------------------------------------------------------------------------------- the rules


def is_same_suit_run(cards: list[int]) -> bool:
    """*Same-suit run*: cards each one rank lower than the card under it, all of one suit,
    all face up."""
    return all(c & UP for c in cards) and all(
        suit_of(lower) == suit_of(upper) and rank_of(lower) == rank_of(upper) + 1
        for lower, upper in zip(cards, cards[1:], strict=False))


def reference_moves(pos: Position) -> set[Move]:
    """The moves docs/rules.md allows in this Astrocyte position, read literally."""
    piles = dict(zip(pos.layout.ids, pos.piles, strict=True))
    tableau = [f"tableau:{i}" for i in range(8)]
    cells = [f"cell:{i}" for i in range(4)]
    foundations = [f"foundation:{i}" for i in range(8)]
    moves: set[Move] = set()
    # The top card of a pile may move alone; a same-suit run may move as a unit.
    for src in tableau:
        pile = piles[src]
        for n in range(1, len(pile) + 1):
            unit = pile[-n:]
            if not is_same_suit_run(unit):
                break
            bottom = unit[0]
            for dst in tableau:
                if dst == src:
                    continue
                target = piles[dst]
                # An empty tableau pile accepts any card or any same-suit run; otherwise the
                # top card must be exactly one rank higher, any suit.
                if not target or rank_of(target[-1]) == rank_of(bottom) + 1:
                    moves.add(Move("move", src, dst, n))
            if n == 1:
                for dst in cells:
                    if not piles[dst]:  # any available card may go to an empty cell
                        moves.add(Move("move", src, dst, 1))
            # A complete same-suit run from King down to Ace, onto an empty foundation.
            if n == 13 and rank_of(bottom) == KING and rank_of(unit[-1]) == ACE:
                for dst in foundations:
                    if not piles[dst]:
                        moves.add(Move("move", src, dst, 13))
    # A card in a cell may go back to the tableau, or to another empty cell; never to a
    # foundation.
    for src in cells:
        if not piles[src]:
            continue
        c = piles[src][-1]
        for dst in tableau:
            target = piles[dst]
            if not target or rank_of(target[-1]) == rank_of(c) + 1:
                moves.add(Move("move", src, dst, 1))
        for dst in cells:
            if dst != src and not piles[dst]:
                moves.add(Move("move", src, dst, 1))
    # Cards never come back from a foundation. The stock deals only when no tableau pile is
    # empty.
    if piles["stock"] and all(piles[t] for t in tableau):
        moves.add(Move("stock"))
    return moves


def reference_play(piles: dict[str, list[int]], m: Move) -> dict[str, list[int]]:
    """The piles after ``m``, as the rules say (a copy)."""
    after = {pid: list(p) for pid, p in piles.items()}
    if m.kind == "stock":
        for i in range(8):  # one card face up onto each of the 8 piles, left to right
            after[f"tableau:{i}"].append(after["stock"].pop() | UP)
        return after
    moved = after[m.src][-m.count:]
    del after[m.src][-m.count:]
    after[m.dst] += moved
    src = after[m.src]
    if src and not src[-1] & UP:  # the uncovered card is turned face up at once
        src[-1] |= UP
    return after


# ---------------------------------------------------------------------------------- positions


def random_position(rng: random.Random) -> Position:
    """A random Astrocyte position (not always reachable), rich in what the rules care about:
    long same-suit runs, complete suits in the tableau and on foundations, runs of mixed
    suits, full and empty cells, empty piles, a stock of 0 to 40 cards."""
    pool = build_deck(2)
    rng.shuffle(pool)

    def take(value: int) -> bool:
        if value in pool:
            pool.remove(value)
            return True
        return False

    piles: dict[str, list[int]] = {}
    for f in range(8):
        suit = rng.randrange(4)
        if rng.random() < 0.25 and all(card(r, suit) in pool for r in range(1, 14)):
            for r in range(13, 0, -1):
                take(card(r, suit))
            piles[f"foundation:{f}"] = [card(r, suit) | UP for r in range(13, 0, -1)]
    for i in range(8):
        if rng.random() < 0.15:
            continue  # an empty pile
        down = [pool.pop() for _ in range(rng.randrange(0, 6))]
        up: list[int] = []
        for _ in range(rng.choice([1, 1, 2])):  # one run, or two of different suits
            top = KING if rng.random() < 0.3 else rng.randrange(1, 14)
            if up:
                top = rank_of(up[-1]) - 1
            suit = rng.randrange(4)
            length = 13 if top == KING and rng.random() < 0.5 else rng.randrange(1, 14)
            for r in range(top, max(top - length, 0), -1):
                if not take(card(r, suit)):
                    break
                up.append(card(r, suit) | UP)
        if not up and down:
            up.append(down.pop() | UP)
        piles[f"tableau:{i}"] = down + up
    for c in range(4):
        if rng.random() < 0.6 and pool:
            piles[f"cell:{c}"] = [pool.pop() | UP]
    piles["stock"] = pool[:min(rng.choice([0, 8, 16, 40]), len(pool) // 8 * 8)]  # whole deals
    return Position(ASTROCYTE, 0, [piles.get(pid, []) for pid in layout_of(ASTROCYTE).ids])


def check_agrees(pos: Position, rng: random.Random, steps: int) -> None:
    """The engine and the reference agree on this position and along a random playout."""
    for _ in range(steps):
        listed = pos.legal_moves()
        assert len(listed) == len(set(listed))
        assert set(listed) == reference_moves(pos)
        if not listed:
            return
        m = rng.choice(listed)
        expected = reference_play(dict(zip(pos.layout.ids, pos.piles, strict=True)), m)
        pos.play(m)
        assert dict(zip(pos.layout.ids, pos.piles, strict=True)) == expected


SETTINGS = settings(max_examples=60, derandomize=True, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_the_engine_agrees_with_the_rules_on_random_positions(seed: int) -> None:
    rng = random.Random(seed)
    check_agrees(random_position(rng), rng, steps=30)


@settings(SETTINGS, max_examples=20)
@given(number=st.integers(min_value=0, max_value=2**64 - 1),
       seed=st.integers(min_value=0, max_value=2**32))
def test_the_engine_agrees_with_the_rules_along_real_deals(number: int, seed: int) -> None:
    rng = random.Random(seed)
    check_agrees(Position.deal(ASTROCYTE, number), rng, steps=150)


def test_random_positions_reach_what_the_rules_care_about() -> None:
    """The random positions above do meet complete suits, foundation moves, full cells,
    empty piles and refused deals (else the comparison would prove little)."""
    seen: set[str] = set()
    rng = random.Random(1)
    for _ in range(200):
        pos = random_position(rng)
        moves = reference_moves(pos)
        if any(m.dst.startswith("foundation") for m in moves):
            seen.add("suit to foundation")
        if any(m.count > 1 for m in moves):
            seen.add("run moves")
        if all(pos.pile(f"cell:{i}") for i in range(4)):
            seen.add("cells full")
        if pos.pile("stock") and Move("stock") not in moves:
            seen.add("deal refused")
        if Move("stock") in moves:
            seen.add("deal")
        if pos.foundation_cards:
            seen.add("foundation")
    assert seen == {"suit to foundation", "run moves", "cells full", "deal refused", "deal",
                    "foundation"}
