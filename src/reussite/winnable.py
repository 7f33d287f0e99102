"""Winnable deals: lists of deal numbers that the solver proved winnable, shipped as data.

One file per game, ``reussite/data/winnable/<game-id>.txt``, one deal number per line
(``#`` starts a comment). ``reussite winnable extend`` (the solver's command) adds to them.
"""

from __future__ import annotations

from functools import cache
from importlib import resources


@cache
def winnable_numbers(game_id: str) -> tuple[int, ...]:
    """The deal numbers proved winnable for this game (empty when none are shipped)."""
    path = resources.files("reussite") / "data" / "winnable" / f"{game_id}.txt"
    if not path.is_file():
        return ()
    numbers = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            numbers.append(int(line))
    return tuple(numbers)
