"""The table's behaviour: an undoable restart, moves drawn before the server answers, the
paused clock, auto-finish and the win's summary (issue 25, points 4, 5, 6, 9 and 10)."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import Any

import pytest

from reussite.autofinish import finishing_line
from reussite.engine import Move, Position
from reussite.games import get_game
from reussite.solver.search import solve

from .conftest import settings_script
from .table import Table
from .winning import one_move_from_a_win

pytestmark = pytest.mark.browser

LATENCY_MS = 400


def uncovering_move(game: str = "klondike") -> tuple[int, dict[str, Any]]:
    """A deal and an opening move between tableau piles that uncovers a face-down card."""
    rules = get_game(game)
    for n in range(1, 500):
        pos = Position.deal(rules, n)
        for m in pos.legal_moves():
            if m.kind == "move" and m.src.startswith("tableau") and m.dst.startswith("tableau") \
                    and len(pos.pile(m.src)) > m.count:
                return n, m.to_json()
    raise AssertionError("no such deal")


def slow_network(page: Any) -> None:
    """Every request of the page takes LATENCY_MS more (Chromium's network emulation)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": LATENCY_MS, "downloadThroughput": -1,
        "uploadThroughput": -1})


PILE_NOW = """([pile, n]) => {
    const game = document.querySelector('#game');
    const el = document.querySelector(`.pile[data-pile="${pile}"]`);
    return {version: Number(game.dataset.version), count: Number(el.dataset.count),
            top: el.querySelector(':scope > .card:last-of-type')?.getAttribute('aria-label')};
}"""


@contextlib.contextmanager
def page_with(browser: Any, animation: str, **context: Any) -> Iterator[Any]:
    """A fresh player's page with this animation speed (auto-collect off); no JavaScript
    error may happen on it."""
    ctx = browser.new_context(**context)
    ctx.add_init_script(settings_script(animation=animation, autoCollect=False))
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    ctx.close()
    assert not errors, f"JavaScript errors: {errors}"


LAPTOP = {"viewport": {"width": 1366, "height": 768}}


def test_restart_is_taken_back_by_one_undo(laptop: Any, base_url: str) -> None:
    table = Table(laptop, base_url).open("klondike", 21)
    for _ in range(3):
        table.play_by_clicks({"type": "stock"})
    before = table.view()
    laptop.click("button[data-action=restart]")
    table.wait_version(before["version"] + 1)
    assert laptop.inner_text(".stat-moves") == "0"
    assert laptop.is_enabled("button[data-action=undo]")
    laptop.click("button[data-action=undo]")
    table.wait_version(before["version"] + 2)
    after = table.view()
    assert after["piles"] == before["piles"] and after["moves"] == 3
    assert laptop.inner_text(".stat-moves") == "3"


def test_a_legal_move_is_drawn_before_the_server_answers(laptop: Any, base_url: str) -> None:
    number, move = uncovering_move()
    table = Table(laptop, base_url).open("klondike", number)
    view = table.view()
    src, dst, count = move["from"], move["to"], move["count"]
    n_src, n_dst = len(view["piles"][src]), len(view["piles"][dst])
    slow_network(laptop)
    table.drag(src, count, dst)
    # At once, before the answer (the version is still the old one): the run is on its new
    # pile, and the card it uncovered is still face down (its face is the server's to tell).
    now = laptop.evaluate(PILE_NOW, [dst, 0])
    assert now["version"] == view["version"] and now["count"] == n_dst + count
    src_now = laptop.evaluate(PILE_NOW, [src, 0])
    assert src_now["count"] == n_src - count and src_now["top"] == "face-down card"
    table.wait_version(view["version"] + 1)
    after = table.view()
    # The answer fills in the card turned up.
    top = after["piles"][src][-1]
    assert top["up"] and laptop.evaluate(PILE_NOW, [src, 0])["top"] != "face-down card"
    assert laptop.evaluate(PILE_NOW, [dst, 0])["count"] == n_dst + count


def test_a_move_the_server_refuses_goes_back_with_its_sentence(laptop: Any,
                                                               base_url: str) -> None:
    number, move = uncovering_move()
    table = Table(laptop, base_url).open("klondike", number)
    view = table.view()
    src, dst = move["from"], move["to"]
    n_src, n_dst = len(view["piles"][src]), len(view["piles"][dst])
    laptop.route("**/api/games/*/moves", lambda route: route.fulfill(
        status=422, content_type="application/json",
        body='{"detail": "The server says no to this move"}'))
    table.drag(src, move["count"], dst)
    table.settle()
    assert laptop.evaluate(PILE_NOW, [dst, 0])["count"] == n_dst
    assert laptop.evaluate(PILE_NOW, [src, 0])["count"] == n_src
    assert table.toast() == "The server says no to this move"
    assert table.view()["version"] == view["version"]


def shown_seconds(page: Any) -> int:
    text = page.inner_text(".stat-time")
    m = re.fullmatch(r"(\d+):(\d\d)", text)
    assert m, text
    return int(m[1]) * 60 + int(m[2])


