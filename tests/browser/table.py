"""Driving the card table of a page as a player does: mouse, finger, keyboard.

The test reads the game's view with the page's own cookie (``GET /api/games/{id}``) to decide
what to do, then acts only through the page: pointer gestures, clicks and keys.
"""

from __future__ import annotations

from typing import Any

Move = dict[str, Any]


class Table:
    def __init__(self, page: Any, base_url: str) -> None:
        self.page = page
        self.base_url = base_url

    # ------------------------------------------------------------------ opening and reading

    def open(self, game: str, number: int | None = None) -> Table:
        url = f"{self.base_url}/games/{game}"
        if number is not None:
            url += f"?number={number}"
        self.page.goto(url)
        # the table is drawn (any pile: Golf has no foundation, Leap Year no tableau)
        # Not the stock: a game dealt whole (FreeCell) has one, empty and hidden.
        self.page.wait_for_selector("#game[data-version] .pile:not(.pile-stock)")
        if number is not None:
            self.page.wait_for_function(
                f"() => document.querySelector('#game').dataset.number === '{number}'")
        self.settle()
        return self

    def settle(self) -> None:
        """Wait until the client's queue is idle and no card is still gliding."""
        self.page.wait_for_function("() => document.querySelector('#game').dataset.busy === '0'"
                                    " && !document.getAnimations().some("
                                    "a => a.playState === 'running')")

    @property
    def version(self) -> int:
        return int(self.page.get_attribute("#game", "data-version"))

    def view(self) -> dict[str, Any]:
        self.settle()
        view: dict[str, Any] = self.page.evaluate(
            "fetch('/api/games/' + document.querySelector('#game').dataset.gameUid,"
            " {credentials: 'same-origin'}).then(r => r.json())")
        return view

    def play_through_api(self, moves: list[Move]) -> None:
        """Play moves through the API with the page's cookie, as a quick way to set a game up
        (the page does not draw them: open the game again to see it)."""
        self.page.evaluate("""async (moves) => {
            const game = document.querySelector('#game');
            let version = Number(game.dataset.version);
            for (const move of moves) {
                const r = await fetch(`/api/games/${game.dataset.gameUid}/moves`, {
                    method: 'POST', credentials: 'same-origin',
                    headers: {'Content-Type': 'application/json', Accept: 'application/json'},
                    body: JSON.stringify({move, version})});
                if (!r.ok) throw new Error(`${r.status} ${await r.text()}`);
                version = (await r.json()).version;
            }
        }""", moves)

    def wait_version(self, version: int) -> None:
        self.page.wait_for_function(
            f"() => Number(document.querySelector('#game').dataset.version) >= {version}")
        self.settle()

    def pile(self, pile: str) -> Any:
        return self.page.locator(f'.pile[data-pile="{pile}"]')

    def card(self, pile: str, index: int) -> Any:
        return self.page.locator(f'.pile[data-pile="{pile}"] > .card[data-index="{index}"]')

    def toast(self) -> str:
        """The last message shown (it stays in the live region after it fades)."""
        text: str = self.page.inner_text(".toast")
        return text

    # ------------------------------------------------------------------ gestures

    _POINTS = """([src, count, dst]) => {
        const pile = (p) => document.querySelector(`.pile[data-pile="${p}"]`);
        const n = Number(pile(src).dataset.count);
        const card = pile(src).querySelector(`:scope > .card[data-index="${n - count}"]`);
        const g = card.getBoundingClientRect();
        const last = [...pile(dst).querySelectorAll(':scope > .card')].pop() || pile(dst);
        const d = last.getBoundingClientRect();
        return [g.left + g.width / 2, g.top + Math.min(8, g.height / 5),
                d.left + d.width / 2, d.top + d.height / 2];
    }"""

    def points(self, src: str, count: int, dst: str) -> tuple[float, float, float, float]:
        """Where to grip the run of ``count`` cards of ``src`` (the visible top strip of its
        first card) and where to put it down on ``dst`` (its top card, or the empty place)."""
        x, y, tx, ty = self.page.evaluate(self._POINTS, [src, count, dst])
        return x, y, tx, ty

    def drag(self, src: str, count: int, dst: str) -> None:
        x, y, tx, ty = self.points(src, count, dst)
        mouse = self.page.mouse
        mouse.move(x, y)
        mouse.down()
        mouse.move(x + 6, y + 6, steps=2)
        mouse.move(tx, ty - 4, steps=8)
        mouse.up()

    def click_move(self, move: Move) -> None:
        """Click (tap) the run to move, then click the destination."""
        x, y, tx, ty = self.points(move["from"], move["count"], move["to"])
        self.page.mouse.click(x, y)
        self.page.mouse.click(tx, ty)

    def play_by_clicks(self, move: Move) -> None:
        before = self.version
        if move["type"] == "stock":
            self.click_stock()
        else:
            self.click_move(move)
        self.wait_version(before + 1)

    def focus_table(self) -> None:
        """Tab from the page's start until a pile of the table has the focus."""
        for _ in range(20):
            if self.page.evaluate("document.activeElement.classList.contains('pile')"):
                return
            self.page.keyboard.press("Tab")
        raise AssertionError("Tab never reached the table")

    def key_to(self, pile: str) -> None:
        """Move the focus to ``pile`` with the right arrow (the table has the focus)."""
        order = self.page.eval_on_selector_all(".pile", "els => els.map(e => e.dataset.pile)")
        for _ in range(len(order) + 1):
            if self.page.evaluate("document.activeElement.dataset.pile") == pile:
                return
            self.page.keyboard.press("ArrowRight")
        raise AssertionError(f"the focus never reached {pile}")

    def key_move(self, move: Move) -> None:
        """Play a board move from the keyboard: the source pile, the Up arrow once per card
        past the first, Enter (the cards are held), the destination, Enter."""
        self.key_to(move["from"])
        for _ in range(move["count"] - 1):
            self.page.keyboard.press("ArrowUp")
        self.page.keyboard.press("Enter")
        self.page.wait_for_selector(".card.held")
        self.key_to(move["to"])
        self.page.keyboard.press("Enter")

    def click_stock(self) -> None:
        box = self.pile("stock").bounding_box()
        self.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def piles_of(view: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    piles: dict[str, list[dict[str, Any]]] = view["piles"]
    return piles


def board_moves(view: dict[str, Any]) -> list[Move]:
    """The legal moves that are not stock clicks."""
    return [m for m in view["legal_moves"] if m["type"] == "move"]
