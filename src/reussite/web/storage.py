"""Storage: the games, their moves and the feedback, in SQLite or PostgreSQL (SQLAlchemy Core).

The database is the only holder of a game's state; a server process keeps nothing that another
process could not rebuild. A game is its deal (game id + deal number) and its *line*: the moves
of the ``moves`` table, ``seq`` 0, 1, 2... The game's ``cursor`` splits the line into the moves
played (``seq < cursor``) and the moves that redo would play again (``cursor <= seq < length``).

Every change to a game is one transaction that starts with a conditional ``UPDATE ... WHERE
version = :seen``: when two requests (from one process or from two) race on one game, the
database lets exactly one of them through and the other sees zero rows updated (a conflict,
HTTP 409). Nothing is answered to the player before that transaction has committed.
"""

from __future__ import annotations

import fcntl
import os
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, NamedTuple, Protocol, TypeVar

import psycopg
from psycopg.abc import PQGen
from psycopg.errors import _WaitTimeout
from psycopg.rows import TupleRow
from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Connection,
    Engine,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    and_,
    bindparam,
    case,
    create_engine,
    delete,
    event,
    false,
    func,
    insert,
    literal_column,
    null,
    or_,
    select,
    text,
    true,
    update,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Dialect, make_url
from sqlalchemy.pool import StaticPool
from sqlalchemy.sql.dml import Update

from reussite.web.days import is_over

T = TypeVar("T")

metadata = MetaData()

settings = Table(
    "settings", metadata,
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)

games = Table(
    "games", metadata,
    Column("id", String(32), primary_key=True),
    Column("player_id", String(64), nullable=False),
    Column("game", String(32), nullable=False),
    # Deal numbers go up to 2**64 - 1, beyond a signed 64-bit integer: kept as decimal text.
    Column("number", String(20), nullable=False),
    Column("version", Integer, nullable=False),
    Column("cursor", Integer, nullable=False),
    Column("length", Integer, nullable=False),
    Column("status", String(8), nullable=False),
    Column("used_undo", Boolean, nullable=False),
    Column("used_hint", Boolean, nullable=False),
    Column("elapsed_ms", BigInteger, nullable=False),
    Column("created_at", BigInteger, nullable=False),
    Column("updated_at", BigInteger, nullable=False),
    Column("won_at", BigInteger, nullable=True),
    Column("won_moves", Integer, nullable=True),
    Column("won_ms", BigInteger, nullable=True),
    Column("won_used_undo", Boolean, nullable=True),
    Column("won_used_hint", Boolean, nullable=True),
    # How the deal was chosen (ORIGINS), and whether its number stays hidden until the game
    # is over (a deal the site chose for a game with hidden cards).
    Column("origin", String(8), nullable=False),
    Column("secret", Boolean, nullable=False),
    # How the game ended (ENDINGS), the first time; NULL while it is in play.
    Column("ended", String(10), nullable=True),
    # The cursor a restart left (one undo brings the game back there); null after any other
    # action.
    Column("restart_cursor", Integer, nullable=True),
    # The game's clock is stopped: the spell since ``updated_at`` adds no time.
    Column("paused", Boolean, nullable=False, server_default=false()),
    # Its analysis was asked for (every card shown): the game takes no more actions.
    Column("sealed", Boolean, nullable=False, server_default=false()),
    # Every move played (undone ones and redone ones included), and that count at the first
    # win: the daily leaderboard ranks by it.
    Column("played", Integer, nullable=False, server_default=text("0")),
    Column("won_played", Integer, nullable=True),
    # The day (YYYY-MM-DD) of a daily deal (origin daily or practice), NULL for the others;
    # ``ranked``: the player's first game of that day's deal of that game, dealt on its day.
    Column("daily", String(10), nullable=True),
    Column("ranked", Boolean, nullable=False, server_default=false()),
    Index("ix_games_player_updated", "player_id", "updated_at"),
    Index("ix_games_player_ended", "player_id", "ended"),
    Index("ix_games_ended_updated", "ended", "updated_at"),
    Index("ix_games_player_daily", "player_id", "daily"),
    # One ranked game per player, game and day, however two requests race.
    Index("ux_games_ranked", "player_id", "game", "daily", unique=True,
          postgresql_where=text("ranked"), sqlite_where=text("ranked")),
)

RANKED_WIN = and_(games.c.ranked, games.c.won_at.is_not(None))
"""A ranked game that was won: an entry of its day's leaderboard."""
CLEAN_WIN = and_(RANKED_WIN, games.c.won_used_undo == false(),
                 games.c.won_used_hint == false())
"""A ranked win with no undo and no hint: an entry of the clean ranking."""
# The daily leaderboards are read through these partial indexes (the ranked winners of a
# game's day, in the ranking's order: fewest moves played, then shortest time, then earliest
# win; and the clean ones). A query's WHERE must imply an index's predicate for the planner
# to use it: the queries use these very expressions.
Index("ix_games_daily_board", games.c.game, games.c.daily, games.c.won_played,
      games.c.won_ms, games.c.won_at, games.c.won_used_undo, games.c.won_used_hint,
      postgresql_where=RANKED_WIN, sqlite_where=RANKED_WIN)
Index("ix_games_daily_clean", games.c.game, games.c.daily, games.c.won_played,
      games.c.won_ms, games.c.won_at, postgresql_where=CLEAN_WIN, sqlite_where=CLEAN_WIN)

ORIGINS = ("random", "winnable", "number", "daily", "practice")
"""How a game's deal was chosen: at random by the site, from the site's proven-winnable deals,
by its number, by the player, today's daily deal, or a past day's daily deal (practice, never
ranked). The statistics count each origin apart (docs/statistics.md)."""
ENDINGS = ("won", "lost", "abandoned", "resigned")
"""How a game ends, the first time it does: won, stuck at the clear end (lost), or abandoned
(another game of its kind dealt while it was in play, pushed out by the bound on games in
play, or left unplayed), or given up (``resigned``, lost)."""
FINAL = frozenset({"abandoned", "resigned"})
"""Endings after which the game takes no more actions (a game whose analysis was asked for
takes none either: ``games.sealed``)."""

