"""Athena, rule by rule, as docs/rules.md states them."""

from __future__ import annotations

import pytest
from helpers import STOCK, make_position, move, pile_of

from reussite.cards import UP, build_deck
from reussite.deals import shuffled
from reussite.engine import IllegalMoveError, Position
from reussite.games import get_game

SEVEN_PILES = [f"tableau:{i}" for i in range(7)]


def test_each_pile_gets_4_cards_down_up_down_up_and_24_form_the_stock() -> None:
    """Deal: each tableau pile gets exactly 4 cards dealt in rows: the 1st (bottom) face down,
    the 2nd face up, the 3rd face down, the 4th (top) face up. The other 24 form the stock."""
    pos = Position.deal(get_game("athena"), 2)
    for p in SEVEN_PILES:
        assert [bool(c & UP) for c in pos.pile(p)] == [False, True, False, True]
    assert len(pos.pile("stock")) == 24
    assert not any(c & UP for c in pos.pile("stock"))
    assert pos.pile("waste") == []
    assert all(pos.pile(f"foundation:{i}") == [] for i in range(4))


def test_the_deal_goes_in_rows_one_card_to_each_pile() -> None:
    """Deal: the cards are dealt in rows, one card to each pile in turn."""
    pos = Position.deal(get_game("athena"), 2)
    order = list(reversed(shuffled(build_deck(1), 2)))
    for row in range(4):
        for i, p in enumerate(SEVEN_PILES):
            assert pos.pile(p)[row] & 63 == order[row * 7 + i]


def test_build_down_in_alternating_colours() -> None:
    """Tableau: build down in alternating colours (only the red 7s on a black 8)."""
    pos = make_position("athena", {"tableau:0": "8S", "tableau:1": "7H", "tableau:2": "7D",
                                   "tableau:3": "7C", "tableau:4": "7S"})
    legal = pos.legal_moves()
    assert move("tableau:1", "tableau:0") in legal
    assert move("tableau:2", "tableau:0") in legal
    for same_colour in ("tableau:3", "tableau:4"):
        with pytest.raises(IllegalMoveError, match="alternating colours"):
            pos.play(move(same_colour, "tableau:0"))


def test_a_face_up_card_moves_with_the_alternating_run_on_top_of_it() -> None:
    """A face-up card may move together with the cards on top of it if they form a descending
    alternating run."""
    pos = make_position("athena", {"tableau:0": "(2C) 9S 8H 7C", "tableau:1": "TH",
                                   "tableau:2": "9C", "tableau:3": "8D"})
    legal = pos.legal_moves()
    assert move("tableau:0", "tableau:1", 3) in legal
    assert move("tableau:0", "tableau:2", 2) in legal
    assert move("tableau:0", "tableau:3", 1) in legal
    pos.play(move("tableau:0", "tableau:1", 3))
    assert pile_of(pos, "tableau:1") == "TH 9S 8H 7C"
    assert pile_of(pos, "tableau:0") == "2C"


def test_a_run_that_is_not_alternating_does_not_move_as_a_unit() -> None:
    """Only a descending alternating run moves as a unit."""
    pos = make_position("athena", {"tableau:0": "9S 8H 7D", "tableau:1": "TD"})
    with pytest.raises(IllegalMoveError, match="alternating colours can move as a unit"):
        pos.play(move("tableau:0", "tableau:1", 3))


def test_a_face_down_card_is_never_part_of_a_run() -> None:
    """A face-down card is never part of a run (a face-up card can lie under a face-down one)."""
    pos = make_position("athena", {"tableau:0": "(TD) 9S (8H) 7C", "tableau:1": "TH",
                                   "tableau:2": "8D"})
    legal = pos.legal_moves()
    assert [m for m in legal if m.src == "tableau:0"] == [move("tableau:0", "tableau:2")]
    with pytest.raises(IllegalMoveError, match="face-down card cannot move"):
        pos.play(move("tableau:0", "tableau:1", 3))
    pos.play(move("tableau:0", "tableau:2"))
    assert pile_of(pos, "tableau:0") == "(TD) 9S 8H"


def test_an_empty_pile_can_only_be_filled_by_a_king_or_a_run_led_by_a_king() -> None:
    """An empty pile can only be filled by a King or a run led by a King."""
    pos = make_position("athena", {"tableau:0": "3D KS QH JC", "tableau:1": "QD",
                                   "waste": "KH", "foundation:0": "AC"})
    legal = pos.legal_moves()
    assert move("tableau:0", "tableau:6", 3) in legal
    assert move("waste", "tableau:6") in legal
    for n in (1, 2):
        assert move("tableau:0", "tableau:6", n) not in legal
    with pytest.raises(IllegalMoveError, match="Only a King or a run led by a King"):
        pos.play(move("tableau:1", "tableau:6"))
    with pytest.raises(IllegalMoveError, match="Only a King or a run led by a King"):
        pos.play(move("tableau:0", "tableau:6", 2))
    pos.play(move("tableau:0", "tableau:6", 3))
    assert pile_of(pos, "tableau:6") == "KS QH JC"


