"""FreeCell: our full-information solver beside Freecell Solver (``fc-solve``), deal by deal.

For each Microsoft deal of the range, both solvers decide the same board with the same CPU
budget: ours (:func:`reussite.solver.solve`, the C core, ``--time-limit`` seconds of CPU) and
``fc-solve`` with its default settings, given the board we deal with ``Position.deal`` written
in its board format (one tableau pile a line, bottom card first), its CPU capped at the same
budget (rounded up to a whole second). Every board we write is compared with the board of
Freecell Solver's own generator (``make-microsoft-freecell-board -t N``), and every line our
solver wins with is replayed through the engine, each move checked.

Prints the deals decided by each, won and lost, the disagreements (won by one, lost by the
other: there must be none), deal 11982 (decided apart when it is not in the range), the mean
and median CPU seconds per deal of each and their ratios. ``lost`` from ``fc-solve`` is its
"I could not solve this game": its search ended without a win. Its CPU seconds are those of
its process (read from the rusage of the children), start-up included: the figure printed for
a board already won shows that part. Exit status 1 when a board, a disagreement or a replay
is wrong.

Needs ``fc-solve`` (Debian's ``freecell-solver-bin``): installed with apt-get when missing, or
the run stops with a sentence saying why.

Run: ``.venv/bin/python bench/freecell_vs_fcsolve.py [--deals 1-32000] [--time-limit 10]
[--jobs 2]``. One process per job; the CPU figures depend on the machine, not on its load.
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from reussite.cards import card_code
from reussite.engine import Position
from reussite.games import get_game
from reussite.solver import solve
from reussite.solver.batch import check_win, parse_range

FREECELL = get_game("freecell")
UNWINNABLE = 11982
"""The one deal of Microsoft's first 32,000 that cannot be won."""
PACKAGE = "freecell-solver-bin"
GENERATORS = ("make-microsoft-freecell-board", "pi-make-microsoft-freecell-board")
"""The board generator's name in Debian's package, and upstream."""
SOLVED = "This game is solveable."
NOT_SOLVED = "I could not solve this game."
QUIET = {**os.environ, "FREECELL_SOLVER_QUIET": "1"}


class Missing(Exception):
    """fc-solve is not installed and could not be."""


@dataclass
class Tools:
    solver: str
    generator: str
    version: str


def find_tools() -> Tools | None:
    solver = shutil.which("fc-solve")
    generator = next((g for g in map(shutil.which, GENERATORS) if g), None)
    if solver is None or generator is None:
        return None
    out = subprocess.run([solver, "--version"], capture_output=True, text=True, env=QUIET)
    version = next((line for line in out.stdout.splitlines() if "version" in line), "")
    return Tools(solver, generator, version.strip())


def install_tools() -> Tools:
    """The tools, installed with apt-get (as root, else with ``sudo -n``) when missing."""
    tools = find_tools()
    if tools is not None:
        return tools
    if shutil.which("apt-get") is None:
        raise Missing(f"fc-solve is missing and this system has no apt-get to install "
                      f"{PACKAGE}: install Freecell Solver, then run again")
    sudo = [] if os.geteuid() == 0 else ["sudo", "-n"]
    if sudo and shutil.which("sudo") is None:
        raise Missing(f"fc-solve is missing, and installing {PACKAGE} needs root: "
                      f"run 'apt-get install {PACKAGE}' as root, then run again")
    print(f"fc-solve is missing: installing {PACKAGE} with apt-get", file=sys.stderr)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = [*sudo, "apt-get", "install", "-y", "-q", PACKAGE]
    for step in ([install], [[*sudo, "apt-get", "update", "-q"], install]):
        if all(subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL).returncode == 0
               for cmd in step):
            break
    tools = find_tools()
    if tools is None:
        raise Missing(f"fc-solve is missing and apt-get could not install {PACKAGE} "
                      "(see its messages above)")
    return tools


# ---------------------------------------------------------------------------- one deal


@dataclass
class Row:
    """One deal as both solvers decided it."""

    number: int
    ours: str
    ours_cpu: float
    theirs: str
    theirs_cpu: float
    board_same: bool
    replayed: bool | None
    """Whether our winning line replayed to a win (None when ours did not win)."""


