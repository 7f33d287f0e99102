"""Klondike-type games: the order bound that proves a position lost (``order_lost``).

See ``docs/solver.md`` ("The order bound") for the proof.
The search checks it at the root only (a deal so proved is lost at 0 positions).
"""

from __future__ import annotations

import random

import pytest

from reussite.cards import UP, card
from reussite.engine import Position
from reussite.games import get_game
from reussite.solver import core
from reussite.solver.search import Budget, _search, knowledge, solve

S, H, D, C = range(4)
GAMES = ["klondike-draw-3", "klondike", "athena", "minerva"]


def deadlock_position(seven_of_clubs_in_stock: bool) -> Position:
    """Klondike draw 3 near its end. Home: spades and clubs to 6, hearts to 4, all diamonds.
    Pile 1: 5H, 7S, 7C face down, 6H face up (with ``seven_of_clubs_in_stock``: no 7C there,
    and the first click shows it); piles 2 and 3: face-up runs from KS and from KH; the rest
    in the stock. The 6H can go home only after the 5H under it, and its two places on the
    tableau (7S, 7C) lie under it: stuck for good."""
    rules = get_game("klondike-draw-3")
    lay = Position.deal(rules, 1).layout
    piles: list[list[int]] = [[] for _ in lay.ids]
    for f, (suit, top) in zip(lay.foundations, ((S, 6), (H, 4), (D, 13), (C, 6)), strict=True):
        piles[f] = [card(r, suit) | UP for r in range(1, top + 1)]
    t = list(lay.tableau)
    piles[t[0]] = [card(5, H), card(7, S)] + ([] if seven_of_clubs_in_stock
                                               else [card(7, C)]) + [card(6, H) | UP]
    piles[t[1]] = [card(r, s) | UP
                   for r, s in ((13, S), (12, H), (11, C), (10, H), (9, C), (8, H))]
    piles[t[2]] = [card(r, s) | UP
                   for r, s in ((13, H), (12, S), (11, H), (10, S), (9, H), (8, S), (7, H))]
    stock = [card(r, s) for r, s in ((11, S), (9, S), (12, C), (10, C), (8, C), (13, C))]
    if seven_of_clubs_in_stock:
        stock.insert(len(stock) - 2, card(7, C))  # the third card dealt: the waste's top
    piles[0] = stock
    pos = Position(rules, 0, piles)
    assert sorted(c & 63 for p in piles for c in p) == list(range(4, 56))
    return pos


def test_the_order_bound_a_card_stuck_over_the_card_it_waits_for() -> None:
    """The search without the bound sees every position (lost); the bound proves it at once,
    in both engines, and ``solve`` answers lost at 0 positions."""
    pos = deadlock_position(seven_of_clubs_in_stock=False)
    info = knowledge(pos)
    assert _search(pos, info, Budget(None, 100_000), 0, None, False)[0] == "lost"
    assert info.order_lost(pos) and core.testing_order_lost(pos)
    for engine in ("python", "c"):
        result = solve(pos, time_limit=None, max_states=100_000, engine=engine)
        assert (result.status, result.states) == ("lost", 0), engine


def test_the_order_bound_leaves_the_winnable_twin_alone() -> None:
    """The same position with the 7C in the stock: the 6H goes onto it, and the deal is won."""
    pos = deadlock_position(seven_of_clubs_in_stock=True)
    info = knowledge(pos)
    assert not info.order_lost(pos) and not core.testing_order_lost(pos)
    assert _search(pos, info, Budget(None, 100_000), 0, None, False)[0] == "won"


@pytest.mark.parametrize(("game_id", "number"), [("klondike-draw-3", 22),
                                                 ("klondike-draw-3", 29),
                                                 ("klondike-draw-3", 34),
                                                 ("klondike", 4), ("klondike", 6)])
def test_the_order_bound_never_fires_on_a_winning_line(game_id: str, number: int) -> None:
    """Every position of a winning line can be won: the bound must never call one lost."""
    pos = Position.deal(get_game(game_id), number)
    status, line, _ = core.solve_raw(pos, None, 1_000_000, False)
    assert status == "won"
    info = knowledge(pos)
    for m in line:
        assert not info.order_lost(pos) and not core.testing_order_lost(pos), (game_id, number)
        pos.push_raw(m)
    assert pos.is_won()


@pytest.mark.parametrize("game_id", GAMES)
def test_the_order_bound_matches_the_python_one(game_id: str) -> None:
    """``order_lost`` answers alike in C and Python on random positions (random play strands
    cards often enough that both answers occur)."""
    rng = random.Random(59)
    answers = set()
    for number in range(30):
        pos = Position.deal(get_game(game_id), number)
        for _ in range(200):
            moves = pos.raw_moves()
            if not moves:
                break
            pos.push_raw(rng.choice(moves))
            if rng.random() < 0.25:
                got = knowledge(pos).order_lost(pos)
                assert core.testing_order_lost(pos) == got, (game_id, number)
                answers.add(got)
    assert answers == {True, False}, game_id


@pytest.mark.parametrize("number", [13, 48, 167])
def test_klondike_draw_3_deals_lost_at_the_root(number: int) -> None:
    """Deals 13, 48 and 167 of Klondike draw 3 (unknown at 10 s of CPU before the bound): lost
    at 0 positions in both engines. Deal 167 needs the stock's cards to be placed too: a
    parent in the stock is of use only once it can reach the tableau (the events ``E``)."""
    pos = Position.deal(get_game("klondike-draw-3"), number)
    for engine in ("python", "c"):
        result = solve(pos, time_limit=None, max_states=1_000, engine=engine)
        assert (result.status, result.states) == ("lost", 0), engine
