"""Personal touches: the card back and the table colour chosen in the settings and remembered,
court cards lettered in the page's language, and sound, off by default, that can be turned on
and off."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote

import pytest

from reussite.web.i18n import translations

from .conftest import player_page
from .table import Table

pytestmark = pytest.mark.browser


def computed(page: Any, selector: str, prop: str) -> str:
    value: str = page.evaluate(
        "([s, p]) => getComputedStyle(document.querySelector(s)).getPropertyValue(p)",
        [selector, prop])
    return value


def open_settings(page: Any) -> None:
    if not page.evaluate("document.querySelector('.settings').open"):
        page.locator(".settings summary").click()


def test_card_back_and_table_colour_are_chosen_and_remembered(laptop: Any,
                                                              base_url: str) -> None:
    table = Table(laptop, base_url).open("klondike", 3)
    # A new player: the navy back on the green table.
    assert laptop.get_attribute("#game", "data-back") == "navy"
    assert laptop.get_attribute("#game", "data-felt") == "green"
    assert "rgb(45, 79, 160)" in computed(laptop, ".card.down", "background-image")
    assert "rgb(31, 107, 69)" in computed(laptop, "#game", "background-image")
    open_settings(laptop)
    assert laptop.locator('input[name="back"]').count() >= 3
    assert laptop.locator('input[name="felt"]').count() >= 3
    assert laptop.locator('input[name="back"][value="navy"]').is_checked()
    laptop.get_by_label("Red dots").check()
    laptop.get_by_label("Wine red").check()
    for _ in range(2):  # as chosen, then after a reload
        assert laptop.get_attribute("#game", "data-back") == "red"
        assert laptop.get_attribute("#game", "data-felt") == "wine"
        assert "rgb(184, 40, 58)" in computed(laptop, ".card.down", "background-image")
        assert "rgb(121, 42, 57)" in computed(laptop, "#game", "background-image")
        laptop.reload()
        table.settle()
    open_settings(laptop)
    assert laptop.locator('input[name="back"][value="red"]').is_checked()
    assert laptop.locator('input[name="felt"][value="wine"]').is_checked()
    laptop.get_by_label("Black and gold").check()
    laptop.get_by_label("Slate grey").check()
    laptop.reload()
    table.settle()
    assert laptop.get_attribute("#game", "data-back") == "black"
    assert laptop.get_attribute("#game", "data-felt") == "slate"


def court_faces(page: Any) -> list[dict[str, str]]:
    """Every face-up Jack, Queen and King on the table: its code, its label, the letter its
    face draws in the corner."""
    faces: list[dict[str, str]] = page.evaluate("""() => [...document.querySelectorAll(
        '.card.up')].filter((c) => 'JQK'.includes(c.dataset.card[0])).map((c) => ({
          card: c.dataset.card, label: c.getAttribute('aria-label'),
          face: c.style.backgroundImage}))""")
    for f in faces:
        svg = unquote(f.pop("face"))
        f["letter"] = re.findall(r">([^<>]+)</text>", svg)[0]
    return faces


@pytest.mark.parametrize("size", [(1366, 768), (390, 844)], ids=["laptop", "phone"])
@pytest.mark.parametrize("lang, letters", [("en", "JQK"), ("fr", "VDR"), ("ru", "ВДК")])
def test_court_cards_carry_the_letters_of_the_page_language(
        browser: Any, base_url: str, lang: str, letters: str, size: tuple[int, int]) -> None:
    t = translations(lang)
    words = {"J": t.gettext("jack"), "Q": t.gettext("queen"), "K": t.gettext("king")}
    width, height = size
    with player_page(browser, viewport={"width": width, "height": height}, locale=lang,
                     has_touch=width < 600) as page:
        # Fred's Spider deals its 50 tableau cards face up: courts of every kind.
        Table(page, base_url).open("freds-spider", 1)
        faces = court_faces(page)
        assert {f["card"][0] for f in faces} == {"J", "Q", "K"}
        for f in faces:
            assert f["letter"] == letters["JQK".index(f["card"][0])], f
            assert f["label"].startswith(words[f["card"][0]]), f


INSTRUMENT = """
window.__sound = {contexts: 0, tones: 0};
const Original = window.AudioContext;
window.AudioContext = class extends Original {
  constructor(...args) { super(...args); window.__sound.contexts += 1; }
  createOscillator() { window.__sound.tones += 1; return super.createOscillator(); }
};
"""


def sound(page: Any) -> dict[str, int]:
    counts: dict[str, int] = page.evaluate("({...window.__sound})")
    return counts


def test_sound_is_off_by_default_and_toggles(browser: Any, base_url: str) -> None:
    with player_page(browser, viewport={"width": 1366, "height": 768}) as page:
        page.context.add_init_script(INSTRUMENT)
        table = Table(page, base_url).open("spider-1-suit", 2)
        open_settings(page)
        box = page.locator('input[name="sound"]')
        assert not box.is_checked()
        table.click_stock()
        table.wait_version(1)
        assert sound(page) == {"contexts": 0, "tones": 0}  # silent: no audio made at all
        open_settings(page)
        box.check()
        table.click_stock()  # a deal from the stock: a riffle of four taps
        table.wait_version(2)
        assert sound(page)["tones"] == 4
        page.reload()
        table.settle()
        open_settings(page)
        assert page.locator('input[name="sound"]').is_checked()
        view = table.view()
        move = next(m for m in view["legal_moves"] if m["type"] == "move")
        table.click_move(move)  # a move: one tap (two tones)
        table.wait_version(view["version"] + 1)
        assert sound(page)["tones"] == 2
        open_settings(page)
        page.locator('input[name="sound"]').uncheck()
        table.click_stock()
        table.wait_version(view["version"] + 2)
        assert sound(page)["tones"] == 2


def test_each_change_has_its_sound(laptop: Any, base_url: str) -> None:
    """What a new view sounds like (sound.js's soundOf), from the view before it."""
    Table(laptop, base_url).open("klondike", 1)
    cases = laptop.evaluate("""async () => {
      const { soundOf } = await import(document.querySelector(
        'script[src*="app.js"]').src.replace(/app\\.js.*/, 'sound.js'));
      const v = (over) => ({id: 'g', version: 3, status: 'playing', events: [], ...over});
      return {
        first: soundOf(null, v({})),
        other_game: soundOf(v({}), v({id: 'h'})),
        same: soundOf(v({}), v({})),
        move: soundOf(v({}), v({version: 4, events: [
          {type: 'move', from: 'tableau:1', to: 'tableau:2', count: 1}]})),
        draw: soundOf(v({}), v({version: 4, events: [
          {type: 'move', from: 'stock', to: 'waste', count: 1}]})),
        deal: soundOf(v({}), v({version: 4, events: [
          {type: 'move', from: 'stock', to: 'tableau:0', count: 1}]})),
        win: soundOf(v({}), v({version: 4, status: 'won', events: [
          {type: 'move', from: 'tableau:1', to: 'foundation:0', count: 1}]})),
      };
    }""")
    assert cases == {"first": None, "other_game": None, "same": None, "move": "move",
                     "draw": "move", "deal": "deal", "win": "win"}
