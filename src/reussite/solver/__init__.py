"""The solver: search over engine positions (full information) and an honest player.

- :func:`solve` (``search``): ``won`` with a line, ``lost`` (proved) or ``unknown``.
- :func:`is_stuck` (``search``): the clear end, when no move can change anything any more.
- :func:`suggest_move` (``hints``): a hint from what the player sees (the honest player).
- :func:`play_honest_game` (``honest``): a whole game played from the player view.
"""

from reussite.solver.hints import suggest_move
from reussite.solver.honest import honest_move, play_honest_game
from reussite.solver.search import SolveResult, is_stuck, solve

__all__ = ["SolveResult", "honest_move", "is_stuck", "play_honest_game", "solve",
           "suggest_move"]
