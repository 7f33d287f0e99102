"""The visible player, that searches the visible moves (Spider-type games): it never reads a
hidden card, and it plays a game to the end. The helpers below ask it about a position through
that position's observation (:func:`reussite.observation.observe`), as a game does."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from reussite.cards import KING, UP, rank_of
from reussite.engine import STOCK_RAW, Position
from reussite.games import get_game
from reussite.observation import observe
from reussite.solver import visible
from reussite.solver.player import Game, play_game
from reussite.solver.players import seat
from reussite.solver.visible import VisibleEffort, VisiblePlayer, Weights, _turned

PLAIN = VisibleEffort()


def visible_effort(game: str, nodes: int | None = None) -> VisibleEffort:
    """The visible player's effort in ``game`` (:mod:`reussite.solver.players`; the plain one
    where another player plays it), ``nodes`` positions a search."""
    effort = seat(game, "play")
    effort = effort if isinstance(effort, VisibleEffort) else VisibleEffort()
    return effort if nodes is None else replace(effort, nodes=nodes)


def decide(pos: Position, effort: VisibleEffort,
           spent: list[int] | None = None) -> list[tuple[int, int, int]]:
    return visible.decide(observe(pos), effort, spent)


def visible_move(pos: Position,
                 effort: VisibleEffort = PLAIN) -> tuple[int, int, int] | None:
    return visible.visible_move(observe(pos), effort)


def masked_piles(pos: Position) -> tuple[bytes, ...]:
    return observe(pos).masked_piles()


def last_resort(pos: Position, effort: VisibleEffort) -> list[tuple[int, int, int]]:
    obs = observe(pos)
    return visible.last_resort(obs, obs.stand_in(), effort, [0])


def evaluation_after(pos: Position, line: list[tuple[int, int, int]],
                     effort: VisibleEffort) -> int:
    obs = observe(pos)
    return visible.evaluation_after(obs, obs.stand_in(), line, effort)


def play_visible_game(pos: Position, effort: VisibleEffort = PLAIN) -> Game:
    return play_game(pos, VisiblePlayer(effort), max_moves=5_000, patience=300)


def shuffled_hidden(pos: Position, seed: int) -> Position:
    """A copy that looks the same to the player: every face-down card (the stock's too) dealt
    again at random among the face-down places."""
    other = pos.copy()
    places = [(i, k) for i, p in enumerate(other.piles) for k, c in enumerate(p)
              if not c & UP]
    cards = [other.piles[i][k] for i, k in places]
    random.Random(seed).shuffle(cards)
    for (i, k), c in zip(places, cards, strict=True):
        other.piles[i][k] = c
    return other


def played(game: str, number: int, moves: int) -> Position:
    """The deal after up to ``moves`` of the player's moves (a position with cards turned up,
    a deal made)."""
    pos = Position.deal(get_game(game), number)
    effort = VisibleEffort(nodes=2_000)
    for _ in range(moves):
        line = decide(pos, effort)
        if not line:
            break
        pos.push_raw(line[0])
    return pos


@pytest.mark.parametrize(("game", "number", "moves"),
                         [("spider", 2, 0), ("spider", 3, 40), ("astrocyte", 3, 0),
                          ("astrocyte", 5, 40), ("spider-2-suits", 1, 30)])
def test_the_visible_player_never_reads_a_hidden_card(game: str, number: int,
                                                      moves: int) -> None:
    """Two positions that look the same to the player, their face-down cards and stock dealt
    differently: the same masked position, the same line, the same move."""
    pos = played(game, number, moves)
    for seed in (1, 2):
        twin = shuffled_hidden(pos, seed)
        assert twin.player_view() == pos.player_view() and twin.piles != pos.piles
        assert masked_piles(twin) == masked_piles(pos)
        for effort in (VisibleEffort(nodes=5_000), visible_effort(game, 5_000)):
            # the plain weights, and the game's own (Astrocyte: the King terms, the last resort)
            assert decide(twin, effort) == decide(pos, effort)
            assert visible_move(twin, effort) == visible_move(pos, effort)
    assert visible_move(pos) in pos.raw_moves()


def test_the_masked_position_shows_no_hidden_card() -> None:
    pos = Position.deal(get_game("spider"), 4)
    masked = masked_piles(pos)
    for pile, seen in zip(pos.piles, masked, strict=True):
        assert len(pile) == len(seen)
        assert all(m == (c if c & UP else 0) for c, m in zip(pile, seen, strict=True))


def test_the_visible_player_deals_last() -> None:
    """A line ends with the deal, if at all: nothing is dealt while a better position is in
    reach, and the player looks again after each card turned up."""
    pos = Position.deal(get_game("spider-1-suit"), 1)
    for _ in range(30):
        line = decide(pos, VisibleEffort(nodes=2_000))
        assert line and STOCK_RAW not in line[:-1]
        pos.push_raw(line[0])


def test_the_visible_player_wins_spider_1_suit() -> None:
    pos = Position.deal(get_game("spider-1-suit"), 1)
    game = play_visible_game(pos)
    assert game.status == "won" and game.home == 104
    assert not pos.history  # played on a copy


def _root_eval(pos: Position, weights: Weights) -> int:
    from dataclasses import astuple

    from reussite.solver import _core, core

    return int(_core.visible_plan(core.spec_of(pos), masked_piles(pos), pos.redeals_used,
                                  astuple(weights), False, 1)[1])


def test_the_king_terms_of_the_evaluation() -> None:
    """Astrocyte's King terms: a King in a cell costs ``king_cell`` (it can go back only to an
    empty pile), a face-up King above another card of its pile ``king_high``; a King at the
    bottom of a pile costs nothing."""
    rules = get_game("astrocyte")
    pos = Position.deal(rules, 1)
    ids = pos.layout.ids
    cell, t0, t1 = ids.index("cell:0"), ids.index("tableau:0"), ids.index("tableau:1")
    king = 13 << 2 | UP
    piles = [list(p) for p in pos.piles]
    piles[t0][-1] = king  # a face-up King on the face-down cards of pile 0
    piles[cell] = [king | 1]  # another King in a cell
    piles[t1] = [king | 2]  # a King alone on its pile
    crafted = Position(rules, 1, piles)
    plain = Weights(down=10, column=6, suit=5, rank=1)
    assert _root_eval(crafted, replace(plain, king_cell=30)) == _root_eval(crafted, plain) - 30
    high = sum(1 for pid, pile in zip(ids, piles, strict=True) if pid.startswith("tableau")
               for c in pile[1:] if c & UP and rank_of(c) == KING)
    assert high >= 1 and piles[t1][0] & UP
    assert _root_eval(crafted, replace(plain, king_high=7)) == _root_eval(crafted, plain) - 7 * high



def test_the_last_resort_turns_a_card_up_or_gives_nothing() -> None:
    """When the game would end, the last resort's line ends at a card turned up (whatever the
    evaluation), else it is empty; it reads the masked position only (same line for a twin)."""
    effort = visible_effort("astrocyte", 5_000)
    assert effort.last_resort and visible_effort("spider").last_resort
    assert not visible_effort("spider-2-suits").last_resort
    assert visible_effort("astrocyte").resort_before_deal is None
    assert visible_effort("spider").resort_before_deal is not None
    for number, moves in ((3, 0), (5, 40)):
        pos = played("astrocyte", number, moves)
        line = last_resort(pos, effort)
        assert line, "a card can be turned up in these positions"
        for m in line:
            assert m in pos.raw_moves()
            pos.push_raw(m)
        assert _turned(pos) and not any(_turned_at(pos, k) for k in range(1, len(line)))
        for _ in line:
            pos.pop()
        assert last_resort(shuffled_hidden(pos, 1), effort) == line


def _turned_at(pos: Position, back: int) -> bool:
    """The move ``back`` moves before the last turned a card up."""
    from reussite.engine import FLIP

    raw, ops = pos.history[-1 - back]
    return raw == STOCK_RAW or any(op[0] == FLIP for op in ops)


@pytest.mark.parametrize(("number", "moves"), [(1, 9), (3, 11), (6, 8), (8, 30)])
def test_the_deeper_search_before_a_deal_never_reads_a_hidden_card(number: int,
                                                                    moves: int) -> None:
    """Spider 4 suits' effort (``visible_effort``: its weights, a deeper search before a
    deal): two positions that look the same to the player give the same line and move, also
    where the first search finds nothing better and the deeper one runs."""
    effort = replace(visible_effort("spider", 2_000), deep=20_000)
    assert effort.deep > effort.nodes and effort.weights == visible_effort("spider").weights
    pos = played("spider", number, moves)
    for seed in (1, 2):
        twin = shuffled_hidden(pos, seed)
        assert twin.player_view() == pos.player_view() and twin.piles != pos.piles
        assert decide(twin, effort) == decide(pos, effort)
        assert visible_move(twin, effort) == visible_move(pos, effort)


@pytest.mark.parametrize(("number", "deeper_runs"), [(3, 1), (4, 6)])
def test_astrocyte_searches_deeper_before_a_deal_and_reads_no_hidden_card(
        number: int, deeper_runs: int) -> None:
    """Astrocyte's effort has the deeper search before a deal (hints do not: they keep
    ``deep=0``); along a game, where it runs (more positions than the first search, which
    found nothing better), two positions that look the same give the same line."""
    from reussite.solver.hints import suggest_move

    assert visible_effort("astrocyte").deep > visible_effort("astrocyte").nodes
    effort = replace(visible_effort("astrocyte", 2_000), deep=20_000)
    pos = Position.deal(get_game("astrocyte"), number)
    ran = 0
    for _ in range(50):
        first, spent = [0], [0]
        line = decide(pos, replace(effort, deep=0), first)
        deeper = decide(pos, effort, spent)
        if spent[0] > first[0]:
            ran += 1
            twin = shuffled_hidden(pos, ran)
            assert twin.player_view() == pos.player_view() and twin.piles != pos.piles
            assert decide(twin, effort) == deeper
        else:
            assert deeper == line
        if not deeper:
            break
        pos.push_raw(deeper[0])
    assert ran == deeper_runs
    assert suggest_move(pos) in pos.raw_moves()


def test_the_deeper_search_runs_only_when_the_first_finds_nothing() -> None:
    """``deep``: where the first search finds a better position, its line is played as without
    ``deep``; where it finds none (the line would deal) after using its whole budget, the
    position is searched again with more positions before the player deals."""
    pos = Position.deal(get_game("spider"), 3)
    plain_effort = replace(visible_effort("spider", 2_000), deep=0, resort_before_deal=None)
    deep_effort = replace(plain_effort, deep=20_000)
    deeper = 0
    for _ in range(60):
        plain, spent = [0], [0]
        line = decide(pos, plain_effort, plain)
        other = decide(pos, deep_effort, spent)
        if not line:
            break
        if line[-1] != STOCK_RAW:
            assert other == line and spent == plain
        elif plain[0] >= 2 * 2_000:  # both searches used their budget: the deeper one ran
            assert spent[0] > plain[0]
            deeper += 1
        pos.push_raw(line[0])
    assert deeper == 4


@pytest.mark.parametrize(("number", "moves"), [(2, 30), (4, 20), (9, 10), (10, 30)])
def test_the_resort_before_a_deal_turns_a_card_up_and_reads_no_hidden_card(
        number: int, moves: int) -> None:
    """``resort_before_deal``: where the player would deal, it first goes to a card turned up
    (the last resort's line) when the evaluation there, the card unread, is at most that much
    below the present one; the same decision, and the same evaluation after the line, for a
    twin whose hidden cards (the one turned up among them) differ."""
    base = replace(visible_effort("spider", 2_000), deep=0, resort_before_deal=None)
    pos = played("spider", number, moves)
    for _ in range(40):  # go on to a position where the player would deal
        line = decide(pos, base)
        if not line or line[-1] == STOCK_RAW:
            break
        pos.push_raw(line[0])
    assert line and line[-1] == STOCK_RAW
    turn = last_resort(pos, base)
    assert turn, "a card can be turned up before this deal"
    always = replace(base, resort_before_deal=10**6)
    never = replace(base, resort_before_deal=-10**6)
    assert decide(pos, always) == turn and decide(pos, never) == line
    after = evaluation_after(pos, turn, base)
    for seed in (1, 2):
        twin = shuffled_hidden(pos, seed)
        assert decide(twin, always) == turn
        assert evaluation_after(twin, turn, base) == after
    assert any(_turned_card(pos, turn) != _turned_card(shuffled_hidden(pos, s), turn)
               for s in (1, 2, 3))


def _turned_card(pos: Position, line: list[tuple[int, int, int]]) -> int:
    """The card that ``line`` turns up (its last move), ``pos`` left as it was."""
    from reussite.engine import FLIP

    for m in line:
        pos.push_raw(m)
    flipped = [op[1] for op in pos.history[-1][1] if op[0] == FLIP]
    card = pos.piles[flipped[0]][-1]
    for _ in line:
        pos.pop()
    return card
