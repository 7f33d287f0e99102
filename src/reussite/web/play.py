"""Games as the web site plays them: the engine's positions, rebuilt from storage.

This layer knows no HTTP. It turns a player's action (new game, move, undo, redo, restart,
hint) into one storage transaction and answers the game's view. A small per-process cache
keeps recently used games so that a move does not replay the whole line; it is only a cache:
every entry is the game at one version, used only for that version (a move's conditional
update fails when the database holds another), so several processes may serve one game in
turn.
"""

from __future__ import annotations

import copy
import os
import re
import secrets
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy.exc import IntegrityError

from reussite.deals import check_deal_number, random_number
from reussite.engine import (
    FLIP,
    REDEAL,
    TRANSFER,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Position,
    RawMove,
)
from reussite.games import get_game
from reussite.solver.hints import Hint
from reussite.web import hintpool
from reussite.web.days import daily_games, next_day, today
from reussite.web.i18n import N_
from reussite.web.storage import (
    Change,
    GameRow,
    GameStore,
    NewGame,
    Store,
    Tally,
    now_ms,
)
from reussite.winnable import winnable_numbers

MAX_GAMES_IN_PLAY = 50
"""The games a player may keep in play (``REUSSITE_MAX_GAMES_IN_PLAY``); beyond it, dealing a
game abandons the one left untouched the longest."""
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""The shape of a game id (``secrets.token_urlsafe``)."""
IDLE_CAP_MS = 120_000
"""A pause between two actions counts at most this long in a game's time."""


def idle_ms(row: GameRow, t: int) -> int:
    """The time a game's next change adds at ``t``: the spell since its last change, at most
    :data:`IDLE_CAP_MS`, none while its clock is paused. The one definition of a game's time:
    ``elapsed_ms`` is the sum of these, the view shows them, statistics read them."""
    return 0 if row.paused else max(0, min(t - row.updated_at, IDLE_CAP_MS))


def max_games_in_play() -> int:
    """``REUSSITE_MAX_GAMES_IN_PLAY`` (a whole number, at least 1), else
    :data:`MAX_GAMES_IN_PLAY`."""
    value = os.environ.get("REUSSITE_MAX_GAMES_IN_PLAY", "").strip()
    if not value:
        return MAX_GAMES_IN_PLAY
    if not value.isdigit() or int(value) < 1:
        raise ValueError(f"REUSSITE_MAX_GAMES_IN_PLAY must be a whole number from 1, "
                         f"not {value!r}")
    return int(value)


def tally_of(row: GameRow, *, first_move: bool, ended: str | None, cursor: int,
             elapsed_ms: int, used_undo: bool) -> Tally | None:
    """What a change of ``row`` adds to the player's statistics (docs/statistics.md): the
    game counts as played from its first move; its first end counts once, a win with its
    time, moves and help, a loss (stuck at the clear end) as a loss."""
    played = 1 if first_move else 0
    if ended == "won":
        aided = used_undo or row.used_hint
        return Tally(played=played, won=1, ms=elapsed_ms, moves=cursor, undo=int(used_undo),
                     hint=int(row.used_hint), unaided=int(not aided))
    if ended is not None and (played or row.length > 0):
        return Tally(played=played, lost=1)
    return Tally(played=1) if played else None


class NotFound(LookupError):
    """No such game for this player (another player's game is not found either)."""


class Conflict(Exception):
    """The game has changed since the version the player saw."""


class Over(Conflict):
    """The game has ended for good (abandoned, given up, or analysed): it takes no more
    actions. ``why``: ``abandoned``, ``resigned``, ``sealed`` or ``ended`` (a game won or
    stuck that cannot be given up)."""

    def __init__(self, game_id: str, why: str = "abandoned") -> None:
        super().__init__(game_id)
        self.why = why


def why_over(row: GameRow) -> str:
    return "sealed" if row.sealed else row.ended or "ended"


class Refused(ValueError):
    """A well-formed request that the game refuses now (illegal move, nothing to undo)."""


