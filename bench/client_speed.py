"""How fast the table answers in Chromium: time to the first drawn table, and the time to draw
each new view (DOM rebuilt, layout, animation started), for a few games.

    python bench/client_speed.py            (starts a local site; needs /usr/bin/chromium)

The client marks each drawing with ``performance.measure("reussite:render")``. Medians of
3 rounds of 5 stock clicks; on a machine shared with other work the maxima are mostly noise.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from browser.live import launch_chromium, running_server  # noqa: E402
from browser.table import Table  # noqa: E402

GAMES = ("klondike", "spider", "leap-year", "astrocyte")
CLICKS = 5
ROUNDS = 3


def main() -> None:
    from playwright.sync_api import sync_playwright

    print(f"{'game':<12}{'first table (ms)':>18}{'draw a view: median (ms)':>27}{'max':>7}")
    with running_server() as url, sync_playwright() as p:
        browser = launch_chromium(p)
        for game in GAMES:
            firsts: list[float] = []
            draws: list[float] = []
            for _ in range(ROUNDS):
                page = browser.new_page(viewport={"width": 1366, "height": 768})
                table = Table(page, url).open(game, 7)
                for _ in range(CLICKS):
                    view = table.view()
                    if not any(m["type"] == "stock" for m in view["legal_moves"]):
                        break
                    table.click_stock()
                    table.wait_version(view["version"] + 1)
                firsts.append(page.evaluate(
                    "(() => { const m = performance.getEntriesByName('reussite:render')[0];"
                    " return m.startTime + m.duration; })()"))
                draws += page.evaluate("performance.getEntriesByName('reussite:render')"
                                       ".slice(1).map(m => m.duration)")
                page.close()
            first = statistics.median(firsts)
            median = statistics.median(draws) if draws else float("nan")
            top = max(draws) if draws else float("nan")
            print(f"{game:<12}{first:>18.0f}{median:>27.1f}{top:>7.1f}")
        browser.close()


if __name__ == "__main__":
    main()
