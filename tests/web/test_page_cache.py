"""Pages rendered once and filled in for each player (web/pagecache.py, web/pages.py).

A kept page must be the very page a fresh rendering gives, in every language; no player
ever gets another player's feedback token or unfinished games; a change of the static files
gives pages naming the new files; the gzipped page is the same page.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from itsdangerous import Signer
from jinja2 import DictLoader, Environment

from reussite.games import CATALOGUE
from reussite.web import pages
from reussite.web.app import create_app
from reussite.web.assets import Assets
from reussite.web.edge import PLAYER_COOKIE
from reussite.web.i18n import LANGS
from reussite.web.pagecache import PageCache, Shared, stored

TOKEN = re.compile(r'name="csrf" value="([^"]+)"')
PAGES = ["/", *(f"/games/{g}" for g in CATALOGUE), "/games/spider?feedback=thanks",
         "/games/klondike?feedback=invalid"]


@pytest.fixture
def empty_cache(monkeypatch: pytest.MonkeyPatch) -> Iterator[PageCache]:
    """The site's page cache, emptied for the test (and as it was after it)."""
    cache = PageCache()
    monkeypatch.setattr(pages, "PAGES", cache)
    yield cache


def player_of(client: TestClient) -> str:
    """The player a client's cookie names (the edge's signer, the app's secret): the cookie
    signs ``player.browser``."""
    signed = client.cookies[PLAYER_COOKIE]
    signer: Signer = client.app.state.signer  # type: ignore[attr-defined]
    return signer.unsign(signed).decode().partition(".")[0]


def token_of(html: str) -> str:
    m = TOKEN.search(html)
    assert m, "the feedback form and its token"
    return m[1]


def fresh_page(app: FastAPI, client: TestClient, path: str, lang: str) -> bytes:
    """The page as rendered for this request alone: the cache emptied first."""
    pages.PAGES.pages.clear()
    r = client.get(path, headers={"accept-language": lang})
    assert r.status_code == 200
    return r.content


@pytest.mark.parametrize("lang", LANGS)
def test_a_kept_page_is_the_page_rendered_afresh(sqlite_app: FastAPI, lang: str,
                                                 empty_cache: PageCache) -> None:
    """For every page in every language: the page served from the cache is byte for byte
    the page rendered for the same request with an empty cache, for a player with an
    unfinished game as for a new one."""
    with TestClient(sqlite_app) as seasoned, TestClient(sqlite_app) as newcomer:
        assert seasoned.post("/api/games", json={"game": "minerva", "number": 4}
                             ).status_code == 201
        newcomer.get("/api/catalogue")  # a cookie, no game
        for path in PAGES:
            for client in (seasoned, newcomer):
                fresh = fresh_page(sqlite_app, client, path, lang)
                kept = client.get(path, headers={"accept-language": lang})
                again = client.get(path, headers={"accept-language": lang})
                assert kept.content == again.content == fresh, (path, lang)
                assert empty_cache.unshareable == 0
                assert any(isinstance(p, Shared) for p in empty_cache.pages.values())
        resumed = seasoned.get("/", headers={"accept-language": lang}).text
        assert 'href="/games/minerva"' in resumed.split('class="games"')[0]
        assert 'class="resume"' not in newcomer.get("/").text


def test_two_players_never_get_each_others_token(sqlite_app: FastAPI,
                                                 empty_cache: PageCache) -> None:
    """Players asking in turn for the same page (its kept bytes) each get a token signed
    for themselves: it names their own player, the feedback form takes it from them and
    refuses it from the other."""
    with TestClient(sqlite_app) as a, TestClient(sqlite_app) as b:
        a.get("/api/catalogue")
        b.get("/api/catalogue")
        seen: dict[str, set[str]] = {"a": set(), "b": set()}
        for path in ("/games/athena", "/games/athena?feedback=thanks", "/games/leap-year"):
            for _ in range(3):
                for name, client in (("a", a), ("b", b)):
                    seen[name].add(token_of(client.get(path).text))
        assert len(seen["a"]) == len(seen["b"]) == 1 and not seen["a"] & seen["b"]
        token_a, token_b = seen["a"].pop(), seen["b"].pop()
        signer = Signer(sqlite_app.state.signer.secret_keys[-1], salt="reussite.feedback")
        assert signer.unsign(token_a).decode() == player_of(a)
        assert signer.unsign(token_b).decode() == player_of(b)
        form = {"csrf": token_a, "game": "athena", "message": "the King slid under the Queen"}
        assert b.post("/feedback", data=form, follow_redirects=False).status_code == 403
        sent = a.post("/feedback", data=form, follow_redirects=False)
        assert sent.status_code == 303 and "feedback=thanks" in sent.headers["location"]


def test_a_player_never_sees_another_players_unfinished_games(sqlite_app: FastAPI,
                                                              empty_cache: PageCache) -> None:
    """The catalogue's unfinished games are each player's own, whoever asked first."""
    with TestClient(sqlite_app) as a, TestClient(sqlite_app) as b, \
            TestClient(sqlite_app) as c:
        a.post("/api/games", json={"game": "athena", "number": 314159})
        b.post("/api/games", json={"game": "quadrennial", "number": 271828})
        for _ in range(2):
            page_a, page_b, page_c = (x.get("/").text for x in (a, b, c))
            assert "314159" in page_a and "271828" not in page_a
            assert "271828" in page_b and "314159" not in page_b
            assert "314159" not in page_c and "271828" not in page_c
            assert 'class="resume"' not in page_c


