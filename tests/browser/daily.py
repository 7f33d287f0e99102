"""A daily deal won through the page, for the daily deal's browser test and its screenshots
(``scripts/screenshots.py``): the solver's line, read from the site's database (the deal is
secret while its day runs: only the server knows it), played by clicks."""

from __future__ import annotations

import time
from typing import Any

from . import live
from .table import Table

GAME = "klondike"


def daily_line(game: str = GAME, timeout: float = 180) -> list[dict[str, Any]]:
    """Today's deal of ``game``, as the server prepared it: its winning moves (waiting while
    the server's job tier prepares it, as it does at start)."""
    from reussite.web import daily
    from reussite.web.days import today
    from reussite.web.play import decode_move
    from reussite.web.storage import Store

    if live.database is None:
        raise LookupError("the site's database is not known (REUSSITE_BROWSER_BASE_URL)")
    store = Store(live.database)
    try:
        deadline = time.monotonic() + timeout
        while (found := daily.stored(store, game, today())) is None:
            if time.monotonic() > deadline:
                raise TimeoutError(f"today's deal of {game} was not prepared")
            time.sleep(0.5)
    finally:
        store.dispose()
    return [decode_move(m).to_json() for m in found.line]


def win_daily(page: Any, base_url: str, game: str = GAME) -> Table:
    """Open /daily, follow the game's link, win today's deal by clicks, and wait until the
    leaderboard shows the player's row."""
    moves = daily_line(game)
    page.goto(f"{base_url}/daily")
    page.click(f'.daily-games li[data-game="{game}"] > a')
    page.wait_for_selector("#game[data-daily][data-version] .pile", timeout=120_000)
    table = Table(page, base_url)
    table.settle()
    assert table.view()["ranked"]
    for move in moves:
        if page.locator(".finish-offer").is_visible():
            # Nothing is left to decide: the offer (which may cover the cards) finishes it.
            page.click(".finish-offer button")
            break
        table.play_by_clicks(move)
    page.wait_for_function("() => document.querySelector('#game').dataset.status === 'won'")
    table.settle()
    page.wait_for_selector("section.daily-board tr.you")
    return table
