"""Hints computed beside the web process, not inside it.

A hint is a search (the honest player's samples, up to about half a second of pure Python):
inside the web process it holds the interpreter's lock all that time, and every move of every
other player waits behind it (profiling the load test showed hints taking over half the
server's time with only 2% of the requests). So hints run in a small pool of worker
processes; the web process only sends the deal and the moves played, and gets a move back.

``REUSSITE_HINT_WORKERS`` sets the pool's size (default 1; 0 computes hints in the web
process, as before); ``REUSSITE_HINT_NICE`` (default 10) is how much lower the workers'
scheduling priority is than the web process's. If the pool cannot answer within
``HINT_TIMEOUT`` seconds, or already has ``QUEUE_PER_WORKER`` hints waiting per worker (a
crowd asking for hints), the hint is the quick one, computed from the visible cards alone, at
once. The pool keeps nothing between hints.

``REUSSITE_HINT_CPU`` (a share of a core, say 0.25; ``off``: no limit; unset: a twentieth
of the machine's cores, ``DEFAULT_CPU_PER_CORE``, so 0.1 on two cores) bounds the CPU the
searches take on average: a token bucket of CPU seconds (``HINT_BURST`` at once, refilled at
that share), each search charged what it took in its worker; while it is spent, hints are the
quick ones. A crowd asking for hints then cannot take the CPU the moves need (the benchmark's
players ask for one in 4% of their requests, and a search costs about 0.2 s of CPU: five
cores' worth at 1,200 requests a second), while a few people asking now and then (about
one searched hint every two seconds on two cores, after a burst of about ten) always get the
searched hint. Why a twentieth of the machine by default: docs/hardening.md, "Hints under load".
``REUSSITE_HINT_SCHED=idle`` runs the workers under Linux's ``SCHED_IDLE`` policy instead of a
nice value (they run only when nothing else of the session wants the CPU).

The web process remembers the last ``CACHE_SIZE`` hints the search gave, by game, deal and
moves played (everything the player has seen follows from those, and nothing else goes into
a hint): the same position asked again (the hint button pressed twice, a hint asked again
after an undo and a redo, another player at the same point of the same deal) is answered
without a search, and with the same move. A quick hint (crowded or slow pool) is not
remembered, so that the searched one can be given later.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import threading
import time
from collections import OrderedDict
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout

from reussite.engine import Position, RawMove
from reussite.games import get_game
from reussite.solver.hints import Hint, advise, quick_hint

HINT_TIMEOUT = 3.0
QUEUE_PER_WORKER = 2
CACHE_SIZE = 4096

HintKey = tuple[str, int, tuple[RawMove, ...]]
_cache: OrderedDict[HintKey, Hint] = OrderedDict()
_cache_lock = threading.Lock()

_pool: Executor | None = None
_pool_lock = threading.Lock()
_waiting = 0


def _forget_pool() -> None:
    """In a forked child: the parent's pool and its threads are not ours; make a new one."""
    global _pool, _waiting, _pool_lock, _cache_lock
    _pool, _waiting, _pool_lock, _cache_lock = None, 0, threading.Lock(), threading.Lock()


def _key(pos: Position) -> HintKey:
    """What a hint depends on: the game, the deal and the moves played from it (the whole
    line, not only the position it reaches: a hint never leads back to a position of the
    line, so the same position reached by two lines may have two hints)."""
    return pos.rules.id, pos.number, tuple(raw for raw, _steps in pos.history)


_MISSING = object()


def _recall(key: HintKey) -> Hint | object:
    """The hint the search gave for ``key``, or ``_MISSING``."""
    with _cache_lock:
        raw = _cache.get(key, _MISSING)
        if raw is not _MISSING:
            _cache.move_to_end(key)
        return raw


def _remember(key: HintKey, hint: Hint) -> Hint:
    with _cache_lock:
        _cache[key] = hint
        _cache.move_to_end(key)
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return hint


os.register_at_fork(after_in_child=_forget_pool)


def _workers() -> int:
    value = os.environ.get("REUSSITE_HINT_WORKERS", "1")
    return int(value) if value.isdigit() else 1


def _hint_for(game: str, number: int, line: list[RawMove]) -> tuple[Hint, float]:
    """In a worker: rebuild the position from its deal and moves (the game's line), and
    search; the hint and the CPU seconds it took."""
    start = time.process_time()
    pos = Position.deal(get_game(game), number)
    for raw in line:
        pos.push_raw(raw)
    return advise(pos), time.process_time() - start


DEFAULT_CPU_PER_CORE = 0.05
"""The hints' share of the machine when ``REUSSITE_HINT_CPU`` is unset: a twentieth of its
cores (a tenth of a core on two)."""


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _cpu_share() -> float | None:
    """``REUSSITE_HINT_CPU``: the share of a core the hints' searches may use on average
    (say 0.25); unset (or not a number): ``DEFAULT_CPU_PER_CORE`` of each core; None for
    ``off`` or 0 (as much as the pool's workers get)."""
    raw = os.environ.get("REUSSITE_HINT_CPU", "").strip().lower()
    if raw in ("off", "no", "none"):
        return None
    try:
        share = float(raw)
    except ValueError:
        return DEFAULT_CPU_PER_CORE * _cores()
    return share if share > 0 else None


HINT_BURST = 2.0
"""CPU seconds of searches the hints may take at once before the share applies."""
_tokens = HINT_BURST
_tokens_at = time.monotonic()


def _budget_allows() -> bool:
    """Whether a search may start within the hints' CPU budget (a token bucket of CPU
    seconds, refilled at ``REUSSITE_HINT_CPU`` seconds a second; each search is charged
    what it took when it ends)."""
    global _tokens, _tokens_at
    share = _cpu_share()
    if share is None:
        return True
    with _pool_lock:
        now = time.monotonic()
        _tokens = min(HINT_BURST, _tokens + (now - _tokens_at) * share)
        _tokens_at = now
        return _tokens > 0


