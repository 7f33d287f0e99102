"""Helpers shared by the web tests."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from reussite.cards import UP, card_code
from reussite.engine import Position

JSON = {"content-type": "application/json"}


def post(client: TestClient, path: str, body: Any) -> Any:
    return client.post(path, json=body)


def new_game(client: TestClient, game: str = "astrocyte", number: int = 7) -> dict[str, Any]:
    r = client.post("/api/games", json={"game": game, "number": number})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def hidden_codes(pos: Position) -> dict[str, int]:
    """How many face-down copies of each card code the position holds."""
    out: dict[str, int] = {}
    for pile in pos.piles:
        for c in pile:
            if not c & UP:
                out[card_code(c)] = out.get(card_code(c), 0) + 1
    return out


def shown_codes(pos: Position) -> dict[str, int]:
    out: dict[str, int] = {}
    for pile in pos.piles:
        for c in pile:
            if c & UP:
                out[card_code(c)] = out.get(card_code(c), 0) + 1
    return out
