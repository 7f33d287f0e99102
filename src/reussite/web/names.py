"""Players' display names: what a name may be, and how a player is shown to others.

A name is chosen by its player (``PUT /api/me``), at most :data:`MAX_NAME` characters once
normalised (:func:`normalise_name`), never interpreted as markup anywhere (the templates
escape it, the client sets it as text). A player without a name, or whose name the operator
hid (``reussite names hide``), is shown by an anonymous name made from a hash of its id
(:func:`anonymous_name`): never the id itself, which is the secret value of its cookie.

:func:`display_names` gives the names of many players in one query (a leaderboard's).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable
from typing import TYPE_CHECKING

from sqlalchemy import Connection, select

from reussite.web.errors import (
    NAME_ANONYMOUS,
    NAME_EMPTY,
    NAME_INVISIBLE,
    NAME_TOO_LONG,
    Denied,
)
from reussite.web.i18n import DEFAULT_LANG, LANGS, N_, translate
from reussite.web.storage import players

if TYPE_CHECKING:
    from reussite.web.storage import Store

MAX_NAME = 24
"""Characters (code points) a name holds at most, once normalised."""
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
"""Unicode categories refused in a name: controls (line breaks and tabs among them), format
characters (zero-width spaces and joiners, direction overrides), private-use, surrogates,
unassigned code points, line and paragraph separators."""
INVISIBLE = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u2800\u3164\uffa0")
"""Characters of other categories that show nothing (fillers, a blank Braille pattern, the
combining grapheme joiner, Mongolian variation selectors), refused too."""
VISIBLE_CATEGORIES = ("L", "N", "P", "S")
"""A name shows at least one letter, digit, punctuation mark or symbol."""
PLAYER_WORD = N_("Player")
"""The word of an anonymous name ("Player 3f9a2c")."""
_WORDS = "|".join(re.escape(translate(lang, PLAYER_WORD).casefold()) for lang in LANGS)
ANONYMOUS_LOOK = re.compile(rf"(?:{_WORDS}) [0-9a-f]{{6}}")
"""An anonymous name in any of the site's languages (casefolded): kept for players
without a name, so that no one takes another player's anonymous name."""


def normalise_name(text: str) -> str:
    """The name as kept and shown: NFKC-normalised (compatibility forms such as full-width
    letters and ligatures become the plain ones), its spaces each made a plain space, runs of
    them one, and none at either end. Raises :class:`Denied` (422) with the rule broken.

    >>> normalise_name("  Ｌｕｃｙ\u00a0\u00a0 ﬁ  ")
    'Lucy fi'
    """
    name = unicodedata.normalize("NFKC", text)
    if any(unicodedata.category(c) in REFUSED_CATEGORIES or c in INVISIBLE for c in name):
        raise Denied(422, NAME_INVISIBLE)
    name = " ".join(name.split())  # every space (category Zs) is one a str.split splits on
    if not any(unicodedata.category(c)[0] in VISIBLE_CATEGORIES for c in name):
        raise Denied(422, NAME_EMPTY)
    if len(name) > MAX_NAME:
        raise Denied(422, NAME_TOO_LONG, n=MAX_NAME)
    if ANONYMOUS_LOOK.fullmatch(name.casefold()):
        raise Denied(422, NAME_ANONYMOUS)
    return name


def name_key(name: str) -> str:
    """How two names are compared (a report, a hidden name): a normalised name casefolded,
    so that hiding "Bob" hides "BOB" too."""
    return name.casefold()


def anonymous_name(player_id: str, lang: str = DEFAULT_LANG) -> str:
    """The name of a player without one: "Player" and six hex digits of a hash of its id
    (stable, and telling nothing of the id)."""
    digest = hashlib.sha256(b"reussite.anonymous-name:" + player_id.encode()).hexdigest()
    return f"{translate(lang, PLAYER_WORD)} {digest[:6]}"


def shown_name(player_id: str, name: str | None, hidden: bool,
               lang: str = DEFAULT_LANG) -> str:
    """What others see of a player: its name, unless it has none or it was hidden."""
    return name if name and not hidden else anonymous_name(player_id, lang)


CHUNK = 500
"""Ids a query names at most (a list longer than this is read in several)."""


def display_names(store: Store | Connection, player_ids: Iterable[str],
                  lang: str = DEFAULT_LANG) -> dict[str, str]:
    """The name each of ``player_ids`` is shown by, in one query (one per :data:`CHUNK`
    ids); ``store`` may be an open connection instead (inside a transaction)."""
    ids = list(dict.fromkeys(player_ids))
    found: dict[str, tuple[str | None, bool]] = {}

    def read(conn: Connection) -> None:
        for start in range(0, len(ids), CHUNK):
            q = select(players.c.id, players.c.name, players.c.name_hidden).where(
                players.c.id.in_(ids[start:start + CHUNK]))
            for pid, name, hidden in conn.execute(q):
                found[pid] = (name, bool(hidden))

    if ids:
        if isinstance(store, Connection):
            read(store)
        else:
            with store.engine.connect() as conn:
                read(conn)
    return {pid: shown_name(pid, *found.get(pid, (None, False)), lang=lang) for pid in ids}


def display_name(store: Store | Connection, player_id: str, lang: str = DEFAULT_LANG) -> str:
    """The name one player is shown by (:func:`display_names`)."""
    return display_names(store, [player_id], lang)[player_id]
