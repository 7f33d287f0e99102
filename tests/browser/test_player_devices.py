"""The player on the statistics page, in two browser contexts (two devices): a display name
set from the keyboard and shown as text (markup and all), a code made on the laptop and
typed on the phone, which then plays as the same player (its games, statistics and name);
the phone signed out from the laptop; and forgetting the player after a confirmation."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytestmark = pytest.mark.browser

MIN_TARGET = 44
"""The smallest tap target on a phone, in CSS pixels."""


def play_a_move(page: Any, base_url: str) -> str:
    """Deal Klondike 3 for the page's player and play one move (through the page's own
    cookies); the game's id."""
    r = page.request.post(f"{base_url}/api/games", data={"game": "klondike", "number": 3})
    view = r.json()
    r = page.request.post(f"{base_url}/api/games/{view['id']}/moves",
                          data={"move": view["legal_moves"][0], "version": 0})
    assert r.ok
    game_id: str = view["id"]
    return game_id


def open_stats(page: Any, base_url: str) -> None:
    page.goto(f"{base_url}/stats")
    page.locator(".devices").wait_for(state="visible")
    page.wait_for_function("() => document.querySelector('.browser-list').children.length > 0")


def test_a_code_moves_the_player_to_a_phone_which_is_then_signed_out(
        laptop: Any, phone: Any, base_url: str) -> None:
    game_id = play_a_move(laptop, base_url)
    open_stats(laptop, base_url)

    # A name, typed and sent with the keyboard; markup in it is shown as text.
    laptop.locator("#name-input").focus()
    laptop.keyboard.type("<b>Ann</b> & co")
    laptop.keyboard.press("Enter")
    shown = laptop.locator(".display-name")
    shown.filter(has_text="<b>Ann</b> & co").wait_for()
    assert shown.locator("b").count() == 0
    laptop.locator("#name-input").fill("x\u200by")
    laptop.keyboard.press("Enter")
    laptop.locator(".name-status").filter(has_text="invisible").wait_for()
    assert shown.inner_text() == "<b>Ann</b> & co"

    # A code, made from the keyboard, shown big with its expiry.
    laptop.locator(".btn-code").focus()
    laptop.keyboard.press("Enter")
    code_box = laptop.locator(".code-shown .code")
    code_box.wait_for(state="visible")
    code = code_box.inner_text()
    assert re.fullmatch(r"[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}", code)
    assert float(code_box.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 28
    assert laptop.locator(".code-expiry").inner_text()

    # The phone types it (lower case, spaces instead of dashes) and becomes the same player.
    open_stats(phone, base_url)
    for target in phone.locator(".devices button, .devices input, .identity button").all():
        box = target.bounding_box()
        assert box is not None and box["height"] >= MIN_TARGET, target.evaluate(
            "e => e.outerHTML")
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    phone.locator("#code-input").fill(code.lower().replace("-", " "))
    with phone.expect_navigation():
        phone.locator("#code-input").press("Enter")
    phone.locator(".devices").wait_for(state="visible")
    assert phone.locator(".display-name").inner_text() == "<b>Ann</b> & co"
    assert phone.locator('table.stats tr[data-game="klondike"]').count() == 1
    assert phone.request.get(f"{base_url}/api/games/{game_id}").ok

    # The same code a second time: refused, with a sentence.
    with phone.context.browser.new_context() as third:
        page = third.new_page()
        open_stats(page, base_url)
        page.locator("#code-input").fill(code)
        page.locator("#code-input").press("Enter")
        page.locator(".sign-in-status").filter(has_text="used already").wait_for()

    # The laptop lists both browsers and signs the phone out.
    open_stats(laptop, base_url)
    items = laptop.locator(".browser-list li")
    assert items.count() == 2
    assert laptop.locator(".browser-list li.this").count() == 1
    laptop.locator(".browser-list .btn-sign-out").click()
    laptop.wait_for_function("() => document.querySelectorAll('.browser-list li').length == 1")
    assert laptop.locator(".browsers-status").inner_text()

    # The phone is a new player now.
    open_stats(phone, base_url)
    assert re.fullmatch(r"Player [0-9a-f]{6}", phone.locator(".display-name").inner_text())
    assert phone.locator("table.stats").count() == 0
    assert phone.request.get(f"{base_url}/api/games/{game_id}").status == 404


def test_forgetting_asks_first_then_deletes_everything(laptop: Any, base_url: str) -> None:
    game_id = play_a_move(laptop, base_url)
    open_stats(laptop, base_url)
    laptop.locator("#name-input").fill("Forgettable")
    laptop.locator("#name-input").press("Enter")
    laptop.locator(".display-name").filter(has_text="Forgettable").wait_for()
    dialog = laptop.locator("dialog.confirm-forget")
    laptop.locator(".btn-forget").click()
    dialog.wait_for(state="visible")
    laptop.keyboard.press("Escape")  # kept: nothing happens
    dialog.wait_for(state="hidden")
    assert laptop.request.get(f"{base_url}/api/games/{game_id}").ok
    laptop.locator(".btn-forget").click()
    with laptop.expect_navigation():
        dialog.locator("button[value=forget]").click()
    laptop.locator(".identity").wait_for(state="visible")
    assert laptop.locator(".display-name").inner_text().startswith("Player ")
    assert laptop.locator("table.stats").count() == 0
    assert laptop.request.get(f"{base_url}/api/games/{game_id}").status == 404
