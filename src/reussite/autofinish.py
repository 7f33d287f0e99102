"""Auto-finish: the line that ends a game once nothing is left to decide.

A game can be finished for the player when no card lies face down outside the stock, the
stock (if any cards are left in it) only turns cards onto the waste, and moving cards to the
foundations, clicking the stock when none can go, wins it: the line is
then the one any player would click through by hand (Klondike with every tableau card turned
up, cycling the stock until its last card goes home). Nothing here guesses or searches; a
position where a card must go elsewhere than a foundation is not finished for the player.

    >>> from reussite.engine import Position
    >>> from reussite.games import get_game
    >>> finishing_line(Position.deal(get_game("klondike"), 1)) is None
    True
"""

from __future__ import annotations

from reussite.cards import UP
from reussite.engine import STOCK_RAW, Position, RawMove
from reussite.rules import StockAction

__all__ = ["finishing_line"]


STOCK = 0
"""The stock is always the first pile (:class:`reussite.engine.Layout`)."""


def _nothing_to_decide(pos: Position) -> bool:
    """No card face down outside the stock, and a stock that only feeds the waste (a deal
    onto the tableau or the reserves changes the game: the player decides when)."""
    if pos.piles[STOCK] and pos.rules.stock.action is not StockAction.DRAW_TO_WASTE:
        return False
    return all(c & UP for i, p in enumerate(pos.piles) if i != STOCK for c in p)


def finishing_line(pos: Position, legal: list[RawMove] | None = None) -> list[RawMove] | None:
    """The moves that win ``pos`` by moves to the foundations and stock clicks alone (the
    first legal move to a foundation each time, else the stock), or None when that does not
    win, or something is left to decide (:func:`_nothing_to_decide`). ``legal``:
    ``pos.raw_moves()`` when already known."""
    if not _nothing_to_decide(pos) or pos.status(legal) != "playing":
        return None
    foundations = pos.layout.foundations
    p = pos.copy()
    raw = pos.raw_moves() if legal is None else legal
    line: list[RawMove] = []
    idle_clicks = 0
    while True:
        home = next((m for m in raw if m[1] in foundations and m[0] not in foundations),
                    None)
        if home is not None:
            idle_clicks = 0
        else:
            # A full turn of the stock and waste without a card going home: it never will.
            if STOCK_RAW not in raw or idle_clicks > len(p.piles[STOCK]) + _waste(p) + 1:
                return None
            home = STOCK_RAW
            idle_clicks += 1
        p.push_raw(home)
        line.append(home)
        if p.is_won():
            return line
        raw = p.raw_moves()


def _waste(pos: Position) -> int:
    w = pos.layout.waste
    return len(pos.piles[w]) if w >= 0 else 0
