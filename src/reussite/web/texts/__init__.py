"""The rules text shown on each game's page, as HTML fragments in English, French and Russian.

One file per game and language sits next to this module: ``<game-id>.<lang>.html`` (for example
``astrocyte.fr.html``). A fragment has no ``<html>`` or ``<body>``, no scripts, no styles and no
attributes: an introduction paragraph naming the game's difficulty, then ``<h2>`` sections whose
titles are :data:`SECTION_TITLES`, in the order of :func:`sections_for`.

>>> rules_html("athena", "en").startswith("<p>")
True
>>> rules_html("athena", "de") == rules_html("athena", "en")   # no German text: English
True
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable

from reussite.games import get_game
from reussite.rules import GameRules

LANGUAGES = ("en", "fr", "ru")
"""The languages every game's text is written in."""

DEFAULT_LANGUAGE = "en"

SECTION_TITLES: dict[str, dict[str, str]] = {
    "layout": {"en": "Layout and deal", "fr": "Mise en place", "ru": "Расклад"},
    "foundations": {"en": "Foundations", "fr": "Fondations", "ru": "Базовые стопки"},
    "cells": {"en": "Cells", "fr": "Cellules", "ru": "Ячейки"},
    "reserve": {"en": "Reserve", "fr": "Réserve", "ru": "Резерв"},
    "tableau": {"en": "Tableau", "fr": "Tableau", "ru": "Табло"},
    "stock": {"en": "Stock", "fr": "Pioche", "ru": "Колода"},
    "stock_waste": {"en": "Stock and waste", "fr": "Pioche et défausse", "ru": "Колода и сброс"},
    "winning": {"en": "Winning", "fr": "Comment gagner", "ru": "Как выиграть"},
    "tips": {"en": "Tips", "fr": "Conseils", "ru": "Советы"},
}
"""The ``<h2>`` title of each section, by section and language."""

_LANG_CODE = re.compile(r"[a-z]{2,3}")


def sections_for(rules: GameRules) -> list[str]:
    """The sections a game's text has, in order: cells and reserve only where the game has them.

    >>> sections_for(get_game("leap-year"))
    ['layout', 'foundations', 'reserve', 'stock', 'winning', 'tips']
    """
    sections = ["layout", "foundations"]
    if rules.cells:
        sections.append("cells")
    if rules.reserve is not None:
        sections.append("reserve")
    if rules.tableau is not None:
        sections.append("tableau")
    sections.append("stock_waste" if rules.has_waste else "stock")
    sections += ["winning", "tips"]
    return sections


def _fragment(game_id: str, lang: str) -> Traversable:
    return resources.files(__name__) / f"{game_id}.{lang}.html"


def has_text(game_id: str, lang: str) -> bool:
    """Whether the game's rules are written in this language (no fallback)."""
    return bool(_LANG_CODE.fullmatch(lang)) and _fragment(game_id, lang).is_file()


def rules_html(game_id: str, lang: str) -> str:
    """The rules of a game as an HTML fragment, in ``lang`` or else in English.

    Raises :class:`reussite.games.UnknownGameError` (a ``ValueError``) for a game that is not
    in the catalogue, and :class:`FileNotFoundError` if the catalogue has a game without text.
    """
    get_game(game_id)
    return _read(game_id, lang if has_text(game_id, lang) else DEFAULT_LANGUAGE)


@cache
def _read(game_id: str, lang: str) -> str:
    path = _fragment(game_id, lang)
    if not path.is_file():
        raise FileNotFoundError(f"The game {game_id!r} has no rules text ({game_id}.{lang}.html)")
    return path.read_text(encoding="utf-8")
