"""Astrocyte, rule by rule, in the words of docs/rules.md.

Each test quotes the rule it checks. Positions are built by hand with :mod:`helpers`
(``"(5H) KS QS"``: bottom to top, parentheses for a face-down card) or dealt from a number.
"""

from __future__ import annotations

from collections import Counter

import pytest
from helpers import STOCK, card_counts, make_position, move, pile_of

from reussite.cards import RANKS, SUITS
from reussite.engine import IllegalMoveError, Move, Position
from reussite.games import get_game

ASTROCYTE = get_game("astrocyte")

SPADES_K_TO_A = " ".join(f"{r}S" for r in reversed(RANKS))
HEARTS_K_TO_A = " ".join(f"{r}H" for r in reversed(RANKS))


def refused(pos: Position, m: Move) -> str:
    """Assert that ``m`` is not listed and that play() refuses it, leaving the position as it
    was; return the sentence given to the player."""
    assert m not in pos.legal_moves()
    before = pos.copy()
    with pytest.raises(IllegalMoveError) as info:
        pos.play(m)
    assert pos == before and len(pos.history) == len(before.history)
    return str(info.value)


def accepted(pos: Position, m: Move) -> None:
    """Assert that ``m`` is listed and that play() accepts it."""
    assert m in pos.legal_moves()
    pos.play(m)


def full_tableau(**overrides: str) -> dict[str, str]:
    """Eight non-empty tableau piles whose tops take nothing from one another (Aces), with
    some piles replaced: ``full_tableau(tableau_0="KS")``."""
    piles = {f"tableau:{i}": f"(9C) A{SUITS[i % 4]}" for i in range(8)}
    for key, text in overrides.items():
        piles[key.replace("_", ":")] = text
    return piles


# ---------------------------------------------------------------------------------- layout


@pytest.mark.parametrize("number", [0, 1, 2, 3, 1000])
def test_deal_8_cards_to_each_tableau_pile_only_the_top_card_face_up(number: int) -> None:
    """Deal: 8 cards to each tableau pile (64 cards), only the top card of each pile face up."""
    pos = Position.deal(ASTROCYTE, number)
    for i in range(8):
        pile = pos.pile(f"tableau:{i}")
        assert len(pile) == 8
        assert [bool(c & 64) for c in pile] == [False] * 7 + [True]


@pytest.mark.parametrize("number", [0, 1, 2, 3, 1000])
def test_the_remaining_40_cards_form_the_stock(number: int) -> None:
    """The remaining 40 cards form the stock (face down)."""
    pos = Position.deal(ASTROCYTE, number)
    assert len(pos.pile("stock")) == 40
    assert not any(c & 64 for c in pos.pile("stock"))


def test_layout_8_foundations_4_cells_8_tableau_piles_stock() -> None:
    """Layout: 8 foundations, 4 cells, 8 tableau piles, stock. Cells and foundations are
    empty at the start."""
    pos = Position.deal(ASTROCYTE, 1)
    ids = pos.layout.ids
    assert sorted(ids) == sorted(["stock"] + [f"foundation:{i}" for i in range(8)]
                                 + [f"cell:{i}" for i in range(4)]
                                 + [f"tableau:{i}" for i in range(8)])
    assert all(pos.pile(f"foundation:{i}") == [] for i in range(8))
    assert all(pos.pile(f"cell:{i}") == [] for i in range(4))


@pytest.mark.parametrize("number", [0, 1, 7])
def test_two_decks_each_card_twice(number: int) -> None:
    """Astrocyte — 2 decks: 104 cards, each of the 52 twice."""
    counts = card_counts(Position.deal(ASTROCYTE, number))
    assert sum(counts.values()) == 104
    assert set(counts) == {r + s for r in RANKS for s in SUITS}
    assert set(counts.values()) == {2}


# ---------------------------------------------------------------------------------- tableau


def test_a_card_may_be_placed_on_a_card_one_rank_higher_any_suit() -> None:
    """A card may be placed on a tableau pile whose top card is exactly one rank higher,
    any suit."""
    for card in ("8H", "8S", "8D", "8C"):
        pos = make_position("astrocyte", full_tableau(tableau_0="9H", tableau_1=f"(2D) {card}"))
        accepted(pos, move("tableau:1", "tableau:0"))
        assert pile_of(pos, "tableau:0") == f"9H {card}"


