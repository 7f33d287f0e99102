"""The site's own secret proven-winnable deals, for "winnable deals only".

The shipped lists of winnable deals (:mod:`reussite.winnable`) are public, and few: a player
could find which one was dealt by matching the visible opening against them. So the site keeps
a pool of deals of its own (the ``deal_pool`` table): numbers drawn with :mod:`secrets` from
all 2**64 deals and proved winnable by the full-information solver, each dealt once and
deleted as it is dealt (:meth:`reussite.web.storage.GameStatements.take_pooled`).

A thread of the server keeps every game's pool at ``REUSSITE_WINNABLE_POOL`` deals (default 8;
``0``: no pool), for the games whose public list is not empty (a game where the solver has not
proved one deal yet would burn CPU for nothing). The solving runs in a worker process of its
own, at the hint workers' lowered priority (``REUSSITE_HINT_NICE``), with a budget of
``SOLVE_SECONDS`` of CPU a candidate, never in the web process's event loop. When a game's pool
is empty, "winnable deals only" deals from the public list, and shows that deal's number from
the start (anyone can read it there): :meth:`reussite.web.play.Tables.new_game`.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor

from reussite.deals import random_number
from reussite.engine import Position
from reussite.games import CATALOGUE, get_game
from reussite.web.hintpool import _watch_parent
from reussite.web.storage import Store
from reussite.winnable import winnable_numbers

log = logging.getLogger("reussite.web")

POOL_SIZE = 8
SOLVE_SECONDS = 5.0
"""CPU seconds the solver may spend on one candidate (most winnable deals take far less)."""
TRIES = 10
"""Candidates tried per deal wanted in one refill, before the next game's turn."""
REFILL_EVERY = 30.0


def pool_size() -> int:
    """``REUSSITE_WINNABLE_POOL``: secret deals kept per game (default 8; 0: none)."""
    value = os.environ.get("REUSSITE_WINNABLE_POOL", "").strip()
    if not value:
        return POOL_SIZE
    if not value.isdigit():
        raise ValueError(f"REUSSITE_WINNABLE_POOL must be a whole number, not {value!r}")
    return int(value)


def pooled_games() -> list[str]:
    """The games a pool is kept for: those with a deal proved winnable already."""
    return [g for g in CATALOGUE if winnable_numbers(g)]


def proven_winnable(game: str, number: int, seconds: float = SOLVE_SECONDS) -> bool:
    """Whether the full-information solver wins deal ``number`` of ``game`` (a worker's
    work: a found win is a proof, it replays on the engine)."""
    from reussite.solver import solve

    return solve(Position.deal(get_game(game), number), time_limit=seconds,
                 clock="cpu").status == "won"


Solver = Callable[[str, int], bool]


def refill(store: Store, game: str, size: int, solver: Solver,
           draw: Callable[[], int] | None = None) -> int:
    """Bring ``game``'s pool to ``size`` deals, trying at most ``TRIES`` candidates per deal
    missing; how many were added."""
    numbers = get_game(game).numbers
    draw = draw or (lambda: random_number(numbers, secrets.randbelow))
    missing = size - store.pool_count(game)
    added = 0
    for _ in range(max(0, missing) * TRIES):
        if added >= missing:
            break
        number = draw()
        if solver(game, number) and store.add_pooled(game, number):
            added += 1
    return added


def worker() -> Executor:
    """A process of its own for the solving, at the hint workers' lowered priority."""
    return ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_watch_parent, initargs=(os.getpid(),))


def start(store: Store) -> threading.Thread | None:
    """The server's refiller: every game's pool topped up, then again every
    ``REFILL_EVERY`` seconds, in a daemon thread waiting on a worker process."""
    size = pool_size()
    if size == 0:
        return None

    def run() -> None:
        while True:
            executor = worker()

            def solver(game: str, number: int, executor: Executor = executor) -> bool:
                return bool(executor.submit(proven_winnable, game, number).result())

            try:
                for game in pooled_games():
                    refill(store, game, size, solver)
            except Exception as e:  # noqa: BLE001 (the database or the worker away: later)
                log.warning("the winnable pool's refill failed: %s", type(e).__name__)
            finally:
                executor.shutdown(wait=False, cancel_futures=True)  # no idle process kept
            time.sleep(REFILL_EVERY)

    thread = threading.Thread(target=run, name="reussite-winnable-pool", daemon=True)
    thread.start()
    return thread
