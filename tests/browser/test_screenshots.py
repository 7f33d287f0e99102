"""Every game at laptop and phone size: nothing scrolls sideways, every pile is on screen,
and the pictures are kept in test-artifacts/screenshots/ for people to look at."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from reussite.games import CATALOGUE

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from screenshots import LAPTOP, PHONE, shoot  # noqa: E402

pytestmark = pytest.mark.browser

OUT = ROOT / "test-artifacts" / "screenshots"


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_every_game_fits_the_screen(browser: Any, base_url: str,
                                    size: tuple[int, int]) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    paths = shoot(browser, base_url, list(CATALOGUE), size, OUT)
    assert len(paths) == len(CATALOGUE)
    for path in paths:
        assert path.stat().st_size > 10_000, f"{path} looks empty"
