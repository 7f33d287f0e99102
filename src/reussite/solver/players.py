"""Which honest player plays each game, and which gives its hints, with what effort: one table.

The effort's type names the player: :class:`.sampling.Effort` the sampling player (any game,
no C core needed), :class:`.planning.BeamEffort` the planning player, :class:`.visible.
VisibleEffort` the visible player (both need the C core, and are for the Spider-type games,
whose stock deals a row onto the tableau). Where the C core is not built, a game whose
player needs it is played, and hinted, by the sampling player with the effort the table
names for that case (:attr:`Seat.without_core`).

Why these choices (docs/solver.md, "The honest players"): the visible player wins Spider 4
suits and Astrocyte as often as the planning player at a tenth of the CPU or better, and its
hints take 0.3 s at most where the sampling player's hints won nothing; the planning player
wins most of the other Spider-type games; the lookahead won more deals of Klondike, Klondike
draw 3 and Athena than the plain sampling player, for about three times the CPU a move: too
slow for hints.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from reussite.solver import core
from reussite.solver.planning import BeamEffort
from reussite.solver.sampling import Effort
from reussite.solver.visible import RESORT_ANY_COST, VisibleEffort, Weights

PlayerEffort = Effort | BeamEffort | VisibleEffort

HINT = Effort(samples=12, states_per_sample=2_000, time_limit=0.6)
"""The sampling player's hints: 12 samples, 2,000 positions a search, 0.6 s at most."""

HINT_NODES = 50_000
"""Positions a search of the visible player's hints: about 0.1-0.3 s of CPU."""

LOOKAHEAD = Effort(lookahead=3)
"""The sampling player with the chance-node lookahead one decision deep."""

ASTROCYTE_WEIGHTS = Weights(down=10, column=6, suit=5, rank=1, cell=0, king_cell=20,
                            king_high=5)
"""Astrocyte's evaluation: its cells and Kings weigh (tuned on deals 101-130 and 1001-1400,
never on the deals measured)."""

DEEP = 200_000
"""Positions of the visible player's deeper search before a deal, in play (not in hints:
it would take them past 0.3 s)."""


@dataclass(frozen=True)
class Seat:
    """One use of a player in a game: its effort (whose type names the player) and, for a
    player that needs the C core, the sampling player's effort used without it."""

    effort: PlayerEffort
    without_core: Effort | None = None


@dataclass(frozen=True)
class GamePlayers:
    """A game's players: the one that plays it (``reussite winrate --player honest``) and the
    one that gives its hints."""

    play: Seat = field(default_factory=lambda: Seat(Effort()))
    hint: Seat = field(default_factory=lambda: Seat(HINT))


def _visible(weights: Weights, resort_before_deal: int | None) -> GamePlayers:
    effort = VisibleEffort(weights=weights, last_resort=True,
                           resort_before_deal=resort_before_deal)
    return GamePlayers(
        play=Seat(replace(effort, deep=DEEP), without_core=Effort()),
        hint=Seat(replace(effort, nodes=HINT_NODES), without_core=HINT))


_PLANNING = GamePlayers(play=Seat(BeamEffort(), without_core=Effort()))
_LOOKAHEAD = GamePlayers(play=Seat(LOOKAHEAD))

PLAYERS: dict[str, GamePlayers] = {
    "spider": _visible(Weights(), RESORT_ANY_COST),
    "astrocyte": _visible(ASTROCYTE_WEIGHTS, None),
    "spider-1-suit": _PLANNING,
    "spider-2-suits": _PLANNING,
    "freds-spider": _PLANNING,
    "klondike": _LOOKAHEAD,
    "klondike-draw-3": _LOOKAHEAD,
    "athena": _LOOKAHEAD,
}
"""Each game's players; a game not listed is played and hinted by the sampling player
(:class:`GamePlayers`'s defaults)."""


def seat(game_id: str, use: Literal["play", "hint"]) -> PlayerEffort:
    """The effort (its type names the player) that plays ``game_id`` or gives its hints: the
    table's, or where the C core is not built and that player needs it, the sampling
    player's that the table names for that case."""
    players = PLAYERS.get(game_id, GamePlayers())
    chosen = players.play if use == "play" else players.hint
    if chosen.without_core is not None and not core.available():
        return chosen.without_core
    return chosen.effort


def player_name(effort: PlayerEffort) -> str:
    """``sampling``, ``planning`` or ``visible``: the player of ``effort``."""
    if isinstance(effort, VisibleEffort):
        return "visible"
    return "planning" if isinstance(effort, BeamEffort) else "sampling"
