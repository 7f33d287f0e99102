"""The job tier (web/jobs.py, web/analyses.py) against the real services: the local pool of
worker processes on SQLite, and the RQ queue on Redis worked by ``reussite worker`` processes
on PostgreSQL; a worker killed in the middle of a job; the queue's Redis gone."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import after, assert_raw_line_wins, lost_on_purpose
from serverproc import free_port, postgres_base, postgres_schema, redis_address

from reussite.web.analyses import MAX_ATTEMPTS, Analyses, AnalysisRow, stale_after_ms
from reussite.web.jobs import LocalJobs, RedisJobs
from reussite.web.play import Tables
from reussite.web.storage import Store, now_ms


def stored_game(store: Store, line: list[tuple[int, int, int]], game: str = "klondike",
                number: int = 1) -> str:
    """A game of ``game`` deal ``number`` played through the site's tables: its id."""
    tables = Tables(store)
    out = tables.new_game("p1", game, number)
    for raw in line:
        out = tables.move("p1", out.row.id, out.pos.to_move(raw), out.row.version)
    return out.row.id


def wait_for(table: Analyses, game_id: str, states: tuple[str, ...],
             timeout: float = 120) -> AnalysisRow:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        row = table.get(game_id)
        if row is not None and row.state in states:
            return row
        time.sleep(0.1)
    raise AssertionError(f"the analysis did not reach {states}: {table.get(game_id)}")


@pytest.fixture(scope="module")
def lost() -> tuple[object, list[tuple[int, int, int]], int]:
    return lost_on_purpose("klondike", 1, start=10, more=40)


def check_result(row: AnalysisRow, losing: int) -> None:
    assert row.state == "done" and row.result is not None
    assert row.result["losing_move"] == losing
    assert row.result["exact"] is True
    assert len(row.result["player_line"]) == row.result["moves"]


def test_the_local_pool_runs_an_analysis_in_a_worker_process(
        tmp_path: Path, lost: tuple[object, list[tuple[int, int, int]], int]) -> None:
    _, line, losing = lost
    store = Store(f"sqlite:///{tmp_path / 'site.sqlite3'}")
    store.migrate()
    game_id = stored_game(store, line)
    table = Analyses(store)
    row, submit = table.request(game_id, "p1", "127.0.0.1")
    assert submit and row.state == "queued"
    jobs = LocalJobs(store.url, 1)
    try:
        assert jobs.submit(game_id)
        done = wait_for(table, game_id, ("done", "failed"))
    finally:
        jobs.close()
    check_result(done, losing)
    assert done.attempts == 1
    # Asked again: nothing to hand out, the stored result stands.
    again, submit = table.request(game_id, "p1", "127.0.0.1")
    assert not submit and again.result == done.result


@pytest.fixture
def services() -> Iterator[tuple[str, str]]:
    """A PostgreSQL schema and a Redis queue of this test's own."""
    base = postgres_base()
    redis = redis_address()
    if base is None or redis is None:
        pytest.skip("needs PostgreSQL on 5432 and Redis on 6379 (REUSSITE_TEST_POSTGRES, "
                    "REUSSITE_TEST_REDIS)")
    with postgres_schema(base, "jobs") as url:
        yield url, "redis://{}:{}/0".format(*redis)


def worker(url: str, redis_url: str, queue: str, *, burst: bool,
           cpu: float = 10.0) -> subprocess.Popen[bytes]:
    env = dict(os.environ, REUSSITE_DATABASE_URL=url, REUSSITE_REDIS_URL=redis_url,
               REUSSITE_JOBS_QUEUE=queue, REUSSITE_ANALYSIS_CPU=str(cpu))
    args = [sys.executable, "-m", "reussite", "worker"] + (["--burst"] if burst else [])
    return subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)


def test_the_redis_queue_is_worked_by_a_reussite_worker(
        services: tuple[str, str], monkeypatch: pytest.MonkeyPatch,
        lost: tuple[object, list[tuple[int, int, int]], int]) -> None:
    url, redis_url = services
    queue = f"test-{os.getpid()}-{time.monotonic_ns()}"
    monkeypatch.setenv("REUSSITE_JOBS_QUEUE", queue)
    _, line, losing = lost
    web1, web2 = Store(url), Store(url)  # two web processes' stores on one database
    web1.migrate()
    game_id = stored_game(web1, line)
    _, submit = Analyses(web1).request(game_id, "p1", "127.0.0.1")
    jobs = RedisJobs(redis_url)
    assert submit and jobs.submit(game_id)
    assert jobs.queue.count == 1
    proc = worker(url, redis_url, queue, burst=True)
    out, _ = proc.communicate(timeout=180)
    assert proc.returncode == 0, out.decode()[-2000:]
    first = wait_for(Analyses(web1), game_id, ("done", "failed"), timeout=5)
    check_result(first, losing)
    second = Analyses(web2).get(game_id)
    assert second == first
    jobs.close()
    web1.dispose()
    web2.dispose()


