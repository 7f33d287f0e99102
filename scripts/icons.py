"""Render the site's icon (``static/icon.svg``) as the PNGs the web-app manifest names
(``static/icon-192.png``, ``static/icon-512.png``), with the machine's Chromium. Run once
after changing the SVG, and commit the PNGs:

    .venv/bin/python scripts/icons.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "src" / "reussite" / "web" / "static"
sys.path.insert(0, str(ROOT / "tests"))

from browser.live import launch_chromium  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402


def main() -> None:
    svg = (STATIC / "icon.svg").read_text()
    with sync_playwright() as p:
        browser = launch_chromium(p)
        for size in (192, 512):
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(f"<style>*{{margin:0}}svg{{display:block;width:{size}px;"
                             f"height:{size}px}}</style>{svg}")
            page.screenshot(path=str(STATIC / f"icon-{size}.png"), omit_background=True)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
