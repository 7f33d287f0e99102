"""Languages: English, French and Russian, from gettext catalogues (Babel).

The catalogues are the ``.po`` files under ``locale/`` (committed, edited by translators).
They are read when the application starts and compiled in memory, so a fresh clone needs no
compile step. English is the source language: its texts are the message ids themselves.

The language of a request: the ``lang`` query parameter (the language links), else the
``lang`` cookie (remembered), else the browser's ``Accept-Language``, else English.
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Iterable
from functools import cache
from importlib import resources
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from starlette.requests import cookie_parser

LANGS = ("en", "fr", "ru")
DEFAULT_LANG = "en"
LANG_NAMES = {"en": "English", "fr": "Français", "ru": "Русский"}


def N_(message: str) -> str:
    """Mark a string for extraction; it is translated later, where it is shown."""
    return message


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``lang`` (English: the identity)."""
    if lang == DEFAULT_LANG:
        return gettext.NullTranslations()
    path = resources.files("reussite.web") / "locale" / lang / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as f:
        catalog = read_po(f, locale=lang)
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    return gettext.GNUTranslations(buf)


def parse_accept_language(header: str | None) -> str | None:
    """The best of our languages in an ``Accept-Language`` header, or None.

    >>> parse_accept_language("de-CH, fr-CA;q=0.8, ru;q=0.9")
    'ru'
    >>> parse_accept_language("de") is None
    True
    """
    if not header:
        return None
    best: tuple[float, int, str] | None = None
    for i, part in enumerate(header[:500].split(",")):
        fields = part.strip().split(";")
        tag = fields[0].strip().lower().split("-")[0]
        q = 1.0
        for f in fields[1:]:
            f = f.strip()
            if f.startswith("q="):
                try:
                    q = float(f[2:])
                except ValueError:
                    q = 0.0
        if tag in LANGS and q > 0 and (best is None or (q, -i) > (best[0], best[1])):
            best = (q, -i, tag)
    return best[2] if best else None


LANG_COOKIE = "reussite_lang"
"""The cookie that remembers the language a player chose (set by the pages)."""


def lang_of(headers: Iterable[tuple[bytes, bytes]], query: str | None = None) -> str:
    """The language of a request, from its raw ASGI headers: ``query`` (the ``lang`` query
    parameter, which only the pages read) if it is one of ours, else the ``reussite_lang``
    cookie, else ``Accept-Language``, else English.

    The first ``Cookie`` and ``Accept-Language`` headers count, the cookie read as browsers
    write it (Starlette's parser, which the pages' ``request.cookies`` use too)."""
    if query in LANGS:
        return str(query)
    cookie = accept = None
    for name, value in headers:
        if name == b"cookie" and cookie is None:
            cookie = value
        elif name == b"accept-language" and accept is None:
            accept = value
    if cookie is not None and b"reussite_lang" in cookie:
        chosen = cookie_parser(cookie.decode("latin-1")).get(LANG_COOKIE)
        if chosen in LANGS:
            return str(chosen)
    return parse_accept_language(None if accept is None else accept.decode("latin-1")) \
        or DEFAULT_LANG


RANK_WORDS = (N_("ace"), N_("two"), N_("three"), N_("four"), N_("five"), N_("six"),
              N_("seven"), N_("eight"), N_("nine"), N_("ten"), N_("jack"), N_("queen"),
              N_("king"))

UI_STRINGS: dict[str, str] = {
    "new_game": N_("New game"),
    "restart": N_("Restart"),
    "undo": N_("Undo"),
    "redo": N_("Redo"),
    "hint": N_("Hint"),
    "no_hint": N_("No move is possible"),
    "deal_number": N_("Deal number"),
    "moves": N_("Moves"),
    "time": N_("Time"),
    "score": N_("Score"),
    "stock": N_("Stock"),
    "waste": N_("Waste"),
    "foundation": N_("Foundation"),
    "cell": N_("Cell"),
    "reserve": N_("Reserve"),
    "tableau": N_("Tableau"),
    "face_down": N_("face-down card"),
    "empty": N_("empty"),
    "won": N_("You won!"),
    "lost": N_("No move is left: this game is lost"),
    "stuck": N_("No useful move seems left"),
    "play_again": N_("Play again"),
    "settings": N_("Settings"),
    "four_colours": N_("Four-colour suits"),
    "left_handed": N_("Left-handed layout"),
    "animation": N_("Animations"),
    "speed_off": N_("off"),
    "speed_fast": N_("fast"),
    "speed_normal": N_("normal"),
    "speed_slow": N_("slow"),
    "auto_collect": N_("Collect cards to the foundations automatically"),
    "winnable_only": N_("Only deals known to be winnable"),
    # TRANSLATORS: how a card is named for screen readers, e.g. "seven of hearts".
    "card_name": N_("{rank} of {suit}"),
    **{f"rank_{i + 1}": w for i, w in enumerate(RANK_WORDS)},
    "suit_S": N_("spades"),
    "suit_H": N_("hearts"),
    "suit_D": N_("diamonds"),
    "suit_C": N_("clubs"),
    "redeals_left": N_("Redeals left"),
    "cards_left": N_("Cards left"),
    "scoring": N_("Scoring"),
    "scoring_off": N_("none"),
    "scoring_standard": N_("standard"),
    "scoring_vegas": N_("Vegas"),
    # TRANSLATORS: the status bar's label before the Vegas score, e.g. "Vegas -27".
    "score_vegas": N_("Vegas score"),
}


