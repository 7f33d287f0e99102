"""The classics, each rule as docs/rules.md says it: FreeCell, Baker's Dozen, Yukon, Scorpion,
Forty Thieves."""

from __future__ import annotations

import pytest
from helpers import STOCK, make_position, move, pile_of

from reussite.cards import KING, UP, card_code, rank_of
from reussite.engine import IllegalMoveError, Position
from reussite.games import get_game


def up_flags(pos: Position, pile_id: str) -> list[bool]:
    return [bool(c & UP) for c in pos.pile(pile_id)]


def tableau_sizes(pos: Position) -> list[int]:
    return [len(pos.piles[i]) for i in pos.layout.tableau]


# ------------------------------------------------------------------------------------ FreeCell


def test_freecell_52_cards_face_up_on_8_piles_of_7_7_7_7_6_6_6_6_no_stock() -> None:
    """FreeCell: 1 pack dealt face up onto 8 piles (7, 7, 7, 7, 6, 6, 6, 6), 4 cells, no
    stock."""
    pos = Position.deal(get_game("freecell"), 11982)
    assert tableau_sizes(pos) == [7, 7, 7, 7, 6, 6, 6, 6]
    assert all(all(up_flags(pos, f"tableau:{i}")) for i in range(8))
    assert [pos.layout.ids[i] for i in pos.layout.cells] == [f"cell:{i}" for i in range(4)]
    assert pos.pile("stock") == []
    assert "waste" not in pos.layout.index


def test_freecell_deal_numbers_are_microsofts() -> None:
    """FreeCell: deal numbers are Windows FreeCell's; deal 1 starts JD 2D 9H JC 5D 7H 7C 5H,
    dealt row by row, left to right."""
    pos = Position.deal(get_game("freecell"), 1)
    first_row = [card_code(pos.pile(f"tableau:{i}")[0]) for i in range(8)]
    assert first_row == ["JD", "2D", "9H", "JC", "5D", "7H", "7C", "5H"]
    assert pile_of(pos, "tableau:0") == "JD KD 2S 4C 3S 6D 6S"


def test_freecell_refuses_a_deal_number_beyond_a_million() -> None:
    """FreeCell: Microsoft's deals go up to 1,000,000."""
    with pytest.raises(ValueError, match="between 0 and 1000000"):
        Position.deal(get_game("freecell"), 1_000_001)


def test_freecell_builds_down_in_alternating_colours() -> None:
    """FreeCell: build down in alternating colours."""
    pos = make_position("freecell", {"tableau:0": "9C", "tableau:1": "8D", "tableau:2": "8S"})
    assert move("tableau:1", "tableau:0") in pos.legal_moves()
    with pytest.raises(IllegalMoveError, match="alternating colours"):
        pos.play(move("tableau:2", "tableau:0"))


def test_freecell_any_card_to_a_free_cell_and_back() -> None:
    """FreeCell: any top card to a free cell; a cell holds one card and gives it to the
    tableau or a foundation."""
    pos = make_position("freecell", {"tableau:0": "9C 2H", "tableau:1": "AH 3S",
                                     "cell:0": "KD"})
    pos.play(move("tableau:0", "cell:1"))
    with pytest.raises(IllegalMoveError, match="That cell is not empty"):
        pos.play(move("tableau:1", "cell:0"))
    pos.play(move("tableau:1", "cell:2"))
    pos.play(move("tableau:1", "foundation:0"))
    pos.play(move("cell:1", "foundation:0"))
    assert pile_of(pos, "foundation:0") == "AH 2H"
    assert move("cell:0", "tableau:1") in pos.legal_moves()


def test_freecell_any_card_or_run_to_an_empty_pile() -> None:
    """FreeCell: an empty pile takes any card or run, not only a King."""
    pos = make_position("freecell", {"tableau:0": "9C 8H 7S", "cell:0": "4D"})
    legal = pos.legal_moves()
    assert move("cell:0", "tableau:1") in legal
    assert move("tableau:0", "tableau:1", 2) in legal


