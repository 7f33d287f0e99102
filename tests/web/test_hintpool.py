"""Hints computed in the worker pool: a legal move of the position as the player has it; the
quick visible hint when the pool is crowded; in the web process when the pool is turned off."""

from __future__ import annotations

import pytest
from webtools import run_async

from reussite.engine import Position
from reussite.games import get_game
from reussite.solver.hints import quick_hint
from reussite.web import hintpool


def played(game: str, number: int, moves: int) -> Position:
    pos = Position.deal(get_game(game), number)
    for _ in range(moves):
        legal = pos.raw_moves()
        if not legal:
            break
        pos.push_raw(legal[len(legal) // 2])
    return pos


@pytest.mark.parametrize("game", ["klondike", "spider", "astrocyte"])
def test_the_pools_hint_is_a_legal_move_of_the_position_rebuilt_from_its_moves(
        game: str) -> None:
    pos = played(game, 21, 12)
    raw = hintpool.hint(pos).move
    assert raw is not None and raw in pos.raw_moves()


def test_a_crowded_pool_answers_the_quick_hint_at_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    pos = played("klondike", 22, 5)
    monkeypatch.setattr(hintpool, "_waiting", hintpool.QUEUE_PER_WORKER * 10)
    assert hintpool.hint(pos) == quick_hint(pos)


def test_no_pool_computes_in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REUSSITE_HINT_WORKERS", "0")
    pos = played("spider", 23, 8)
    raw = hintpool.hint(pos).move
    assert raw is not None and raw in pos.raw_moves()


class CountingPool:
    """A pool that computes in a thread and counts the searches it was given."""

    def __init__(self) -> None:
        from concurrent.futures import ThreadPoolExecutor

        self.inner = ThreadPoolExecutor(1)
        self.searches = 0

    def submit(self, fn, *args):  # type: ignore[no-untyped-def]
        self.searches += 1
        return self.inner.submit(fn, *args)


@pytest.fixture
def counting_pool(monkeypatch: pytest.MonkeyPatch) -> CountingPool:
    from collections import OrderedDict

    pool = CountingPool()
    monkeypatch.setattr(hintpool, "_get_pool", lambda: pool)
    monkeypatch.setattr(hintpool, "_cache", OrderedDict())
    return pool


def test_a_position_asked_again_is_answered_from_memory_with_the_same_move(
        counting_pool: CountingPool) -> None:
    pos = played("klondike", 31, 6)
    first = hintpool.hint(pos)
    assert counting_pool.searches == 1 and first.move in pos.raw_moves()
    assert hintpool.hint(pos) == first and counting_pool.searches == 1
    # The same deal and moves in another game (another player at the same point): remembered.
    assert hintpool.hint(played("klondike", 31, 6)) == first and counting_pool.searches == 1
    # One move more is another position: searched; undone, the first one is remembered.
    legal = pos.raw_moves()
    pos.push_raw(legal[0])
    hintpool.hint(pos)
    assert counting_pool.searches == 2
    pos.pop()
    assert hintpool.hint(pos) == first and counting_pool.searches == 2
    # The same moves in another deal, or in another game, are other positions.
    hintpool.hint(played("klondike", 32, 6))
    hintpool.hint(played("klondike-draw-3", 31, 6))
    assert counting_pool.searches == 4


def test_the_event_loops_hints_are_remembered_too(counting_pool: CountingPool) -> None:
    pos = played("spider", 33, 4)
    first = run_async(hintpool.hint_async(pos))
    assert run_async(hintpool.hint_async(pos)) == first == hintpool.hint(pos)
    assert counting_pool.searches == 1


def test_a_quick_hint_is_not_remembered(counting_pool: CountingPool,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    pos = played("klondike", 34, 5)
    monkeypatch.setattr(hintpool, "_waiting", hintpool.QUEUE_PER_WORKER * 10)
    assert hintpool.hint(pos) == quick_hint(pos) and counting_pool.searches == 0
    monkeypatch.setattr(hintpool, "_waiting", 0)
    hintpool.hint(pos)
    assert counting_pool.searches == 1  # the search is done once the pool has room


def test_the_memory_keeps_the_last_hints_only(counting_pool: CountingPool,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hintpool, "CACHE_SIZE", 2)
    a, b, c = (played("athena", n, 3) for n in (35, 36, 37))
    for pos in (a, b, a, c):  # a used again, so b is the oldest when c comes
        hintpool.hint(pos)
    assert counting_pool.searches == 3 and len(hintpool._cache) == 2
    hintpool.hint(a)
    assert counting_pool.searches == 3
    hintpool.hint(b)
    assert counting_pool.searches == 4


class PricedPool:
    """A pool whose every search answers at once and says it took ``cost`` CPU seconds."""

    def __init__(self, cost: float) -> None:
        self.cost = cost
        self.searches = 0

    def submit(self, fn, game, number, line):  # type: ignore[no-untyped-def]
        from concurrent.futures import Future

        self.searches += 1
        pos = Position.deal(get_game(game), number)
        for raw in line:
            pos.push_raw(raw)
        future: Future[object] = Future()
        future.set_result((quick_hint(pos), self.cost))
        return future


def test_the_hints_cpu_budget_gives_the_quick_hint_once_spent(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from collections import OrderedDict

    clock = [1000.0]
    monkeypatch.setattr(hintpool.time, "monotonic", lambda: clock[0])
    monkeypatch.setattr(hintpool, "_tokens", hintpool.HINT_BURST)
    monkeypatch.setattr(hintpool, "_tokens_at", clock[0])
    monkeypatch.setattr(hintpool, "_cache", OrderedDict())
    pool = PricedPool(cost=1.5)
    monkeypatch.setattr(hintpool, "_get_pool", lambda: pool)
    monkeypatch.setenv("REUSSITE_HINT_CPU", "0.25")
    positions = [played("klondike", n, 4) for n in range(40, 46)]
    # 2 s of burst: two searches of 1.5 s (the second starts with 0.5 s left), then none.
    for pos in positions[:3]:
        assert hintpool.hint(pos) == quick_hint(pos)
    assert pool.searches == 2 and hintpool._tokens == pytest.approx(-1.0)
    assert run_async(hintpool.hint_async(positions[3])) == quick_hint(positions[3])
    assert pool.searches == 2
    # Refilled at a quarter of a second a second: 4 s later the bucket is at 0, still spent;
    # 1 s more and a search may start again.
    clock[0] += 4.0
    hintpool.hint(positions[3])
    assert pool.searches == 2
    clock[0] += 1.0
    run_async(hintpool.hint_async(positions[4]))
    assert pool.searches == 3
    # Turned off, no limit.
    monkeypatch.setenv("REUSSITE_HINT_CPU", "off")
    hintpool.hint(positions[5])
    assert pool.searches == 4 and hintpool._cpu_share() is None
    monkeypatch.setenv("REUSSITE_HINT_CPU", "0")
    assert hintpool._cpu_share() is None
    # Unset: a twentieth of the machine's cores (a tenth of a core on two).
    monkeypatch.delenv("REUSSITE_HINT_CPU")
    monkeypatch.setattr(hintpool, "_cores", lambda: 2)
    assert hintpool._cpu_share() == pytest.approx(0.1)
    monkeypatch.setattr(hintpool, "_cores", lambda: 16)
    assert hintpool._cpu_share() == pytest.approx(0.8)


def test_the_worker_says_what_its_search_cost() -> None:
    pos = played("spider", 47, 3)
    given, cpu = hintpool._hint_for("spider", 47, [r for r, _s in pos.history])
    assert given.move is not None and given.move in pos.raw_moves() and cpu > 0


def test_the_same_position_after_a_round_trip_is_not_answered_from_memory(
        counting_pool: CountingPool) -> None:
    """The memory is keyed by the line: after a move and its reversal the position is the same
    but its line is not, and the remembered hint (the move just taken back) would lead to a
    position already reached."""
    pos = played("spider-1-suit", 40, 0)
    ids = pos.layout.ids
    for _ in range(40):
        move = hintpool.hint(pos).move
        assert move is not None
        src, dst, n = move
        pos.push_raw(move)
        back = (dst, src, n)
        if ids[src].startswith("tableau") and len(pos.history[-1][1]) == 1 \
                and back in pos.raw_moves():
            break
    else:
        pytest.fail("no reversible hint in 40 moves")
    pos.pop()
    searches = counting_pool.searches
    assert hintpool.hint(pos).move == move  # remembered
    pos.push_raw(move)
    pos.push_raw(back)  # the same position as before ``move``, by a longer line
    again = hintpool.hint(pos)
    assert counting_pool.searches == searches + 1
    assert again.move != move