def test_the_clock_pauses_on_request_and_in_a_hidden_tab(laptop: Any, base_url: str) -> None:
    table = Table(laptop, base_url).open("klondike", 22)
    table.play_by_clicks({"type": "stock"})
    laptop.wait_for_function("() => document.querySelector('.stat-time').textContent !== '0:00'",
                             timeout=5000)
    version = table.version
    laptop.click(".btn-pause")
    table.wait_version(version + 1)
    assert table.view()["paused"]
    cover = laptop.locator(".paused-cover")
    assert cover.is_visible()
    hidden = laptop.eval_on_selector_all(
        ".table .card", "els => els.every(e => getComputedStyle(e).visibility === 'hidden')")
    assert hidden
    frozen = laptop.inner_text(".stat-time")
    laptop.wait_for_timeout(2200)
    assert laptop.inner_text(".stat-time") == frozen
    laptop.click(".btn-resume")
    table.wait_version(version + 2)
    assert not table.view()["paused"] and not cover.is_visible()
    laptop.wait_for_function(
        f"() => document.querySelector('.stat-time').textContent !== '{frozen}'", timeout=5000)
    # The tab hidden: the clock stops on the server too; shown again, it runs.
    laptop.evaluate("""() => {
        Object.defineProperty(document, 'visibilityState', {value: 'hidden', configurable: true});
        document.dispatchEvent(new Event('visibilitychange'));
    }""")
    table.wait_version(version + 3)
    assert table.view()["paused"]
    laptop.evaluate("""() => {
        Object.defineProperty(document, 'visibilityState', {value: 'visible', configurable: true});
        document.dispatchEvent(new Event('visibilitychange'));
    }""")
    table.wait_version(version + 4)
    assert not table.view()["paused"] and not cover.is_visible()
    # A reload is no pause.
    laptop.reload()
    laptop.wait_for_selector("#game[data-version] .pile-foundation")
    table.settle()
    assert table.version == version + 4
    assert not table.view()["paused"] and not cover.is_visible()
    # A pause asked for (the P key) lasts through a reload.
    laptop.keyboard.press("p")
    table.wait_version(version + 5)
    laptop.reload()
    laptop.wait_for_selector("#game[data-version] .pile-foundation")
    table.settle()
    assert table.view()["paused"] and cover.is_visible()


def first_finishable_line(game: str, number: int) -> list[Move]:
    pos = Position.deal(get_game(game), number)
    result = solve(pos.copy(), time_limit=30)
    assert result.status == "won"
    for i, move in enumerate(result.moves):
        if finishing_line(pos) is not None:
            return list(result.moves[:i])
        pos.play(move)
    raise AssertionError("never finishable")


def test_auto_finish_plays_the_game_home(browser: Any, base_url: str) -> None:
    with page_with(browser, "fast", **LAPTOP) as page:
        table = Table(page, base_url).open("klondike", 2393)
        assert not page.locator(".finish-offer").is_visible()
        table.play_through_api([m.to_json() for m in first_finishable_line("klondike", 2393)])
        page.reload()
        page.wait_for_selector("#game[data-version] .pile-foundation")
        table.settle()
        offer = page.locator(".finish-offer")
        assert offer.is_visible()
        assert table.view()["piles"]["stock"], "cards left in the stock"
        page.click(".btn-finish")
        page.wait_for_function("() => document.querySelector('#game').dataset.status === 'won'",
                               timeout=60_000)
        table.settle()
        assert table.view()["status"] == "won" and not offer.is_visible()
        page.wait_for_selector(".win-summary[open]", timeout=10_000)


def test_the_win_cascades_and_sums_the_game_up(browser: Any, base_url: str) -> None:
    with page_with(browser, "fast", **LAPTOP) as page:
        table = Table(page, base_url)
        last = one_move_from_a_win(table)
        before = table.view()
        table.click_move(last)
        # The foundations' cards fall in, one after the other.
        page.wait_for_function("() => document.getAnimations().filter(a => a.effect?.target"
                               "?.closest('.pile-foundation')).length >= 4")
        summary = page.locator(".win-summary")
        summary.wait_for(state="visible", timeout=10_000)
        view = table.view()
        text = summary.inner_text()
        assert "You won!" in text and str(view["moves"]) in text
        minutes, seconds = divmod(int(view["elapsed_seconds"]), 60)
        assert f"{minutes}:{seconds:02d}" in text
        assert "Your first win of this game!" in text
        # Undo stays in reach (the summary is not modal), and closes the summary.
        page.click("button[data-action=undo]")
        table.wait_version(view["version"] + 1)
        assert not summary.is_visible()
        table.click_move(last)
        summary.wait_for(state="visible", timeout=10_000)
        # "Same deal again": a new game of the same deal.
        page.click(".btn-same-deal")
        page.wait_for_function(f"() => document.querySelector('#game').dataset.gameUid"
                               f" !== '{before['id']}'")
        table.settle()
        fresh = table.view()
        assert fresh["number"] == before["number"] and fresh["moves"] == 0
        assert not summary.is_visible()


def test_the_second_win_shows_the_best_and_no_cascade_without_animation(
        browser: Any, base_url: str) -> None:
    with page_with(browser, "off", viewport={"width": 390, "height": 844}, has_touch=True,
                   is_mobile=True) as page:
        table = Table(page, base_url)
        for round_ in range(2):
            last = one_move_from_a_win(table) if round_ == 0 else None
            if round_ == 1:
                page.click(".btn-same-deal")
                table.settle()
                number = table.view()["number"]
                from .winning import winnable_spider_deal
                _, line = winnable_spider_deal()
                table.play_through_api([m.to_json() for m in line[:-1]])
                page.reload()
                page.wait_for_selector("#game[data-version] .pile-foundation")
                table.settle()
                assert table.view()["number"] == number
                last = line[-1].to_json()
            assert last is not None
            table.click_move(last)
            page.wait_for_selector(".win-summary[open]", timeout=10_000)
            assert page.evaluate("document.getAnimations().length") == 0
        text = page.inner_text(".win-summary")
        assert "Your best for this game" in text and "2 / 2" in text
        box = page.locator(".win-summary").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
