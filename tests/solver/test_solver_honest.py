"""The sampling and planning players and the hints: they see only an observation, never a
face-down card."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from reussite.cards import UP
from reussite.engine import Position
from reussite.games import get_game
from reussite.observation import UNKNOWN, Memory, observe
from reussite.solver.hints import quick_move, suggest_move
from reussite.solver.planning import BeamEffort, PlanningPlayer
from reussite.solver.player import Game, play_game
from reussite.solver.sampling import (
    Effort,
    SamplingPlayer,
    lookahead_value,
    ranked_steps,
    root_steps,
)


def play_sampling_game(pos: Position, effort: Effort, seed: int, max_moves: int = 2_000) -> Game:
    return play_game(pos, SamplingPlayer(effort, seed), max_moves=max_moves, patience=120)


def hidden_swapped(pos: Position, unseen_only: bool = False) -> Position:
    """A copy that looks the same to the player now: two different face-down cards swapped;
    with ``unseen_only``, two the player never saw, so that its whole history looks the same
    too."""
    known = Memory.of(pos).known if unseen_only else None
    other = pos.copy()
    hidden = [(i, k) for i, p in enumerate(other.piles) for k, c in enumerate(p)
              if not c & UP and (known is None or known[i][k] == UNKNOWN)]
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
    assert pos == Position.deal(get_game(game), number) and not pos.history  # left untouched


def test_a_sample_looks_the_same_and_holds_the_same_cards() -> None:
    pos = Position.deal(get_game("spider-2-suits"), 5)
    sample = observe(pos).sample(random.Random(1))
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
    game = play_sampling_game(pos, Effort(samples=2, states_per_sample=200), seed=1, max_moves=5)
    assert (game.moves, game.ending, game.states) == (5, "too long", 18_543)
    assert not pos.history


def test_the_honest_player_finishes_a_near_won_game() -> None:
    from test_solver import klondike_position

    # Every card home but the Kings and Queens of hearts and clubs, one pair face down.
    pos = klondike_position({f"foundation:{i}": [r + s for r in "A23456789TJ"]
                             for i, s in enumerate("SHDC")}
                            | {"foundation:0": [r + "S" for r in "A23456789TJQK"],
                               "foundation:2": [r + "D" for r in "A23456789TJQK"],
                               "tableau:0": ["KH", "QC"], "tableau:1": ["*KC", "QH"]}, [])
    game = play_sampling_game(pos, Effort(samples=2, states_per_sample=500), seed=1)
    assert game.status == "won" and game.ending == "won"


def random_game(game: str, number: int, moves: int, rng: random.Random) -> Position:
    """A deal played ``moves`` random legal moves, the stock clicked often (so that wastes
    are turned over and reserves gathered)."""
    pos = Position.deal(get_game(game), number)
    for _ in range(moves):
        legal = pos.raw_moves()
        if not legal:
            break
        stock = [m for m in legal if m[0] < 0]
        pos.push_raw(stock[0] if stock and rng.random() < 0.5 else rng.choice(legal))
    return pos


def seen_places(pos: Position) -> set[tuple[int, int]]:
    """Brute force: the places whose card was face up at some moment of the game (follow each
    card value's place through the moves; one pack, so values are unique)."""
    start = pos.copy()
    line = [raw for raw, _ in start.history]
    while start.history:
        start.pop()
    seen = {c & 63 for p in start.piles for c in p if c & UP}
    for raw in line:
        start.push_raw(raw)
        seen |= {c & 63 for p in start.piles for c in p if c & UP}
    return {(i, k) for i, p in enumerate(pos.piles) for k, c in enumerate(p) if c & 63 in seen}


@pytest.mark.parametrize("game", ["klondike-draw-3", "klondike", "minerva", "auld-lang-syne"])
def test_the_memory_holds_exactly_the_cards_seen(game: str) -> None:
    rng = random.Random(game)
    for number in range(6):
        pos = random_game(game, number, 120, rng)
        memory = Memory.of(pos)
        known = {(i, k) for i, p in enumerate(memory.known) for k, c in enumerate(p)
                 if c != UNKNOWN}
        assert known == seen_places(pos)
        for i, k in known:
            assert memory.known[i][k] == pos.piles[i][k] & 63


def test_the_memory_of_a_turned_over_stock_knows_its_order() -> None:
    pos = Position.deal(get_game("klondike-draw-3"), 9)
    for _ in range(9):  # eight draws of three, then the waste turned over
        pos.push_raw((-1, -1, 0))
    assert pos.redeals_used == 1 and not pos.piles[pos.layout.waste]
    memory = Memory.of(pos)
    assert memory.known[0] == [c & 63 for c in pos.piles[0]]
    sample = observe(pos, memory).sample(random.Random(3))
    assert sample.piles[0] == pos.piles[0]  # the stock as it is; only the tableau is guessed
    assert sample.player_view() == pos.player_view()


def test_the_memory_knows_the_gathered_reserves() -> None:
    pos = Position.deal(get_game("quadrennial"), 2)
    while pos.redeals_used == 0:
        pos.push_raw((-1, -1, 0))
    memory = Memory.of(pos)
    assert memory.known[0] == [c & 63 for c in pos.piles[0]]
    assert all(c != UNKNOWN for p in memory.known for c in p)


def test_the_honest_player_first_looks_through_a_free_stock() -> None:
    """With a waste turned over without limit, one round of clicks costs nothing and shows
    every stock card: the honest player does it before anything else."""
    pos = Position.deal(get_game("klondike-draw-3"), 4)
    ranked = ranked_steps(observe(pos), Effort(samples=2, states_per_sample=100))
    assert ranked == [(2.0, ((-1, -1, 0),))]


@pytest.mark.parametrize(("game", "number"), [("klondike-draw-3", 5), ("athena", 2),
                                              ("minerva", 3)])
def test_a_hint_after_moves_depends_only_on_cards_seen(game: str, number: int) -> None:
    """Two games whose every view was the same (the stock turned over, so the player knows
    it) get the same hint; the memories are equal too."""
    rng = random.Random(number)
    pos = random_game(game, number, 60, rng)
    twin = hidden_swapped(pos, unseen_only=True)
    assert twin != pos
    a, b = pos.copy(), twin.copy()
    assert a.redeals_used > 0  # the player has seen the stock go by
    while a.history:  # every view of both games, from the deal on, is the same
        assert a.player_view() == b.player_view()
        a.pop()
        b.pop()
    assert a.player_view() == b.player_view()
    assert Memory.of(pos).known == Memory.of(twin).known
    hints = [suggest_move(p, time_limit=None, states_per_sample=200, samples=3, seed=5)
             for p in (pos, twin)]
    assert hints[0] is not None and hints[0] == hints[1]


def test_a_hint_never_reads_a_stock_the_player_has_not_seen() -> None:
    """The search's stock macros read the stock: with a stock partly unseen (a waste card
    played during the first pass, so no free look through it), the steps are single moves,
    and a stock dealt otherwise gives the same ranking and hint."""
    for number in range(100):
        pos = Position.deal(get_game("klondike-draw-3"), number)
        pos.push_raw((-1, -1, 0))
        waste = [m for m in pos.raw_moves() if m[0] == pos.layout.waste]
        if waste:
            break
    pos.push_raw(waste[0])
    twin = pos.copy()
    unseen = [i for i, c in enumerate(Memory.of(pos).known[0]) if c == UNKNOWN]
    assert len(unseen) > 10
    twin.piles[0][unseen[0]], twin.piles[0][unseen[-1]] = (twin.piles[0][unseen[-1]],
                                                           twin.piles[0][unseen[0]])
    assert twin != pos and twin.player_view() == pos.player_view()
    effort = Effort(samples=3, states_per_sample=300)
    ranked = [ranked_steps(observe(p), effort, seed=2) for p in (pos, twin)]
    assert ranked[0] == ranked[1]
    assert all(len(step) == 1 for _, step in ranked[0])
    assert ((-1, -1, 0),) in [step for _, step in ranked[0]]


def test_the_ranking_sees_only_what_the_player_has_seen() -> None:
    """Two games whose every view was the same get the same ranking."""
    rng = random.Random(5)
    pos = random_game("klondike-draw-3", 5, 60, rng)
    twin = hidden_swapped(pos, unseen_only=True)
    assert twin != pos
    effort = Effort(samples=3, states_per_sample=300)
    ranked = [ranked_steps(observe(p), effort, seed=3) for p in (pos, twin)]
    assert ranked[0] and ranked[0] == ranked[1]


@pytest.mark.slow
@pytest.mark.parametrize(("game", "number"), [("spider", 2), ("astrocyte", 3)])
def test_the_planning_player_never_reads_a_face_down_card(game: str, number: int) -> None:
    """Two positions that look the same to the player, their hidden cards (face down and in
    the stock) dealt differently: the planning player of Spider-type games (its samples, the
    beam's plans on them, their votes) makes the same move in both."""
    pos = Position.deal(get_game(game), number)
    twin = hidden_swapped(pos)
    twin.piles[0].reverse()  # the stock's order too
    assert twin.player_view() == pos.player_view() and twin != pos
    effort = BeamEffort(samples=3, states=100_000)
    players = [PlanningPlayer(effort, seed=5) for _ in (pos, twin)]
    choices = [player.choose(observe(p)) for player, p in zip(players, (pos, twin), strict=True)]
    moves = [choice.steps[0][0] for choice in choices]
    assert moves[0] == moves[1] and moves[0] in pos.raw_moves() and choices[0] == choices[1]
    assert [s.pos for s in players[0].samples] == [s.pos for s in players[1].samples]
    assert [s.plan for s in players[0].samples] == [s.plan for s in players[1].samples]
    assert pos == Position.deal(get_game(game), number) and not pos.history  # left untouched


@pytest.mark.slow
def test_the_planning_player_repairs_its_samples_as_cards_turn_up() -> None:
    """After each move every sample looks like the game again (the cards turned up swapped
    in), and holds the deck's cards."""
    pos = Position.deal(get_game("spider"), 4)
    player = PlanningPlayer(BeamEffort(samples=3, states=100_000), seed=2)
    deck = Counter(c & ~UP for p in pos.piles for c in p)
    for _ in range(12):
        steps = player.choose(observe(pos)).steps  # none once it resigns: a legal move then
        pos.push_raw(steps[0][0] if steps else pos.raw_moves()[0])
        player.follow(observe(pos))
        for s in player.samples:
            assert s.pos.player_view() == pos.player_view()
            assert Counter(c & ~UP for p in s.pos.piles for c in p) == deck


def turns_a_card_up(pos: Position, step: tuple[tuple[int, int, int], ...]) -> bool:
    """The step's move uncovers a face-down tableau card."""
    src, _, n = step[-1]
    pile = pos.piles[src] if src >= 0 and pos.layout.kinds[src] == "tableau" else []
    return len(pile) > n and not pile[-n - 1] & UP


def test_the_lookahead_sees_only_what_the_player_has_seen() -> None:
    """The chance-node lookahead (``Effort.lookahead``) samples the information sets a step
    leads to from what they show: two games whose every view was the same, and two fresh
    deals that look alike, get the same ranking and the same lookahead values, a step that
    turns a card up included."""
    rng = random.Random(5)
    pos = random_game("klondike-draw-3", 5, 60, rng)
    fresh = Position.deal(get_game("klondike-draw-3"), 4)
    effort = Effort(samples=3, states_per_sample=200, lookahead=3)
    for a in (pos, fresh):
        b = hidden_swapped(a, unseen_only=True) if a is pos else hidden_swapped(a)
        assert b != a and b.player_view() == a.player_view()
        ranked = [ranked_steps(observe(p), effort, seed=3) for p in (a, b)]
        assert ranked[0] and ranked[0] == ranked[1]
        reveals = [s for s in root_steps(observe(a)) if turns_a_card_up(a, s)]
        for step in reveals[:1]:
            values = [lookahead_value(observe(p), step, effort, seed=4) for p in (a, b)]
            assert values[0] == values[1]


@pytest.mark.parametrize(("game", "number"), [("klondike-draw-3", 5), ("minerva", 3),
                                              ("spider", 2), ("spider-2-suits", 1),
                                              ("astrocyte", 3)])
def test_what_differs_only_face_down_is_one_observation_and_one_choice(game: str,
                                                                      number: int) -> None:
    """Two games whose every view was the same, their unseen cards dealt differently: the
    same observation (no position, no deal number, no unseen card in it), the same choice
    from every player that plays the game, the same hint."""
    from dataclasses import fields

    from reussite.engine import HIDDEN
    from reussite.solver.visible import VisibleEffort, VisiblePlayer

    spider_type = game in ("spider", "spider-2-suits", "astrocyte")
    pos = random_game(game, number, 8 if spider_type else 40, random.Random(number))
    assert pos.raw_moves()
    twin = hidden_swapped(pos, unseen_only=True)
    assert twin != pos and twin.number == pos.number
    twin.number += 1
    obs = observe(pos)
    assert observe(twin) == obs
    assert [f.name for f in fields(obs)] == ["rules", "piles", "redeals_used", "history",
                                             "known"]
    assert [[c if c & UP else HIDDEN for c in p] for p in pos.piles] == \
        [list(p) for p in obs.piles]
    makers = [lambda: SamplingPlayer(Effort(samples=2, states_per_sample=100), 3)]
    if spider_type:
        makers += [lambda: VisiblePlayer(VisibleEffort(nodes=2_000)),
                   lambda: PlanningPlayer(BeamEffort(samples=2, states=100_000), 3)]
    for make in makers:
        choices = [make().choose(observe(p)) for p in (pos, twin)]
        assert choices[0] == choices[1] and (choices[0].steps or choices[0].line)
    hints = [suggest_move(p, time_limit=None, samples=2, states_per_sample=100)
             for p in (pos, twin)]
    assert hints[0] is not None and hints[0] == hints[1]


def test_without_the_c_core_the_table_names_the_sampling_player(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The visible and planning players need the C core: without it the table's own
    fallback plays and hints (the sampling player), and the hint is that player's move."""
    from reussite.solver import core
    from reussite.solver.players import HINT, LOOKAHEAD, seat
    from reussite.solver.sampling import sampling_move
    from reussite.solver.visible import VisibleEffort

    assert isinstance(seat("spider", "hint"), VisibleEffort)
    assert isinstance(seat("spider-2-suits", "play"), BeamEffort)
    monkeypatch.setattr(core, "available", lambda: False)
    assert seat("spider", "hint") == HINT and seat("astrocyte", "hint") == HINT
    assert {seat(g, "play") for g in ("spider", "astrocyte", "spider-2-suits")} == {Effort()}
    assert seat("klondike", "play") == LOOKAHEAD and seat("minerva", "hint") == HINT
    pos = Position.deal(get_game("spider"), 2)
    budget = Effort(samples=2, states_per_sample=100, time_limit=None)
    assert suggest_move(pos, time_limit=None, samples=2, states_per_sample=100) == \
        sampling_move(observe(pos), budget)


def test_the_table_puts_the_c_core_players_in_spider_type_games_only() -> None:
    """The visible and planning players are for games whose stock deals a row onto the
    tableau (never formed again, for the visible player)."""
    from reussite.games import CATALOGUE
    from reussite.rules import Redeal, StockAction
    from reussite.solver.players import PLAYERS, player_name

    for game, players in PLAYERS.items():
        rules = CATALOGUE[game]
        for chosen in (players.play, players.hint):
            name = player_name(chosen.effort)
            assert (name == "sampling") == (chosen.without_core is None), game
            if name != "sampling":
                assert rules.stock.action is StockAction.DEAL_TO_TABLEAU and rules.tableau
            if name == "visible":
                assert rules.stock.redeal is Redeal.NONE
