"""A player's identity as the database keeps it: its name, its browsers, its sign-in codes,
the names reported and hidden, and forgetting a player whole (docs/server.md, "Identity").

A player is the random id of its cookie (:mod:`reussite.web.edge`); the cookie also names the
browser. Nothing is written for a mere visit: a row of ``players`` is made when the player
sets a name or makes a code, a row of ``browsers`` when the browser first needs one (a code
made or used, the list of browsers read, a name set).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Table, delete, func, insert, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from reussite.web.errors import (
    CODE_EXPIRED,
    CODE_MALFORMED,
    CODE_SAME_PLAYER,
    CODE_UNKNOWN,
    CODE_USED,
    NAME_HIDDEN,
    NAME_NOT_SHOWN,
    Denied,
)
from reussite.web.names import name_key, normalise_name
from reussite.web.storage import (
    Store,
    analyses,
    browsers,
    feedback,
    games,
    hidden_names,
    name_reports,
    now_ms,
    players,
    sign_in_codes,
    totals,
)

CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
"""32 symbols, none mistaken for another (no I, L, O or U): 5 bits each."""
CODE_LENGTH = 12
"""Symbols in a code: 60 bits, shown in three groups of four."""
CODE_LIFE_MS = 10 * 60 * 1000
"""A code works for ten minutes, once."""
CODE_READS_AS = str.maketrans({"O": "0", "I": "1", "L": "1"})
"""Letters typed for the digits they look like."""
SEEN_EVERY_MS = 3_600_000
"""A browser's ``last_seen_at`` is brought up to date at most once an hour (coarse)."""

PLAYER_DATA: tuple[tuple[Table, str], ...] = (
    (analyses, "player_id"), (games, "player_id"), (totals, "player_id"),
    (name_reports, "reporter_id"), (sign_in_codes, "player_id"), (feedback, "player_id"),
    (players, "id"),
)
"""Every table that holds a player's data, and its column naming the player: what
forgetting a player deletes (its browsers are signed out: :meth:`Players.forget`). A table
that keeps a player's data joins this list."""


@dataclass(frozen=True, slots=True)
class PlayerRow:
    id: str
    name: str | None
    name_hidden: bool


@dataclass(frozen=True, slots=True)
class BrowserRow:
    id: str
    agent: str
    system: str
    created_at: int
    last_seen_at: int


@dataclass(frozen=True, slots=True)
class Reported:
    """A name reported, with its counts (``reussite names reported``)."""

    name: str
    reports: int
    addresses: int
    hidden: bool


def normalise_code(text: str) -> str:
    """A code as typed (any case, spaces and dashes, O for 0, I or L for 1) in its
    canonical form; :class:`Denied` (422) when it cannot be one."""
    code = "".join(text.split()).replace("-", "").upper().translate(CODE_READS_AS)
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        raise Denied(422, CODE_MALFORMED)
    return code


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def grouped(code: str) -> str:
    """``ABCDEFGHJKMN`` as shown: ``ABCD-EFGH-JKMN``."""
    return "-".join(code[i:i + 4] for i in range(0, len(code), 4))


AGENTS = (("Edg/", "Edge"), ("EdgiOS", "Edge"), ("EdgA/", "Edge"), ("OPR/", "Opera"),
          ("SamsungBrowser", "Samsung Internet"), ("YaBrowser", "Yandex Browser"),
          ("Firefox/", "Firefox"), ("FxiOS", "Firefox"), ("CriOS", "Chrome"),
          ("Chromium/", "Chromium"), ("Chrome/", "Chrome"), ("Safari/", "Safari"))
SYSTEMS = (("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"),
           ("CrOS", "ChromeOS"), ("Windows", "Windows"), ("Macintosh", "macOS"),
           ("Mac OS X", "macOS"), ("Linux", "Linux"))
"""The first marker found in a User-Agent names the browser (the system): order matters,
since Edge and Opera say Chrome too, Chrome says Safari, Android says Linux."""
MAX_AGENT_READ = 512
"""Characters of a User-Agent looked at; the header itself is never stored."""


def describe_agent(user_agent: str | None) -> tuple[str, str]:
    """The browser and system a User-Agent names (``("Chrome", "Linux")``), each ``""``
    when not recognised."""
    ua = (user_agent or "")[:MAX_AGENT_READ]
    agent = next((name for mark, name in AGENTS if mark in ua), "")
    system = next((name for mark, name in SYSTEMS if mark in ua), "")
    return agent, system


