"""The HTTP API of docs/interfaces.md and docs/web-contract.md, endpoint by endpoint and
error by error, on SQLite and on PostgreSQL."""

from __future__ import annotations

import sqlite3
from typing import Any

import psycopg
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from webtools import new_game, stored_number

from reussite.engine import Move, Position
from reussite.games import CATALOGUE, get_game
from reussite.web.hotdb import PgWire, SqliteGames
from reussite.web.models import GameView


def test_catalogue_lists_every_game_with_id_name_and_decks(client: TestClient) -> None:
    r = client.get("/api/catalogue")
    assert r.status_code == 200
    games = {g["id"]: g for g in r.json()}
    assert set(games) == set(CATALOGUE)
    assert games["astrocyte"]["decks"] == 2 and games["klondike"]["decks"] == 1
    assert games["astrocyte"]["names"]["ru"] == "Астроцит"


def test_new_game_answers_201_with_the_view_of_the_deal(client: TestClient) -> None:
    view = new_game(client, "astrocyte", 7)
    GameView.model_validate(view)
    pos = Position.deal(get_game("astrocyte"), 7)
    assert view["piles"] == pos.player_view()
    assert view["version"] == 0 and view["status"] == "playing" and view["moves"] == 0
    assert view["legal_moves"] == [m.to_json() for m in pos.legal_moves()]
    assert not view["can_undo"] and not view["can_redo"] and view["events"] == []
    assert view["names"]["fr"] == "Astrocyte"


def test_new_game_without_a_number_picks_a_secret_one_of_the_whole_range(
        client: TestClient) -> None:
    r = client.post("/api/games", json={"game": "klondike"})
    assert r.status_code == 201
    view = r.json()
    assert view["number"] is None and view["origin"] == "random" and view["ended"] is None
    number = stored_number(client, view["id"])
    assert view["piles"] == Position.deal(get_game("klondike"), number).player_view()
    numbers = [stored_number(client, client.post("/api/games", json={"game": "klondike"})
                             .json()["id"]) for _ in range(8)]
    assert max(numbers) >= 2**40  # drawn from 2**64 numbers: all below 2**40 is 1 in 2**192


def test_a_random_freecell_deal_is_one_of_microsofts(client: TestClient) -> None:
    """FreeCell's numbers are Windows FreeCell's: a deal the site picks is one of them."""
    for _ in range(5):
        view = client.post("/api/games", json={"game": "freecell"}).json()
        assert view["number"] is None
        assert 0 <= stored_number(client, view["id"]) <= 1_000_000