@pytest.mark.parametrize("card", ["7H", "9S", "TD", "5C"])
def test_a_card_goes_only_onto_a_card_exactly_one_rank_higher(card: str) -> None:
    """... whose top card is exactly one rank higher: nothing else builds on a tableau pile."""
    pos = make_position("astrocyte", full_tableau(tableau_0="9H", tableau_1=card))
    assert refused(pos, move("tableau:1", "tableau:0")) == \
        "A card goes onto a card one rank higher"


def test_a_king_never_goes_on_an_ace() -> None:
    """Ace is low; there is no wrapping (nothing builds on an Ace in descending builds;
    a King never goes on an Ace)."""
    pos = make_position("astrocyte", full_tableau(tableau_0="AS", tableau_1="KS"))
    assert refused(pos, move("tableau:1", "tableau:0")) == \
        "Nothing builds on an Ace (a King never goes on an Ace)"


def test_the_top_card_may_move_alone_to_another_pile_or_an_empty_cell() -> None:
    """The top card of a pile may move alone (to another tableau pile, to an empty cell)."""
    pos = make_position("astrocyte", full_tableau(tableau_0="TD 9C", tableau_1="TH"))
    moves = pos.legal_moves()
    assert move("tableau:0", "tableau:1") in moves
    assert all(move("tableau:0", f"cell:{i}") in moves for i in range(4))
    accepted(pos, move("tableau:0", "cell:2"))
    assert pile_of(pos, "cell:2") == "9C"


def test_a_same_suit_run_may_move_as_a_unit_of_any_length() -> None:
    """A same-suit run may move as a unit, of any length (its length is not limited by free
    cells or empty piles)."""
    queen_to_ace = " ".join(f"{r}S" for r in reversed(RANKS[:-1]))
    piles = full_tableau(tableau_0="(3D) " + queen_to_ace, tableau_1="KH")
    piles.update({f"cell:{i}": "5D" for i in range(4)})  # every cell full, no empty pile
    pos = make_position("astrocyte", piles)
    accepted(pos, move("tableau:0", "tableau:1", 12))
    assert pile_of(pos, "tableau:1") == "KH " + queen_to_ace
    assert pile_of(pos, "tableau:0") == "3D"


def test_part_of_a_same_suit_run_may_move() -> None:
    """A same-suit run may move as a unit: the top cards of a longer run are a run too."""
    pos = make_position("astrocyte", full_tableau(tableau_0="9S 8S 7S 6S", tableau_1="8H"))
    accepted(pos, move("tableau:0", "tableau:1", 2))
    assert pile_of(pos, "tableau:1") == "8H 7S 6S"


def test_a_run_that_is_not_same_suit_cannot_move_as_a_unit() -> None:
    """A run that is not same-suit cannot move as a unit."""
    pos = make_position("astrocyte", full_tableau(tableau_0="9S 8H 7H", tableau_1="TD"))
    assert refused(pos, move("tableau:0", "tableau:1", 3)) == \
        "Only a same-suit run can move as a unit"
    # Its same-suit top part (8H 7H) still may, onto a nine.
    pos = make_position("astrocyte", full_tableau(tableau_0="9S 8H 7H", tableau_1="9D"))
    assert refused(pos, move("tableau:0", "tableau:1", 3)) == \
        "Only a same-suit run can move as a unit"
    accepted(pos, move("tableau:0", "tableau:1", 2))
    assert pile_of(pos, "tableau:1") == "9D 8H 7H"


def test_an_empty_tableau_pile_accepts_any_card_or_any_same_suit_run() -> None:
    """An empty tableau pile accepts any card or any same-suit run."""
    pos = make_position("astrocyte", full_tableau(tableau_0="(4C) 9H 8D 7D 6D", tableau_1="",
                                                  tableau_2="KC"))
    moves = pos.legal_moves()
    for n in (1, 2, 3):
        assert move("tableau:0", "tableau:1", n) in moves
    assert move("tableau:0", "tableau:1", 4) not in moves  # 9H 8D... is not same-suit
    assert move("tableau:2", "tableau:1") in moves  # a King as well as any card
    accepted(pos, move("tableau:0", "tableau:1", 3))
    assert pile_of(pos, "tableau:1") == "8D 7D 6D"