def board_text(pos: Position) -> str:
    """The tableau in fc-solve's board format: a pile a line, bottom card first."""
    return "".join(" ".join(card_code(c) for c in pos.pile(f"tableau:{i}")) + "\n"
                   for i in range(len(FREECELL.tableau.piles) if FREECELL.tableau else 0))


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_fcsolve(solver: str, board: str, seconds: float) -> tuple[str, float]:
    """fc-solve's verdict on ``board`` (``won``, ``lost`` or ``unknown`` when its CPU ran
    out) and the CPU seconds of its process."""
    cap = max(1, math.ceil(seconds))

    def limit_cpu() -> None:  # in the child: SIGXCPU at the budget, SIGKILL a second later
        resource.setrlimit(resource.RLIMIT_CPU, (cap, cap + 1))

    before = children_cpu()
    try:
        out = subprocess.run([solver, "-"], input=board, capture_output=True, text=True,
                             env=QUIET, preexec_fn=limit_cpu, timeout=20 * cap + 60).stdout
    except subprocess.TimeoutExpired:  # asleep, not searching: no verdict
        out = ""
    cpu = children_cpu() - before
    if SOLVED in out:
        return "won", cpu
    return ("lost" if NOT_SOLVED in out else "unknown"), cpu


def generated_board(generator: str, number: int) -> str:
    out = subprocess.run([generator, "-t", str(number)], capture_output=True, text=True,
                         check=True).stdout
    return "".join(line.rstrip() + "\n" for line in out.splitlines() if line.strip())


def decide(tools: Tools, number: int, seconds: float) -> Row:
    pos = Position.deal(FREECELL, number)
    board = board_text(pos)
    cpu = time.process_time()
    result = solve(pos, time_limit=seconds, clock="cpu")
    ours_cpu = time.process_time() - cpu
    replayed = None
    if result.status == "won":
        try:
            check_win(pos, result.raw_line)
            replayed = True
        except (RuntimeError, ValueError):
            replayed = False
    theirs, theirs_cpu = run_fcsolve(tools.solver, board, seconds)
    return Row(number, result.status, ours_cpu, theirs, theirs_cpu,
               board == generated_board(tools.generator, number), replayed)


def warm_up(seconds: float) -> None:
    """One untimed search with the same budget first: a process's first search pays for
    memory its later ones reuse (a few tenths of a second), which no deal should count."""
    solve(Position.deal(FREECELL, 3), time_limit=seconds, clock="cpu")


def _decide(args: tuple[Tools, int, float]) -> Row:
    return decide(*args)


def decide_all(tools: Tools, numbers: Iterable[int], seconds: float,
               jobs: int) -> Iterator[Row]:
    tasks = [(tools, n, seconds) for n in numbers]
    if jobs <= 1:
        warm_up(seconds)
        yield from map(_decide, tasks)
        return
    with ProcessPoolExecutor(max_workers=jobs, initializer=warm_up,
                             initargs=(seconds,)) as pool:
        yield from pool.map(_decide, tasks, chunksize=4)


def startup_cpu(solver: str, runs: int = 20) -> float:
    """fc-solve's CPU seconds on a board already won: starting its process, reading a board."""
    won = "Foundations: H-K C-K D-K S-K\n" + "\n" * 8
    return statistics.median(run_fcsolve(solver, won, 10)[1] for _ in range(runs))


# ---------------------------------------------------------------------------- the report


def listed(numbers: list[int], most: int = 20) -> str:
    shown = ", ".join(map(str, numbers[:most]))
    return shown + (f" and {len(numbers) - most} more" if len(numbers) > most else "")


def summary_row(name: str, statuses: list[str], cpu: list[float]) -> str:
    won, lost = statuses.count("won"), statuses.count("lost")
    n = len(statuses)
    return (f"| {name} | {n} | {won + lost} | {won} | {lost} | {n - won - lost} "
            f"| {statistics.fmean(cpu):.4f} | {statistics.median(cpu):.4f} | {sum(cpu):.1f} |")


def verdict(status: str, proof: str) -> str:
    return {"won": "won", "lost": f"lost ({proof})"}.get(status, "unknown (budget spent)")


