"""Spider in 4, 2 and 1 suits, rule by rule, as docs/rules.md states them."""

from __future__ import annotations

from collections import Counter

import pytest
from helpers import STOCK, make_position, move, pile_of

from reussite.cards import SUITS, UP, card_code, suit_of
from reussite.engine import IllegalMoveError, Position
from reussite.games import get_game

SPIDERS = ["spider", "spider-2-suits", "spider-1-suit"]
TEN_PILES = [f"tableau:{i}" for i in range(10)]
SPADES_K_TO_2 = "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"


def full_table(game_id: str = "spider", **piles: str) -> Position:
    """Every pile holds a card (a deal is allowed), with some piles given."""
    layout = {pid: "9D" for pid in TEN_PILES}
    layout.update({k.replace("_", ":"): v for k, v in piles.items()})
    return make_position(game_id, layout)


@pytest.mark.parametrize("game_id", SPIDERS)
def test_first_four_piles_get_6_cards_the_other_six_get_5_only_top_card_up(game_id: str) -> None:
    """Deal: the first four piles get 6 cards, the other six get 5 (left to right). Only the top
    card of each pile is face up. The other 50 cards form the stock."""
    pos = Position.deal(get_game(game_id), 3)
    assert [len(pos.pile(p)) for p in TEN_PILES] == [6, 6, 6, 6, 5, 5, 5, 5, 5, 5]
    for p in TEN_PILES:
        assert [bool(c & UP) for c in pos.pile(p)] == [False] * (len(pos.pile(p)) - 1) + [True]
    assert len(pos.pile("stock")) == 50
    assert not any(c & UP for c in pos.pile("stock"))
    assert all(not pos.pile(f"foundation:{i}") for i in range(8))


@pytest.mark.parametrize(("game_id", "suits"), [("spider", "SHDC"), ("spider-2-suits", "SH"),
                                                ("spider-1-suit", "S")])
