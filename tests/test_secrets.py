"""The face-down cards and the stock's order never leave the server.

Random legal moves, undos, redos, restarts and hints in every game, through the API; in every
answer, no card code appears more often than that card lies face up, and the piles are exactly
the player's view of the same position replayed here (face-down entries carry no card).
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import httpx
from fastapi.testclient import TestClient
from webtools import hidden_codes, shown_codes

from reussite.cards import RANKS, SUITS
from reussite.engine import Move, Position
from reussite.games import CATALOGUE, get_game

CODE = re.compile(rf'"([{RANKS}][{SUITS}])"')
ACTIONS_PER_GAME = 32


def check_answer(r: httpx.Response, pos: Position) -> None:
    """No card code in the answer beyond the face-up copies of that card."""
    assert r.status_code < 500, r.text
    shown = shown_codes(pos)
    seen: dict[str, int] = {}
    for code in CODE.findall(r.text):
        seen[code] = seen.get(code, 0) + 1
    for code, n in seen.items():
        assert n <= shown.get(code, 0), f"{code} appears {n} times, {shown.get(code, 0)} up"
    if r.headers.get("content-type", "").startswith("application/json"):
        data: Any = r.json()
        if isinstance(data, dict) and "piles" in data:
            assert data["piles"] == pos.player_view()
            for pile in data["piles"].values():
                for entry in pile:
                    assert entry["up"] or entry == {"card": None, "up": False}


def test_the_deal_json_and_the_first_view_agree_on_what_is_hidden(
        sqlite_client: TestClient) -> None:
    for i, game in enumerate(CATALOGUE):
        number = 500 + i
        full = Position.deal(get_game(game), number).to_json()
        r = sqlite_client.post("/api/games", json={"game": game, "number": number})
        view = r.json()
        for pid, pile in full["piles"].items():
            for shown, entry in zip(view["piles"][pid], pile, strict=True):
                assert shown == (entry if entry["up"] else {"card": None, "up": False})
        hidden = {e["card"] for p in full["piles"].values() for e in p if not e["up"]}
        up = {e["card"] for p in full["piles"].values() for e in p if e["up"]}
        leaked = hidden - up
        assert not any(f'"{code}"' in r.text for code in leaked)


def test_random_play_in_every_game_never_shows_a_hidden_card(
        sqlite_client: TestClient) -> None:
    client = sqlite_client
    for i, game in enumerate(CATALOGUE):
        rng = random.Random(1000 + i)
        number = rng.randrange(10**6)
        pos = Position.deal(get_game(game), number)
        assert hidden_codes(pos)  # every game deals some cards face down
        r = client.post("/api/games", json={"game": game, "number": number})
        check_answer(r, pos)
        view = r.json()
        gid = view["id"]
        redo: list[Move] = []
        for _ in range(ACTIONS_PER_GAME):
            roll = rng.random()
            legal = view["legal_moves"]
            if legal and roll < 0.7:
                move = Move.from_json(rng.choice(legal))
                r = client.post(f"/api/games/{gid}/moves",
                                json={"move": move.to_json(), "version": view["version"]})
                pos.play(move)
                redo.clear()
            elif roll < 0.8 and pos.history:
                r = client.post(f"/api/games/{gid}/undo", json={"version": view["version"]})
                redo.append(pos.pop())
            elif roll < 0.88 and redo:
                r = client.post(f"/api/games/{gid}/redo", json={"version": view["version"]})
                pos.play(redo.pop())
            elif roll < 0.92:
                r = client.post(f"/api/games/{gid}/restart",
                                json={"version": view["version"]})
                while pos.history:
                    redo.append(pos.pop())
            else:
                h = client.get(f"/api/games/{gid}/hint")
                check_answer(h, pos)
                r = client.get(f"/api/games/{gid}")
            assert r.status_code == 200, r.text
            check_answer(r, pos)
            view = r.json()
        # Refusals and errors say nothing about hidden cards either.
        r = client.post(f"/api/games/{gid}/moves", json={"move": {
            "type": "move", "from": "stock", "to": "tableau:0", "count": 1},
            "version": view["version"]})
        assert r.status_code == 422
        check_answer(r, pos)
        check_answer(client.get("/api/games"), pos)
        check_answer(client.get(f"/games/{game}"), pos)
    stats = client.get("/api/stats")
    assert len(json.loads(stats.text)) == len(CATALOGUE)
