"""How a player is shown to others (the daily leaderboard): an anonymous name made from the
player's id.

The id is the secret value of the player's cookie: it is never shown, only a short digest of
it, under a label of its own, so that the name tells nothing about the id.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any


def anonymous_name(player_id: str) -> str:
    """``Player 3f9a2c``: the same for a player every time, made from a hash of its id."""
    digest = hashlib.sha256(f"reussite.name|{player_id}".encode()).hexdigest()
    return f"Player {digest[:6]}"


def display_names(store_or_conn: Any, player_ids: Iterable[str]) -> dict[str, str]:
    """The names of the players ``player_ids``, in one call (``store_or_conn``: where the
    names are read, for a site where players choose theirs)."""
    return {pid: anonymous_name(pid) for pid in player_ids}


def display_name(store_or_conn: Any, player_id: str) -> str:
    return display_names(store_or_conn, [player_id])[player_id]
