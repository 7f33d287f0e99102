"""Leap Year, Auld Lang Syne, Quadrennial: the rank bound that proves losses (``proven_lost``),
the rank-only key and the reserves taken as alike once the stock is spent.

See ``docs/solver.md`` ("The rank bound") for the proofs.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from reussite.cards import UP, build_deck, parse_card
from reussite.engine import STOCK_CLICK, Position
from reussite.games import get_game
from reussite.solver import core, search
from reussite.solver.search import knowledge, solve


def reserve_position(game: str, reserves: list[list[str]], stock: list[str]) -> Position:
    """A consistent position: the given reserves (bottom first) and stock (dealt from its
    end), every other card home on the any-suit foundations (they must reach a ballot shape:
    no more cards of a rank home than of the rank below)."""
    return position_of(game, [[parse_card(c) for c in p] for p in reserves],
                       [parse_card(c) for c in stock])


def position_of(game: str, reserves: list[list[int]], stock: list[int]) -> Position:
    pos = Position.deal(get_game(game), 1)
    lay = pos.layout
    out = Counter(c for pile in reserves for c in pile)
    out.update(stock)
    home = Counter(build_deck(pos.rules.packs)) - out
    by_rank: dict[int, list[int]] = {r: [] for r in range(1, 14)}
    for c, n in home.items():
        by_rank[(c & 63) >> 2].extend([c] * n)
    for f in lay.foundations:
        pos.piles[f] = []
    for r in range(1, 14):
        assert r == 1 or len(by_rank[r]) <= len(by_rank[r - 1]), "not a ballot shape"
        for k, c in enumerate(sorted(by_rank[r])):
            pos.piles[lay.foundations[k]].append(c | UP)
    for i, cards in zip(lay.reserves, reserves, strict=True):
        pos.piles[i] = [c | UP for c in cards]
    pos.piles[0] = list(stock)
    assert len(pos.piles[0]) + sum(len(p) for p in pos.piles[1:]) == pos.rules.cards
    return pos


def lost_by_bound(pos: Position) -> bool:
    got = knowledge(pos).proven_lost(pos)
    assert core.testing_proven_lost(pos) == got, "the C core's bound differs"
    return got


def solve_both(pos: Position, max_states: int = 20_000) -> str:
    """The Python search with and without the bound: the same answer, which is returned
    (``unknown`` when the search without the bound does not finish)."""
    with_bound = solve(pos, None, max_states, engine="python")
    original = search.GameKnowledge.proven_lost
    search.GameKnowledge.proven_lost = lambda self, p: False  # type: ignore[method-assign]
    try:
        without = solve(pos, None, max_states, engine="python")
    finally:
        search.GameKnowledge.proven_lost = original  # type: ignore[method-assign]
    if without.status == "unknown":
        return "unknown"
    assert with_bound.status == without.status
    if with_bound.status == "won":
        after = pos.copy()
        for m in with_bound.raw_line:
            after.push_raw(m)
        assert after.is_won()
    return with_bound.status


def test_rank_bound_leap_year_the_last_card_home_is_a_king_at_the_bottom_of_a_pile() -> None:
    # Deal 2 has no King among its 8 reserve cards, which stay the piles' bottoms for ever
    # (an emptied pile gets no more cards): lost before any search.
    pos = Position.deal(get_game("leap-year"), 2)
    assert all((pos.piles[i][0] & 63) >> 2 != 13 for i in pos.layout.reserves)
    assert lost_by_bound(pos)
    for engine in ("python", "c"):
        res = solve(pos, 1.0, None, engine=engine)
        assert (res.status, res.states) == ("lost", 0)
    # Deal 1 has one: the bound does not settle it at the root.
    assert not lost_by_bound(Position.deal(get_game("leap-year"), 1))


def test_rank_bound_a_card_above_a_lower_card_that_comes_after_it() -> None:
    # Auld Lang Syne, three foundations complete and one at 10: J, Q, K to play, in that
    # order. A J under its Q can never be played.
    good = reserve_position("auld-lang-syne", [["QS", "JS"], ["KS"], [], []], [])
    bad = reserve_position("auld-lang-syne", [["JS", "QS"], ["KS"], [], []], [])
    assert not lost_by_bound(good) and solve_both(good) == "won"
    assert lost_by_bound(bad) and solve_both(bad) == "lost"


def test_rank_bound_hall_two_cards_that_both_must_be_the_last_of_their_rank() -> None:
    # Two foundations at 10: two Js, two Qs, two Ks left. Each J lies under a Q, which needs a
    # J home first: both Js would have to be the second J played.
    pos = reserve_position("auld-lang-syne", [["KS", "JS", "QS"], ["KH", "JH", "QH"], [], []], [])
    assert lost_by_bound(pos)
    assert solve_both(pos) == "lost"
    # One J free: the other can wait for the first Q.
    pos = reserve_position("auld-lang-syne", [["KS", "QS", "JS"], ["KH", "JH", "QH"], [], []], [])
    assert not lost_by_bound(pos)
    assert solve_both(pos) == "won"


def test_rank_bound_deals_ahead_a_card_that_no_line_can_play_before_the_deal() -> None:
    # One foundation at 9: T, J, Q, K left. The J cannot go home before the T comes, and the
    # deal puts the Q on it (the stock deals its end first, onto the first pile): lost. The
    # bound sees it only by dealing ahead: the position as it stands breaks no rank's count.
    pos = reserve_position("auld-lang-syne", [["JS"], ["KS"], [], []], ["TS", "QS"])
    assert lost_by_bound(pos)
    assert solve_both(pos) == "lost"
    # The Q to the second pile, on the K: won.
    pos = reserve_position("auld-lang-syne", [["JS"], ["KS"], [], []], ["QS", "TS"])
    assert not lost_by_bound(pos)
    assert solve_both(pos) == "won"


def test_rank_bound_a_card_no_line_can_ever_play() -> None:
    # Leap Year, one foundation at its Ace: the last 2, 3, ..., K to play. The last 3 lies on
    # the last 2: played ahead as far as any line could, the cards stay where they are.
    chain = ["QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S"]
    pos = reserve_position("leap-year", [["KS", "3S", "2S"], chain] + [[]] * 6, [])
    assert not lost_by_bound(pos)
    assert solve(pos, None, 10_000, engine="python").status == "won"
    pos = reserve_position("leap-year", [["KS", "2S", "3S"], chain] + [[]] * 6, [])
    assert lost_by_bound(pos)


def test_rank_bound_chains_a_nine_that_must_be_the_last_nine() -> None:
    # Auld Lang Syne, every foundation at 8. A K on a J on a T on a 9 (played in that order):
    # a card above another of its rank or lower has a greater place counted from the last
    # (the chains), so the K's place is at most 4, the J's 3, the T's 2 and the 9's 1: that
    # 9 is the last 9 home. The Q on a J on a T on a 9 of the next pile says the same of its
    # 9: two last 9s, lost. The counts of higher cards above each 9 (one of each rank: a
    # place of at most 3) did not see it.
    piles = [["9S", "TS", "JS", "QS"], ["9H", "TH", "JH", "KH"],
             ["KS", "QH", "KD", "KC", "QD", "QC", "JD", "JC", "TD", "TC", "9D"], ["9C"]]
    pos = reserve_position("auld-lang-syne", piles, [])
    assert lost_by_bound(pos)
    assert solve_both(pos, 50_000) == "lost"


@pytest.mark.parametrize(("reserves", "stock"), [
    ([["QS", "QC"], ["KC", "KH"], ["QH", "9H", "TS", "QD"], ["9C", "JS", "TH", "9S", "KD"]],
     ["JD", "9D", "KS", "TD", "JC", "JH", "TC"]),
    ([["JD", "JC", "TC"], ["KS", "KH"], ["JS"], ["9C", "JH", "KC", "9S", "KD", "TS"]],
     ["QD", "9D", "QH", "QS", "9H", "QC", "TH", "TD"]),
])
def test_rank_bound_counting_play_ahead(reserves: list[list[str]], stock: list[str]) -> None:
    """Positions that a random search found (Auld Lang Syne from the 9s) where the bound
    needs the counting play-ahead (no more cards of a rank dug out of a pile than any line can
    have played by the deal): the play-ahead that lets every rank-r card go once one can did
    not prove them lost; the exhaustive search agrees."""
    pos = reserve_position("auld-lang-syne", reserves, stock)
    assert lost_by_bound(pos)
    assert solve_both(pos, 50_000) == "lost"


@pytest.mark.parametrize(("game", "lowest", "count"), [("auld-lang-syne", 6, 24),
                                                  ("leap-year", 12, 8)])
@pytest.mark.slow
def test_rank_bound_never_prunes_a_win(game: str, lowest: int, count: int) -> None:
    """Positions with the cards from rank ``lowest`` to K left, dealt nearly in rank order (a
    few cards swapped at random) or shuffled: the search with the bound answers exactly as the
    search without it (proved both ways, every win replayed). Auld Lang Syne gives both
    answers; in Leap Year the search without the bound proves no loss on such a budget, and
    the wins are the check that the bound cuts no winning line."""
    rng = random.Random(lowest)
    answers: Counter[str] = Counter()
    for t in range(count):
        cards = [c for c in build_deck(get_game(game).packs) if (c & 63) >> 2 >= lowest]
        cards.sort(key=lambda c: ((c & 63) >> 2, rng.random()))
        if t < 16:
            for _ in range(t):
                i, j = rng.randrange(len(cards)), rng.randrange(len(cards))
                cards[i], cards[j] = cards[j], cards[i]
        else:
            rng.shuffle(cards)
        n = len(Position.deal(get_game(game), 1).layout.reserves)
        pos = position_of(game, [[c] for c in cards[:n]], cards[:n - 1:-1])
        answers[solve_both(pos)] += 1
    assert answers["won"] >= 3, answers
    assert game == "leap-year" or answers["lost"] >= 3, answers


def test_rank_bound_is_not_used_while_a_gathering_is_left() -> None:
    # Quadrennial: a gathering picks the reserves up, so their bottoms are not for ever.
    pos = Position.deal(get_game("quadrennial"), 2)
    assert not lost_by_bound(pos)
    assert lost_by_bound(Position.deal(get_game("leap-year"), 2))  # the same cards


def test_rank_key_suits_never_matter_in_the_reserve_games() -> None:
    a = reserve_position("leap-year", [["KS", "JH"], ["QD"]] + [[]] * 6, ["TC", "9S"])
    b = reserve_position("leap-year", [["KD", "JS"], ["QH"]] + [[]] * 6, ["TS", "9C"])
    info = knowledge(a)
    assert info.key(a) == info.key(b)
    assert core.testing_play(a, [])[3] == core.testing_play(b, [])[3]
    c = reserve_position("leap-year", [["KS", "QH"], ["JD"]] + [[]] * 6, ["TC", "9S"])
    assert info.key(a) != info.key(c)
    assert core.testing_play(a, [])[3] != core.testing_play(c, [])[3]


def test_reserves_are_alike_once_the_stock_is_spent() -> None:
    spent = reserve_position("leap-year", [["KS", "JH"], ["QD"]] + [[]] * 6, [])
    swapped = reserve_position("leap-year", [["QD"], ["KS", "JH"]] + [[]] * 6, [])
    info = knowledge(spent)
    assert info.key(spent) == info.key(swapped)
    assert core.testing_play(spent, [])[3] == core.testing_play(swapped, [])[3]
    # While the stock deals, each pile gets its own card: places matter.
    dealing = reserve_position("leap-year", [["KS", "JH"], ["QD"]] + [[]] * 6, ["TC", "9S"])
    other = reserve_position("leap-year", [["QD"], ["KS", "JH"]] + [[]] * 6, ["TC", "9S"])
    assert info.key(dealing) != info.key(other)
    assert core.testing_play(dealing, [])[3] != core.testing_play(other, [])[3]


def test_the_reserve_streamlined_search_never_answers_lost_on_its_own() -> None:
    """Auld Lang Syne: a position won only by dealing while a card could go home (found by a
    random search; the C core's streamlined search, no deal while a card can go home, sees all
    it allows in a few dozen positions without a win). The exact search that follows wins it,
    and the engine replays the line."""
    pos = reserve_position("auld-lang-syne",
                           [["QH", "JC"], ["9C", "KD", "9H"], ["JD", "TC", "TD", "TH"],
                            ["9S", "KS", "JS"]],
                           ["QC", "KC", "9D", "QS", "JH", "QD", "TS", "KH"])
    status, line, _ = core.solve_raw(pos, None, 20_000, False)
    assert status == "won"
    assert any(m[0] == STOCK_CLICK for m in line)
    for m in line:
        assert m in pos.raw_moves()
        pos.push_raw(m)
    assert pos.is_won()


def test_the_reserve_restarts_never_answer_lost_on_their_own() -> None:
    """Auld Lang Syne, the position above (won only by dealing while a card could go home):
    the first restart of the streamlined search sees the whole streamlined space without a
    win, and the answer is ``unknown``, not ``lost``; the restarts stop there (any order sees
    the same space), in ``solve`` too, and the exact search wins it."""
    pos = reserve_position("auld-lang-syne",
                           [["QH", "JC"], ["9C", "KD", "9H"], ["JD", "TC", "TD", "TH"],
                            ["9S", "KS", "JS"]],
                           ["QC", "KC", "9D", "QS", "JH", "QD", "TS", "KH"])
    status, line, states, which = core.testing_restarts(pos, 20_000, 50)
    assert (status, line, which) == ("unknown", [], -1)
    assert states < 50 * 200  # a few dozen positions a try: the whole space, every time
    status, line, _ = core.solve_raw(pos, None, 20_000, False)
    assert status == "won"
    for m in line:
        assert m in pos.raw_moves()
        pos.push_raw(m)
    assert pos.is_won()