def test_winnable_deal_comes_from_the_list_or_is_refused(client: TestClient,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    import reussite.web.play as play

    monkeypatch.setattr(play, "winnable_numbers", lambda g: (42, 43) if g == "spider" else ())
    r = client.post("/api/games", json={"game": "spider", "winnable": True})
    # The site's pool is empty: a deal of the public list, whose number is shown.
    assert r.status_code == 201 and r.json()["number"] in (42, 43)
    assert r.json()["origin"] == "winnable"
    r = client.post("/api/games", json={"game": "athena", "winnable": True})
    assert r.status_code == 422 and "winnable" in r.json()["detail"]


@pytest.mark.parametrize("body, words", [
    ({"game": "chess"}, "Unknown game"),
    ({"game": "astrocyte", "number": -1}, "number"),
    ({"game": "astrocyte", "number": 2**64}, "number"),
    ({"game": "astrocyte", "number": "seven"}, "number"),
    ({"game": "astrocyte", "number": 7.5}, "number"),
    ({"game": "freecell", "number": 1_000_001}, "between 0 and 1000000"),
    ({"game": "astrocyte", "surprise": 1}, "surprise"),
    ({}, "game"),
    ([1, 2], "object"),
])
def test_a_bad_new_game_is_a_readable_422(client: TestClient, body: Any, words: str) -> None:
    r = client.post("/api/games", json=body)
    assert r.status_code == 422
    assert isinstance(r.json()["detail"], str) and words.lower() in r.json()["detail"].lower()


def test_view_of_my_game_and_404_for_anothers(app: FastAPI, client: TestClient) -> None:
    view = new_game(client)
    r = client.get(f"/api/games/{view['id']}")
    assert r.status_code == 200 and r.json()["piles"] == view["piles"]
    gid = view["id"]
    with TestClient(app) as stranger:
        r = stranger.get(f"/api/games/{gid}")
        assert r.status_code == 404 and r.json() == {"detail": "No such game"}
        assert stranger.get(f"/api/games/{gid}/hint").status_code == 404
        r = stranger.post(f"/api/games/{gid}/moves",
                          json={"move": {"type": "stock"}, "version": 0})
        assert r.status_code == 404
        for action in ("undo", "redo", "restart"):
            r = stranger.post(f"/api/games/{gid}/{action}", json={"version": 0})
            assert r.status_code == 404
        assert stranger.get("/api/games").json() == []
    for bad in ("nonexistent", "x" * 300, "a%00b", "%F0%9F%82%A1"):
        assert client.get(f"/api/games/{bad}").status_code == 404


def play(client: TestClient, view: dict[str, Any], move: dict[str, Any]) -> Any:
    return client.post(f"/api/games/{view['id']}/moves",
                       json={"move": move, "version": view["version"]})


def test_a_legal_move_is_played_with_its_events(client: TestClient) -> None:
    view = new_game(client, "klondike", 3)
    pos = Position.deal(get_game("klondike"), 3)
    r = play(client, view, {"type": "stock"})
    assert r.status_code == 200
    after = r.json()
    pos.play(Move("stock"))
    assert after["piles"] == pos.player_view()
    assert after["version"] == 1 and after["moves"] == 1 and after["can_undo"]
    assert after["events"] == [{"type": "move", "from": "stock", "to": "waste", "count": 1},
                               {"type": "flip", "pile": "waste"}]


def test_an_illegal_move_is_422_with_the_engines_sentence(client: TestClient) -> None:
    view = new_game(client, "astrocyte", 7)
    r = play(client, view, {"type": "move", "from": "tableau:0", "to": "foundation:0",
                            "count": 1})
    assert r.status_code == 422
    assert r.json()["detail"].startswith("Single cards never go to a foundation")
    # Nothing changed.
    assert client.get(f"/api/games/{view['id']}").json()["version"] == 0


@pytest.mark.parametrize("move, words", [
    ({"type": "move", "from": "cell:9", "to": "tableau:0", "count": 1}, "no pile"),
    ({"type": "move", "from": "tableau:0", "to": "tableau:1", "count": 0}, "count"),
    ({"type": "move", "from": "tableau:0", "to": "tableau:1", "count": 10**9}, "count"),
    ({"type": "move", "from": "nowhere", "to": "tableau:1", "count": 1}, "from"),
    ({"type": "jump"}, "type"),
    ("stock", "move"),
])
def test_a_malformed_move_is_a_readable_422(client: TestClient, move: Any,
                                            words: str) -> None:
    view = new_game(client)
    r = play(client, view, move)
    assert r.status_code == 422
    assert words in r.json()["detail"].lower()


def test_a_stale_version_is_409(client: TestClient) -> None:
    view = new_game(client, "klondike", 3)
    assert play(client, view, {"type": "stock"}).status_code == 200
    r = play(client, view, {"type": "stock"})  # version 0 again
    assert r.status_code == 409 and "changed" in r.json()["detail"]
    r = client.post(f"/api/games/{view['id']}/undo", json={"version": 0})
    assert r.status_code == 409


def test_undo_redo_are_unlimited_and_exact(client: TestClient) -> None:
    view = new_game(client, "klondike", 5)
    pos = Position.deal(get_game("klondike"), 5)
    views = [view]
    for _ in range(6):
        move = pos.legal_moves()[0]
        pos.play(move)
        r = play(client, views[-1], move.to_json())
        assert r.status_code == 200
        views.append(r.json())
    current = views[-1]
    for back in range(6, 0, -1):
        r = client.post(f"/api/games/{view['id']}/undo", json={"version": current["version"]})
        assert r.status_code == 200
        current = r.json()
        assert current["piles"] == views[back - 1]["piles"]
        # The undo's events are the steps of the move taken back, reversed, from/to swapped.
        forward = views[back]["events"]
        expected = [dict(e, **{"from": e["to"], "to": e["from"]}) if e["type"] == "move"
                    else e for e in reversed(forward)]
        assert current["events"] == expected
    assert not current["can_undo"] and current["can_redo"] and current["used_undo"]
    r = client.post(f"/api/games/{view['id']}/undo", json={"version": current["version"]})
    assert r.status_code == 422 and r.json()["detail"] == "There is no move to undo"
    for forward_i in range(1, 7):
        r = client.post(f"/api/games/{view['id']}/redo", json={"version": current["version"]})
        assert r.status_code == 200
        current = r.json()
        assert current["piles"] == views[forward_i]["piles"]
        assert current["events"] == views[forward_i]["events"]
    r = client.post(f"/api/games/{view['id']}/redo", json={"version": current["version"]})
    assert r.status_code == 422 and r.json()["detail"] == "There is no move to redo"


def test_a_new_move_after_undo_cuts_the_redo_line(client: TestClient) -> None:
    view = new_game(client, "klondike", 5)
    v1 = play(client, view, {"type": "stock"}).json()
    v2 = play(client, v1, {"type": "stock"}).json()
    v3 = client.post(f"/api/games/{view['id']}/undo", json={"version": v2["version"]}).json()
    assert v3["can_redo"]
    v4 = play(client, v3, {"type": "stock"}).json()
    assert not v4["can_redo"] and v4["moves"] == 2


def test_restart_goes_back_to_the_same_deal_and_keeps_redo(client: TestClient) -> None:
    view = new_game(client, "klondike", 9)
    v = view
    for _ in range(3):
        v = play(client, v, {"type": "stock"}).json()
    r = client.post(f"/api/games/{view['id']}/restart", json={"version": v["version"]})
    assert r.status_code == 200
    again = r.json()
    assert again["piles"] == view["piles"] and again["number"] == 9 and again["moves"] == 0
    assert again["can_redo"] and again["can_undo"] and again["used_undo"]


def test_one_undo_takes_a_restart_back(client: TestClient) -> None:
    view = new_game(client, "klondike", 9)
    pos = Position.deal(get_game("klondike"), 9)
    v = view
    for _ in range(4):
        move = pos.legal_moves()[-1]
        pos.play(move)
        v = play(client, v, move.to_json()).json()
    before = v
    gid = view["id"]
    restarted = client.post(f"/api/games/{gid}/restart", json={"version": v["version"]}).json()
    # A second restart at the deal keeps the way back.
    restarted = client.post(f"/api/games/{gid}/restart",
                            json={"version": restarted["version"]}).json()
    r = client.post(f"/api/games/{gid}/undo", json={"version": restarted["version"]})
    assert r.status_code == 200
    back = r.json()
    assert back["piles"] == before["piles"] == pos.player_view()
    assert back["moves"] == 4 and back["can_undo"] and not back["can_redo"]
    assert client.get(f"/api/games/{gid}").json()["piles"] == before["piles"]
    # The next undo is an ordinary one: the fourth move taken back.
    r = client.post(f"/api/games/{gid}/undo", json={"version": back["version"]})
    assert r.json()["moves"] == 3 and r.json()["can_redo"]


def test_a_restart_is_undone_only_right_after_it(client: TestClient) -> None:
    view = new_game(client, "klondike", 9)
    v = view
    for _ in range(3):
        v = play(client, v, {"type": "stock"}).json()
    gid = view["id"]
    v = client.post(f"/api/games/{gid}/restart", json={"version": v["version"]}).json()
    v = client.post(f"/api/games/{gid}/redo", json={"version": v["version"]}).json()
    assert v["moves"] == 1
    v = client.post(f"/api/games/{gid}/undo", json={"version": v["version"]}).json()
    assert v["moves"] == 0 and not v["can_undo"] and v["can_redo"]
    r = client.post(f"/api/games/{gid}/undo", json={"version": v["version"]})
    assert r.status_code == 422 and r.json()["detail"] == "There is no move to undo"
    # A restart of a game still at its deal has nothing to take back.
    fresh = new_game(client, "klondike", 10)
    r = client.post(f"/api/games/{fresh['id']}/restart", json={"version": 0})
    assert r.status_code == 200 and not r.json()["can_undo"]


def test_hint_answers_a_legal_move_and_a_sentence(client: TestClient) -> None:
    view = new_game(client, "klondike", 11)
    r = client.get(f"/api/games/{view['id']}/hint")
    assert r.status_code == 200
    hint = r.json()
    assert hint["move"] in view["legal_moves"] and hint["text"] and hint["reason"] is None
    assert client.get(f"/api/games/{view['id']}").json()["used_hint"]
    r = client.get(f"/api/games/{view['id']}/hint", headers={"accept-language": "fr"})
    assert r.json()["text"] != hint["text"]
    r = client.get(f"/api/games/{view['id']}/hint", headers={"sec-fetch-site": "cross-site"})
    assert r.status_code == 403


def test_list_of_my_games_newest_first_filtered(client: TestClient) -> None:
    a = new_game(client, "klondike", 1)
    b = new_game(client, "spider", 2)
    play(client, a, {"type": "stock"})
    r = client.get("/api/games")
    assert r.status_code == 200
    ids = [g["id"] for g in r.json()]
    assert ids == [a["id"], b["id"]]
    r = client.get("/api/games", params={"game": "spider", "status": "playing"})
    assert [g["id"] for g in r.json()] == [b["id"]]
    assert r.json()[0]["number"] == 2 and r.json()[0]["moves"] == 0
    assert client.get("/api/games", params={"game": "chess"}).status_code == 422
    assert client.get("/api/games", params={"status": "sleeping"}).status_code == 422


def test_stats_count_played_games(client: TestClient) -> None:
    assert client.get("/api/stats").json() == []
    a = new_game(client, "klondike", 1)
    play(client, a, {"type": "stock"})
    stats = client.get("/api/stats").json()
    assert [(s["played"], s["lost"], s["origin"]) for s in stats] == [(1, 0, "number")]
    new_game(client, "klondike", 2)  # abandons the first: lost; no move yet: not counted
    stats = client.get("/api/stats").json()
    assert len(stats) == 1
    s = stats[0]
    assert s["game"] == "klondike" and s["played"] == 1 and s["won"] == 0 and s["lost"] == 1
    assert s["win_percent"] == 0.0 and s["best_time_seconds"] is None


def test_post_must_be_json_and_same_site(client: TestClient) -> None:
    r = client.post("/api/games", content=b'{"game": "klondike"}',
                    headers={"content-type": "text/plain"})
    assert r.status_code == 415
    r = client.post("/api/games", json={"game": "klondike"},
                    headers={"origin": "https://evil.example"})
    assert r.status_code == 403 and "another site" in r.json()["detail"]
    r = client.post("/api/games", json={"game": "klondike"},
                    headers={"sec-fetch-site": "cross-site"})
    assert r.status_code == 403
    r = client.post("/api/games", json={"game": "klondike"},
                    headers={"origin": "http://testserver", "sec-fetch-site": "same-origin"})
    assert r.status_code == 201


def test_huge_deep_and_broken_bodies_are_4xx(client: TestClient) -> None:
    r = client.post("/api/games", content=b"[" * 200_000, headers={"content-type":
                                                                    "application/json"})
    assert r.status_code == 413
    r = client.post("/api/games", content=b"[" * 20_000 + b"]" * 20_000,
                    headers={"content-type": "application/json"})
    assert 400 <= r.status_code < 500
    r = client.post("/api/games", content=b"{not json", headers={"content-type":
                                                                 "application/json"})
    assert r.status_code == 422 and r.json()["detail"] == "The body is not valid JSON"
    r = client.post("/api/games", content=b"", headers={"content-type": "application/json"})
    assert r.status_code == 422


def test_a_tampered_cookie_makes_a_new_player(app: FastAPI, client: TestClient) -> None:
    view = new_game(client)
    cookie = client.cookies.get("reussite_player")
    assert cookie
    with TestClient(app) as forger:
        forger.cookies.set("reussite_player", cookie[:-2] + "xx")
        assert forger.get(f"/api/games/{view['id']}").status_code == 404


def test_unknown_routes_and_methods_are_clear(client: TestClient) -> None:
    r = client.get("/api/nothing")
    assert r.status_code == 404 and isinstance(r.json()["detail"], str)
    r = client.delete("/api/catalogue")
    assert r.status_code == 405 and r.json()["detail"] == "This method is not allowed here"


def test_openapi_document_describes_the_api(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    paths = doc["paths"]
    for path in ("/api/catalogue", "/api/games", "/api/games/{game_id}",
                 "/api/games/{game_id}/moves", "/api/games/{game_id}/undo",
                 "/api/games/{game_id}/redo", "/api/games/{game_id}/restart",
                 "/api/games/{game_id}/hint", "/api/stats"):
        assert path in paths
    moves = paths["/api/games/{game_id}/moves"]["post"]["responses"]
    assert {"200", "404", "409", "422"} <= set(moves)
    assert "Error" in moves["422"]["content"]["application/json"]["schema"]["$ref"]


def test_every_answer_matches_its_documented_model(client: TestClient) -> None:
    from pydantic import TypeAdapter

    from reussite.web.models import CatalogueEntry, GameStats, GameSummary, Hint

    view = new_game(client, "leap-year", 4)
    after = play(client, view, {"type": "stock"}).json()
    GameView.model_validate(after)
    TypeAdapter(list[CatalogueEntry]).validate_python(client.get("/api/catalogue").json())
    TypeAdapter(list[GameSummary]).validate_python(client.get("/api/games").json())
    TypeAdapter(list[GameStats]).validate_python(client.get("/api/stats").json())
    Hint.model_validate(client.get(f"/api/games/{view['id']}/hint").json())


def test_a_database_outage_is_a_503_not_a_500(client: TestClient,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from sqlalchemy.exc import OperationalError

    view = new_game(client)
    store = client.app.state.store  # type: ignore[attr-defined]

    def down(*args: object) -> None:
        raise OperationalError("SELECT", {}, Exception("connection refused"))

    def sqlite_down(*args: object) -> None:
        raise sqlite3.OperationalError("disk I/O error: connection refused")

    async def postgres_down(wire: PgWire, *args: object) -> object:
        # The connection fails under a batch: the pool's real translation of the failure.
        raise psycopg.OperationalError("connection refused")

    # Every way a game is read: the store (FastAPI's routes) and the hot path's drivers.
    monkeypatch.setattr(store, "get_game", down)
    monkeypatch.setattr(SqliteGames, "get_game", sqlite_down)
    monkeypatch.setattr(PgWire, "run_batch", postgres_down)
    r = client.get(f"/api/games/{view['id']}")
    assert r.status_code == 503 and "unavailable" in r.json()["detail"]
    assert "connection refused" not in r.text
    monkeypatch.undo()
    assert client.get(f"/api/games/{view['id']}").status_code == 200


def test_health_says_which_database_answers(client: TestClient,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from sqlalchemy.exc import OperationalError

    r = client.get("/api/health")
    assert r.status_code == 200 and r.json()["status"] == "ok"
    assert r.json()["database"] in ("sqlite", "postgresql")
    assert r.headers["cache-control"] == "no-store"

    def down() -> None:
        raise OperationalError("SELECT 1", {}, Exception("refused"))

    monkeypatch.setattr(client.app.state.store, "ping", down)  # type: ignore[attr-defined]
    assert client.get("/api/health").status_code == 503


def test_the_view_offers_the_finish_and_following_it_wins(client: TestClient) -> None:
    from reussite.solver.search import solve

    pos = Position.deal(get_game("klondike"), 2393)
    result = solve(pos.copy(), time_limit=30)
    assert result.status == "won"
    view = new_game(client, "klondike", 2393)
    played = 0
    for move in result.moves:
        if view["finish"] is not None:
            break
        view = play(client, view, move.to_json()).json()
        played += 1
    assert view["finish"] is not None and played < len(result.moves)
    assert any(not c["up"] for c in view["piles"]["stock"]), "the stock is still face down"
    steps = 0
    while view["status"] == "playing":
        assert view["finish"] in view["legal_moves"]
        view = play(client, view, view["finish"]).json()
        steps += 1
    assert view["status"] == "won" and view["finish"] is None and steps > 10