def test_freecell_a_run_moves_as_far_as_free_cells_and_empty_piles_allow() -> None:
    """FreeCell: a run moves as a unit up to (free cells + 1) x 2 ^ (empty piles) cards."""
    run = "KC QH JS TH 9S 8H 7S 6H"
    full = {f"tableau:{i}": "2C" for i in range(2, 8)}
    # No free cell, no empty pile: one card at a time.
    pos = make_position("freecell", {"tableau:0": run, "tableau:1": "7C",
                                     **{f"cell:{i}": "AD" for i in range(4)}, **full})
    with pytest.raises(IllegalMoveError, match="Not enough free cells and empty piles"):
        pos.play(move("tableau:0", "tableau:1", 2))
    # Two free cells, one other empty pile: (2 + 1) x 2 = 6 cards.
    pos = make_position("freecell", {"tableau:0": "KD " + run, "tableau:1": "8D",
                                     "cell:0": "AD", "cell:1": "AC",
                                     **{f"tableau:{i}": "2C" for i in range(3, 8)}})
    assert move("tableau:0", "tableau:1", 5) not in pos.legal_moves()  # 9S is not on a 9
    pos = make_position("freecell", {"tableau:0": "KD " + run, "tableau:1": "QD",
                                     "cell:0": "AD", "cell:1": "AC",
                                     **{f"tableau:{i}": "2C" for i in range(3, 8)}})
    # JS..6H is 6 cards onto the QD: allowed; the whole run KC..6H (8) is not even a fit.
    assert move("tableau:0", "tableau:1", 6) in pos.legal_moves()
    pos.play(move("tableau:0", "tableau:1", 6))
    assert pile_of(pos, "tableau:1") == "QD JS TH 9S 8H 7S 6H"


def test_freecell_a_run_to_an_empty_pile_counts_the_other_empty_piles_only() -> None:
    """FreeCell: moving a run into an empty pile, that pile does not count (the limit
    halves)."""
    run = "9S 8H 7S 6H 5S"
    pos = make_position("freecell", {"tableau:0": run, "cell:0": "AD", "cell:1": "AC",
                                     "cell:2": "AS",
                                     **{f"tableau:{i}": "2C" for i in range(3, 8)}})
    # One free cell, two empty piles (1 and 2): onto a card 2 x 4 = 8, into a space 2 x 2 = 4.
    legal = pos.legal_moves()
    assert move("tableau:0", "tableau:1", 4) in legal
    assert move("tableau:0", "tableau:1", 5) not in legal
    with pytest.raises(IllegalMoveError, match="Not enough free cells and empty piles"):
        pos.play(move("tableau:0", "tableau:1", 5))


def test_freecell_foundations_in_suit_from_ace_and_cards_never_come_back() -> None:
    """FreeCell: foundations build up in suit from the Ace; a foundation's card never comes
    back."""
    pos = make_position("freecell", {"foundation:0": "AH 2H", "tableau:0": "3S",
                                     "tableau:1": "3H"})
    with pytest.raises(IllegalMoveError, match="in suit"):
        pos.play(move("tableau:0", "foundation:0"))
    with pytest.raises(IllegalMoveError, match="never come back"):
        pos.play(move("foundation:0", "tableau:0"))
    pos.play(move("tableau:1", "foundation:0"))


def test_freecell_has_no_stock_to_click() -> None:
    """FreeCell: there is no stock."""
    pos = Position.deal(get_game("freecell"), 1)
    assert STOCK not in pos.legal_moves()
    with pytest.raises(IllegalMoveError, match="This game has no stock"):
        pos.play(STOCK)


def test_freecell_is_won_with_52_cards_home_and_lost_when_nothing_moves() -> None:
    """FreeCell: won when the 52 cards are on the foundations; stuck when no move is left."""
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]
    pos = make_position("freecell", {f"foundation:{i}": " ".join(r + s for r in ranks)
                                     for i, s in enumerate("SHDC")})
    assert pos.status() == "won"
    pos = make_position("freecell", {"cell:0": "KH", "cell:1": "KS", "cell:2": "KD",
                                     "cell:3": "KC", "tableau:0": "2D", "tableau:1": "2H",
                                     **{f"tableau:{i}": "3D" for i in range(2, 8)}})
    assert pos.status() == "lost"


# ------------------------------------------------------------------------------ Baker's Dozen


def test_bakers_dozen_13_piles_of_4_face_up_no_stock() -> None:
    """Baker's Dozen: 13 piles of 4 face-up cards, no stock."""
    pos = Position.deal(get_game("bakers-dozen"), 3)
    assert tableau_sizes(pos) == [4] * 13
    assert all(all(up_flags(pos, f"tableau:{i}")) for i in range(13))
    assert pos.pile("stock") == [] and not pos.layout.cells


def test_bakers_dozen_kings_go_to_the_bottom_of_their_pile_at_the_deal() -> None:
    """Baker's Dozen: at the deal, each pile's Kings go beneath its other cards."""
    for number in range(40):
        pos = Position.deal(get_game("bakers-dozen"), number)
        for i in pos.layout.tableau:
            kings = [rank_of(c) == KING for c in pos.piles[i]]
            assert kings == sorted(kings, reverse=True), (number, pile_of(pos, f"tableau:{i}"))


