"""Leap Year, rule by rule, as docs/rules.md states them."""

from __future__ import annotations

from collections import Counter

import pytest
from helpers import STOCK, make_position, move, pile_of

from reussite.cards import ACE, UP, rank_of
from reussite.engine import IllegalMoveError, Position
from reussite.games import get_game

RESERVES = [f"reserve:{i}" for i in range(8)]
FOUNDATIONS = [f"foundation:{i}" for i in range(16)]
A_TO_K = "A23456789TJQK"


def aces(**piles: str) -> dict[str, str]:
    """The 16 foundations with their Aces (4 of each suit), then the given piles."""
    layout = {f: "A" + "SHDC"[i % 4] for i, f in enumerate(FOUNDATIONS)}
    layout.update({k.replace("_", ":"): v for k, v in piles.items()})
    return layout


def test_the_16_aces_start_on_the_16_foundations_8_reserves_of_one_card_184_in_stock() -> None:
    """Deal: the 16 Aces start on the 16 foundations, one each. One card face up on each of the
    8 reserve piles. The other 184 cards form the stock."""
    pos = Position.deal(get_game("leap-year"), 4)
    assert sum(len(p) for p in pos.piles) == 208
    for f in FOUNDATIONS:
        assert len(pos.pile(f)) == 1
        assert rank_of(pos.pile(f)[0]) == ACE and pos.pile(f)[0] & UP
    assert Counter(pile_of(pos, f) for f in FOUNDATIONS) == {"AS": 4, "AH": 4, "AD": 4, "AC": 4}
    for r in RESERVES:
        assert len(pos.pile(r)) == 1 and pos.pile(r)[0] & UP
    assert len(pos.pile("stock")) == 184
    assert not any(c & UP for c in pos.pile("stock"))
    assert not any(rank_of(c) == ACE for c in pos.pile("stock"))


def test_23_deals_of_8_then_no_redeal() -> None:
    """Stock: click to deal one card face up onto each reserve pile (23 deals of 8). No redeal."""
    pos = Position.deal(get_game("leap-year"), 4)
    for deal in range(1, 24):
        pos.play(STOCK)
        assert [len(pos.pile(r)) for r in RESERVES] == [1 + deal] * 8
        assert all(pos.pile(r)[-1] & UP for r in RESERVES)
    assert pos.pile("stock") == []
    with pytest.raises(IllegalMoveError, match="The stock is empty"):
        pos.play(STOCK)


def test_foundations_build_up_from_ace_to_king_regardless_of_suit() -> None:
    """Foundations: build up from Ace to King regardless of suit (only a 6 of any suit may
    follow a 5)."""
    pos = make_position("leap-year", aces(foundation_0="AS 2H 3D 4C 5S", reserve_0="6H",
                                          reserve_1="7H", reserve_2="2C"))
    assert move("reserve:0", "foundation:0") in pos.legal_moves()
    with pytest.raises(IllegalMoveError, match="one rank at a time"):
        pos.play(move("reserve:1", "foundation:0"))
    pos.play(move("reserve:0", "foundation:0"))
    pos.play(move("reserve:1", "foundation:0"))
    assert pile_of(pos, "foundation:0") == "AS 2H 3D 4C 5S 6H 7H"
    assert all(move("reserve:2", f) in pos.legal_moves() for f in FOUNDATIONS[1:])


def test_a_complete_foundation_holds_ace_to_king() -> None:
    """A complete foundation holds A..K (13 cards): nothing goes on its King."""
    pos = make_position("leap-year", aces(foundation_0=" ".join(r + "D" for r in A_TO_K),
                                          foundation_1=" ".join(r + "D" for r in A_TO_K[:12]),
                                          reserve_0="KS", reserve_1="AH"))
    assert [m.dst for m in pos.legal_moves() if m.src == "reserve:0"] == ["foundation:1"]
    with pytest.raises(IllegalMoveError, match="That foundation is complete"):
        pos.play(move("reserve:0", "foundation:0"))


def test_the_top_card_of_a_foundation_may_move_to_another_foundation_that_accepts_it() -> None:
    """The top card of a foundation may move to another foundation that accepts it."""
    pos = make_position("leap-year", aces(foundation_0="AS 2H 3D", foundation_1="AC 2S"))
    assert move("foundation:0", "foundation:1") in pos.legal_moves()
    pos.play(move("foundation:0", "foundation:1"))
    assert pile_of(pos, "foundation:1") == "AC 2S 3D"
    with pytest.raises(IllegalMoveError, match="one rank at a time"):
        pos.play(move("foundation:1", "foundation:2"))


