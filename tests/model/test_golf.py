"""Golf, each rule as docs/rules.md says it: seven piles of five face up, their top cards played
onto the waste one rank above or below its top card, the stock turned one card at a time."""

from __future__ import annotations

import pytest
from helpers import STOCK, make_position, move, pile_of

from reussite.cards import UP
from reussite.engine import IllegalMoveError, Position
from reussite.games import get_game
from reussite.solver.search import solve


def test_golf_deals_7_piles_of_5_face_up_one_card_to_the_waste_16_in_the_stock() -> None:
    """Golf: 1 pack; 7 piles of 5 cards, all face up; one card turned onto the waste at the
    deal; the other 16 stay in the stock. No foundations, no cells."""
    pos = Position.deal(get_game("golf"), 7)
    assert [len(pos.piles[i]) for i in pos.layout.tableau] == [5] * 7
    assert all(c & UP for i in pos.layout.tableau for c in pos.piles[i])
    assert len(pos.pile("waste")) == 1 and pos.pile("waste")[0] & UP
    assert len(pos.pile("stock")) == 16 and not any(c & UP for c in pos.pile("stock"))
    assert list(pos.layout.foundations) == [] and list(pos.layout.cells) == []


def test_golf_the_waste_card_at_the_deal_is_the_stocks_next_card() -> None:
    """Golf: the card turned at the deal is the one a click would have turned."""
    pos = Position.deal(get_game("golf"), 7)
    before = list(pos.pile("stock"))
    pos.play(STOCK)
    assert pos.pile("waste")[-1] == before[-1] | UP


def test_golf_a_top_card_one_rank_above_or_below_goes_onto_the_waste_any_suit() -> None:
    """Golf: the top card of a pile goes onto the waste when it is one rank above or below the
    waste's top card, whatever the suits."""
    pos = make_position("golf", {"tableau:0": "KS 8H", "tableau:1": "6C", "tableau:2": "9D",
                                 "waste": "7S", "stock": "2C"})
    legal = pos.legal_moves()
    assert move("tableau:0", "waste") in legal
    assert move("tableau:1", "waste") in legal
    assert move("tableau:2", "waste") not in legal
    pos.play(move("tableau:0", "waste"))
    assert pile_of(pos, "waste") == "7S 8H" and pile_of(pos, "tableau:0") == "KS"


def test_golf_refuses_a_card_two_ranks_away_with_its_sentence() -> None:
    """Golf: any other card is refused with the rule's sentence."""
    pos = make_position("golf", {"tableau:0": "9D", "waste": "7S", "stock": "2C"})
    with pytest.raises(IllegalMoveError, match="one rank above or below its top card"):
        pos.play(move("tableau:0", "waste"))


def test_golf_ranks_do_not_wrap_nothing_on_an_ace_but_a_2() -> None:
    """Golf: no wrapping: a King never goes on an Ace, nor an Ace on a King."""
    pos = make_position("golf", {"tableau:0": "KH", "tableau:1": "2D", "tableau:2": "AC",
                                 "waste": "AS", "stock": "2C"})
    legal = pos.legal_moves()
    assert move("tableau:0", "waste") not in legal
    assert move("tableau:1", "waste") in legal
    pos = make_position("golf", {"tableau:0": "AH", "waste": "KS", "stock": "2C"})
    with pytest.raises(IllegalMoveError, match="one rank above or below"):
        pos.play(move("tableau:0", "waste"))


def test_golf_a_queen_goes_on_a_king_and_a_king_on_a_queen() -> None:
    """Golf: the decision of the notes: a Queen may go on a King (as in PySol's Golf), and a
    King on a Queen."""
    pos = make_position("golf", {"tableau:0": "QH", "tableau:1": "KD", "waste": "KS",
                                 "stock": "2C"})
    assert move("tableau:0", "waste") in pos.legal_moves()
    pos.play(move("tableau:0", "waste"))
    pos.play(move("tableau:1", "waste"))
    assert pile_of(pos, "waste") == "KS QH KD"


def test_golf_nothing_is_ever_built_on_the_tableau() -> None:
    """Golf: no card goes onto a tableau pile, from the waste or from another pile, nor into
    an emptied pile."""
    pos = make_position("golf", {"tableau:0": "9C", "tableau:1": "8H", "waste": "8D",
                                 "stock": "2C"})
    legal = pos.legal_moves()
    assert all(m.dst != "tableau:0" and m.dst != "tableau:2" for m in legal if m.kind == "move")
    with pytest.raises(IllegalMoveError, match="Nothing is ever built on the tableau"):
        pos.play(move("tableau:1", "tableau:0"))
    with pytest.raises(IllegalMoveError, match="Nothing is ever built on the tableau"):
        pos.play(move("waste", "tableau:0"))
    with pytest.raises(IllegalMoveError, match="Nothing can be placed in a space"):
        pos.play(move("tableau:1", "tableau:2"))


def test_golf_cards_go_onto_the_waste_one_at_a_time_from_the_tableau_only() -> None:
    """Golf: only the top card of a pile moves, and only a tableau card goes onto the
    waste."""
    pos = make_position("golf", {"tableau:0": "9C 8H", "waste": "7D", "stock": "2C"})
    with pytest.raises(IllegalMoveError, match="one at a time"):
        pos.play(move("tableau:0", "waste", 2))
    with pytest.raises(IllegalMoveError, match="Cards cannot be taken from the stock"):
        pos.play(move("stock", "waste"))


def test_golf_the_stock_turns_one_card_onto_the_waste_and_is_not_redealt() -> None:
    """Golf: a click turns one card onto the waste; once the stock is empty there is no
    redeal."""
    pos = make_position("golf", {"tableau:0": "9C", "waste": "2D", "stock": "5H 4S"})
    pos.play(STOCK)
    assert pile_of(pos, "waste") == "2D 4S" and pile_of(pos, "stock") == "(5H)"
    pos.play(STOCK)
    assert STOCK not in pos.legal_moves()
    with pytest.raises(IllegalMoveError, match="No redeal is left"):
        pos.play(STOCK)


def test_golf_is_won_when_the_seven_piles_are_empty_even_with_cards_in_the_stock() -> None:
    """Golf: won when the tableau is empty; the stock may still hold cards."""
    pos = make_position("golf", {"tableau:3": "5C", "waste": "4H", "stock": "9S 2D"})
    assert pos.status() == "playing"
    pos.play(move("tableau:3", "waste"))
    assert pos.status() == "won"
    assert pos.cards_done == 35


def test_golf_is_lost_when_no_move_is_left() -> None:
    """Golf: lost (the clear end) when the stock is empty and no top card fits the waste."""
    pos = make_position("golf", {"tableau:0": "9C", "tableau:1": "JD", "waste": "4H"})
    assert pos.legal_moves() == []
    assert pos.status() == "lost"


def test_golf_a_waste_move_is_taken_back_exactly() -> None:
    """Golf: a card played onto the waste comes back to its pile on undo."""
    pos = Position.deal(get_game("golf"), 2)
    before = pos.copy()
    for m in pos.legal_moves():
        pos.play(m)
        pos.pop()
        assert pos == before


def test_golf_the_solver_wins_a_deal_with_a_line_the_engine_replays() -> None:
    """Golf: the full-information solver's won line replays to an empty tableau."""
    pos = Position.deal(get_game("golf"), 2)
    result = solve(pos.copy(), time_limit=None, max_states=400_000)
    assert result.status == "won"
    for m in result.moves:
        pos.play(m)
    assert pos.status() == "won"
    assert all(not pos.piles[i] for i in pos.layout.tableau)