def test_bakers_dozen_builds_down_regardless_of_suit_one_card_at_a_time() -> None:
    """Baker's Dozen: build down regardless of suit; one card at a time."""
    pos = make_position("bakers-dozen", {"tableau:0": "9C", "tableau:1": "9D 8C",
                                         "tableau:2": "TH 8H"})
    pos.play(move("tableau:1", "tableau:0"))
    assert pile_of(pos, "tableau:0") == "9C 8C"
    pos = make_position("bakers-dozen", {"tableau:0": "TS", "tableau:1": "9D 8C"})
    with pytest.raises(IllegalMoveError, match="Cards move one at a time in this game"):
        pos.play(move("tableau:1", "tableau:0", 2))


def test_bakers_dozen_spaces_are_never_filled() -> None:
    """Baker's Dozen: an emptied pile stays empty."""
    pos = make_position("bakers-dozen", {"tableau:0": "KS", "tableau:1": "9D"})
    assert all(m.dst != "tableau:2" for m in pos.legal_moves())
    with pytest.raises(IllegalMoveError, match="Nothing can be placed in a space"):
        pos.play(move("tableau:0", "tableau:2"))


def test_bakers_dozen_foundations_in_suit_from_ace() -> None:
    """Baker's Dozen: foundations up in suit from the Ace."""
    pos = make_position("bakers-dozen", {"foundation:0": "AC", "tableau:0": "2C",
                                         "tableau:1": "2D"})
    with pytest.raises(IllegalMoveError, match="in suit"):
        pos.play(move("tableau:1", "foundation:0"))
    pos.play(move("tableau:0", "foundation:0"))


# -------------------------------------------------------------------------------------- Yukon


def test_yukon_klondike_deal_with_the_rest_face_up_on_piles_2_to_7() -> None:
    """Yukon: 7 piles, Klondike's face-down cards (0 to 6), then 1 face-up card on pile 1
    and 5 on each of piles 2-7; no stock."""
    pos = Position.deal(get_game("yukon"), 5)
    assert up_flags(pos, "tableau:0") == [True]
    for i in range(1, 7):
        assert up_flags(pos, f"tableau:{i}") == [False] * i + [True] * 5
    assert pos.pile("stock") == []


def test_yukon_any_face_up_card_moves_with_every_card_on_it() -> None:
    """Yukon: any face-up card moves with everything on it, when it fits (alternating
    colours, one rank lower), whatever lies on it."""
    pos = make_position("yukon", {"tableau:0": "(2C) 9H 4S KD", "tableau:1": "TS",
                                  "tableau:2": "TD"})
    pos.play(move("tableau:0", "tableau:1", 3))
    assert pile_of(pos, "tableau:1") == "TS 9H 4S KD"
    assert pile_of(pos, "tableau:0") == "2C"
    pos = make_position("yukon", {"tableau:0": "9H 4S", "tableau:1": "TD"})
    with pytest.raises(IllegalMoveError, match="alternating colours"):
        pos.play(move("tableau:0", "tableau:1", 2))
    with pytest.raises(IllegalMoveError, match="face-down card"):
        make_position("yukon", {"tableau:0": "(9H) 4S", "tableau:1": "TS"}).play(
            move("tableau:0", "tableau:1", 2))


def test_yukon_only_a_king_with_whatever_is_on_it_fills_a_space() -> None:
    """Yukon: a space takes only a King, with whatever lies on it."""
    pos = make_position("yukon", {"tableau:0": "(2C) KH 3S 8D", "tableau:1": "QS"})
    assert move("tableau:0", "tableau:2", 3) in pos.legal_moves()
    with pytest.raises(IllegalMoveError, match="Only a King"):
        pos.play(move("tableau:1", "tableau:2"))
    with pytest.raises(IllegalMoveError, match="Only a King"):
        pos.play(move("tableau:0", "tableau:2", 2))


def test_yukon_foundations_in_suit_and_never_give_back() -> None:
    """Yukon: foundations up in suit from the Ace; a foundation's card never comes back."""
    pos = make_position("yukon", {"foundation:0": "AS", "tableau:0": "3H 2S"})
    pos.play(move("tableau:0", "foundation:0"))
    with pytest.raises(IllegalMoveError, match="never come back"):
        pos.play(move("foundation:0", "tableau:0"))


# ----------------------------------------------------------------------------------- Scorpion


def test_scorpion_7_piles_of_7_three_face_down_on_piles_1_to_4_and_3_in_stock() -> None:
    """Scorpion: 7 piles of 7, the first 3 cards face down on piles 1-4; 3 cards in the
    stock."""
    pos = Position.deal(get_game("scorpion"), 2)
    for i in range(4):
        assert up_flags(pos, f"tableau:{i}") == [False] * 3 + [True] * 4
    for i in range(4, 7):
        assert up_flags(pos, f"tableau:{i}") == [True] * 7
    assert len(pos.pile("stock")) == 3


