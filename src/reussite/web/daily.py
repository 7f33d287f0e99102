"""The daily deal: one proven-winnable deal a day for each daily game, the same for everyone.

- **The deal** of a game on a day (UTC, :mod:`reussite.web.days`) is a 64-bit deal number made
  from the site's secret key (:meth:`Store.secret_key`, shared by every process) by a keyed
  hash under a label of its own (:func:`deal_number`): no one without the key can compute a
  day's deal ahead of time. Attempts 0, 1, 2... are tried until the full-information solver
  wins one within its budget and its line replays to a win on the engine
  (:func:`find_deal`); that deal, its attempt and the line are stored in ``daily_deals``.
- **Preparing** runs ahead (``reussite daily prepare --days 7``, and the server's own thread
  at start for today and tomorrow: :func:`start`), or on demand through the job tier when a
  day's deal is asked for and is missing (:func:`prepare_job`): never in a request.
- **The leaderboard** of a game's day: the players' ranked games (their first of the day's
  deal, dealt on its day) that were won, ranked by the moves played (undone ones included),
  then the game's time, then the earliest win; ties (the same moves and the same time in
  whole seconds, as the board shows it) share a rank.
- **Streaks**: days in a row with a win of the day's deal on its day (origin ``daily``).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from sqlalchemy import and_, false, func, or_, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection

from reussite.deals import number_from
from reussite.engine import Position
from reussite.games import get_game
from reussite.web.days import daily_games, is_over, next_day, seconds_left, today
from reussite.web.names import anonymous_name, display_names
from reussite.web.play import decode_move, encode_move
from reussite.web.storage import (
    CLEAN_WIN,
    RANKED_WIN,
    Store,
    daily_deals,
    default_url,
    games,
    now_ms,
)

log = logging.getLogger("reussite.web")

LABEL = "reussite.daily"
"""The hash's label: the key signs cookies too, under other labels."""
SOLVE_SECONDS = 5.0
"""CPU seconds the solver may spend on one attempt."""
MAX_ATTEMPTS = 60
"""Attempts tried for one day before giving up (then the day has no deal, and says so)."""
BOARD_SIZE = 100


def deal_number(key: str, game: str, day: str, attempt: int) -> int:
    """The deal number of ``game``'s attempt ``attempt`` on ``day``: the first 8 bytes of
    HMAC-SHA256 under the site's key (0 to 2**64 - 1, brought into the game's range of
    numbers where it is narrower), unguessable without the key."""
    msg = f"{LABEL}|{game}|{day}|{attempt}".encode()
    value = int.from_bytes(hmac.new(key.encode(), msg, hashlib.sha256).digest()[:8], "big")
    return number_from(value, get_game(game).numbers)


@dataclass(frozen=True)
class Prepared:
    """A day's deal: its number, the attempt that gave it, the solver's winning line."""

    game: str
    day: str
    number: int
    attempt: int
    line: list[str]


Solver = Callable[[str, int, float], list[str] | None]
"""``solver(game, number, seconds)``: a winning line (moves as stored), or None."""


def solver_line(game: str, number: int, seconds: float) -> list[str] | None:
    """The full-information solver's win of the deal (None: lost, or not found in budget)."""
    from reussite.solver import solve

    result = solve(Position.deal(get_game(game), number), time_limit=seconds, clock="cpu")
    return [encode_move(m) for m in result.moves] if result.status == "won" else None


def replays_to_win(game: str, number: int, line: Iterable[str]) -> bool:
    """Whether ``line`` plays legally from the deal to a win, on the engine."""
    pos = Position.deal(get_game(game), number)
    for text in line:
        try:
            pos.play(decode_move(text))
        except ValueError:
            return False
    return pos.is_won()


def find_deal(key: str, game: str, day: str, *, seconds: float = SOLVE_SECONDS,
              attempts: int = MAX_ATTEMPTS, solver: Solver = solver_line) -> Prepared | None:
    """The day's deal: the first attempt whose deal the solver wins and whose line replays
    to a win (None when ``attempts`` were not enough)."""
    for attempt in range(attempts):
        number = deal_number(key, game, day, attempt)
        line = solver(game, number, seconds)
        if line is not None and replays_to_win(game, number, line):
            return Prepared(game, day, number, attempt, line)
    return None


# ---------------------------------------------------------------------- stored deals


def stored(store: Store, game: str, day: str) -> Prepared | None:
    with store.engine.connect() as conn:
        r = conn.execute(select(daily_deals).where(daily_deals.c.game == game,
                                                   daily_deals.c.day == day)).first()
    if r is None:
        return None
    return Prepared(r.game, r.day, int(r.number), r.attempt, r.line.split("\n") if r.line else [])


