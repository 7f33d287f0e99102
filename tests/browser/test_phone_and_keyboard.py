"""The table on a phone and from the keyboard: the settings panel wholly reachable in
Spider-type games, 44 px targets, a hint button that does not read as help, a left-handed
layout that moves only the stock and the foundations, a focus ring seen on white cards and a
"skip to the table" link as the first tab stop."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import settings_script
from .table import Table
from .test_each_game import opening_number

pytestmark = pytest.mark.browser

TARGET = 44

# Each setting's control: its box, and whether a tap at its centre reaches it (not covered by
# the table or cut off by the page).
SETTINGS = """() => [...document.querySelectorAll('.settings-panel .setting')].map((label) => {
    const r = label.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const control = label.querySelector('input, select');
    const c = control.getBoundingClientRect();
    const hitControl = document.elementFromPoint(c.left + c.width / 2, c.top + c.height / 2);
    return {name: control.name, left: r.left, top: r.top, right: r.right, bottom: r.bottom,
            width: r.width, height: r.height, reached: label.contains(hit),
            controlReached: hitControl === control || label.contains(hitControl)};
})"""


@pytest.mark.parametrize("game", ["spider", "spider-1-suit", "spider-2-suits"])
def test_the_phone_settings_panel_is_wholly_reachable(phone: Any, base_url: str,
                                                      game: str) -> None:
    Table(phone, base_url).open(game, opening_number(game))
    phone.locator(".settings summary").tap()
    panel = phone.locator(".settings-panel")
    panel.wait_for(state="visible")
    settings = phone.evaluate(SETTINGS)
    assert {s["name"] for s in settings} >= {"winnableOnly", "animation", "leftHanded"}
    for s in settings:
        assert s["left"] >= 0 and s["right"] <= 390, s
        assert s["top"] >= 0 and s["bottom"] <= 844, s
        assert s["reached"] and s["controlReached"], f"{s['name']} is covered"
    # Both usable by touch: the winnable-only box and the animations menu.
    phone.locator(".setting:has(input[name=winnableOnly])").tap()
    assert phone.is_checked("input[name=winnableOnly]")
    phone.select_option("select[name=animation]", "fast")
    saved = phone.evaluate("JSON.parse(localStorage.getItem('reussite.settings'))")
    assert saved["winnableOnly"] is True and saved["animation"] == "fast"


def test_phone_targets_are_44_px(phone: Any, base_url: str) -> None:
    Table(phone, base_url).open("spider", opening_number("spider"))
    controls = phone.eval_on_selector_all(
        ".toolbar .btn, .toolbar .settings summary, .toolbar .deal-number",
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return {name: e.getAttribute('aria-label') || e.className, w: r.width, h: r.height}; })")
    assert len(controls) == 8  # new game, restart, undo, redo, hint, give up, deal, settings
    for c in controls:
        assert c["w"] >= TARGET and c["h"] >= TARGET, c
    phone.locator(".settings summary").tap()
    for s in phone.evaluate(SETTINGS):
        assert s["width"] >= TARGET and s["height"] >= TARGET, s
    # The whole row is the target: a tap at its far end toggles the box.
    row = phone.locator(".setting:has(input[name=fourColours])").bounding_box()
    phone.touchscreen.tap(row["x"] + row["width"] - 6, row["y"] + row["height"] / 2)
    assert phone.is_checked("input[name=fourColours]")


def test_the_hint_button_shows_a_bulb_not_a_question_mark(phone: Any, base_url: str) -> None:
    Table(phone, base_url).open("klondike", 3)
    hint = phone.locator("button[data-action=hint]")
    assert hint.get_attribute("aria-label") == "Hint"
    icon = hint.locator(".icon")
    assert icon.is_visible() and icon.locator("svg").count() == 1
    assert "?" not in icon.inner_text()


@pytest.mark.parametrize("viewport", [(1366, 768), (390, 844)], ids=["laptop", "phone"])
def test_left_handed_moves_only_the_stock_and_foundations(browser: Any, base_url: str,
                                                          viewport: tuple[int, int]) -> None:
    ctx = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    ctx.add_init_script(settings_script(leftHanded=True, autoCollect=False))
    page = ctx.new_page()
    Table(page, base_url).open("klondike-draw-3", 4)
    x = page.eval_on_selector_all(".pile", "els => Object.fromEntries(els.map(e =>"
                                  " [e.dataset.pile, e.getBoundingClientRect().left]))")
    foundations = [v for p, v in x.items() if p.startswith("foundation")]
    assert x["stock"] > max(foundations), "the stock on the right"
    assert x["waste"] < x["stock"] and x["waste"] > max(foundations)
    tableau = [x[f"tableau:{i}"] for i in range(7)]
    assert tableau == sorted(tableau), "pile 1 stays on the left"
    # The arrow keys follow what is seen: from the first foundation to the stock, then the
    # tableau from pile 1.
    page.focus(".pile[tabindex='0']")
    page.keyboard.press("Home")
    seen = [page.evaluate("document.activeElement.dataset.pile")]
    for _ in range(7):
        page.keyboard.press("ArrowRight")
        seen.append(page.evaluate("document.activeElement.dataset.pile"))
    assert seen == ["foundation:0", "foundation:1", "foundation:2", "foundation:3", "waste",
                    "stock", "tableau:0", "tableau:1"]
    ctx.close()


def _contrast(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    def lum(c: tuple[float, ...]) -> float:
        ch = [v / 255 for v in c[:3]]
        lin = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in ch]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    hi, lo = sorted([lum(a), lum(b)], reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _rgb(css: str) -> tuple[float, ...]:
    return tuple(float(v) for v in css[css.index("(") + 1:css.index(")")].split(",")[:3])


def test_skip_link_first_and_a_focus_ring_seen_on_white_cards(laptop: Any,
                                                               base_url: str) -> None:
    Table(laptop, base_url).open("klondike", 3)
    laptop.keyboard.press("Tab")
    first = laptop.evaluate("[document.activeElement.className,"
                            " document.activeElement.getBoundingClientRect().top]")
    assert first[0] == "skip-link" and first[1] >= 0, "the first tab stop, in view"
    laptop.keyboard.press("Enter")
    assert laptop.evaluate("document.activeElement.classList.contains('pile')")
    # On to a tableau pile, whose top card is face up (white).
    for _ in range(20):
        if laptop.evaluate("document.activeElement.dataset.pile") == "tableau:0":
            break
        laptop.keyboard.press("ArrowRight")
    ring = laptop.evaluate("""() => {
        const card = document.activeElement.querySelector(':scope > .card:last-of-type');
        const s = getComputedStyle(card);
        return {up: card.classList.contains('up'), style: s.outlineStyle,
                width: parseFloat(s.outlineWidth), colour: s.outlineColor,
                background: s.backgroundColor, shadow: s.boxShadow};
    }""")
    assert ring["up"]
    assert ring["style"] == "solid" and ring["width"] >= 2, ring
    assert _contrast(_rgb(ring["colour"]), _rgb(ring["background"])) >= 3, ring
    assert ring["shadow"] != "none"
