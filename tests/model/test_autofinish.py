"""Auto-finish: offered once nothing is left to decide, and its line wins."""

from __future__ import annotations

from functools import cache

from reussite.autofinish import finishing_line
from reussite.cards import UP
from reussite.engine import Move, Position
from reussite.games import CATALOGUE, get_game
from reussite.solver.search import solve


@cache
def won_line(game: str, number: int) -> tuple[Move, ...]:
    result = solve(Position.deal(get_game(game), number), time_limit=30)
    assert result.status == "won"
    return tuple(result.moves)


def first_finishable(game: str, number: int) -> tuple[Position, int]:
    """The first position of a winning line where the game can be finished."""
    pos = Position.deal(get_game(game), number)
    for i, move in enumerate(won_line(game, number)):
        if finishing_line(pos) is not None:
            return pos, i
        pos.play(move)
    raise AssertionError("never finishable before the win")


def test_klondike_2393_is_finished_through_the_stock() -> None:
    pos, _ = first_finishable("klondike", 2393)
    line = finishing_line(pos)
    assert line is not None
    assert pos.piles[0], "cards are left in the stock: the line clicks through it"
    assert all(c & UP for i, p in enumerate(pos.piles) if i != 0 for c in p)
    foundations = pos.layout.foundations
    for raw in line:
        assert raw in pos.raw_moves()
        assert raw[0] == -1 or (raw[1] in foundations and raw[0] not in foundations)
        pos.push_raw(raw)
    assert pos.is_won()


def test_no_finish_while_a_card_lies_face_down_outside_the_stock() -> None:
    pos = Position.deal(get_game("klondike"), 2393)
    for move in won_line("klondike", 2393):
        hidden = any(not c & UP for i, p in enumerate(pos.piles) if i != 0 for c in p)
        if hidden:
            assert finishing_line(pos) is None
        pos.play(move)


def test_draw_three_and_athena_are_finished_too() -> None:
    for game, number in (("klondike-draw-3", 5), ("athena", 3)):
        pos, i = first_finishable(game, number)
        line = finishing_line(pos)
        assert line is not None and i < len(won_line(game, number))
        for raw in line:
            pos.push_raw(raw)
        assert pos.is_won()


def test_a_stock_that_deals_onto_the_tableau_is_left_to_the_player() -> None:
    """In Spider and its relatives every card may be face up while the stock holds cards:
    dealing them is a decision, never taken for the player."""
    for game in CATALOGUE:
        pos = Position.deal(get_game(game), 1)
        if pos.rules.stock.action.name != "DRAW_TO_WASTE" and pos.piles[0]:
            pos.piles = [[c | UP for c in p] if i else p for i, p in enumerate(pos.piles)]
            assert finishing_line(pos) is None, game


def test_a_fresh_deal_is_not_finished() -> None:
    for game in CATALOGUE:
        assert finishing_line(Position.deal(get_game(game), 1)) is None, game
