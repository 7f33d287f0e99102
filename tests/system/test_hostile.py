"""Hostile input: every bad request gets a clear 4xx with a sentence, never a 500, and never
another player's game; a flood from one player is slowed with 429 while the others play on."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from itsdangerous import Signer

from reussite.deals import MAX_DEAL_NUMBER
from reussite.web.ratelimit import Buckets, Rate

JSON = {"content-type": "application/json"}


@pytest.fixture(scope="module")
def hostile_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FastAPI]:
    """The site on its own SQLite file, with a small per-player rate limit to flood."""
    from reussite.web.app import create_app

    path: Path = tmp_path_factory.mktemp("hostile") / "games.sqlite3"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("REUSSITE_RATE_LIMIT", "40/10")
        mp.setenv("REUSSITE_RATE_LIMIT_ADDRESS", "off")
        app = create_app(f"sqlite:///{path}")
    yield app
    app.state.store.dispose()


@pytest.fixture
def player(hostile_app: FastAPI) -> Iterator[TestClient]:
    with TestClient(hostile_app) as c:
        yield c


def readable(r: Any, status: int | tuple[int, ...]) -> str:
    """The answer has the status and a JSON sentence; returns the sentence."""
    wanted = (status,) if isinstance(status, int) else status
    assert r.status_code in wanted, (r.status_code, r.text[:300])
    detail = r.json()["detail"]
    assert isinstance(detail, str) and len(detail) > 8
    return detail


def start(c: TestClient, game: str = "klondike", number: int = 3) -> dict[str, Any]:
    r = c.post("/api/games", json={"game": game, "number": number})
    assert r.status_code == 201, r.text
    view: dict[str, Any] = r.json()
    return view


# ------------------------------------------------------------------ bodies


@pytest.mark.parametrize("path", ["/api/games", "/api/games/x/moves", "/api/games/x/undo"])
def test_multi_megabyte_bodies_are_refused_with_413(player: TestClient, path: str) -> None:
    big = json.dumps({"game": "klondike", "pad": "x" * (3 * 1024 * 1024)}).encode()
    assert "too large" in readable(player.post(path, content=big, headers=JSON), 413)
    # Without a Content-Length (chunked): the reading stops at the limit all the same.
    chunks = iter([b'{"pad": "' + b"x" * 65536] * 48 + [b'"}'])
    r = player.post(path, content=chunks, headers=JSON)
    assert "too large" in readable(r, 413)
    r = player.post(path, content=b"{}", headers={**JSON, "content-length": "99999999999"})
    assert r.status_code in (400, 413)


@pytest.mark.parametrize("depth", [100, 5_000, 15_000])
def test_deep_json_is_a_4xx(player: TestClient, depth: int) -> None:
    for body in (b"[" * depth + b"]" * depth, b'{"a":' * depth + b"1" + b"}" * depth):
        r = player.post("/api/games", content=body, headers=JSON)
        readable(r, (400, 413, 422))
        view = start(player)
        r = player.post(f"/api/games/{view['id']}/moves", content=body, headers=JSON)
        readable(r, (400, 413, 422))


@pytest.mark.parametrize("body", [
    None, [], "klondike", 7, {"game": 7}, {"game": ["klondike"]}, {"game": None},
    {"game": "klondike", "number": "7"}, {"game": "klondike", "number": 7.5},
    {"game": "klondike", "number": True}, {"game": "klondike", "winnable": "yes"},
    {"game": "klondike", "extra": 1}, {"game": "x" * 10_000}, {"game": "../../etc/passwd"},
    {"game": "klondike\u0000"},
])
def test_wrong_types_for_a_new_game_are_422(player: TestClient, body: Any) -> None:
    readable(player.post("/api/games", content=json.dumps(body).encode(), headers=JSON), 422)


@pytest.mark.parametrize("number", [-1, -(2**63), MAX_DEAL_NUMBER + 1, 2**64, 2**200,
                                    10**4000])
def test_negative_and_enormous_deal_numbers_are_422(player: TestClient, number: int) -> None:
    body = b'{"game": "klondike", "number": ' + str(number).encode() + b"}"
    readable(player.post("/api/games", content=body, headers=JSON), 422)


def test_the_largest_deal_number_is_played(player: TestClient) -> None:
    view = start(player, "klondike", MAX_DEAL_NUMBER)
    assert view["number"] == MAX_DEAL_NUMBER
    again = player.get(f"/api/games/{view['id']}").json()
    assert again["number"] == MAX_DEAL_NUMBER and again["piles"] == view["piles"]


@pytest.mark.parametrize("move", [
    {"type": "move", "from": "tableau:0", "to": "foundation:0", "count": 0},
    {"type": "move", "from": "tableau:0", "to": "foundation:0", "count": -1},
    {"type": "move", "from": "tableau:0", "to": "foundation:0", "count": 10**6},
    {"type": "move", "from": "tableau:0", "to": "foundation:0", "count": 2**64},
    {"type": "move", "from": "tableau:0", "to": "foundation:0", "count": "1"},
    {"type": "move", "from": "tableau:0", "to": "foundation:0", "count": 1.0},
    {"type": "move", "from": 0, "to": "foundation:0"},
    {"type": "move", "from": "tableau:0"},
    {"type": "teleport", "from": "tableau:0", "to": "foundation:0"},
    {"type": "stock", "from": "tableau:0"},
    {"type": "move", "from": "tableau:-1", "to": "foundation:0"},
    {"type": "move", "from": "tableau:0" * 50, "to": "foundation:0"},
    "stock", None, [],
])
def test_malformed_moves_are_422(player: TestClient, move: Any) -> None:
    view = start(player)
    r = player.post(f"/api/games/{view['id']}/moves",
                    json={"move": move, "version": view["version"]})
    readable(r, 422)
    assert player.get(f"/api/games/{view['id']}").json()["version"] == view["version"]


@pytest.mark.parametrize("src,dst", [
    ("tableau:99", "foundation:0"), ("tableau:0", "foundation:42"), ("cell:0", "tableau:1"),
    ("reserve:3", "tableau:1"), ("tableau:7", "tableau:1"), ("waste", "waste"),
])
def test_unknown_pile_ids_are_422_with_a_sentence(player: TestClient, src: str,
                                                   dst: str) -> None:
    view = start(player)  # Klondike: seven tableau piles, no cells, no reserve
    r = player.post(f"/api/games/{view['id']}/moves", json={
        "move": {"type": "move", "from": src, "to": dst, "count": 1},
        "version": view["version"]})
    readable(r, 422)


@pytest.mark.parametrize("version", [-1, 2**31, 2**64, "0", 0.5, None, True])
def test_bad_versions_are_422(player: TestClient, version: Any) -> None:
    view = start(player)
    for action in ("undo", "redo", "restart"):
        r = player.post(f"/api/games/{view['id']}/{action}", json={"version": version})
        readable(r, 422)


def test_a_replayed_request_is_409_and_changes_nothing(player: TestClient) -> None:
    view = start(player)
    gid = view["id"]
    body = {"move": view["legal_moves"][0], "version": view["version"]}
    first = player.post(f"/api/games/{gid}/moves", json=body)
    assert first.status_code == 200
    for _ in range(3):
        readable(player.post(f"/api/games/{gid}/moves", json=body), 409)
        readable(player.post(f"/api/games/{gid}/undo", json={"version": view["version"]}), 409)
    # A version from the future is refused the same way.
    readable(player.post(f"/api/games/{gid}/undo", json={"version": 999}), 409)
    now = player.get(f"/api/games/{gid}").json()
    assert now["version"] == first.json()["version"] and now["moves"] == 1


# ------------------------------------------------------------------ other players


def test_another_players_game_is_not_found_by_any_route(hostile_app: FastAPI,
                                                        player: TestClient) -> None:
    view = start(player)
    gid = view["id"]
    with TestClient(hostile_app) as other:
        assert other.get(f"/api/games/{gid}").status_code == 404
        assert other.get(f"/api/games/{gid}/hint").status_code == 404
        for action, body in (("moves", {"move": view["legal_moves"][0], "version": 0}),
                             ("undo", {"version": 0}), ("redo", {"version": 0}),
                             ("restart", {"version": 0})):
            assert readable(other.post(f"/api/games/{gid}/{action}", json=body), 404)
        assert other.get("/api/games").json() == []
    after = player.get(f"/api/games/{gid}").json()
    assert after["version"] == view["version"] and after["piles"] == view["piles"]


@pytest.mark.parametrize("gid", ["nope", "x" * 3000, "..%2F..%2Fetc", "%00", "' OR 1=1 --",
                                 "\u00e9\u00e9"])
def test_made_up_game_ids_are_404(player: TestClient, gid: str) -> None:
    start(player)
    readable(player.get(f"/api/games/{gid}"), 404)
    readable(player.post(f"/api/games/{gid}/undo", json={"version": 0}), 404)


def test_forged_and_tampered_cookies_give_a_new_player(hostile_app: FastAPI,
                                                       player: TestClient) -> None:
    view = start(player)
    gid = view["id"]
    real = player.cookies.get("reussite_player")
    assert real and "." in real
    player_id = real.rsplit(".", 1)[0]
    forged = [
        real[:-3] + ("AAA" if not real.endswith("AAA") else "BBB"),  # signature changed
        "someone-else." + real.rsplit(".", 1)[1],  # another id under the same signature
        Signer("not-the-key", salt="reussite.player").sign(player_id).decode(),
        player_id,  # no signature at all
        "", "." * 400, real + real,
    ]
    for value in forged:
        with TestClient(hostile_app) as forger:
            forger.cookies.set("reussite_player", value)
            r = forger.get(f"/api/games/{gid}")
            assert r.status_code == 404, value
            assert "reussite_player=" in r.headers.get("set-cookie", "")
            assert forger.get("/api/games").json() == []
    # Raw, malformed Cookie headers are no worse.
    for header in (b'reussite_player="; ;;=\x01', "reussite_player=\u00e9t\u00e9".encode(),
                   b"reussite_player=" + real.encode() + b"\xff"):
        with TestClient(hostile_app) as raw:
            r = raw.get(f"/api/games/{gid}", headers={b"cookie": header})
            assert r.status_code == 404


# ------------------------------------------------------------------ other sites


@pytest.mark.parametrize("headers", [
    {"origin": "https://evil.example"}, {"origin": "null"},
    {"origin": "http://testserver.evil.example"}, {"sec-fetch-site": "cross-site"},
    {"sec-fetch-site": "same-site"}, {"origin": "http://testserver:81"},
])
def test_cross_site_posts_are_403_and_change_nothing(player: TestClient,
                                                     headers: dict[str, str]) -> None:
    view = start(player)
    gid = view["id"]
    for path, body in ((f"/api/games/{gid}/moves", {"move": view["legal_moves"][0],
                                                    "version": view["version"]}),
                       (f"/api/games/{gid}/restart", {"version": view["version"]}),
                       ("/api/games", {"game": "klondike"})):
        r = player.post(path, json=body, headers=headers)
        assert "another site" in readable(r, 403)
    assert player.get(f"/api/games/{gid}").json()["version"] == view["version"]
    assert len(player.get("/api/games").json()) == 1


@pytest.mark.parametrize("ctype", ["text/plain", "application/x-www-form-urlencoded",
                                   "multipart/form-data; boundary=x", ""])
def test_simple_form_posts_are_415(player: TestClient, ctype: str) -> None:
    """A cross-site form can only send these types: none of them reaches a route."""
    view = start(player)
    r = player.post(f"/api/games/{view['id']}/restart", content=b'{"version": 0}',
                    headers={"content-type": ctype} if ctype else {})
    readable(r, 415)


# ------------------------------------------------------------------ floods


def test_a_flood_from_one_player_is_429_with_retry_after_and_others_play_on(
        tmp_path: Path) -> None:
    from reussite.web.app import create_app

    # 40 requests an hour: no token comes back while the test runs, however slow the machine.
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("REUSSITE_RATE_LIMIT", "40/3600")
        mp.setenv("REUSSITE_RATE_LIMIT_ADDRESS", "off")
        flood_app = create_app(f"sqlite:///{tmp_path / 'flood.sqlite3'}")
    with TestClient(flood_app) as flooder, TestClient(flood_app) as calm:
        view = start(calm)
        start(flooder)
        statuses = [flooder.get("/api/games").status_code for _ in range(80)]
        assert statuses.count(429) >= 30 and statuses[:30].count(429) == 0
        r = flooder.get("/api/games")
        assert readable(r, 429).startswith("Too many requests")
        assert int(r.headers["retry-after"]) >= 1
        # POSTs are slowed the same way, before any work is done.
        readable(flooder.post("/api/games", json={"game": "klondike"}), 429)
        # The calm player is not slowed at all.
        for _ in range(5):
            r = calm.post(f"/api/games/{view['id']}/moves",
                          json={"move": view["legal_moves"][0], "version": view["version"]})
            assert r.status_code == 200
            view = r.json()
            r = calm.post(f"/api/games/{view['id']}/undo", json={"version": view["version"]})
            assert r.status_code == 200
            view = r.json()
    flood_app.state.store.dispose()


def test_dropping_the_cookie_does_not_dodge_the_limit(tmp_path: Path) -> None:
    from reussite.web.app import create_app

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("REUSSITE_RATE_LIMIT", "off")
        mp.setenv("REUSSITE_RATE_LIMIT_ADDRESS", "20/3600")  # no refill during the test
        app = create_app(f"sqlite:///{tmp_path / 'anon.sqlite3'}")
    try:
        with TestClient(app) as c:
            statuses = []
            for _ in range(40):
                c.cookies.clear()
                r = c.get("/api/catalogue")
                statuses.append(r.status_code)
                # A refusal mints no player: no fresh cookie with a full bucket of its own.
                assert r.status_code == 200 or "set-cookie" not in r.headers
            assert statuses[:20] == [200] * 20 and set(statuses[20:]) == {429}
        # Another address has a bucket of its own.
        with TestClient(app, client=("192.0.2.7", 50000)) as other:
            assert other.get("/api/catalogue").status_code == 200
    finally:
        app.state.store.dispose()


def test_rotating_cookies_does_not_dodge_the_limit(tmp_path: Path) -> None:
    """Each new player has a bucket of its own, but every request of an address, whatever
    its cookie, is counted under that address too."""
    from reussite.web.app import create_app

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("REUSSITE_RATE_LIMIT", "600/10")
        mp.setenv("REUSSITE_RATE_LIMIT_ADDRESS", "100/3600")
        app = create_app(f"sqlite:///{tmp_path / 'rotate.sqlite3'}")
    try:
        with TestClient(app) as c:
            cookies = []
            for _ in range(10):  # ten players minted
                c.cookies.clear()
                c.get("/api/catalogue")
                cookies.append(c.cookies["reussite_player"])
            statuses = []
            for i in range(300):  # then a flood, each request with the next cookie
                c.cookies.clear()
                c.cookies.set("reussite_player", cookies[i % 10])
                statuses.append(c.get("/api/games").status_code)
            assert statuses.count(200) == 90 and statuses.count(429) == 210
    finally:
        app.state.store.dispose()


def test_token_buckets_refill_at_their_rate() -> None:
    b = Buckets(Rate(3, 6))  # 3 at once, one more every 2 s
    assert [b.take("p", now=100.0) for _ in range(3)] == [0.0, 0.0, 0.0]
    assert b.take("p", now=100.0) == pytest.approx(2.0)
    assert b.take("q", now=100.0) == 0.0  # another player: a bucket of its own
    assert b.take("p", now=101.0) == pytest.approx(1.0)
    assert b.take("p", now=102.0) == 0.0
    assert b.take("p", now=1000.0) == 0.0  # refilled, never beyond the burst
    assert [b.take("p", now=1000.0) for _ in range(3)][-1] > 0


def test_token_buckets_forget_idle_players() -> None:
    b = Buckets(Rate(5, 1), max_keys=100)
    for i in range(1000):
        b.take(f"p{i}", now=float(i))
    assert len(b._state) <= 101


@pytest.mark.parametrize("text,burst,period", [("600/10", 600, 10), ("5", 5, 1),
                                               (" 30/0.5 ", 30, 0.5)])
def test_rate_limit_settings_read(text: str, burst: float, period: float) -> None:
    assert Rate.parse(text) == Rate(burst, period)


@pytest.mark.parametrize("text", ["fast", "10/x", "0.5/10", "10/0", "-3/1"])
def test_bad_rate_limit_settings_say_so(text: str) -> None:
    with pytest.raises(ValueError, match="rate limit"):
        Rate.parse(text)
    assert Rate.parse("off") is None


@pytest.mark.parametrize("method,path,allow", [
    ("PUT", "/api/games", "GET, POST"), ("DELETE", "/api/games/abc", "GET"),
    ("PATCH", "/api/catalogue", "GET"), ("TRACE", "/api/stats", "DELETE, GET"),
    ("GET", "/api/games/abc/undo", "POST"),
])
def test_other_methods_are_405_naming_every_allowed_one(player: TestClient, method: str,
                                                        path: str, allow: str) -> None:
    r = player.request(method, path)
    assert "not allowed" in readable(r, 405)
    assert r.headers["allow"].replace("HEAD, ", "") == allow


def test_a_body_that_is_not_utf8_is_a_422(player: TestClient) -> None:
    r = player.post("/api/games", content=b'{"game": "\xff\xfe"}', headers=JSON)
    assert readable(r, 422) == "The body is not valid JSON"


# ------------------------------------------------------------------ the player's identity


@pytest.mark.parametrize("path,method", [("/api/me", "PUT"), ("/api/me/sign-in", "POST"),
                                         ("/api/names/report", "POST")])
@pytest.mark.parametrize("body", [
    None, [], 7, "name", {"name": 7}, {"name": ["a"]}, {"name": {"a": 1}}, {"code": 7},
    {"code": None}, {"name": "x" * 30_000}, {"code": "x" * 30_000}, {"name": "\u0000"},
    {"code": "\u0000" * 12}, {"name": "a", "code": "b", "extra": 1}, {"name": "\ud800"},
])
def test_bad_identity_bodies_are_a_4xx_with_a_sentence(player: TestClient, path: str,
                                                       method: str, body: Any) -> None:
    before = player.get("/api/me").json()
    r = player.request(method, path, content=json.dumps(body).encode(), headers=JSON)
    readable(r, (404, 422))
    assert player.get("/api/me").json() == before


@pytest.mark.parametrize("browser", ["x" * 5000, "..%2F..%2Fetc", "\u00e9t\u00e9", "%00", "-"])
def test_made_up_browsers_cannot_be_signed_out(player: TestClient, browser: str) -> None:
    readable(player.delete(f"/api/me/browsers/{browser}"), (404, 422))


def test_the_identity_is_not_changed_from_another_site(player: TestClient) -> None:
    start(player)
    assert player.put("/api/me", json={"name": "Mine"}).status_code == 200
    evil = {"origin": "https://evil.example"}
    readable(player.put("/api/me", json={"name": "Theirs"}, headers=evil), 403)
    readable(player.delete("/api/me", headers=evil), 403)
    readable(player.post("/api/me/code", json={}, headers={"sec-fetch-site": "cross-site"}),
             403)
    readable(player.put("/api/me", content=b"name=Theirs",
                        headers={"content-type": "text/plain"}), 415)
    assert player.get("/api/me").json()["name"] == "Mine"
    assert player.get("/api/games").json() != []