def prepared_days(store: Store, day: str) -> set[str]:
    """The games whose deal of ``day`` is ready."""
    with store.engine.connect() as conn:
        return {r[0] for r in conn.execute(select(daily_deals.c.game).where(
            daily_deals.c.day == day))}


def save(store: Store, p: Prepared) -> bool:
    """Store a prepared deal (False when another process stored it first: the same one)."""
    ins = (pg_insert if store.dialect == "postgresql" else sqlite_insert)(daily_deals)
    with store.engine.begin() as conn:
        return conn.execute(ins.values(
            game=p.game, day=p.day, number=str(p.number), attempt=p.attempt,
            line="\n".join(p.line), prepared_at=now_ms()).on_conflict_do_nothing(
            index_elements=["game", "day"]).returning(daily_deals.c.game)).first() is not None


def prepare(store: Store, game: str, day: str, *, seconds: float = SOLVE_SECONDS,
            attempts: int = MAX_ATTEMPTS, solver: Solver = solver_line) -> str:
    """Prepare ``game``'s deal of ``day`` unless it is ready: ``ready`` (it was), ``prepared``
    (now it is), or ``failed`` (no attempt was proved winnable in time)."""
    if stored(store, game, day) is not None:
        return "ready"
    found = find_deal(store.secret_key(), game, day, seconds=seconds, attempts=attempts,
                      solver=solver)
    if found is None:
        log.warning("no daily deal of %s on %s was proved winnable", game, day)
        return "failed"
    save(store, found)
    return "prepared"


def prepare_days(store: Store, first: str, days: int, *, seconds: float = SOLVE_SECONDS,
                 solver: Solver = solver_line,
                 said: Callable[[str, str, str], object] = lambda *_: None) -> dict[str, int]:
    """Prepare every daily game's deal of ``days`` days from ``first``; how many deals were
    ``ready``, ``prepared`` and ``failed`` (``said(game, day, outcome)`` after each)."""
    counts = {"ready": 0, "prepared": 0, "failed": 0}
    for i in range(days):
        day = next_day(first, i)
        for game in daily_games():
            outcome = prepare(store, game, day, seconds=seconds, solver=solver)
            counts[outcome] += 1
            said(game, day, outcome)
    return counts


_stores: dict[str, Store] = {}


def prepare_job(game: str, day: str, url: str | None = None) -> str:
    """A worker's job (the job tier): prepare ``game``'s deal of ``day``. ``url``: the
    database (a ``reussite worker`` reads ``REUSSITE_DATABASE_URL``)."""
    url = url or os.environ.get("REUSSITE_DATABASE_URL") or default_url()
    store = _stores.get(url)
    if store is None:
        store = _stores[url] = Store(url)
    return prepare(store, game, day)


class Asker:
    """Hands a missing day's deal to the job tier, at most once a minute per game and day
    (requests keep asking while it is prepared), in a thread (the hot path's new games run on
    the event loop)."""

    AGAIN_MS = 60_000

    def __init__(self, submit: Callable[[str, str], object]) -> None:
        self.submit = submit
        self._asked: dict[tuple[str, str], int] = {}
        self._lock = threading.Lock()

    def __call__(self, game: str, day: str) -> None:
        t = now_ms()
        with self._lock:
            if t - self._asked.get((game, day), -self.AGAIN_MS) < self.AGAIN_MS:
                return
            self._asked[game, day] = t
        threading.Thread(target=self.submit, args=(game, day), name="reussite-daily-ask",
                         daemon=True).start()


def start(store: Store, submit: Callable[[str, str], object]) -> threading.Thread:
    """The server's preparation of today's and tomorrow's deals, through the job tier, in a
    daemon thread (a deal already stored costs one read)."""

    def run() -> None:
        first = today()
        for day in (first, next_day(first)):
            try:
                ready = prepared_days(store, day)
            except Exception as e:  # noqa: BLE001 (the database away: the next request asks)
                log.warning("the daily deals could not be read: %s", type(e).__name__)
                return
            for game in daily_games():
                if game not in ready:
                    submit(game, day)

    thread = threading.Thread(target=run, name="reussite-daily", daemon=True)
    thread.start()
    return thread


# ---------------------------------------------------------------------- the leaderboard

_ORDER = (games.c.won_played, games.c.won_ms, games.c.won_at)
_ENTRY = (games.c.player_id, games.c.won_played, games.c.won_ms, games.c.won_at,
          games.c.won_used_undo, games.c.won_used_hint)


