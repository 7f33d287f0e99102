"""Screenshots of every game of the catalogue, taken in Chromium from a fresh local site.

    python scripts/screenshots.py                  # laptop shots into docs/screenshots/
    python scripts/screenshots.py --out DIR --phone

Each shot opens deal 7 (the same deal every time: the pictures only change when the table
does). The browser tests take the same shots into test-artifacts/screenshots/. Two more show
the tallest pile of a won Spider (1 suit) game, at laptop and phone size, two the statistics
page of a player with ten games behind them, two the home page (the whole page) of a player
with a game in play, one a won game with its summary, at laptop size, and two the analysis
panel of a given-up Klondike game, on its losing move, and two the page of Klondike's daily
deal won, with its leaderboard (the whole page).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from browser.analysis import given_up, open_analysis  # noqa: E402
from browser.daily import win_daily  # noqa: E402
from browser.history import make_history  # noqa: E402
from browser.live import launch_chromium, running_server  # noqa: E402
from browser.table import Table  # noqa: E402
from browser.winning import one_move_from_a_win, tallest_moment  # noqa: E402

LAPTOP = (1366, 768)
PHONE = (390, 844)
DEAL = 7


def open_page(browser: Any, size: tuple[int, int],
              settings: dict[str, Any] | None = None) -> tuple[Any, Any]:
    """A new browser context at ``size`` (touch below 600 px wide) and its page, with the
    player's settings (``reussite.settings``) set before any script runs."""
    width, height = size
    ctx = browser.new_context(viewport={"width": width, "height": height},
                              device_scale_factor=1, has_touch=width < 600)
    if settings is not None:
        stored = json.dumps(json.dumps(settings, separators=(",", ":")))
        ctx.add_init_script(f"localStorage.setItem('reussite.settings', {stored})")
    return ctx, ctx.new_page()


def shoot(browser: Any, base_url: str, games: list[str], size: tuple[int, int],
          out: Path) -> list[Path]:
    """Open each game at one screen size, check nothing scrolls sideways, save the pictures."""
    width, height = size
    ctx, page = open_page(browser, size, {"animation": "off"})
    paths = []
    for game in games:
        page.goto(f"{base_url}/games/{game}?number={DEAL}")
        page.wait_for_function("() => document.querySelector('#game')?.dataset.busy === '0'"
                               f" && document.querySelector('#game').dataset.number === '{DEAL}'")
        page.wait_for_selector(".card")
        scroll = page.evaluate("document.documentElement.scrollWidth")
        if scroll > width:
            raise AssertionError(f"{game} at {width}×{height} scrolls sideways ({scroll} px)")
        path = out / f"{game}-{width}x{height}.png"
        page.screenshot(path=str(path))
        paths.append(path)
    ctx.close()
    return paths


def shoot_home(browser: Any, base_url: str, size: tuple[int, int], out: Path) -> Path:
    """The home page (the whole page) of a player with a game of Klondike in play."""
    width, height = size
    ctx, page = open_page(browser, size)
    page.goto(f"{base_url}/")  # the player's cookie
    started = page.request.post(f"{base_url}/api/games", data={"game": "klondike", "number": DEAL})
    view = started.json()
    move = next(m for m in view["legal_moves"] if m["type"] == "stock")
    page.request.post(f"{base_url}/api/games/{view['id']}/moves",
                      data={"move": move, "version": view["version"]})
    page.goto(f"{base_url}/")
    # The pictures load lazily: bring each into view once, then back to the top.
    for img in page.locator("img").all():
        img.scroll_into_view_if_needed()
    page.wait_for_function("() => [...document.images].every((i) => i.complete)")
    page.evaluate("window.scrollTo(0, 0)")
    scroll = page.evaluate("document.documentElement.scrollWidth")
    if scroll > width:
        raise AssertionError(f"the home page at {width}×{height} scrolls sideways ({scroll} px)")
    path = out / f"home-{width}x{height}.png"
    page.screenshot(path=str(path), full_page=True)
    ctx.close()
    return path


def shoot_tall_pile(browser: Any, base_url: str, size: tuple[int, int], out: Path) -> Path:
    """A won Spider (1 suit) game at the move of its tallest pile, played through the API."""
    width, height = size
    ctx, page = open_page(browser, size, {"animation": "off"})
    number, moves, _ = tallest_moment("spider-1-suit")
    table = Table(page, base_url).open("spider-1-suit", number)
    table.play_through_api(moves)
    page.reload()
    page.wait_for_selector("#game[data-version] .pile-foundation")
    table.settle()
    path = out / f"spider-1-suit-tall-pile-{width}x{height}.png"
    page.screenshot(path=str(path))
    ctx.close()
    return path


