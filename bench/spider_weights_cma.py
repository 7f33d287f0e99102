"""Fit the honest Spider 4 suits player's evaluation weights with CMA-ES (session 10, spiderw).

The visible player (:mod:`reussite.solver.honest_visible`) plays Spider 4 suits with the
shipped effort (``visible_effort("spider")``: 20,000 positions a search, ``deep`` 200,000,
the last resort, a card turned up before each deal); only the :class:`Weights` change. A
candidate is scored on a fixed set of TUNING deals (never 1-1000): the games are
deterministic, so every candidate plays the same deals (paired comparisons).

The score, fixed before the first run (docs/solver-figures.md, "Spider 4 suits: the visible
player's weights fitted by CMA-ES")::

    score = sum over the deals of 100 x won + cards home + face-down cards turned up

Commands (run one at a time, ``nice -n 5``, the CPU clock is what ``cpu`` reports)::

    python bench/spider_weights_cma.py play --deals 1001-1100 --out FILE [--weights JSON]
    python bench/spider_weights_cma.py tune --deals 1001-1100 --log FILE --until HH:MM
    python bench/spider_weights_cma.py compare FILE_A FILE_B

``cma`` (CMA-ES) is a dev extra only (``pip install -e '.[dev]'``), never a runtime need.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import sys
import time
from dataclasses import asdict, replace
from typing import Any

from reussite.engine import Position
from reussite.games import get_game
from reussite.solver.honest_visible import (
    Weights,
    _turned,  # the player's own "look again" rule
    decide,
    masked_piles,
    play_lines,
    visible_effort,
)

GAME = "spider"

TUNED = ("down", "column", "empty", "suit", "rank", "broken", "home", "reach", "unknown",
         "run", "empty1", "king_high")
"""The weights CMA-ES moves (the others keep their shipped values; ``depth`` stays 0)."""

SCALE = 3
"""The tuned weights are the shipped ones times this (finer integer steps for the C core)."""


def deal_range(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    if any(n <= 1000 for n in out) and not ALLOW_JUDGED:
        raise SystemExit("deals 1-1000 are judged deals: never tuned on (use --judged to "
                         "measure the fixed setting once)")
    return out


ALLOW_JUDGED = False


def _face_down_raw(pos: Position) -> int:
    """Face-down cards on the tableau as the player sees them (the stock not counted)."""
    return sum(1 for pile in masked_piles(pos)[1:] for c in pile if c == 0)


def play_deal(number: int, weights: Weights) -> dict[str, Any]:
    """One game of the visible player with ``weights`` (the shipped effort otherwise)."""
    pos = Position.deal(get_game(GAME), number)
    down0 = _face_down_raw(pos)
    effort = replace(visible_effort(GAME), weights=weights)
    last: list[Position] = []

    def choose(p: Position, spent: list[int]) -> list[Any]:
        if not last:
            last.append(p)
        return decide(p, effort, spent)

    start = time.process_time()
    game = play_lines(pos, choose, max_moves=5_000, patience=300,
                      until=lambda p: _turned(p) or p.is_won())
    cpu = time.process_time() - start
    down = _face_down_raw(last[0]) if last else down0
    return {"deal": number, "status": game.status, "home": game.home,
            "down": down, "up": down0 - down, "moves": game.moves, "ending": game.ending,
            "cpu": round(cpu, 3)}


def score(rows: list[dict[str, Any]]) -> int:
    return sum(100 * (r["status"] == "won") + r["home"] + r["up"] for r in rows)


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {"deals": len(rows), "won": sum(r["status"] == "won" for r in rows),
            "home": sum(r["home"] for r in rows), "up": sum(r["up"] for r in rows),
            "down": sum(r["down"] for r in rows), "score": score(rows),
            "cpu": round(sum(r["cpu"] for r in rows), 1)}


def play_all(deals: list[int], weights: Weights, out: Any = None,
             extra: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    rows = []
    for n in deals:
        row = play_deal(n, weights)
        rows.append(row)
        if out is not None:
            out.write(json.dumps({**row, **(extra or {})}) + "\n")
            out.flush()
    return rows


def scaled_shipped() -> list[float]:
    base = Weights()
    return [SCALE * getattr(base, name) for name in TUNED]


def spread() -> list[float]:
    """The change of each weight at CMA's unit step: half its shipped value, at least 1 at
    the shipped scale."""
    return [SCALE * max(getattr(Weights(), name), 2) / 2 for name in TUNED]


def weights_of(x: list[float]) -> Weights:
    """The (rounded, non-negative) weights of CMA's point ``x``; untuned ones scaled too."""
    base = Weights()
    fields = {name: SCALE * value for name, value in asdict(base).items()}
    fields["depth"] = 0
    for name, b, s, xi in zip(TUNED, scaled_shipped(), spread(), x, strict=True):
        fields[name] = max(0, int(round(b + s * xi)))
    return Weights(**fields)


