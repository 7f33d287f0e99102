"""The player's identity (issue 28): display names validated and shown escaped, reports and
hidden names, forgetting a player, the sign-in code that moves a player to another browser,
and signing a browser out; on SQLite and on PostgreSQL."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from itsdangerous import Signer
from serverproc import redis_address
from sqlalchemy import func, select
from webtools import new_game

from reussite.cli import main as cli
from reussite.web import storage
from reussite.web.edge import PLAYER_COOKIE, Signed, legacy_browser
from reussite.web.names import MAX_NAME, anonymous_name, display_name, display_names
from reussite.web.players import (
    CODE_ALPHABET,
    CODE_LIFE_MS,
    PLAYER_DATA,
    Players,
    describe_agent,
    normalise_code,
)
from reussite.web.storage import browsers, games, moves

DOMAIN = "testserver.local"
"""The domain the test client keeps the site's cookies under."""
SENTENCE = {"en": "A name cannot hold control", "fr": "Un nom ne peut contenir",
            "ru": "Имя не может содержать"}


def player_of(client: TestClient) -> tuple[str, str]:
    """The player and browser a client's cookie names."""
    signer: Signer = client.app.state.signer  # type: ignore[attr-defined]
    player, _, browser = signer.unsign(client.cookies[PLAYER_COOKIE]).decode().partition(".")
    return player, browser


def named(client: TestClient, name: Any, lang: str = "en") -> Any:
    return client.put("/api/me", json={"name": name}, headers={"accept-language": lang})


def play_some(client: TestClient, count: int = 3) -> dict[str, Any]:
    view = new_game(client, "klondike", 3)
    for _ in range(count):
        r = client.post(f"/api/games/{view['id']}/moves",
                        json={"move": view["legal_moves"][0], "version": view["version"]})
        assert r.status_code == 200, r.text
        view = r.json()
    return view


def code_of(client: TestClient) -> str:
    r = client.post("/api/me/code", json={})
    assert r.status_code == 201, r.text
    body = r.json()
    assert re.fullmatch(r"[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}", body["code"])
    assert body["seconds"] == CODE_LIFE_MS // 1000
    code: str = body["code"]
    return code


# ------------------------------------------------------------------ names


def test_a_player_without_a_name_is_shown_by_an_anonymous_name_not_its_id(
        client: TestClient) -> None:
    me = client.get("/api/me").json()
    player, _ = player_of(client)
    assert me["name"] is None and me["name_hidden"] is False
    assert re.fullmatch(r"Player [0-9a-f]{6}", me["display_name"])
    assert me["display_name"] == anonymous_name(player)
    assert player not in me["display_name"] and player[:6] not in me["display_name"]
    fr = client.get("/api/me", headers={"accept-language": "fr"}).json()["display_name"]
    assert fr.startswith("Joueur ") and fr.endswith(me["display_name"][-6:])


def test_reading_the_name_writes_nothing(app: FastAPI, client: TestClient) -> None:
    client.get("/api/me")
    player, browser = player_of(client)
    assert app.state.players.get(player) is None
    assert browser not in {b.id for b in app.state.players.browsers(player)}


def test_a_name_is_normalised_set_shown_and_cleared(app: FastAPI, client: TestClient) -> None:
    r = named(client, "  Ｌｕｃｙ\u00a0\u00a0 the\u2003ﬁrst ")
    assert r.status_code == 200, r.text
    assert r.json() == {"name": "Lucy the first", "display_name": "Lucy the first",
                        "name_hidden": False}
    player, _ = player_of(client)
    assert display_name(app.state.store, player) == "Lucy the first"
    assert client.get("/api/me").json()["name"] == "Lucy the first"
    assert named(client, "x" * MAX_NAME).status_code == 200
    r = named(client, None)
    assert r.json()["name"] is None and r.json()["display_name"] == anonymous_name(player)


