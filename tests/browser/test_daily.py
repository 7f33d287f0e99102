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


RIVAL_WINS = """async ([moves]) => {
  const post = (url, body) => fetch(url, {method: "POST", body: JSON.stringify(body),
    headers: {"content-type": "application/json"}}).then(r => r.json());
  await fetch("/api/me", {method: "PUT", body: JSON.stringify({name: "Rival <b>bold</b>"}),
    headers: {"content-type": "application/json"}});
  let view = await post("/api/games", {game: "klondike", daily: true});
  for (const move of moves) {
    if (view.status !== "playing") break;
    view = await post(`/api/games/${view.id}/moves`, {move, version: view.version});
  }
  return view.status;
}"""


def test_another_players_chosen_name_is_shown_as_text_and_can_be_reported(
        browser: Any, laptop: Any, base_url: str) -> None:
    """A rival wins the day's deal under a name with markup: the board shows it as text,
    offers to report it (not the anonymous names, not one's own), and says it is reported."""
    from .daily import daily_line

    rival = browser.new_context()
    try:
        other = rival.new_page()
        other.goto(f"{base_url}/daily")
        assert other.evaluate(RIVAL_WINS, [daily_line()]) == "won"
    finally:
        rival.close()
    page = laptop
    page.goto(f"{base_url}/daily")
    page.click('.daily-games li[data-game="klondike"] > a')
    page.wait_for_selector("section.daily-board[data-loaded] .board-all tr", timeout=60_000)
    row = page.locator("section.daily-board .board-all tr", has_text="Rival <b>bold</b>")
    assert row.count() == 1
    assert row.locator("td.name b").count() == 0  # the markup is text, never HTML
    report = row.locator("button.report-name")
    report.click()
    page.wait_for_function("() => [...document.querySelectorAll('button.report-name')]"
                           ".some(b => b.disabled && b.textContent === 'Reported')")
    # Nothing to report where a player has not chosen a name, nor on one's own row.
    assert page.locator("section.daily-board tr.you button.report-name").count() == 0
