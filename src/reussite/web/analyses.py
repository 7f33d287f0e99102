"""The analyses of finished games, as the job tier runs them and the database keeps them.

An analysis (:mod:`reussite.solver.analysis`) is CPU work of seconds: it never runs in a web
request. A request writes a row of ``analyses`` in state ``queued`` and hands its game id to
the job tier (:mod:`reussite.web.jobs`); a worker *claims* the row (``queued`` to ``running``,
one conditional update: of two workers given one job, one runs it), runs the analysis and
writes the result (``done``) or the error (``failed``). The row is the truth, the queue only a
messenger: any web process reads the result, and a job the queue lost is handed out again.

**A worker killed in the middle** leaves its row ``running``. :meth:`Analyses.sweep` (run
whenever an analysis is read, and by every worker between jobs) takes such a row back to
``queued`` once it has run longer than its budget allows (:func:`stale_after_ms`), and hands it
out again; after :data:`MAX_ATTEMPTS` it is ``failed``. A ``queued`` row that no worker has
claimed for :data:`RESUBMIT_AFTER_MS` (the queue's service was down, or the local pool went away
with its process) is handed out again too: a row is never left queued or running for ever.
"""

from __future__ import annotations

import json
import os
import threading
import traceback
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, func, insert, or_, select, update

from reussite.engine import Position, RawMove
from reussite.games import get_game
from reussite.solver.analysis import DEFAULT_CPU_BUDGET, analyse, positions_along
from reussite.web.play import decode_move
from reussite.web.storage import Store, analyses, default_url, games, moves, now_ms

STATES = ("queued", "running", "done", "failed")
MAX_ATTEMPTS = 2
"""Runs of one analysis before it is ``failed`` (a second chance after a killed worker)."""
RESUBMIT_AFTER_MS = 60_000
"""A queued analysis no worker has claimed for this long is handed to the queue again."""


def cpu_budget() -> float:
    """CPU seconds for one analysis: ``REUSSITE_ANALYSIS_CPU``, else
    :data:`~reussite.solver.analysis.DEFAULT_CPU_BUDGET`."""
    text = os.environ.get("REUSSITE_ANALYSIS_CPU", "")
    try:
        value = float(text) if text else DEFAULT_CPU_BUDGET
    except ValueError:
        raise ValueError(f"REUSSITE_ANALYSIS_CPU is a number of seconds: {text!r}") from None
    if not 0 < value <= 600:
        raise ValueError(f"REUSSITE_ANALYSIS_CPU is between 0 and 600 seconds: {text!r}")
    return value


def stale_after_ms() -> int:
    """A ``running`` analysis older than this was abandoned by its worker: the CPU budget
    (wall time runs longer than CPU time on a busy machine: three times over), plus a minute."""
    return int(cpu_budget() * 3000) + 60_000


@dataclass(frozen=True)
class AnalysisRow:
    game_id: str
    player_id: str
    state: str
    attempts: int
    result: dict[str, Any] | None
    error: str | None
    created_at: int
    submitted_at: int
    started_at: int | None
    finished_at: int | None

    @classmethod
    def of(cls, r: Any) -> AnalysisRow:
        return cls(r.game_id, r.player_id, r.state, r.attempts,
                   None if r.result is None else json.loads(r.result), r.error, r.created_at,
                   r.submitted_at, r.started_at, r.finished_at)