def test_a_face_down_card_cannot_move() -> None:
    """Only available (face-up) cards move: a face-down card is never part of a run."""
    pos = make_position("astrocyte", full_tableau(tableau_0="(8S) 7S", tableau_1="9H"))
    assert refused(pos, move("tableau:0", "tableau:1", 2)) == "A face-down card cannot move"


def test_an_uncovered_face_down_card_is_turned_up_and_turned_back_down_on_undo() -> None:
    """A face-down card that becomes the top of its tableau pile is turned face up at once,
    automatically, as part of the move that uncovered it (undoing that move turns it back
    down)."""
    pos = make_position("astrocyte", full_tableau(tableau_0="(2C) (5H) 7S", tableau_1="8H"))
    pos.play(move("tableau:0", "tableau:1"))
    assert pile_of(pos, "tableau:0") == "(2C) 5H"
    assert pos.moves_played == 1
    pos.pop()
    assert pile_of(pos, "tableau:0") == "(2C) (5H) 7S"
    assert pile_of(pos, "tableau:1") == "8H"


# ---------------------------------------------------------------------------------- cells


def test_four_cells_empty_at_the_start() -> None:
    """Cells: 4, empty at the start."""
    assert ASTROCYTE.cells == 4
    pos = Position.deal(ASTROCYTE, 5)
    assert [pos.pile(f"cell:{i}") for i in range(4)] == [[]] * 4


def test_any_available_card_may_go_to_an_empty_cell() -> None:
    """Any available card may go to an empty cell (a tableau top, or a card in another
    cell)."""
    pos = make_position("astrocyte", full_tableau(tableau_0="KD QC") | {"cell:0": "4H"})
    moves = pos.legal_moves()
    for i in range(8):
        for c in (1, 2, 3):
            assert move(f"tableau:{i}", f"cell:{c}") in moves
    assert move("cell:0", "cell:3") in moves
    accepted(pos, move("tableau:0", "cell:1"))
    assert pile_of(pos, "cell:1") == "QC"


def test_a_cell_holds_one_card() -> None:
    """Cells: one card each."""
    pos = make_position("astrocyte", full_tableau(tableau_0="9S 8S") | {"cell:0": "4H"})
    assert refused(pos, move("tableau:0", "cell:0")) == "That cell is not empty"
    assert refused(pos, move("tableau:0", "cell:1", 2)) == "A cell holds a single card"


def test_a_card_in_a_cell_may_go_back_to_the_tableau() -> None:
    """A card in a cell may go back to the tableau at any time (onto a card one rank higher,
    or onto an empty pile)."""
    pos = make_position("astrocyte", full_tableau(tableau_0="5C", tableau_1="")
                        | {"cell:0": "4H", "cell:1": "9D"})
    moves = pos.legal_moves()
    assert move("cell:0", "tableau:0") in moves
    assert move("cell:0", "tableau:1") in moves
    assert move("cell:1", "tableau:1") in moves
    assert refused(pos, move("cell:1", "tableau:0")) == "A card goes onto a card one rank higher"
    accepted(pos, move("cell:0", "tableau:0"))
    assert pile_of(pos, "tableau:0") == "5C 4H"


def test_a_card_in_a_cell_can_never_go_to_a_foundation() -> None:
    """A card in a cell can never go to a foundation."""
    pos = make_position("astrocyte", full_tableau() | {"cell:0": "AS"})
    for f in range(8):
        assert refused(pos, move("cell:0", f"foundation:{f}")) == \
            "A card in a cell can never go to a foundation"


# ---------------------------------------------------------------------------------- foundations


def test_eight_foundations_empty_at_the_start() -> None:
    """Foundations: 8, empty at the start."""
    pos = Position.deal(ASTROCYTE, 9)
    assert len(pos.layout.foundations) == 8
    assert pos.foundation_cards == 0


