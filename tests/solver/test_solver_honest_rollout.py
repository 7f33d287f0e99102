"""The rollout player of the Spider-type games: it never reads a hidden card (its samples are
drawn from what the player sees), it is deterministic, and it plays a game to the end."""

from __future__ import annotations

import pytest
from test_solver_honest_visible import played, shuffled_hidden

from reussite.engine import STOCK_RAW, Position
from reussite.games import get_game
from reussite.solver.honest_rollout import (
    RolloutEffort,
    candidates,
    choose,
    play_rollout_game,
    rollout_move,
)
from reussite.solver.honest_visible import VisibleEffort, decide, masked_piles, visible_effort

SMALL = RolloutEffort(nodes=5_000, samples=3, rollout_nodes=1_000)


@pytest.mark.parametrize(("game", "number", "moves"),
                         [("spider", 2, 0), ("spider", 3, 40), ("astrocyte", 3, 0),
                          ("astrocyte", 5, 40)])
def test_the_rollout_player_never_reads_a_hidden_card(game: str, number: int,
                                                      moves: int) -> None:
    """Two positions that look the same to the player, their face-down cards and stock dealt
    differently: the same candidates, the same samples' judging, the same move."""
    pos = played(game, number, moves)
    weights = visible_effort(game, SMALL.nodes)
    for seed in (1, 2):
        twin = shuffled_hidden(pos, seed)
        assert twin.player_view() == pos.player_view() and twin.piles != pos.piles
        assert masked_piles(twin) == masked_piles(pos)
        assert candidates(twin, SMALL, weights) == candidates(pos, SMALL, weights)
        assert choose(twin, SMALL, weights) == choose(pos, SMALL, weights)
        assert rollout_move(twin, SMALL) == rollout_move(pos, SMALL)
    assert rollout_move(pos, SMALL) in pos.raw_moves()


def test_the_candidates_start_with_the_visible_players_choice() -> None:
    """The visible player's own line (cut at its first card turned up) is the first candidate,
    no two candidates lead to the same position, and each one is playable."""
    pos = played("spider", 5, 10)
    weights = visible_effort("spider", SMALL.nodes)
    lines = candidates(pos, SMALL, weights)
    first = decide(pos, VisibleEffort(SMALL.nodes, weights.weights))
    assert lines and lines[0] == first[:len(lines[0])]
    after = set()
    for line in lines:
        for m in line:
            assert m in pos.raw_moves()
            pos.push_raw(m)
        after.add(masked_piles(pos))
        for _ in line:
            pos.pop()
        assert STOCK_RAW not in line[:-1]
    assert len(after) == len(lines)


@pytest.mark.slow
def test_the_rollout_player_plays_to_the_end() -> None:
    pos = Position.deal(get_game("spider-1-suit"), 1)
    game = play_rollout_game(pos, SMALL)
    assert game.status in ("won", "lost") and game.moves > 50
    assert not pos.history  # played on a copy


def test_the_search_gives_the_best_through_each_root_move() -> None:
    """``visible_plan`` with ``k``: the same best line as without, and the best position
    reached through each of the root's moves (no two the same first move), highest first."""
    from dataclasses import astuple

    from reussite.solver import _core, core

    pos = played("spider", 7, 20)
    weights = visible_effort("spider", 5_000).weights
    args = (core.spec_of(pos), masked_piles(pos), pos.redeals_used, astuple(weights), False,
            5_000, False)
    plain = _core.visible_plan(*args)
    best, root, line, seen, alts = _core.visible_plan(*args, 4)
    assert (best, root, line, seen) == plain
    assert 1 <= len(alts) <= 4 and (alts[0][0] == best or best == root)
    assert [v for v, _ in alts] == sorted((v for v, _ in alts), reverse=True)
    assert len({tuple(alt[0]) for _, alt in alts}) == len(alts)
    for _, alt in alts:
        assert tuple(alt[0]) in pos.raw_moves()


@pytest.mark.slow
def test_winrate_plays_the_rollout_player() -> None:
    """``--method rollout`` reaches this player (``--states`` positions a decision's search,
    ``--samples`` samples); ``auto`` stays the visible player in Spider 4 suits."""
    from reussite.solver.batch import Tally, decide, honest_method

    outcome = decide("spider-1-suit", 1, None, "honest", 2_000, 2, method="rollout")
    assert outcome.status in ("won", "lost") and outcome.moves > 50
    assert honest_method("spider", "auto") == "visible"
    assert "candidates judged on 2 samples" in Tally("spider", "honest", None, 2_000, 2,
                                                     method="rollout").budget()
