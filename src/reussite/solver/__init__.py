"""The solver: search over engine positions (full information) and the honest players.

- :func:`solve` (``search``): ``won`` with a line, ``lost`` (proved) or ``unknown``.
- :func:`is_stuck` (``search``): the clear end, when no move can change anything any more.
- :func:`suggest_move` (``hints``): a hint from what the player sees.
- The honest players see only an :class:`reussite.observation.Observation`: the protocol and
  the game loop are in ``player``, the players in ``sampling``, ``planning`` and ``visible``,
  which game each plays and hints in ``players``; ``batch`` plays many deals.
"""

from reussite.solver.hints import suggest_move
from reussite.solver.search import SolveResult, is_stuck, solve

__all__ = ["SolveResult", "is_stuck", "solve", "suggest_move"]