def test_a_complete_same_suit_run_king_to_ace_moves_in_one_move_onto_an_empty_foundation(
) -> None:
    """A foundation accepts only a complete same-suit run from King down to Ace (13 cards)
    lying on top of a tableau pile, moved in one move onto an empty foundation."""
    pos = make_position("astrocyte", full_tableau(tableau_0="(7D) " + SPADES_K_TO_A)
                        | {"foundation:0": HEARTS_K_TO_A})
    moves = pos.legal_moves()
    assert move("tableau:0", "foundation:0", 13) not in moves
    for f in range(1, 8):
        assert move("tableau:0", f"foundation:{f}", 13) in moves
    accepted(pos, move("tableau:0", "foundation:3", 13))
    assert pile_of(pos, "foundation:3") == SPADES_K_TO_A
    assert pile_of(pos, "tableau:0") == "7D"  # the uncovered card is turned up
    assert pos.foundation_cards == 26


def test_a_completed_suit_goes_onto_an_empty_foundation_only() -> None:
    """... moved in one move onto an **empty** foundation."""
    pos = make_position("astrocyte", full_tableau(tableau_0=SPADES_K_TO_A)
                        | {"foundation:0": HEARTS_K_TO_A})
    assert refused(pos, move("tableau:0", "foundation:0", 13)) == \
        "A completed suit goes onto an empty foundation"


@pytest.mark.parametrize("card", ["AS", "KS", "7H"])
def test_single_cards_never_go_to_a_foundation(card: str) -> None:
    """Single cards never go to a foundation."""
    pos = make_position("astrocyte", full_tableau(tableau_0=card))
    assert refused(pos, move("tableau:0", "foundation:0")) == \
        "Single cards never go to a foundation: only a complete suit from King to Ace"


def test_a_single_ace_never_goes_even_onto_a_completed_suit() -> None:
    """Single cards never go to a foundation, not even onto a foundation that is not empty."""
    pos = make_position("astrocyte", full_tableau(tableau_0="2S AS")
                        | {"foundation:0": SPADES_K_TO_A})
    assert refused(pos, move("tableau:0", "foundation:0")).startswith(
        "Single cards never go to a foundation")


@pytest.mark.parametrize("count", [2, 5, 12])
def test_an_incomplete_run_never_goes_to_a_foundation(count: int) -> None:
    """A foundation accepts only a **complete** same-suit run from King down to Ace."""
    run = " ".join(f"{r}S" for r in reversed(RANKS[:count]))
    pos = make_position("astrocyte", full_tableau(tableau_0="(KD) " + run)
                        | {"foundation:1": HEARTS_K_TO_A})
    for f in (0, 1):
        assert refused(pos, move("tableau:0", f"foundation:{f}", count)) == \
            "Only a complete same-suit run from King down to Ace goes to a foundation"


def test_a_king_to_ace_run_that_is_not_same_suit_never_goes_to_a_foundation() -> None:
    """A foundation accepts only a complete **same-suit** run."""
    mixed = SPADES_K_TO_A.replace("7S", "7H")
    pos = make_position("astrocyte", full_tableau(tableau_0=mixed))
    assert refused(pos, move("tableau:0", "foundation:0", 13)) == \
        "Only a same-suit run can move as a unit"


def test_moving_a_completed_run_is_the_players_choice_not_automatic() -> None:
    """Moving a completed run to a foundation is the player's choice, not automatic
    (the automatic collection is a user setting, off by default for Astrocyte)."""
    assert ASTROCYTE.foundations.auto_collect is False
    pos = make_position("astrocyte", full_tableau(tableau_0="(5C) " + SPADES_K_TO_A[:-3],
                                                  tableau_1="(4D) AS"))
    pos.play(move("tableau:1", "tableau:0"))  # completes K..A of spades on tableau:0
    assert pile_of(pos, "tableau:0") == "(5C) " + SPADES_K_TO_A
    assert pos.foundation_cards == 0
    assert pos.last_steps() == ((0, pos.layout.index["tableau:1"],
                                 pos.layout.index["tableau:0"], 1),
                                (1, pos.layout.index["tableau:1"]))
    assert move("tableau:0", "foundation:0", 13) in pos.legal_moves()
    # Keeping it in the tableau is allowed: its top cards may still move elsewhere.
    assert move("tableau:0", "cell:0") in pos.legal_moves()