def shoot_stats(browser: Any, base_url: str, size: tuple[int, int], out: Path) -> Path:
    """The statistics page of a player with a history (:func:`make_history`), a name and
    a sign-in code made for another device."""
    width, height = size
    ctx, page = open_page(browser, size)
    make_history(page, base_url)
    page.goto(f"{base_url}/stats")
    page.wait_for_selector(".chart svg")
    page.locator("#name-input").fill("Ann")
    page.locator("#name-input").press("Enter")
    page.locator(".display-name").filter(has_text="Ann").wait_for()
    page.locator(".btn-code").click()
    page.locator(".code-shown").wait_for(state="visible")
    page.wait_for_function("() => document.querySelector('.browser-list').children.length")
    scroll = page.evaluate("document.documentElement.scrollWidth")
    if scroll > width:
        raise AssertionError(f"/stats at {width}×{height} scrolls sideways ({scroll} px)")
    path = out / f"stats-{width}x{height}.png"
    page.screenshot(path=str(path), full_page=True)
    ctx.close()
    return path


def shoot_won(browser: Any, base_url: str, size: tuple[int, int], out: Path) -> Path:
    """A Spider (1 suit) game won by its last move played by clicks, with its summary."""
    width, height = size
    ctx, page = open_page(browser, size, {"animation": "off"})
    table = Table(page, base_url)
    table.click_move(one_move_from_a_win(table))
    page.wait_for_selector(".win-summary[open]")
    table.settle()
    path = out / f"spider-1-suit-won-{width}x{height}.png"
    page.screenshot(path=str(path))
    ctx.close()
    return path


def shoot_analysis(browser: Any, base_url: str, size: tuple[int, int], out: Path) -> Path:
    """The analysis panel of a Klondike game given up after its losing move, on that move:
    nothing scrolls sideways, and the panel's controls are on the screen."""
    width, height = size
    ctx, page = open_page(browser, size, {"animation": "off", "autoCollect": False})
    given_up(page, base_url)
    open_analysis(page)
    page.evaluate("window.scrollTo(0, document.querySelector('#game').offsetTop)")
    scroll = page.evaluate("document.documentElement.scrollWidth")
    if scroll > width:
        raise AssertionError(f"the analysis at {width}×{height} scrolls sideways ({scroll} px)")
    for control in (".timeline-range", ".btn-replay-play", ".btn-show-win"):
        box = page.locator(control).bounding_box()
        if box is None or box["y"] < 0 or box["y"] + box["height"] > height:
            raise AssertionError(f"{control} is off the screen at {width}×{height}: {box}")
    path = out / f"analysis-{width}x{height}.png"
    page.screenshot(path=str(path))
    ctx.close()
    return path


def shoot_daily(browser: Any, base_url: str, size: tuple[int, int], out: Path) -> Path:
    """Klondike's deal of the day won by clicks, its leaderboard showing the player: the
    whole page, which must not scroll sideways."""
    width, height = size
    ctx, page = open_page(browser, size, {"animation": "off", "autoCollect": False})
    win_daily(page, base_url)
    page.wait_for_selector(".win-summary[open]")
    page.click(".win-summary[open] .confirm-buttons .btn >> nth=0")  # Close
    page.wait_for_selector(".win-summary:not([open])", state="attached")
    scroll = page.evaluate("document.documentElement.scrollWidth")
    if scroll > width:
        raise AssertionError(f"the daily deal at {width}×{height} scrolls sideways ({scroll} px)")
    bottom = page.evaluate("document.querySelector('section.daily-board')"
                           ".getBoundingClientRect().bottom + window.scrollY")
    path = out / f"daily-{width}x{height}.png"
    page.screenshot(path=str(path), full_page=True,
                    clip={"x": 0, "y": 0, "width": width, "height": bottom + 16})
    ctx.close()
    return path


def main() -> None:
    from playwright.sync_api import sync_playwright

    from reussite.games import CATALOGUE

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--phone", action="store_true", help="also take 390×844 shots")
    parser.add_argument("--games", nargs="+", metavar="GAME",
                        help="only these games' tables (no other page)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    sizes = [LAPTOP, PHONE] if args.phone else [LAPTOP]
    with running_server() as url, sync_playwright() as p:
        browser = launch_chromium(p)
        for size in sizes:
            for path in shoot(browser, url, args.games or list(CATALOGUE), size, args.out):
                print(path)
        if args.games:
            browser.close()
            return
        for size in (LAPTOP, PHONE):
            print(shoot_tall_pile(browser, url, size, args.out))
            print(shoot_stats(browser, url, size, args.out))
            print(shoot_home(browser, url, size, args.out))
        print(shoot_won(browser, url, LAPTOP, args.out))
        for size in (LAPTOP, PHONE):
            print(shoot_analysis(browser, url, size, args.out))
            print(shoot_daily(browser, url, size, args.out))
        browser.close()


if __name__ == "__main__":
    main()
