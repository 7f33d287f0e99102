"""A game is not lost by accident, and the deal-number box takes any deal number: New game asks
before abandoning a game in progress, the wheel over the deal number changes nothing, Back and
Forward show the games they showed (as they stand), a bad number gets a sentence in the page's
language, and deal numbers up to 2^64 - 1 go round the client whole."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from reussite.deals import MAX_DEAL_NUMBER
from reussite.web.i18n import translations

from .conftest import player_page
from .table import Table

pytestmark = pytest.mark.browser


@pytest.fixture
def french(browser: Any) -> Iterator[Any]:
    """A French-speaking player on a laptop."""
    with player_page(browser, viewport={"width": 1366, "height": 768}, locale="fr-FR") as page:
        yield page


def fr(text: str) -> str:
    translated: str = translations("fr").gettext(text)
    assert translated != text, f"not translated: {text}"
    return translated


def new_game_posts(page: Any) -> list[str]:
    """Record each request that deals a game."""
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url)
            if r.method == "POST" and r.url.endswith("/api/games") else None)
    return posts


def test_new_game_asks_before_abandoning_a_game_in_progress(french: Any, base_url: str) -> None:
    table = Table(french, base_url).open("klondike", 5)
    first = table.view()
    posts = new_game_posts(french)
    # No move played yet: nothing to lose, no question.
    french.click("button[data-action=new_game]")
    french.wait_for_function(f"() => document.querySelector('#game').dataset.gameUid"
                             f" !== '{first['id']}'")
    table.settle()
    assert not french.locator('dialog.confirm[aria-labelledby="confirm-text"]').is_visible()
    assert len(posts) == 1
    game = table.view()
    table.click_stock()
    table.wait_version(game["version"] + 1)

    # A move played: the question, in French; "keep playing" keeps the game.
    french.click("button[data-action=new_game]")
    dialog = french.locator('dialog.confirm[aria-labelledby="confirm-text"]')
    dialog.wait_for(state="visible")
    assert fr("Abandon the game in progress and deal a new one?") in dialog.inner_text()
    dialog.get_by_role("button", name=fr("Keep playing")).click()
    dialog.wait_for(state="hidden")
    table.settle()
    assert len(posts) == 1
    assert table.view()["id"] == game["id"]

    # Escape is a "no" too; the other button deals.
    french.click("button[data-action=new_game]")
    dialog.wait_for(state="visible")
    french.keyboard.press("Escape")
    dialog.wait_for(state="hidden")
    assert len(posts) == 1
    french.click("button[data-action=new_game]")
    dialog.get_by_role("button", name=fr("New game")).click()
    french.wait_for_function(f"() => document.querySelector('#game').dataset.gameUid"
                             f" !== '{game['id']}'")
    table.settle()
    assert len(posts) == 2
    assert table.view()["moves"] == 0


def test_the_wheel_over_the_deal_number_changes_nothing(laptop: Any, base_url: str) -> None:
    table = Table(laptop, base_url).open("klondike", 100)
    game = table.view()
    posts = new_game_posts(laptop)
    box = laptop.locator("input.deal-number")
    box.click()
    box.hover()
    for dy in (120, -120, 360):
        laptop.mouse.wheel(0, dy)
        laptop.wait_for_timeout(50)
    box.press("ArrowUp")
    box.press("ArrowDown")
    laptop.locator("button[data-action=undo]").focus()  # leaving the box fires its change
    laptop.wait_for_timeout(200)
    table.settle()
    assert box.input_value() == "100"
    assert posts == []
    assert table.view()["id"] == game["id"]


def test_back_and_forward_restore_the_games_they_showed(french: Any, base_url: str) -> None:
    table = Table(french, base_url).open("klondike", 11)
    first = table.view()
    table.click_stock()
    table.wait_version(first["version"] + 1)

    # Another deal by its number (the game in progress is abandoned on purpose).
    french.fill("input.deal-number", "12")
    french.keyboard.press("Enter")
    new_game_dialog = french.locator('dialog.confirm[aria-labelledby="confirm-text"]')
    new_game_dialog.get_by_role("button", name=fr("New game")).click()
    french.wait_for_function("() => document.querySelector('#game').dataset.number === '12'")
    second = table.view()
    # One click at a time: two quick clicks on the stock would be a double-click.
    table.click_stock()
    table.wait_version(second["version"] + 1)
    table.click_stock()
    table.wait_version(second["version"] + 2)
    assert french.url.endswith("?number=12")

    french.go_back()
    french.wait_for_function(f"() => document.querySelector('#game').dataset.gameUid"
                             f" === '{first['id']}'")
    back = table.view()
    assert back["moves"] == 1, "the game as it was left, not a fresh deal"
    assert french.input_value("input.deal-number") == "11"
    assert french.url.endswith("?number=11")

    french.go_forward()
    french.wait_for_function(f"() => document.querySelector('#game').dataset.gameUid"
                             f" === '{second['id']}'")
    assert table.view()["moves"] == 2

    # A reload shows the same game too.
    french.reload()
    french.wait_for_selector("#game[data-version] .pile-foundation")
    table.settle()
    assert table.view()["id"] == second["id"]


@pytest.mark.parametrize("viewport", [(1366, 768), (390, 844)], ids=["laptop", "phone"])
def test_the_deal_number_box_shows_twenty_digits(browser: Any, base_url: str,
                                                 viewport: tuple[int, int]) -> None:
    ctx = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    page = ctx.new_page()
    Table(page, base_url).open("spider", 1)
    box = page.locator("input.deal-number")
    box.fill(str(MAX_DEAL_NUMBER))
    assert len(str(MAX_DEAL_NUMBER)) == 20
    fits = box.evaluate("el => { el.scrollLeft = 0; el.setSelectionRange(0, 0);"
                        " return el.scrollWidth <= el.clientWidth; }")
    assert fits, "20 digits are seen whole"
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport[0]
    ctx.close()


@pytest.mark.parametrize("typed", [str(MAX_DEAL_NUMBER + 1), "-5", "12a", "9" * 23])
def test_a_bad_deal_number_is_explained_in_the_page_language(french: Any, base_url: str,
                                                            typed: str) -> None:
    table = Table(french, base_url).open("klondike", 8)
    game = table.view()
    posts = new_game_posts(french)
    french.fill("input.deal-number", typed)
    french.keyboard.press("Enter")
    expected = fr("A deal number is a whole number from 0 to {max}.").replace(
        "{max}", str(MAX_DEAL_NUMBER))
    french.wait_for_function("(text) => document.querySelector('.toast').textContent === text",
                             arg=expected)
    assert french.get_attribute("input.deal-number", "aria-invalid") == "true"
    table.settle()
    assert posts == []
    assert table.view()["id"] == game["id"]


def test_the_largest_deal_number_goes_round_whole(laptop: Any, base_url: str) -> None:
    largest = str(MAX_DEAL_NUMBER)
    table = Table(laptop, base_url).open("klondike", 1)
    with laptop.expect_request(lambda r: r.method == "POST"
                               and r.url.endswith("/api/games")) as request:
        laptop.fill("input.deal-number", largest)
        laptop.keyboard.press("Enter")
    # Sent as the JSON number itself (the API takes numbers, not strings).
    assert f'"number":{largest}' in (request.value.post_data or "")
    laptop.wait_for_function(f"() => document.querySelector('#game').dataset.number"
                             f" === '{largest}'")
    table.settle()
    raw = laptop.evaluate("fetch('/api/games/' + document.querySelector('#game').dataset.gameUid)"
                          ".then(r => r.text())")
    assert json.loads(raw)["number"] == MAX_DEAL_NUMBER  # the server dealt that very number
    view = table.view()
    assert laptop.input_value("input.deal-number") == largest
    assert laptop.url.endswith(f"?number={largest}")
    # A link to the deal, opened in another tab, deals it again, whole.
    tab = laptop.context.new_page()
    again = Table(tab, base_url).open("klondike", MAX_DEAL_NUMBER).view()
    assert again["id"] != view["id"] and again["piles"] == view["piles"]


def test_a_secret_deal_is_addressed_by_its_game_and_shown_again_on_reload(
        laptop: Any, base_url: str) -> None:
    """A deal the site chose: its address names the game, not a number; the deal box is empty;
    a reload shows the same game, as it was left."""
    table = Table(laptop, base_url).open("spider-1-suit")
    view = table.view()
    assert view["number"] is None
    assert laptop.url.endswith(f"/games/spider-1-suit?id={view['id']}")
    assert "number" not in laptop.url
    assert laptop.input_value("input.deal-number") == ""
    assert laptop.get_attribute("#game", "data-number") == ""
    table.click_stock()
    table.wait_version(view["version"] + 1)
    laptop.reload()
    laptop.wait_for_function(f"() => document.querySelector('#game').dataset.gameUid"
                             f" === '{view['id']}'")
    assert table.view()["version"] == view["version"] + 1
