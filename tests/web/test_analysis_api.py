"""Giving up, and the analysis of a finished game through the HTTP API (web/review.py), on
SQLite and on PostgreSQL: refused while the game is played, worked by the local pool of worker
processes, stored once and read by anyone, the game sealed, every card shown only after the
end."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from helpers import after, assert_raw_line_wins, lost_on_purpose
from webtools import new_game

from reussite.engine import Move, Position
from reussite.games import get_game
from reussite.web.analyses import Analyses

LOST = lost_on_purpose("klondike", 1, start=10, more=40)
"""Klondike deal 1: the solver's win followed, thrown away by one move, then 40 more moves."""


def play_line(client: TestClient, view: dict[str, Any],
              line: list[tuple[int, int, int]]) -> dict[str, Any]:
    pos = Position.deal(get_game(view["game"]), 1)
    for raw in line:
        move = pos.to_move(raw)
        pos.push_raw(raw)
        r = client.post(f"/api/games/{view['id']}/moves",
                        json={"move": move.to_json(), "version": view["version"]})
        assert r.status_code == 200, r.text
        view = r.json()
    return view


def resign(client: TestClient, view: dict[str, Any]) -> Any:
    return client.post(f"/api/games/{view['id']}/resign", json={"version": view["version"]})


def analysis_done(client: TestClient, game_id: str, timeout: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r = client.get(f"/api/games/{game_id}/analysis")
        assert r.status_code == 200, r.text
        if r.json()["state"] in ("done", "failed"):
            return dict(r.json())
        time.sleep(0.2)
    raise AssertionError("the analysis did not finish")


def test_giving_up_ends_the_game_lost_for_good(client: TestClient) -> None:
    view = new_game(client, "klondike", 1)
    view = play_line(client, view, LOST[1][:3])
    r = resign(client, view)
    assert r.status_code == 200, r.text
    over = r.json()
    assert over["status"] == "lost" and over["ended"] == "resigned"
    assert over["legal_moves"] == [] and not over["can_undo"]
    for action in ("undo", "restart", "resign"):
        r = client.post(f"/api/games/{view['id']}/{action}", json={"version": over["version"]})
        assert r.status_code == 409 and r.json()["detail"] == "This game is over: it was given up"
    move = view["legal_moves"][0]
    r = client.post(f"/api/games/{view['id']}/moves",
                    json={"move": move, "version": over["version"]})
    assert r.status_code == 409
    stats = {s["game"]: s for s in client.get("/api/stats").json()}
    assert stats["klondike"]["played"] == 1 and stats["klondike"]["won"] == 0


def test_a_game_given_up_before_its_first_move_counts_as_a_loss(client: TestClient) -> None:
    view = new_game(client, "spider", 3)
    assert resign(client, view).status_code == 200
    [s] = [s for s in client.get("/api/stats").json() if s["game"] == "spider"]
    assert s["played"] == 1 and s["won"] == 0


def test_the_refusal_is_said_in_the_players_language(client: TestClient) -> None:
    view = new_game(client, "klondike", 1)
    over = resign(client, view).json()
    r = client.post(f"/api/games/{view['id']}/undo", json={"version": over["version"]},
                    headers={"accept-language": "fr"})
    assert r.status_code == 409 and "abandonnée" in r.json()["detail"]


def test_the_analysis_is_refused_while_the_game_is_played(client: TestClient) -> None:
    view = new_game(client, "klondike", 1)
    view = play_line(client, view, LOST[1][:5])
    for r in (client.post(f"/api/games/{view['id']}/analysis", json={}),
              client.get(f"/api/games/{view['id']}/analysis"),
              client.get(f"/api/games/{view['id']}/analysis/position",
                         params={"line": "player", "at": 0})):
        assert r.status_code == 409
        assert set(r.json()) == {"detail"} and "over" in r.json()["detail"]
    # Still playable: nothing was sealed.
    r = client.post(f"/api/games/{view['id']}/undo", json={"version": view["version"]})
    assert r.status_code == 200


def test_the_analysis_names_the_losing_move_and_shows_the_win(client: TestClient) -> None:
    deal, line, losing = LOST
    view = play_line(client, new_game(client, "klondike", 1), line)
    over = resign(client, view).json()
    r = client.post(f"/api/games/{view['id']}/analysis", json={})
    assert r.status_code in (200, 202)
    done = analysis_done(client, view["id"])
    assert done["state"] == "done", done
    result = done["result"]
    assert result["losing_move"] == losing and result["exact"]
    assert result["last_winnable"] == losing - 1 and result["first_lost"] == losing
    assert f"Your move {losing}" in result["losing_text"]
    assert result["summary"].startswith("The deal could be won.")
    assert len(result["player_line"]) == len(line)
    assert deal.to_raw(Move.from_json(result["player_line"][0])) == line[0]
    # The win from the last winnable position replays to a win.
    start = after(deal, line[:losing - 1])
    here = start.copy()
    win = []
    for m in result["win_from_last"]:
        raw = here.to_raw(Move.from_json(m))
        win.append(raw)
        here.push_raw(raw)
    assert_raw_line_wins(start, win)
    # Asking again costs nothing: the stored result, 200.
    again = client.post(f"/api/games/{view['id']}/analysis", json={})
    assert again.status_code == 200 and again.json()["result"] == result
    # The same in French.
    fr = client.get(f"/api/games/{view['id']}/analysis", headers={"accept-language": "fr"})
    assert fr.json()["result"]["summary"] != result["summary"]

    # Stepping through: the player's line and the win, every card named.
    pos = client.get(f"/api/games/{view['id']}/analysis/position",
                     params={"line": "player", "at": losing, "from": losing - 1}).json()
    assert pos["length"] == len(line) and pos["at"] == losing and pos["events"]
    assert all(c["card"] for pile in pos["piles"].values() for c in pile)
    expected = after(deal, line[:losing])
    assert sum(len(p) for p in pos["piles"].values()) == sum(len(p) for p in expected.piles)
    back = client.get(f"/api/games/{view['id']}/analysis/position",
                      params={"line": "player", "at": losing - 1, "from": losing}).json()
    assert back["events"] and back["events"][0]["type"] == "move"
    end = client.get(f"/api/games/{view['id']}/analysis/position",
                     params={"line": "win", "at": len(win)}).json()
    assert end["status"] == "won" and end["length"] == len(win)
    r = client.get(f"/api/games/{view['id']}/analysis/position",
                   params={"line": "win", "at": len(win) + 1})
    assert r.status_code == 422
    # Still lost for good.
    assert client.get(f"/api/games/{view['id']}").json()["ended"] == "resigned"
    assert over["ended"] == "resigned"


def test_asking_for_the_analysis_of_a_stuck_game_seals_it(client: TestClient) -> None:
    # Auld Lang Syne deal 1, dealt on through its stock, comes to a position with no move
    # (lost) in 11 moves; an undo is still allowed until the analysis is asked for.
    view = new_game(client, "auld-lang-syne", 1)
    for _ in range(400):
        if view["status"] != "playing" or not view["legal_moves"]:
            break
        move = next((m for m in view["legal_moves"] if m["type"] == "stock"),
                    view["legal_moves"][0])
        view = client.post(f"/api/games/{view['id']}/moves",
                           json={"move": move, "version": view["version"]}).json()
    assert view["status"] == "lost" and view["can_undo"]
    r = client.post(f"/api/games/{view['id']}/analysis", json={})
    assert r.status_code in (200, 202)
    sealed = client.get(f"/api/games/{view['id']}").json()
    assert sealed["sealed"] and not sealed["can_undo"]
    r = client.post(f"/api/games/{view['id']}/undo", json={"version": sealed["version"]})
    assert r.status_code == 409 and "analysis" in r.json()["detail"]
    assert analysis_done(client, view["id"])["state"] == "done"


def test_one_analysis_at_a_time_and_an_hourly_limit(
        app: FastAPI, client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    ids = []
    for n in (11, 12, 13):
        view = new_game(client, "spider", n)
        ids.append(resign(client, view).json()["id"])
    # The queue keeps the first one waiting: it is in flight.
    monkeypatch.setattr(app.state.jobs, "submit", lambda game_id: False)
    first = client.post(f"/api/games/{ids[0]}/analysis", json={})
    assert first.status_code == 202 and first.json()["state"] == "queued"
    assert first.json()["ahead"] >= 0
    busy = client.post(f"/api/games/{ids[1]}/analysis", json={})
    assert busy.status_code == 429 and "One analysis at a time" in busy.json()["detail"]
    assert busy.headers["retry-after"] == "10"
    # Once it is no longer in flight, the hourly limit still counts it.
    table = Analyses(app.state.store)
    assert table.claim(ids[0])
    table.fail(ids[0], "stopped by the test")
    failed = client.get(f"/api/games/{ids[0]}/analysis").json()
    assert failed["state"] == "failed" and failed["detail"]
    monkeypatch.setenv("REUSSITE_ANALYSES_PER_HOUR", "1")
    r = client.post(f"/api/games/{ids[2]}/analysis", json={})
    assert r.status_code == 429 and "this hour" in r.json()["detail"]


def test_health_reports_the_job_tier(client: TestClient) -> None:
    jobs = client.get("/api/health").json()["jobs"]
    assert jobs["kind"] == "local" and jobs["workers"] == 1 and jobs["queued"] >= 0
