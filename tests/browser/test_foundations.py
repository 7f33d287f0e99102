"""A foundation holding a whole suit (Spider, Astrocyte) shows its King on top, as players
expect (and as PySolFC draws it), though the view lists the suit as it lay in the tableau,
King at the bottom and Ace on top: the client draws that pile the other way up
(``drawOrder`` in ``static/js/layout.js``); the engine's order and the API stay as they are."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from reussite.engine import Move, Position
from reussite.games import get_game

from .table import Table
from .winning import winnable_spider_deal

pytestmark = pytest.mark.browser

SHOT = (Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
        / "spider-1-suit-completed-suit-1366x768.png")

# What the player sees at the middle of a pile: the card drawn there on top of the others.
SEEN = """(pile) => {
    const el = document.querySelector(`.pile[data-pile="${pile}"]`);
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return {card: hit.dataset.card ?? null, index: hit.dataset.index ?? null,
            label: hit.getAttribute('aria-label'), pile: el.getAttribute('aria-label')};
}"""


def first_suit_completed() -> tuple[int, list[Move], Move]:
    """A Spider (1 suit) deal, the moves before the first completed suit, and the move that
    completes it (a tableau move: the suit then leaves for a foundation by itself)."""
    number, line = winnable_spider_deal()
    pos = Position.deal(get_game("spider-1-suit"), number)
    for k, move in enumerate(line):
        pos.play(move)
        if pos.suits_completed:
            return number, line[:k], move
    raise AssertionError("the winning line completes no suit")


def test_a_completed_suit_shows_its_king_on_its_foundation(laptop: Any, base_url: str) -> None:
    number, before, completing = first_suit_completed()
    table = Table(laptop, base_url).open("spider-1-suit", number)
    table.play_through_api([m.to_json() for m in before])
    table.open("spider-1-suit")  # resumes that game, drawn from its view
    assert table.view()["moves"] == len(before)
    assert laptop.evaluate(SEEN, "foundation:0")["card"] is None  # empty: its outline shows
    table.play_by_clicks(completing.to_json())
    view = table.view()
    # The view keeps the engine's order: King at the bottom, Ace on top.
    assert [e["card"] for e in view["piles"]["foundation:0"]] == [
        f"{rank}S" for rank in "KQJT98765432A"]
    seen = laptop.evaluate(SEEN, "foundation:0")
    assert seen["card"] == "KS" and seen["index"] == "0"
    assert seen["label"] == "king of spades"
    assert seen["pile"].endswith(": king of spades")
    SHOT.parent.mkdir(parents=True, exist_ok=True)
    laptop.screenshot(path=str(SHOT))  # for people to look at
    # The same when the table is drawn afresh rather than after the move's animation.
    table.open("spider-1-suit")
    assert laptop.evaluate(SEEN, "foundation:0") == seen
    assert all(laptop.evaluate(SEEN, f"foundation:{i}")["card"] is None for i in range(1, 8))


def test_only_a_whole_suit_on_a_foundation_is_drawn_the_other_way_up(laptop: Any,
                                                                     base_url: str) -> None:
    """``drawOrder`` itself, run in the page: other piles, and foundations built up from an
    Ace (Klondike, Leap Year), are drawn as the view lists them."""
    laptop.goto(f"{base_url}/games/klondike")
    laptop.wait_for_selector("#game[data-version] .pile-foundation")
    up = [{"card": f"{rank}S", "up": True} for rank in "KQJT98765432A"]
    cases = {
        "whole suit": ["foundation", up],
        "built up": ["foundation", up[::-1]],
        "Klondike foundation": ["foundation", up[:-4:-1]],
        "King at the bottom of a tableau pile": ["tableau", up[:3]],
        "empty foundation": ["foundation", []],
        "face-down bottom": ["tableau", [{"card": None, "up": False}, *up[:2]]],
    }
    orders = laptop.evaluate("""async (cases) => {
        const { drawOrder } = await import('/static/js/layout.js');
        return Object.fromEntries(Object.entries(cases)
            .map(([name, [kind, cards]]) => [name, drawOrder(kind, cards)]));
    }""", cases)
    assert orders == {
        "whole suit": list(range(12, -1, -1)),
        "built up": list(range(13)),
        "Klondike foundation": [0, 1, 2],
        "King at the bottom of a tableau pile": [0, 1, 2],
        "empty foundation": [],
        "face-down bottom": [0, 1, 2],
    }
