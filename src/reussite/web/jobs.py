"""The job tier: where the analyses of finished games run (never on a web process's event loop,
never in a request). One interface, :class:`Jobs`, two kinds:

- :class:`LocalJobs`, the embedded default (``REUSSITE_JOBS=local``): a pool of worker
  processes started with the site (``REUSSITE_ANALYSIS_WORKERS``, 1 by default), for a site on
  one machine.
- :class:`RedisJobs` (``REUSSITE_JOBS=redis``): a queue on Redis (``REUSSITE_REDIS_URL``),
  through RQ, worked by ``reussite worker`` processes on any machine that reaches Redis and the
  database; the web processes only hand jobs to it and read results from the database.

A job is an analysis (a game id, done by :func:`reussite.web.analyses.run_job`) or a day's
deal to prepare (a game and a day, :func:`reussite.web.daily.prepare_job`). An analysis's state
and result live in the database (:mod:`reussite.web.analyses`), so a queue that loses a job, a
worker killed in the middle or a queue's service that is down lose nothing: the analysis waits
as queued, and is handed out again.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, Protocol

from reussite.web.analyses import cpu_budget, run_job
from reussite.web.daily import MAX_ATTEMPTS, SOLVE_SECONDS, prepare_job

PREPARE_TIMEOUT = int(MAX_ATTEMPTS * SOLVE_SECONDS * 2) + 60
"""A day's preparation is timed out past this (each attempt has its CPU budget)."""


def queue_name() -> str:
    """The Redis queue's name: ``REUSSITE_JOBS_QUEUE``, else ``reussite-analyses`` (sites, or
    test runs, that share one Redis give theirs names of their own)."""
    return os.environ.get("REUSSITE_JOBS_QUEUE") or "reussite-analyses"


class Jobs(Protocol):
    kind: str

    def start(self) -> None:
        """Start what runs the jobs on this machine, if anything (the local pool)."""
        ...

    def submit(self, game_id: str) -> bool:
        """Hand the analysis of ``game_id`` to a worker: False when the queue could not take
        it now (the row stays queued and is handed out again later)."""
        ...

    def prepare(self, game: str, day: str) -> bool:
        """Hand the preparation of ``game``'s deal of ``day`` to a worker (False when the
        queue could not take it: it is asked again later)."""
        ...

    def workers(self) -> int | None:
        """The workers seen (None when the queue's service does not answer)."""
        ...

    def close(self) -> None: ...


def _worker_start() -> None:
    """In a local worker: low priority, so that the site's requests come first."""
    with contextlib.suppress(OSError):
        os.nice(10)


class LocalJobs:
    """A pool of worker processes of this site's own (started on the first job, or by
    :meth:`start`)."""

    kind = "local"

    def __init__(self, url: str, size: int = 1) -> None:
        self.url = url
        self.size = size
        self._pool: Executor | None = None
        self._lock = threading.Lock()

    def _get(self) -> Executor:
        with self._lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    self.size, mp_context=multiprocessing.get_context("spawn"),
                    initializer=_worker_start)
            return self._pool

    def start(self) -> None:
        self._get()

    def submit(self, game_id: str) -> bool:
        return self._run(run_job, game_id, self.url)

    def prepare(self, game: str, day: str) -> bool:
        return self._run(prepare_job, game, day, self.url)

    def _run(self, job: Any, *args: Any) -> bool:
        try:
            self._get().submit(job, *args)
        except RuntimeError:  # a broken pool (a worker died): a new one next time
            with self._lock:
                self._pool = None
            return False
        return True

    def workers(self) -> int | None:
        return self.size

    def close(self) -> None:
        with self._lock:
            if self._pool is not None:
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = None


class RedisJobs:
    """An RQ queue on Redis. The web process's calls to Redis wait at most half a second."""

    kind = "redis"

    def __init__(self, redis_url: str) -> None:
        import redis
        from rq import Queue

        self.redis = redis.Redis.from_url(redis_url, socket_connect_timeout=0.5,
                                          socket_timeout=0.5)
        self.queue = Queue(queue_name(), connection=self.redis)

    def start(self) -> None:
        """Nothing: ``reussite worker`` processes work the queue."""

    def submit(self, game_id: str) -> bool:
        import redis

        try:
            # Time out a job at three times its CPU budget: the row's sweep takes it back.
            self.queue.enqueue_call(run_job, args=(game_id,), timeout=job_timeout(),
                                    result_ttl=600, failure_ttl=86_400)
        except redis.RedisError:
            return False
        return True

    def prepare(self, game: str, day: str) -> bool:
        import redis

        try:
            self.queue.enqueue_call(prepare_job, args=(game, day), timeout=PREPARE_TIMEOUT,
                                    result_ttl=600, failure_ttl=86_400)
        except redis.RedisError:
            return False
        return True

    def workers(self) -> int | None:
        import redis
        from rq import Worker

        try:
            return int(Worker.count(queue=self.queue))
        except redis.RedisError:
            return None

    def close(self) -> None:
        self.redis.close()


def job_timeout() -> int:
    return int(cpu_budget() * 3) + 60


def _tier() -> tuple[str, int, str | None]:
    """The job tier's settings: its kind (``REUSSITE_JOBS``), the local pool's size
    (``REUSSITE_ANALYSIS_WORKERS``), the queue's Redis (``REUSSITE_REDIS_URL``)."""
    kind = os.environ.get("REUSSITE_JOBS", "local").lower()
    if kind == "local":
        text = os.environ.get("REUSSITE_ANALYSIS_WORKERS", "1")
        if not text.isdigit() or not 1 <= int(text) <= 64:
            raise ValueError(f"REUSSITE_ANALYSIS_WORKERS is a number from 1 to 64: {text!r}")
        return kind, int(text), None
    if kind == "redis":
        redis_url = os.environ.get("REUSSITE_REDIS_URL")
        if not redis_url:
            raise ValueError("REUSSITE_JOBS=redis needs REUSSITE_REDIS_URL")
        return kind, 0, redis_url
    raise ValueError(f"REUSSITE_JOBS is local or redis: {kind!r}")


def check_env() -> None:
    """Raise ValueError, with its sentence, when a setting of the job tier is bad."""
    _tier()


def jobs_from_env(url: str) -> Jobs:
    """The job tier the environment names (``REUSSITE_JOBS``: ``local``, the default, or
    ``redis``)."""
    _kind, workers, redis_url = _tier()
    if redis_url is not None:
        return RedisJobs(redis_url)
    return LocalJobs(url, workers)


def work(redis_url: str, burst: bool = False, sweep_every: float = 30.0) -> Any:
    """``reussite worker``: work the Redis queue (until stopped; ``burst``: until it is
    empty). Between jobs, the worker sweeps what killed workers left behind."""
    import redis
    from rq import Worker

    from reussite.web.analyses import Analyses
    from reussite.web.storage import Store, default_url

    connection = redis.Redis.from_url(redis_url)
    store = Store(os.environ.get("REUSSITE_DATABASE_URL") or default_url())
    store.migrate()
    sweeper = RedisJobs(redis_url)

    def sweep() -> None:
        for game_id in Analyses(store).sweep():
            sweeper.submit(game_id)

    stop = threading.Event()

    def sweeping() -> None:
        while not stop.wait(sweep_every):
            with contextlib.suppress(Exception):
                sweep()

    sweep()
    if not burst:
        threading.Thread(target=sweeping, name="sweep", daemon=True).start()
    try:
        return Worker([queue_name()], connection=connection).work(burst=burst)
    finally:
        stop.set()
