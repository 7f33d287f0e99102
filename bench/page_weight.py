"""The weight of a game page on first load: HTML + JS + CSS + card images, uncompressed and
gzipped. The aim is below 300 KB uncompressed.

    python bench/page_weight.py [GAME]      (starts a local site; default game: spider)
    python bench/page_weight.py /           (the home page, its game pictures included)

Card faces are SVG drawn by the script itself (no image files), so "images" counts only what
the HTML or CSS asks for by URL. The API's JSON (the game's view) is shown apart.
"""

from __future__ import annotations

import gzip
import json
import re
import sys
import urllib.request
from pathlib import Path
from urllib.parse import urljoin

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from browser.live import running_server  # noqa: E402

IMPORT = re.compile(r"""(?:import|export)\s[^"';]*?from\s*["']([^"']+)["']"""
                    r"""|import\(\s*["']([^"']+)["']""")


def get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as r:
        body: bytes = r.read()
        return body


def crawl(base: str, path: str) -> dict[str, dict[str, bytes]]:
    """Every resource the page at ``path`` loads, by kind: html, js, css, images."""
    page_url = f"{base}{path}"
    html = get(page_url)
    text = html.decode()
    found: dict[str, dict[str, bytes]] = {"html": {page_url: html}, "js": {}, "css": {},
                                          "images": {}}
    for href in re.findall(r'<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"', text):
        url = urljoin(page_url, href)
        css = get(url)
        found["css"][url] = css
        for img in re.findall(r"url\(\s*['\"]?([^'\")]+)", css.decode()):
            if not img.startswith("data:"):
                found["images"][urljoin(url, img)] = get(urljoin(url, img))
    for img in re.findall(r'<img[^>]+src="([^"]+)"', text):
        found["images"][urljoin(page_url, img)] = get(urljoin(page_url, img))
    todo = [urljoin(page_url, s) for s in re.findall(r'<script[^>]+src="([^"]+)"', text)]
    while todo:
        url = todo.pop()
        if url in found["js"]:
            continue
        js = get(url)
        found["js"][url] = js
        for a, b in IMPORT.findall(js.decode()):
            todo.append(urljoin(url, a or b))
    return found


def main() -> None:
    game = sys.argv[1] if len(sys.argv) > 1 else "spider"
    path = game if game.startswith("/") else f"/games/{game}"
    view = None
    with running_server() as base:
        found = crawl(base, path)
        if not game.startswith("/"):
            req = urllib.request.Request(f"{base}/api/games", method="POST",
                                         data=json.dumps({"game": game, "number": 1}).encode(),
                                         headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(req, timeout=10) as r:
                view = r.read()
    total = total_gz = 0
    print(f"First load of {path}:")
    print(f"  {'kind':<8}{'files':>6}{'bytes':>10}{'gzipped':>10}")
    for kind, files in found.items():
        raw = sum(len(b) for b in files.values())
        gz = sum(len(gzip.compress(b, 9)) for b in files.values())
        total += raw
        total_gz += gz
        print(f"  {kind:<8}{len(files):>6}{raw:>10}{gz:>10}")
    print(f"  {'total':<8}{'':>6}{total:>10}{total_gz:>10}"
          f"   ({total / 1024:.1f} KB; aim: below 300 KB)")
    if view is not None:
        print(f"  the game's view (JSON, not counted): {len(view)} bytes,"
              f" {len(gzip.compress(view, 9))} gzipped")


if __name__ == "__main__":
    main()
