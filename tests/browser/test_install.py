"""The installable site in a browser: no 404 on a first visit, the manifest linked and valid,
the static files gzipped under hashed URLs, the modules loaded through them."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urljoin

import pytest

from .conftest import player_page

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("path", ["/", "/games/klondike", "/stats"])
def test_a_first_visit_loads_with_no_failed_request(browser: Any, base_url: str,
                                                    path: str) -> None:
    with player_page(browser, viewport={"width": 1366, "height": 768}) as page:
        responses: list[Any] = []
        page.on("response", lambda r: responses.append(r))
        page.goto(base_url + path)
        page.wait_for_load_state("networkidle")
        failed = [(r.status, r.url) for r in responses if r.status >= 400]
        assert not failed, failed
        statics = [r for r in responses if "/static/" in r.url]
        assert statics
        for r in statics:
            assert "?v=" in r.url, r.url
            assert r.headers["cache-control"] == "public, max-age=31536000, immutable"
            if r.url.split("?")[0].endswith((".js", ".css", ".svg")):
                assert r.headers.get("content-encoding") == "gzip", r.url
        if path.startswith("/games/"):
            page.wait_for_selector("#game .card")
            modules = {r.url.split("?")[0].rsplit("/", 1)[1] for r in statics}
            assert {"app.js", "api.js", "cards.js"} <= modules


def test_the_manifest_is_linked_and_parses(browser: Any, base_url: str) -> None:
    with player_page(browser, viewport={"width": 390, "height": 844}, is_mobile=True,
                     has_touch=True) as page:
        page.goto(base_url + "/")
        href = page.get_attribute('link[rel="manifest"]', "href")
        assert href
        assert page.get_attribute('meta[name="theme-color"]', "content")
        r = page.request.get(urljoin(base_url + "/", href))
        assert r.ok and r.headers["content-type"] == "application/manifest+json"
        manifest = json.loads(r.body())
        assert manifest["name"] == "Réussite" and manifest["display"] == "standalone"
        for icon in manifest["icons"]:
            got = page.request.get(urljoin(base_url + "/", icon["src"]))
            assert got.ok and got.headers["content-type"] == icon["type"]
        favicon = page.request.get(base_url + "/favicon.ico")
        assert favicon.ok
