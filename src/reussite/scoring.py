"""Scores of the Klondike family: standard and Vegas, computed from the moves played.

Games whose rules say ``klondike_score`` (Klondike, Klondike draw 3, Athena, Minerva) have
both; the player chooses which one the table shows (or none). The score of a position is a
function of its line alone (the moves played, as :attr:`Position.history` records them), so
an undone move takes its points with it and a restart starts again from the deal's score.

Standard scoring, move by move (:data:`STANDARD_POINTS`):

- a card from the waste or a reserve to the tableau: +5;
- a card from the waste, a reserve or the tableau to a foundation: +10;
- a card from a foundation back to the tableau: -15;
- a face-down tableau card turned up by a move: +5;
- the waste turned over to form the stock again: -100 when the stock draws one card at a
  time, -20 when it draws three (:func:`recycle_points`);
- the score never goes below 0: a move that would take it lower leaves it at 0.

Vegas scoring: the deal costs 52 points a pack, and each card on a foundation is worth 5
(so a card that comes back from a foundation takes its 5 points back).

>>> from reussite.engine import Position, Move
>>> from reussite.games import get_game
>>> pos = Position.deal(get_game("klondike"), 1)
>>> scores(pos)
Scores(standard=0, vegas=-52)
>>> scores(Position.deal(get_game("spider"), 1)) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

from reussite.engine import FLIP, REDEAL, TRANSFER, Position

STANDARD_POINTS: dict[tuple[str, str], int] = {
    ("waste", "tableau"): 5,
    ("reserve", "tableau"): 5,
    ("waste", "foundation"): 10,
    ("reserve", "foundation"): 10,
    ("tableau", "foundation"): 10,
    ("foundation", "tableau"): -15,
}
"""Standard points of a card moved from one kind of pile to another (any other move: 0)."""

TURN_UP_POINTS = 5
"""Standard points of a face-down tableau card turned up."""

VEGAS_DEAL_POINTS = -52
"""Vegas points of a deal, per pack."""
VEGAS_CARD_POINTS = 5
"""Vegas points of each card on a foundation."""


@dataclass(frozen=True, slots=True)
class Scores:
    """The two scores of a position of a game with Klondike scoring."""

    standard: int
    vegas: int


def recycle_points(draw: int) -> int:
    """Standard points of turning the waste over: -100 drawing one card, -20 drawing more."""
    return -100 if draw == 1 else -20


Steps = tuple[tuple[int, ...], ...]

_POINTS: dict[str, dict[Steps, int]] = {}
"""The standard points of each move's steps, per game, made once (a view shows the score
after every move, and a long line has hundreds of moves)."""


def move_points(pos: Position, steps: Steps) -> int:
    """The standard points of one move, from its recorded steps (before the floor at 0)."""
    kinds = pos.layout.kinds
    points = 0
    for step in steps:
        if step[0] == TRANSFER:
            points += STANDARD_POINTS.get((kinds[step[1]], kinds[step[2]]), 0)
        elif step[0] == FLIP:
            if kinds[step[1]] == "tableau":
                points += TURN_UP_POINTS
        elif step[0] == REDEAL:
            points += recycle_points(pos.rules.stock.draw)
    return points


def standard_score(pos: Position) -> int:
    """The standard score of the moves played to reach ``pos`` (see the module's rules)."""
    made = _POINTS.get(pos.rules.id)
    if made is None:
        made = _POINTS[pos.rules.id] = {}
    score = 0
    for _raw, steps in pos.history:
        points = made.get(steps)
        if points is None:
            if len(made) >= 100_000:  # bounded: a game has far fewer kinds of move
                made.clear()
            points = made[steps] = move_points(pos, steps)
        score += points
        if score < 0:
            score = 0
    return score


def vegas_score(pos: Position) -> int:
    """The Vegas score of ``pos``: the deal's cost and 5 points a card on a foundation."""
    return VEGAS_DEAL_POINTS * pos.rules.packs + VEGAS_CARD_POINTS * pos.foundation_cards


def scores(pos: Position) -> Scores | None:
    """Both scores of ``pos``, or None for a game without Klondike scoring."""
    if not pos.rules.klondike_score:
        return None
    return Scores(standard_score(pos), vegas_score(pos))