totals = Table(
    "totals", metadata,
    # A player's running statistics of one game and origin, changed in the same transaction
    # as the game whose event changes them (reussite.web.stats says what counts).
    Column("player_id", String(64), nullable=False),
    Column("game", String(32), nullable=False),
    Column("origin", String(8), nullable=False),
    Column("played", Integer, nullable=False),
    Column("won", Integer, nullable=False),
    Column("lost", Integer, nullable=False),
    Column("current_streak", Integer, nullable=False),
    Column("best_streak", Integer, nullable=False),
    Column("best_ms", BigInteger, nullable=True),
    Column("fewest_moves", Integer, nullable=True),
    Column("wins_with_undo", Integer, nullable=False),
    Column("wins_with_hint", Integer, nullable=False),
    Column("wins_unaided", Integer, nullable=False),
    PrimaryKeyConstraint("player_id", "game", "origin", name="pk_totals"),
)

deal_pool = Table(
    "deal_pool", metadata,
    # Secret deal numbers the solver proved winnable, each dealt once and then deleted.
    Column("game", String(32), nullable=False),
    Column("number", String(20), nullable=False),
    Column("created_at", BigInteger, nullable=False),
    PrimaryKeyConstraint("game", "number", name="pk_deal_pool"),
)

daily_deals = Table(
    "daily_deals", metadata,
    # Each game's deal of each day (reussite.web.daily): its secret number (decimal text, as
    # games.number), the attempt that gave it, and the solver's winning line (its moves, as
    # the moves table writes them, one a line), proved before the deal is served.
    Column("game", String(32), nullable=False),
    Column("day", String(10), nullable=False),
    Column("number", String(20), nullable=False),
    Column("attempt", Integer, nullable=False),
    Column("line", Text, nullable=False),
    Column("prepared_at", BigInteger, nullable=False),
    PrimaryKeyConstraint("game", "day", name="pk_daily_deals"),
)

moves = Table(
    "moves", metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("move", String(40), nullable=False),
    PrimaryKeyConstraint("game_id", "seq", name="pk_moves"),
)

analyses = Table(
    "analyses", metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"),
           primary_key=True),
    Column("player_id", String(64), nullable=False),
    Column("address", String(64), nullable=False),
    Column("state", String(8), nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("result", Text, nullable=True),
    Column("error", Text, nullable=True),
    Column("created_at", BigInteger, nullable=False),
    Column("submitted_at", BigInteger, nullable=False),
    Column("started_at", BigInteger, nullable=True),
    Column("finished_at", BigInteger, nullable=True),
    Index("ix_analyses_player_created", "player_id", "created_at"),
    Index("ix_analyses_address_created", "address", "created_at"),
    Index("ix_analyses_state_submitted", "state", "submitted_at"),
)

feedback = Table(
    "feedback", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player_id", String(64), nullable=False),
    Column("game", String(32), nullable=True),
    Column("lang", String(8), nullable=False),
    Column("message", Text, nullable=False),
    Column("created_at", BigInteger, nullable=False),
)

players = Table(
    "players", metadata,
    # A player who chose a display name or made a sign-in code (made then, never on a mere
    # visit: reussite.web.players). ``name_key`` is the name as names are compared
    # (reussite.web.names.name_key); ``name_hidden``: hidden by the site's operator.
    Column("id", String(64), primary_key=True),
    Column("name", String(100), nullable=True),
    Column("name_key", String(100), nullable=True),
    Column("name_hidden", Boolean, nullable=False, server_default=false()),
    Column("created_at", BigInteger, nullable=False),
    Column("updated_at", BigInteger, nullable=False),
    Index("ix_players_name_key", "name_key"),
)

hidden_names = Table(
    "hidden_names", metadata,
    # Names the operator hid (reussite names hide): shown as the anonymous name, refused to
    # anyone who asks for them again.
    Column("name_key", String(100), primary_key=True),
    Column("name", String(100), nullable=False),
    Column("hidden_at", BigInteger, nullable=False),
)

name_reports = Table(
    "name_reports", metadata,
    # One report per reporter and name.
    Column("reporter_id", String(64), nullable=False),
    Column("name_key", String(100), nullable=False),
    Column("name", String(100), nullable=False),
    Column("address", String(64), nullable=False),
    Column("created_at", BigInteger, nullable=False),
    PrimaryKeyConstraint("reporter_id", "name_key", name="pk_name_reports"),
    Index("ix_name_reports_key", "name_key"),
)

browsers = Table(
    "browsers", metadata,
    # A browser signed in as a player, recorded when it first needs to be (a sign-in code
    # made or used, its list asked for, a name set). A signed-out one keeps its row with
    # ``revoked_at`` set (its player and description emptied once the player is forgotten):
    # the edge refuses its cookie (reussite.web.edge).
    Column("id", String(32), primary_key=True),
    Column("player_id", String(64), nullable=False),
    Column("agent", String(32), nullable=False),
    Column("system", String(32), nullable=False),
    Column("created_at", BigInteger, nullable=False),
    Column("last_seen_at", BigInteger, nullable=False),
    Column("revoked_at", BigInteger, nullable=True),
    Index("ix_browsers_player", "player_id"),
)

sign_in_codes = Table(
    "sign_in_codes", metadata,
    # Short-lived single-use codes that sign another browser in as the player: only a keyed
    # hash of each is kept.
    Column("hash", String(64), primary_key=True),
    Column("player_id", String(64), nullable=False),
    Column("created_at", BigInteger, nullable=False),
    Column("expires_at", BigInteger, nullable=False),
    Column("used_at", BigInteger, nullable=True),
    Index("ix_sign_in_codes_player", "player_id"),
    Index("ix_sign_in_codes_expires", "expires_at"),
)