@pytest.mark.parametrize("name,why", [
    ("x" * (MAX_NAME + 1), "at most 24 characters"),
    ("Ｗ" * (MAX_NAME + 1), "at most 24 characters"),  # full-width: 25 once normalised too
    ("", "at least one letter"),
    ("   \u00a0\u3000 ", "at least one letter"),
    ("\u0301\u0301", "at least one letter"),  # combining marks alone show nothing
    ("Bob\nSmith", "control characters"),
    ("Bob\tSmith", "control characters"),
    ("\x00Bob", "control characters"),
    ("Bo\u200bb", "control characters"),  # zero-width space
    ("Bo\u200db", "control characters"),  # zero-width joiner
    ("\u202eboB", "control characters"),  # right-to-left override
    ("Bob\u2028", "control characters"),  # line separator
    ("\u3164", "control characters"),  # Hangul filler: a letter that shows nothing
    ("Bob\ue000", "control characters"),  # private use
    ("Player 3f9a2c", "kept for players without a name"),
    ("игрок 00ab12", "kept for players without a name"),
])
def test_a_bad_name_is_a_422_with_a_sentence_and_nothing_is_stored(
        client: TestClient, name: str, why: str) -> None:
    assert named(client, "Kept").status_code == 200
    r = named(client, name)
    assert r.status_code == 422, r.text
    assert why in r.json()["detail"]
    assert client.get("/api/me").json()["name"] == "Kept"


@pytest.mark.parametrize("lang", ["en", "fr", "ru"])
def test_a_refused_name_is_said_in_the_players_language(client: TestClient, lang: str) -> None:
    r = named(client, "a\u202eb", lang)
    assert r.status_code == 422 and r.json()["detail"].startswith(SENTENCE[lang])
    r = named(client, "x" * 30, lang)
    assert r.status_code == 422 and "24" in r.json()["detail"]


@pytest.mark.parametrize("body", [{}, {"name": 7}, {"name": ["a"]}, {"name": "a", "x": 1}])
def test_a_malformed_name_body_is_a_422(client: TestClient, body: Any) -> None:
    r = client.put("/api/me", json=body)
    assert r.status_code == 422 and isinstance(r.json()["detail"], str)


