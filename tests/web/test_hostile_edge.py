"""What an outsider's requests meet at the edge (issue 26): the feedback form's malformed
bodies, the 404 page's links, the Origin check's scheme, HTML 503 pages, the cookie cache."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient


def test_a_feedback_body_with_too_many_fields_is_a_400_with_a_sentence(
        sqlite_client: TestClient) -> None:
    body = "&".join(f"f{i}=x" for i in range(11)).encode()
    for lang, sentence in (("en", "The form is malformed"), ("fr", "Le formulaire")):
        r = sqlite_client.post("/feedback", content=body, headers={
            "content-type": "application/x-www-form-urlencoded", "accept": "text/html",
            "accept-language": lang})
        assert r.status_code == 400 and sentence in r.text
    r = sqlite_client.post("/feedback", content=body,
                           headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 400 and "malformed" in r.json()["detail"]


@pytest.mark.parametrize("path", ["//evil.example/x", "///evil.example/x",
                                  "/\\evil.example/x", "//evil.example"])
def test_the_404_pages_language_links_stay_on_the_site(sqlite_client: TestClient,
                                                       path: str) -> None:
    r = sqlite_client.get(f"http://testserver{path}", headers={"accept": "text/html"})
    assert r.status_code == 404 and r.request.url.raw_path.startswith(path.encode()[:3])
    links = re.findall(r'href="([^"]*)"', r.text)
    assert any("lang=fr" in h for h in links)
    for href in links:
        assert href.startswith("/") and not href.startswith("//") and "\\" not in href, href


@pytest.mark.parametrize("origin", ["ftp://testserver", "https://testserver",
                                    "ws://testserver", "testserver"])
def test_an_origin_of_another_scheme_is_another_site(sqlite_client: TestClient,
                                                      origin: str) -> None:
    r = sqlite_client.post("/api/games", json={"game": "klondike"}, headers={"origin": origin})
    assert r.status_code == 403 and "another site" in r.json()["detail"]
    r = sqlite_client.post("/api/games", json={"game": "klondike"},
                           headers={"origin": "http://testserver"})
    assert r.status_code == 201


def test_an_html_503_page_says_when_to_come_back(sqlite_client: TestClient,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from sqlalchemy.exc import OperationalError

    def down(*args: object) -> None:
        raise OperationalError("SELECT", {}, Exception("connection refused"))

    monkeypatch.setattr(sqlite_client.app.state.store, "player_totals",  # type: ignore[attr-defined]
                        down)
    r = sqlite_client.get("/stats", headers={"accept": "text/html"})
    assert r.status_code == 503 and int(r.headers["retry-after"]) >= 1
    assert "unavailable" in r.text


def test_the_edge_remembers_only_valid_cookies_and_a_bounded_number_of_bytes() -> None:
    from itsdangerous import Signer

    from reussite.web.edge import (
        KNOWN_COOKIE_BYTES,
        PLAYER_COOKIE,
        Edge,
        legacy_browser,
        player_signer,
    )

    signer = player_signer("secret")
    edge = Edge(lambda *a: None, signer=signer)  # type: ignore[arg-type, return-value]
    forged = Signer("another secret", salt="reussite.player").sign("p.b").decode()
    for i in range(2000):
        assert edge.identity_from_cookie(f"{PLAYER_COOKIE}={forged}; n={i}") is None
    assert edge._known_bytes == 0 and not edge._known
    valid = signer.sign("p.b").decode()
    assert edge.identity_from_cookie(f"{PLAYER_COOKIE}={valid}; pad={'x' * 2000}") == ("p", "b")
    assert not edge._known  # too long to remember: checked every time
    for i in range(50_000):
        assert edge.identity_from_cookie(
            f"{PLAYER_COOKIE}={valid}; n={i}; pad={'y' * 500}") == ("p", "b")
        assert edge._known_bytes <= KNOWN_COOKIE_BYTES
    assert sum(map(len, edge._known)) == edge._known_bytes
    # a cookie from before browsers names its player alone: its browser is derived from it
    old = signer.sign("p").decode()
    assert edge.identity_from_cookie(f"{PLAYER_COOKIE}={old}") == ("p", legacy_browser("p"))


@pytest.mark.parametrize("lang,words", [("en", "Too many requests"), ("fr", "Trop de requêtes"),
                                        ("ru", "Слишком много запросов")])
def test_a_429_speaks_the_players_language(tmp_path: object, lang: str, words: str) -> None:
    from pathlib import Path

    from reussite.web.app import create_app

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("REUSSITE_RATE_LIMIT_ADDRESS", "1/3600")
        app = create_app(f"sqlite:///{Path(str(tmp_path)) / 'limit.sqlite3'}")
    try:
        with TestClient(app) as c:
            assert c.get("/api/catalogue").status_code == 200
            r = c.get("/api/catalogue", headers={"accept-language": lang})
            assert r.status_code == 429 and r.json()["detail"].startswith(words)
            assert int(r.headers["retry-after"]) >= 1 and "set-cookie" not in r.headers
    finally:
        app.state.store.dispose()


@pytest.mark.parametrize("lang,words", [("en", "briefly unavailable"),
                                        ("fr", "momentanément indisponible"),
                                        ("ru", "временно недоступна")])
def test_a_503_speaks_the_players_language(sqlite_client: TestClient,
                                           monkeypatch: pytest.MonkeyPatch,
                                           lang: str, words: str) -> None:
    from sqlalchemy.exc import OperationalError

    def down(*args: object) -> None:
        raise OperationalError("SELECT", {}, Exception("connection refused"))

    monkeypatch.setattr(sqlite_client.app.state.store, "player_totals",  # type: ignore[attr-defined]
                        down)
    r = sqlite_client.get("/api/stats", headers={"accept-language": lang})
    assert r.status_code == 503 and words in r.json()["detail"]
    assert int(r.headers["retry-after"]) >= 1


def test_health_says_where_the_rate_limit_counts(sqlite_client: TestClient) -> None:
    assert sqlite_client.get("/api/health").json()["rate_limit"] == "memory"
