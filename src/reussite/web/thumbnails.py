"""The home page's pictures: each game's opening table as a small SVG.

Drawn from the engine's own opening position of one deal (:data:`DEAL`), as the player sees
it (:meth:`Position.player_view`: a face-down card is a back, with nothing of its identity),
and laid out as the table lays it out: the stock, the waste, cells and stacked reserves on
the left of the top row, the foundations on the right (eight to a line), then the fanned
reserves or the tableau, each pile fanned downwards (piles that cover others, TriPeaks' peaks,
overlap as on the table: :func:`peak_places`). Face-up cards show their suit, not their
rank: a picture is the same in every language.

``scripts/thumbnails.py`` writes them to ``static/thumbnails/<game>.svg``, where the server
serves them with a content hash and a year's cache (``reussite.web.assets``);
``tests/web/test_thumbnails.py`` checks the shipped files are what this module draws today.
"""

from __future__ import annotations

from typing import Any

from reussite.engine import Position
from reussite.rules import GameRules

DEAL = 1
"""The deal every picture shows."""

W, H, GAP = 20, 28, 4
"""A card's width and height and the gap between piles, in the picture's units."""
DOWN_STEP, UP_STEP = 3, 7
"""How far down a fanned pile shows the next card, after a face-down and a face-up card."""
FOUNDATIONS_A_LINE = 8
FELT = "#1f6b45"
BACK = "#2d4fa0"
INK = {"S": "#1d1d1f", "H": "#c8102e", "D": "#c8102e", "C": "#1d1d1f"}

# The suits in a 10×10 box: simple shapes that read at a few pixels.
SUIT_SHAPES = {
    "S": "M5 0C3.6 2.2 0 3.9 0 6.3c0 1.6 1.2 2.5 2.4 2.5.7 0 1.3-.3 1.9-.9L3.6 10h2.8L5.7 7.9"
         "c.6.6 1.2.9 1.9.9C8.8 8.8 10 7.9 10 6.3 10 3.9 6.4 2.2 5 0z",
    "H": "M5 10C2.2 7.4 0 5.4 0 3.1 0 1.3 1.3 0 2.8 0 3.8 0 4.6.6 5 1.5 5.4.6 6.2 0 7.2 0"
         "C8.7 0 10 1.3 10 3.1 10 5.4 7.8 7.4 5 10z",
    "D": "M5 0 9 5 5 10 1 5z",
    "C": "M5 0a2.3 2.3 0 0 0-2 3.5A2.3 2.3 0 1 0 4.6 7.4L3.9 10h2.2L5.4 7.4A2.3 2.3 0 1 0 7 3.5"
         "A2.3 2.3 0 0 0 5 0z",
}


def _card(x: int, y: int, entry: dict[str, Any]) -> str:
    if not entry["up"]:
        return f'<use href="#b" x="{x}" y="{y}"/>'
    suit = entry["card"][1]
    return (f'<use href="#f" x="{x}" y="{y}"/><use href="#{suit}" x="{x + 2}" y="{y + 2}"'
            f' width="5" height="5"/><use href="#{suit}" x="{x + 5}" y="{y + 11}"'
            f' width="10" height="10"/>')


def _place(x: int, y: int) -> str:
    return f'<use href="#e" x="{x}" y="{y}"/>'


def _pile(x: int, y: int, cards: list[dict[str, Any]], fanned: bool) -> tuple[str, int]:
    """A pile's drawing and its bottom edge."""
    if not cards:
        return _place(x, y), y + H
    if not fanned:  # squared: its top card, on a hint of the ones below
        under = _card(x + 1, y + 1, cards[-2]) if len(cards) > 1 else ""
        return under + _card(x, y, cards[-1]), y + H
    parts = []
    top = y
    for i, c in enumerate(cards):
        parts.append(_card(x, top, c))
        if i < len(cards) - 1:
            top += UP_STEP if c["up"] else DOWN_STEP
    return "".join(parts), top + H