@pytest.mark.parametrize("dst", ["tableau:0", "cell:0", "foundation:1"])
@pytest.mark.parametrize("count", [1, 13])
def test_cards_never_come_back_from_a_foundation(dst: str, count: int) -> None:
    """Decision: cards never come back from an Astrocyte foundation. A completed suit is
    final."""
    pos = make_position("astrocyte", full_tableau(tableau_0="2D") | {"foundation:0":
                                                                      SPADES_K_TO_A})
    assert refused(pos, move("foundation:0", dst, count)) == \
        "Cards never come back from a foundation"
    assert not any(m.src.startswith("foundation") for m in pos.legal_moves())


# ---------------------------------------------------------------------------------- stock


def test_a_stock_click_deals_one_card_face_up_onto_each_of_the_8_piles() -> None:
    """Stock: click to deal one card face up onto **each** of the 8 tableau piles."""
    pos = Position.deal(ASTROCYTE, 1)
    stock_before = list(pos.pile("stock"))
    tops_expected = [c | 64 for c in reversed(stock_before[-8:])]
    next_card = pos.to_json()["piles"]["stock"][-1]["card"]  # the last entry is dealt next
    accepted(pos, STOCK)
    assert pos.to_json()["piles"]["tableau:0"][-1] == {"card": next_card, "up": True}
    assert len(pos.pile("stock")) == 32
    for i in range(8):
        pile = pos.pile(f"tableau:{i}")
        assert len(pile) == 9
        assert pile[-1] == tops_expected[i]  # the stock's last card goes to tableau:0 first


def test_dealing_is_not_allowed_while_any_tableau_pile_is_empty() -> None:
    """Dealing is **not allowed while any tableau pile is empty** (fill every space first)."""
    for empty in range(8):
        piles = full_tableau() | {f"tableau:{empty}": "", "stock": "(2C) " * 8}
        pos = make_position("astrocyte", piles)
        assert refused(pos, STOCK) == "Dealing is not allowed while a pile is empty"
    pos = make_position("astrocyte", full_tableau() | {"stock": "(2C) " * 8})
    accepted(pos, STOCK)


def test_dealing_is_allowed_with_empty_cells() -> None:
    """Only an empty *tableau* pile forbids dealing: empty cells do not."""
    pos = make_position("astrocyte", full_tableau() | {"stock": "(2C) " * 8})
    assert all(not pos.pile(f"cell:{i}") for i in range(4))
    assert STOCK in pos.legal_moves()


def test_40_cards_make_5_deals_and_no_sixth_deal() -> None:
    """40 cards = 5 deals. No redeal: a sixth deal is refused."""
    pos = Position.deal(ASTROCYTE, 2)
    for _ in range(5):
        accepted(pos, STOCK)
    assert pos.pile("stock") == []
    assert all(len(pos.pile(f"tableau:{i}")) == 13 for i in range(8))
    assert refused(pos, STOCK) == "The stock is empty"
    assert pos.redeals_left == 0


def test_a_stock_click_is_undone_exactly() -> None:
    """Taking back a deal puts the 8 cards back on the stock, face down, in their order."""
    pos = Position.deal(ASTROCYTE, 3)
    before = pos.copy()
    pos.play(STOCK)
    assert pos.pop() == STOCK
    assert pos == before and hash(pos) == hash(before)
    assert pos.pile("stock") == before.pile("stock")


def test_cards_cannot_be_taken_from_the_stock() -> None:
    """The stock is only clicked: its cards never move one by one."""
    pos = Position.deal(ASTROCYTE, 1)
    assert refused(pos, move("stock", "cell:0")) == \
        "Cards cannot be taken from the stock: click it to deal"
    assert refused(pos, move("tableau:0", "stock")) == "Nothing can be placed on the stock"


def test_a_completed_suit_sent_home_is_taken_back_exactly() -> None:
    """Undoing the move of a completed suit puts the 13 cards back on their pile and turns the
    uncovered card face down again."""
    pos = make_position("astrocyte", full_tableau(tableau_0="(7D) " + SPADES_K_TO_A))
    before = pos.copy()
    pos.play(move("tableau:0", "foundation:5", 13))
    assert pos.pop() == move("tableau:0", "foundation:5", 13)
    assert pos == before and hash(pos) == hash(before)
    assert pile_of(pos, "tableau:0") == "(7D) " + SPADES_K_TO_A


