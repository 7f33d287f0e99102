"""The hot path's view JSON (web/views.py) is byte for byte the plain one, in every game."""

from __future__ import annotations

import json
import random

import pytest

from reussite.deals import number_from
from reussite.engine import Position
from reussite.games import CATALOGUE, get_game
from reussite.web.storage import GameRow
from reussite.web.views import piles_json, view_json_of, view_of


def row_for(game: str, number: int) -> GameRow:
    return GameRow("g" * 16, "p", game, number, 7, 5, 6, "playing", True, False, 61_500,
                   0, 0, None, None, None, None, None, "number", False, None)


@pytest.mark.parametrize("game", sorted(CATALOGUE))
def test_view_json_is_the_plain_json_of_the_view(game: str) -> None:
    rng = random.Random(game)
    for number in (0, 17, 2**64 - 1):
        number = number_from(number, get_game(game).numbers)
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


def test_piles_json_outside_its_table_is_still_the_plain_json() -> None:
    import orjson

    from reussite.cards import UP

    pos = Position.deal(get_game("klondike"), 3)
    # Values the table of card entries leaves out (no card has them face up, or beyond it):
    # the piles are then made one card at a time, as Position.player_view() makes them.
    for odd in (UP, 3 * UP + 5):
        pos.piles[0].append(odd)
        assert piles_json(pos) == orjson.dumps(pos.player_view())
        pos.piles[0].pop()
    assert piles_json(pos) == orjson.dumps(pos.player_view())