NO_DAILY = N_("This game has no daily deal")
FUTURE_DAY = N_("That day's deal cannot be played before its day")
NO_DEAL_THAT_DAY = N_("There is no daily deal of that day")
PREPARED_BACK = 30
"""Days before today whose missing deal is prepared on demand (an older day has a deal only
if it was prepared in its time: no one can make the site solve any day of the calendar)."""


class NotPrepared(Exception):
    """The day's deal of a game is not ready yet: it is being prepared (503, try again)."""

    def __init__(self, game: str, day: str) -> None:
        super().__init__(game, day)
        self.game = game
        self.day = day


def encode_move(move: Move) -> str:
    return "stock" if move.kind == "stock" else f"{move.src} {move.dst} {move.count}"


def decode_move(text: str) -> Move:
    if text == "stock":
        return Move("stock")
    src, dst, count = text.split(" ")
    return Move("move", src, dst, int(count))


def steps_to_events(pos: Position, steps: tuple[tuple[int, ...], ...],
                    backwards: bool = False) -> list[dict[str, Any]]:
    """The engine's primitive steps as the contract's events (reversed for an undo)."""
    ids = pos.layout.ids
    events: list[dict[str, Any]] = []
    for op in (reversed(steps) if backwards else steps):
        if op[0] == TRANSFER:
            _, src, dst, n = op
            if backwards:
                src, dst = dst, src
            events.append({"type": "move", "from": ids[src], "to": ids[dst], "count": n})
        elif op[0] == FLIP:
            events.append({"type": "flip", "pile": ids[op[1]]})
        elif op[0] == REDEAL:
            events.append({"type": "redeal"})
    return events


@dataclass
class Loaded:
    """A game row with its position (``cursor`` moves played) and its whole line."""

    row: GameRow
    pos: Position
    line: list[str]
    from_cache: bool = False
    """Taken from this process's cache without asking the database: the row may be stale,
    which the conditional update of the commit (or :meth:`Tables._refuse`) finds out."""
    legal: list[RawMove] | None = None
    """``pos.raw_moves()`` when known (computed for the answer that left it there)."""


Cached = tuple[GameRow, Position, list[str], list[RawMove] | None]


class PositionCache:
    """The games this process used last, each as (row, position, line, legal moves or None)
    at the row's version (least recently used first out). An entry is taken out while a
    request works on it."""

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._items: OrderedDict[str, Cached] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, game_id: str) -> Cached | None:
        with self._lock:
            return self._items.pop(game_id, None)

    def put(self, row: GameRow, pos: Position, line: list[str],
            legal: list[RawMove] | None = None) -> None:
        with self._lock:
            self._items[row.id] = (row, pos, line, legal)
            self._items.move_to_end(row.id)
            while len(self._items) > self.size:
                self._items.popitem(last=False)


@dataclass
class Outcome:
    """What an action answers: the game row after it, its position, the events."""

    row: GameRow
    pos: Position
    events: list[dict[str, Any]]
    legal: list[RawMove] | None = None
    """The legal moves of ``pos`` when already computed (they are needed once per answer)."""