# ---------------------------------------------------------------------------------- the view


def test_the_player_sees_the_8_top_cards_and_nothing_of_the_others() -> None:
    """The player view: the same position with every face-down card and the stock order
    hidden."""
    pos = Position.deal(ASTROCYTE, 1)
    view = pos.player_view()
    shown = [e for p in view.values() for e in p if e["up"]]
    assert len(shown) == 8
    assert [view[f"tableau:{i}"][-1]["card"] for i in range(8)] == \
        [pos.to_json()["piles"][f"tableau:{i}"][-1]["card"] for i in range(8)]
    assert view["stock"] == [{"card": None, "up": False}] * 40
    assert sum(1 for p in view.values() for e in p if e == {"card": None, "up": False}) == 96


# ---------------------------------------------------------------------------------- end


def _seven_suits_home() -> dict[str, str]:
    suits = "SHDCSHD"
    return {f"foundation:{i}": " ".join(f"{r}{s}" for r in reversed(RANKS))
            for i, s in enumerate(suits)}


def test_won_when_all_104_cards_are_on_the_foundations() -> None:
    """Won when all 104 cards are on the foundations (8 completed suits)."""
    clubs = " ".join(f"{r}C" for r in reversed(RANKS))
    pos = make_position("astrocyte", _seven_suits_home() | {"tableau:4": clubs})
    assert pos.status() == "playing"  # the last suit is not home yet
    accepted(pos, move("tableau:4", "foundation:7", 13))
    assert pos.foundation_cards == 104
    assert pos.suits_completed == 8
    assert pos.status() == "won"
    assert pos.legal_moves() == []
    pos.pop()
    assert pos.status() == "playing"


def test_lost_when_no_legal_move_remains() -> None:
    """Status ``lost``: no legal move remains (no space, no free cell, nothing builds, the
    stock is spent)."""
    piles = {f"tableau:{i}": f"(9D) A{SUITS[i % 4]}" for i in range(8)}
    piles |= {f"cell:{i}": f"K{SUITS[i]}" for i in range(4)}
    pos = make_position("astrocyte", piles)
    assert pos.legal_moves() == []
    assert pos.status() == "lost"
    pos.piles[pos.layout.index["cell:3"]] = []
    assert pos.status() == "playing"  # a free cell is a move


def test_the_exact_move_list_of_a_small_position() -> None:
    """legal_moves() lists exactly the moves the rules allow, nothing more, nothing less."""
    piles = {f"tableau:{i}": "(9D) AS" for i in range(8)}
    piles |= {"tableau:0": "(4C) 3H 2H", "tableau:1": "3S", "tableau:2": "",
              "cell:0": "KC", "cell:1": "QC", "cell:2": "JC", "stock": "(5D)"}
    pos = make_position("astrocyte", piles)
    got = Counter(str(m) for m in pos.legal_moves())
    expected = Counter([
        "1 tableau:0 -> tableau:1", "1 tableau:0 -> tableau:2", "2 tableau:0 -> tableau:2",
        "1 tableau:0 -> cell:3", "1 tableau:1 -> tableau:2", "1 tableau:1 -> cell:3",
        *[f"1 tableau:{i} -> {d}" for i in range(3, 8)
          for d in ("tableau:0", "tableau:2", "cell:3")],
        "1 cell:0 -> tableau:2",
        "1 cell:1 -> tableau:2", "1 cell:2 -> tableau:2",
        "1 cell:0 -> cell:3", "1 cell:1 -> cell:3", "1 cell:2 -> cell:3",
    ])
    assert got == expected


def test_only_cards_that_are_there_can_move() -> None:
    """A move takes the top cards of a pile: an empty pile has none to give, and a pile gives
    no more cards than it holds."""
    pos = make_position("astrocyte", full_tableau(tableau_1="") | {"cell:0": "4H"})
    assert refused(pos, move("cell:1", "tableau:1")) == "There is no card on cell:1"
    assert refused(pos, move("cell:0", "tableau:1", 2)) == "There is only 1 card on cell:0"
    assert refused(pos, move("tableau:0", "tableau:1", 3)) == \
        "There are only 2 cards on tableau:0"
    assert refused(pos, move("tableau:0", "tableau:1", 0)) == "At least one card must move"