GAME_COLUMNS = tuple(c.name for c in games.c)
"""The columns of ``games`` in their order (``SELECT`` yields them so; :class:`GameRow`
has a field of each name, in this order)."""

# The statements of the game actions, built once (building SQLAlchemy expressions costs more
# than running them here). The store runs them through SQLAlchemy; the hot path's drivers
# (reussite.web.hotdb) run the same statements compiled once to their driver's SQL.
GET_GAME = select(games).where(games.c.id == bindparam("gid"),
                               games.c.player_id == bindparam("pid"))
LINE = select(moves.c.move).where(moves.c.game_id == bindparam("gid"),
                                  moves.c.seq < bindparam("length")).order_by(moves.c.seq)
_CHANGED = ("version", "cursor", "length", "status", "used_undo", "used_hint", "elapsed_ms",
            "updated_at", "ended", "restart_cursor", "paused", "played")
"""The columns every change writes (the flags only ever turned on: :func:`_flag`)."""
_WON = ("won_at", "won_moves", "won_ms", "won_played")
"""The columns the first win writes too (``won_used_*`` are made from the flags)."""


def _flag(column: str) -> Any:
    """A flag only ever turns on: a hint noted by another process is never turned off."""
    return or_(games.c[column], bindparam(f"new_{column}", type_=Boolean))


def change_values(won: bool) -> dict[str, Any]:
    """The SET clause of a change's conditional update (``new_*`` parameters)."""
    values: dict[str, Any] = {c: bindparam(f"new_{c}") for c in _CHANGED}
    values.update(used_undo=_flag("used_undo"), used_hint=_flag("used_hint"))
    if won:
        values.update({c: bindparam(f"new_{c}") for c in _WON})
        values.update(won_used_undo=_flag("used_undo"), won_used_hint=_flag("used_hint"))
    return values


def conditional_update(won: bool) -> Update:
    """A change written only if the game is still at the version seen (``gid``, ``seen``)."""
    return update(games).where(games.c.id == bindparam("gid"),
                               games.c.version == bindparam("seen")).values(change_values(won))


ZERO: Any = literal_column("0")
"""Constants written into the statements' SQL (a driver's SQL takes named parameters only)."""


def _tally_param(name: str, type_: Any = Integer) -> Any:
    return bindparam(f"t_{name}", type_=type_)


def tally_values() -> dict[str, Any]:
    """The SET clause that adds a :class:`Tally` (``t_*`` parameters) to a row of ``totals``:
    counts added, the streak grown by a win or ended by a loss, the bests kept."""
    t = totals.c
    lost, won = _tally_param("lost"), _tally_param("won")
    ms, moves = _tally_param("ms", BigInteger), _tally_param("moves")
    run = t.current_streak + won
    return {
        "played": t.played + _tally_param("played"), "won": t.won + won,
        "lost": t.lost + lost,
        "current_streak": case((lost > ZERO, ZERO), else_=run),
        "best_streak": case((and_(lost == ZERO, run > t.best_streak), run),
                            else_=t.best_streak),
        "best_ms": case((or_(t.best_ms.is_(None), ms < t.best_ms), ms), else_=t.best_ms),
        "fewest_moves": case((or_(t.fewest_moves.is_(None), moves < t.fewest_moves), moves),
                             else_=t.fewest_moves),
        "wins_with_undo": t.wins_with_undo + _tally_param("undo"),
        "wins_with_hint": t.wins_with_hint + _tally_param("hint"),
        "wins_unaided": t.wins_unaided + _tally_param("unaided"),
    }


UPDATE = conditional_update(won=False)
UPDATE_WON = conditional_update(won=True)
CUT_LINE = delete(moves).where(moves.c.game_id == bindparam("gid"),
                               moves.c.seq >= bindparam("seq"))
APPEND = insert(moves).values(game_id=bindparam("gid"), seq=bindparam("seq"),
                              move=bindparam("move"))
CREATE = insert(games)
"""Every column, each a parameter of its own name (:func:`new_game_values`)."""
MARK_HINT = update(games).where(games.c.id == bindparam("gid")).values(used_hint=true())
UNFINISHED = select(games).where(
    games.c.player_id == bindparam("pid"), games.c.status == bindparam("status")).order_by(
    games.c.updated_at.desc(), games.c.id).limit(bindparam("most", type_=Integer)).offset(
    bindparam("skip", type_=Integer))
"""A player's games still being played, newest first (the catalogue offers to resume them;
SQLite's SQL for a LIMIT parameter has an OFFSET parameter too, so both are named)."""

TALLY = update(totals).where(totals.c.player_id == bindparam("pid"),
                             totals.c.game == bindparam("t_game"),
                             totals.c.origin == bindparam("t_origin")).values(tally_values())
IN_PLAY = select(games.c.id, games.c.game, games.c.daily).where(
    games.c.player_id == bindparam("pid"), games.c.ended.is_(None)).order_by(
    games.c.updated_at.desc(), games.c.id)
"""A player's games in play, the most recently changed first (as many as the bound allows)."""
ABANDON = update(games).where(games.c.id == bindparam("gid"), games.c.ended.is_(None)).values(
    ended=literal_column("'abandoned'"), status=literal_column("'lost'"),
    version=games.c.version + literal_column("1"),
    updated_at=bindparam("now", type_=BigInteger)).returning(
    games.c.game, games.c.origin, games.c.length)
"""A game in play ended as abandoned (its version moves on: an action begun on it is a 409);
its game, origin and whether it was played, for the statistics."""
PLAYER_TOTALS = select(totals).where(totals.c.player_id == bindparam("pid"))
"""A player's statistics: as many rows as games and origins they dealt, whatever the number
of their games (tests/web/test_stats.py reads PostgreSQL's plan of it)."""
TAKE_POOLED = select(deal_pool.c.number).where(deal_pool.c.game == bindparam("game"))
"""The pool's deals of a game (a few: :data:`reussite.web.pool.POOL_SIZE`)."""
DAILY_BEFORE = select(games.c.id).where(
    games.c.player_id == bindparam("pid"), games.c.daily == bindparam("day"),
    games.c.game == bindparam("t_game"), games.c.origin == literal_column("'daily'"))
