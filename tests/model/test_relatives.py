"""The relatives named by the pages (the catalogue's second ring), each as the "Relatives" part
of docs/rules.md says: Klondike (draw 1, draw 3), Fred's Spider, Auld Lang Syne, Quadrennial,
Minerva."""

from __future__ import annotations

import pytest
from helpers import STOCK, make_position, move, pile_of

from reussite.cards import ACE, UP, card_code, rank_of
from reussite.engine import IllegalMoveError, Position
from reussite.games import get_game

KLONDIKES = ["klondike", "klondike-draw-3"]


def up_flags(pos: Position, pile_id: str) -> list[bool]:
    return [bool(c & UP) for c in pos.pile(pile_id)]


# ------------------------------------------------------------------------------------ Klondike


@pytest.mark.parametrize("game_id", KLONDIKES)
def test_klondike_7_piles_of_1_to_7_cards_with_the_top_card_up(game_id: str) -> None:
    """Klondike: 1 deck, 7 piles of 1..7 cards with the top card up; the rest is the stock."""
    pos = Position.deal(get_game(game_id), 8)
    for i in range(7):
        assert up_flags(pos, f"tableau:{i}") == [False] * i + [True]
    assert len(pos.pile("stock")) == 52 - 28
    assert pos.pile("waste") == []


@pytest.mark.parametrize(("game_id", "drawn"), [("klondike", 1), ("klondike-draw-3", 3)])
def test_klondike_stock_to_waste_draw_1_or_draw_3(game_id: str, drawn: int) -> None:
    """Klondike: stock to waste, draw 1 or draw 3 (two catalogue entries)."""
    pos = Position.deal(get_game(game_id), 8)
    stock = list(pos.pile("stock"))
    pos.play(STOCK)
    assert pos.pile("waste") == [c | UP for c in reversed(stock[-drawn:])]
    assert len(pos.pile("stock")) == 24 - drawn


@pytest.mark.parametrize("game_id", KLONDIKES)
def test_klondike_unlimited_redeals(game_id: str) -> None:
    """Klondike: unlimited redeals (the waste turned over keeps its order)."""
    pos = make_position(game_id, {"stock": "(2C) (KD) (5H)"})
    for _ in range(4):
        while pos.pile("stock"):
            pos.play(STOCK)
        assert pile_of(pos, "waste") == "5H KD 2C"
        pos.play(STOCK)
        assert pile_of(pos, "stock") == "(2C) (KD) (5H)"
    assert pos.redeals_left is None


@pytest.mark.parametrize("game_id", KLONDIKES)
def test_klondike_alternating_colours_and_kings_only_in_spaces(game_id: str) -> None:
    """Klondike: alternating colours, Kings only in spaces."""
    pos = make_position(game_id, {"tableau:0": "9C", "tableau:1": "8D", "tableau:2": "8S",
                                  "tableau:3": "KH QS", "waste": "QH"})
    legal = pos.legal_moves()
    assert move("tableau:1", "tableau:0") in legal
    with pytest.raises(IllegalMoveError, match="alternating colours"):
        pos.play(move("tableau:2", "tableau:0"))
    assert move("tableau:3", "tableau:6", 2) in legal
    with pytest.raises(IllegalMoveError, match="Only a King or a run led by a King"):
        pos.play(move("waste", "tableau:6"))


@pytest.mark.parametrize("game_id", KLONDIKES)
def test_klondike_foundations_in_suit_from_ace_and_cards_may_come_back(game_id: str) -> None:
    """Klondike: foundations in suit from Ace (cards may come back)."""
    pos = make_position(game_id, {"foundation:0": "AH 2H", "tableau:0": "3S", "waste": "3H",
                                  "tableau:1": "2D"})
    legal = pos.legal_moves()
    assert move("waste", "foundation:0") in legal
    with pytest.raises(IllegalMoveError, match="in suit"):
        pos.play(move("tableau:1", "foundation:0"))
    pos.play(move("foundation:0", "tableau:0"))
    assert pile_of(pos, "tableau:0") == "3S 2H"


# ------------------------------------------------------------------------------- Fred's Spider


def test_freds_spider_10_piles_of_5_face_up_cards_and_54_in_stock() -> None:
    """Fred's Spider: 2 decks, 10 piles of 5 face-up cards, 54-card stock."""
    pos = Position.deal(get_game("freds-spider"), 2)
    for i in range(10):
        assert up_flags(pos, f"tableau:{i}") == [True] * 5
    assert len(pos.pile("stock")) == 54


