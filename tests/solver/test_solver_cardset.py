"""The card-set search of Klondike-type games (docs/solver.md, "The card-set search"): a
position seen as the cards home, how many of each pile's own cards are still in place and the
stock and waste, the face-up tableau cards as a set whose arrangement is forgotten. Every
winning line of the game is one of its lines, so its ``lost`` is a proof; its wins are turned
into real lines (each move checked against the legal moves) and replayed.
"""

from __future__ import annotations

import random

import pytest
from helpers import NO_CARD_SET, assert_raw_line_wins, random_walk

from reussite.engine import Position
from reussite.games import get_game
from reussite.solver import core

WON, LOST, UNKNOWN, NOT_APPLICABLE = 0, 1, 2, -1

CARDSET_GAMES = ("klondike", "klondike-draw-3", "athena", "minerva")


def _cardset(pos: Position, max_states: int = 2_000_000, chunk: int = 0,
             safe: bool = True) -> tuple[int, int]:
    return core.testing_cardset(pos, max_states, chunk, safe)


def _positions(seed: int, count: int) -> list[Position]:
    """Positions of Klondike and Klondike draw 3 along a line the exact search found (or at
    the deal), then a few random moves: small enough for the exact search to decide."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        game_id = rng.choice(CARDSET_GAMES)
        pos = Position.deal(get_game(game_id), rng.randrange(1, 5000))
        status, line, _ = core.solve_raw(pos, None, 60_000, False, beam=False)
        if status == "won":
            for m in line[:rng.randrange(len(line) // 3, len(line) + 1)]:
                pos.push_raw(m)
        random_walk(pos, rng, rng.randrange(0, 40))
        out.append(pos)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_card_set_search_never_calls_a_winnable_position_lost(seed: int) -> None:
    """Soundness, on positions the exact search (no win finder, no card-set search: the
    reference search) decides: where it wins, the card-set search never says lost; where the
    card-set search says lost, the exact search never wins. Both answers occur, on every
    position both decide they agree (the picture was exact on these), and the safe-card
    pruning changes no answer."""
    seen: dict[tuple[str, int], int] = {}
    for pos in _positions(seed, 30):
        exact, _, _ = core.solve_raw(pos, None, 300_000, False, beam=False)
        card, _ = _cardset(pos)
        assert card != NOT_APPLICABLE, pos.rules.id
        every, _ = _cardset(pos, safe=False)
        if UNKNOWN not in (card, every):  # the safe-card pruning changes no answer
            assert card == every, (pos.rules.id, pos.number)
        if exact == "won":
            assert card != LOST, (pos.rules.id, pos.number)
        if card == LOST:
            assert exact != "won", (pos.rules.id, pos.number)
        if exact != "unknown" and card != UNKNOWN:
            assert (exact == "won") == (card == WON), (pos.rules.id, pos.number, exact, card)
        seen[(exact, card)] = seen.get((exact, card), 0) + 1
    assert seen.get(("won", WON), 0) > 0, seen
    assert seen.get(("lost", LOST), 0) + seen.get(("unknown", LOST), 0) > 0, seen


@pytest.mark.slow
def test_a_resumed_card_set_search_answers_as_one_run() -> None:
    """The search stopped by its budget and resumed (the two runs of the solver) answers as a
    single run: states left half searched on the path are searched again, nothing else."""
    answers = {WON: 0, LOST: 0}
    for number in (1, 2, 3, 4, 10, 11, 16, 72, 103, 189):
        pos = Position.deal(get_game("klondike-draw-3"), number)
        whole, n_whole = _cardset(pos)
        pieces, n_pieces = _cardset(pos, chunk=1_000)
        assert whole in (WON, LOST)
        assert pieces == whole, number
        if whole == LOST:  # every state searched once, those cut on the path again
            assert n_pieces >= n_whole
        answers[whole] += 1
    assert answers == {WON: 5, LOST: 5}


@pytest.mark.slow
def test_the_solver_proves_a_deal_lost_with_the_card_set_search() -> None:
    """Klondike draw 3 deal 103, unknown at 10 s of CPU of the other phases, is lost in 11,511
    pictures; with the search turned off (``settings=NO_CARD_SET``) the same budget leaves it
    unknown."""
    pos = Position.deal(get_game("klondike-draw-3"), 103)
    assert _cardset(pos) == (LOST, 11_511)
    status, line, _ = core.solve_raw(pos, None, 2_000_000, False)
    assert (status, line) == ("lost", [])
    assert core.testing_last_phase() == "card-set"
    assert core.solve_raw(pos, None, 2_000_000, False, settings=NO_CARD_SET)[0] == "unknown"


def test_the_solver_wins_a_deal_with_the_card_set_search_and_the_line_replays() -> None:
    """Klondike draw 3 deal 682, unknown at 10 s of CPU before, Klondike (draw one) deal 2 and
    Minerva deal 1 (its reserve, one turn of the waste):
    the card-set search's win becomes a line of real moves (a card lying on the card to go
    home moved onto its twin, clicks up to a stock card) that the engine replays to a win."""
    for game_id, number in (("klondike-draw-3", 682), ("klondike", 2), ("minerva", 1)):
        pos = Position.deal(get_game(game_id), number)
        status, line, _ = core.solve_raw(pos, None, 3_000_000, False)
        assert status == "won", (game_id, number)
        assert core.testing_last_phase() == "card-set", (game_id, number)
        assert_raw_line_wins(pos, line)


def test_drawing_one_a_safe_stock_card_goes_home_alone() -> None:
    """Klondike (draw one) deal 3 is lost: in 924 pictures with the safe stock and waste cards
    played alone, against 6,808 with every move searched; the same answer both ways."""
    pos = Position.deal(get_game("klondike"), 3)
    assert _cardset(pos) == (LOST, 924)
    assert _cardset(pos, safe=False) == (LOST, 6_808)


@pytest.mark.parametrize(("seed", "card_set_wins"), [(4, 12), (5, 11)])
def test_every_card_set_win_replays(seed: int, card_set_wins: int) -> None:
    """On random positions (along won lines, then random moves), every win the solver
    answers with the card-set search replays through the engine."""
    wins = 0
    for pos in _positions(seed, 15):
        status, line, _ = core.solve_raw(pos, None, 1_000_000, False)
        if status == "won" and core.testing_last_phase() == "card-set":
            wins += 1
            assert_raw_line_wins(pos, line)
    assert wins == card_set_wins


def test_the_card_set_search_is_only_for_klondike_type_games() -> None:
    """It needs Klondike's building rules: Klondike, Klondike draw 3, Athena (whose deal has
    face-up cards under face-down ones) and Minerva (a reserve, one turn of the waste, no card
    back from a foundation); not Spider, Leap Year, Astrocyte, Fred's Spider."""
    for game_id in ("spider", "leap-year", "astrocyte", "freds-spider"):
        pos = Position.deal(get_game(game_id), 1)
        assert _cardset(pos, 1_000)[0] == NOT_APPLICABLE, game_id
    for game_id in CARDSET_GAMES:
        pos = Position.deal(get_game(game_id), 1)
        assert _cardset(pos, 1_000)[0] != NOT_APPLICABLE, game_id


def test_searches_asked_for_their_best_line_do_not_use_it() -> None:
    """The honest player's samples and the hints ask for the best line: they search as before
    (the player was measured with those searches), so deal 103 is not decided by it there."""
    pos = Position.deal(get_game("klondike-draw-3"), 103)
    core.solve_raw(pos, None, 200_000, True)
    assert core.testing_last_phase() != "card-set"
