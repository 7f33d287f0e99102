"""Standard and Vegas scoring of the Klondike family, rule by rule (reussite.scoring and the
"Scoring" part of docs/games.md)."""

from __future__ import annotations

import doctest

import pytest
from helpers import STOCK, make_position, move

import reussite.scoring
from reussite.engine import Position
from reussite.games import CATALOGUE, get_game
from reussite.scoring import Scores, scores, standard_score, vegas_score

SCORED = ["klondike", "klondike-draw-3", "athena", "minerva"]


def test_docstring_examples_run() -> None:
    result = doctest.testmod(reussite.scoring)
    assert result.attempted > 0 and result.failed == 0


def test_the_klondike_family_has_scoring_and_no_other_game() -> None:
    assert sorted(g for g, r in CATALOGUE.items() if r.klondike_score) == sorted(SCORED)
    for game_id in CATALOGUE:
        has = scores(Position.deal(get_game(game_id), 3)) is not None
        assert has == (game_id in SCORED), game_id


@pytest.mark.parametrize("game_id", SCORED)
def test_a_fresh_deal_scores_0_standard_and_minus_52_vegas(game_id: str) -> None:
    assert scores(Position.deal(get_game(game_id), 5)) == Scores(standard=0, vegas=-52)


def test_waste_to_tableau_scores_5() -> None:
    pos = make_position("klondike", {"waste": "8D", "tableau:0": "9C"})
    pos.play(move("waste", "tableau:0"))
    assert standard_score(pos) == 5


def test_waste_to_foundation_scores_10() -> None:
    pos = make_position("klondike", {"waste": "AH"})
    pos.play(move("waste", "foundation:0"))
    assert standard_score(pos) == 10


def test_tableau_to_foundation_scores_10() -> None:
    pos = make_position("klondike", {"tableau:2": "AS"})
    pos.play(move("tableau:2", "foundation:1"))
    assert standard_score(pos) == 10


def test_turning_a_tableau_card_up_scores_5_more() -> None:
    pos = make_position("klondike", {"tableau:2": "(KD) AS"})
    pos.play(move("tableau:2", "foundation:1"))
    assert standard_score(pos) == 10 + 5


def test_a_run_moved_on_the_tableau_scores_only_the_card_it_turns_up() -> None:
    pos = make_position("klondike", {"tableau:0": "(4C) 8D 7S", "tableau:1": "9C"})
    pos.play(move("tableau:0", "tableau:1", 2))
    assert standard_score(pos) == 5
    pos = make_position("klondike", {"tableau:0": "QD 8D 7S", "tableau:1": "9C"})
    pos.play(move("tableau:0", "tableau:1", 2))
    assert standard_score(pos) == 0


def test_foundation_to_tableau_costs_15_but_not_below_0() -> None:
    pos = make_position("klondike", {"foundation:0": "AH", "tableau:0": "2S"})
    pos.play(move("foundation:0", "tableau:0"))
    assert standard_score(pos) == 0


def test_foundation_to_tableau_costs_15() -> None:
    pos = make_position("klondike", {"tableau:0": "(9D) AH", "tableau:1": "(9S) 2H",
                                     "tableau:2": "3S"})
    pos.play(move("tableau:0", "foundation:0"))  # +10 +5
    pos.play(move("tableau:1", "foundation:0"))  # +10 +5
    assert standard_score(pos) == 30
    pos.play(move("foundation:0", "tableau:2"))
    assert standard_score(pos) == 30 - 15


def test_turning_the_waste_over_costs_100_drawing_one() -> None:
    pos = make_position("klondike", {"tableau:0": "(9D) AH", "tableau:1": "(9S) AS",
                                     "tableau:2": "(9C) AC", "tableau:3": "(8C) AD",
                                     "stock": "(5C) (6C)"})
    for i in range(4):
        pos.play(move(f"tableau:{i}", f"foundation:{i}"))
    assert standard_score(pos) == 60
    pos.play(STOCK)
    pos.play(STOCK)
    assert standard_score(pos) == 60  # drawing scores nothing
    pos.play(STOCK)  # the waste turned over
    assert pos.redeals_used == 1
    assert standard_score(pos) == 0  # 60 - 100 stops at 0


@pytest.mark.parametrize("game_id", ["klondike-draw-3", "athena"])
def test_turning_the_waste_over_costs_20_drawing_three(game_id: str) -> None:
    pos = make_position(game_id, {"tableau:0": "(9D) AH", "tableau:1": "(9S) AS",
                                  "stock": "(5C) (6C)"})
    pos.play(move("tableau:0", "foundation:0"))
    pos.play(move("tableau:1", "foundation:1"))
    pos.play(STOCK)
    pos.play(STOCK)
    assert standard_score(pos) == 30 - 20


def test_the_score_never_goes_below_0() -> None:
    pos = make_position("klondike", {"stock": "(5C)"})
    pos.play(STOCK)
    pos.play(STOCK)
    assert standard_score(pos) == 0


def test_a_move_taken_back_takes_its_points_with_it() -> None:
    pos = make_position("klondike", {"tableau:2": "(KD) AS"})
    pos.play(move("tableau:2", "foundation:1"))
    pos.pop()
    assert standard_score(pos) == 0
    assert vegas_score(pos) == -52


def test_minerva_reserve_cards_score_as_the_waste_s_and_their_turning_up_nothing() -> None:
    pos = make_position("minerva", {"reserve:0": "(3D) AS", "tableau:0": "9C"})
    pos.play(move("reserve:0", "foundation:0"))
    assert standard_score(pos) == 10  # the reserve's next card turned up: no points
    pos = make_position("minerva", {"reserve:0": "(3D) 8H", "tableau:0": "9C"})
    pos.play(move("reserve:0", "tableau:0"))
    assert standard_score(pos) == 5


def test_vegas_pays_5_a_card_on_the_foundations_and_takes_it_back() -> None:
    pos = make_position("klondike", {"tableau:0": "(9D) AH", "tableau:1": "(9S) 2H",
                                     "tableau:2": "3S"})
    pos.play(move("tableau:0", "foundation:0"))
    pos.play(move("tableau:1", "foundation:0"))
    assert vegas_score(pos) == -52 + 10
    pos.play(move("foundation:0", "tableau:2"))
    assert vegas_score(pos) == -52 + 5


def test_a_won_klondike_game_pays_208_over_the_deal_in_vegas() -> None:
    from reussite.solver.search import solve

    pos = Position.deal(get_game("klondike"), 1)
    result = solve(pos.copy(), time_limit=10)
    assert result.status == "won"
    for m in result.moves:
        pos.play(m)
    assert pos.is_won()
    assert vegas_score(pos) == 52 * 5 - 52
