"""Hints alone: how far following the hint button takes a game, on fixed deals.

Each deal is played by hints alone, as the slow test tests/system/test_hint_walk.py plays it
through the API: take the hint and play its move; when the hint has no move but says the
stock can still be dealt (``undo_or_deal``), click the stock; stop when the game is won or
lost, when the hint has no move otherwise, when the hints reach one position a third time (a
loop), or after ``--moves`` moves. The hints are the
site's, on their own budget (:func:`reussite.solver.hints.advise` with its defaults, as a
hint worker computes them; the hint pool's CPU budget, which turns hints into the quick ones
under load, is not in play).

Prints a Markdown table per game: deals won, the mean moves played, the mean and total CPU
seconds, the mean hints a deal that led back to a position already reached (a position as the
player sees it, with the redeals left), and how the deals ended.

Run: ``.venv/bin/python bench/hints.py [--deals 1-20] [--moves 500] [--jobs 2] [GAME ...]``
(Spider 1 suit and Klondike by default). Against another tree of the project (to compare
before and after a change): ``PYTHONPATH=/that/tree/src .venv/bin/python bench/hints.py``;
where that tree's hints have no reason (``suggest_move`` only), a hint without a move ends
the deal.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from reussite.engine import STOCK_RAW, Position, RawMove, shown
from reussite.games import CATALOGUE, get_game
from reussite.solver.batch import parse_range

DEFAULT_GAMES = ("spider-1-suit", "klondike")
LOOP = 3
"""A deal whose hints reach one position this many times is going round in circles: it ends
there ("loop")."""


def _hint(pos: Position) -> tuple[RawMove | None, str | None]:
    """The site's hint for ``pos``: its move and, where the tree has one, its reason."""
    from reussite.solver import hints

    advise = getattr(hints, "advise", None)
    if advise is None:
        return hints.suggest_move(pos), None
    h = advise(pos)
    return h.move, h.reason


def _view(pos: Position) -> tuple[object, ...]:
    """What the player sees, with the redeals left (the API's view of the piles)."""
    return pos.redeals_left, tuple(tuple(shown(c) for c in p) for p in pos.piles)


def play(game: str, number: int, moves: int) -> dict[str, Any]:
    """One deal followed by hints alone (see the module's docstring)."""
    start = time.process_time()
    pos = Position.deal(get_game(game), number)
    visits = Counter([_view(pos)])
    repeats = 0
    ending = "too long"
    while len(pos.history) < moves:
        if pos.is_won():
            ending = "won"
            break
        if pos.status() == "lost":
            ending = "lost"
            break
        move, reason = _hint(pos)
        if move is None and reason == "undo_or_deal":
            move = STOCK_RAW
        if move is None:
            ending = f"no move ({reason})" if reason else "no move"
            break
        pos.push_raw(move)
        view = _view(pos)
        repeats += view in visits
        visits[view] += 1
        if visits[view] >= LOOP:
            ending = "loop"
            break
    else:
        if pos.is_won():
            ending = "won"
    return {"game": game, "number": number, "won": pos.is_won(), "moves": len(pos.history),
            "home": pos.foundation_cards, "seconds": time.process_time() - start,
            "repeats": repeats, "ending": ending}


def _play(args: tuple[str, int, int]) -> dict[str, Any]:
    return play(*args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", default=list(DEFAULT_GAMES))
    parser.add_argument("--deals", default="1-20")
    parser.add_argument("--moves", type=int, default=500)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    for game in args.games:
        if game not in CATALOGUE:
            parser.error(f"unknown game {game!r}")
    numbers = parse_range(args.deals)
    print(f"Hints alone, deals {args.deals}, at most {args.moves} moves a deal\n")
    print("| game | deals | won | mean moves | mean CPU s | total CPU s | repeats/deal "
          "| endings |")
    print("|---|---|---|---|---|---|---|---|")
    with ProcessPoolExecutor(args.jobs) as pool:
        for game in args.games:
            rows = list(pool.map(_play, [(game, n, args.moves) for n in numbers]))
            n = len(rows)
            endings = Counter(r["ending"] for r in rows)
            total = sum(r["seconds"] for r in rows)
            print(f"| {game} | {n} | {sum(r['won'] for r in rows)} "
                  f"| {sum(r['moves'] for r in rows) / n:.0f} | {total / n:.1f} | {total:.0f} "
                  f"| {sum(r['repeats'] for r in rows) / n:.1f} "
                  f"| {', '.join(f'{k}: {v}' for k, v in endings.most_common())} |",
                  flush=True)


if __name__ == "__main__":
    main()
