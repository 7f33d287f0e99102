"""TriPeaks, each rule as docs/rules.md says it: three peaks over a row of ten, the uncovered
cards played onto the waste one rank above or below its top card, King and Ace wrapping."""

from __future__ import annotations

import pytest
from helpers import STOCK, make_position, move, pile_of

from reussite.cards import UP
from reussite.engine import IllegalMoveError, Position
from reussite.games import get_game
from reussite.solver.search import solve

PEAKS = {f"tableau:{i}": "(2C)" for i in range(18)}
"""Rows 1-3 face down (placeholders the tests replace)."""


def test_tripeaks_deals_18_face_down_10_face_up_one_card_to_the_waste_23_in_the_stock() -> None:
    """TriPeaks: 1 pack; 28 one-card piles, rows of 3, 6, 9 face down and 10 face up; one card
    turned onto the waste at the deal; the other 23 stay in the stock. No foundations."""
    pos = Position.deal(get_game("tripeaks"), 11)
    tab = list(pos.layout.tableau)
    assert [pos.layout.ids[i] for i in tab] == [f"tableau:{i}" for i in range(28)]
    assert all(len(pos.piles[i]) == 1 for i in tab)
    assert not any(pos.piles[i][0] & UP for i in tab[:18])
    assert all(pos.piles[i][0] & UP for i in tab[18:])
    assert len(pos.pile("waste")) == 1 and pos.pile("waste")[0] & UP
    assert len(pos.pile("stock")) == 23
    assert list(pos.layout.foundations) == [] and list(pos.layout.cells) == []


def test_tripeaks_each_card_of_rows_1_to_3_is_covered_by_two_cards_of_the_row_below() -> None:
    """TriPeaks: peak p's top by row-2 cards 2p, 2p+1; row-2 card 2p+q by row-3 cards 3p+q,
    3p+q+1; row-3 card i by row-4 cards i, i+1 (piles numbered row by row)."""
    covers = get_game("tripeaks").tableau.covers  # type: ignore[union-attr]
    assert covers[0] == (3, 4) and covers[2] == (7, 8)
    assert covers[3] == (9, 10) and covers[4] == (10, 11)
    assert covers[5] == (12, 13) and covers[8] == (16, 17)
    assert covers[9] == (18, 19) and covers[17] == (26, 27)
    assert covers[18:] == ((),) * 10


def test_tripeaks_an_uncovered_card_one_rank_away_goes_onto_the_waste_any_suit() -> None:
    """TriPeaks: a bottom-row card one rank above or below the waste's top goes onto it."""
    pos = make_position("tripeaks", {**PEAKS, "tableau:18": "8H", "tableau:19": "6C",
                                     "tableau:20": "9D", "waste": "7S", "stock": "2D"})
    legal = pos.legal_moves()
    assert move("tableau:18", "waste") in legal and move("tableau:19", "waste") in legal
    assert move("tableau:20", "waste") not in legal
    with pytest.raises(IllegalMoveError, match="one rank above or below its top card"):
        pos.play(move("tableau:20", "waste"))


def test_tripeaks_ranks_wrap_a_king_on_an_ace_and_an_ace_on_a_king() -> None:
    """TriPeaks: King and Ace wrap, both ways."""
    pos = make_position("tripeaks", {**PEAKS, "tableau:18": "KH", "tableau:19": "AD",
                                     "waste": "AS", "stock": "2D"})
    pos.play(move("tableau:18", "waste"))
    pos.play(move("tableau:19", "waste"))
    assert pile_of(pos, "waste") == "AS KH AD"


def test_tripeaks_a_covered_card_cannot_move_with_its_sentence() -> None:
    """TriPeaks: a card covered by a card still there cannot move, even face up."""
    pos = make_position("tripeaks", {**PEAKS, "tableau:9": "8D", "tableau:19": "5C",
                                     "waste": "7S", "stock": "2D"})
    assert move("tableau:9", "waste") not in pos.legal_moves()
    with pytest.raises(IllegalMoveError, match="covered by another card"):
        pos.play(move("tableau:9", "waste"))