def test_freds_spider_stock_dealt_10_at_a_time_the_last_4_to_the_first_4_piles() -> None:
    """Fred's Spider: 54-card stock dealt 10 at a time (the last deal gives the 4 remaining
    cards to the first 4 piles)."""
    pos = Position.deal(get_game("freds-spider"), 2)
    for deal in range(1, 6):
        pos.play(STOCK)
        assert [len(pos.pile(f"tableau:{i}")) for i in range(10)] == [5 + deal] * 10
    pos.play(STOCK)
    assert [len(pos.pile(f"tableau:{i}")) for i in range(10)] == [11] * 4 + [10] * 6
    assert pos.pile("stock") == []
    with pytest.raises(IllegalMoveError, match="The stock is empty"):
        pos.play(STOCK)


def test_freds_spider_dealing_allowed_with_empty_piles() -> None:
    """Fred's Spider: dealing allowed with empty piles (they get a card too)."""
    pos = make_position("freds-spider", {"tableau:0": "5H", "stock": "(9C) " * 10})
    assert STOCK in pos.legal_moves()
    pos.play(STOCK)
    assert [pile_of(pos, f"tableau:{i}") for i in range(3)] == ["5H 9C", "9C", "9C"]


def test_freds_spider_build_down_any_suit_move_same_suit_runs() -> None:
    """Fred's Spider: build down any suit, move same-suit runs."""
    pos = make_position("freds-spider", {"tableau:0": "9S 8S 7S", "tableau:1": "TD",
                                         "tableau:2": "9H 8C", "tableau:3": "9D"})
    legal = pos.legal_moves()
    assert move("tableau:0", "tableau:1", 3) in legal
    with pytest.raises(IllegalMoveError, match="Only a same-suit run"):
        pos.play(move("tableau:2", "tableau:1", 2))
    assert move("tableau:2", "tableau:3") in legal


def test_freds_spider_foundations_up_in_suit_from_ace_one_card_at_a_time() -> None:
    """Fred's Spider: ordinary foundations built up in suit from Ace one card at a time (cards
    may come back)."""
    pos = make_position("freds-spider", {"tableau:0": "3S 2S AS", "tableau:1": "2H",
                                         "foundation:3": "AH", "tableau:2": "4D"})
    legal = pos.legal_moves()
    assert move("tableau:0", "foundation:0") in legal
    with pytest.raises(IllegalMoveError, match="one at a time"):
        pos.play(move("tableau:0", "foundation:0", 3))
    pos.play(move("tableau:0", "foundation:0"))
    pos.play(move("tableau:0", "foundation:0"))
    with pytest.raises(IllegalMoveError, match="in suit"):
        pos.play(move("tableau:1", "foundation:0"))
    pos.play(move("tableau:0", "foundation:0"))
    assert pile_of(pos, "foundation:0") == "AS 2S 3S"
    assert move("foundation:0", "tableau:2") in pos.legal_moves()
    pos.play(move("foundation:0", "tableau:2"))
    assert pile_of(pos, "tableau:2") == "4D 3S"


def test_freds_spider_is_won_with_all_104_cards_on_the_foundations() -> None:
    """Won when every card is on the foundations (8 suits built up from Ace)."""
    piles = {f"foundation:{i}": " ".join(r + "SHDC"[i % 4] for r in "A23456789TJQK")
             for i in range(8)}
    piles["foundation:7"] = " ".join(r + "C" for r in "A23456789TJQ")
    piles["tableau:4"] = "KC"
    pos = make_position("freds-spider", piles)
    pos.play(move("tableau:4", "foundation:7"))
    assert pos.status() == "won"


# ------------------------------------------------------------------------------ Auld Lang Syne


def test_auld_lang_syne_4_aces_on_the_foundations_4_reserves_of_1_card() -> None:
    """Auld Lang Syne: 1 deck, the 4 Aces on the foundations; 4 reserve piles of 1 card."""
    pos = Position.deal(get_game("auld-lang-syne"), 5)
    assert sorted(pile_of(pos, f"foundation:{i}") for i in range(4)) == ["AC", "AD", "AH", "AS"]
    for i in range(4):
        assert up_flags(pos, f"reserve:{i}") == [True]
    assert len(pos.pile("stock")) == 44
    assert not any(rank_of(c) == ACE for c in pos.pile("stock"))


def test_auld_lang_syne_foundations_built_up_regardless_of_suit_to_king() -> None:
    """Auld Lang Syne: foundations built up regardless of suit to King; cards stay there."""
    pos = make_position("auld-lang-syne", {"foundation:0": "AS", "foundation:1": "AH 2C",
                                           "foundation:2": "AD", "foundation:3": "AC",
                                           "reserve:0": "2H", "reserve:1": "4C"})
    legal = pos.legal_moves()
    assert {m.dst for m in legal if m.src == "reserve:0"} == {"foundation:0", "foundation:2",
                                                              "foundation:3"}
    assert not [m for m in legal if m.src.startswith("foundation")]
    with pytest.raises(IllegalMoveError, match="one rank at a time"):
        pos.play(move("reserve:1", "foundation:1"))
    with pytest.raises(IllegalMoveError, match="never come back"):
        pos.play(move("foundation:1", "foundation:0"))


