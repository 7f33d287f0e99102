"""Whole games and the rest of the table: a win through the UI, the keyboard, a phone,
settings, resuming a game, the deal number in the URL, hints."""

from __future__ import annotations

from typing import Any

import pytest

from reussite.engine import Position
from reussite.games import get_game

from .conftest import settings_script
from .table import Table, board_moves
from .test_each_game import opening_number
from .winning import winnable_spider_deal

pytestmark = pytest.mark.browser

def test_a_whole_game_is_won_through_clicks(browser: Any, base_url: str) -> None:
    number, line = winnable_spider_deal()
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    ctx.add_init_script(settings_script(animation="off", autoCollect=False))
    page = ctx.new_page()
    table = Table(page, base_url).open("spider-1-suit", number)
    for move in line:
        table.play_by_clicks(move.to_json())
    view = table.view()
    assert view["status"] == "won"
    assert page.get_attribute("#game", "data-status") == "won"
    summary = page.locator(".win-summary")
    summary.wait_for(state="visible")
    assert "You won!" in summary.inner_text()
    banner = page.locator(".banner-won")
    assert not banner.is_visible()  # behind the summary, until it closes
    page.click(".win-summary >> text=Close")
    # The dialog's "close" event, which shows the banner, comes after the click's task.
    banner.wait_for(state="visible", timeout=5000)
    assert "You won!" in banner.inner_text()
    # The celebration does not get in the way: the toolbar still answers.
    page.click("button[data-action=undo]")
    table.wait_version(view["version"] + 1)
    assert table.view()["status"] == "playing"
    ctx.close()


def test_keyboard_only_play(laptop: Any, base_url: str) -> None:
    table = Table(laptop, base_url).open("klondike", opening_number("klondike"))
    table.focus_table()
    start = table.view()
    version = start["version"]
    played = 0
    view = start
    while played < 2:
        moves = board_moves(view)
        if not moves:
            laptop.keyboard.press("d")
            version += 1
            table.wait_version(version)
            view = table.view()
            continue
        move = moves[0]
        table.key_move(move)
        version += 1
        table.wait_version(version)
        after = table.view()
        assert len(after["piles"][move["to"]]) == len(view["piles"][move["to"]]) + move["count"]
        view = after
        played += 1
    # Deal with D, take it back with Ctrl+Z, play it again with Ctrl+Y.
    stock = len(view["piles"]["stock"])
    laptop.keyboard.press("d")
    table.wait_version(version + 1)
    dealt = table.view()
    assert len(dealt["piles"]["stock"]) != stock or dealt["piles"] != view["piles"]
    laptop.keyboard.press("Control+z")
    table.wait_version(version + 2)
    assert table.view()["piles"] == view["piles"]
    laptop.keyboard.press("Control+y")
    table.wait_version(version + 3)
    assert table.view()["piles"] == dealt["piles"]


