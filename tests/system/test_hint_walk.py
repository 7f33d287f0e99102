"""Hints alone, through the API, in every game of the catalogue, on the hints' own budget (the
default hint settings; tests/conftest.py turns off only the CPU budget that makes hints the
quick ones under load): following the hint, and dealing when the hint says nothing useful is
left but undoing or dealing, never comes back to a position already reached in the game. A
position is what the player sees (the piles, a face-down card without its face) with the
redeals left. The walk stops when the game is won or lost, when the hint has no move
otherwise, or after ``MOVES`` moves; bench/hints.py plays the same walk on many deals.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from webtools import new_game

from reussite.games import CATALOGUE

MOVES = 300
NUMBER = 3
SENTENCES = {
    "undo_or_deal": "No useful move: undo, or deal",
    "undo": "No useful move: undo",
    "cannot_win": "This game cannot be won any more from here",
}


def position(view: dict[str, Any]) -> str:
    return json.dumps([view["piles"], view["redeals_left"]], sort_keys=True)


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(CATALOGUE))
def test_following_the_hints_never_comes_back_to_a_position(sqlite_client: TestClient,
                                                           game: str) -> None:
    view = new_game(sqlite_client, game, NUMBER)
    gid = view["id"]
    reached = {position(view): 0}
    while view["status"] == "playing" and view["moves"] < MOVES:
        hint = sqlite_client.get(f"/api/games/{gid}/hint")
        assert hint.status_code == 200, hint.text
        answer = hint.json()
        move = answer["move"]
        if move is None:
            assert answer["reason"] in SENTENCES, answer
            assert answer["text"] == SENTENCES[answer["reason"]]
            if answer["reason"] != "undo_or_deal":
                break
            move = {"type": "stock"}
        else:
            assert answer["reason"] is None
        assert move in view["legal_moves"], (move, view["moves"])
        r = sqlite_client.post(f"/api/games/{gid}/moves",
                               json={"move": move, "version": view["version"]})
        assert r.status_code == 200, r.text
        view = r.json()
        key = position(view)
        assert key not in reached, (
            f"{game} {NUMBER}: move {view['moves']} ({move}) comes back to the position after"
            f" move {reached[key]}")
        reached[key] = view["moves"]