def ui_strings(lang: str) -> dict[str, str]:
    """The browser client's texts in ``lang`` (keys of docs/web-contract.md)."""
    t = translations(lang)
    return {key: t.gettext(text) for key, text in UI_STRINGS.items()}


PILE_WORDS = {"stock": N_("the stock"), "waste": N_("the waste"),
              "tableau": N_("tableau pile {n}"), "foundation": N_("foundation {n}"),
              "cell": N_("cell {n}"), "reserve": N_("reserve pile {n}")}

DIFFICULTY = {"easy": N_("easy"), "medium": N_("medium"), "difficult": N_("difficult"),
              "hard": N_("hard"), "very hard": N_("very hard")}


def pile_words(lang: str, pile_id: str) -> str:
    """``tableau:3`` as a player reads it: "tableau pile 4" (counted from 1)."""
    kind, _, n = pile_id.partition(":")
    t = translations(lang)
    pattern = t.gettext(PILE_WORDS.get(kind, pile_id))
    return pattern.format(n=int(n) + 1) if n.isdigit() else pattern


HINT_REASONS = {
    "undo_or_deal": N_("No useful move: undo, or deal"),
    "undo": N_("No useful move: undo"),
    "cannot_win": N_("This game cannot be won any more from here"),
}
"""Why a hint has no move (:class:`reussite.solver.hints.Hint`), as the player reads it."""


def move_sentence(lang: str, move: dict[str, Any] | None, reason: str | None = None) -> str:
    """A hint as a sentence: "Move 2 cards from tableau pile 1 to tableau pile 5"; without a
    move, why (``reason``: a key of :data:`HINT_REASONS`)."""
    t = translations(lang)
    if move is None:
        return t.gettext(HINT_REASONS.get(reason or "", "No move is possible"))
    if move["type"] == "stock":
        return t.gettext("Click the stock")
    return t.ngettext("Move {count} card from {src} to {dst}",
                      "Move {count} cards from {src} to {dst}", move["count"]).format(
        count=move["count"], src=pile_words(lang, move["from"]),
        dst=pile_words(lang, move["to"]))


REFUSALS = (
    # The engine's sentences for a refused move (reussite.engine, why_illegal and the stock's
    # refusals): translated when shown to a player; tests/web/test_i18n.py keeps this list whole.
    N_("A card cannot move onto its own pile"),
    N_("A card covered by another card cannot move"),
    N_("A card goes onto a card one rank higher"),
    N_("A card goes onto the waste one rank above or below its top card"),
    N_("A card goes onto the waste one rank above or below its top card (a King on an Ace, an"
       " Ace on a King)"),
    N_("A card in a cell can never go to a foundation"),
    N_("A cell holds a single card"),
    N_("A completed suit goes onto an empty foundation"),
    N_("A face-down card cannot move"),
    N_("A foundation builds up in suit"),
    N_("A foundation builds up one rank at a time, from Ace to King"),
    N_("A foundation's card may come back to the tableau, not to a foundation"),
    N_("A reserve card may only go to a foundation"),
    N_("An empty foundation takes only an Ace"),
    N_("At least one card must move"),
    N_("Build down in alternating colours: red on black, black on red"),
    N_("Build down in suit"),
    N_("Cards cannot be taken from the stock: click it to deal"),
    N_("Cards go onto the waste one at a time"),
    N_("Cards go to a foundation one at a time"),
    N_("Cards move one at a time in this game"),
    N_("Cards never come back from a foundation"),
    N_("Cards never move between reserve piles"),
    N_("Completed suits go to the foundations by themselves"),
    N_("Dealing is not allowed while a pile is empty"),
    N_("Every reserve pile is empty: there is no pile left to deal onto"),
    N_("No redeal is left: the stock cannot be formed again"),
    N_("Not enough free cells and empty piles to move that many cards at once"),
    N_("Nothing builds on an Ace (a King never goes on an Ace)"),
    N_("Nothing can be placed in a space in this game"),
    N_("Nothing is ever built on a reserve pile"),
    N_("Nothing is ever built on the tableau in this game"),
    N_("Only a King or a run led by a King can fill a space"),
    N_("Only a complete same-suit run from King down to Ace goes to a foundation"),
    N_("Only a run in alternating colours can move as a unit"),
    N_("Only a same-suit run can move as a unit"),
    N_("Only a tableau pile's top card may go onto the waste"),
    N_("Only one card at a time can move from there"),
    N_("Single cards never go to a foundation: only a complete suit from King to Ace"),
    N_("That cell is not empty"),
    N_("That foundation is complete"),
    N_("That move is not allowed"),
    N_("The stock and the waste are both empty"),
    N_("The stock cannot be clicked now"),
    N_("The stock is empty"),
    N_("The waste is empty: turn a card from the stock first"),
    N_("There are no reserve cards to gather"),
    N_("This game has no stock"),
    # The server's own refusals.
    N_("There is no move to undo"),
    N_("There is no move to redo"),
)


def translate(lang: str, sentence: str) -> str:
    """A known sentence in ``lang``; any other sentence as it is (English)."""
    return translations(lang).gettext(sentence)
