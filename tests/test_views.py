"""The hot path's view JSON (web/views.py) is byte for byte the plain one, in every game."""

from __future__ import annotations

import json
import random

import pytest

from reussite.engine import Position
from reussite.games import CATALOGUE, get_game
from reussite.web.storage import GameRow
from reussite.web.views import piles_json, view_json_of, view_of


def row_for(game: str, number: int) -> GameRow:
    return GameRow("g" * 16, "p", game, number, 7, 5, 6, "playing", True, False, 61_500,
                   0, 0, None, None, None, None, None)


@pytest.mark.parametrize("game", sorted(CATALOGUE))
def test_view_json_is_the_plain_json_of_the_view(game: str) -> None:
    rng = random.Random(game)
    for number in (0, 17, 2**64 - 1):
        pos = Position.deal(get_game(game), number)
        for step in range(40):
            raw = pos.raw_moves()
            row = row_for(game, number)
            events = [{"type": "flip", "pile": pos.layout.ids[0]}]
            plain = json.dumps(view_of(row, pos, events, raw), separators=(",", ":"),
                               ensure_ascii=False).encode()
            assert view_json_of(row, pos, events, raw) == plain, (number, step)
            assert json.loads(piles_json(pos)) == pos.player_view()
            if not raw:
                break
            pos.push_raw(rng.choice(raw))
