"""The scores in the view, the history of recent games (``GET /api/history``) and the reset of
the statistics (``DELETE /api/stats``), on SQLite and on PostgreSQL."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import TypeAdapter
from webtools import new_game

from reussite.engine import Position
from reussite.games import get_game
from reussite.solver.search import solve
from reussite.web.history import HISTORY_LIMIT, history
from reussite.web.models import GameView, HistoryEntry
from reussite.web.storage import GameRow


def play(client: TestClient, view: dict[str, Any], move: dict[str, Any]) -> dict[str, Any]:
    r = client.post(f"/api/games/{view['id']}/moves",
                    json={"move": move, "version": view["version"]})
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def win_klondike_1(client: TestClient) -> dict[str, Any]:
    """Deal Klondike 1 and win it through the API with the solver's line."""
    view = new_game(client, "klondike", 1)
    result = solve(Position.deal(get_game("klondike"), 1), time_limit=10)
    assert result.status == "won"
    for m in result.moves:
        view = play(client, view, m.to_json())
    assert view["status"] == "won"
    return view


def lose(client: TestClient, game: str, number: int) -> dict[str, Any]:
    """Deal a game and play its first legal move until none is left (Auld Lang Syne: soon)."""
    view = new_game(client, game, number)
    for _ in range(500):
        if view["status"] != "playing":
            break
        view = play(client, view, view["legal_moves"][0])
    assert view["status"] == "lost"
    return view


# ------------------------------------------------------------------------------ the scores


def test_a_klondike_view_carries_both_scores_and_a_spider_view_none(client: TestClient) -> None:
    view = new_game(client, "klondike-draw-3", 4)
    GameView.model_validate(view)
    assert view["scores"] == {"standard": 0, "vegas": -52}
    assert new_game(client, "spider", 4)["scores"] is None


def test_the_scores_follow_the_moves_and_their_undo(client: TestClient) -> None:
    view = win_klondike_1(client)
    assert view["scores"]["vegas"] == 52 * 5 - 52
    assert view["scores"]["standard"] > 0
    r = client.post(f"/api/games/{view['id']}/undo", json={"version": view["version"]})
    undone = r.json()
    assert undone["scores"]["vegas"] == 51 * 5 - 52
    r = client.post(f"/api/games/{view['id']}/restart", json={"version": undone["version"]})
    assert r.json()["scores"] == {"standard": 0, "vegas": -52}


# ------------------------------------------------------------------------------ history


def test_the_history_lists_games_over_or_abandoned_newest_first(client: TestClient) -> None:
    assert client.get("/api/history").json() == []
    won = win_klondike_1(client)
    lost = lose(client, "auld-lang-syne", 3)
    left = new_game(client, "klondike", 2)
    left = play(client, left, {"type": "stock"})
    new_game(client, "klondike", 3)  # klondike 2 is left for it: abandoned
    current = new_game(client, "spider", 5)
    play(client, current, current["legal_moves"][0])  # in play: not in the history
    new_game(client, "athena", 6)  # no move yet, and in play

    entries = client.get("/api/history").json()
    TypeAdapter(list[HistoryEntry]).validate_python(entries)
    assert [(e["id"], e["result"]) for e in entries] == [
        (left["id"], "abandoned"), (lost["id"], "lost"), (won["id"], "won")]
    first, second, third = entries
    assert first["number"] == 2  # abandoned: over, its number shown
    assert first["moves"] == 1 and first["game"] == "klondike"
    assert second["number"] == 3 and second["game"] == "auld-lang-syne"
    assert third["number"] == 1 and third["moves"] == won["moves"]
    assert third["names"]["fr"] == "Klondike" and not third["used_undo"]

    only = client.get("/api/history", params={"game": "auld-lang-syne"}).json()
    assert [e["id"] for e in only] == [lost["id"]]


def test_the_history_refuses_an_unknown_game(client: TestClient) -> None:
    r = client.get("/api/history", params={"game": "chess"})
    assert r.status_code == 422 and "Unknown game 'chess'" in r.json()["detail"]
    r = client.delete("/api/stats", params={"game": "chess"})
    assert r.status_code == 422 and "Unknown game 'chess'" in r.json()["detail"]


