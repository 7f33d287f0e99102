"""Post-game analysis benchmark (solver/analysis.py), on games an honest player lost.

For each game, the honest player (the game's own, as in ``bench/solver.py --honest``, with
``--states`` positions per search) plays
deals from 1 up until ``--games`` of them are lost; each lost game is analysed with the default
budget (``--budget`` CPU seconds). Prints a Markdown table per game:

- games analysed; the share whose deal was proved unwinnable, and the share the player could
  have won;
- of those it could have won, the share where the losing move is named *exactly* (a winning line
  from position k that replays, and a proof that position k + 1 is lost);
- the median and 95th percentile CPU seconds of an analysis, and one worker's throughput
  (analyses per CPU minute).

Run: ``.venv/bin/python bench/analysis.py [--games 100] [--budget 10] [--jobs 1]
[--states 2000] [GAME ...]`` (Klondike draw 3, Spider 1 suit, Astrocyte and Athena by
default). The honest player's games take time of their own (Spider's most): ``--games 20``
gives a first look.
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from reussite.engine import Position
from reussite.games import CATALOGUE, get_game
from reussite.solver.analysis import DEFAULT_CPU_BUDGET, analyse
from reussite.solver.batch import honest_effort, play_honest

FAMILIES = ["klondike-draw-3", "spider-1-suit", "astrocyte", "athena"]


@dataclass
class Row:
    number: int
    opening: str
    exact: bool
    named: bool
    cpu: float


def one(args: tuple[str, int, float, int]) -> Row | None:
    """Play deal ``number`` as the honest player; analyse it when lost (None when won)."""
    game, number, budget, states = args
    deal = Position.deal(get_game(game), number)
    played = play_honest(deal, honest_effort(game, None, states), number)
    if played.status == "won":
        return None
    result = analyse(deal, played.line, cpu_budget=budget)
    return Row(number, result.opening, result.exact, result.losing_move is not None,
               result.cpu_seconds)


def rows(game: str, games: int, budget: float, jobs: int, states: int) -> Iterator[Row]:
    found = 0
    start = 1
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        while found < games:
            size = max(jobs, games - found)
            batch = [(game, n, budget, states) for n in range(start, start + size)]
            start += len(batch)
            for row in pool.map(one, batch):
                if row is not None and found < games:
                    found += 1
                    yield row


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", default=FAMILIES, choices=list(CATALOGUE))
    parser.add_argument("--games", dest="count", type=int, default=100)
    parser.add_argument("--budget", type=float, default=DEFAULT_CPU_BUDGET)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--states", type=int, default=2_000,
                        help="the honest player's positions per search (its strength)")
    args = parser.parse_args()
    print(f"Lost games of the honest player, analysed with {args.budget:g} CPU s each\n")
    print("| game | analysed | deal lost | winnable | losing move named | exact | "
          "median CPU s | p95 CPU s | analyses / CPU min |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for game in args.games:
        got = list(rows(game, args.count, args.budget, args.jobs, args.states))
        lost = sum(1 for r in got if r.opening == "lost")
        winnable = [r for r in got if r.opening == "won"]
        named = sum(1 for r in winnable if r.named)
        exact = sum(1 for r in got if r.exact)
        cpu = [r.cpu for r in got]
        share = f"{100 * named / len(winnable):.0f} %" if winnable else "-"
        print(f"| {game} | {len(got)} | {lost} | {len(winnable)} | {named} ({share}) | "
              f"{100 * exact / len(got):.0f} % | {statistics.median(cpu):.2f} | "
              f"{percentile(cpu, 0.95):.2f} | {60 / statistics.mean(cpu):.0f} |", flush=True)


if __name__ == "__main__":
    main()
