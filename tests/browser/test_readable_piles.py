"""Tall piles stay readable: each covered face-up card keeps its corner index (rank and suit)
whole and at least 12 CSS pixels tall, on a laptop and on a phone; the face-down cards close up
first, then the face-up ones down to their index, then the cards get smaller."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .table import Table
from .winning import tallest_moment

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
SIZES = [LAPTOP, PHONE]
IDS = ["laptop", "phone"]

# Every fanned pile, every covered face-up card: its index box (.index), the top of the card
# that covers it, and where the pile's last card ends.
GEOMETRY = """() => [...document.querySelectorAll('.pile.fanned')].map((pile) => {
    const cards = [...pile.querySelectorAll(':scope > .card')];
    const covered = cards.slice(0, -1).map((c, i) => {
        if (!c.classList.contains('up')) return null;
        const idx = c.querySelector('.index').getBoundingClientRect();
        return {card: c.dataset.card, top: idx.top, bottom: idx.bottom, height: idx.height,
                next: cards[i + 1].getBoundingClientRect().top};
    }).filter(Boolean);
    const last = cards.length ? cards[cards.length - 1].getBoundingClientRect().bottom : 0;
    return {pile: pile.dataset.pile, count: cards.length, covered, bottom: last + scrollY};
})"""


def check_readable(page: Any) -> list[dict[str, Any]]:
    piles: list[dict[str, Any]] = page.evaluate(GEOMETRY)
    for pile in piles:
        for c in pile["covered"]:
            where = f"{pile['pile']} ({pile['count']} cards), {c['card']}"
            assert c["height"] >= 12, f"{where}: index {c['height']:.1f} px tall"
            assert c["next"] >= c["bottom"] - 0.5, \
                f"{where}: index {c['top']:.1f}-{c['bottom']:.1f} covered at {c['next']:.1f}"
    return piles


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_the_tallest_pile_of_a_won_spider_game_is_readable(browser: Any, base_url: str,
                                                           size: dict[str, int]) -> None:
    number, moves, tallest = tallest_moment("spider-1-suit")
    assert tallest >= 14
    ctx = browser.new_context(viewport=size)
    page = ctx.new_page()
    table = Table(page, base_url).open("spider-1-suit", number)
    table.play_through_api(moves)
    page.reload()  # the page shows the same game (its id is in history.state), as it stands
    page.wait_for_selector("#game[data-version] .pile")
    table.settle()
    assert int(page.inner_text(".stat-moves")) == len(moves)
    piles = check_readable(page)
    assert max(p["count"] for p in piles) == tallest
    assert max(p["bottom"] for p in piles) <= size["height"]
    ctx.close()


def _run(ranks: str, suits: str) -> list[dict[str, Any]]:
    return [{"card": r + suits[i % len(suits)], "up": True} for i, r in enumerate(ranks)]


DOWN = {"card": None, "up": False}
# The tallest piles each kind of game deals itself: Klondike's last pile, 6 face-down cards
# under a King-to-Ace run; a Spider pile, 5 face-down cards under cards dealt from the stock
# and a King-to-Ace run (29 cards).
TALL = {
    "klondike": ("tableau:6", [DOWN] * 6 + _run("KQJT98765432A", "SH")),
    "spider-1-suit": ("tableau:0", [DOWN] * 5 + _run("4T7Q2K8", "S") + _run("9A53J6",
                      "S") + _run("KQJT98765432A", "S")),
}


@pytest.mark.parametrize("size", SIZES, ids=IDS)
@pytest.mark.parametrize("game", list(TALL))
def test_the_tallest_piles_are_readable(browser: Any, base_url: str, size: dict[str, int],
                                        game: str) -> None:
    pile, cards = TALL[game]

    def taller(route: Any) -> None:
        # The server's view of a new deal, with one pile as tall as the game allows.
        view = json.loads(route.fetch().text())
        view["piles"][pile] = cards
        route.fulfill(json=view)

    ctx = browser.new_context(viewport=size)
    page = ctx.new_page()
    page.route(lambda url: url.endswith("/api/games"), taller)
    Table(page, base_url).open(game, 3)
    piles = check_readable(page)
    tall = next(p for p in piles if p["pile"] == pile)
    assert tall["count"] == len(cards)
    assert tall["bottom"] <= size["height"], "the pile stays on the screen"
    ctx.close()
