"""Spider 4 suits: two hindsight players measured against the visible player (issue 6).

Not a benchmark of speed: an experiment kept so that its figures (docs/solver-figures.md,
"Spider 4 suits: hindsight plans measured again") can be run again. Both players read only
the player view (their samples come from :func:`reussite.solver.honest.sample_position`):

- ``veto``: the planning player (``--method beam``, :mod:`reussite.solver.honest_beam`), whose
  plans are searched on samples that know the stock, with ``BeamEffort.visible_deal``: when
  its plans would deal, the visible player (:mod:`reussite.solver.honest_visible`) is asked
  first and its move is played instead whenever it still finds something better than
  dealing; when no sample has a plan, the visible player's move.
- ``judge``: the visible player's candidate lines (the rollout player's
  :func:`reussite.solver.honest_rollout.candidates`, each cut at its first card turned up),
  each judged by how many of ``--samples`` samples the full-information solver wins after it
  within ``--states`` positions (the beam's smallest budget); ties go to the visible player's
  own choice.

    python bench/spider_hindsight.py veto --deals 1011-1040 --out veto.jsonl
    python bench/spider_hindsight.py judge --deals 1011-1040 --out judge.jsonl

One JSON line a deal: number, status, ending, cards home, moves, positions, CPU seconds.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict, dataclass

from reussite.engine import Position, RawMove
from reussite.games import get_game
from reussite.solver import core
from reussite.solver import honest_beam as hb
from reussite.solver import honest_rollout as hr
from reussite.solver import honest_visible as hv


@dataclass
class Played:
    number: int
    status: str
    ending: str
    home: int
    moves: int
    states: int
    seconds: float
    changed: int = 0
    """judge: the decisions where the samples chose another line than the visible player."""


def play_veto(number: int, states: int) -> Played:
    pos = Position.deal(get_game("spider"), number)
    g = hb.play_beam_game(pos, hb.BeamEffort(states=states, visible_deal=True), seed=number)
    return Played(number, g.status, g.ending, g.home, g.moves, g.states, g.seconds)


def play_judge(number: int, states: int, samples: int, candidates: int) -> Played:
    effort = hr.RolloutEffort(candidates=candidates)
    weights = hv.visible_effort("spider")
    changed = [0]

    def choose(pos: Position, spent: list[int]) -> list[RawMove]:
        lines = hr.candidates(pos, effort, weights, spent)
        if len(lines) < 2:
            return lines[0] if lines else []

        def won_after(sample: Position, line: list[RawMove]) -> int:
            """1 when the full-information solver wins ``sample`` after ``line`` (a copy)."""
            p = sample.copy()
            for m in line:
                p.push_raw(m)
            status, _, n = core.solve_raw(p, None, states, False, True, True)
            spent[0] += n
            return int(status == "won")

        best = hr.best_line(pos, lines, samples, won_after)
        changed[0] += best != 0
        return lines[best]

    pos = Position.deal(get_game("spider"), number)
    g = hv.play_lines(pos, choose, max_moves=5_000, patience=300)
    return Played(number, g.status, g.ending, g.home, g.moves, g.states, g.seconds,
                  changed[0])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("player", choices=["veto", "judge"])
    ap.add_argument("--deals", required=True, help="A-B")
    ap.add_argument("--states", type=int, default=None,
                    help="positions a search of a sample (veto: 300,000; judge: 100,000)")
    ap.add_argument("--samples", type=int, default=4, help="judge: samples a decision")
    ap.add_argument("--candidates", type=int, default=3, help="judge: lines judged")
    ap.add_argument("--out", help="JSON lines, one a deal")
    args = ap.parse_args()
    a, b = (int(x) for x in args.deals.split("-"))
    won = 0
    for n in range(a, b + 1):
        if args.player == "veto":
            played = play_veto(n, args.states or 300_000)
        else:
            played = play_judge(n, args.states or 100_000, args.samples, args.candidates)
        won += played.status == "won"
        line = json.dumps(asdict(played))
        print(line, flush=True)
        if args.out:
            with open(args.out, "a") as f:
                f.write(line + "\n")
    print(f"won {won} of {b - a + 1}")


if __name__ == "__main__":
    main()
