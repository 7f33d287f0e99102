"""Writing the lists of deals proved winnable (read by :mod:`reussite.winnable`).

Each file starts with comment lines; ``# tried: A-B`` records the deals already tried, so that
``reussite winnable extend`` carries on after them. Every number listed was *won* by the
full-information solver (its line replays to a win), never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from importlib import resources
from pathlib import Path

from reussite.winnable import winnable_numbers

_TRIED = re.compile(r"^#\s*tried:\s*(\d+)-(\d+)\s*$", re.MULTILINE)


def list_path(game_id: str) -> Path:
    return Path(str(resources.files("reussite"))) / "data" / "winnable" / f"{game_id}.txt"


def tried_range(game_id: str) -> tuple[int, int] | None:
    path = list_path(game_id)
    if not path.is_file():
        return None
    m = _TRIED.search(path.read_text(encoding="utf-8"))
    return (int(m.group(1)), int(m.group(2))) if m else None


def listed(game_id: str) -> list[int]:
    """The numbers in the game's list file (as :func:`reussite.winnable.winnable_numbers`)."""
    path = list_path(game_id)
    if not path.is_file():
        return []
    lines = (line.split("#", 1)[0].strip() for line in path.read_text("utf-8").splitlines())
    return [int(line) for line in lines if line]


def last_tried(game_id: str) -> int:
    """The last deal number tried for this game (-1 when none)."""
    tried = tried_range(game_id)
    if tried:
        return tried[1]
    numbers = listed(game_id)
    return max(numbers) if numbers else -1


def extend_winnable(game_id: str, numbers: Iterable[int], tried: int) -> None:
    """Add ``numbers`` (proved winnable) to the game's list, and record ``tried``."""
    path = list_path(game_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    current = set(listed(game_id)) | set(numbers)
    old = tried_range(game_id)
    lo, hi = (min(old[0], tried), max(old[1], tried)) if old else (tried, tried)
    lines = [f"# Deals of {game_id} proved winnable by the full-information solver",
             "# (reussite solve); reussite winnable extend adds more.",
             f"# tried: {lo}-{hi}"]
    lines += [str(n) for n in sorted(current)]
    partial = path.with_suffix(".txt.partial")
    partial.write_text("\n".join(lines) + "\n", encoding="utf-8")
    partial.replace(path)  # never a half-written list, even if interrupted
    winnable_numbers.cache_clear()
