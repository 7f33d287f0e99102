"""After the game, in the browser: give up, ask for the analysis, see the losing move on the
timeline and in the summary, step through the game with every card shown, play the solver's
win to the end, leave the panel and open it again from its link."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from .analysis import given_up, open_analysis

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from screenshots import LAPTOP, PHONE, shoot_analysis  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow]

OUT = ROOT / "test-artifacts" / "screenshots"


def panel(page: Any, name: str) -> str:
    value: str = page.get_attribute(".analysis", f"data-{name}")
    return value


def wait_panel(page: Any, **data: str) -> None:
    """Until the panel stands where ``data`` says (``at="3"``, ``line="win"``...), idle."""
    checks = " && ".join(f"p.dataset.{k} === {v!r}" for k, v in data.items())
    page.wait_for_function(f"() => {{ const p = document.querySelector('.analysis');"
                           f" return p.dataset.busy === '0' && {checks}; }}")


def test_give_up_analyse_step_and_show_the_win(laptop: Any, base_url: str) -> None:
    page = laptop
    table, losing = given_up(page, base_url)
    banner = page.locator(".banner")
    assert "Given up" in banner.inner_text()
    view = table.view()
    assert (view["status"], view["ended"]) == ("lost", "resigned")
    assert page.locator("button[data-action=give_up]").is_disabled()

    open_analysis(page)
    # The losing move: marked on the timeline (alone), named in the summary.
    marked = page.locator(".tick.losing")
    assert marked.count() == 1
    assert marked.get_attribute("data-move") == str(losing)
    assert page.locator(".tick").count() == view["moves"]
    assert f"Your move {losing}" in page.inner_text(".analysis-losing")
    assert f"move {losing}" in page.inner_text(".analysis-summary")
    assert page.is_visible(".timeline-legend .key-losing")
    # The panel opens on the losing move, with the game's face-down cards shown (marked).
    assert (panel(page, "line"), panel(page, "at")) == ("player", str(losing))
    assert "The move that lost the game" in page.inner_text(".analysis-caption")
    assert page.locator(".table .card.down").count() == 0
    assert page.locator(".table .card.revealed").count() > 0
    assert "?id=" in page.url and "analysis=1" in page.url

    # Stepping back and forth with the keyboard: the board follows the position endpoint.
    page.keyboard.press("ArrowLeft")
    wait_panel(page, at=str(losing - 1))
    assert f"After move {losing - 1} of {view['moves']}" in page.inner_text(".analysis-caption")
    before = page.eval_on_selector_all(".table .card[data-card]", "cs => cs.length")
    page.keyboard.press("ArrowRight")
    wait_panel(page, at=str(losing))
    page.keyboard.press("Home")
    wait_panel(page, at="0")
    assert "The deal" in page.inner_text(".analysis-caption")
    page.click(".btn-replay-forward")
    wait_panel(page, at="1")
    assert before > 0

    # The solver's win from the last winnable position, played on its own, then to the end.
    page.select_option(".replay-speed", "fast")
    page.click(".btn-show-win")
    wait_panel(page, line="win")
    page.wait_for_function("() => Number(document.querySelector('.analysis').dataset.at) >= 2")
    page.keyboard.press(" ")  # pause
    wait_panel(page, playing="0")
    page.click(".btn-replay-end")
    length = panel(page, "length")
    wait_panel(page, line="win", at=length, status="won")
    tops = page.eval_on_selector_all(
        ".pile-foundation", "ps => ps.map(p => p.lastElementChild?.dataset.card)")
    assert sorted(t[0] for t in tops) == ["K"] * 4, tops
    assert page.get_attribute("#game", "data-status") == "lost"  # the game itself stays lost

    # Back to the game (Back in the history), then the link opens the analysis again.
    link = page.get_attribute(".analysis-link", "href")
    page.click(".btn-back-to-game")
    page.wait_for_selector(".analysis", state="hidden")
    table.settle()
    assert "analysis=1" not in page.url
    assert page.is_visible(".banner .btn-analyse")
    page.goto(link)
    page.wait_for_selector(".analysis:not([hidden])[data-at]")
    wait_panel(page, line="player", at=str(losing))


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_panel_fits_the_screen(browser: Any, base_url: str, size: tuple[int, int]) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    path = shoot_analysis(browser, base_url, size, OUT)
    assert path.stat().st_size > 10_000, f"{path} looks empty"
