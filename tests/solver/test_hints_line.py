"""Hints and the game's line (docs/solver.md, "Hints"): a hint never leads to a position
already reached in the game; when the player's choice would, the hint goes by a new line to
progress; without a move it says why, and only when that is so."""

from __future__ import annotations

import pytest

from reussite.cards import UP, parse_card
from reussite.engine import STOCK_RAW, Position
from reussite.games import get_game
from reussite.observation import observe, repeat_key
from reussite.solver.hints import Line, advise, cannot_win, quick_hint, toward_progress

BUDGET = dict(time_limit=None, samples=2, states_per_sample=200)
"""A small budget in positions: the same hint on any machine."""


def reached(pos: Position) -> set[tuple[object, ...]]:
    """The keys of every position of ``pos``'s line, the present one included."""
    line = pos.copy()
    keys = {repeat_key(line)}
    while line.history:
        line.pop()
        keys.add(repeat_key(line))
    return keys


def after(pos: Position, raw: tuple[int, int, int]) -> tuple[object, ...]:
    pos.push_raw(raw)
    try:
        return repeat_key(pos)
    finally:
        pos.pop()


def round_trip(game: str, number: int) -> tuple[Position, tuple[int, int, int]]:
    """A position reached again by a move and its reversal, and that move: the hints are
    followed until one is a tableau move that turns nothing up and can be taken back by the
    reverse move; then the move and its reverse are played."""
    pos = Position.deal(get_game(game), number)
    kinds = pos.layout.kinds
    for _ in range(60):
        move = advise(pos, **BUDGET).move
        assert move is not None
        src, dst, n = move
        before = repeat_key(pos)
        pos.push_raw(move)
        back = (dst, src, n)
        if kinds[src] == kinds[dst] == "tableau" and len(pos.history[-1][1]) == 1 \
                and back in pos.raw_moves() and after(pos, back) == before:
            pos.push_raw(back)
            return pos, move
    pytest.fail(f"{game} {number}: no reversible hint in 60 moves")


@pytest.mark.parametrize("game", ["spider-1-suit", "spider", "astrocyte", "freds-spider"])
def test_after_a_move_and_its_reversal_the_hint_does_not_play_the_move_again(
        game: str) -> None:
    pos, move = round_trip(game, 5)
    hint = advise(pos, **BUDGET)
    assert hint.move != move
    if hint.move is not None:
        assert after(pos, hint.move) not in reached(pos)
    assert quick_hint(pos).move != move


@pytest.mark.slow
@pytest.mark.parametrize("game", ["klondike", "klondike-draw-3", "spider-2-suits", "athena",
                                  "leap-year", "quadrennial", "minerva", "auld-lang-syne"])
def test_hints_followed_never_come_back_and_say_why_they_stop(game: str) -> None:
    pos = Position.deal(get_game(game), 11)
    seen = {repeat_key(pos)}
    for _ in range(80):
        if pos.status() != "playing":
            break
        hint = advise(pos, **BUDGET)
        stand = observe(pos).stand_in()
        if hint.move is None:
            obs = observe(pos)
            assert hint.reason is not None
            assert (hint.reason == "cannot_win") == cannot_win(obs, stand)
            if hint.reason != "cannot_win":
                line = Line(obs, stand, pos)
                assert toward_progress(stand, line) == (None, True)
                can_deal = STOCK_RAW in pos.raw_moves() and after(pos, STOCK_RAW) not in seen
                assert (hint.reason == "undo_or_deal") == can_deal
            if hint.reason != "undo_or_deal":
                break
            move = STOCK_RAW
        else:
            assert hint.reason is None
            move = hint.move
        assert move in pos.raw_moves()
        pos.push_raw(move)
        key = repeat_key(pos)
        assert key not in seen, (game, len(pos.history))
        seen.add(key)


def spider_table(piles: list[list[str]]) -> Position:
    """A Spider 1 suit position with these tableau piles (face-up cards; ``?X`` face down)
    and nothing in the stock or at home."""
    rules = get_game("spider-1-suit")
    pos = Position.deal(rules, 1)
    lay = pos.layout
    table: list[list[int]] = [[] for _ in pos.piles]
    for i, codes in zip(lay.tableau, piles, strict=True):
        table[i] = [parse_card(c[1:]) if c.startswith("?") else parse_card(c) | UP
                    for c in codes]
    return Position(rules, 1, table)


def test_a_table_where_nothing_can_change_any_more_cannot_be_won_from_here() -> None:
    # The five can go onto either six, and no card can ever be turned up or go home.
    piles = [["KS", "5S"], ["6S"], ["6S"]] + [["KS"]] * 7
    pos = spider_table(piles)
    assert pos.raw_moves()
    hint = advise(pos)
    assert hint.move is None and hint.reason == "cannot_win"


def test_a_card_that_can_be_turned_up_is_a_useful_move() -> None:
    # The five leaves a face-down card for the six: the hint turns it up.
    piles = [["?2S", "5S"], ["6S"]] + [["KS"]] * 8
    pos = spider_table(piles)
    lay = pos.layout
    hint = advise(pos)
    assert hint == advise(pos) and hint.move == (lay.tableau[0], lay.tableau[1], 1)
