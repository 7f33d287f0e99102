"""The daily deal in the browser: open /daily, open Klondike's deal of the day, win it by
following the solver's line through the page (clicks), and find yourself on the leaderboard;
/daily then says the deal is won. Screenshots of the page at laptop and phone size."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from .daily import win_daily

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from screenshots import LAPTOP, PHONE, shoot_daily  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow]

OUT = ROOT / "test-artifacts" / "screenshots"


def test_win_the_daily_deal_and_see_yourself_on_the_leaderboard(laptop: Any,
                                                                base_url: str) -> None:
    page = laptop
    table = win_daily(page, base_url)
    view = table.view()
    assert view["status"] == "won" and view["number"] is None and view["ranked"]
    you = page.locator("section.daily-board .board-all tr.you")
    assert you.count() == 1
    board = page.evaluate(f"fetch('/api/daily/klondike/{view['daily']}/leaderboard')"
                          ".then(r => r.json())")
    assert board["all"]["you"]["rank"] >= 1
    assert you.locator("td.rank").inner_text() == str(board["all"]["you"]["rank"])
    assert you.locator("td.moves").inner_text() == str(view["moves"])
    assert "(you)" in you.locator("td.name").inner_text()
    assert page.locator(".daily-banner").is_visible()
    assert "ranked" in page.inner_text(".daily-banner")
    page.goto(f"{base_url}/daily")
    won = page.locator('.daily-games li[data-game="klondike"]')
    assert "Won in" in won.inner_text()
    assert "1" in page.inner_text(".daily-streak")


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_daily_screenshots(browser: Any, base_url: str, size: tuple[int, int]) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    assert shoot_daily(browser, base_url, size, OUT).exists()
