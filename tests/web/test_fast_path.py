"""The hot path (web/fast.py) answers exactly as FastAPI's routes do.

The same script of requests (new game, moves, a refused move, a stale version, undo, redo,
restart, a view, a hint, another player's game, malformed bodies) is sent to two
applications on SQLite and on PostgreSQL: one with the hot path, one with
``REUSSITE_FAST_PATH=off`` (every request through FastAPI's routes). Status codes, headers
that matter and bodies must be the same (but for the game's id and its time)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from reussite.web.app import create_app

SPEC = [("astrocyte", 7), ("klondike-draw-3", 11), ("spider", 3), ("quadrennial", 5)]


def make_app(url: str, fast: bool, monkeypatch: pytest.MonkeyPatch) -> FastAPI:
    with monkeypatch.context() as m:
        if not fast:
            m.setenv("REUSSITE_FAST_PATH", "off")
        return create_app(url)


def normalise(body: Any, gid: str | None) -> Any:
    if isinstance(body, dict):
        return {k: ("<id>" if k == "id" else "<t>" if k in ("elapsed_seconds", "idle_seconds") else
                    normalise(v, gid)) for k, v in body.items()}
    if isinstance(body, list):
        return [normalise(v, gid) for v in body]
    if isinstance(body, str) and gid:
        return body.replace(gid, "<id>")
    return body


def script(client: TestClient) -> list[tuple[Any, ...]]:
    """Every answer of a fixed script, as (what, status, content type, cache, body)."""
    out: list[tuple[Any, ...]] = []

    def note(what: str, r: Any, gid: str | None) -> Any:
        try:
            body = r.json()
        except ValueError:
            body = r.text
        out.append((what, r.status_code, r.headers.get("content-type"),
                    r.headers.get("cache-control"), r.headers.get("x-frame-options"),
                    normalise(body, gid)))
        return body

    fr = {"accept-language": "fr"}
    for game, number in SPEC:
        view = note("new", client.post("/api/games", json={"game": game, "number": number}),
                    None)
        gid = view["id"]
        for step in range(6):
            move = view["legal_moves"][step % len(view["legal_moves"])]
            r = client.post(f"/api/games/{gid}/moves", json={"move": move,
                                                              "version": view["version"]})
            view = note(f"move {step}", r, gid)
        note("stale", client.post(f"/api/games/{gid}/moves",
                                  json={"move": view["legal_moves"][0], "version": 0}), gid)
        note("refused", client.post(f"/api/games/{gid}/moves", headers=fr, json={
            "move": {"type": "move", "from": "foundation:0", "to": "tableau:0", "count": 1},
            "version": view["version"]}), gid)
        view = note("undo", client.post(f"/api/games/{gid}/undo",
                                        json={"version": view["version"]}), gid)
        view = note("redo", client.post(f"/api/games/{gid}/redo",
                                        json={"version": view["version"]}), gid)
        note("redo refused", client.post(f"/api/games/{gid}/redo", headers=fr,
                                         json={"version": view["version"]}), gid)
        view = note("restart", client.post(f"/api/games/{gid}/restart",
                                           json={"version": view["version"]}), gid)
        view = note("undo the restart", client.post(f"/api/games/{gid}/undo",
                                                    json={"version": view["version"]}), gid)
        view = note("pause", client.post(f"/api/games/{gid}/pause",
                                         json={"version": view["version"]}), gid)
        view = note("resume", client.post(f"/api/games/{gid}/resume",
                                          json={"version": view["version"]}), gid)
        for _ in range(6):
            view = note("undo", client.post(f"/api/games/{gid}/undo",
                                            json={"version": view["version"]}), gid)
        note("undo refused", client.post(f"/api/games/{gid}/undo",
                                         json={"version": view["version"]}), gid)
        note("view", client.get(f"/api/games/{gid}"), gid)
        # A searched hint has a wall-clock budget (0.6 s): on a crowded machine the two
        # applications may cut the search at different points, so the exact move is not
        # compared; both must answer a legal move, in the same shape.
        hint = client.get(f"/api/games/{gid}/hint")
        body = hint.json()
        assert hint.status_code == 200 and body["move"] in view["legal_moves"], body
        out.append(("hint", hint.status_code, hint.headers.get("content-type"),
                    hint.headers.get("cache-control"), hint.headers.get("x-frame-options"),
                    sorted(body), body["move"] in view["legal_moves"]))
        note("view after hint", client.get(f"/api/games/{gid}"), gid)
        note("bad version", client.post(f"/api/games/{gid}/undo", json={"version": "1"}), gid)
        note("no body", client.post(f"/api/games/{gid}/undo"), gid)
        note("form body", client.post(f"/api/games/{gid}/undo", data={"version": "1"}), gid)
        note("extra field", client.post(f"/api/games/{gid}/moves", json={
            "move": {"type": "stock"}, "version": view["version"], "x": 1}), gid)
        with TestClient(client.app) as stranger:
            note("another player's", stranger.get(f"/api/games/{gid}"), gid)
            note("another player's move", stranger.post(
                f"/api/games/{gid}/moves", json={"move": {"type": "stock"}, "version": 0}), gid)
    note("unknown game", client.post("/api/games", json={"game": "chess"}), None)
    note("no such id", client.get("/api/games/nope"), None)
    note("bad id", client.post("/api/games/a.b/undo", json={"version": 0}), None)
    return out


def test_the_hot_path_answers_as_fastapi_does(database_url: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    answers = {}
    for fast in (True, False):
        app = make_app(database_url, fast, monkeypatch)
        try:
            with TestClient(app) as client:
                answers[fast] = script(client)
        finally:
            app.state.store.dispose()
    assert all(a[4] == "DENY" for a in answers[True]), "the security headers on every answer"
    assert len(answers[True]) == len(answers[False]) == 4 * 32 + 3
    for a, b in zip(answers[True], answers[False], strict=True):
        assert a == b