"""A player's earlier games of a day's deal (a daily game is ranked only without one; a few
at most, found through the index on (player_id, daily))."""
DAILY_DEAL = select(daily_deals.c.number).where(daily_deals.c.game == bindparam("t_game"),
                                                daily_deals.c.day == bindparam("day"))
"""A game's prepared deal of a day (:mod:`reussite.web.daily`)."""
RETIRE_POOLED = delete(deal_pool).where(deal_pool.c.game == bindparam("game"),
                                        deal_pool.c.number == bindparam("number"))


def _add_totals(dialect: str) -> Any:
    """A player's row of ``totals`` for a game and origin, made with zeros if missing."""
    ins = (pg_insert if dialect == "postgresql" else sqlite_insert)(totals).values(
        player_id=bindparam("pid"), game=bindparam("t_game"), origin=bindparam("t_origin"),
        **{c.name: ZERO for c in totals.c
           if isinstance(c.type, Integer) and not c.nullable},
        best_ms=null(), fewest_moves=null())
    return ins.on_conflict_do_nothing(index_elements=["player_id", "game", "origin"])


class Sql(NamedTuple):
    """The game statements as one driver runs them: SQLAlchemy's (:func:`statements`), or
    their SQL compiled for a driver (:func:`compiled`)."""

    get_game: Any
    line: Any
    update: Any
    update_won: Any
    cut_line: Any
    append: Any
    create: Any
    mark_hint: Any
    unfinished: Any
    tally: Any
    in_play: Any
    abandon: Any
    add_totals: Any
    take_pooled: Any
    retire_pooled: Any
    daily_before: Any
    daily_deal: Any


def statements(dialect: str) -> Sql:
    """The game statements for ``dialect`` ("sqlite" or "postgresql")."""
    return Sql(GET_GAME, LINE, UPDATE, UPDATE_WON, CUT_LINE, APPEND, CREATE, MARK_HINT,
               UNFINISHED, TALLY, IN_PLAY, ABANDON, _add_totals(dialect), TAKE_POOLED,
               RETIRE_POOLED, DAILY_BEFORE, DAILY_DEAL)


def compiled(dialect: Dialect) -> Sql:
    """The statements as SQL text for ``dialect`` (with its parameter style)."""
    return Sql(*(str(stmt.compile(dialect=dialect)) for stmt in statements(dialect.name)))


clock: Callable[[], float] = time.time
"""The site's clock in seconds (a test sets its own to control a game's time)."""


def now_ms() -> int:
    return int(clock() * 1000)


@dataclass(frozen=True, slots=True)
class GameRow:
    """One row of ``games``, as read at one moment."""

    id: str
    player_id: str
    game: str
    number: int
    version: int
    cursor: int
    length: int
    status: str
    used_undo: bool
    used_hint: bool
    elapsed_ms: int
    created_at: int
    updated_at: int
    won_at: int | None
    won_moves: int | None
    won_ms: int | None
    won_used_undo: bool | None
    won_used_hint: bool | None
    origin: str
    secret: bool
    ended: str | None
    restart_cursor: int | None = None
    paused: bool = False
    sealed: bool = False
    played: int = 0
    won_played: int | None = None
    daily: str | None = None
    ranked: bool = False

    @property
    def shown_number(self) -> int | None:
        """The deal number as the player may see it: None while a secret deal is in play,
        and, for a daily deal, until its day is over (a winner would tell everyone)."""
        if self.daily is not None:
            return None if not is_over(self.daily) else self.number
        return None if self.secret and self.ended is None else self.number

    @property
    def final(self) -> bool:
        """The game takes no more actions (abandoned)."""
        return self.sealed or self.ended in FINAL

    @classmethod
    def from_values(cls, v: Any) -> GameRow:
        """The row from its columns in the order of the table (:data:`GAME_COLUMNS`): the deal
        number from its text, the flags from SQLite's integers."""
        return cls(v[0], v[1], v[2], int(v[3]), v[4], v[5], v[6], v[7], bool(v[8]),
                   bool(v[9]), v[10], v[11], v[12], v[13], v[14], v[15],
                   None if v[16] is None else bool(v[16]), None if v[17] is None else bool(v[17]),
                   v[18], bool(v[19]), v[20], v[21], bool(v[22]), bool(v[23]), v[24], v[25],
                   v[26], bool(v[27]))


assert GameRow.__slots__ == GAME_COLUMNS, "a field of GameRow for each column, in order"


@dataclass(frozen=True, slots=True)
class Change:
    """What one action does to a game row (and to its line of moves)."""

    cursor: int
    length: int
    status: str
    elapsed_ms: int
    used_undo: bool
    used_hint: bool
    append: str | None = None
    """A move written at ``seq = cursor - 1`` (the line beyond it is cut first)."""
    won: bool = False
    """The game has just been won for the first time."""
    ended: str | None = None
    """How the game ended, the first time (the row's, or the one this change makes)."""
    tally: Tally | None = None
    """What this change adds to the player's statistics (the first move, the first end)."""
    restart_cursor: int | None = None
    """After a restart: the cursor it left (see ``games.restart_cursor``)."""
    paused: bool = False
    """The game's clock stops (until the next change)."""
    played: int = 0
    """Moves this change plays (a move, or a redo: 1), added to ``games.played``."""


@dataclass(frozen=True, slots=True)
class Tally:
    """What one event adds to a player's row of ``totals`` (:func:`tally_values`)."""

    played: int = 0
    won: int = 0
    lost: int = 0
    ms: int | None = None
    """A win's time (the best time is kept)."""
    moves: int | None = None
    """A win's moves (the fewest are kept)."""
    undo: int = 0
    hint: int = 0
    unaided: int = 0

    def params(self) -> dict[str, Any]:
        return {"t_played": self.played, "t_won": self.won, "t_lost": self.lost,
                "t_ms": self.ms, "t_moves": self.moves, "t_undo": self.undo,
                "t_hint": self.hint, "t_unaided": self.unaided}