def test_auld_lang_syne_no_building_on_the_reserve_piles() -> None:
    """Auld Lang Syne: 4 reserve piles, no building."""
    pos = make_position("auld-lang-syne", {"foundation:0": "AS 2D", "reserve:0": "4C",
                                           "reserve:1": "3H"})
    with pytest.raises(IllegalMoveError, match="between reserve piles"):
        pos.play(move("reserve:1", "reserve:0"))
    assert not [m for m in pos.legal_moves() if m.dst.startswith("reserve")]


def test_auld_lang_syne_the_stock_deals_onto_all_4_piles_empty_ones_included() -> None:
    """Auld Lang Syne: the stock deals one card onto each of the 4 piles, empty ones included;
    no redeal."""
    pos = make_position("auld-lang-syne", {"reserve:1": "7D", "stock": "(5S) (4S) (3S) (2S)"})
    pos.play(STOCK)
    assert [pile_of(pos, f"reserve:{i}") for i in range(4)] == ["2S", "7D 3S", "4S", "5S"]
    with pytest.raises(IllegalMoveError, match="The stock is empty"):
        pos.play(STOCK)


# --------------------------------------------------------------------------------- Quadrennial


def gathered_position(redeals_used: int = 0) -> Position:
    return make_position("quadrennial", {
        **{f"foundation:{i}": "A" + "SHDC"[i % 4] for i in range(16)},
        "reserve:0": "9S 8S 7S", "reserve:1": "KH", "reserve:3": "QD JD",
        "reserve:7": "6C 5C 4C 3C",
    }, redeals_used=redeals_used)


def test_quadrennial_is_leap_years_layout_and_deal() -> None:
    """Quadrennial: Leap Year's layout and rules (the same deal, number for number)."""
    leap, quad = (Position.deal(get_game(g), 12) for g in ("leap-year", "quadrennial"))
    assert leap.piles == quad.piles
    assert leap.layout.ids == quad.layout.ids


def test_quadrennial_an_emptied_reserve_pile_stays_empty_as_in_leap_year() -> None:
    """Quadrennial plays by Leap Year's rules: the stock deals onto non-empty reserve piles."""
    pos = make_position("quadrennial", {"reserve:0": "9S", "reserve:2": "8D",
                                        "stock": "(2C) (3C) (4C)"})
    pos.play(STOCK)
    assert [pile_of(pos, f"reserve:{i}") for i in range(3)] == ["9S 4C", "", "8D 3C"]


def test_quadrennial_gathers_the_reserve_piles_pile_1_first_each_keeping_its_order() -> None:
    """Quadrennial: when the stock is empty the player may gather the reserve piles (pile 1
    first, each pile keeping its order, no shuffle) into a new face-down stock. The first pile's
    bottom card is dealt first; the gathering click deals one card onto each reserve pile."""
    pos = gathered_position()
    assert STOCK in pos.legal_moves()
    pos.play(STOCK)
    dealt = [card_code(pos.pile(f"reserve:{i}")[-1]) for i in range(8)]
    assert dealt == ["9S", "8S", "7S", "KH", "QD", "JD", "6C", "5C"]
    assert all(len(pos.pile(f"reserve:{i}")) == 1 for i in range(8))
    assert pile_of(pos, "stock") == "(3C) (4C)"
    assert pos.redeals_used == 1
    pos.play(STOCK)
    assert [pile_of(pos, f"reserve:{i}") for i in range(2)] == ["9S 4C", "8S 3C"]


def test_quadrennial_gathering_is_taken_back_exactly() -> None:
    """Undo of a gather puts every reserve pile back as it was."""
    pos = gathered_position()
    before = pos.copy()
    pos.play(STOCK)
    pos.pop()
    assert pos == before
    assert pos.redeals_left == 2


def test_quadrennial_at_most_two_redeals() -> None:
    """Quadrennial: gather the reserve piles into a new stock at most twice."""
    pos = gathered_position(redeals_used=1)
    assert pos.redeals_left == 1
    pos.play(STOCK)
    assert pos.redeals_left == 0
    while pos.pile("stock"):
        pos.play(STOCK)
    with pytest.raises(IllegalMoveError, match="No redeal is left"):
        pos.play(STOCK)


