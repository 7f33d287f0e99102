"""A player's history made through the API from inside a page (the page's own cookie and
origin): wins, losses and abandoned games, for the statistics page's tests and pictures."""

from __future__ import annotations

from typing import Any

from reussite.engine import Position
from reussite.games import get_game
from reussite.solver.search import solve

PLAN = ("win", "lose", "lose", "abandon", "win", "lose", "abandon", "lose", "win", "lose")
"""The games, oldest first: a Klondike won, an Auld Lang Syne lost (it soon is, by its first
legal moves), a Klondike left after one move for the next one."""

_PLAY = """
async ({plan, line}) => {
  const post = async (url, body) => {
    const r = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json"},
                                body: JSON.stringify(body)});
    if (!r.ok) throw new Error(`${url}: ${r.status} ${await r.text()}`);
    return r.json();
  };
  const move = (v, m) => post(`/api/games/${v.id}/moves`, {move: m, version: v.version});
  let deal = 10;
  for (const kind of plan) {
    deal += 1;
    if (kind === "win") {
      let v = await post("/api/games", {game: "klondike", number: 1});
      for (const m of line) v = await move(v, m);
      if (v.status !== "won") throw new Error("the winning line did not win");
    } else if (kind === "lose") {
      let v = await post("/api/games", {game: "auld-lang-syne", number: deal});
      for (let i = 0; i < 500 && v.status === "playing"; i++) v = await move(v, v.legal_moves[0]);
      if (v.status !== "lost") throw new Error(`auld-lang-syne ${deal} was not lost`);
    } else {
      const v = await post("/api/games", {game: "klondike", number: deal});
      await move(v, {type: "stock"});
    }
  }
}
"""


def klondike_1_line() -> list[dict[str, Any]]:
    """A winning line of Klondike deal 1 (the solver's)."""
    result = solve(Position.deal(get_game("klondike"), 1), time_limit=10)
    assert result.status == "won"
    return [m.to_json() for m in result.moves]


def make_history(page: Any, base_url: str) -> None:
    """Give the page's player the games of :data:`PLAN` (the page must be on the site)."""
    if not page.url.startswith(base_url):
        page.goto(f"{base_url}/stats")
    page.evaluate(_PLAY, {"plan": list(PLAN), "line": klondike_1_line()})