def test_a_name_is_set_only_by_a_json_body(client: TestClient) -> None:
    r = client.put("/api/me", content=b"name=x",
                   headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 415


def test_markup_in_a_name_is_text_in_the_api_and_escaped_in_the_page(
        client: TestClient) -> None:
    name = '<b>x</b>&"\'<script>'
    assert named(client, name).json()["name"] == name
    page = client.get("/stats", headers={"accept": "text/html"}).text
    assert "&lt;b&gt;x&lt;/b&gt;&amp;" in page
    assert "<b>x</b>" not in page and "<script>'" not in page


# ------------------------------------------------------------------ display_names


def test_display_names_reads_many_players_at_once(app: FastAPI) -> None:
    t: Players = app.state.players
    t.set_name("p-one", "One")
    t.set_name("p-two", "Two")
    names = display_names(app.state.store, ["p-one", "p-two", "p-none", "p-one"])
    assert names == {"p-one": "One", "p-two": "Two", "p-none": anonymous_name("p-none")}
    with app.state.store.engine.connect() as conn:
        assert display_names(conn, ["p-two"], lang="ru") == {"p-two": "Two"}
    assert display_names(app.state.store, []) == {}


# ------------------------------------------------------------------ reports, hidden names


def test_a_reported_name_hidden_is_shown_anonymous_and_cannot_be_taken_again(
        app: FastAPI) -> None:
    with TestClient(app) as bad, TestClient(app) as a, TestClient(app) as b:
        assert named(bad, "Rude Word 42").status_code == 200
        for reporter in (a, b, a):  # a reports twice: counted once
            r = reporter.post("/api/names/report", json={"name": "rude word 42"})
            assert r.status_code == 200 and r.json() == {"reported": True}
        r = a.post("/api/names/report", json={"name": "Nobody Has This"})
        assert r.status_code == 404 and r.json()["detail"] == "No player shows this name"
        t: Players = app.state.players
        reported = {r.name: r for r in t.reported()}
        assert reported["Rude Word 42"].reports == 2 and not reported["Rude Word 42"].hidden
        assert t.hide("RUDE WORD 42") == 1
        player, _ = player_of(bad)
        me = bad.get("/api/me").json()
        assert me == {"name": "Rude Word 42", "display_name": anonymous_name(player),
                      "name_hidden": True}
        assert display_name(app.state.store, player) == anonymous_name(player)
        assert {r.name: r for r in t.reported()}["Rude Word 42"].hidden
        r = named(a, "rude word 42", "fr")
        assert r.status_code == 422 and "masqué" in r.json()["detail"]
        # hidden: no longer shown, so no longer reported
        assert a.post("/api/names/report", json={"name": "Rude Word 42"}).status_code == 404
        assert named(bad, "Kinder").json()["display_name"] == "Kinder"
        assert t.show("rude WORD 42") == 0
        assert named(a, "Rude Word 42").status_code == 200


def test_the_names_commands_list_hide_and_show(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    from reussite.web.app import create_app

    url = f"sqlite:///{tmp_path / 'names.sqlite3'}"
    app = create_app(url)
    with TestClient(app) as bad, TestClient(app) as a:
        named(bad, "Spam Spam")
        a.post("/api/names/report", json={"name": "Spam Spam"})
        assert cli(["names", "reported", "--db", url]) == 0
        assert capsys.readouterr().out == "1\t1\tshown\tSpam Spam\n"
        assert cli(["names", "hide", "spam spam", "--db", url]) == 0
        assert "1 player(s)" in capsys.readouterr().out
        assert bad.get("/api/me").json()["name_hidden"] is True
        assert cli(["names", "reported", "--db", url]) == 0
        assert "hidden" in capsys.readouterr().out
        assert cli(["names", "show", "Spam Spam", "--db", url]) == 0
        assert bad.get("/api/me").json()["display_name"] == "Spam Spam"
        capsys.readouterr()
        assert cli(["names", "show", "Spam Spam", "--db", url]) == 2
        assert capsys.readouterr().err == "reussite: error: The name 'Spam Spam' is not hidden\n"
        assert cli(["names", "hide", "a\u200bb", "--db", url]) == 2
        err = capsys.readouterr().err
        assert err.startswith("reussite: error: A name cannot") and "Traceback" not in err
    app.state.store.dispose()


# ------------------------------------------------------------------ forgetting


def counts(app: FastAPI, player: str) -> dict[str, int]:
    out = {}
    with app.state.store.engine.connect() as conn:
        for table, column in PLAYER_DATA:
            out[table.name] = conn.execute(select(func.count()).where(
                table.c[column] == player)).scalar_one()
        out["moves"] = conn.execute(select(func.count()).select_from(moves.join(games)).where(
            games.c.player_id == player)).scalar_one()
        out["browsers"] = conn.execute(select(func.count()).where(
            browsers.c.player_id == player)).scalar_one()
    return out


def test_forgetting_a_player_deletes_everything_and_signs_its_browsers_out(
        app: FastAPI) -> None:
    with TestClient(app) as a, TestClient(app) as b:
        view = play_some(a)
        named(a, "Forget Me")
        a.post("/api/names/report", json={"name": "Forget Me"})
        a.post("/feedback", data={"message": "hello"})
        b.get("/")
        assert b.post("/api/me/sign-in", json={"code": code_of(a)}).status_code == 200
        code_of(a)  # a code left unused
        player, browser = player_of(a)
        before = counts(app, player)
        assert all(before[k] for k in ("games", "totals", "players", "name_reports",
                                       "sign_in_codes", "moves", "browsers")), before
        r = a.delete("/api/me")
        assert r.status_code == 200 and r.json() == {"deleted": 1}
        assert counts(app, player) == dict.fromkeys(before, 0)
        # this browser goes on as a new player; the other one is signed out
        assert player_of(a)[0] != player
        assert a.get(f"/api/games/{view['id']}").status_code == 404
        assert a.get("/api/me").json()["name"] is None
        assert b.get("/api/games").json() == [] and player_of(b)[0] != player
        # the old cookie, kept by a copy, is refused
        old = Signer(app.state.signer.secret_keys[-1], salt="reussite.player").sign(
            f"{player}.{browser}").decode()
        with TestClient(app) as copy:
            copy.cookies.set(PLAYER_COOKIE, old, domain=DOMAIN)
            assert copy.get("/api/me").json()["display_name"] != anonymous_name(player)
            assert player_of(copy)[0] != player


def test_forgetting_without_a_cookie_writes_nothing(app: FastAPI) -> None:
    def rows() -> int:
        with app.state.store.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(browsers)).scalar_one())

    before = rows()
    for _ in range(5):
        with TestClient(app) as stranger:
            r = stranger.delete("/api/me")
            assert r.status_code == 200 and r.json() == {"deleted": 0}
    assert rows() == before


