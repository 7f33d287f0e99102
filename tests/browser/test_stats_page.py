"""The statistics page on a phone and a laptop: the table as cards with no sideways scrolling,
the chart and the list of recent games drawn from the history, the reset asking first and then
emptying the table; and the Klondike scoring setting of the table."""

from __future__ import annotations

from typing import Any

import pytest

from .history import PLAN, make_history
from .table import Table

pytestmark = pytest.mark.browser

NO_SIDEWAYS = "document.documentElement.scrollWidth <= window.innerWidth"


def open_stats(page: Any, base_url: str) -> None:
    page.goto(f"{base_url}/stats")
    page.wait_for_function("() => document.querySelector('.results')?.dataset.count"
                           " !== undefined")


def newest_ended_first(plan: tuple[str, ...]) -> list[str]:
    """The plan's games in the order they ended, newest first: a game won or lost ends with its
    last move; an abandoned Klondike game when the next Klondike game is dealt (just before
    that one's own end)."""
    klondike = [i for i, k in enumerate(plan) if k in ("win", "abandon")]
    ends = []
    for i, kind in enumerate(plan):
        if kind == "abandon":
            later = [j for j in klondike if j > i]
            ends.append(((later[0] if later else len(plan)) - 0.5, kind))
        else:
            ends.append((float(i), kind))
    return [kind for _, kind in sorted(ends, reverse=True)]


def test_the_statistics_page_on_a_phone_shows_the_chart_the_history_and_resets(
        phone: Any, base_url: str) -> None:
    make_history(phone, base_url)
    open_stats(phone, base_url)
    assert phone.evaluate(NO_SIDEWAYS), phone.evaluate("document.documentElement.scrollWidth")

    # The table: one card per game played, every figure with its label, all on screen.
    rows = phone.locator("table.stats tbody tr")
    assert rows.count() == 2
    for i in range(2):
        box = rows.nth(i).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    played = phone.locator('tr[data-game="klondike"] td').first
    assert played.evaluate("td => getComputedStyle(td, '::before').content") == '"Played"'
    assert played.inner_text().strip() == str(PLAN.count("win") + PLAN.count("abandon"))

    # The chart: a mark per game, the running win rate, a label that sums them up.
    chart = phone.locator(".chart svg")
    chart.wait_for(state="visible")
    marks = phone.locator(".chart svg rect.mark")
    assert marks.count() == len(PLAN)
    assert phone.locator(".chart svg rect.mark.won").count() == PLAN.count("win")
    assert phone.locator(".chart svg rect.mark.lost").count() == PLAN.count("lose")
    assert phone.locator(".chart svg rect.mark.abandoned").count() == PLAN.count("abandon")
    assert phone.locator(".chart svg polyline.rate").count() == 1
    label = chart.get_attribute("aria-label") or ""
    assert f"{len(PLAN)} games" in label and "3 won, 5 lost, 2 abandoned" in label
    box = chart.bounding_box()
    assert box is not None and box["width"] > 300 and box["x"] + box["width"] <= 390

    # The list: newest first, a deal number only for the games that are over.
    items = phone.locator(".history li")
    assert items.count() == len(PLAN)
    results = [items.nth(i).get_attribute("data-result") for i in range(len(PLAN))]
    names = {"win": "won", "lose": "lost", "abandon": "abandoned"}
    assert results == [names[k] for k in newest_ended_first(PLAN)]
    assert "deal 1" in items.nth(1).inner_text()  # the last win: Klondike deal 1
    # An abandoned game is over: its number is shown (it was dealt by number).
    abandoned = phone.locator('.history li[data-result="abandoned"]').first
    assert "deal 17" in abandoned.inner_text()

    # Only one game: the chart and the list follow the choice.
    phone.select_option(".results select", "klondike")
    phone.wait_for_function(f"() => document.querySelectorAll('.chart svg rect.mark').length"
                            f" === {PLAN.count('win') + PLAN.count('abandon')}")
    assert phone.locator(".history li").count() == PLAN.count("win") + PLAN.count("abandon")
    phone.select_option(".results select", "")
    phone.wait_for_function(f"() => document.querySelectorAll('.history li').length"
                            f" === {len(PLAN)}")

    # The reset asks first; "Cancel" keeps everything.
    phone.locator(".btn-reset").tap()
    dialog = phone.locator("dialog.confirm-reset")
    dialog.wait_for(state="visible")
    assert "Forget every result" in dialog.inner_text()
    dialog.locator('button[value="keep"]').tap()
    dialog.wait_for(state="hidden")
    assert phone.locator("table.stats tbody tr").count() == 2
    assert len(phone.request.get(f"{base_url}/api/history").json()) == len(PLAN)

    # Confirmed, it empties the table and the history.
    phone.locator(".btn-reset").tap()
    dialog.wait_for(state="visible")
    with phone.expect_navigation():
        dialog.locator('button[value="reset"]').tap()
    phone.wait_for_selector(".stats-empty")
    assert phone.locator("table.stats").count() == 0
    assert phone.request.get(f"{base_url}/api/history").json() == []
    assert phone.evaluate(NO_SIDEWAYS)


def test_the_statistics_page_on_a_laptop_keeps_its_table(laptop: Any, base_url: str) -> None:
    make_history(laptop, base_url)
    open_stats(laptop, base_url)
    assert laptop.evaluate(NO_SIDEWAYS)
    # A real table: the headers shown, one line a game.
    assert laptop.locator("table.stats thead").is_visible()
    header = laptop.locator("table.stats thead th").first.bounding_box()
    cell = laptop.locator("table.stats tbody td").first.bounding_box()
    assert header is not None and cell is not None and cell["y"] > header["y"]
    row = laptop.locator("table.stats tbody tr").first.bounding_box()
    assert row is not None and row["height"] < 60
    assert laptop.locator(".chart svg rect.mark").count() == len(PLAN)


def test_the_table_shows_the_klondike_score_chosen_in_the_settings(laptop: Any,
                                                                    base_url: str) -> None:
    table = Table(laptop, base_url).open("klondike", 2)
    score = laptop.locator(".stat-score")
    assert score.is_hidden()  # none by default
    laptop.locator(".settings summary").click()
    choice = laptop.locator('.settings-panel select[name="scoring"]')
    choice.select_option("vegas")
    assert score.inner_text() == "Vegas score -52"
    choice.select_option("standard")
    assert score.inner_text() == "Score 0"
    # Deal 2's Ace on pile 7 to a foundation: +10, and +5 for the card it turns up.
    table.play_through_api([{"type": "move", "from": "tableau:6", "to": "foundation:0",
                             "count": 1}])
    laptop.reload()  # the choice is remembered
    laptop.wait_for_selector("#game[data-version] .pile-foundation")
    assert score.inner_text() == "Score 15"
    laptop.locator(".settings summary").click()
    laptop.locator('.settings-panel select[name="scoring"]').select_option("vegas")
    assert score.inner_text() == "Vegas score -47"
    laptop.locator('.settings-panel select[name="scoring"]').select_option("off")
    assert score.is_hidden()
    # Games without these scores do not offer them; Spider keeps its own.
    Table(laptop, base_url).open("spider", 1)
    laptop.locator(".settings summary").click()
    assert laptop.locator('.settings-panel select[name="scoring"]').count() == 0
    assert laptop.locator(".stat-score").inner_text() == "Score 500"
