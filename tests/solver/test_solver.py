"""The full-information solver: won lines replay to a win, lost only when exhaustive."""

from __future__ import annotations

import pytest

from reussite.cards import UP, parse_card
from reussite.engine import STOCK_RAW, Position
from reussite.games import get_game
from reussite.solver.search import is_stuck, knowledge, solve


def replay_wins(pos: Position, moves: list) -> bool:  # type: ignore[type-arg]
    p = pos.copy()
    for m in moves:
        p.play(m)
    return p.status() == "won"


@pytest.mark.parametrize(("game", "number"), [("klondike", 2), ("klondike-draw-3", 5),
                                              ("athena", 2), ("spider-1-suit", 3)])
def test_won_lines_replay_to_a_win(game: str, number: int) -> None:
    pos = Position.deal(get_game(game), number)
    before = pos.copy()
    result = solve(pos, time_limit=None, max_states=20_000)
    assert result.status == "won"
    assert pos == before and not pos.history  # the solver leaves the position as it was
    assert replay_wins(pos, result.moves)


def test_an_exhausted_budget_answers_unknown_never_lost() -> None:
    pos = Position.deal(get_game("astrocyte"), 1)
    result = solve(pos, time_limit=None, max_states=300)
    assert result.status == "unknown" and result.moves == []


def test_lost_is_proved_by_an_exhaustive_search() -> None:
    # Klondike draw 3, deal 3: the search ends with every reachable position seen.
    pos = Position.deal(get_game("klondike-draw-3"), 3)
    result = solve(pos, time_limit=None, max_states=200_000)
    assert result.status == "lost"


def near_won_klondike() -> Position:
    """Every card home but the four Kings, which lie face up on four tableau piles."""
    rules = get_game("klondike")
    pos = Position.deal(rules, 1)
    lay = pos.layout
    for i in range(len(pos.piles)):
        pos.piles[i] = []
    for f, suit in zip(lay.foundations, "SHDC", strict=True):
        pos.piles[f] = [parse_card(r + suit) | UP for r in "A23456789TJQ"]
    for t, suit in zip(lay.tableau, "SHDC", strict=False):
        pos.piles[t] = [parse_card("K" + suit) | UP]
    return pos


def test_a_near_won_position_is_won_by_safe_moves_alone() -> None:
    pos = near_won_klondike()
    result = solve(pos, time_limit=None, max_states=100)
    assert result.status == "won" and len(result.moves) == 4
    assert replay_wins(pos, result.moves)


def test_the_key_treats_alike_the_piles_the_rules_treat_alike() -> None:
    # Klondike's tableau piles are interchangeable: swapping two gives the same key.
    pos = near_won_klondike()
    info = knowledge(pos)
    key = info.key(pos)
    t = pos.layout.tableau
    pos.piles[t[0]], pos.piles[t[5]] = pos.piles[t[5]], pos.piles[t[0]]
    assert info.key(pos) == key


def test_spider_piles_keep_their_places_while_the_stock_deals() -> None:
    pos = Position.deal(get_game("spider-1-suit"), 1)
    info = knowledge(pos)
    key = info.key(pos)
    t = pos.layout.tableau
    pos.piles[t[0]], pos.piles[t[9]] = pos.piles[t[9]], pos.piles[t[0]]
    assert info.key(pos) != key


def klondike_position(piles: dict[str, list[str]], stock: list[str],
                      game: str = "klondike") -> Position:
    """A hand-built Klondike position: each pile given bottom first, ``"*XX"`` face down.

    The cards not named lie face down at the bottom of the first tableau pile.
    """
    pos = Position.deal(get_game(game), 1)
    index = pos.layout.index
    for i in range(len(pos.piles)):
        pos.piles[i] = []
    named = [c.lstrip("*") for p in piles.values() for c in p] + stock
    rest = sorted({parse_card(r + s) for r in "A23456789TJQK" for s in "SHDC"}
                  - {parse_card(c) for c in named})
    for pid, codes in piles.items():
        pos.piles[index[pid]] = [parse_card(c[1:]) if c.startswith("*")
                                 else parse_card(c) | UP for c in codes]
    pos.piles[index["tableau:0"]][:0] = rest
    pos.piles[0] = [parse_card(c) for c in reversed(stock)]
    return pos


def test_no_legal_move_at_all_is_a_clear_end() -> None:
    pos = klondike_position({"tableau:0": ["2S"], "tableau:1": ["*AH", "2C"]}, [])
    assert pos.raw_moves() == [] and is_stuck(pos)


def test_only_turning_the_stock_round_with_nothing_to_play_is_a_clear_end() -> None:
    pos = klondike_position({"tableau:0": ["2S"], "tableau:1": ["*AH", "2C"]},
                            ["4H", "5D", "7S", "KD"])
    assert pos.raw_moves() and is_stuck(pos)


def test_a_card_that_can_reach_a_foundation_through_the_stock_is_no_clear_end() -> None:
    pos = klondike_position({"tableau:0": ["2S"], "tableau:1": ["*AH", "2C"]},
                            ["4H", "AS", "7S"])
    assert not is_stuck(pos)


