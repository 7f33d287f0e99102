"""Write the home page's pictures: each game's opening table as a small SVG.

    python scripts/thumbnails.py

Run it again after changing a game's layout or ``reussite.web.thumbnails``, and commit the
files (``tests/web/test_thumbnails.py`` fails while they differ from what it draws).
"""

from __future__ import annotations

from pathlib import Path

from reussite.games import CATALOGUE
from reussite.web.thumbnails import thumbnail_svg

OUT = Path(__file__).resolve().parent.parent / "src" / "reussite" / "web" / "static" / "thumbnails"


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for game, rules in CATALOGUE.items():
        path = OUT / f"{game}.svg"
        path.write_text(thumbnail_svg(rules), encoding="utf-8")
        print(path, path.stat().st_size, "bytes")


if __name__ == "__main__":
    main()
