"""Every setting the site reads from its environment, checked at once before it serves.

Each setting keeps its reader in the module that uses it (and its sentence there); this
module only calls them all, so that ``reussite serve`` refuses a bad value at start-up with
that one sentence, instead of a traceback from deep inside the start-up, or a failure at the
first request that reads it (a worker process of ``--workers N`` builds its application from
the same environment, after the parent's check).
"""

from __future__ import annotations

from collections.abc import Callable

from reussite.web import analyses, cleanup, daily, edge, jobs, play, pool, ratelimit, review


def _analyses_per_hour() -> None:
    review.hourly("REUSSITE_ANALYSES_PER_HOUR", 1)
    review.hourly("REUSSITE_ANALYSES_PER_HOUR_ADDRESS", 1)


def _rates() -> None:
    for name in ("REUSSITE_RATE_LIMIT", "REUSSITE_RATE_LIMIT_ADDRESS",
                 "REUSSITE_SIGN_IN_LIMIT"):
        try:
            ratelimit.rate_from_env(name, "off")
        except ValueError as e:
            raise ValueError(f"{name}: {e}") from None


READERS: list[Callable[[], object]] = [
    cleanup.cleanup_every, cleanup.abandoned_after_ms, cleanup.history_per_game,
    pool.pool_size, play.max_games_in_play, analyses.cpu_budget, jobs.check_env,
    _analyses_per_hour, _rates, edge.browser_check_seconds, daily.board_seconds,
]


def check() -> None:
    """Read every setting; the first bad one raises ValueError with its sentence."""
    for read in READERS:
        read()
