"""Every game of the catalogue, in the browser: deal from the stock (where there is one), a
move by drag and drop, a move by click-click, a move from the keyboard, undo and redo, and the
rule's sentence after an illegal drop."""

from __future__ import annotations

from typing import Any

import pytest

from reussite.engine import Position
from reussite.games import CATALOGUE, get_game

from .table import Table, board_moves, piles_of

pytestmark = pytest.mark.browser

def opening_number(game: str) -> int:
    """A deal whose opening allows a stock click (where the game has a stock) and two board
    moves (most deals do)."""
    rules = get_game(game)
    for number in range(1, 500):
        moves = Position.deal(rules, number).legal_moves()
        if (not rules.has_stock or any(m.kind == "stock" for m in moves)) \
                and sum(m.kind == "move" for m in moves) >= 2:
            return number
    raise AssertionError(f"no suitable deal for {game}")


def lengths(view: dict[str, Any]) -> dict[str, int]:
    return {p: len(c) for p, c in piles_of(view).items()}


def expect_played(before: dict[str, Any], after: dict[str, Any], move: dict[str, Any]) -> None:
    """The move landed: its cards left the source and reached the destination (a Spider suit
    completed by the move may leave for a foundation at once: counted with the foundations)."""
    b, a = lengths(before), lengths(after)
    assert after["moves"] == before["moves"] + 1
    assert a[move["from"]] == b[move["from"]] - move["count"]
    if not move["to"].startswith("tableau") or a[move["to"]] == b[move["to"]] + move["count"]:
        assert a[move["to"]] == b[move["to"]] + move["count"]
    else:
        gained = sum(a[p] - b[p] for p in a if p.startswith("foundation"))
        assert gained == 13


def an_illegal_move(view: dict[str, Any]) -> dict[str, Any]:
    """A one-card move from a face-up top card to a pile that does not take it now."""
    piles = piles_of(view)
    legal = view["legal_moves"]
    kinds = ("tableau", "reserve", "waste", "cell")
    for src, cards in piles.items():
        if not src.startswith(kinds) or not cards or not cards[-1]["up"]:
            continue
        for dst in piles:
            if dst == src or not dst.startswith(("tableau", "foundation", "cell")):
                continue
            move = {"type": "move", "from": src, "to": dst, "count": 1}
            if move not in legal:
                return move
    raise AssertionError("no illegal move found")


@pytest.mark.parametrize("game", list(CATALOGUE))
def test_a_game_is_played_with_every_gesture(laptop: Any, base_url: str, game: str) -> None:
    table = Table(laptop, base_url).open(game, opening_number(game))
    stock = table.pile("stock")
    after = table.view()
    if get_game(game).has_stock:
        # Deal from the stock with a click.
        before = after
        table.click_stock()
        table.wait_version(before["version"] + 1)
        after = table.view()
        assert len(after["piles"]["stock"]) < len(before["piles"]["stock"])
        assert stock.locator(".count").inner_text() == str(len(after["piles"]["stock"]) or "")
    else:
        # No stock is drawn, nor counted.
        assert not stock.is_visible()
        assert laptop.locator(".stat-redeals").inner_text() == ""

    # A move by drag and drop (deal again if the stock left no board move).
    while not board_moves(after):
        table.click_stock()
        table.wait_version(after["version"] + 1)
        after = table.view()
    move = board_moves(after)[0]
    table.drag(move["from"], move["count"], move["to"])
    table.wait_version(after["version"] + 1)
    dragged = table.view()
    expect_played(after, dragged, move)

    # A move by click-click.
    while not board_moves(dragged):
        table.click_stock()
        table.wait_version(dragged["version"] + 1)
        dragged = table.view()
    move = board_moves(dragged)[-1]
    table.click_move(move)
    table.wait_version(dragged["version"] + 1)
    clicked = table.view()
    expect_played(dragged, clicked, move)

    # A move from the keyboard.
    while not board_moves(clicked):
        table.click_stock()
        table.wait_version(clicked["version"] + 1)
        clicked = table.view()
    move = board_moves(clicked)[0]
    laptop.focus(".pile[tabindex='0']")
    table.key_move(move)
    table.wait_version(clicked["version"] + 1)
    keyed = table.view()
    expect_played(clicked, keyed, move)
    dragged, clicked = clicked, keyed

    # Undo and redo, with the buttons.
    laptop.click("button[data-action=undo]")
    table.wait_version(clicked["version"] + 1)
    assert table.view()["piles"] == dragged["piles"]
    laptop.click("button[data-action=redo]")
    table.wait_version(clicked["version"] + 2)
    redone = table.view()
    assert redone["piles"] == clicked["piles"]

    # An illegal drop springs back and shows the server's sentence.
    bad = an_illegal_move(redone)
    sentence = laptop.evaluate(
        "([m, v]) => fetch('/api/games/' + document.querySelector('#game').dataset.gameUid"
        " + '/moves', {method: 'POST', headers: {'Content-Type': 'application/json'},"
        " body: JSON.stringify({move: m, version: v})}).then(r => r.json())",
        [bad, redone["version"]])["detail"]
    table.drag(bad["from"], 1, bad["to"])
    laptop.wait_for_selector(".toast.show")
    table.settle()
    assert table.toast() == sentence
    assert table.view()["version"] == redone["version"]
    top = table.card(bad["from"], len(redone["piles"][bad["from"]]) - 1)
    assert top.evaluate("c => c.style.transform") == ""