def peak_places(covers: tuple[tuple[int, ...], ...]) -> tuple[int, int, list[tuple[float, int]]]:
    """Where tableau piles that cover others lie (as layout.js ``peakPlaces``): the open piles
    side by side (``x`` in card steps), each covered pile centred over the piles covering it and
    half a card higher (``row`` from the top, in half cards); with the open piles' count and the
    half-card rows from top to bottom."""
    x: dict[int, float] = {}
    depth: dict[int, int] = {}
    cols = 0
    for i, c in enumerate(covers):
        if not c:
            x[i], depth[i] = cols, 0
            cols += 1

    def place(i: int) -> None:
        if i not in depth:
            for j in covers[i]:
                place(j)
            x[i] = sum(x[j] for j in covers[i]) / len(covers[i])
            depth[i] = 1 + max(depth[j] for j in covers[i])

    for i in range(len(covers)):
        place(i)
    rows = max(depth.values(), default=0)
    return cols, rows, [(x[i], rows - depth[i]) for i in range(len(covers))]


def thumbnail_svg(rules: GameRules) -> str:
    """The opening table of :data:`DEAL` of a game, as an SVG document."""
    view = Position.deal(rules, DEAL).player_view()
    of = {kind: [p for p in view if p.split(":")[0] == kind]
          for kind in ("stock", "waste", "foundation", "cell", "reserve", "tableau")}
    fan_reserves = not of["tableau"]
    stock = of["stock"] if rules.has_stock else []  # as the table: no stock, none shown
    left = stock + of["waste"] + of["cell"] + ([] if fan_reserves else of["reserve"])
    fans = of["reserve"] if fan_reserves else of["tableau"]
    covers = rules.tableau.covers if rules.tableau else ()
    peaks = peak_places(covers) if covers else None
    fan_cols = peaks[0] if peaks else len(fans)
    found = of["foundation"]
    f_cols = min(len(found), FOUNDATIONS_A_LINE)
    step = W + GAP
    # The top row keeps a card's room between its two sides; when it would be wider than the
    # piles below, the foundations take a line of their own, as on the table.
    top_cols = len(left) + f_cols + (1 if left and found else 0)
    own_line = bool(fans) and top_cols > fan_cols
    cols = max(len(left), f_cols, fan_cols) if own_line else max(top_cols, fan_cols)
    width = cols * step + GAP
    parts = []
    for i, pile in enumerate(left):
        parts.append(_pile(GAP + i * step, GAP, view[pile], False)[0])
    f_top = GAP + (H + GAP if own_line and left else 0)
    f_lines = -(-len(found) // FOUNDATIONS_A_LINE) if found else 0
    for i, pile in enumerate(found):
        line, col = divmod(i, FOUNDATIONS_A_LINE)
        x = width - (f_cols - col) * step
        parts.append(_pile(x, f_top + line * (H + GAP), view[pile], False)[0])
    fans_top = max(GAP + H + GAP, f_top + f_lines * (H + GAP)) + GAP
    fans_left = (width - fan_cols * step + GAP) // 2
    bottom = fans_top
    if peaks:  # the piles overlap, the lower rows drawn over the upper ones
        for pile, (px, row) in zip(fans, peaks[2], strict=True):
            if view[pile]:
                parts.append(_card(round(fans_left + px * step), fans_top + row * H // 2,
                                   view[pile][-1]))
        bottom = fans_top + peaks[1] * H // 2 + H
    for i, pile in enumerate([] if peaks else fans):
        drawing, end = _pile(fans_left + i * step, fans_top, view[pile], True)
        parts.append(drawing)
        bottom = max(bottom, end)
    height = bottom + GAP
    symbols = "".join(f'<symbol id="{s}" viewBox="0 0 10 10"><path fill="{INK[s]}"'
                      f' d="{d}"/></symbol>' for s, d in SUIT_SHAPES.items())
    # A back, a face's blank and an empty place, drawn once and used by every card.
    card = f'width="{W}" height="{H}" rx="2"'
    symbols += (f'<symbol id="b" overflow="visible"><rect {card} fill="{BACK}" stroke="#fff"'
                f' stroke-width="1.2"/></symbol>'
                f'<symbol id="f" overflow="visible"><rect {card} fill="#fffdf8" stroke="#0003"'
                f' stroke-width=".6"/></symbol>'
                f'<symbol id="e" overflow="visible"><rect {card} fill="#0002" stroke="#fff4"'
                f'/></symbol>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}"'
            f' width="{width:g}" height="{height:g}">'
            f"<defs>{symbols}</defs>"
            f'<rect width="{width:g}" height="{height:g}" fill="{FELT}"/>'
            f'{"".join(parts)}</svg>\n')