def test_scorpion_the_stock_deals_one_card_onto_each_of_the_first_three_piles() -> None:
    """Scorpion: a click deals the stock's 3 cards onto piles 1-3, even onto an empty pile."""
    pos = make_position("scorpion", {"stock": "(4D) (9C) (QS)", "tableau:1": "2H",
                                     "tableau:2": "5S", "tableau:4": "7D"})
    pos.play(STOCK)
    assert [pile_of(pos, f"tableau:{i}") for i in range(4)] == ["QS", "2H 9C", "5S 4D", ""]
    assert STOCK not in pos.legal_moves()


def test_scorpion_builds_down_in_suit_and_any_face_up_group_moves() -> None:
    """Scorpion: build down in suit; any face-up card moves with every card on it."""
    pos = make_position("scorpion", {"tableau:0": "(AD) 8S 2H 9C", "tableau:1": "9S",
                                     "tableau:2": "9H"})
    pos.play(move("tableau:0", "tableau:1", 3))
    assert pile_of(pos, "tableau:1") == "9S 8S 2H 9C"
    assert pile_of(pos, "tableau:0") == "AD"
    pos = make_position("scorpion", {"tableau:0": "8S", "tableau:1": "9H"})
    with pytest.raises(IllegalMoveError, match="Build down in suit"):
        pos.play(move("tableau:0", "tableau:1"))


def test_scorpion_kings_to_spaces() -> None:
    """Scorpion: a space takes only a King (with whatever is on it)."""
    pos = make_position("scorpion", {"tableau:0": "KD 4C", "tableau:1": "QH"})
    assert move("tableau:0", "tableau:2", 2) in pos.legal_moves()
    with pytest.raises(IllegalMoveError, match="Only a King"):
        pos.play(move("tableau:1", "tableau:2"))


def test_scorpion_a_completed_suit_leaves_by_itself() -> None:
    """Scorpion: a suit completed King to Ace on a pile goes to a foundation by itself."""
    run = "KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H"
    pos = make_position("scorpion", {"tableau:0": "(5C) " + run, "tableau:1": "AH"})
    pos.play(move("tableau:1", "tableau:0"))
    assert len(pos.pile("foundation:0")) == 13
    assert pile_of(pos, "tableau:0") == "5C"
    pos.pop()
    assert pile_of(pos, "tableau:0") == "(5C) " + run
    assert pile_of(pos, "tableau:1") == "AH"


# ------------------------------------------------------------------------------ Forty Thieves


def test_forty_thieves_2_packs_10_piles_of_4_face_up_and_64_in_stock() -> None:
    """Forty Thieves: 2 packs, 10 piles of 4 face-up cards, 64 cards in the stock."""
    pos = Position.deal(get_game("forty-thieves"), 4)
    assert tableau_sizes(pos) == [4] * 10
    assert all(all(up_flags(pos, f"tableau:{i}")) for i in range(10))
    assert len(pos.pile("stock")) == 64
    assert len(pos.layout.foundations) == 8


def test_forty_thieves_builds_down_in_suit_one_card_at_a_time() -> None:
    """Forty Thieves: build down in suit, one card at a time."""
    pos = make_position("forty-thieves", {"tableau:0": "9C", "tableau:1": "8C",
                                          "tableau:2": "8S", "tableau:3": "TC 9C 8C",
                                          "tableau:4": "JC"})
    with pytest.raises(IllegalMoveError, match="Build down in suit"):
        pos.play(move("tableau:2", "tableau:0"))
    pos.play(move("tableau:1", "tableau:0"))
    with pytest.raises(IllegalMoveError, match="Cards move one at a time in this game"):
        pos.play(move("tableau:3", "tableau:4", 3))


def test_forty_thieves_any_card_to_a_space() -> None:
    """Forty Thieves: an empty pile takes any card."""
    pos = make_position("forty-thieves", {"tableau:0": "9C 4D", "waste": "6H"})
    legal = pos.legal_moves()
    assert move("tableau:0", "tableau:1") in legal and move("waste", "tableau:1") in legal


def test_forty_thieves_draw_one_and_no_redeal() -> None:
    """Forty Thieves: the stock turns one card at a time onto the waste, once through."""
    pos = make_position("forty-thieves", {"stock": "(2C) (KD)", "tableau:0": "5S"})
    pos.play(STOCK)
    pos.play(STOCK)
    assert pile_of(pos, "waste") == "KD 2C"
    with pytest.raises(IllegalMoveError, match="No redeal is left"):
        pos.play(STOCK)


def test_forty_thieves_eight_foundations_in_suit() -> None:
    """Forty Thieves: 8 foundations, up in suit from the Ace (two per suit)."""
    pos = make_position("forty-thieves", {"foundation:0": "AS", "tableau:0": "AS",
                                          "waste": "2S"})
    legal = pos.legal_moves()
    assert move("tableau:0", "foundation:1") in legal
    assert move("waste", "foundation:0") in legal
