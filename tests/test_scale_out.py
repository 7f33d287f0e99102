"""Two server processes on one PostgreSQL database: a player's requests alternate between
them through a whole game, and moves racing on one game from both never corrupt it (one
wins, the other is answered 409)."""

from __future__ import annotations

import signal
import threading
from pathlib import Path

import httpx
import pytest
from serverproc import free_port
from webtools import start_server

from reussite.engine import Position
from reussite.games import get_game


@pytest.mark.slow
@pytest.mark.postgres
def test_two_servers_one_database(postgres_url: str, tmp_path: Path) -> None:
    ports = [free_port(), free_port()]
    servers = [start_server(postgres_url, p, tmp_path / f"server{i}.log")
               for i, p in enumerate(ports)]
    clients = [httpx.Client(base_url=f"http://127.0.0.1:{p}", timeout=20)
               for p in ports]
    try:
        r = clients[0].post("/api/games", json={"game": "klondike", "number": 21})
        assert r.status_code == 201
        view = r.json()
        gid = view["id"]
        clients[1].cookies.update(r.cookies)  # the same browser, whichever server answers
        pos = Position.deal(get_game("klondike"), 21)
        for i in range(10):
            c = clients[i % 2]
            move = pos.legal_moves()[0]
            pos.play(move)
            r = c.post(f"/api/games/{gid}/moves",
                       json={"move": move.to_json(), "version": view["version"]})
            assert r.status_code == 200, r.text
            view = r.json()
            assert view["piles"] == pos.player_view()
        taken_back = []
        for i in range(3):
            r = clients[i % 2].post(f"/api/games/{gid}/undo",
                                    json={"version": view["version"]})
            view = r.json()
            taken_back.append(pos.pop())
            assert view["piles"] == pos.player_view()
        r = clients[0].post(f"/api/games/{gid}/redo", json={"version": view["version"]})
        view = r.json()
        pos.play(taken_back.pop())
        assert view["piles"] == pos.player_view()
        assert clients[1].get(f"/api/games/{gid}").json()["piles"] == pos.player_view()
        r = clients[1].post(f"/api/games/{gid}/restart", json={"version": view["version"]})
        view = r.json()
        assert view["piles"] == Position.deal(get_game("klondike"), 21).player_view()
        assert clients[0].get(f"/api/games/{gid}").json()["version"] == view["version"]

        # Both servers receive a move at the same version at the same moment.
        statuses: list[int] = []
        barrier = threading.Barrier(2)

        def race(c: httpx.Client) -> None:
            barrier.wait()
            r = c.post(f"/api/games/{gid}/moves",
                       json={"move": {"type": "stock"}, "version": view["version"]})
            statuses.append(r.status_code)

        threads = [threading.Thread(target=race, args=(c,)) for c in clients]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(statuses) == [200, 409]
        final = clients[1].get(f"/api/games/{gid}").json()
        assert final["version"] == view["version"] + 1 and final["moves"] == 1
        assert clients[0].get(f"/api/games/{gid}").json()["piles"] == final["piles"]
    finally:
        for s in servers:
            s.send_signal(signal.SIGKILL)
            s.wait()
        for c in clients:
            c.close()