_NEW = {k: f"new_{k}" for k in (*_CHANGED, *_WON)}
"""The parameter of each value a change writes."""


def commit_values(row: GameRow, change: Change) -> tuple[dict[str, Any], dict[str, Any]]:
    """The new values of a game row after ``change``, and the parameters of its conditional
    update (:data:`UPDATE` or :data:`UPDATE_WON`: ``new_*``, ``gid``, ``seen``)."""
    t = now_ms()
    values: dict[str, Any] = dict(
        version=row.version + 1, cursor=change.cursor, length=change.length,
        status=change.status, used_undo=change.used_undo, used_hint=change.used_hint,
        elapsed_ms=change.elapsed_ms, updated_at=t, ended=change.ended,
        restart_cursor=change.restart_cursor, paused=change.paused,
        played=row.played + change.played)
    if change.won:
        values.update(won_at=t, won_moves=change.cursor, won_ms=change.elapsed_ms,
                      won_used_undo=change.used_undo, won_used_hint=change.used_hint,
                      won_played=values["played"])
    params = {_NEW[k]: v for k, v in values.items() if k in _NEW}
    params.update(gid=row.id, seen=row.version)
    if change.tally is not None:
        params.update(change.tally.params(), pid=row.player_id, t_game=row.game,
                      t_origin=row.origin)
    return values, params


def row_after(row: GameRow, values: dict[str, Any]) -> GameRow:
    """``row`` with the values a committed change wrote (made field by field: this runs on
    every action, and a dictionary of every field cost more than the rest of the commit)."""
    won = "won_at" in values
    return GameRow(
        row.id, row.player_id, row.game, row.number, values["version"], values["cursor"],
        values["length"], values["status"], bool(values["used_undo"]),
        bool(values["used_hint"]), values["elapsed_ms"], row.created_at, values["updated_at"],
        values["won_at"] if won else row.won_at,
        values["won_moves"] if won else row.won_moves,
        values["won_ms"] if won else row.won_ms,
        bool(values["won_used_undo"]) if won else row.won_used_undo,
        bool(values["won_used_hint"]) if won else row.won_used_hint,
        row.origin, row.secret, values["ended"], values["restart_cursor"], values["paused"],
        row.sealed, values["played"], values["won_played"] if won else row.won_played,
        row.daily, row.ranked)


@dataclass(frozen=True, slots=True)
class NewGame:
    """A game about to be dealt: its row's first values."""

    id: str
    player_id: str
    game: str
    number: int
    status: str
    origin: str = "random"
    secret: bool = False
    daily: str | None = None
    """The day of a daily deal (origin daily or practice)."""

    def values(self) -> dict[str, Any]:
        """The row of the game just dealt (a deal with no move left has ended already)."""
        t = now_ms()
        return dict(id=self.id, player_id=self.player_id, game=self.game,
                    number=str(self.number), version=0, cursor=0, length=0,
                    status=self.status, used_undo=False, used_hint=False, elapsed_ms=0,
                    created_at=t, updated_at=t, won_at=None, won_moves=None, won_ms=None,
                    won_used_undo=None, won_used_hint=None, origin=self.origin,
                    secret=self.secret, ended=None if self.status == "playing" else self.status,
                    restart_cursor=None, paused=False, sealed=False, played=0,
                    won_played=None, daily=self.daily, ranked=False)


HISTORY_SCAN = 200
"""How many of a player's newest games the history reads at most (:meth:`Store.history_rows`):
its one query's LIMIT."""


class Kept(Protocol):
    """What :func:`games_in_play` reads of a game row."""

    @property
    def id(self) -> str: ...

    @property
    def ended(self) -> str | None: ...


def games_in_play(rows: Iterable[Kept]) -> set[str]:
    """The ids of the games in play among ``rows``: those that have not ended (a game left
    for a newer one of its kind was ended as abandoned when that one was dealt). A reset of the
    statistics keeps them."""
    return {r.id for r in rows if r.ended is None}


DEFAULT_SQLITE_PATH = Path("data") / "reussite.sqlite3"


def default_url() -> str:
    return f"sqlite:///{DEFAULT_SQLITE_PATH}"


class Unavailable(Exception):
    """The database cannot be reached or stays busy: the request is answered 503."""


class GameStore(Protocol):
    """What the game actions need of a database: :class:`Store`, and the hot path's drivers
    (:mod:`reussite.web.hotdb`)."""

    def get_game(self, game_id: str, player_id: str) -> GameRow | None: ...

    def line(self, game_id: str, length: int) -> list[str]: ...

    def commit(self, row: GameRow, change: Change) -> GameRow | None: ...

    def create_game(self, new: NewGame, max_in_play: int) -> GameRow: ...

    def mark_hint(self, row: GameRow) -> None: ...

    def unfinished(self, player_id: str, most: int) -> list[GameRow]: ...

    def take_pooled(self, game: str) -> int | None: ...

    def daily_deal(self, game: str, day: str) -> int | None: ...


Execute = Callable[[Any, dict[str, Any]], int]
"""Run one statement (of a :class:`Sql`) with its parameters in the transaction under way;
its row count."""
Query = Callable[[Any, dict[str, Any]], list[Any]]
"""Run one statement that returns rows in the transaction under way; its rows."""


def abandoning(in_play: list[Any], game: str, max_in_play: int,
               daily: bool = False) -> list[str]:
    """Which of a player's games in play (id, game, day; the most recently changed first) a
    new game of ``game`` abandons: the one of the same kind (the same game, both daily deals
    or neither: a daily deal does not end the game dealt at random, nor the other way round),
    and the oldest beyond the bound (the new game is one of the ``max_in_play``)."""
    def same(r: Any) -> bool:
        return bool(r[1] == game and (r[2] is not None) == daily)

    out = [r[0] for r in in_play if same(r)]
    others = [r[0] for r in in_play if not same(r)]
    return out + others[max(0, max_in_play - 1):]