class Tables:
    """The games of every player, stored in a :class:`Store`."""

    def __init__(self, store: Store, cache_size: int = 4096,
                 max_in_play: int | None = None) -> None:
        self.store = store
        self.max_in_play = max_games_in_play() if max_in_play is None else max_in_play
        self.db: GameStore = store
        """Where a game's row and line are read and its changes committed (the store, or the
        hot path's driver-level statements: :mod:`reussite.web.hotdb`)."""
        self.cache = PositionCache(cache_size)
        self.prepare_daily: Callable[[str, str], object] | None = None
        """Asks for a day's deal to be prepared (the job tier), when one is missing."""

    def using(self, db: GameStore) -> Tables:
        """The same games (and the same cache) through another :class:`GameStore`."""
        other = copy.copy(self)
        other.db = db
        return other

    # ------------------------------------------------------------------ reading

    def _load(self, player: str, game_id: str) -> Loaded:
        if not GAME_ID.fullmatch(game_id):
            raise NotFound(game_id)  # not one of our ids: no need to ask the database
        row = self.db.get_game(game_id, player)
        if row is None:
            raise NotFound(game_id)
        cached = self.cache.take(row.id)
        if cached is not None and cached[0].version == row.version:
            return Loaded(row, cached[1], cached[2], legal=cached[3])
        pos = Position.deal(get_game(row.game), row.number)
        line = self.db.line(row.id, row.length)
        for m in line[:row.cursor]:
            pos.push(decode_move(m))
        return Loaded(row, pos, line)

    def load(self, player: str, game_id: str) -> Loaded:
        """The game as stored (the position from this process's cache when it is at the
        stored version), or NotFound."""
        return self._load(player, game_id)

    def view(self, player: str, game_id: str) -> Outcome:
        lo = self._load(player, game_id)
        legal = lo.pos.raw_moves() if lo.legal is None else lo.legal
        self.cache.put(lo.row, lo.pos, lo.line, legal)
        return Outcome(lo.row, lo.pos, [], legal)

    def recent(self, player: str, game: str | None, status: str | None,
             limit: int = 50) -> list[GameRow]:
        return self.store.list_games(player, game, status, limit)

    def unfinished(self, player: str, most: int) -> list[GameRow]:
        """A player's games still being played, newest first (through :attr:`db`: on the
        hot path's own connection when it has one)."""
        return self.db.unfinished(player, most)

    # ------------------------------------------------------------------ actions

    def new_game(self, player: str, game: str, number: int | None,
                 winnable: bool = False, daily: str | None = None) -> Outcome:
        """Deal a game: the deal the player named (its number shown), else one drawn by the
        site whose number stays secret until the game is over: a proven-winnable one from the
        site's pool (``winnable``), else any of the 2**64 deals; or the deal of the day
        ``daily`` (``YYYY-MM-DD``: today's, or a past day's for practice)."""
        rules = get_game(game)  # raises UnknownGameError
        origin, secret = "random", True
        if daily is not None:
            return self._new_daily(player, game, daily)
        if number is not None:
            try:
                check_deal_number(number, rules.numbers)
            except ValueError as e:  # FreeCell's numbers end at 1,000,000
                raise Refused(str(e)) from None
            origin, secret = "number", False
        elif winnable:
            origin = "winnable"
            number = self.db.take_pooled(game)
            if number is None:
                # The pool is empty: a deal of the shipped public list, whose number anyone
                # can read there, so it is shown from the start.
                numbers = winnable_numbers(game)
                if not numbers:
                    raise Refused(f"No deal of {rules.name} has been proved winnable yet;"
                                  " start a game without 'winnable'")
                number, secret = numbers[secrets.randbelow(len(numbers))], False
        else:
            number = random_number(rules.numbers, secrets.randbelow)
        pos = Position.deal(rules, number)
        legal = pos.raw_moves()
        new = NewGame(secrets.token_urlsafe(12), player, game, number, pos.status(legal),
                      origin, secret)
        row = self.db.create_game(new, self.max_in_play)
        self.cache.put(row, pos, [], legal)
        return Outcome(row, pos, [], legal)

    def _new_daily(self, player: str, game: str, day: str) -> Outcome:
        rules = get_game(game)
        if game not in daily_games():
            raise Refused(NO_DAILY)
        now = today()
        if day > now:
            raise Refused(FUTURE_DAY)
        number = self.db.daily_deal(game, day)
        if number is None:
            if day < next_day(now, -PREPARED_BACK):
                raise Refused(NO_DEAL_THAT_DAY)
            if self.prepare_daily is not None:
                self.prepare_daily(game, day)
            raise NotPrepared(game, day)
        pos = Position.deal(rules, number)
        legal = pos.raw_moves()
        new = NewGame(secrets.token_urlsafe(12), player, game, number, pos.status(legal),
                      "daily" if day == now else "practice", True, day)
        try:
            row = self.db.create_game(new, self.max_in_play)
        except (IntegrityError, sqlite3.IntegrityError):
            # Another request of this player dealt the same day's deal at the same moment and
            # took the ranked place: this one is a second try.
            row = self.db.create_game(new, self.max_in_play)
        self.cache.put(row, pos, [], legal)
        return Outcome(row, pos, [], legal)

    def _commit(self, lo: Loaded, change: tuple[Change, list[RawMove]],
                events: list[dict[str, Any]], line: list[str]) -> Outcome:
        row = self.db.commit(lo.row, change[0])
        if row is None:
            raise Conflict(lo.row.id)
        self.cache.put(row, lo.pos, line, change[1])
        return Outcome(row, lo.pos, events, change[1])

    def _begin(self, player: str, game_id: str, version: int) -> Loaded:
        """The game at ``version`` for an action, or Conflict.

        When this process's cache holds the game at exactly the version the player names, the
        database is not read: the commit's conditional update decides (another process may
        have moved on, and then the player's version is stale too: 409 either way).
        """
        cached = self.cache.take(game_id)
        if cached is not None:
            row, pos, line, legal = cached
            if row.player_id == player and row.version == version and not row.final:
                return Loaded(row, pos, line, from_cache=True, legal=legal)
            self.cache.put(row, pos, line, legal)
        lo = self._load(player, game_id)
        if lo.row.version != version:
            self.cache.put(lo.row, lo.pos, lo.line, lo.legal)
            raise Conflict(game_id)
        if lo.row.final:
            self.cache.put(lo.row, lo.pos, lo.line, lo.legal)
            raise Over(game_id, why_over(lo.row))
        return lo

    def _refuse(self, lo: Loaded, sentence: str) -> Refused:
        """The refusal of an action on an unchanged position, or Conflict if it was stale."""
        self.cache.put(lo.row, lo.pos, lo.line, lo.legal)
        if lo.from_cache:
            row = self.db.get_game(lo.row.id, lo.row.player_id)
            if row is None:
                raise NotFound(lo.row.id)
            if row.version != lo.row.version:
                raise Conflict(lo.row.id)
        return Refused(sentence)

    def _change(self, lo: Loaded, cursor: int, length: int, *, undo: bool = False,
                append: str | None = None, restart_cursor: int | None = None,
                paused: bool = False, played: int = 0) -> tuple[Change, list[RawMove]]:
        row = lo.row
        legal = lo.pos.raw_moves()
        status = lo.pos.status(legal)
        used_undo = row.used_undo or undo
        elapsed = row.elapsed_ms + idle_ms(row, now_ms())
        ended = row.ended
        if ended is None and status != "playing":
            ended = status  # its first end: won, or stuck at the clear end (lost)
        tally = tally_of(row, first_move=append is not None and row.length == 0,
                         ended=ended if row.ended is None else None, cursor=cursor,
                         elapsed_ms=elapsed, used_undo=used_undo)
        return Change(cursor=cursor, length=length, status=status, elapsed_ms=elapsed,
                      used_undo=used_undo, used_hint=row.used_hint, append=append,
                      won=status == "won" and row.won_at is None, ended=ended,
                      tally=tally, restart_cursor=restart_cursor, paused=paused,
                      played=played), legal

    def move(self, player: str, game_id: str, move: Move, version: int) -> Outcome:
        lo = self._begin(player, game_id, version)
        try:
            lo.pos.play(move, lo.legal)
        except (IllegalMoveError, InvalidMoveError) as e:
            raise self._refuse(lo, str(e)) from None
        events = steps_to_events(lo.pos, lo.pos.last_steps())
        c = lo.row.cursor
        text = encode_move(move)
        change = self._change(lo, c + 1, c + 1, append=text, played=1)
        return self._commit(lo, change, events, lo.line[:c] + [text])

    def undo(self, player: str, game_id: str, version: int) -> Outcome:
        """Take back the last move; right after a restart, take back the restart."""
        lo = self._begin(player, game_id, version)
        c = lo.row.cursor
        if c == 0 and lo.row.restart_cursor is not None:
            back = lo.row.restart_cursor
            for m in lo.line[:back]:
                lo.pos.push(decode_move(m))
            change = self._change(lo, back, lo.row.length, undo=True)
            return self._commit(lo, change, [], lo.line)
        if c == 0:
            raise self._refuse(lo, N_("There is no move to undo"))
        events = steps_to_events(lo.pos, lo.pos.last_steps(), backwards=True)
        lo.pos.pop()
        change = self._change(lo, c - 1, lo.row.length, undo=True)
        return self._commit(lo, change, events, lo.line)

    def redo(self, player: str, game_id: str, version: int) -> Outcome:
        lo = self._begin(player, game_id, version)
        c = lo.row.cursor
        if c >= lo.row.length:
            raise self._refuse(lo, N_("There is no move to redo"))
        lo.pos.push(decode_move(lo.line[c]))
        events = steps_to_events(lo.pos, lo.pos.last_steps())
        change = self._change(lo, c + 1, lo.row.length, played=1)
        return self._commit(lo, change, events, lo.line)

    def restart(self, player: str, game_id: str, version: int) -> Outcome:
        """Back to the deal: every move is taken back and stays redoable (nothing is lost),
        and one undo takes the restart back."""
        lo = self._begin(player, game_id, version)
        row = lo.row
        back = row.cursor if row.cursor > 0 else row.restart_cursor
        while lo.pos.history:
            lo.pos.pop()
        change = self._change(lo, 0, row.length, undo=row.cursor > 0, restart_cursor=back)
        return self._commit(lo, change, [], lo.line)

    def resign(self, player: str, game_id: str, version: int) -> Outcome:
        """Give the game up: it ends lost (``ended = "resigned"``) for good, and counts as a
        loss in the statistics (played, even without a move)."""
        lo = self._begin(player, game_id, version)
        row = lo.row
        if row.ended is not None:  # won, or stuck at the clear end: over already
            self.cache.put(row, lo.pos, lo.line, lo.legal)
            raise Over(game_id, "ended")
        legal = lo.pos.raw_moves()
        change = Change(cursor=row.cursor, length=row.length, status="lost",
                        elapsed_ms=row.elapsed_ms + idle_ms(row, now_ms()),
                        used_undo=row.used_undo, used_hint=row.used_hint, ended="resigned",
                        tally=Tally(played=int(row.length == 0), lost=1))
        return self._commit(lo, (change, legal), [], lo.line)

    def seal(self, lo: Loaded) -> None:
        """Close a finished game for good before its analysis shows every card (a game stuck
        at the clear end could otherwise still be undone)."""
        if not lo.row.sealed:
            self.store.seal(lo.row.id)
            self.cache.take(lo.row.id)

    def pause(self, player: str, game_id: str, version: int) -> Outcome:
        """Stop the game's clock: the time up to now is added (within the idle cap), and the
        spell until the next action or :meth:`resume` adds none."""
        return self._clock(player, game_id, version, paused=True)

    def resume(self, player: str, game_id: str, version: int) -> Outcome:
        """Start the game's clock again from now (the paused spell adds no time)."""
        return self._clock(player, game_id, version, paused=False)

    def _clock(self, player: str, game_id: str, version: int, *, paused: bool) -> Outcome:
        lo = self._begin(player, game_id, version)
        row = lo.row
        if row.paused == paused:  # already so: nothing to write
            self.cache.put(row, lo.pos, lo.line, lo.legal)
            return Outcome(row, lo.pos, [], lo.legal)
        change = self._change(lo, row.cursor, row.length, restart_cursor=row.restart_cursor,
                              paused=paused)
        return self._commit(lo, change, [], lo.line)

    def hint(self, player: str, game_id: str) -> tuple[GameRow, Position, Hint, Move | None]:
        """The hint for the game (:func:`.solver.hints.advise`: the hint search is given the
        game's line, the moves played up to the cursor), noted; with its move as a Move."""
        lo = self._load(player, game_id)
        given = hintpool.hint(lo.pos)  # in a worker process: no lock held over other moves
        row, move = self.hint_given(lo, given)
        return row, lo.pos, given, move

    def hint_given(self, lo: Loaded, given: Hint) -> tuple[GameRow, Move | None]:
        """Note that the hint ``given`` was given for the game ``lo`` (the hot path computes
        the hint between :meth:`_load` and this, without holding a thread); its move as a
        Move."""
        move = None if given.move is None else lo.pos.to_move(given.move)
        row = lo.row
        if move is not None and not row.used_hint:
            self.db.mark_hint(row)
            row = replace(row, used_hint=True)
        self.cache.put(row, lo.pos, lo.line, lo.legal)
        return row, move
