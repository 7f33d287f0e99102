"""The home page's pictures: each game's opening table, as the player sees it."""

from __future__ import annotations

from collections import Counter
from importlib import resources
from xml.etree import ElementTree

import pytest

from reussite.engine import Position
from reussite.games import CATALOGUE
from reussite.web.thumbnails import DEAL, thumbnail_svg

SVG = "{http://www.w3.org/2000/svg}"
SHIPPED = resources.files("reussite.web") / "static" / "thumbnails"


@pytest.mark.parametrize("game", list(CATALOGUE))
def test_the_shipped_picture_is_what_the_module_draws(game: str) -> None:
    """``scripts/thumbnails.py`` was run after the last change to a layout or to the drawing."""
    assert (SHIPPED / f"{game}.svg").read_text(encoding="utf-8") == \
        thumbnail_svg(CATALOGUE[game])


@pytest.mark.parametrize("game", list(CATALOGUE))
def test_the_picture_shows_the_opening_face_up_cards_and_only_backs_of_the_others(
        game: str) -> None:
    rules = CATALOGUE[game]
    view = Position.deal(rules, DEAL).player_view()
    fanned = {"tableau"} if rules.tableau else {"reserve"}
    shown: list[dict[str, object]] = []
    for pile, cards in view.items():
        # A fanned pile shows every card; a squared one its top card and the one under it.
        shown += cards if pile.split(":")[0] in fanned else cards[-2:]
    root = ElementTree.fromstring(thumbnail_svg(rules))
    uses = Counter(u.get("href") for u in root.iter(f"{SVG}use"))
    up = [c for c in shown if c["up"]]
    assert uses["#b"] == len(shown) - len(up)
    assert uses["#f"] == len(up)
    # Each face-up card shows its suit twice (corner and centre), and nothing of its rank.
    suits = Counter(str(c["card"])[1] for c in up)
    assert {s: uses[f"#{s}"] for s in "SHDC" if uses[f"#{s}"]} == \
        {s: 2 * n for s, n in suits.items()}
    # Every empty pile shows its outline, but the stock of a game without one (FreeCell).
    drawn = [pile for pile in view if rules.has_stock or pile != "stock"]
    assert uses["#e"] == sum(1 for pile in drawn if not view[pile])
    assert not list(root.iter(f"{SVG}text"))