def test_a_move_that_turns_a_card_up_is_no_clear_end() -> None:
    pos = klondike_position({"tableau:0": ["2S"], "tableau:1": ["*AH", "3H"]}, ["4H"])
    assert not is_stuck(pos)


def test_a_game_in_progress_is_not_stuck() -> None:
    for game in ("klondike", "spider", "astrocyte", "leap-year", "athena"):
        assert not is_stuck(Position.deal(get_game(game), 1))


def leap_year_position(reserves: list[list[str]], stock: list[str]) -> Position:
    pos = Position.deal(get_game("leap-year"), 1)
    lay = pos.layout
    for i, codes in zip(lay.reserves, reserves, strict=True):
        pos.piles[i] = [parse_card(c) | UP for c in codes]
    pos.piles[0] = [parse_card(c) for c in stock]
    return pos


def test_leap_year_with_an_empty_stock_and_no_card_to_play_is_a_clear_end() -> None:
    pos = leap_year_position([["2S", "KH"]] * 8, [])
    assert pos.raw_moves() == [] and is_stuck(pos)


def test_leap_year_with_a_deal_left_is_no_clear_end() -> None:
    pos = leap_year_position([["2S", "KH"]] * 8, ["5D"] * 8)
    assert not is_stuck(pos)


def test_spider_with_every_pile_stuck_but_a_deal_left_is_no_clear_end() -> None:
    pos = Position.deal(get_game("spider"), 1)
    assert pos.piles[0] and not is_stuck(pos)


def test_safe_any_suit_move_a_two_goes_home_alone() -> None:
    # Leap Year starts with all 16 Aces home: a 2 can never lack a place, so it goes first
    # and alone (its pile keeps a card, so later deals fall as they would have).
    pos = leap_year_position([["9C", "2S"], ["3H"], ["KD"]] + [[]] * 5, ["5D"] * 8)
    kids = knowledge(pos).children(pos, None)
    lay = pos.layout
    assert len(kids) == 1
    (src, dst, n), = kids[0]
    assert src == lay.reserves[0] and dst in lay.foundations and n == 1


def test_safe_any_suit_move_not_when_it_would_empty_a_pile_the_stock_still_deals_onto() -> None:
    # The 2 still goes home, but not alone: dealing first (onto its pile) is a child too.
    pos = leap_year_position([["2S"], ["3H"], ["KD"]] + [[]] * 5, ["5D"] * 8)
    lay = pos.layout
    kids = knowledge(pos).children(pos, None)
    assert kids == [((lay.reserves[0], lay.foundations[0], 1),), (STOCK_RAW,)]


def test_safe_any_suit_move_not_when_cards_of_its_rank_compete() -> None:
    # A 3 while 2s are still out: the foundations waiting for a 3 are fewer than the 3s not
    # home, so playing this one may take the place another 3 needs.
    pos = leap_year_position([["9C", "3S"], ["4H"], ["KD"]] + [[]] * 5, ["5D"] * 8)
    f = pos.layout.foundations
    pos.piles[f[0]].append(parse_card("2H") | UP)
    kids = knowledge(pos).children(pos, None)
    assert kids == [((pos.layout.reserves[0], f[0], 1),), (STOCK_RAW,)]


def test_draw_one_klondike_keys_its_stock_as_a_cycle() -> None:
    # Clicks alone reach every cut of the stock-and-waste cycle: the key ignores the cut.
    pos = klondike_position({"tableau:0": ["2S"], "tableau:1": ["*AH", "2C"]},
                            ["4H", "5D", "7S", "KD"])
    info = knowledge(pos)
    key = info.key(pos)
    pos.push_raw((-1, -1, 0))
    pos.push_raw((-1, -1, 0))
    assert info.key(pos) == key
    assert info.key(pos, cycle=False) != key  # the clear-end test follows single clicks


def test_draw_three_keys_its_stock_by_the_cuts_clicks_reach_from_a_turn() -> None:
    # Draw three, turned over without limit: from the waste's turning over, clicks cut the
    # stock-and-waste sequence after every third card and at its end, and reach the turning
    # over again: all those cuts are one position.
    stock = ["4H", "5D", "7S", "KD", "9C", "3D", "8H"]
    pos = klondike_position({"tableau:0": ["2S"], "tableau:1": ["*AH", "2C"]}, stock,
                            game="klondike-draw-3")
    info = knowledge(pos)
    key = info.key(pos)
    for _ in range(3):  # cuts 3, 6, then 7 (the end)
        pos.push_raw((-1, -1, 0))
        assert info.key(pos) == key
    assert info.key(pos, cycle=False) != key  # the clear-end test follows single clicks


def test_draw_three_a_cut_off_the_multiples_of_three_is_its_own_position() -> None:
    # Cut after the first card (the waste holds one card): clicks from the turning over never
    # come back to it, so it is not the same position as the same sequence cut at 0.
    stock = ["4H", "5D", "7S", "KD", "9C", "3D", "8H"]
    cut0 = klondike_position({"tableau:0": ["2S"]}, stock, game="klondike-draw-3")
    cut1 = klondike_position({"tableau:0": ["2S"], "waste": ["4H"]}, stock[1:],
                             game="klondike-draw-3")
    assert knowledge(cut0).key(cut0) != knowledge(cut1).key(cut1)