def row(n: int, game: str = "klondike", status: str = "lost", length: int = 5,
        ended: str | None = "lost") -> GameRow:
    return GameRow(id=f"g{n}", player_id="p", game=game, number=n, version=1, cursor=length,
                   length=length, status=status, used_undo=False, used_hint=False,
                   elapsed_ms=1000 * n, created_at=n, updated_at=n, won_at=None,
                   won_moves=None, won_ms=None, won_used_undo=None, won_used_hint=None,
                   origin="random", secret=True, ended=ended)


def test_the_history_is_cut_at_50_games() -> None:
    rows = [row(n) for n in range(200, 0, -1)]
    entries = history(rows)
    assert len(entries) == HISTORY_LIMIT == 50
    assert [e["number"] for e in entries] == list(range(200, 150, -1))


def test_a_game_won_then_taken_back_counts_as_won_with_the_win_s_moves() -> None:
    r = replace(row(1, status="playing", length=40, ended="won"), won_at=1, won_moves=30,
                won_ms=9000, won_used_undo=False, won_used_hint=True, used_undo=True)
    newer = row(2, status="playing", length=0, ended=None)
    [entry] = history([newer, r])
    assert entry["result"] == "won" and entry["moves"] == 30 and entry["seconds"] == 9
    assert entry["used_hint"] and not entry["used_undo"] and entry["number"] == 1


# ------------------------------------------------------------------------------ reset


def played(client: TestClient) -> dict[str, tuple[int, int]]:
    """Games played and won, of each game played."""
    return {s["game"]: (s["played"], s["won"]) for s in client.get("/api/stats").json()
            if s["played"]}


def test_reset_forgets_the_results_and_keeps_the_games_in_play(client: TestClient) -> None:
    lose(client, "auld-lang-syne", 3)
    left = play(client, new_game(client, "klondike", 2), {"type": "stock"})
    current = play(client, new_game(client, "klondike", 3), {"type": "stock"})
    spider = new_game(client, "spider", 5)
    assert played(client) == {"auld-lang-syne": (1, 0), "klondike": (2, 0)}

    r = client.delete("/api/stats", params={"game": "auld-lang-syne"})
    assert r.status_code == 200 and r.json() == {"deleted": 1}
    assert played(client) == {"klondike": (2, 0)}

    r = client.delete("/api/stats")
    assert r.status_code == 200 and r.json() == {"deleted": 1}  # the abandoned Klondike
    assert client.get("/api/history").json() == []
    assert client.get(f"/api/games/{left['id']}").status_code == 404
    # The games in play are untouched, their lines whole.
    kept = client.get(f"/api/games/{current['id']}").json()
    assert kept["version"] == current["version"] and kept["moves"] == 1
    assert client.get(f"/api/games/{spider['id']}").status_code == 200
    assert played(client) == {"klondike": (1, 0)}  # the game in play, with its move


def test_reset_touches_only_the_caller_s_games(app: Any) -> None:
    with TestClient(app) as a, TestClient(app) as b:
        lost = lose(a, "auld-lang-syne", 3)
        lose(b, "auld-lang-syne", 3)
        assert b.delete("/api/stats").json() == {"deleted": 1}
        assert a.get(f"/api/games/{lost['id']}").status_code == 200
        assert [e["id"] for e in a.get("/api/history").json()] == [lost["id"]]


def test_reset_from_another_site_is_refused(client: TestClient) -> None:
    lose(client, "auld-lang-syne", 3)
    r = client.delete("/api/stats", headers={"origin": "https://evil.example"})
    assert r.status_code == 403
    assert len(client.get("/api/history").json()) == 1


@pytest.mark.parametrize("game", ["klondike", None])
def test_reset_on_a_player_without_games_deletes_nothing(client: TestClient,
                                                         game: str | None) -> None:
    params = {"game": game} if game else {}
    assert client.delete("/api/stats", params=params).json() == {"deleted": 0}