class GameStatements:
    """The :class:`GameStore` over a driver: which statements a game's reads and writes run,
    and in what order. A subclass says how a statement runs (:attr:`sql`, :meth:`_one`,
    :meth:`_all`, :meth:`_transaction`)."""

    sql: Sql

    def _one(self, stmt: Any, params: dict[str, Any]) -> Any:
        """The first row of a read (its values in order), or None."""
        raise NotImplementedError

    def _all(self, stmt: Any, params: dict[str, Any]) -> list[Any]:
        """Every row of a read."""
        raise NotImplementedError

    def _transaction(self, writes: Callable[[Execute, Query], T]) -> T:
        """``writes(execute, query)`` in one write transaction, committed unless it returns
        None (then rolled back)."""
        raise NotImplementedError

    def get_game(self, game_id: str, player_id: str) -> GameRow | None:
        values = self._one(self.sql.get_game, {"gid": game_id, "pid": player_id})
        return None if values is None else GameRow.from_values(values)

    def line(self, game_id: str, length: int) -> list[str]:
        """The first ``length`` moves of a game's line, in order."""
        return [r[0] for r in self._all(self.sql.line, {"gid": game_id, "length": length})]

    def unfinished(self, player_id: str, most: int) -> list[GameRow]:
        """At most ``most`` of a player's games still being played, newest first."""
        return [GameRow.from_values(v) for v in self._all(
            self.sql.unfinished, {"pid": player_id, "status": "playing", "most": most, "skip": 0})]

    def commit(self, row: GameRow, change: Change) -> GameRow | None:
        """Apply ``change`` if the game is still at ``row.version``; None on a conflict. The
        player's statistics change in the same transaction."""
        values, params = commit_values(row, change)
        sql = self.sql

        def writes(execute: Execute, _query: Query) -> GameRow | None:
            # The conditional UPDATE comes first: it takes the row's write lock, so the
            # version test and the writes below are one indivisible step.
            if execute(sql.update_won if change.won else sql.update, params) != 1:
                return None
            if change.append is not None:
                seq = change.cursor - 1
                if row.length > seq:
                    execute(sql.cut_line, {"gid": row.id, "seq": seq})
                execute(sql.append, {"gid": row.id, "seq": seq, "move": change.append})
            if change.tally is not None:
                execute(sql.tally, params)
            return row_after(row, values)

        return self._transaction(writes)

    def create_game(self, new: NewGame, max_in_play: int) -> GameRow:
        """Deal a game: in one transaction, the player's game of the same kind in play and the
        oldest games beyond ``max_in_play`` are abandoned (a played one counts as lost), the
        statistics' row is made if missing, and the game is written."""
        values = new.values()
        sql = self.sql

        def writes(execute: Execute, query: Query) -> bool:
            if new.origin == "daily":  # the first game of the day's deal is the ranked one
                values["ranked"] = not query(sql.daily_before, {
                    "pid": new.player_id, "day": new.daily, "t_game": new.game})
            lost: dict[tuple[str, str], int] = {}
            for gid in abandoning(query(sql.in_play, {"pid": new.player_id}), new.game,
                                  max_in_play, new.daily is not None):
                for game, origin, length in query(sql.abandon, {"gid": gid, "now": now_ms()}):
                    if length > 0:
                        lost[game, origin] = lost.get((game, origin), 0) + 1
            execute(sql.add_totals, {"pid": new.player_id, "t_game": new.game,
                                     "t_origin": new.origin})
            for (game, origin), n in lost.items():
                execute(sql.tally, {**Tally(lost=n).params(), "pid": new.player_id,
                                    "t_game": game, "t_origin": origin})
            execute(sql.create, values)
            return True

        self._transaction(writes)
        return GameRow.from_values([values[c] for c in GAME_COLUMNS])

    def mark_hint(self, row: GameRow) -> None:
        """Note that a hint was shown (the position and its version do not change)."""
        if not row.used_hint:
            self._transaction(lambda execute, _q: execute(self.sql.mark_hint, {"gid": row.id}))

    def daily_deal(self, game: str, day: str) -> int | None:
        """The prepared deal number of ``game`` on ``day``, or None."""
        found = self._one(self.sql.daily_deal, {"t_game": game, "day": day})
        return None if found is None else int(found[0])

    def take_pooled(self, game: str) -> int | None:
        """A secret proven-winnable deal of ``game`` from the pool, retired as it is taken
        (None when the pool has none)."""
        sql = self.sql

        def writes(execute: Execute, query: Query) -> list[int]:
            for _ in range(8):  # another process may take the same one first: another
                found = query(sql.take_pooled, {"game": game})
                if not found:
                    break
                if execute(sql.retire_pooled, {"game": game, "number": found[0][0]}) == 1:
                    return [int(found[0][0])]
            return []

        taken = self._transaction(writes)
        return taken[0] if taken else None


def sqlite_busy_ms() -> int:
    """How long a SQLite write waits for another writer (``REUSSITE_SQLITE_BUSY_MS``)."""
    value = os.environ.get("REUSSITE_SQLITE_BUSY_MS", "")
    return int(value) if value.isdigit() else 10_000


DB_DEADLINE = 5.0


def db_deadline() -> float:
    """How long any one wait for PostgreSQL may last, in seconds (``REUSSITE_DB_DEADLINE``,
    default 5): a statement, a commit, a ping, opening a connection. A database that stops
    answering without closing (a network partition: nothing ever comes, and TCP may take
    many minutes to give up) is then a 503 with ``Retry-After`` after that long, not a
    request hung as long as the partition (see also :class:`reussite.web.hotdb.PgWire`)."""
    value = os.environ.get("REUSSITE_DB_DEADLINE", "").strip()
    try:
        deadline = float(value) if value else DB_DEADLINE
    except ValueError:
        raise ValueError(f"REUSSITE_DB_DEADLINE must be seconds, not {value!r}") from None
    if deadline <= 0:
        raise ValueError("REUSSITE_DB_DEADLINE must be more than 0")
    return deadline