def test_the_pages_follow_a_change_of_the_static_files(sqlite_app: FastAPI,
                                                       empty_cache: PageCache,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The kept pages are kept per version of the static files: when a file changes, the
    pages name its new hashed URL."""
    with TestClient(sqlite_app) as client:
        before = client.get("/games/spider").text
        old = pages.assets()
        files = {path: asset.body for path, asset in old.files.items()}
        files["css/app.css"] += b"\n/* a change */\n"
        new = Assets(files)
        assert new.fingerprint != old.fingerprint
        monkeypatch.setattr(pages, "assets", lambda: new)
        after = client.get("/games/spider").text
        assert old.url("css/app.css") in before and old.url("css/app.css") not in after
        assert new.url("css/app.css") in after
        assert after.replace(new.url("css/app.css"), old.url("css/app.css")) == before


def test_the_gzipped_page_is_the_page(sqlite_app: FastAPI, empty_cache: PageCache) -> None:
    """A client that accepts gzip gets the same page gzipped (the kept page's deflated
    pieces and the player's own parts between them); the answer says it varies with it."""
    with TestClient(sqlite_app) as client:
        client.post("/api/games", json={"game": "spider", "number": 12})
        for path in ("/", "/games/spider", "/games/astrocyte?feedback=invalid"):
            for lang in LANGS:
                plain = client.get(path, headers={"accept-language": lang,
                                                  "accept-encoding": "identity"})
                assert "content-encoding" not in plain.headers
                for _ in range(2):  # made, then kept
                    packed = client.get(path, headers={"accept-language": lang,
                                                       "accept-encoding": "gzip"})
                    assert packed.headers["content-encoding"] == "gzip"
                    assert "Accept-Encoding" in packed.headers["vary"]
                    assert packed.content == plain.content  # httpx has decompressed it
                    assert int(packed.headers["content-length"]) < len(plain.content)


def test_the_hot_path_serves_the_pages_as_fastapi_does(sqlite_url: str,
                                                       monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    """The catalogue and the game pages, through the hot path and through FastAPI's routes
    (``REUSSITE_FAST_PATH=off``), for the same player: the same status, headers and bytes."""
    answers = []
    cookie = None
    for fast in (True, False):
        with monkeypatch.context() as m:
            if not fast:
                m.setenv("REUSSITE_FAST_PATH", "off")
            app = create_app(sqlite_url)
        try:
            with TestClient(app) as client:
                if cookie is None:
                    client.post("/api/games", json={"game": "freds-spider", "number": 99})
                    cookie = client.cookies[PLAYER_COOKIE]
                client.cookies[PLAYER_COOKIE] = cookie
                out = []
                for path in ("/", "/games/klondike", "/games/minerva?lang=ru",
                             "/games/nope"):
                    for encoding in ("gzip", "identity"):
                        r = client.get(path, headers={"accept-language": "fr",
                                                      "accept-encoding": encoding,
                                                      "accept": "text/html"})
                        out.append((path, r.status_code, sorted(
                            (k, v) for k, v in r.headers.items() if k != "date"), r.content))
                answers.append(out)
        finally:
            app.state.store.dispose()
    for x, y in zip(answers[0], answers[1], strict=True):
        assert x[:3] == y[:3]
        assert x == y
    assert [a[1] for a in answers[0]] == [200] * 6 + [404] * 2


# ---------------------------------------------------------------------- the cache alone

TEMPLATES = {
    "page.html": "<p>{{ title }}</p><form><input value=\"{{ csrf }}\"></form>"
                 "{% block personal_games %}<ul>{% for g in games %}<li>{{ g }}</li>"
                 "{% endfor %}</ul>{% endblock %}<footer>{{ csrf }}</footer>",
    "odd.html": "<p>{{ title }}</p>{{ csrf|upper }}",
}


def env() -> Environment:
    return Environment(loader=DictLoader(TEMPLATES), autoescape=True)


def test_personal_values_and_blocks_are_filled_in_escaped() -> None:
    cache, e = PageCache(), env()
    expected = e.get_template("page.html")
    for games, token in [(["<b>x</b>"], 'a"b'), ([], "c&d"), (["y", "z"], "e" * 70_000)]:
        personal = {"csrf": token, "games": games}
        page = cache.render(e, "page.html", (), lambda: {"title": "T"}, personal)
        assert page == expected.render(title="T", **personal).encode()
        packed = cache.render(e, "page.html", (), lambda: {"title": "T"}, personal, True)
        assert gzip.decompress(packed) == page
    kept = cache.pages[(e, "page.html")]
    assert isinstance(kept, Shared)
    assert kept.parts == (("value", "csrf"), ("block", "personal_games"), ("value", "csrf"))


def test_a_page_whose_personal_value_cannot_be_cut_is_rendered_whole() -> None:
    """A template that changes a personal value (here ``|upper``) cannot be filled in: its
    page is rendered for each request, and is still right."""
    cache, e = PageCache(), env()
    for token in ("abc", "xyz"):
        page = cache.render(e, "odd.html", (), lambda: {"title": "T"}, {"csrf": token})
        assert page == f"<p>T</p>{token.upper()}".encode()
    assert cache.unshareable == 1


def test_stored_blocks_hold_any_length() -> None:
    import zlib

    for n in (0, 1, 65_535, 65_536, 200_000):
        data = bytes(range(256)) * (n // 256) + b"x" * (n % 256)
        raw = stored(data) + zlib.compressobj(9, zlib.DEFLATED, -15).flush()
        assert zlib.decompress(raw, -15) == data