def _charge(future: Future[tuple[Hint, float]]) -> None:
    global _tokens
    if future.cancelled() or future.exception() is not None:
        return
    with _pool_lock:
        _tokens -= future.result()[1]


def _search(pool: Executor, pos: Position,
            line: list[RawMove]) -> Future[tuple[Hint, float]] | None:
    """The hint's search, submitted to the pool; None when the hints' CPU budget is spent."""
    if not _budget_allows():
        return None
    future = pool.submit(_hint_for, pos.rules.id, pos.number, line)
    future.add_done_callback(_charge)
    return future


def _nice() -> int:
    value = os.environ.get("REUSSITE_HINT_NICE", "10")
    return int(value) if value.isdigit() else 10


def _idle_policy() -> bool:
    return os.environ.get("REUSSITE_HINT_SCHED", "nice").lower() == "idle"


def _watch_parent(parent: int) -> None:
    """In a worker: end when the web process is gone (even killed with SIGKILL, which gives
    the pool no chance to stop its workers), rather than linger as an orphan.

    The worker also lowers its scheduling priority (``REUSSITE_HINT_NICE``, default 10): a
    hint's search may use a whole core for half a second, and the moves of every player must
    not wait behind it; under load hints get what is left, and fall back to the quick hint
    after ``HINT_TIMEOUT``."""
    with contextlib.suppress(OSError):
        os.nice(_nice())
    if _idle_policy():
        with contextlib.suppress(OSError, AttributeError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _get_pool() -> Executor | None:
    global _pool
    if _workers() == 0:
        return None
    with _pool_lock:
        if _pool is None:
            # "spawn": a fresh interpreter, nothing of the web process's threads or sockets.
            _pool = ProcessPoolExecutor(
                _workers(), mp_context=multiprocessing.get_context("spawn"),
                initializer=_watch_parent, initargs=(os.getpid(),))
        return _pool


def _ready() -> None:
    """In a worker: nothing but the imports the searches need (see :func:`warm`)."""
    from reussite.solver import hints  # noqa: F401


def warm(wait: float = 30.0) -> None:
    """Start the pool's workers now, at the server's start-up, rather than at the first hint,
    and wait (up to ``wait`` seconds) until one has imported what the searches need: a
    worker's start (a fresh interpreter importing the engine and the solver: about a second
    of CPU) is then not paid by the first player who asks, whose hint would wait for it (and
    fall back to the quick one after ``HINT_TIMEOUT``), nor taken from the moves under load.
    A worker that fails to start is not an error here: the hints are then the quick ones,
    and the next hint makes a new pool."""
    pool = _get_pool()
    if pool is None:
        return
    with contextlib.suppress(Exception):  # a broken pool, a slow machine: hints deal with it
        pool.submit(_ready).result(timeout=wait)


def _take_slot() -> bool:
    """A place in the pool's queue, or False when it is full (the caller answers at once)."""
    global _waiting
    with _pool_lock:
        if _waiting >= QUEUE_PER_WORKER * _workers():
            return False
        _waiting += 1
        return True


def _release_slot() -> None:
    global _waiting
    with _pool_lock:
        _waiting -= 1


def _drop_pool() -> None:
    """A broken pool (a worker killed): a new one is made next time."""
    global _pool
    with _pool_lock:
        _pool = None


def _before_search(pos: Position) -> tuple[HintKey, Executor | None, Hint | None]:
    """What :func:`hint` and :func:`hint_async` do before asking the pool: ``(key, pool,
    answer)``. With no pool in the result, ``answer`` is the hint (remembered, computed here
    when there is no pool, or the quick one when the pool is crowded); with a pool, a queue
    slot has been taken for the search, which the caller releases."""
    key = _key(pos)
    known = _recall(key)
    if known is not _MISSING:
        return key, None, known  # type: ignore[return-value]
    pool = _get_pool()
    if pool is None:
        return key, None, _remember(key, advise(pos))
    if not _take_slot():
        return key, None, quick_hint(pos)
    return key, pool, None


def hint(pos: Position) -> Hint:
    """The hint for ``pos`` (what :func:`.solver.hints.advise` answers), computed in the pool
    (or remembered)."""
    key, pool, answer = _before_search(pos)
    if pool is None:
        assert answer is not None
        return answer
    try:
        future = _search(pool, pos, list(key[2]))
        if future is None:
            return quick_hint(pos)
        result, _cpu = future.result(timeout=HINT_TIMEOUT)
        return _remember(key, result)
    except FutureTimeout:
        future.cancel()  # type: ignore[union-attr]
        return quick_hint(pos)
    except Exception:  # a broken pool: answer from here now
        _drop_pool()
        return quick_hint(pos)
    finally:
        _release_slot()


def has_pool() -> bool:
    """Whether hints are computed in worker processes (else in the calling thread)."""
    return _workers() > 0


async def hint_async(pos: Position) -> Hint:
    """:func:`hint` for the event loop: the pool's answer is awaited, no thread waits."""
    key, pool, answer = _before_search(pos)
    if pool is None:
        assert answer is not None
        return answer
    try:
        future = _search(pool, pos, list(key[2]))
        if future is None:
            return quick_hint(pos)
        result, _cpu = await asyncio.wait_for(asyncio.wrap_future(future), HINT_TIMEOUT)
        return _remember(key, result)
    except TimeoutError:
        return quick_hint(pos)  # wait_for cancelled the future
    except Exception:
        _drop_pool()
        return quick_hint(pos)
    finally:
        _release_slot()
