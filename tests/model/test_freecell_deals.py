"""FreeCell's deal numbers are Windows FreeCell's: deal N is the deal players know as #N.

"Deal numbers are those of Windows FreeCell, 1 to 1,000,000: the cards are dealt row by row,
left to right, as Microsoft's generator gives them." (the game's notes, docs/rules.md)

The expected layouts below are data, written once from an independent implementation of
Microsoft's generator: Freecell Solver's board generator (``make-microsoft-freecell-board -t N``
of Debian's ``freecell-solver-bin``, ``pi-make-microsoft-freecell-board`` upstream), whose
output lists each tableau pile on a line, from the bottom card to the top card.
"""

from __future__ import annotations

import pytest

from reussite.cards import UP, card_code
from reussite.deals import MICROSOFT_DEALS, check_deal_number, microsoft_order
from reussite.engine import Position
from reussite.games import get_game
from reussite.rules import DealNumbers
from reussite.solver import solve

FREECELL = get_game("freecell")

KNOWN_DEALS = {
    # Deal 1, the first deal of Windows FreeCell.
    1: ("JD KD 2S 4C 3S 6D 6S",
        "2D KC KS 5C TD 8S 9C",
        "9H 9S 9D TS 4S 8D 2H",
        "JC 5S QD QH TH QS 6H",
        "5D AD JS 4H 8H 6C",
        "7H QC AS AC 2C 3D",
        "7C KH AH 4D JH 8C",
        "5H 3H 3C 7S 7D TC"),
    # Deal 617, the example often used to check an implementation of the generator.
    617: ("7D TD TH KD 4C 4S JD",
          "AD 7S QC 5H QS TS KS",
          "5C QD 3H 9S 9C 2H KC",
          "3S AC 9D 3C 9H 5D 4H",
          "5S 6D 6S 8S 7C JC",
          "8C 8H 8D 7H 6H 6C",
          "2D AS 3D 4D 2C JH",
          "AH KH TC JS 2S QH"),
    # Deal 11982, the one deal of the first 32,000 that cannot be won.
    11982: ("AH 3D KD JC 6C JD KC",
            "AS 3H 6H 5D 2C 7D 8D",
            "4H QS 5S 5C TH 8H 2S",
            "AC QC 4D 8C QH 9C 3S",
            "2D 8S 9H 9D 6D 2H",
            "6S 7H JH TD TC QD",
            "TS AD 9S KH 4S 4C",
            "JS KS 3C 7C 7S 5H"),
    # Deal 1,000,000, the last deal of Windows FreeCell.
    1_000_000: ("2D 9C KD JD 3H TC TS",
                "6H 3D 5H 7S 4S AS AH",
                "6S 7D 5D QD 3S 6D 9S",
                "TH 7C QH 8D KC 8H 4H",
                "JC QC JH 2H KH 2C",
                "3C AC 6C AD 9D QS",
                "4D 2S 9H 5C 7H 5S",
                "TD 4C KS 8C 8S JS"),
}


def tableau_codes(pos: Position) -> tuple[str, ...]:
    return tuple(" ".join(card_code(c) for c in pos.pile(f"tableau:{i}")) for i in range(8))


def test_deal_1_begins_as_everyone_knows_it() -> None:
    """The first row of deal 1, as Microsoft's generator deals it: JD 2D 9H JC 5D 7H 7C 5H."""
    assert [card_code(c) for c in microsoft_order(1)[:8]] == [
        "JD", "2D", "9H", "JC", "5D", "7H", "7C", "5H"]


@pytest.mark.parametrize("number", sorted(KNOWN_DEALS))
def test_a_known_deal_is_laid_out_card_for_card(number: int) -> None:
    """Each tableau pile of the deal, bottom to top, is the pile Freecell Solver's generator
    prints for the same number; every card is face up; the cells, the foundations and the
    stock are empty."""
    pos = Position.deal(FREECELL, number)
    assert tableau_codes(pos) == KNOWN_DEALS[number]
    assert all(c & UP for i in range(8) for c in pos.pile(f"tableau:{i}"))
    empty = [pid for pid in pos.layout.ids if not pid.startswith("tableau:")]
    assert empty and all(pos.pile(pid) == [] for pid in empty)


@pytest.mark.parametrize("number", sorted(KNOWN_DEALS))
def test_the_cards_are_dealt_row_by_row_left_to_right(number: int) -> None:
    """The generator's n-th card goes to pile n mod 8, row n div 8: 4 piles of 7, 4 of 6."""
    order = [card_code(c) for c in microsoft_order(number)]
    assert len(order) == 52 and len(set(order)) == 52
    piles = [layout.split() for layout in KNOWN_DEALS[number]]
    assert [len(p) for p in piles] == [7, 7, 7, 7, 6, 6, 6, 6]
    assert order == [piles[n % 8][n // 8] for n in range(52)]


def test_the_game_numbers_its_deals_as_microsoft_does() -> None:
    assert FREECELL.numbers is DealNumbers.MICROSOFT
    assert get_game("bakers-dozen").numbers is DealNumbers.OWN


@pytest.mark.parametrize("number", [0, 1, MICROSOFT_DEALS])
def test_numbers_0_to_1_000_000_are_freecell_deals(number: int) -> None:
    """Windows offered 1 to 1,000,000; the generator's deal 0 is accepted too."""
    assert check_deal_number(number, DealNumbers.MICROSOFT) == number
    assert len(microsoft_order(number)) == 52
    assert Position.deal(FREECELL, number).number == number


@pytest.mark.parametrize("number", [-1, MICROSOFT_DEALS + 1, 2**31, 2**64 - 1])
def test_a_number_outside_0_to_1_000_000_is_refused_for_freecell(number: int) -> None:
    """A FreeCell deal number is between 0 and 1,000,000: any other is refused, with that
    sentence, by the check, by the generator and by the deal itself."""
    sentence = "A deal number of this game is between 0 and 1000000"
    with pytest.raises(ValueError, match=f"^{sentence}$"):
        check_deal_number(number, DealNumbers.MICROSOFT)
    with pytest.raises(ValueError, match=f"^{sentence}$"):
        microsoft_order(number)
    with pytest.raises(ValueError, match=f"^{sentence}$"):
        Position.deal(FREECELL, number)


@pytest.mark.parametrize("number", [1.0, "7", True])
def test_a_freecell_deal_number_is_a_whole_number(number: object) -> None:
    with pytest.raises(ValueError, match="^A deal number is a whole number$"):
        check_deal_number(number, DealNumbers.MICROSOFT)  # type: ignore[arg-type]


def test_deal_11982_is_proved_lost_and_deal_617_won() -> None:
    """Under the game's rules (runs limited by the free places) deal 11982 cannot be won, as
    is known of it, and deal 617 can: the solver proves the one and wins the other, its line
    replaying to a win. The search is bounded by positions, never by time."""
    lost = solve(Position.deal(FREECELL, 11982), time_limit=None, max_states=2_000_000)
    assert lost.status == "lost"
    pos = Position.deal(FREECELL, 617)
    won = solve(pos, time_limit=None, max_states=2_000_000)
    assert won.status == "won"
    for raw in won.raw_line:
        pos.play(pos.to_move(raw))
    assert pos.is_won()