def test_forgetting_is_refused_from_another_site(client: TestClient) -> None:
    play_some(client, 1)
    r = client.delete("/api/me", headers={"origin": "https://evil.example"})
    assert r.status_code == 403
    assert client.get("/api/games").json() != []


# ------------------------------------------------------------------ codes and browsers


def test_a_code_moves_the_player_games_statistics_and_name_to_another_browser(
        app: FastAPI) -> None:
    with TestClient(app) as a, TestClient(app) as b:
        view = play_some(a)
        named(a, "Traveller")
        b.get("/")
        play_some(b, 1)  # b's own player, left behind
        code = code_of(a)
        r = b.post("/api/me/sign-in", json={"code": code.lower().replace("-", " ")},
                   headers={"user-agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0"})
        assert r.status_code == 200, r.text
        assert r.json()["name"] == "Traveller"
        assert player_of(a)[0] == player_of(b)[0]
        assert player_of(a)[1] != player_of(b)[1]
        assert b.get(f"/api/games/{view['id']}").json()["version"] == view["version"]
        assert b.get("/api/stats").json() == a.get("/api/stats").json()
        assert b.get("/api/me").json()["display_name"] == "Traveller"
        # both play the same game
        r = b.post(f"/api/games/{view['id']}/moves",
                   json={"move": view["legal_moves"][0], "version": view["version"]})
        assert r.status_code == 200
        listed = a.get("/api/me/browsers").json()
        assert len(listed) == 2 and sum(e["this"] for e in listed) == 1
        other = next(e for e in listed if not e["this"])
        assert other["id"] == player_of(b)[1] and other["description"] == "Firefox on Linux"
        fr = a.get("/api/me/browsers", headers={"accept-language": "fr"}).json()
        assert "Firefox sous Linux" in [e["description"] for e in fr]


def test_a_used_code_an_expired_one_and_a_made_up_one_are_refused(
        app: FastAPI, monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1_900_000_000.0]
    monkeypatch.setattr(storage, "clock", lambda: now[0])
    with TestClient(app) as a, TestClient(app) as b, TestClient(app) as c:
        named(a, "Coder")
        code = code_of(a)
        assert b.post("/api/me/sign-in", json={"code": code}).status_code == 200
        r = c.post("/api/me/sign-in", json={"code": code})
        assert r.status_code == 422 and "used already" in r.json()["detail"]
        code = code_of(a)
        now[0] += CODE_LIFE_MS / 1000 - 1
        late = code_of(b)  # made a second before the first one's end: a's stops, b's works
        r = c.post("/api/me/sign-in", json={"code": code})
        assert r.status_code == 422 and "not known" in r.json()["detail"]
        now[0] += CODE_LIFE_MS / 1000
        r = c.post("/api/me/sign-in", json={"code": late}, headers={"accept-language": "ru"})
        assert r.status_code == 422 and r.json()["detail"].startswith("Срок действия")
        r = c.post("/api/me/sign-in", json={"code": "ABCD-EFGH-JKMN"})
        assert r.status_code == 422 and "not known" in r.json()["detail"]
        for bad in ("", "ABC", "ABCD-EFGH-JKMNP", "ABCD-EFGH-JKU!", "x" * 5000):
            r = c.post("/api/me/sign-in", json={"code": bad})
            assert r.status_code == 422 and "12 letters" in r.json()["detail"], bad
        assert c.get("/api/me").json()["name"] is None  # c is still its own player
        r = a.post("/api/me/sign-in", json={"code": code_of(a)})
        assert r.status_code == 422 and "already" in r.json()["detail"]


