"""A deal with a known winning line, found by a small full-information search with the engine.

Spider (1 suit) is the game: a greedy depth-first search with a few plain preferences (go to a
foundation, uncover a face-down card, build in suit, never split a same-suit run to build
elsewhere) wins an early deal in a few hundred positions. The browser test then replays the
line through clicks, as a player would.
"""

from __future__ import annotations

from typing import Any

from reussite.cards import UP
from reussite.engine import STOCK_CLICK, Move, Position, RawMove
from reussite.games import get_game


def _preference(pos: Position, raw: RawMove) -> int:
    src, dst, n = raw
    if src == STOCK_CLICK:
        return 1
    kinds = pos.layout.kinds
    s, d = pos.piles[src], pos.piles[dst]
    score = 2
    if kinds[dst] == "foundation":
        score += 20
    rest = len(s) - n
    if rest > 0 and not s[rest - 1] & UP:
        score += 10
    if rest == 0 and kinds[src] == "tableau":
        score += 5 if d else -30
    if d and (d[-1] & 3) == (s[-n] & 3):
        score += 3
    if rest > 0 and s[rest - 1] & UP and (s[rest - 1] & 3) == (s[-n] & 3) \
            and (s[rest - 1] & 63) >> 2 == ((s[-n] & 63) >> 2) + 1:
        score -= 40  # splitting a same-suit run only to rebuild it elsewhere
    return score


def winning_line(pos: Position, budget: int) -> list[Move] | None:
    """Moves from ``pos`` to a win, or None when ``budget`` positions were not enough."""
    seen = {pos.state()}
    start = len(pos.history)

    def ordered() -> list[RawMove]:
        return sorted(pos.raw_moves(), key=lambda m: _preference(pos, m))

    stack = [ordered()]
    nodes = 0
    try:
        while stack:
            if pos.is_won():
                return [pos.to_move(raw) for raw, _ in pos.history[start:]]
            if not stack[-1]:
                stack.pop()
                if len(pos.history) > start:
                    pos.pop()
                continue
            pos.push_raw(stack[-1].pop())
            nodes += 1
            if nodes > budget:
                return None
            if pos.state() in seen:
                pos.pop()
                continue
            seen.add(pos.state())
            stack.append(ordered())
        return None
    finally:
        while len(pos.history) > start:
            pos.pop()


def winnable_spider_deal(game: str = "spider-1-suit", budget: int = 3000) -> tuple[int, list[Move]]:
    """The first deal number with a winning line found within the budget, and the line."""
    for number in range(1, 200):
        pos = Position.deal(get_game(game), number)
        line = winning_line(pos, budget)
        if line is not None:
            return number, line
    raise AssertionError("no winning line found in 200 deals")


def tallest_moment(game: str = "spider-1-suit") -> tuple[int, list[dict[str, Any]], int]:
    """The deal of ``winnable_spider_deal``, the prefix of its winning line (as API moves) that
    makes its tallest tableau pile, and that pile's number of cards."""
    number, line = winnable_spider_deal(game)
    pos = Position.deal(get_game(game), number)
    best, best_at = 0, 0
    for i, move in enumerate(line):
        pos.play(move)
        tallest = max(len(c) for p, c in pos.player_view().items() if p.startswith("tableau"))
        if tallest > best:
            best, best_at = tallest, i + 1
    return number, [m.to_json() for m in line[:best_at]], best


def one_move_from_a_win(table: Any, game: str = "spider-1-suit") -> dict[str, Any]:
    """Open a winnable deal of ``game`` on ``table`` (a :class:`~.table.Table`), play all but
    the last move of its winning line through the API, show it, and return that last move."""
    number, line = winnable_spider_deal(game)
    table.open(game, number)
    table.play_through_api([m.to_json() for m in line[:-1]])
    table.page.reload()
    table.page.wait_for_selector("#game[data-version] .pile-foundation")
    table.settle()
    last: dict[str, Any] = line[-1].to_json()
    return last