def connect_timeout() -> int:
    """libpq's ``connect_timeout`` (whole seconds, at least 2: libpq's own minimum)."""
    return max(2, round(db_deadline()))


class DeadlineConnection(psycopg.Connection[TupleRow]):
    """A psycopg connection whose every wait for the server has a deadline (:attr:`deadline`
    seconds; None: none, for the migrations): past it the connection is closed (its state is
    unknown) and the wait raises :class:`psycopg.OperationalError`, which the pool reads as a
    lost connection. (psycopg's waits take a timeout; its statements pass none.)"""

    deadline: float | None = None

    def wait(self, gen: PQGen[Any], interval: float = 0.1,
             timeout: float | None = None) -> Any:
        try:
            return super().wait(gen, interval, self.deadline if timeout is None else timeout)
        except _WaitTimeout:
            self.close()
            raise psycopg.OperationalError(
                f"the database did not answer within {self.deadline} s") from None


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    synchronous = os.environ.get("REUSSITE_SQLITE_SYNCHRONOUS", "NORMAL").upper()
    if synchronous not in ("OFF", "NORMAL", "FULL", "EXTRA"):
        synchronous = "NORMAL"
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute(f"PRAGMA busy_timeout={sqlite_busy_ms()}")
    cur.execute(f"PRAGMA synchronous={synchronous}")
    cur.close()


def make_engine(url: str) -> Engine:
    """An engine for ``url``; for SQLite, the data folder is made and WAL + foreign keys set."""
    u = make_url(url)
    if u.get_backend_name() == "sqlite":
        if not u.database or u.database == ":memory:":
            # One connection for everyone: each new one would open another empty database.
            engine = create_engine(u, poolclass=StaticPool,
                                   connect_args={"check_same_thread": False})
            event.listen(engine, "connect", _sqlite_pragmas)
            return engine
        Path(u.database).parent.mkdir(parents=True, exist_ok=True)
        # A fixed pool as large as the server's thread pool: no connection is opened and
        # closed again under load (each opening sets the pragmas below).
        engine = create_engine(u, pool_size=40, max_overflow=0, pool_timeout=10)
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    # The game actions and views use connections of their own (reussite.web.hotdb, 16 a
    # process); this pool serves the pages, lists, statistics and health checks.
    engine = create_engine(u, pool_size=4, max_overflow=8, pool_timeout=db_deadline(),
                           pool_pre_ping=True, connect_args={"connect_timeout": connect_timeout()})
    if u.get_backend_name() == "postgresql" and u.get_driver_name() == "psycopg":
        deadline = db_deadline()

        @event.listens_for(engine, "do_connect")
        def connect(_dialect: Any, _record: Any, cargs: Any, cparams: Any) -> Any:
            conn = DeadlineConnection.connect(*cargs, **cparams)
            conn.deadline = deadline
            return conn

    return engine


