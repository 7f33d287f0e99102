"""Removing the games nobody needs any more, in small batches, beside the requests.

Every player is anonymous (a cookie): when one goes away, their games would stay for ever.
What is removed, and what is kept (docs/statistics.md, "Retention"):

- a game **abandoned** (another game of its kind dealt, or pushed out by the bound on games in
  play) is removed once it has not changed for ``REUSSITE_ABANDONED_AFTER`` days (default 7):
  its result is in the player's running totals already;
- of the games that ended **won** or **lost** (stuck), a player keeps the newest
  ``REUSSITE_HISTORY_PER_GAME`` (default 20) of each game, with their lines: the history of
  their last games; older ones are removed (the totals keep their results);
- a game **in play** is never removed, however old;
- a **sign-in code** (reussite.web.identity) is removed a day after it expired: refused
  since, it is refused as well once unknown. (A signed-out browser's row is kept: a cookie
  naming a browser the site has no row of is taken as never recorded, and let in.)

Each batch (``BATCH`` games) is one short transaction; the server runs a pass every
``REUSSITE_CLEANUP_EVERY`` seconds (default 600; ``off``: never) in a thread of its own, and
``reussite cleanup`` runs one pass for operators.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from typing import Any

from sqlalchemy import bindparam, delete, func, or_, select

from reussite.web.storage import Store, games, moves, now_ms, sign_in_codes

log = logging.getLogger("reussite.web")

ABANDONED_AFTER_DAYS = 7.0
HISTORY_PER_GAME = 20
CLEANUP_EVERY = 600.0
BATCH = 500
DAY_MS = 86_400_000

_ids: Any = bindparam("ids", expanding=True)
ABANDONED = select(games.c.id).where(
    games.c.ended == "abandoned", games.c.updated_at < bindparam("cutoff")).limit(
    bindparam("batch"))
_rank = func.row_number().over(partition_by=(games.c.player_id, games.c.game),
                               order_by=(games.c.updated_at.desc(), games.c.id)).label("rank")
_ended = select(games.c.id, _rank).where(
    games.c.ended.in_(("won", "lost")),
    # A daily win is kept: the leaderboards and the streaks are read from it.
    or_(games.c.origin != "daily", games.c.won_at.is_(None))).subquery()
BEYOND_HISTORY = select(_ended.c.id).where(_ended.c.rank > bindparam("keep")).limit(
    bindparam("batch"))
DELETE_MOVES = delete(moves).where(moves.c.game_id.in_(_ids))
DELETE_GAMES = delete(games).where(games.c.id.in_(_ids), games.c.ended.is_not(None))
"""Never a game in play (``ended`` NULL), whatever the batch was read as."""


def _setting(name: str, default: float, minimum: float) -> float:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        number = float(value)
    except ValueError:
        raise ValueError(f"{name} must be a number, not {value!r}") from None
    if number < minimum:
        raise ValueError(f"{name} must be at least {minimum:g}")
    return number


def abandoned_after_ms() -> int:
    """``REUSSITE_ABANDONED_AFTER``: days an abandoned game is kept (default 7)."""
    return int(_setting("REUSSITE_ABANDONED_AFTER", ABANDONED_AFTER_DAYS, 0) * DAY_MS)


def history_per_game() -> int:
    """``REUSSITE_HISTORY_PER_GAME``: ended games kept per player and game (default 20)."""
    return int(_setting("REUSSITE_HISTORY_PER_GAME", HISTORY_PER_GAME, 1))


def cleanup_every() -> float | None:
    """``REUSSITE_CLEANUP_EVERY``: seconds between the server's passes; None: ``off``."""
    if os.environ.get("REUSSITE_CLEANUP_EVERY", "").strip().lower() == "off":
        return None
    return _setting("REUSSITE_CLEANUP_EVERY", CLEANUP_EVERY, 1)


def remove_batch(store: Store, query: Any, params: dict[str, int]) -> int:
    """One batch: the games ``query`` names (and their moves) removed in one transaction."""
    with store._writing() as conn:
        ids = list(conn.execute(query, params).scalars())
        if not ids:
            return 0
        conn.execute(DELETE_MOVES, {"ids": ids})
        return int(conn.execute(DELETE_GAMES, {"ids": ids}).rowcount)


def cleanup(store: Store, *, now: int | None = None, abandoned_after: int | None = None,
            keep: int | None = None, batch: int = BATCH, pause: float = 0.0) -> int:
    """One pass: every abandoned game older than ``abandoned_after`` ms and every ended game
    beyond the newest ``keep`` of its player and game, removed batch by batch (``pause``
    seconds between batches, to leave the database to the requests). How many were."""
    now = now_ms() if now is None else now
    cutoff = now - (abandoned_after_ms() if abandoned_after is None else abandoned_after)
    keep = history_per_game() if keep is None else keep
    removed = 0
    for query, params in ((ABANDONED, {"cutoff": cutoff, "batch": batch}),
                          (BEYOND_HISTORY, {"keep": keep, "batch": batch})):
        while True:
            n = remove_batch(store, query, params)
            removed += n
            if n < batch:
                break
            time.sleep(pause)
    with store._writing() as conn:
        conn.execute(delete(sign_in_codes).where(sign_in_codes.c.expires_at < now - DAY_MS))
    return removed


def start(store: Store) -> threading.Thread | None:
    """The server's cleaner: a pass every :func:`cleanup_every` seconds, in a daemon thread
    (the database work of a batch is short; requests go on meanwhile)."""
    every = cleanup_every()
    if every is None:
        return None

    def run() -> None:
        while True:
            time.sleep(every)
            try:
                n = cleanup(store, pause=0.05)
                if n:
                    log.info("cleanup: %d games removed", n)
            except Exception as e:  # noqa: BLE001 (the database away: next pass)
                log.warning("cleanup failed: %s", type(e).__name__)

    thread = threading.Thread(target=run, name="reussite-cleanup", daemon=True)
    thread.start()
    return thread