def report(rows: list[Row], extra: Row | None, tools: Tools, startup: float) -> bool:
    """Print the figures; whether every check held."""
    print("| solver | deals | decided | won | lost | unknown | mean CPU s | median CPU s "
          "| CPU s in all |")
    print("|---|---|---|---|---|---|---|---|---|")
    ours_cpu, theirs_cpu = [r.ours_cpu for r in rows], [r.theirs_cpu for r in rows]
    print(summary_row("ours", [r.ours for r in rows], ours_cpu))
    print(summary_row("fc-solve", [r.theirs for r in rows], theirs_cpu))
    print()
    against = [r.number for r in rows if {r.ours, r.theirs} == {"won", "lost"}]
    print(f"- disagreements (won by one, lost by the other): {len(against)}"
          + (f": deals {listed(against)}" if against else ""))
    for name, unknown in (("ours", [r.number for r in rows if r.ours == "unknown"]),
                          ("fc-solve", [r.number for r in rows if r.theirs == "unknown"])):
        if unknown:
            print(f"- undecided by {name}: deals {listed(unknown)}")
    hard = extra or next((r for r in rows if r.number == UNWINNABLE), None)
    if hard is not None:
        apart = " (not in the range: decided apart, not counted above)" if extra else ""
        print(f"- deal {UNWINNABLE}{apart}: ours {verdict(hard.ours, 'proved')} in "
              f"{hard.ours_cpu:.3f} s, fc-solve {verdict(hard.theirs, 'its search ended')} "
              f"in {hard.theirs_cpu:.3f} s")
    mean_t, median_t = statistics.fmean(theirs_cpu), statistics.median(theirs_cpu)
    print(f"- CPU per deal, ours / fc-solve: mean {statistics.fmean(ours_cpu) / mean_t:.1f}x, "
          f"median {statistics.median(ours_cpu) / median_t:.1f}x" if mean_t and median_t
          else "- CPU per deal, ours / fc-solve: fc-solve's is too small to measure")
    both = [r for r in rows if "unknown" not in (r.ours, r.theirs)]
    if both:
        ours_b, theirs_b = [r.ours_cpu for r in both], [r.theirs_cpu for r in both]
        print(f"- on the {len(both)} deals both decided, mean CPU s ours "
              f"{statistics.fmean(ours_b):.4f}, fc-solve {statistics.fmean(theirs_b):.4f}; "
              f"median ours {statistics.median(ours_b):.4f}, "
              f"fc-solve {statistics.median(theirs_b):.4f}")
    print(f"- fc-solve's CPU includes starting its process: {1000 * startup:.1f} ms (median) "
          "for a board already won")
    checked = rows + ([extra] if extra else [])
    wins = [r for r in checked if r.replayed is not None]
    bad_replays = [r.number for r in wins if not r.replayed]
    print(f"- our won lines replayed through the engine to a win: "
          f"{len(wins) - len(bad_replays)} of {len(wins)}"
          + (f"; NOT winning: deals {listed(bad_replays)}" if bad_replays else ""))
    bad_boards = [r.number for r in checked if not r.board_same]
    print(f"- boards from Position.deal equal to {os.path.basename(tools.generator)} -t N's: "
          f"{len(checked) - len(bad_boards)} of {len(checked)}"
          + (f"; DIFFERENT: deals {listed(bad_boards)}" if bad_boards else ""))
    disagree_hard = hard is not None and {hard.ours, hard.theirs} == {"won", "lost"}
    return not (against or bad_replays or bad_boards or disagree_hard)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="1-32000", help="A-B, or a single deal number")
    parser.add_argument("--time-limit", type=float, default=10.0,
                        help="CPU seconds per deal, for each solver")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    try:
        numbers = list(parse_range(args.deals))
        for n in numbers[:1] + numbers[-1:]:
            Position.deal(FREECELL, n)  # refuses a number that is not a FreeCell deal
    except ValueError as e:
        parser.error(str(e))
    try:
        tools = install_tools()
    except Missing as e:
        print(e, file=sys.stderr)
        sys.exit(1)
    print(f"FreeCell, Microsoft deals {args.deals}: {args.time_limit:g} s of CPU per deal for "
          f"each solver, {args.jobs} job(s)")
    print(f"ours: reussite.solver (full information); fc-solve: {tools.version}, default "
          "settings\n")
    startup = startup_cpu(tools.solver)
    wall = time.perf_counter()
    rows: list[Row] = []
    for row in decide_all(tools, numbers, args.time_limit, args.jobs):
        rows.append(row)
        if len(rows) % 1000 == 0:
            print(f"... {len(rows)} deals, {time.perf_counter() - wall:.0f} s",
                  file=sys.stderr, flush=True)
    extra = None
    if UNWINNABLE not in numbers:
        extra = next(decide_all(tools, [UNWINNABLE], args.time_limit, 1))
    ok = report(rows, extra, tools, startup)
    print(f"\n{len(rows)} deals in {time.perf_counter() - wall:.0f} s of wall time")
    if not ok:
        sys.exit(1)


if __name__ == "__main__":
    main()
