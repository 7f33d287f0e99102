"""Scale-out: two ``reussite serve`` processes on one PostgreSQL database serve one player in
turn, as a reverse proxy spreading requests would, and no state lives only in one process.

One browser (one cookie) sends each request to the other process through a whole game:
moves, undo (several in a row), redo, restart, hint; every answer is the position replayed
here, and each process sees what the other has just done. Then, on a game just restarted
through the other process, both processes are sent a move for the same version at the same
moment, many times (the first time the very same move, a click on the stock): one wins, the
other gets 409, each win adds one to the version, and the game is exactly the winners' moves
in order.

(This file is the merge of two that proved the same thing; every scenario of both is here.)
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import serverproc
from serverproc import Server, postgres_base

from reussite.engine import Move, Position
from reussite.games import get_game

pytestmark = [pytest.mark.postgres, pytest.mark.slow]
RACES = 12
STOCK = {"type": "stock"}


@pytest.fixture(scope="module")
def two_servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Server]]:
    base = postgres_base()
    if base is None:
        pytest.skip("no PostgreSQL on 127.0.0.1:5432 (set REUSSITE_TEST_POSTGRES)")
    with serverproc.two_servers(tmp_path_factory.mktemp("scaleout"), "scaleout") as (a, b, _):
        yield a, b


def send(client: httpx.Client, server: Server, method: str, path: str,
         body: Any = None) -> httpx.Response:
    return client.request(method, f"{server.url}{path}", json=body)


def test_one_player_alternating_between_two_processes_through_a_whole_game(
        two_servers: tuple[Server, Server]) -> None:
    a, b = two_servers
    rng = random.Random(8)
    deal = Position.deal(get_game("klondike"), 4242).player_view()
    with httpx.Client(timeout=30) as client:
        # The cookie made by one process is honoured by the other: the signing key is in the
        # database, shared.
        r = send(client, a, "POST", "/api/games", {"game": "klondike", "number": 4242})
        assert r.status_code == 201
        view = r.json()
        gid = view["id"]
        pos = Position.deal(get_game("klondike"), 4242)
        redo: list[Move] = []
        done: list[str] = []  # what each step did, to check below that every kind was done
        for step in range(70):
            here, there = (b, a) if step % 2 == 0 else (a, b)
            roll = rng.random()
            if step in (30, 55):
                r = send(client, here, "POST", f"/api/games/{gid}/restart",
                         {"version": view["version"]})
                while pos.history:
                    redo.append(pos.pop())
                done.append("restart")
                assert r.json()["piles"] == deal
            elif roll < 0.15 and pos.history:
                r = send(client, here, "POST", f"/api/games/{gid}/undo",
                         {"version": view["version"]})
                redo.append(pos.pop())
                done.append("undo")
            elif roll < 0.35 and redo:
                r = send(client, here, "POST", f"/api/games/{gid}/redo",
                         {"version": view["version"]})
                pos.play(redo.pop())
                done.append("redo")
            elif roll < 0.40:
                r = send(client, here, "GET", f"/api/games/{gid}/hint")
                assert r.status_code == 200
                hint = r.json()["move"]
                assert hint is None or Move.from_json(hint) in pos.legal_moves()
                r = send(client, here, "GET", f"/api/games/{gid}")
                done.append("hint")
            else:
                legal = pos.legal_moves()
                if not legal:
                    break
                move = rng.choice(legal)
                r = send(client, here, "POST", f"/api/games/{gid}/moves",
                         {"move": move.to_json(), "version": view["version"]})
                pos.play(move)
                redo.clear()
                done.append("stock" if move.to_json() == STOCK else "move")
            assert r.status_code == 200, r.text
            view = r.json()
            assert view["piles"] == pos.player_view()
            assert view["moves"] == len(pos.history)
            assert view["can_redo"] == bool(redo)
            # The other process sees the same game at once.
            seen = send(client, there, "GET", f"/api/games/{gid}").json()
            assert (seen["version"], seen["piles"], seen["moves"]) == (
                view["version"], view["piles"], view["moves"])
        assert view["version"] >= 40  # hints and views change no version
        # The walk did every kind of step; among them two undos in a row (one through each
        # process) then a redo through the first, which finds the line both undos left.
        assert done.count("restart") == 2 and {"hint", "move", "stock"} <= set(done)
        assert "undo undo redo" in " ".join(done)
        listed = send(client, b, "GET", "/api/games").json()
        assert [g["id"] for g in listed] == [gid]
    # Another browser reaches the game through neither process.
    with httpx.Client(timeout=30) as stranger:
        assert send(stranger, a, "GET", f"/api/games/{gid}").status_code == 404
        assert send(stranger, b, "GET", f"/api/games/{gid}").status_code == 404


def test_racing_moves_from_both_processes_one_wins_one_gets_409(
        two_servers: tuple[Server, Server]) -> None:
    a, b = two_servers
    rng = random.Random(9)
    deal = Position.deal(get_game("spider"), 99)
    pos = Position.deal(get_game("spider"), 99)
    clients = [httpx.Client(timeout=30) for _ in (a, b)]
    try:
        r = send(clients[0], a, "POST", "/api/games", {"game": "spider", "number": 99})
        assert r.status_code == 201
        view = r.json()
        gid = view["id"]
        clients[1].cookies.update(r.cookies)  # the same browser, whichever process answers
        # A move through one process, a restart through the other: the races below start
        # from the deal again, at a version the first process has never answered.
        move = pos.legal_moves()[0]
        r = send(clients[0], a, "POST", f"/api/games/{gid}/moves",
                 {"move": move.to_json(), "version": view["version"]})
        assert r.status_code == 200, r.text
        r = send(clients[1], b, "POST", f"/api/games/{gid}/restart",
                 {"version": r.json()["version"]})
        assert r.status_code == 200, r.text
        view = r.json()
        assert view["piles"] == deal.player_view() and view["moves"] == 0
        assert send(clients[0], a, "GET", f"/api/games/{gid}").json()["version"] == view["version"]

        for race in range(RACES):
            legal = pos.legal_moves()
            assert legal
            # The first race: both processes are sent the very same click on the stock.
            picks = ([Move.from_json(STOCK)] * 2 if race == 0
                     else [rng.choice(legal), rng.choice(legal)])
            assert all(p in legal for p in picks)
            results: list[httpx.Response | None] = [None, None]
            gate = threading.Barrier(2)

            def run(i: int, picks: list[Move] = picks,
                    results: list[httpx.Response | None] = results,
                    gate: threading.Barrier = gate, version: int = view["version"]) -> None:
                gate.wait()
                results[i] = send(clients[i], (a, b)[i], "POST", f"/api/games/{gid}/moves",
                                  {"move": picks[i].to_json(), "version": version})

            threads = [threading.Thread(target=run, args=(i,)) for i in (0, 1)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            codes = sorted(r.status_code for r in results if r is not None)
            assert codes == [200, 409], [r.text for r in results if r is not None]
            winner = next(i for i in (0, 1) if results[i].status_code == 200)  # type: ignore[union-attr]
            pos.play(picks[winner])
            won = results[winner].json()  # type: ignore[union-attr]
            assert won["version"] == view["version"] + 1
            view = won
            assert view["piles"] == pos.player_view()
            loser = results[1 - winner].json()  # type: ignore[union-attr]
            assert "reload" in loser["detail"]
        # Whichever process is asked, the game is the winners' moves, in order, and nothing else.
        for c, server in zip(clients, (a, b), strict=True):
            held = send(c, server, "GET", f"/api/games/{gid}").json()
            assert held["moves"] == RACES
            assert held["piles"] == pos.player_view()
            assert held["version"] == view["version"]
        # Undo all the way back, alternating processes: the line is exactly the winners'.
        for k in range(RACES):
            r = send(clients[k % 2], (a, b)[k % 2], "POST", f"/api/games/{gid}/undo",
                     {"version": view["version"]})
            assert r.status_code == 200
            view = r.json()
            pos.pop()
            assert view["piles"] == pos.player_view()
        assert not view["can_undo"]
        assert view["piles"] == deal.player_view()
    finally:
        for c in clients:
            c.close()