class Store(GameStatements):
    """Every read and write the web site makes, each in its own short transaction."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        self.dialect = self.engine.dialect.name
        self.sql = statements(self.dialect)
        # SQLite lets one writer in at a time and makes the others wait in its busy handler,
        # which sleeps up to 100 ms a turn: under load, writes queue here instead, in order.
        # (Several processes on one SQLite file still meet in the busy handler.)
        self._write_lock = threading.Lock() if self.dialect == "sqlite" else None
        self.write_lock = self._write_lock
        """On SQLite, the lock this process's writes queue on (the hot path's too)."""
        self._write_wait = sqlite_busy_ms() / 1000

    def dispose(self) -> None:
        self.engine.dispose()

    @contextmanager
    def _writing(self) -> Iterator[Connection]:
        """A write transaction (one at a time per process on SQLite)."""
        lock = self._write_lock
        if lock is not None and not lock.acquire(timeout=self._write_wait):
            raise Unavailable("the database stayed busy")
        try:
            with self.engine.begin() as conn:
                yield conn
        finally:
            if lock is not None:
                lock.release()

    # ------------------------------------------------------------------ schema

    def migrate(self) -> None:
        """Bring the schema to the newest Alembic revision (several processes may race)."""
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location",
                            str(resources.files("reussite.web") / "migrations"))
        with self._migration_lock() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
            conn.commit()

    @contextmanager
    def _migration_lock(self) -> Iterator[Connection]:
        """Serialise migrations: a PostgreSQL advisory lock, or a lock file beside SQLite."""
        if self.dialect == "postgresql":
            with self.engine.connect() as conn:
                # No deadline here: a migration may take long, and so may waiting for another
                # process's; the connection's deadline is back when it returns to the pool.
                raw = conn.connection.dbapi_connection
                deadline = raw.deadline if isinstance(raw, DeadlineConnection) else None
                if isinstance(raw, DeadlineConnection):
                    raw.deadline = None
                try:
                    conn.execute(text("SELECT pg_advisory_lock(727274)"))
                    conn.commit()
                    try:
                        yield conn
                    finally:
                        conn.rollback()
                        conn.execute(text("SELECT pg_advisory_unlock(727274)"))
                        conn.commit()
                finally:
                    if isinstance(raw, DeadlineConnection):
                        raw.deadline = deadline
            return
        database = make_url(self.url).database
        if not database or database == ":memory:":
            with self.engine.connect() as conn:
                yield conn
            return
        with open(f"{database}.migrate-lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                with self.engine.connect() as conn:
                    yield conn
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    def secret_key(self) -> str:
        """The key that signs cookies, made once and shared by every server process."""
        env = os.environ.get("REUSSITE_SECRET_KEY")
        if env:
            return env
        with self.engine.begin() as conn:
            value = conn.execute(select(settings.c.value).where(
                settings.c.key == "secret_key")).scalar()
            if value is None:
                # A racing process may write first: the first value wins, all read it back.
                ins = (pg_insert if self.dialect == "postgresql" else sqlite_insert)(settings)
                conn.execute(ins.values(key="secret_key", value=secrets.token_urlsafe(32))
                             .on_conflict_do_nothing(index_elements=["key"]))
        with self.engine.connect() as conn:
            stored = conn.execute(select(settings.c.value).where(
                settings.c.key == "secret_key")).scalar()
        return str(stored)

    def ping(self) -> None:
        """Raise (an OperationalError) unless the database answers."""
        with self.engine.connect() as conn:
            conn.execute(text("SELECT 1"))

    # ------------------------------------------------------------------ games

    def _one(self, stmt: Any, params: dict[str, Any]) -> Any:
        with self.engine.connect() as conn:
            return conn.execute(stmt, params).first()

    def _all(self, stmt: Any, params: dict[str, Any]) -> list[Any]:
        with self.engine.connect() as conn:
            return list(conn.execute(stmt, params).all())

    def _transaction(self, writes: Callable[[Execute, Query], T]) -> T:
        with self._writing() as conn:
            result = writes(lambda stmt, params: conn.execute(stmt, params).rowcount,
                            lambda stmt, params: list(conn.execute(stmt, params).all()))
            if result is None:
                conn.rollback()
            return result

    def list_games(self, player_id: str, game: str | None, status: str | None,
                   limit: int) -> list[GameRow]:
        q = select(games).where(games.c.player_id == player_id)
        if game is not None:
            q = q.where(games.c.game == game)
        if status is not None:
            q = q.where(games.c.status == status)
        q = q.order_by(games.c.updated_at.desc(), games.c.id).limit(limit)
        with self.engine.connect() as conn:
            return [GameRow.from_values(r) for r in conn.execute(q)]

    def seal(self, game_id: str) -> None:
        """Close a finished game for good (its analysis shows every card): no action is
        taken on it any more (its version moves on, so an action begun on it is a 409)."""
        with self._writing() as conn:
            conn.execute(update(games).where(games.c.id == game_id).values(
                sealed=true(), version=games.c.version + 1))

    def player_totals(self, player_id: str) -> list[Any]:
        """A player's rows of ``totals`` (one per game and origin they dealt)."""
        with self.engine.connect() as conn:
            return list(conn.execute(PLAYER_TOTALS, {"pid": player_id}).mappings())

    # ------------------------------------------------------------------ the deal pool

    def pool_count(self, game: str) -> int:
        """How many secret winnable deals of ``game`` wait in the pool."""
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).where(
                deal_pool.c.game == game)).scalar_one())

    def add_pooled(self, game: str, number: int) -> bool:
        """Put a proven-winnable deal in the pool (False if it is there already)."""
        ins = (pg_insert if self.dialect == "postgresql" else sqlite_insert)(deal_pool)
        with self._writing() as conn:
            # The row it wrote, if any (a row count says 1 on PostgreSQL either way).
            return conn.execute(ins.values(game=game, number=str(number), created_at=now_ms())
                                .on_conflict_do_nothing(index_elements=["game", "number"])
                                .returning(deal_pool.c.number)).first() is not None

    def history_rows(self, player_id: str, game: str | None) -> list[GameRow]:
        """The player's newest games (of ``game``, or of every game), newest first by
        ``updated_at``, at most :data:`HISTORY_SCAN`: the history's one read, walked along the
        index on (player_id, updated_at) and cut by its LIMIT."""
        q = select(games).where(games.c.player_id == player_id)
        if game is not None:
            q = q.where(games.c.game == game)
        q = q.order_by(games.c.updated_at.desc()).limit(HISTORY_SCAN)
        with self.engine.connect() as conn:
            return [GameRow.from_values(r) for r in conn.execute(q)]

    def reset_stats(self, player_id: str, game: str | None = None) -> int:
        """Forget the player's results (of ``game``, or of every game): their games are
        deleted, with their moves, but for the games in play (:func:`games_in_play`) and any
        game dealt or changed while the reset runs. The number of games deleted.

        The statistics and the history are read from these rows, so both start afresh."""
        started = now_ms()
        q = select(games.c.id, games.c.ended, games.c.length, games.c.game,
                   games.c.origin, games.c.ranked, games.c.daily).where(
            games.c.player_id == player_id)
        if game is not None:
            q = q.where(games.c.game == game)
        q = q.order_by(games.c.updated_at.desc())
        with self._writing() as conn:
            rows = list(conn.execute(q))
            # A ranked daily game is kept while its day runs: forgotten, it would let the
            # player's next game of that deal rank as a first try.
            keep = games_in_play(rows) | {r.id for r in rows
                                          if r.ranked and not is_over(r.daily)}
            doomed = [r.id for r in rows if r.id not in keep]
            deleted = 0
            for start in range(0, len(doomed), 500):  # bounded statements, however many
                chunk = doomed[start:start + 500]
                deleted += conn.execute(delete(games).where(
                    games.c.player_id == player_id, games.c.id.in_(chunk),
                    games.c.updated_at <= started)).rowcount
            # The running totals start afresh too, counting the games kept in play that were
            # played already (their end adds the rest, as it would have).
            gone = delete(totals).where(totals.c.player_id == player_id)
            conn.execute(gone if game is None else gone.where(totals.c.game == game))
            add = statements(self.dialect)
            for r in rows:
                if r.id in keep and r.ended is None and r.length > 0:
                    params = dict(Tally(played=1).params(), pid=player_id, t_game=r.game,
                                  t_origin=r.origin)
                    conn.execute(add.add_totals, params)
                    conn.execute(add.tally, params)
            return deleted

    # ------------------------------------------------------------------ feedback

    def add_feedback(self, player_id: str, game: str | None, lang: str, message: str) -> None:
        with self._writing() as conn:
            conn.execute(insert(feedback).values(player_id=player_id, game=game, lang=lang,
                                                 message=message, created_at=now_ms()))

    def feedback_messages(self) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            return [dict(m) for m in conn.execute(
                select(feedback).order_by(feedback.c.id)).mappings()]
