"""The home page: every game a card with its opening table and its line, the whole card one
link, the heading centred, and "Continue your game" first for a player with a game in play."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from reussite.games import CATALOGUE, SEED_GAMES
from reussite.web.i18n import translations
from reussite.web.pages import BLURBS

from .conftest import player_page
from .table import Table

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from screenshots import LAPTOP, PHONE, shoot_home  # noqa: E402

pytestmark = pytest.mark.browser

OUT = ROOT / "test-artifacts" / "screenshots"


def cards(page: Any) -> list[dict[str, Any]]:
    """Each game card as the page lays it out."""
    result: list[dict[str, Any]] = page.evaluate("""() => [...document.querySelectorAll(
        '.game-card')].map((a) => {
          const img = a.querySelector('img.thumb');
          const r = a.getBoundingClientRect();
          return {href: a.getAttribute('href'), section: a.closest('section').className,
                  text: a.innerText, links: a.querySelectorAll('a').length,
                  thumb: img ? {w: img.naturalWidth, shown: img.getBoundingClientRect().width,
                                src: img.getAttribute('src')} : null,
                  box: {left: r.left, right: r.right}};
        })""")
    return result


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_every_game_is_a_card_with_its_opening_table(browser: Any, base_url: str,
                                                     size: tuple[int, int]) -> None:
    width, height = size
    with player_page(browser, viewport={"width": width, "height": height},
                     has_touch=width < 600) as page:
        page.goto(f"{base_url}/")
        page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")  # lazy images
        page.wait_for_function("() => [...document.images].every((i) => i.complete"
                               " && i.naturalWidth > 0)")
        found = cards(page)
        order = [*SEED_GAMES, *(g for g in CATALOGUE if g not in SEED_GAMES)]
        assert [c["href"] for c in found] == [f"/games/{g}" for g in order]
        for c in found:
            game = c["href"].removeprefix("/games/")
            assert c["section"] == "games"
            assert c["thumb"]["src"].startswith(f"/static/thumbnails/{game}.svg?v=")
            assert c["thumb"]["w"] > 0 and c["thumb"]["shown"] > 100, c
            lines = [x for x in c["text"].split("\n") if x.strip()]
            # name, one-line description, packs and difficulty
            assert lines[0] == CATALOGUE[game].names["en"] and len(lines) == 3, lines
            assert c["box"]["left"] >= 0 and c["box"]["right"] <= width
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        # The heading is centred on the page.
        h1 = page.evaluate("""() => { const h = document.querySelector('h1');
            const range = document.createRange(); range.selectNodeContents(h);
            const r = range.getBoundingClientRect();
            return {mid: (r.left + r.right) / 2, page: document.documentElement.clientWidth}; }""")
        assert abs(h1["mid"] - h1["page"] / 2) < 3, h1
        assert not page.locator(".resume").count()
        # A click anywhere on a card opens its game: here on the picture, not on the name.
        page.locator('.game-card[href="/games/minerva"] img.thumb').click(
            position={"x": 10, "y": 10})
        page.wait_for_url(f"{base_url}/games/minerva*")
        page.wait_for_selector("#game[data-version] .pile-foundation")


def test_the_game_in_play_comes_first_and_continues(laptop: Any, base_url: str) -> None:
    table = Table(laptop, base_url).open("klondike", 4)
    table.click_stock()
    table.wait_version(1)
    uid = laptop.evaluate("document.querySelector('#game').dataset.gameUid")
    laptop.goto(f"{base_url}/")
    first = laptop.locator("main section").first
    assert "resume" in (first.get_attribute("class") or "")
    assert first.locator("h2").inner_text() == "Continue your game"
    assert first.locator(".game-card").count() == 1
    card = first.locator(".game-card")
    assert card.get_attribute("href") == "/games/klondike"
    assert "deal 4, moves played: 1" in card.inner_text()
    card.locator(".game-name").click()
    laptop.wait_for_selector("#game[data-version] .pile-foundation")
    assert laptop.evaluate("document.querySelector('#game').dataset.gameUid") == uid
    assert laptop.evaluate("document.querySelector('#game').dataset.version") == "1"


def test_the_home_page_speaks_french_and_russian(browser: Any, base_url: str) -> None:
    for lang in ("fr", "ru"):
        t = translations(lang)
        with player_page(browser, viewport={"width": 1366, "height": 768},
                         locale=lang) as page:
            page.goto(f"{base_url}/")
            assert page.locator("h1").inner_text() == t.gettext("Patience games")
            for game, line in BLURBS.items():
                shown = page.locator(f'.game-card[href="/games/{game}"] .blurb').inner_text()
                assert shown == t.gettext(line) != line, (lang, game)


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_home_page_screenshots(browser: Any, base_url: str, size: tuple[int, int]) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    path = shoot_home(browser, base_url, size, OUT)
    assert path.stat().st_size > 20_000, f"{path} looks empty"