class Analyses:
    """The ``analyses`` table (every statement of it is here)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine

    def get(self, game_id: str) -> AnalysisRow | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(analyses).where(analyses.c.game_id == game_id)).first()
        return None if r is None else AnalysisRow.of(r)

    def request(self, game_id: str, player_id: str, address: str) -> tuple[AnalysisRow, bool]:
        """The game's analysis, made ``queued`` if it has none yet (or it failed): the row,
        and whether the caller must hand it to the queue."""
        t = now_ms()
        with self.store._writing() as conn:
            r = conn.execute(select(analyses).where(analyses.c.game_id == game_id)).first()
            if r is None:
                conn.execute(insert(analyses).values(
                    game_id=game_id, player_id=player_id, address=address[:64],
                    state="queued", attempts=0, created_at=t, submitted_at=t))
                submit = True
            elif r.state == "failed":
                conn.execute(update(analyses).where(analyses.c.game_id == game_id).values(
                    state="queued", attempts=0, error=None, submitted_at=t))
                submit = True
            else:
                submit = False
        row = self.get(game_id)
        assert row is not None
        return row, submit

    def claim(self, game_id: str) -> bool:
        """``queued`` to ``running`` for this worker; False when another has it, or it is
        done."""
        with self.store._writing() as conn:
            n = conn.execute(update(analyses).where(
                analyses.c.game_id == game_id, analyses.c.state == "queued").values(
                state="running", started_at=now_ms(),
                attempts=analyses.c.attempts + 1)).rowcount
        return bool(n)

    def finish(self, game_id: str, result: dict[str, Any]) -> None:
        with self.store._writing() as conn:
            conn.execute(update(analyses).where(
                analyses.c.game_id == game_id, analyses.c.state == "running").values(
                state="done", result=json.dumps(result, separators=(",", ":")),
                finished_at=now_ms()))

    def fail(self, game_id: str, error: str) -> None:
        with self.store._writing() as conn:
            conn.execute(update(analyses).where(
                analyses.c.game_id == game_id, analyses.c.state == "running").values(
                state="failed", error=error[:2000], finished_at=now_ms()))

    def sweep(self, game_id: str | None = None, now: int | None = None) -> list[str]:
        """Take back what workers left behind (of one game, or of all): ``running`` rows past
        :func:`stale_after_ms` go back to ``queued`` (``failed`` after :data:`MAX_ATTEMPTS`),
        and ``queued`` rows nobody claimed for :data:`RESUBMIT_AFTER_MS` are handed out
        again. Answers the game ids to hand to the queue. ``now``: the time in ms (a test's
        clock)."""
        t = now_ms() if now is None else now
        mine = [] if game_id is None else [analyses.c.game_id == game_id]
        stale = and_(analyses.c.state == "running",
                     analyses.c.started_at < t - stale_after_ms(), *mine)
        with self.store._writing() as conn:
            conn.execute(update(analyses).where(
                stale, analyses.c.attempts >= MAX_ATTEMPTS).values(
                state="failed", error="The analysis stopped before its end", finished_at=t))
            conn.execute(update(analyses).where(stale).values(state="queued", submitted_at=t))
            forgotten = and_(analyses.c.state == "queued",
                             analyses.c.submitted_at < t - RESUBMIT_AFTER_MS, *mine)
            ids = [r[0] for r in conn.execute(select(analyses.c.game_id).where(
                or_(forgotten, and_(analyses.c.state == "queued",
                                    analyses.c.submitted_at == t, *mine))).limit(100))]
            if ids:
                conn.execute(update(analyses).where(analyses.c.game_id.in_(ids)).values(
                    submitted_at=t))
        return ids

    def queued(self) -> int:
        """Analyses waiting for a worker."""
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(analyses).where(
                analyses.c.state == "queued")).scalar_one())

    def ahead_of(self, row: AnalysisRow) -> int:
        """Queued analyses handed out before this one (where it stands in the queue)."""
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(analyses).where(
                analyses.c.state == "queued",
                analyses.c.created_at < row.created_at)).scalar_one())

    def in_flight(self, player_id: str) -> int:
        """The player's analyses queued or running."""
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(analyses).where(
                analyses.c.player_id == player_id,
                analyses.c.state.in_(("queued", "running")))).scalar_one())

    def since(self, since_ms: int, *, player_id: str | None = None,
              address: str | None = None) -> int:
        """Analyses asked since ``since_ms`` by a player, or from an address."""
        who = (analyses.c.player_id == player_id if player_id is not None
               else analyses.c.address == (address or "")[:64])
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(analyses).where(
                who, analyses.c.created_at >= since_ms)).scalar_one())


# ---------------------------------------------------------------------- the work itself


def played_line(pos: Position, stored: list[str]) -> list[RawMove]:
    """The stored moves (the line up to the cursor: undone moves cut) as raw moves."""
    out: list[RawMove] = []
    here = pos.copy()
    for text in stored:
        raw = here.to_raw(decode_move(text))
        out.append(raw)
        here.push_raw(raw)
    return out


def result_of(game: str, number: int, stored: list[str], budget: float | None,
              max_states: int | None = None) -> dict[str, Any]:
    """The analysis of a game (its deal and its moves as stored) as the API answers it, the
    moves in the contract's form."""
    deal = Position.deal(get_game(game), number)
    line = played_line(deal, stored)
    found = analyse(deal, line, cpu_budget=budget, max_states=max_states)

    def moves_from(pos: Position, raw: list[RawMove]) -> list[dict[str, Any]]:
        here = pos.copy()
        out = []
        for m in raw:
            out.append(here.to_move(m).to_json())
            here.push_raw(m)
        return out

    along = positions_along(deal, line)
    data = found.to_json()
    data["player_line"] = moves_from(deal, line)
    data["opening_line"] = moves_from(deal, found.opening_line)
    data["win_from_last"] = ([] if found.last_winnable is None else
                             moves_from(along[found.last_winnable], found.win_from_last))
    data["shortest_win"] = len(found.opening_line) if found.opening == "won" else None
    return data


_stores: dict[str, Store] = {}
_stores_lock = threading.Lock()


def _store(url: str) -> Store:
    """One store per database in a worker process (its connections kept between jobs)."""
    with _stores_lock:
        if url not in _stores:
            _stores[url] = Store(url)
        return _stores[url]


def run_job(game_id: str, url: str | None = None) -> str:
    """A worker's job: claim the game's analysis, run it, store the result. ``url``: the
    database (the local pool passes its site's; a ``reussite worker`` reads its own
    ``REUSSITE_DATABASE_URL``). Answers the state it left."""
    store = _store(url or os.environ.get("REUSSITE_DATABASE_URL") or default_url())
    table = Analyses(store)
    if not table.claim(game_id):
        return "skipped"
    try:
        with store.engine.connect() as conn:
            g = conn.execute(select(games.c.game, games.c.number, games.c.cursor).where(
                games.c.id == game_id)).one()
            stored = [r[0] for r in conn.execute(select(moves.c.move).where(
                moves.c.game_id == game_id, moves.c.seq < g.cursor).order_by(moves.c.seq))]
        table.finish(game_id, result_of(g.game, int(g.number), stored, cpu_budget()))
        return "done"
    except Exception:  # noqa: BLE001 - whatever went wrong is written down, never lost
        table.fail(game_id, traceback.format_exc(limit=5))
        return "failed"