def test_nothing_is_ever_built_on_a_reserve_pile() -> None:
    """Reserve piles: nothing is ever built on a reserve pile."""
    pos = make_position("leap-year", aces(foundation_0="AS 2H 3D", reserve_0="4C"))
    assert not [m for m in pos.legal_moves() if m.dst.startswith("reserve")]
    with pytest.raises(IllegalMoveError, match="Nothing is ever built on a reserve pile"):
        pos.play(move("foundation:0", "reserve:0"))
    with pytest.raises(IllegalMoveError, match="Nothing is ever built on a reserve pile"):
        pos.play(move("foundation:0", "reserve:1"))


def test_cards_never_move_between_reserve_piles() -> None:
    """Reserve piles: cards never move between reserve piles."""
    pos = make_position("leap-year", aces(reserve_0="5H", reserve_1="6C", reserve_2=""))
    with pytest.raises(IllegalMoveError, match="Cards never move between reserve piles"):
        pos.play(move("reserve:0", "reserve:1"))
    with pytest.raises(IllegalMoveError, match="Cards never move between reserve piles"):
        pos.play(move("reserve:0", "reserve:2"))


def test_only_the_top_card_of_a_reserve_is_available_and_only_to_a_foundation() -> None:
    """Only the top card of each reserve pile is available, and it may only go to a foundation.
    One card moves at a time; no runs."""
    pos = make_position("leap-year", aces(reserve_0="3S 2S", reserve_1="2D 3H"))
    legal = pos.legal_moves()
    assert {m.src for m in legal} == {"reserve:0"}
    assert {m.dst for m in legal} == set(FOUNDATIONS)
    assert all(m.count == 1 for m in legal)
    with pytest.raises(IllegalMoveError, match="one card at a time"):
        pos.play(move("reserve:0", "foundation:0", 2))


def test_an_emptied_reserve_pile_stays_empty_the_stock_deals_nothing_onto_it() -> None:
    """Decision: a reserve pile that has become empty stays empty for the rest of the game: the
    stock deals one card on every non-empty reserve pile."""
    pos = Position.deal(get_game("leap-year"), 4)
    pos.piles[pos.layout.index["reserve:3"]].clear()
    pos.piles[pos.layout.index["reserve:6"]].clear()
    pos.play(STOCK)
    assert [len(pos.pile(r)) for r in RESERVES] == [2, 2, 2, 0, 2, 2, 0, 2]
    assert len(pos.pile("stock")) == 184 - 6


def test_when_every_reserve_pile_is_empty_and_stock_remains_the_game_is_lost() -> None:
    """Decision: when every reserve pile is empty and stock remains, the game is lost (a move
    between two foundations does not change that)."""
    pos = make_position("leap-year", aces(foundation_0="AS 2H 3D", foundation_1="AC 2S",
                                          stock="(5H) (6H)"))
    legal = pos.legal_moves()
    assert move("foundation:0", "foundation:1") in legal
    assert all(m.src.startswith("foundation") and m.dst.startswith("foundation") for m in legal)
    with pytest.raises(IllegalMoveError, match="Every reserve pile is empty"):
        pos.play(STOCK)
    assert pos.status() == "lost"


def test_won_when_all_208_cards_are_on_the_foundations() -> None:
    """Won when all 208 cards are on the foundations."""
    piles = {f: " ".join(r + "SHDC"[i % 4] for r in A_TO_K) for i, f in enumerate(FOUNDATIONS)}
    piles["foundation:15"] = " ".join(r + "C" for r in A_TO_K[:12])
    piles["reserve:5"] = "KC"
    pos = make_position("leap-year", piles)
    assert pos.status() == "playing"
    pos.play(move("reserve:5", "foundation:15"))
    assert pos.status() == "won"


def test_a_stock_deal_is_taken_back_exactly() -> None:
    """Undo of a deal puts every card back on the stock, face down, in its order."""
    pos = Position.deal(get_game("leap-year"), 9)
    before = pos.copy()
    pos.play(STOCK)
    assert pos.pop() == STOCK
    assert pos == before


def test_a_move_of_more_cards_than_a_pile_holds_is_refused_in_plain_words() -> None:
    pos = make_position("leap-year", aces(reserve_0="5H", reserve_1="6C 7D"))
    with pytest.raises(IllegalMoveError, match="There is no card on reserve:2"):
        pos.play(move("reserve:2", "foundation:0"))
    with pytest.raises(IllegalMoveError, match="There is only 1 card on reserve:0"):
        pos.play(move("reserve:0", "foundation:0", 2))
    with pytest.raises(IllegalMoveError, match="There are only 2 cards on reserve:1"):
        pos.play(move("reserve:1", "foundation:0", 3))