def sign_test(only_a: int, only_b: int) -> float:
    """One-sided sign test: P(X >= only_a) for X ~ Binomial(only_a + only_b, 1/2)."""
    n = only_a + only_b
    return sum(math.comb(n, k) for k in range(only_a, n + 1)) / 2 ** n if n else 1.0


def cmd_play(args: argparse.Namespace) -> None:
    weights = Weights(**json.loads(args.weights)) if args.weights else Weights()
    deals = deal_range(args.deals)
    with open(args.out, "a") as out:
        rows = play_all(deals, weights, out, {"weights": asdict(weights), "label": args.label})
    print(json.dumps({"label": args.label, **summary(rows)}))


def cmd_tune(args: argparse.Namespace) -> None:
    import cma  # type: ignore[import-untyped]

    deals = deal_range(args.deals)
    hh, mm = (int(v) for v in args.until.split(":"))
    now = dt.datetime.now(dt.UTC)
    stop = now.replace(hour=hh, minute=mm, second=0, microsecond=0)
    dim = len(TUNED)
    lower = [-b / s for b, s in zip(scaled_shipped(), spread(), strict=True)]
    es = cma.CMAEvolutionStrategy([0.0] * dim, args.sigma, {
        "popsize": args.popsize, "seed": args.seed, "bounds": [lower, None],
        "verbose": -9})
    log = open(args.log, "a")  # noqa: SIM115 (written by the nested evaluate)
    seen: dict[tuple[int, ...], int] = {}
    per_game = args.per_game

    def evaluate(x: list[float], gen: int) -> float:
        w = weights_of(x)
        key = tuple(getattr(w, n) for n in TUNED)
        if key in seen:
            return float(seen[key])
        rows = play_all(deals, w)
        s = summary(rows)
        seen[key] = s["score"]
        log.write(json.dumps({"gen": gen, "weights": {n: getattr(w, n) for n in TUNED},
                              **s, "won_deals": [r["deal"] for r in rows
                                                 if r["status"] == "won"],
                              "time": dt.datetime.now(dt.UTC).strftime("%H:%M:%S")}) + "\n")
        log.flush()
        print(gen, key, s, flush=True)
        return float(s["score"])

    evaluate([0.0] * dim, 0)  # the shipped weights, scaled (the mean CMA starts from)
    gen = 0
    while not es.stop():
        gen += 1
        left = (stop - dt.datetime.now(dt.UTC)).total_seconds()
        if left < per_game * len(deals) * args.popsize:
            print("time is up before generation", gen, flush=True)
            break
        xs = es.ask()
        es.tell(xs, [-evaluate(list(x), gen) for x in xs])
        mean = weights_of(list(es.mean))
        log.write(json.dumps({"gen": gen, "mean": {n: getattr(mean, n) for n in TUNED},
                              "sigma": es.sigma}) + "\n")
        log.flush()
    log.close()


def cmd_compare(args: argparse.Namespace) -> None:
    with open(args.a) as fa, open(args.b) as fb:
        a = {r["deal"]: r for r in map(json.loads, fa)}
        b = {r["deal"]: r for r in map(json.loads, fb)}
    deals = sorted(set(a) & set(b))
    ra, rb = [a[d] for d in deals], [b[d] for d in deals]
    only_a = [d for d in deals if a[d]["status"] == "won" != b[d]["status"]]
    only_b = [d for d in deals if b[d]["status"] == "won" != a[d]["status"]]
    print(json.dumps({"deals": len(deals), "a": summary(ra), "b": summary(rb),
                      "only_a": only_a, "only_b": only_b,
                      "p_one_sided_a_better": round(sign_test(len(only_a), len(only_b)), 4),
                      "home_more_a": sum(a[d]["home"] > b[d]["home"] for d in deals),
                      "home_more_b": sum(b[d]["home"] > a[d]["home"] for d in deals)}))


def main(argv: list[str] | None = None) -> None:
    global ALLOW_JUDGED
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("play")
    p.add_argument("--deals", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--weights", default="")
    p.add_argument("--label", default="")
    p.add_argument("--judged", action="store_true")
    t = sub.add_parser("tune")
    t.add_argument("--deals", default="1001-1100")
    t.add_argument("--log", required=True)
    t.add_argument("--until", required=True, help="UTC HH:MM: no generation starts that "
                   "would end later")
    t.add_argument("--popsize", type=int, default=8)
    t.add_argument("--sigma", type=float, default=1.0)
    t.add_argument("--seed", type=int, default=10)
    t.add_argument("--per-game", type=float, default=0.7, help="wall seconds a game, "
                   "for the time check")
    c = sub.add_parser("compare")
    c.add_argument("a")
    c.add_argument("b")
    args = parser.parse_args(argv)
    ALLOW_JUDGED = bool(getattr(args, "judged", False))
    {"play": cmd_play, "tune": cmd_tune, "compare": cmd_compare}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