def test_a_worker_killed_in_the_middle_of_a_job_never_leaves_it_running(
        services: tuple[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    url, redis_url = services
    queue = f"test-{os.getpid()}-{time.monotonic_ns()}"
    monkeypatch.setenv("REUSSITE_JOBS_QUEUE", queue)
    store = Store(url)
    store.migrate()
    # A Spider deal with a long line: its analysis runs for many seconds.
    from helpers import carry_on

    from reussite.engine import Position
    from reussite.games import get_game

    deal = Position.deal(get_game("spider"), 5)
    game_id = stored_game(store, carry_on(deal, 80), "spider", 5)
    table = Analyses(store)
    table.request(game_id, "p1", "127.0.0.1")
    jobs = RedisJobs(redis_url)
    assert jobs.submit(game_id)
    proc = worker(url, redis_url, queue, burst=False, cpu=120.0)
    try:
        wait_for(table, game_id, ("running",), timeout=60)
        time.sleep(1.0)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the worker and the process running the job
        proc.wait()
    assert table.get(game_id).state == "running"  # type: ignore[union-attr]
    # Not yet stale: left alone.
    assert table.sweep(game_id) == []
    # Past the budget: back to the queue, handed out again, and done by the next worker.
    later = now_ms() + stale_after_ms() + 1
    assert table.sweep(game_id, now=later) == [game_id]
    row = table.get(game_id)
    assert row is not None and row.state == "queued" and row.attempts == 1
    assert jobs.submit(game_id)
    proc = worker(url, redis_url, queue, burst=True, cpu=0.5)
    out, _ = proc.communicate(timeout=180)
    assert proc.returncode == 0, out.decode()[-2000:]
    done = table.get(game_id)
    assert done is not None and done.state == "done" and done.attempts == 2
    assert done.result is not None and done.result["moves"] == 80
    jobs.close()
    store.dispose()


def test_after_its_last_attempt_an_abandoned_analysis_is_failed(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'site.sqlite3'}")
    store.migrate()
    game_id = stored_game(store, [])
    table = Analyses(store)
    table.request(game_id, "p1", "127.0.0.1")
    for attempt in range(1, MAX_ATTEMPTS + 1):
        assert table.claim(game_id)  # a worker takes it, and dies
        # The sweep comes just past the claim's staleness, counted from after the claim.
        handed = table.sweep(game_id, now=now_ms() + stale_after_ms() + 1)
        row = table.get(game_id)
        assert row is not None and row.attempts == attempt
        if attempt < MAX_ATTEMPTS:
            assert handed == [game_id] and row.state == "queued"
        else:
            assert handed == [] and row.state == "failed" and row.error
    # A failed analysis asked for again starts afresh.
    row, submit = table.request(game_id, "p1", "127.0.0.1")
    assert submit and row.state == "queued" and row.attempts == 0


def test_with_the_queues_redis_down_analyses_wait_as_queued(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'site.sqlite3'}")
    store.migrate()
    game_id = stored_game(store, [])
    table = Analyses(store)
    row, submit = table.request(game_id, "p1", "127.0.0.1")
    down = RedisJobs(f"redis://127.0.0.1:{free_port()}/0")  # nothing listens there
    assert submit and down.submit(game_id) is False
    assert down.workers() is None
    assert table.get(game_id).state == "queued"  # type: ignore[union-attr]
    assert table.queued() == 1
    # Handed out again once the queue has had time to come back.
    assert table.sweep(game_id, now=row.submitted_at + 61_000) == [game_id]


def test_every_line_of_a_stored_analysis_replays(
        tmp_path: Path, lost: tuple[object, list[tuple[int, int, int]], int]) -> None:
    from reussite.engine import Move, Position
    from reussite.games import get_game
    from reussite.web.analyses import result_of
    from reussite.web.play import encode_move

    _, line, losing = lost
    deal = Position.deal(get_game("klondike"), 1)
    here = deal.copy()
    stored = []
    for raw in line:
        stored.append(encode_move(here.to_move(raw)))
        here.push_raw(raw)
    result = result_of("klondike", 1, stored, budget=None, max_states=200_000)
    assert result["losing_move"] == losing

    def raws(pos: Position, moves: list[dict[str, object]]) -> list[tuple[int, int, int]]:
        here = pos.copy()
        out = []
        for m in moves:
            raw = here.to_raw(Move.from_json(m))
            out.append(raw)
            here.push_raw(raw)
        return out

    assert_raw_line_wins(deal, raws(deal, result["opening_line"]))
    start = after(deal, line[:result["last_winnable"]])
    assert_raw_line_wins(start, raws(start, result["win_from_last"]))
    assert raws(deal, result["player_line"]) == line


def test_a_days_deal_is_prepared_by_a_reussite_worker(services: tuple[str, str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The daily deal's preparation on the Redis queue: a web process hands it on, a
    ``reussite worker`` proves the deal and stores it, every process reads the same."""
    from reussite.web import daily

    url, redis_url = services
    queue = f"test-{os.getpid()}-{time.monotonic_ns()}"
    monkeypatch.setenv("REUSSITE_JOBS_QUEUE", queue)
    web = Store(url)
    web.migrate()
    jobs = RedisJobs(redis_url)
    assert jobs.prepare("klondike", "2026-05-01") and jobs.queue.count == 1
    proc = worker(url, redis_url, queue, burst=True)
    out, _ = proc.communicate(timeout=180)
    assert proc.returncode == 0, out.decode()[-2000:]
    found = daily.stored(web, "klondike", "2026-05-01")
    assert found is not None
    assert found.number == daily.deal_number(web.secret_key(), "klondike", "2026-05-01",
                                             found.attempt)
    assert daily.replays_to_win("klondike", found.number, found.line)
    jobs.close()
    web.dispose()