def board_query(game: str, day: str, clean: bool, limit: int = BOARD_SIZE) -> Any:
    """The top of a game's day: the ranked wins in the ranking's order (an index's order:
    ``ix_games_daily_board``, ``ix_games_daily_clean``)."""
    return select(*_ENTRY).where(games.c.game == game, games.c.daily == day,
                                 CLEAN_WIN if clean else RANKED_WIN).order_by(
        *_ORDER).limit(limit)


def counts_query(game: str, day: str) -> Any:
    """In one pass over the day's range of ``ix_games_daily_board`` (every column it reads is
    in the index): the ranked wins, and the clean ones."""
    return select(func.count(), func.count().filter(CLEAN)).select_from(games).where(
        games.c.game == game, games.c.daily == day, RANKED_WIN)


def before_query(game: str, day: str, mine: Any) -> Any:
    """How many ranked wins, and clean ones, rank before the caller's ranked win ``mine``
    (fewer moves, or as many in fewer whole seconds): a range of ``ix_games_daily_board`` up
    to its moves, as long as its rank."""
    better = or_(games.c.won_played < mine.won_played,
                 and_(games.c.won_played == mine.won_played,
                      games.c.won_ms < mine.won_ms // 1000 * 1000))
    return select(func.count(), func.count().filter(CLEAN)).select_from(games).where(
        games.c.game == game, games.c.daily == day, RANKED_WIN,
        games.c.won_played <= mine.won_played, better)


CLEAN = and_(games.c.won_used_undo == false(), games.c.won_used_hint == false())


def tie(r: Any) -> tuple[int, int]:
    """What two entries that share a rank share: the moves, and the time in whole seconds
    (as the board shows it)."""
    return r.won_played, r.won_ms // 1000


def entry(r: Any, rank: int, name: str, lang: str) -> dict[str, Any]:
    """A board row as an entry (``you`` is the caller's to set)."""
    return {"rank": rank, "name": name, "moves": r.won_played,
            # A name the player chose, which others may report: a chosen name never looks
            # like an anonymous one (reussite.web.names), so it is not the anonymous one.
            "chosen": name != anonymous_name(r.player_id, lang),
            "seconds": r.won_ms / 1000, "used_undo": bool(r.won_used_undo),
            "used_hint": bool(r.won_used_hint), "you": False}


def ranked(rows: list[Any], names: dict[str, str], lang: str) -> list[tuple[str, dict[str, Any]]]:
    """Board rows as (player, entry), ranks shared by ties (the same moves and whole
    seconds)."""
    out: list[tuple[str, dict[str, Any]]] = []
    for i, r in enumerate(rows):
        rank = i + 1
        if out and tie(r) == tie(rows[i - 1]):
            rank = out[-1][1]["rank"]
        out.append((r.player_id, entry(r, rank, names[r.player_id], lang)))
    return out


@dataclass(frozen=True)
class SharedBoard:
    """What a board shows every reader alike: its tops as (player, entry) and its counts."""

    expires: float
    tops: dict[str, list[tuple[str, dict[str, Any]]]]
    counts: dict[str, int]


def board_seconds() -> float:
    """``REUSSITE_BOARD_SECONDS``: how long a process shows a board's shared part again
    before it reads it afresh (default 2; 0: read for every request)."""
    text = os.environ.get("REUSSITE_BOARD_SECONDS", "").strip()
    try:
        value = float(text) if text else BOARD_SECONDS
    except ValueError:
        raise ValueError(f"REUSSITE_BOARD_SECONDS is a number of seconds: {text!r}") from None
    if not 0 <= value <= 3600:
        raise ValueError(f"REUSSITE_BOARD_SECONDS is between 0 and 3600 seconds: {text!r}")
    return value


BOARD_SECONDS = 2.0
MAX_SHARED_BOARDS = 256
_shared: dict[tuple[str, str, str], SharedBoard] = {}
_shared_lock = threading.Lock()
clock: Callable[[], float] = time.monotonic
"""The clock of the shared boards' ages (tests replace it)."""


def shared_board(conn: Connection, game: str, day: str, lang: str) -> SharedBoard:
    """A board's shared part, as this process read it less than :func:`board_seconds` ago,
    else read now (three reads through the board's indexes, and one for the names)."""
    key = (game, day, lang)
    now = clock()
    found = _shared.get(key)
    if found is not None and found.expires > now:
        return found
    rows = {"all": list(conn.execute(board_query(game, day, False))),
            "clean": list(conn.execute(board_query(game, day, True)))}
    total, clean = conn.execute(counts_query(game, day)).one()
    names = display_names(conn, [r.player_id for top in rows.values() for r in top], lang)
    board = SharedBoard(now + board_seconds(),
                        {kind: ranked(top, names, lang) for kind, top in rows.items()},
                        {"all": int(total), "clean": int(clean)})
    with _shared_lock:
        if len(_shared) >= MAX_SHARED_BOARDS:
            for k in [k for k, v in _shared.items() if v.expires <= now] or list(_shared):
                del _shared[k]
        _shared[key] = board
    return board


def leaderboard(store: Store, game: str, day: str, me: str,
                lang: str = "en") -> dict[str, Any]:
    """A game's board of a day: the top :data:`BOARD_SIZE` and the caller's own entry with
    its rank (wherever it stands), for the ranking and the clean ranking (no undo, no hint);
    the players shown by their names (anonymous ones in ``lang``).

    The tops and counts are what every reader sees: a process reuses them for
    :func:`board_seconds` (:func:`shared_board`), so a crowd reading the board after the
    day's start costs a read of them per process every two seconds, not one each. The
    caller's own ranked win is read for each request (through the index on player and day),
    and, when there is one, its rank (a range of the board's index up to it) and its name."""
    with store.engine.connect() as conn:
        shared = shared_board(conn, game, day, lang)
        mine = conn.execute(select(*_ENTRY).where(
            games.c.player_id == me, games.c.game == game, games.c.daily == day,
            RANKED_WIN)).first()
        before = my_name = None
        if mine is not None:
            before = conn.execute(before_query(game, day, mine)).one()
            my_name = display_names(conn, [me], lang)[me]
    boards = {}
    for kind, top in shared.tops.items():
        you = None
        if mine is not None and before is not None and my_name is not None and (
                kind == "all" or (not mine.won_used_undo and not mine.won_used_hint)):
            you = entry(mine, int(before[0 if kind == "all" else 1]) + 1, my_name, lang)
            you["you"] = True
        boards[kind] = {"entries": [{**e, "you": True} if pid == me else e for pid, e in top],
                        "you": you, "count": shared.counts[kind]}
    return {"game": game, "day": day, "over": is_over(day), **boards}


# ---------------------------------------------------------------------- the player's days


def streaks(days: Iterable[str], now: str) -> tuple[int, int]:
    """(current, best) runs of consecutive days among ``days``; the current run ends today,
    or yesterday while today's deal is still to win."""
    ordered = sorted({date.fromisoformat(d) for d in days})
    best = run = 0
    previous: date | None = None
    for d in ordered:
        run = run + 1 if previous is not None and d - previous == timedelta(days=1) else 1
        best = max(best, run)
        previous = d
    today_ = date.fromisoformat(now)
    current = run if previous is not None and (today_ - previous).days <= 1 else 0
    return current, best


def player_days(store: Store, player: str) -> list[Any]:
    """The player's daily games (origin daily): game, day, whether ranked, won, the win's
    moves and time (the index on (player_id, daily))."""
    with store.engine.connect() as conn:
        return list(conn.execute(select(
            games.c.game, games.c.daily, games.c.ranked, games.c.won_at, games.c.won_played,
            games.c.won_ms, games.c.status, games.c.ended).where(
            games.c.player_id == player, games.c.daily.is_not(None),
            games.c.origin == "daily")))


def daily_streaks(rows: list[Any], now: str) -> dict[str, Any]:
    """Streaks of daily wins, per game and over all games (a day counts when its deal was
    won on its day)."""
    won = [(r.game, r.daily) for r in rows if r.won_at is not None]
    per_game = {}
    for game in daily_games():
        current, best = streaks([d for g, d in won if g == game], now)
        per_game[game] = {"current": current, "best": best}
    current, best = streaks([d for _g, d in won], now)
    return {"current": current, "best": best, "games": per_game}


def summary(store: Store, player: str) -> dict[str, Any]:
    """``GET /api/daily``: today, the time left, and each daily game's state for the player."""
    now = today()
    rows = player_days(store, player)
    ready = prepared_days(store, now)
    out = []
    for game in daily_games():
        mine = [r for r in rows if r.game == game and r.daily == now]
        first = next((r for r in mine if r.ranked), None)
        rules = get_game(game)
        out.append({
            "game": game, "names": dict(rules.names), "ready": game in ready,
            "played": bool(mine), "won": any(r.won_at is not None for r in mine),
            "in_play": any(r.ended is None for r in mine),
            "ranked": None if first is None else {
                "status": first.status, "won": first.won_at is not None,
                "moves": first.won_played,
                "seconds": None if first.won_ms is None else first.won_ms / 1000}})
    return {"day": now, "seconds_left": seconds_left(), "games": out,
            "streaks": daily_streaks(rows, now)}

