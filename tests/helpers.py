"""Helpers for tests: build a position by hand from pile strings, and read piles back.

A pile string lists the cards of a pile from the bottom card to the top card, separated by
spaces; a card in parentheses lies face down::

    make_position("astrocyte", {"tableau:0": "(5H) KS QS", "cell:0": "7D", "stock": "(2C) (3C)"})

Piles not named are empty. In the stock the last card is the one dealt next; stock cards are
face down whether or not they are written in parentheses (the stock is never face up).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from collections.abc import Mapping

from reussite.cards import UP, card_code, parse_card
from reussite.engine import Move, Position, layout_of
from reussite.games import get_game
from reussite.solver.core import Settings


def parse_pile(text: str) -> list[int]:
    """Card values from a pile string such as ``"(5H) KS QS"`` (parentheses: face down)."""
    cards: list[int] = []
    for token in text.split():
        if token.startswith("(") and token.endswith(")"):
            cards.append(parse_card(token[1:-1]))
        else:
            cards.append(parse_card(token) | UP)
    return cards


def pile_text(cards: list[int]) -> str:
    """The pile string of a list of card values (the inverse of :func:`parse_pile`)."""
    return " ".join(card_code(c) if c & UP else f"({card_code(c)})" for c in cards)


def make_position(game_id: str, piles: Mapping[str, str], *, redeals_used: int = 0,
                  number: int = 0) -> Position:
    """A position of ``game_id`` with the given piles (by pile id); the others are empty."""
    rules = get_game(game_id)
    pos = Position(rules, number, [[] for _ in layout_of(rules).ids], redeals_used)
    for pid, text in piles.items():
        if pid not in pos.layout.index:
            raise KeyError(f"{game_id} has no pile {pid!r}")
        cards = parse_pile(text)
        if pid == "stock":
            cards = [c & ~UP for c in cards]
        pos.piles[pos.layout.index[pid]] = cards
    return pos


def pile_of(pos: Position, pile_id: str) -> str:
    """The pile string of one pile of a position."""
    return pile_text(pos.pile(pile_id))


def piles_of(pos: Position) -> dict[str, str]:
    """Every pile of a position as a pile string, keyed by pile id."""
    return {pid: pile_text(p) for pid, p in zip(pos.layout.ids, pos.piles, strict=True)}


def card_counts(pos: Position) -> Counter[str]:
    """How many times each card code occurs in the position, face up or down."""
    return Counter(card_code(c) for p in pos.piles for c in p)


def move(src: str, dst: str, count: int = 1) -> Move:
    """A move of the top ``count`` cards of ``src`` onto ``dst``."""
    return Move("move", src, dst, count)


STOCK = Move("stock")


def fixed_playout(pos: Position, steps: int = 60) -> tuple[list[int], str]:
    """Play a fixed, deterministic sequence: at step ``s`` the legal move of index
    ``(s * 7) % len(moves)``. Returns the number of legal moves met at each step (until none
    remain) and a digest of the final position, to pin the move generator ("perft")."""
    counts: list[int] = []
    for step in range(steps):
        moves = pos.legal_moves()
        counts.append(len(moves))
        if not moves:
            break
        pos.play(moves[(step * 7) % len(moves)])
    final = json.dumps(piles_of(pos), sort_keys=True) + f"|{pos.redeals_used}"
    return counts, hashlib.sha256(final.encode()).hexdigest()


NO_CARD_SET = Settings(card_set=False)
"""For tests of the other phases of the C core's solver: the card-set search (which decides most
Klondike deals first, tests/solver/test_solver_cardset.py) off, for the calls that pass it."""


def random_walk(pos: Position, rng: random.Random, steps: int) -> Position:
    """Play up to ``steps`` legal raw moves drawn by ``rng`` on ``pos`` (stops where none is
    legal); ``pos`` itself."""
    for _ in range(steps):
        moves = pos.raw_moves()
        if not moves:
            break
        pos.push_raw(rng.choice(moves))
    return pos


def assert_raw_line_wins(pos: Position, line: list[tuple[int, int, int]]) -> None:
    """Each raw move of ``line`` is legal in turn from ``pos`` (played on a copy), and the
    engine ends in a won position."""
    replay = pos.copy()
    for m in line:
        assert m in replay.raw_moves()
        replay.push_raw(m)
    assert replay.is_won()


# ---------------------------------------------------------------------- lines lost on purpose

ANALYSIS_STATES = 200_000
"""Positions for each solve of the lines below (the same answers on any machine)."""


def after(pos: Position, line: list[tuple[int, int, int]]) -> Position:
    """A copy of ``pos`` after ``line``, each move checked."""
    out = pos.copy()
    for raw in line:
        out.play(out.to_move(raw))
    return out


def losing_deviation(pos: Position, line: list[tuple[int, int, int]],
                     start: int) -> tuple[int, tuple[int, int, int]]:
    """The first index ``k >= start`` of a winning ``line`` where another legal move loses the
    game (proved by the solver), with that move."""
    from reussite.solver.search import solve

    here = after(pos, line[:start])
    for k in range(start, len(line)):
        for alt in here.raw_moves():
            if alt == line[k]:
                continue
            there = here.copy()
            there.push_raw(alt)
            if solve(there, time_limit=None, max_states=ANALYSIS_STATES).status == "lost":
                return k, alt
        here.push_raw(line[k])
    raise AssertionError("no losing deviation on this line")


def carry_on(pos: Position, moves: int) -> list[tuple[int, int, int]]:
    """Up to ``moves`` more legal moves from ``pos``, the first listed each time."""
    out: list[tuple[int, int, int]] = []
    here = pos.copy()
    for _ in range(moves):
        legal = here.raw_moves()
        if not legal:
            break
        out.append(legal[0])
        here.push_raw(legal[0])
    return out


def lost_on_purpose(game: str = "klondike", number: int = 1, start: int = 10,
                    more: int = 40) -> tuple[Position, list[tuple[int, int, int]], int]:
    """A deal the solver wins, a player's line that follows the solver's win, throws it away
    with one move (the solver proves the position after it lost), then plays ``more`` moves:
    the deal, the line, and the number of the losing move (from 1)."""
    from reussite.solver.search import solve

    pos = Position.deal(get_game(game), number)
    won = solve(pos, time_limit=None, max_states=ANALYSIS_STATES)
    assert won.status == "won"
    k, alt = losing_deviation(pos, won.raw_line, start)
    line = won.raw_line[:k] + [alt]
    line += carry_on(after(pos, line), more)
    return pos, line, k + 1