def test_quadrennial_gathers_only_when_the_stock_is_empty() -> None:
    """Quadrennial: the gather comes when the stock is empty; before that a click deals."""
    pos = make_position("quadrennial", {"reserve:0": "9S", "stock": "(2C)"})
    pos.play(STOCK)
    assert pile_of(pos, "reserve:0") == "9S 2C"
    assert pos.redeals_used == 0


# ------------------------------------------------------------------------------------- Minerva


def test_minerva_athenas_deal_an_11_card_reserve_and_the_stock() -> None:
    """Minerva: 7 piles dealt down/up/down/up like Athena; an 11-card reserve whose top card is
    available."""
    pos = Position.deal(get_game("minerva"), 3)
    for i in range(7):
        assert up_flags(pos, f"tableau:{i}") == [False, True, False, True]
    assert up_flags(pos, "reserve:0") == [False] * 10 + [True]
    assert len(pos.pile("stock")) == 52 - 28 - 11
    assert sum(len(p) for p in pos.piles) == 52


def test_minerva_the_reserve_top_card_goes_to_a_foundation_or_the_tableau() -> None:
    """Minerva: the reserve's top card is available (nothing builds on it); the next card turns
    up."""
    pos = make_position("minerva", {"reserve:0": "(5D) (2C) AS", "tableau:0": "3H",
                                    "tableau:1": "6S"})
    pos.play(move("reserve:0", "foundation:0"))
    assert pile_of(pos, "reserve:0") == "(5D) 2C"
    assert move("reserve:0", "tableau:0") in pos.legal_moves()
    pos.play(move("reserve:0", "tableau:0"))
    assert pile_of(pos, "reserve:0") == "5D"
    with pytest.raises(IllegalMoveError, match="Nothing is ever built on a reserve pile"):
        pos.play(move("tableau:0", "reserve:0"))


def test_minerva_alternating_colours_and_kings_only_in_spaces() -> None:
    """Minerva: alternating colours, Kings only in spaces."""
    pos = make_position("minerva", {"tableau:0": "9C", "tableau:1": "8S", "reserve:0": "QH",
                                    "waste": "KD"})
    with pytest.raises(IllegalMoveError, match="alternating colours"):
        pos.play(move("tableau:1", "tableau:0"))
    with pytest.raises(IllegalMoveError, match="Only a King"):
        pos.play(move("reserve:0", "tableau:5"))
    assert move("waste", "tableau:5") in pos.legal_moves()


def test_minerva_draw_1_and_one_redeal_two_passes() -> None:
    """Minerva: stock to waste one card at a time, one redeal (two passes)."""
    pos = make_position("minerva", {"stock": "(3C) (2D) (AH)"})
    for _ in range(2):
        for drawn in ("AH", "AH 2D", "AH 2D 3C"):
            pos.play(STOCK)
            assert pile_of(pos, "waste") == drawn
        if pos.redeals_left:
            pos.play(STOCK)
            assert pile_of(pos, "stock") == "(3C) (2D) (AH)"
    assert pos.redeals_left == 0
    with pytest.raises(IllegalMoveError, match="No redeal is left"):
        pos.play(STOCK)


def test_minerva_foundations_never_give_back() -> None:
    """Minerva: foundations in suit from Ace, cards never come back."""
    pos = make_position("minerva", {"foundation:0": "AS 2S 3S", "tableau:0": "4H",
                                    "tableau:1": "2H", "foundation:1": "AH"})
    assert not [m for m in pos.legal_moves() if m.src.startswith("foundation")]
    with pytest.raises(IllegalMoveError, match="Cards never come back from a foundation"):
        pos.play(move("foundation:0", "tableau:0"))
    pos.play(move("tableau:1", "foundation:1"))
    assert pile_of(pos, "foundation:1") == "AH 2H"


def test_quadrennial_a_whole_game_of_gathers_keeps_every_card_and_the_order_of_the_piles() -> None:
    """Quadrennial on a real deal: 23 deals, then each gather deals the reserve cards again in
    the order they lay (pile 1 first, bottom to top), twice, and no card is lost or made."""
    pos = Position.deal(get_game("quadrennial"), 7)
    for _ in range(2):
        while pos.pile("stock"):
            pos.play(STOCK)
        lying = [c & 63 for i in range(8) for c in pos.pile(f"reserve:{i}")]
        pos.play(STOCK)
        dealt = [pos.pile(f"reserve:{i}")[0] & 63 for i in range(8)]
        dealt += [c & 63 for c in reversed(pos.pile("stock"))]
        assert dealt == lying
        assert sum(len(p) for p in pos.piles) == 208
    while pos.pile("stock"):
        pos.play(STOCK)
    assert pos.redeals_left == 0
    assert STOCK not in pos.legal_moves()