def test_a_code_is_typed_as_a_person_reads_it() -> None:
    assert normalise_code(" abcd-efgh jkmn ") == "ABCDEFGHJKMN"
    assert normalise_code("oooo-iiii-llll") == "000011111111"
    assert len(CODE_ALPHABET) == 32 and len(set(CODE_ALPHABET)) == 32


def test_only_a_hash_of_a_code_is_stored(app: FastAPI, client: TestClient) -> None:
    code = code_of(client).replace("-", "")
    with app.state.store.engine.connect() as conn:
        stored = [r.hash for r in conn.execute(select(storage.sign_in_codes))]
    assert stored and all(code not in h and code.lower() not in h for h in stored)


def test_a_browser_signed_out_from_another_is_signed_out(app: FastAPI) -> None:
    with TestClient(app) as a, TestClient(app) as b:
        view = play_some(a)
        b.get("/")
        assert b.post("/api/me/sign-in", json={"code": code_of(a)}).status_code == 200
        player, this = player_of(a)
        _, other = player_of(b)
        r = a.delete(f"/api/me/browsers/{this}")
        assert r.status_code == 422 and "the browser you are using" in r.json()["detail"]
        assert a.delete("/api/me/browsers/not-a-browser").status_code == 404
        r = a.delete(f"/api/me/browsers/{other}")
        assert r.status_code == 200 and [e["id"] for e in r.json()] == [this]
        assert b.get(f"/api/games/{view['id']}").status_code == 404
        assert player_of(b)[0] != player
        assert a.delete(f"/api/me/browsers/{other}").status_code == 404  # once
        with TestClient(app) as c:  # another player cannot sign a's browser out
            assert c.delete(f"/api/me/browsers/{this}").status_code == 404
        assert a.get(f"/api/games/{view['id']}").status_code == 200