def test_any_ace_goes_to_an_empty_foundation_then_build_up_in_suit() -> None:
    """Foundations: any Ace goes to an empty foundation; then build up in suit to King."""
    pos = make_position("athena", {"tableau:0": "AH", "tableau:1": "2S", "tableau:2": "2H",
                                   "foundation:1": "AS"})
    legal = pos.legal_moves()
    ace_to = {m.dst for m in legal if m.src == "tableau:0" and m.dst.startswith("foundation")}
    assert ace_to == {"foundation:0", "foundation:2", "foundation:3"}
    with pytest.raises(IllegalMoveError, match="An empty foundation takes only an Ace"):
        pos.play(move("tableau:1", "foundation:0"))
    with pytest.raises(IllegalMoveError, match="A foundation builds up in suit"):
        pos.play(move("tableau:2", "foundation:1"))
    pos.play(move("tableau:1", "foundation:1"))
    assert pile_of(pos, "foundation:1") == "AS 2S"


def test_the_top_card_of_a_foundation_may_come_back_onto_a_tableau_pile_that_accepts_it() -> None:
    """The top card of a foundation may come back to play onto a tableau pile that accepts it."""
    pos = make_position("athena", {"foundation:0": "AS 2S 3S", "tableau:0": "4H",
                                   "tableau:1": "4C"})
    legal = pos.legal_moves()
    assert move("foundation:0", "tableau:0") in legal
    assert move("foundation:0", "tableau:1") not in legal
    pos.play(move("foundation:0", "tableau:0"))
    assert pile_of(pos, "tableau:0") == "4H 3S"
    assert pile_of(pos, "foundation:0") == "AS 2S"


def test_a_click_deals_three_cards_to_the_waste_fewer_if_fewer_remain() -> None:
    """Stock and waste: click to deal three cards to the waste (fewer if fewer remain)."""
    pos = make_position("athena", {"stock": "5C 4D 3H 2S AC"})
    pos.play(STOCK)
    assert pile_of(pos, "waste") == "AC 2S 3H"
    assert pile_of(pos, "stock") == "(5C) (4D)"
    pos.play(STOCK)
    assert pile_of(pos, "waste") == "AC 2S 3H 4D 5C"
    assert pos.pile("stock") == []


def test_the_top_card_of_the_waste_is_available() -> None:
    """The top card of the waste is available (to the tableau or a foundation); the cards under
    it are not."""
    pos = make_position("athena", {"waste": "AD 2C 7H", "tableau:0": "8C",
                                   "foundation:0": "AH 2H 3H 4H 5H 6H"})
    legal = pos.legal_moves()
    assert move("waste", "tableau:0") in legal
    assert move("waste", "foundation:0") in legal
    with pytest.raises(IllegalMoveError, match="Only one card at a time"):
        pos.play(move("waste", "tableau:0", 2))


def test_turning_the_waste_over_keeps_the_original_order_any_number_of_times() -> None:
    """When the stock is empty, a click turns the waste over to form the stock again, in the
    original order; unlimited redeals."""
    pos = Position.deal(get_game("athena"), 6)
    original = list(pos.pile("stock"))
    waste_order = None
    for _ in range(5):
        for _ in range(8):
            pos.play(STOCK)
        assert pos.pile("stock") == []
        if waste_order is None:
            waste_order = list(pos.pile("waste"))
        assert pos.pile("waste") == waste_order
        pos.play(STOCK)
        assert pos.pile("stock") == original
        assert pos.pile("waste") == []
    assert pos.redeals_left is None
    assert pos.redeals_used == 5


def test_turning_the_waste_over_is_taken_back_exactly() -> None:
    """Undo of the turn-over puts the waste back face up, in its order, and the redeal count."""
    pos = make_position("athena", {"waste": "AC 2S 3H"})
    before = pos.copy()
    pos.play(STOCK)
    assert pile_of(pos, "stock") == "(3H) (2S) (AC)"
    pos.pop()
    assert pos == before


def test_a_face_down_card_is_turned_up_as_soon_as_it_becomes_the_top_card() -> None:
    """A face-down card is turned up as soon as it becomes the top card of its pile."""
    pos = make_position("athena", {"tableau:0": "(4S) 9H (KD) 7C", "tableau:1": "8H"})
    pos.play(move("tableau:0", "tableau:1"))
    assert pile_of(pos, "tableau:0") == "(4S) 9H KD"


def test_a_foundation_card_comes_back_to_the_tableau_not_to_another_foundation() -> None:
    """The top card of a foundation may come back to play onto a tableau pile: only there."""
    pos = make_position("athena", {"foundation:0": "AS", "foundation:1": ""})
    with pytest.raises(IllegalMoveError, match="not to a foundation"):
        pos.play(move("foundation:0", "foundation:1"))