def test_104_cards_in_every_variant(game_id: str, suits: str) -> None:
    """Variants: 4 suits, 2 suits (spades and hearts, 52 of each), 1 suit (104 spades).
    104 cards in every variant."""
    pos = Position.deal(get_game(game_id), 11)
    cards = Counter(card_code(c) for pile in pos.piles for c in pile)
    assert sum(cards.values()) == 104
    assert {code[1] for code in cards} == set(suits)
    per_suit = Counter(SUITS[suit_of(c)] for pile in pos.piles for c in pile)
    assert per_suit == {s: 104 // len(suits) for s in suits}
    assert set(cards.values()) == {8 // len(suits)}


def test_build_down_regardless_of_suit() -> None:
    """Build down regardless of suit: any card on any card one rank higher."""
    pos = make_position("spider", {"tableau:0": "8S", "tableau:1": "7H", "tableau:2": "7S",
                                   "tableau:3": "6D"})
    assert move("tableau:1", "tableau:0") in pos.legal_moves()
    assert move("tableau:2", "tableau:0") in pos.legal_moves()
    pos.play(move("tableau:1", "tableau:0"))
    pos.play(move("tableau:3", "tableau:0"))
    assert pile_of(pos, "tableau:0") == "8S 7H 6D"


def test_a_card_goes_only_onto_a_card_one_rank_higher() -> None:
    """Build down: a 6 cannot go on an 8, nor a King on an Ace (no wrapping)."""
    pos = make_position("spider", {"tableau:0": "8S", "tableau:1": "6H", "tableau:2": "AD",
                                   "tableau:3": "KC"})
    with pytest.raises(IllegalMoveError, match="one rank higher"):
        pos.play(move("tableau:1", "tableau:0"))
    with pytest.raises(IllegalMoveError, match="Nothing builds on an Ace"):
        pos.play(move("tableau:3", "tableau:2"))


def test_only_same_suit_runs_move_as_a_unit() -> None:
    """Only same-suit runs move as a unit (any length); a single top card always may move."""
    pos = make_position("spider", {"tableau:0": "(4C) 9S 8S 7S 6S", "tableau:1": "TH",
                                   "tableau:2": "QD JS TD 9H", "tableau:3": "JC",
                                   "tableau:4": "TC"})
    assert move("tableau:0", "tableau:1", 4) in pos.legal_moves()
    with pytest.raises(IllegalMoveError, match="Only a same-suit run can move as a unit"):
        pos.play(move("tableau:2", "tableau:3", 2))
    assert move("tableau:2", "tableau:4") in pos.legal_moves()
    pos.play(move("tableau:0", "tableau:1", 4))
    assert pile_of(pos, "tableau:1") == "TH 9S 8S 7S 6S"
    assert pile_of(pos, "tableau:0") == "4C"


def test_a_run_may_split_and_move_from_any_of_its_cards() -> None:
    """A same-suit run may move as a unit of any length: its top part too."""
    pos = make_position("spider", {"tableau:0": "9S 8S 7S 6S", "tableau:1": "8H"})
    assert move("tableau:0", "tableau:1", 2) in pos.legal_moves()
    pos.play(move("tableau:0", "tableau:1", 2))
    assert pile_of(pos, "tableau:1") == "8H 7S 6S"
    assert pile_of(pos, "tableau:0") == "9S 8S"


def test_an_empty_pile_accepts_any_card_or_same_suit_run() -> None:
    """An empty pile accepts any card or same-suit run."""
    pos = make_position("spider", {"tableau:0": "3D 9S 8S 7S", "tableau:1": "KD"})
    legal = pos.legal_moves()
    for n in (1, 2, 3):
        assert move("tableau:0", "tableau:5", n) in legal
    assert move("tableau:0", "tableau:5", 4) not in legal
    assert move("tableau:1", "tableau:5") in legal
    pos.play(move("tableau:0", "tableau:5", 3))
    assert pile_of(pos, "tableau:5") == "9S 8S 7S"


def test_a_complete_suit_is_removed_automatically_and_the_card_under_it_turns_up() -> None:
    """A complete same-suit run King to Ace on top of a pile is removed automatically to one of
    the 8 foundations (and the card it uncovers is turned up)."""
    pos = make_position("spider", {"tableau:0": f"(5H) {SPADES_K_TO_2}", "tableau:1": "AS"})
    before = pos.copy()
    pos.play(move("tableau:1", "tableau:0"))
    assert pile_of(pos, "tableau:0") == "5H"
    assert pile_of(pos, "foundation:0") == SPADES_K_TO_2 + " AS"
    assert pos.suits_completed == 1
    assert pos.moves_played == 1
    tableau0, foundation0 = pos.layout.index["tableau:0"], pos.layout.index["foundation:0"]
    assert pos.last_steps()[-2:] == ((0, tableau0, foundation0, 13), (1, tableau0))
    assert pos.pop() == move("tableau:1", "tableau:0")
    assert pos == before
    assert pile_of(pos, "tableau:0") == f"(5H) {SPADES_K_TO_2}"


def test_a_complete_suit_is_removed_after_a_stock_deal_too() -> None:
    """The removal is automatic whatever completed the suit: here a deal from the stock."""
    pos = full_table(tableau_0=f"(KH) {SPADES_K_TO_2}",
                     stock="(5C) (5C) (5C) (5C) (5C) (5C) (5C) (5C) (5C) (AS)")
    before = pos.copy()
    pos.play(STOCK)
    assert pile_of(pos, "tableau:0") == "KH"
    assert pile_of(pos, "tableau:1") == "9D 5C"
    assert pos.suits_completed == 1
    pos.pop()
    assert pos == before


def test_a_run_not_in_one_suit_is_not_removed() -> None:
    """Only a same-suit run from King to Ace is a completed suit."""
    pos = make_position("spider", {"tableau:0": "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2H",
                                   "tableau:1": "AS"})
    pos.play(move("tableau:1", "tableau:0"))
    assert len(pos.pile("tableau:0")) == 13
    assert pos.suits_completed == 0


def test_cards_never_come_back_from_a_foundation() -> None:
    """Cards never come back from a foundation; the player never moves a suit there himself."""
    pos = make_position("spider", {"foundation:0": SPADES_K_TO_2 + " AS", "tableau:0": "2H",
                                   "tableau:1": SPADES_K_TO_2 + " AS"})
    legal = pos.legal_moves()
    assert not [m for m in legal if "foundation" in m.src or "foundation" in m.dst]
    with pytest.raises(IllegalMoveError, match="Cards never come back from a foundation"):
        pos.play(move("foundation:0", "tableau:0"))
    with pytest.raises(IllegalMoveError, match="by themselves"):
        pos.play(move("tableau:1", "foundation:1", 13))


def test_the_stock_deals_one_card_face_up_onto_each_of_the_10_piles() -> None:
    """Stock: deals one card face up onto each of the 10 piles; 50 cards make 5 deals."""
    pos = Position.deal(get_game("spider"), 5)
    stock = pos.pile("stock")
    for deal in range(5):
        expected = [stock[-1 - i] | UP for i in range(10)]
        pos.play(STOCK)
        assert [pos.pile(p)[-1] for p in TEN_PILES] == expected
        assert len(pos.pile("stock")) == 40 - 10 * deal
    assert pos.pile("stock") == []


def test_dealing_is_not_allowed_while_any_pile_is_empty() -> None:
    """Stock: not allowed while any pile is empty."""
    pos = full_table(tableau_7="", stock="(2C) " * 10)
    assert STOCK not in pos.legal_moves()
    with pytest.raises(IllegalMoveError, match="Dealing is not allowed while a pile is empty"):
        pos.play(STOCK)
    pos = full_table(stock="(2C) " * 10)
    assert STOCK in pos.legal_moves()


def test_no_redeal() -> None:
    """No redeal: once the stock is empty, a click on it does nothing."""
    pos = full_table()
    with pytest.raises(IllegalMoveError, match="The stock is empty"):
        pos.play(STOCK)
    assert pos.redeals_left == 0


def test_won_when_the_8_suits_are_completed() -> None:
    """Won when the 8 suits are completed."""
    suits = ["S", "H", "D", "C", "S", "H", "D", "C"]
    piles = {f"foundation:{i}": " ".join(r + s for r in "KQJT98765432A") for i, s in
             enumerate(suits[:7])}
    piles["tableau:0"] = " ".join(r + "C" for r in "KQJT98765432")
    piles["tableau:1"] = "AC"
    pos = make_position("spider", piles)
    assert pos.status() == "playing"
    pos.play(move("tableau:1", "tableau:0"))
    assert pos.suits_completed == 8
    assert pos.status() == "won"


@pytest.mark.parametrize("game_id", SPIDERS)
def test_familiar_scoring_500_minus_1_a_move_plus_100_a_suit(game_id: str) -> None:
    """Familiar scoring: start at 500, -1 per move, +100 per completed suit."""
    pos = make_position(game_id, {"tableau:0": f"(5H) {SPADES_K_TO_2}", "tableau:1": "AS",
                                  "tableau:2": "6S", "tableau:3": "5H"})
    assert pos.score == 500
    pos.play(move("tableau:3", "tableau:2"))
    assert pos.score == 499
    pos.play(move("tableau:1", "tableau:0"))
    assert pos.score == 500 - 2 + 100
    pos.pop()
    assert pos.score == 499


def test_a_face_down_card_turns_up_when_uncovered_and_back_down_on_undo() -> None:
    """A face-down card that becomes the top of its pile is turned face up at once, as part of
    the move that uncovered it (undoing that move turns it back down)."""
    pos = make_position("spider", {"tableau:0": "(3D) (QC) 7H", "tableau:1": "8C"})
    pos.play(move("tableau:0", "tableau:1"))
    assert pile_of(pos, "tableau:0") == "(3D) QC"
    pos.pop()
    assert pile_of(pos, "tableau:0") == "(3D) (QC) 7H"


def test_two_suits_completed_by_one_deal_both_leave() -> None:
    """Every complete same-suit run on top of a pile is removed automatically, two at once too."""
    hearts = SPADES_K_TO_2.replace("S", "H")
    pos = full_table(tableau_2=f"(4D) {SPADES_K_TO_2}", tableau_5=hearts,
                     stock="(5C) (5C) (5C) (5C) (AH) (5C) (5C) (AS) (5C) (5C)")
    before = pos.copy()
    pos.play(STOCK)
    assert pos.suits_completed == 2
    assert pile_of(pos, "tableau:2") == "4D"
    assert pile_of(pos, "tableau:5") == ""
    assert pos.pop() == STOCK
    assert pos == before


def test_the_familiar_score_belongs_to_spider_only() -> None:
    """Familiar scoring is Spider's: the other games show no score."""
    assert make_position("freds-spider", {}).score is None
    assert make_position("spider-1-suit", {}).score == 500