def test_a_sign_out_reaches_another_process_within_its_check_delay(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two applications on one database, each with its own memory: the second hears of the
    sign-out made through the first when it asks the database again."""
    from reussite.web.app import create_app

    url = f"sqlite:///{tmp_path / 'two.sqlite3'}"
    monkeypatch.setenv("REUSSITE_BROWSER_CHECK", "3600")  # never asked again unless told
    first, second = create_app(url), create_app(url)
    with TestClient(first) as a, TestClient(first) as b:
        view = play_some(a)
        b.get("/")
        assert b.post("/api/me/sign-in", json={"code": code_of(a)}).status_code == 200
        cookie = b.cookies[PLAYER_COOKIE]
        with TestClient(second) as b2:
            b2.cookies.set(PLAYER_COOKIE, cookie, domain=DOMAIN)
            assert b2.get(f"/api/games/{view['id']}").status_code == 200
            a.delete(f"/api/me/browsers/{player_of(b)[1]}")
            # the second process still trusts its last word, until its delay is over
            assert b2.get(f"/api/games/{view['id']}").status_code == 200
            second.state.signed.ttl = 0
            assert b2.get(f"/api/games/{view['id']}").status_code == 404
    for app in (first, second):
        app.state.store.dispose()


def test_a_cookie_from_before_browsers_names_a_browser_that_can_be_signed_out(
        app: FastAPI) -> None:
    signer: Signer = app.state.signer
    with TestClient(app) as a, TestClient(app) as old:
        view = play_some(a)
        player, _ = player_of(a)
        old.cookies.set(PLAYER_COOKIE, signer.sign(player).decode(), domain=DOMAIN)
        assert old.get(f"/api/games/{view['id']}").status_code == 200
        listed = old.get("/api/me/browsers").json()
        assert [e["id"] for e in listed if e["this"]] == [legacy_browser(player)]
        assert a.delete(f"/api/me/browsers/{legacy_browser(player)}").status_code == 200
        assert old.get(f"/api/games/{view['id']}").status_code == 404


def test_the_edge_asks_the_database_once_a_delay_for_a_browser() -> None:
    asked: list[str] = []

    def ask(browser: str) -> bool:
        asked.append(browser)
        return browser != "gone"

    from webtools import run_async

    async def scenario(ttl: float) -> list[bool]:
        signed = Signed(ask, ttl, max_entries=3)
        out = [await signed.valid(b) for b in ("x", "x", "gone", "gone", "x")]
        signed.signed_out(["x"])
        out.append(await signed.valid("x"))
        for b in ("p", "q", "r", "s"):
            await signed.valid(b)
        assert len(signed._seen) <= 3
        return out

    assert run_async(scenario(3600)) == [True, True, False, False, True, False]
    assert asked == ["x", "gone", "p", "q", "r", "s"]
    asked.clear()
    assert run_async(scenario(0))[:5] == [True, True, False, False, True]
    assert asked[:5] == ["x", "x", "gone", "gone", "x"]


@pytest.mark.parametrize("ua,agent,system", [
    ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
     "Chrome/120.0 Safari/537.36", "Chrome", "Linux"),
    ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120.0 "
     "Safari/537.36 Edg/120.0", "Edge", "Windows"),
    ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 "
     "Version/17.0 Mobile/15E148 Safari/604.1", "Safari", "iPhone"),
    ("Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36",
     "Chrome", "Android"),
    ("Mozilla/5.0 (Macintosh; Intel Mac OS X 14.1; rv:120.0) Gecko/20100101 Firefox/120.0",
     "Firefox", "macOS"),
    ("curl/8.0", "", ""), (None, "", ""), ("x" * 100_000 + "Firefox/1", "", ""),
])
def test_a_browser_is_described_from_its_user_agent(ua: str | None, agent: str,
                                                     system: str) -> None:
    assert describe_agent(ua) == (agent, system)


# ------------------------------------------------------------------ guesses


@pytest.fixture
def limited_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FastAPI]:
    from reussite.web.app import create_app

    monkeypatch.setenv("REUSSITE_SIGN_IN_LIMIT", "4/3600")
    app = create_app(f"sqlite:///{tmp_path / 'limited.sqlite3'}")
    yield app
    app.state.store.dispose()


def guesses(app: FastAPI, count: int) -> list[Any]:
    out = []
    for _ in range(count):
        with TestClient(app) as guesser:  # a new cookie each time: the address counts
            out.append(guesser.post("/api/me/sign-in", json={"code": "ABCD-EFGH-JKMN"},
                                    headers={"accept-language": "fr"}))
    return out


def test_codes_tried_from_one_address_are_limited(limited_app: FastAPI) -> None:
    answers = guesses(limited_app, 6)
    assert [r.status_code for r in answers] == [422] * 4 + [429] * 2
    late = answers[-1]
    assert int(late.headers["retry-after"]) > 60
    assert late.json()["detail"].startswith("Trop de codes essayés")
    assert limited_app.state.rate_limit.store == "memory"


def test_codes_tried_are_limited_across_processes_through_redis(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from reussite.web.app import create_app

    address = redis_address()
    if address is None:
        pytest.skip("no Redis on 127.0.0.1:6379 (set REUSSITE_TEST_REDIS)")
    monkeypatch.setenv("REUSSITE_REDIS_URL", "redis://{}:{}/0".format(*address))
    monkeypatch.setenv("REUSSITE_SIGN_IN_LIMIT", "4/3600")
    url = f"sqlite:///{tmp_path / 'redis.sqlite3'}"  # one site: one secret, one namespace
    first, second = create_app(url), create_app(url)
    seen = [r.status_code for _ in range(3) for app in (first, second)
            for r in guesses(app, 1)]
    assert seen == [422] * 4 + [429] * 2
    assert first.state.rate_limit.store == "redis"
    for app in (first, second):
        app.state.store.dispose()

