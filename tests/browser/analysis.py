"""A game given up on the table, ready to be analysed: for the analysis's browser test and its
screenshots (``scripts/screenshots.py``)."""

from __future__ import annotations

from functools import cache
from typing import Any

from helpers import lost_on_purpose

from .table import Table

GAME = "klondike"
NUMBER = 1


@cache
def losing_game() -> tuple[list[dict[str, Any]], int]:
    """Klondike deal 1 played as the solver wins it, then thrown away by one move (the solver
    proves the position after it lost), then a few moves more: the moves (as the API takes
    them) and the number of the losing move (from 1)."""
    pos, line, losing = lost_on_purpose(GAME, NUMBER, start=6, more=4)
    here = pos.copy()
    moves = []
    for raw in line:
        moves.append(here.to_move(raw).to_json())
        here.push_raw(raw)
    return moves, losing


def given_up(page: Any, base_url: str) -> tuple[Table, int]:
    """Deal the game, play its moves, reload the page and give the game up through the
    toolbar (its confirmation answered): the table, and the number of the losing move."""
    moves, losing = losing_game()
    table = Table(page, base_url).open(GAME, NUMBER)
    table.play_through_api(moves)
    page.reload()
    page.wait_for_selector("#game[data-version] .pile-foundation")
    table.settle()
    assert table.view()["moves"] == len(moves)
    page.click("button[data-action=give_up]")
    page.click("dialog.confirm[open] button[value=yes]")
    page.wait_for_function("() => document.querySelector('#game').dataset.status === 'lost'")
    table.settle()
    return table, losing


def open_analysis(page: Any) -> None:
    """Ask for the analysis from the banner and wait for its panel."""
    page.click(".banner .btn-analyse")
    page.wait_for_selector(".analysis:not([hidden])[data-at]", timeout=90_000)
    page.wait_for_function("() => document.querySelector('#game').dataset.busy === '0'"
                           " && !document.getAnimations().some(a => a.playState === 'running')")
