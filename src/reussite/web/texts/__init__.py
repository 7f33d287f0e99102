"""The rules text shown on each game's page, as HTML fragments in English, French and Russian.

One file per game and language sits next to this module: ``<game-id>.<lang>.html`` (for example
``astrocyte.fr.html``). A fragment has no ``<html>`` or ``<body>``, no scripts, no styles and no
attributes: an introduction paragraph naming the game's difficulty, then ``<h2>`` sections whose
titles are :data:`SECTION_TITLES`, in the order of :func:`sections_for`.

Variants of one game share one text per language: ``families/<family>.<lang>.html`` holds the
rules they have in common, with Jinja ``{% block %}`` slots where they differ, and each variant's
own file is ``{% extends "families/<family>.<lang>.html" %}`` followed by its blocks (Spider in
4, 2 and 1 suits; Klondike drawing 1 and 3; Leap Year and Quadrennial). Every file goes through
Jinja (no autoescape: the texts are ours), so a variant's text reads as one fragment like any
other; see :func:`check_blocks` for what a variant must fill.

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

from jinja2 import BaseLoader, Environment, FunctionLoader, StrictUndefined, nodes

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
    """The sections a game's text has, in order: foundations, cells and reserve only where the
    game has them.

    >>> sections_for(get_game("leap-year"))
    ['layout', 'foundations', 'reserve', 'stock', 'winning', 'tips']
    >>> sections_for(get_game("golf"))
    ['layout', 'tableau', 'stock_waste', 'winning', 'tips']
    """
    sections = ["layout"]
    if rules.foundations.count:
        sections.append("foundations")
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


class TextError(ValueError):
    """A variant's rules text that writes a block its family text does not have."""


def _source(name: str) -> str | None:
    path = resources.files(__name__).joinpath(*name.split("/"))
    return path.read_text(encoding="utf-8") if path.is_file() else None


@cache
def _environment() -> Environment:
    return Environment(loader=FunctionLoader(_source), autoescape=False,
                       undefined=StrictUndefined, trim_blocks=True, keep_trailing_newline=True)


def check_blocks(env: Environment, name: str) -> None:
    """Check that a variant writes only blocks its family text has; a text that extends none
    passes. (Jinja would drop a misspelt block silently. The parts every variant must say, its
    deck or how many cards it draws, are ``required`` blocks: Jinja refuses to render a
    variant that leaves one out.)

    >>> from jinja2 import DictLoader
    >>> env = Environment(loader=DictLoader({"family": "<p>{% block deck %}{% endblock %}</p>",
    ...     "variant": "{% extends 'family' %}{% block dek %}2 suits{% endblock %}"}))
    >>> check_blocks(env, "variant")
    Traceback (most recent call last):
    reussite.web.texts.TextError: variant writes a block 'dek' that family does not have
    """
    loader: BaseLoader | None = env.loader
    assert loader is not None
    tree = env.parse(loader.get_source(env, name)[0])
    parents = [e.template.value for e in tree.find_all(nodes.Extends)
               if isinstance(e.template, nodes.Const)]
    if not parents:
        return
    family = str(parents[0])
    family_blocks = {b.name for b in env.parse(loader.get_source(env, family)[0])
                     .find_all(nodes.Block)}
    for block in sorted({b.name for b in tree.find_all(nodes.Block)} - family_blocks):
        raise TextError(f"{name} writes a block {block!r} that {family} does not have")


@cache
def _read(game_id: str, lang: str) -> str:
    name = f"{game_id}.{lang}.html"
    if not _fragment(game_id, lang).is_file():
        raise FileNotFoundError(f"The game {game_id!r} has no rules text ({name})")
    env = _environment()
    check_blocks(env, name)
    return env.get_template(name).render()
