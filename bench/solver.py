"""Solver benchmark: per game, on a fixed range of deals.

Prints a Markdown table: deals decided (won or lost) per minute, median and mean seconds per
deal, positions searched per second, and the full-information win rate with its 95 % Wilson
interval (unknown deals counted as not won; the share decided is shown beside it). With
``--honest`` it plays the same deals as the honest player instead (time per move, or
``--states`` positions per search of a sample).

Run: ``.venv/bin/python bench/solver.py [--deals 1-10] [--time-limit 10] [--jobs 1]
[--honest] [--states N] [--samples S] [--clock cpu] [GAME ...]`` (all games of the catalogue
by default). One process per job; the figures depend on the machine and on what else it runs.

``--engines`` prints instead, per game, the positions per second of the reference Python
search and of the C core on the same search (deal 1, ``--states`` positions at most, 20,000
by default, no beam), and their ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time

from reussite.games import CATALOGUE
from reussite.solver.batch import Tally, decide_many, parse_range

CLAIMS = {
    "astrocyte": "about 30 % (source page)",
    "athena": "a patient player wins more than he loses (source page)",
    "leap-year": "wins are rare (source page)",
    "klondike-draw-3": "81.945 % ± 0.084 % solvable (Blake & Gent); honest 36.97 % "
                       "(Bjarnason, Fern & Tadepalli)",
    "spider": "honest 48.7 % (expert human, no undo)",
    "freecell": "Microsoft's deals 1-32,000: all winnable but #11982",
}


def deal_numbers(text: str) -> list[int]:
    """``A-B``, or ``@FILE``: one deal number a line, or JSON lines with a ``deal`` field."""
    if not text.startswith("@"):
        return list(parse_range(text))
    with open(text[1:]) as f:
        lines = [line.strip() for line in f if line.strip()]
    return [int(json.loads(line)["deal"]) if line.startswith("{") else int(line)
            for line in lines]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(CATALOGUE))
    parser.add_argument("--deals", default="1-10",
                        help="A-B, or @FILE: a file of deal numbers, one a line (or JSON lines "
                             "with a \"deal\" field)")
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--honest", action="store_true")
    parser.add_argument("--engines", action="store_true")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="what the time limit counts (cpu: each search's CPU time)")
    parser.add_argument("--states", type=int, default=None,
                        help="positions per deal (full) or per search of a sample (honest)")
    parser.add_argument("--samples", type=int, default=None, help="honest: samples per move")
    args = parser.parse_args()
    if args.engines:
        compare_engines(args.games, args.states or 20_000)
        return
    os.environ["REUSSITE_SOLVER_CLOCK"] = args.clock  # read by the searches, in every job
    numbers = deal_numbers(args.deals)
    player = "honest" if args.honest else "full"
    budget = Tally("", player, args.time_limit, args.states, args.samples).budget()
    print(f"{player} player, deals {args.deals}, {budget} ({args.clock} time), "
          f"{args.jobs} job(s)\n")
    print("| game | deals | won | lost | unknown | decided | win rate (95 % interval) "
          "| decided/min | median s | mean s | positions/s | claim |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for game in args.games:
        tally = Tally(game, player, args.time_limit, args.states, args.samples)
        wall = time.perf_counter()
        for outcome in decide_many(game, numbers, args.time_limit, args.jobs, player,
                                   args.states, args.samples):
            tally.add(outcome)
        wall = time.perf_counter() - wall
        n = len(tally.outcomes)
        won, lost, unknown = (tally.count(s) for s in ("won", "lost", "unknown"))
        low, high = tally.interval()
        secs = [o.seconds for o in tally.outcomes]
        states = sum(o.states for o in tally.outcomes)
        rate = f"{100 * won / n:.1f} % ({100 * low:.1f}-{100 * high:.1f})"
        pps = f"{states / sum(secs):,.0f}" if states and sum(secs) else "-"
        print(f"| {game} | {n} | {won} | {lost} | {unknown} | {100 * (won + lost) / n:.0f} % "
              f"| {rate} | {60 * (won + lost) / wall:.1f} | {statistics.median(secs):.2f} "
              f"| {statistics.fmean(secs):.2f} | {pps} | {CLAIMS.get(game, '')} |",
              flush=True)


def compare_engines(games: list[str], states: int) -> None:
    """Positions per second: the Python search and the C core on the very same search."""
    from reussite.engine import Position
    from reussite.games import get_game
    from reussite.solver import core
    from reussite.solver.search import solve

    print(f"the same search (deal 1, {states:,} positions at most, CPU time)\n")
    print("| game | positions | Python positions/s | C positions/s | C / Python |")
    print("|---|---|---|---|---|")
    for game in games:
        pos = Position.deal(get_game(game), 1)
        t = time.process_time()
        ref = solve(pos, time_limit=None, max_states=states, engine="python")
        py = time.process_time() - t
        t = time.process_time()
        runs = 0
        while True:  # repeat the fast search so that its time is measurable
            _, _, n = core.solve_raw(pos, None, states, False, beam=False)
            runs += 1
            c = time.process_time() - t
            if c > 0.5:
                break
        assert n == ref.states
        py_rate, c_rate = ref.states / max(py, 1e-9), runs * n / c
        print(f"| {game} | {n:,} | {py_rate:,.0f} | {c_rate:,.0f} | {c_rate / py_rate:.0f}x |",
              flush=True)


if __name__ == "__main__":
    main()