class Players:
    """The identity's reads and writes, each in a short transaction of ``store``'s."""

    def __init__(self, store: Store, secret: str = "") -> None:
        self.store = store
        self._key = hashlib.sha256(b"reussite.sign-in-code:" + secret.encode()).digest()

    def _upsert(self, table: Table) -> Any:
        return (pg_insert if self.store.dialect == "postgresql" else sqlite_insert)(table)

    def _ensure_player(self, conn: Connection, player_id: str, now: int) -> None:
        conn.execute(self._upsert(players).values(
            id=player_id, name=None, name_key=None, name_hidden=False, created_at=now,
            updated_at=now).on_conflict_do_nothing(index_elements=["id"]))

    # ------------------------------------------------------------------ names

    def get(self, player_id: str) -> PlayerRow | None:
        with self.store.engine.connect() as conn:
            r = conn.execute(select(players.c.name, players.c.name_hidden).where(
                players.c.id == player_id)).first()
        return None if r is None else PlayerRow(player_id, r.name, bool(r.name_hidden))

    def set_name(self, player_id: str, text: str | None) -> PlayerRow:
        """Set (or with None clear) the player's name; :class:`Denied` when the name breaks
        a rule (:func:`~reussite.web.names.normalise_name`) or was hidden, nothing written."""
        name = None if text is None else normalise_name(text)
        key = None if name is None else name_key(name)
        now = now_ms()
        with self.store._writing() as conn:
            if key is not None and conn.execute(select(hidden_names.c.name_key).where(
                    hidden_names.c.name_key == key)).first() is not None:
                raise Denied(422, NAME_HIDDEN)
            self._ensure_player(conn, player_id, now)
            conn.execute(update(players).where(players.c.id == player_id).values(
                name=name, name_key=key, name_hidden=False, updated_at=now))
        return PlayerRow(player_id, name, False)

    def report(self, reporter_id: str, text: str, address: str) -> None:
        """Report a name some player shows, kept as that player shows it (once per reporter
        and name: a second report is no new one); :class:`Denied` (404) when no player
        shows it."""
        try:
            name = normalise_name(text)
        except Denied:
            raise Denied(404, NAME_NOT_SHOWN) from None
        key = name_key(name)
        with self.store._writing() as conn:
            shown = conn.execute(select(players.c.name).where(
                players.c.name_key == key, players.c.name_hidden.is_(False)).limit(1)).first()
            if shown is None:
                raise Denied(404, NAME_NOT_SHOWN)
            conn.execute(self._upsert(name_reports).values(
                reporter_id=reporter_id, name_key=key, name=shown.name, address=address[:64],
                created_at=now_ms()).on_conflict_do_nothing(
                index_elements=["reporter_id", "name_key"]))

    def reported(self) -> list[Reported]:
        """The names reported, the most reported first."""
        q = select(name_reports.c.name_key, func.min(name_reports.c.name),
                   func.count(), func.count(name_reports.c.address.distinct())).group_by(
            name_reports.c.name_key).order_by(func.count().desc(), name_reports.c.name_key)
        with self.store.engine.connect() as conn:
            rows = list(conn.execute(q))
            hidden = {k for (k,) in conn.execute(select(hidden_names.c.name_key).where(
                hidden_names.c.name_key.in_([r[0] for r in rows])))} if rows else set()
        return [Reported(name, n, addresses, key in hidden)
                for key, name, n, addresses in rows]

    def hide(self, text: str) -> int:
        """Hide a name (as its key: every spelling in another case too): the players who
        show it are shown by their anonymous names, and no one may take it again. The
        number of players who held it."""
        name = normalise_name(text)
        key = name_key(name)
        with self.store._writing() as conn:
            conn.execute(self._upsert(hidden_names).values(
                name_key=key, name=name, hidden_at=now_ms()).on_conflict_do_nothing(
                index_elements=["name_key"]))
            held: int = conn.execute(update(players).where(players.c.name_key == key).values(
                name_hidden=True)).rowcount
        return held

    def show(self, text: str) -> int | None:
        """Take a name back out of the hidden ones: its holders are shown by it again. The
        number of players who hold it; None when it was not hidden."""
        key = name_key(normalise_name(text))
        with self.store._writing() as conn:
            if conn.execute(delete(hidden_names).where(
                    hidden_names.c.name_key == key)).rowcount == 0:
                return None
            held: int = conn.execute(update(players).where(players.c.name_key == key).values(
                name_hidden=False)).rowcount
        return held

    # ------------------------------------------------------------------ browsers

    def record_browser(self, player_id: str, browser_id: str, user_agent: str | None) -> None:
        """Record this browser as one of the player's (nothing if it is already)."""
        agent, system = describe_agent(user_agent)
        now = now_ms()
        with self.store._writing() as conn:
            conn.execute(self._upsert(browsers).values(
                id=browser_id, player_id=player_id, agent=agent, system=system,
                created_at=now, last_seen_at=now, revoked_at=None).on_conflict_do_nothing(
                index_elements=["id"]))

    def browsers(self, player_id: str) -> list[BrowserRow]:
        """The player's browsers still signed in, the last seen first."""
        q = select(browsers.c.id, browsers.c.agent, browsers.c.system, browsers.c.created_at,
                   browsers.c.last_seen_at).where(
            browsers.c.player_id == player_id, browsers.c.revoked_at.is_(None)).order_by(
            browsers.c.last_seen_at.desc(), browsers.c.id)
        with self.store.engine.connect() as conn:
            return [BrowserRow(*r) for r in conn.execute(q)]

    def sign_out(self, player_id: str, browser_id: str) -> bool:
        """Sign one of the player's browsers out (False: no such browser of theirs)."""
        with self.store._writing() as conn:
            done: int = conn.execute(update(browsers).where(
                browsers.c.id == browser_id, browsers.c.player_id == player_id,
                browsers.c.revoked_at.is_(None)).values(revoked_at=now_ms())).rowcount
        return done == 1

    def browser_valid(self, browser_id: str) -> bool:
        """Whether a browser may still use its cookie (the edge asks, at most once every few
        seconds a browser and process): not if it was signed out. A browser without a row
        was never recorded, and is. Brings ``last_seen_at`` up to date, coarsely."""
        with self.store.engine.connect() as conn:
            r = conn.execute(select(browsers.c.revoked_at, browsers.c.last_seen_at).where(
                browsers.c.id == browser_id)).first()
        if r is None:
            return True
        if r.revoked_at is not None:
            return False
        now = now_ms()
        if now - r.last_seen_at > SEEN_EVERY_MS:
            with self.store._writing() as conn:
                conn.execute(update(browsers).where(browsers.c.id == browser_id).values(
                    last_seen_at=now))
        return True

    # ------------------------------------------------------------------ codes

    def _hash(self, code: str) -> str:
        return hmac.new(self._key, code.encode(), hashlib.sha256).hexdigest()

    def make_code(self, player_id: str) -> tuple[str, int]:
        """A new code for the player (any older one of theirs stops working) and when it
        expires (ms). Codes long expired, anyone's, are removed on the way."""
        code = new_code()
        now = now_ms()
        with self.store._writing() as conn:
            self._ensure_player(conn, player_id, now)
            conn.execute(delete(sign_in_codes).where(sign_in_codes.c.player_id == player_id))
            conn.execute(delete(sign_in_codes).where(
                sign_in_codes.c.expires_at < now - CODE_LIFE_MS))
            conn.execute(insert(sign_in_codes).values(
                hash=self._hash(code), player_id=player_id, created_at=now,
                expires_at=now + CODE_LIFE_MS, used_at=None))
        return code, now + CODE_LIFE_MS

    def redeem(self, text: str, player_id: str) -> str:
        """The player a code signs in as, the code used up (by one conditional update: of
        two browsers racing with one code, one gets it). :class:`Denied` (422) for a code
        malformed, unknown, used or expired, or of the player already signed in here."""
        h = self._hash(normalise_code(text))
        now = now_ms()
        with self.store._writing() as conn:
            r = conn.execute(select(sign_in_codes.c.player_id, sign_in_codes.c.used_at,
                                    sign_in_codes.c.expires_at).where(
                sign_in_codes.c.hash == h)).first()
            if r is None:
                raise Denied(422, CODE_UNKNOWN)
            if r.used_at is not None:
                raise Denied(422, CODE_USED)
            if r.expires_at <= now:
                raise Denied(422, CODE_EXPIRED)
            if r.player_id == player_id:
                raise Denied(422, CODE_SAME_PLAYER)
            if conn.execute(update(sign_in_codes).where(
                    sign_in_codes.c.hash == h, sign_in_codes.c.used_at.is_(None)).values(
                    used_at=now)).rowcount != 1:
                raise Denied(422, CODE_USED)
        return str(r.player_id)

    # ------------------------------------------------------------------ forgetting

    def forget(self, player_id: str) -> dict[str, int]:
        """Delete everything of the player (:data:`PLAYER_DATA`: games with their moves and
        analyses, statistics, name, reports made, codes, feedback) and sign every browser of
        theirs out: the rows of its browsers stay, emptied of player and description, so
        that their cookies are refused. Rows deleted (browsers: signed out), by table.

        A browser never recorded has no row to sign out: a copy of its cookie names a player
        with nothing left (and every browser signed in with a code was recorded)."""
        now = now_ms()
        counts: dict[str, int] = {}
        with self.store._writing() as conn:
            for table, column in PLAYER_DATA:
                counts[table.name] = conn.execute(delete(table).where(
                    table.c[column] == player_id)).rowcount
            counts["browsers"] = conn.execute(update(browsers).where(
                browsers.c.player_id == player_id).values(
                player_id="", agent="", system="", revoked_at=now)).rowcount
        return counts
