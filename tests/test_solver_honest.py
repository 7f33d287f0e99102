"""The honest player and hints: they see only the player view, never a face-down card."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from reussite.cards import UP
from reussite.engine import Position
from reussite.games import get_game
from reussite.solver.hints import quick_move, suggest_move
from reussite.solver.honest import play_honest_game, sample_position


def hidden_swapped(pos: Position) -> Position:
    """A copy that looks the same to the player: two different face-down cards swapped."""
    other = pos.copy()
    hidden = [(i, k) for i, p in enumerate(other.piles) for k, c in enumerate(p)
              if not c & UP]
    (i1, k1) = hidden[0]
    (i2, k2) = next(h for h in reversed(hidden)
                    if other.piles[h[0]][h[1]] != other.piles[i1][k1])
    a, b = other.piles[i1][k1], other.piles[i2][k2]
    other.piles[i1][k1], other.piles[i2][k2] = b, a
    return other


@pytest.mark.parametrize(("game", "number"), [("klondike-draw-3", 4), ("spider", 2),
                                              ("astrocyte", 3), ("leap-year", 1)])
def test_a_hint_never_depends_on_a_face_down_card(game: str, number: int) -> None:
    pos = Position.deal(get_game(game), number)
    twin = hidden_swapped(pos)
    assert twin.player_view() == pos.player_view() and twin != pos
    hints = [suggest_move(p, time_limit=None, states_per_sample=200, samples=3, seed=11)
             for p in (pos, twin)]
    assert hints[0] is not None and hints[0] == hints[1]
    assert hints[0] in pos.raw_moves()


def test_a_sample_looks_the_same_and_holds_the_same_cards() -> None:
    pos = Position.deal(get_game("spider-2-suits"), 5)
    sample = sample_position(pos, random.Random(1))
    assert sample.player_view() == pos.player_view()
    assert Counter(c & 63 for p in sample.piles for c in p) == \
        Counter(c & 63 for p in pos.piles for c in p)
    assert sample != pos  # the 50 stock cards and 44 face-down cards were dealt anew


def test_no_hint_when_no_move_is_legal() -> None:
    pos = Position.deal(get_game("klondike"), 1)
    for i in range(len(pos.piles)):
        pos.piles[i] = []
    pos.piles[pos.layout.tableau[0]] = [8, 9 | UP]  # 2S face down under 2H face up
    assert pos.raw_moves() == []
    assert suggest_move(pos) is None and quick_move(pos) is None


def test_the_honest_player_plays_on_a_copy() -> None:
    pos = Position.deal(get_game("spider-1-suit"), 3)
    game = play_honest_game(pos, time_per_move=0.05, seed=1, samples=2, max_moves=5)
    assert game.moves == 5 and not pos.history


def test_the_honest_player_finishes_a_near_won_game() -> None:
    from test_solver import klondike_position

    # Every card home but the Kings and Queens of hearts and clubs, one pair face down.
    pos = klondike_position({f"foundation:{i}": [r + s for r in "A23456789TJ"]
                             for i, s in enumerate("SHDC")}
                            | {"foundation:0": [r + "S" for r in "A23456789TJQK"],
                               "foundation:2": [r + "D" for r in "A23456789TJQK"],
                               "tableau:0": ["KH", "QC"], "tableau:1": ["*KC", "QH"]}, [])
    game = play_honest_game(pos, time_per_move=0.05, seed=1, samples=2)
    assert game.status == "won"
