"""What a game action's failure answers: a status, one readable sentence, and its headers.

The FastAPI application's exception handlers (:mod:`reussite.web.app`) and the hot path
(:mod:`reussite.web.fast`) both answer these exceptions through :func:`failure`, so the two
say the same thing in the same bytes.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from reussite.games import UnknownGameError, get_game
from reussite.web.days import today
from reussite.web.i18n import N_, lang_of, translate
from reussite.web.play import Conflict, NotFound, NotPrepared, Over, Refused
from reussite.web.storage import Unavailable

log = logging.getLogger("reussite.web")

UNAVAILABLE = (Unavailable, DBAPIError, PoolTimeout, sqlite3.OperationalError)
"""The database cannot be reached, or stays busy: 503, to be tried again."""


class Denied(Exception):
    """A request about the player's identity refused: ``status`` and one of the sentences
    below (translated, then its ``{placeholders}`` filled from ``values``)."""

    def __init__(self, status: int, sentence: str, retry_after: int | None = None,
                 **values: Any) -> None:
        super().__init__(sentence)
        self.status = status
        self.sentence = sentence
        self.retry_after = retry_after
        self.values = values


NAME_EMPTY = N_("A name needs at least one letter, digit or sign")
NAME_TOO_LONG = N_("A name has at most {n} characters")
NAME_INVISIBLE = N_("A name cannot hold control characters, invisible characters or line"
                    " breaks")
NAME_ANONYMOUS = N_("Names like this one are kept for players without a name: choose another")
NAME_HIDDEN = N_("This name has been hidden by the site: choose another one")
NAME_NOT_SHOWN = N_("No player shows this name")
CODE_MALFORMED = N_("A code has 12 letters and digits, as shown on your other device")
CODE_UNKNOWN = N_("This code is not known: check it and type it again")
CODE_USED = N_("This code has been used already: make a new one on your other device")
CODE_EXPIRED = N_("This code has expired: make a new one on your other device")
CODE_SAME_PLAYER = N_("This browser is signed in as this player already")
CODE_GUESSES = N_("Too many codes tried from this address: try again in {minutes} min")
BROWSER_THIS = N_("This is the browser you are using: it cannot sign itself out here")
BROWSER_UNKNOWN = N_("No such browser among yours")

ERRORS = (UnknownGameError, NotFound, Conflict, Refused, NotPrepared, Denied, *UNAVAILABLE)
"""What an action may raise that has an answer of its own (a 4xx, or a 503)."""


@dataclass(frozen=True, slots=True)
class Failure:
    """An error's answer: ``{"detail": sentence}`` with this status and these headers."""

    status: int
    detail: str
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def body(self) -> bytes:
        """The JSON body, written as Starlette's ``JSONResponse`` writes it."""
        return json.dumps({"detail": self.detail}, ensure_ascii=False, allow_nan=False,
                          indent=None, separators=(",", ":")).encode()


OVER = {
    "abandoned": N_("This game is over: it was abandoned when another game was dealt"),
    "resigned": N_("This game is over: it was given up"),
    "sealed": N_("This game is over: its analysis has shown every card"),
    "ended": N_("This game is over already"),
}
"""Why a game takes no more actions (:class:`~reussite.web.play.Over`), as a sentence."""

PREPARING = N_("Today's deal of {game} is being prepared; try again in a few seconds")
PREPARING_PAST = N_("The deal of {game} of {day} is being prepared; try again in a few "
                    "seconds")
PREPARING_RETRY = "5"
"""Seconds a player waits before asking for a day's deal being prepared again."""
DAILY_IN_PLAY = N_("The analysis of a daily deal opens once its day is over")
"""The analysis of a daily game while its day runs (it would show the day's deal)."""


def failure(e: BaseException, headers: Iterable[tuple[bytes, bytes]]) -> Failure:
    """The answer to one of :data:`ERRORS`; ``headers`` are the request's raw headers (a
    refusal is said in the player's language, :func:`~reussite.web.i18n.lang_of`)."""
    if isinstance(e, Denied):
        sentence = translate(lang_of(headers), e.sentence)
        return Failure(e.status, sentence.format(**e.values) if e.values else sentence,
                       {} if e.retry_after is None else {"retry-after": str(e.retry_after)})
    if isinstance(e, NotFound):
        return Failure(404, "No such game")
    if isinstance(e, Over):
        return Failure(409, translate(lang_of(headers), OVER.get(e.why, OVER["ended"])))
    if isinstance(e, Conflict):
        return Failure(409, "The game has changed since this version: reload it")
    if isinstance(e, NotPrepared):
        lang = lang_of(headers)
        name = get_game(e.game).names.get(lang, e.game)
        sentence = PREPARING if e.day == today() else PREPARING_PAST
        return Failure(503, translate(lang, sentence).format(game=name, day=e.day),
                       {"retry-after": PREPARING_RETRY})
    if isinstance(e, UnknownGameError | Refused):
        # The rules' sentences are in the catalogues; a sentence that is not (an unknown
        # game's, a new game's refusal) stays as it is.
        return Failure(422, translate(lang_of(headers), str(e)))
    log.warning("database unavailable: %s", type(e).__name__)
    return Failure(503, translate(lang_of(headers),
                                  N_("The database is briefly unavailable: try again")),
                   {"retry-after": "2"})