def test_tripeaks_a_card_turns_up_when_both_cards_covering_it_are_gone() -> None:
    """TriPeaks: row-3 card 0 turns face up as the move that empties the second of row-4 cards
    0 and 1 ends, and then may move when it fits; undo turns it down again."""
    pos = make_position("tripeaks", {**PEAKS, "tableau:9": "(9C)", "tableau:18": "8H",
                                     "tableau:19": "9D", "waste": "7S", "stock": "2D TS"})
    pos.play(move("tableau:18", "waste"))
    assert pile_of(pos, "tableau:9") == "(9C)"
    pos.play(move("tableau:19", "waste"))
    assert pile_of(pos, "tableau:9") == "9C"
    assert (1, pos.layout.index["tableau:9"]) in pos.last_steps()
    assert move("tableau:9", "waste") not in pos.legal_moves()  # a 9 on a 9
    pos.play(STOCK)
    assert move("tableau:9", "waste") in pos.legal_moves()  # a 9 on the 10 turned
    pos.pop()
    pos.pop()
    pos.pop()
    assert pile_of(pos, "tableau:9") == "(9C)" and pile_of(pos, "tableau:19") == "9D"


def test_tripeaks_one_move_may_turn_up_two_cards() -> None:
    """TriPeaks: a bottom-row card covering two face-down cards, the last cover of both, turns
    both up in one move."""
    pos = make_position("tripeaks", {"tableau:9": "(9C)", "tableau:10": "(TD)",
                                     "tableau:19": "8D", "waste": "7S", "stock": "2D"})
    before = pos.copy()
    pos.play(move("tableau:19", "waste"))
    assert pile_of(pos, "tableau:9") == "9C" and pile_of(pos, "tableau:10") == "TD"
    pos.pop()
    assert pos == before


def test_tripeaks_nothing_is_ever_built_on_the_tableau() -> None:
    """TriPeaks: no card goes onto a tableau card or into an emptied place."""
    pos = make_position("tripeaks", {"tableau:18": "9C", "tableau:19": "8H", "waste": "8D",
                                     "stock": "2C"})
    legal = pos.legal_moves()
    assert all(m.dst == "waste" for m in legal if m.kind == "move")
    with pytest.raises(IllegalMoveError, match="Nothing is ever built on the tableau"):
        pos.play(move("tableau:19", "tableau:18"))
    with pytest.raises(IllegalMoveError, match="Nothing can be placed in a space"):
        pos.play(move("tableau:19", "tableau:20"))


def test_tripeaks_the_stock_turns_one_card_and_is_not_redealt() -> None:
    """TriPeaks: a click turns one card onto the waste; no redeal."""
    pos = make_position("tripeaks", {"tableau:18": "9C", "waste": "2D", "stock": "5H 4S"})
    pos.play(STOCK)
    assert pile_of(pos, "waste") == "2D 4S"
    pos.play(STOCK)
    with pytest.raises(IllegalMoveError, match="No redeal is left"):
        pos.play(STOCK)


def test_tripeaks_is_won_when_the_28_cards_are_cleared() -> None:
    """TriPeaks: won when the tableau is empty, whatever the stock holds."""
    pos = make_position("tripeaks", {"tableau:0": "5C", "waste": "4H", "stock": "9S 2D"})
    assert pos.status() == "playing"
    pos.play(move("tableau:0", "waste"))
    assert pos.status() == "won" and pos.cards_done == 28


def test_tripeaks_is_lost_when_no_move_is_left() -> None:
    """TriPeaks: lost when the stock is empty and no uncovered card fits the waste."""
    pos = make_position("tripeaks", {"tableau:0": "(6C)", "tableau:3": "7D",
                                     "tableau:18": "9C", "waste": "4H"})
    assert pos.legal_moves() == []
    assert pos.status() == "lost"


def test_tripeaks_the_solver_wins_a_deal_with_a_line_the_engine_replays() -> None:
    """TriPeaks: the full-information solver's won line replays to an empty tableau."""
    for number in range(20):
        pos = Position.deal(get_game("tripeaks"), number)
        result = solve(pos.copy(), time_limit=None, max_states=200_000)
        if result.status == "won":
            break
    assert result.status == "won"
    for m in result.moves:
        pos.play(m)
    assert pos.status() == "won"