def test_a_phone_plays_by_taps_without_horizontal_scrolling(phone: Any, base_url: str) -> None:
    table = Table(phone, base_url).open("spider", opening_number("spider"))
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    for el in phone.query_selector_all(".pile"):
        box = el.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    view = table.view()
    move = board_moves(view)[0]
    src = table.card(move["from"], len(view["piles"][move["from"]]) - move["count"]).bounding_box()
    phone.touchscreen.tap(src["x"] + src["width"] / 2, src["y"] + 5)
    phone.wait_for_selector(".card.selected")
    dst = table.pile(move["to"]).locator(".card").last.bounding_box()
    phone.touchscreen.tap(dst["x"] + dst["width"] / 2, dst["y"] + dst["height"] / 2)
    table.wait_version(view["version"] + 1)
    view = table.view()
    assert view["moves"] == 1

    # A drag with a finger (touch events, as a phone sends them).
    while not board_moves(view):
        table.click_stock()
        table.wait_version(view["version"] + 1)
        view = table.view()
    move = board_moves(view)[0]
    x, y, tx, ty = table.points(move["from"], move["count"], move["to"])
    cdp = phone.context.new_cdp_session(phone)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for k in range(1, 9):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [
            {"x": x + (tx - x) * k / 8, "y": y + (ty - 4 - y) * k / 8}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    table.wait_version(view["version"] + 1)
    after = table.view()
    assert len(after["piles"][move["to"]]) == len(view["piles"][move["to"]]) + move["count"]


def test_face_down_cards_say_only_face_down(laptop: Any, base_url: str) -> None:
    Table(laptop, base_url).open("spider", 3)
    down = laptop.query_selector_all(".card.down")
    assert down
    for card in down:
        assert card.get_attribute("aria-label") == "face-down card"
        assert card.get_attribute("data-card") is None
    up = laptop.query_selector_all(".card.up")
    names = {c.get_attribute("aria-label") for c in up}
    assert all(" of " in n for n in names)


def test_the_deal_number_field_replays_a_deal_and_the_url_carries_it(laptop: Any,
                                                                     base_url: str) -> None:
    table = Table(laptop, base_url).open("astrocyte")
    laptop.fill("input.deal-number", "1234")
    laptop.keyboard.press("Enter")
    laptop.wait_for_function("() => document.querySelector('#game').dataset.number === '1234'")
    table.settle()
    assert laptop.url.endswith("/games/astrocyte?number=1234")
    expected = Position.deal(get_game("astrocyte"), 1234).player_view()
    assert table.view()["piles"] == expected


def test_an_unfinished_game_is_resumed(laptop: Any, base_url: str) -> None:
    table = Table(laptop, base_url).open("klondike-draw-3")
    first = table.view()
    table.click_stock()
    table.wait_version(first["version"] + 1)
    laptop.goto(f"{base_url}/games/klondike-draw-3")
    laptop.wait_for_selector("#game[data-version] .pile-foundation")
    table.settle()
    again = table.view()
    assert again["id"] == first["id"]
    assert again["moves"] == 1


def test_settings_are_remembered(laptop: Any, base_url: str) -> None:
    table = Table(laptop, base_url).open("klondike", 5)
    laptop.click(".settings summary")
    laptop.check("input[name=fourColours]")
    laptop.check("input[name=leftHanded]")
    assert "four-colours" in laptop.get_attribute("#game", "class")
    laptop.reload()
    laptop.wait_for_selector("#game[data-version] .pile-foundation")
    table.settle()
    classes = laptop.get_attribute("#game", "class")
    assert "four-colours" in classes and "left-handed" in classes
    stock = table.pile("stock").bounding_box()
    foundation = table.pile("foundation:0").bounding_box()
    assert stock["x"] > foundation["x"], "left-handed: the stock moves to the right"


def test_the_hint_lights_up_a_move(laptop: Any, base_url: str) -> None:
    table = Table(laptop, base_url).open("spider-2-suits", 11)
    view = table.view()
    laptop.click("button[data-action=hint]")
    laptop.wait_for_selector(".pile.hint")
    lit = laptop.eval_on_selector_all(".pile.hint", "els => els.map(e => e.dataset.pile)")
    assert len(lit) == 1
    assert lit[0] == "stock" or any(m["type"] == "move" and m["to"] == lit[0]
                                    for m in view["legal_moves"])


def test_tall_piles_squeeze_to_stay_on_screen(laptop: Any, base_url: str) -> None:
    table = Table(laptop, base_url).open("spider-1-suit", opening_number("spider-1-suit"))
    for _ in range(5):
        view = table.view()
        if not any(m["type"] == "stock" for m in view["legal_moves"]):
            break
        table.click_stock()
        table.wait_version(view["version"] + 1)
    tallest = max(len(c) for p, c in table.view()["piles"].items() if p.startswith("tableau"))
    assert tallest >= 10
    bottom = laptop.evaluate("Math.max(...[...document.querySelectorAll('.pile-tableau .card')]"
                             ".map(c => c.getBoundingClientRect().bottom + window.scrollY))")
    top = laptop.evaluate("document.querySelector('.pile-tableau').getBoundingClientRect().top"
                          " + window.scrollY")
    assert bottom <= max(768, top + 2.3 * 165) + 1


def test_auto_collect_sends_a_safe_ace_home(browser: Any, base_url: str) -> None:
    rules = get_game("klondike")
    number = next(n for n in range(1, 500)
                  if any(m.kind == "move" and m.dst.startswith("foundation")
                         for m in Position.deal(rules, n).legal_moves()))
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    ctx.add_init_script(settings_script(autoCollect=True))
    page = ctx.new_page()
    table = Table(page, base_url).open("klondike", number)
    before = table.view()
    table.click_stock()
    table.wait_version(before["version"] + 2)
    after = table.view()
    assert sum(len(c) for p, c in after["piles"].items() if p.startswith("foundation")) >= 1
    ctx.close()


def test_controls_targets_double_click_restart_and_winnable_new_game(laptop: Any,
                                                                      base_url: str) -> None:
    rules = get_game("klondike")
    number = next(n for n in range(1, 500)
                  if any(m.kind == "move" and m.dst.startswith("foundation")
                         and m.src.startswith("tableau")
                         for m in Position.deal(rules, n).legal_moves()))
    table = Table(laptop, base_url).open("klondike", number)
    view = table.view()
    opening = view["piles"]

    # While a run is dragged, exactly its legal destinations light up; dropped back, nothing.
    move = board_moves(view)[0]
    x, y, _, _ = table.points(move["from"], move["count"], move["to"])
    laptop.mouse.move(x, y)
    laptop.mouse.down()
    laptop.mouse.move(x + 20, y + 30, steps=3)
    lit = set(laptop.eval_on_selector_all(".pile.target", "els => els.map(e => e.dataset.pile)"))
    expected = {m["to"] for m in board_moves(view)
                if m["from"] == move["from"] and m["count"] == move["count"]}
    assert lit == expected
    laptop.mouse.move(x, y, steps=3)
    laptop.mouse.up()
    table.settle()
    assert table.view()["version"] == view["version"]
    assert laptop.locator(".pile.target").count() == 0

    # A double-click sends the card to a foundation.
    ace = next(m for m in view["legal_moves"]
               if m["type"] == "move" and m["to"].startswith("foundation"))
    n = len(view["piles"][ace["from"]])
    table.card(ace["from"], n - 1).dblclick()
    table.wait_version(view["version"] + 1)
    after = table.view()
    assert len(after["piles"][ace["from"]]) == n - 1
    assert sum(len(c) for p, c in after["piles"].items() if p.startswith("foundation")) == 1

    # Restart deals the same deal again.
    laptop.click("button[data-action=restart]")
    table.wait_version(after["version"] + 1)
    assert table.view()["piles"] == opening
    assert laptop.inner_text(".stat-moves") == "0"

    # "Winnable deals only": a new game is asked for with {"winnable": true}.
    laptop.click(".settings summary")
    laptop.check("input[name=winnableOnly]")
    with laptop.expect_request(lambda r: r.url.endswith("/api/games")
                               and r.method == "POST") as request:
        laptop.click("button[data-action=new_game]")
    assert request.value.post_data_json.get("winnable") is True
    laptop.wait_for_function(f"() => document.querySelector('#game').dataset.gameUid"
                             f" !== '{view['id']}'")
    table.settle()
    fresh = table.view()
    assert fresh["origin"] == "winnable"
    if fresh["number"] is None:
        # A deal of the site's pool (its thread fills it in the background): secret until
        # the game is over, so the address names the game, not the deal.
        assert laptop.url.endswith(f"?id={fresh['id']}")
    else:  # the pool was still empty: a deal of the public list, whose number is shown
        assert laptop.url.endswith(f"?number={fresh['number']}")


STUCK_LINE = (
    "S S S S S S S S waste>foundation:0 tableau:3>tableau:6 tableau:4>tableau:2 S S S "
    "S S waste>tableau:4 tableau:4>tableau:6 waste>tableau:4 S S S S S S S S S S "
    "waste>foundation:1 S waste>tableau:3 tableau:5>tableau:3 tableau:3>tableau:5 S "
    "tableau:5>tableau:3 S tableau:3>tableau:5 S waste>tableau:3 S S S S S S S S "
    "waste>foundation:2 S S S S waste>foundation:2 "
)
"""Klondike draw 3, deal 3: moves after which nothing can change any more (S: a click on the
stock; ``from>to``: one card)."""


def _moves(line: str) -> list[dict[str, Any]]:
    return [{"type": "stock"} if m == "S" else
            {"type": "move", "from": m.split(">")[0], "to": m.split(">")[1], "count": 1}
            for m in line.split()]


def test_a_hint_without_a_useful_move_says_why(laptop: Any, base_url: str) -> None:
    table = Table(laptop, base_url).open("klondike-draw-3", 3)
    table.play_through_api(_moves(STUCK_LINE))
    table.open("klondike-draw-3")  # resumes that game, drawn from its view
    assert table.view()["moves"] == len(STUCK_LINE.split())
    laptop.click("button[data-action=hint]")
    laptop.wait_for_function("() => document.querySelector('.toast').textContent.length > 0")
    assert table.toast() == "This game cannot be won any more from here"
    assert laptop.locator(".hint").count() == 0
    # Nothing useful but undoing or dealing (the answer as the server gives it elsewhere):
    # the sentence, and the undo button and the stock marked.
    laptop.route("**/hint", lambda route: route.fulfill(
        status=200, content_type="application/json",
        body='{"move": null, "text": "No useful move: undo, or deal", '
             '"reason": "undo_or_deal"}'))
    laptop.click("button[data-action=hint]")
    laptop.wait_for_selector(".btn-undo.hint")
    assert table.toast() == "No useful move: undo, or deal"
    assert laptop.locator('.pile.hint[data-pile="stock"]').count() == 1
