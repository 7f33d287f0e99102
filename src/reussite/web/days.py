"""The site's days (UTC), for the daily deal: which day it is, and whether a day is over.

One clock says what time it is for the days: :data:`clock` (seconds since the epoch), which
tests replace to cross midnight at will. A server process started with ``REUSSITE_FAKE_NOW``
(an ISO 8601 moment, a test aid only) counts its days from that moment, the real time
running on from it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta

DAY_SECONDS = 86_400
FIRST_DAY = "2000-01-01"
"""No day before it has a daily deal (every day then has a day before it)."""


def _real_clock() -> Callable[[], float]:
    fake = os.environ.get("REUSSITE_FAKE_NOW", "").strip()
    if not fake:
        return time.time
    start = datetime.fromisoformat(fake)
    if start.tzinfo is None:
        start = start.replace(tzinfo=UTC)
    offset = start.timestamp() - time.time()
    return lambda: time.time() + offset


clock: Callable[[], float] = _real_clock()
"""What time it is for the days, in seconds since the epoch (a test sets its own)."""


def today() -> str:
    """Today's date in UTC, ``YYYY-MM-DD``."""
    return datetime.fromtimestamp(clock(), UTC).date().isoformat()


def seconds_left() -> int:
    """Seconds until the next day starts (00:00 UTC), at least 1."""
    return max(1, DAY_SECONDS - int(clock()) % DAY_SECONDS)


def parse_day(text: str) -> str:
    """``text`` as a day ``YYYY-MM-DD`` (a real date, written so), or ValueError."""
    if len(text) != 10 or text[4] != "-" or text[7] != "-" or \
            not (text[:4] + text[5:7] + text[8:]).isdigit():
        raise ValueError(f"A day is written YYYY-MM-DD, not {text[:20]!r}")
    try:
        day = date.fromisoformat(text).isoformat()
    except ValueError:
        raise ValueError(f"{text} is not a date") from None
    if day < FIRST_DAY:
        raise ValueError(f"The daily deals start on {FIRST_DAY}")
    return day


def is_over(day: str) -> bool:
    """Whether ``day`` has ended (every day before today)."""
    return day < today()


def next_day(day: str, days: int = 1) -> str:
    return (date.fromisoformat(day) + timedelta(days=days)).isoformat()


RARELY_WON = frozenset({"leap-year", "auld-lang-syne", "scorpion", "forty-thieves"})
"""Games left out of the daily deal although they hide cards: the full-information solver
wins under a quarter of their deals 1-20 in 10 s (the README's table: Leap Year 4 and 3
undecided, Auld Lang Syne none, Scorpion and Forty Thieves few, most undecided), so finding
and proving a day's deal would take minutes of solving, or fail."""


def daily_games() -> tuple[str, ...]:
    """The games with a daily deal, in catalogue order: those whose deal hides cards (a game
    with every card in sight can be solved before the first move) and whose deals are often
    proved winnable (not :data:`RARELY_WON`)."""
    from reussite.games import CATALOGUE

    return tuple(g for g, rules in CATALOGUE.items()
                 if rules.hides_cards and g not in RARELY_WON)
