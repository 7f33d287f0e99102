"""Tall piles stay readable: each covered face-up card keeps its corner index (rank and suit)
whole and at least 12 CSS pixels tall, on a laptop and on a phone; the face-down cards close up
first, then the face-up ones down to their index, then the cards get smaller."""

from __future__ import annotations

import json
from typing import Any

import pytest

from reussite.games import CATALOGUE

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
    page.wait_for_selector("#game[data-version] .pile-foundation")
    table.settle()
    assert int(page.inner_text(".stat-moves")) == len(moves)
    piles = check_readable(page)
    assert max(p["count"] for p in piles) == tallest
    assert max(p["bottom"] for p in piles) <= size["height"]
    ctx.close()


DOWN = {"card": None, "up": False}
# How many face-up cards the tallest pile of each game can reach, above the face-down cards
# its deal gives a pile: a King-to-Ace run in the one-pack building games (Athena and Minerva
# deal two face-up cards that need not be part of it); whatever the stock deals onto a pile in
# the games that do not build (Auld Lang Syne: 1 + 44 / 4; Leap Year and Quadrennial:
# 1 + 184 / 8); and in the two-pack building games a run with the stock's deals under it.
# The classics: the dealt cards and a run from a King built on them (FreeCell 7 + 12, Baker's
# Dozen and Forty Thieves 4 + 12); where any face-up card moves with the cards on it (Yukon,
# Scorpion), taller, as the two-pack games; Golf builds nothing (5). TriPeaks' piles hold one
# card each, drawn as peaks rather than fanned: not here.
TALL_UPS = {"klondike": 13, "klondike-draw-3": 13, "athena": 15, "minerva": 15,
            "auld-lang-syne": 12, "leap-year": 24, "quadrennial": 24, "spider": 24,
            "spider-2-suits": 24, "spider-1-suit": 24, "freds-spider": 24, "astrocyte": 24,
            "freecell": 19, "bakers-dozen": 16, "yukon": 24, "scorpion": 24,
            "forty-thieves": 16, "golf": 5}
RANKS = "KQJT98765432A"


def tallest_pile(view: dict[str, Any], game: str) -> tuple[str, list[dict[str, Any]]]:
    """The fanned pile with the most face-down cards in the deal, made as tall as it gets."""
    piles = view["piles"]
    fanned = [p for p in piles if p.startswith("tableau")] \
        or [p for p in piles if p.startswith("reserve")]
    pile = max(fanned, key=lambda p: sum(not c["up"] for c in piles[p]))
    downs = sum(not c["up"] for c in piles[pile])
    ups = [{"card": RANKS[i % 13] + "SHDC"[(i // 13 + i) % 4], "up": True}
           for i in range(TALL_UPS[game])]
    return pile, [DOWN] * downs + ups


def test_every_game_with_fanned_piles_has_its_tallest_pile_here() -> None:
    assert set(TALL_UPS) == {g for g, r in CATALOGUE.items()
                             if not (r.tableau and r.tableau.covers)}


@pytest.mark.parametrize("size", SIZES, ids=IDS)
@pytest.mark.parametrize("game", list(TALL_UPS))
def test_the_tallest_piles_are_readable(browser: Any, base_url: str, size: dict[str, int],
                                        game: str) -> None:
    tall: dict[str, Any] = {}

    def taller(route: Any) -> None:
        # The server's view of a new deal, with one pile as tall as the game allows.
        view = json.loads(route.fetch().text())
        tall["pile"], tall["cards"] = tallest_pile(view, game)
        view["piles"][tall["pile"]] = tall["cards"]
        route.fulfill(json=view)

    ctx = browser.new_context(viewport=size)
    page = ctx.new_page()
    page.route(lambda url: url.endswith("/api/games"), taller)
    Table(page, base_url).open(game, 3)
    piles = check_readable(page)
    drawn = next(p for p in piles if p["pile"] == tall["pile"])
    assert drawn["count"] == len(tall["cards"])
    assert drawn["bottom"] <= size["height"], "the pile stays on the screen"
    ctx.close()
