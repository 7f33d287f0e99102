"""Games are never lost: the server is killed (SIGKILL) and started again on the same
database, and every acknowledged move and the whole undo/redo history are there."""

from __future__ import annotations

import signal
from pathlib import Path

import httpx
import pytest
from serverproc import free_port
from webtools import start_server

from reussite.engine import Move, Position
from reussite.games import get_game


@pytest.mark.slow
def test_sigkill_loses_no_acknowledged_move(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = tmp_path / "server.log"
    proc = start_server(db, port, log)
    client = httpx.Client(base_url=base, timeout=10)
    try:
        pos = Position.deal(get_game("klondike"), 77)
        r = client.post("/api/games", json={"game": "klondike", "number": 77})
        assert r.status_code == 201
        view = r.json()
        gid = view["id"]
        views = [view]
        for _ in range(12):
            move = pos.legal_moves()[0]
            r = client.post(f"/api/games/{gid}/moves",
                            json={"move": move.to_json(), "version": view["version"]})
            assert r.status_code == 200
            pos.play(move)
            view = r.json()
            views.append(view)
        for _ in range(4):
            r = client.post(f"/api/games/{gid}/undo", json={"version": view["version"]})
            assert r.status_code == 200
            view = r.json()
            pos.pop()
        acknowledged = view
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()

    proc = start_server(db, port, log)
    try:
        # The same browser (the same cookie) finds its game where it was.
        r = client.get(f"/api/games/{gid}")
        assert r.status_code == 200
        after = r.json()
        for key in ("version", "piles", "moves", "can_undo", "can_redo", "legal_moves"):
            assert after[key] == acknowledged[key]
        assert after["piles"] == pos.player_view()
        listed = client.get("/api/games", params={"status": "playing"}).json()
        assert [g["id"] for g in listed] == [gid]
        # The undone moves are still there to redo, and every earlier move to undo.
        for i in range(9, 13):
            r = client.post(f"/api/games/{gid}/redo", json={"version": after["version"]})
            after = r.json()
            assert after["piles"] == views[i]["piles"]
        for i in range(11, -1, -1):
            r = client.post(f"/api/games/{gid}/undo", json={"version": after["version"]})
            after = r.json()
            assert after["piles"] == views[i]["piles"]
        assert not after["can_undo"]
        assert Move.from_json(after["legal_moves"][0]) in Position.deal(
            get_game("klondike"), 77).legal_moves()
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        client.close()
