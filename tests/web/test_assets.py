"""The installable site: favicon, manifest, static files gzipped under content-hashed URLs."""

from __future__ import annotations

import gzip
import hashlib
import json
import re

from fastapi.testclient import TestClient

from reussite.web.assets import IMMUTABLE, Assets, assets, content_hash


def hashed_urls(html: str) -> list[str]:
    return re.findall(r'(?:href|src)="(/static/[^"]+)"', html)


def test_favicon_and_manifest_are_served_with_their_types(sqlite_client: TestClient) -> None:
    icon = sqlite_client.get("/favicon.ico")
    assert icon.status_code == 200
    assert icon.headers["content-type"] == "image/svg+xml"
    assert icon.content.startswith(b"<svg")
    r = sqlite_client.get("/manifest.webmanifest")
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/manifest+json"
    manifest = json.loads(r.content)
    assert manifest["name"] == "Réussite" and manifest["short_name"]
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert manifest["theme_color"] and manifest["background_color"]
    sizes = {i["sizes"] for i in manifest["icons"]}
    assert {"any", "192x192", "512x512"} <= sizes
    for icon_entry in manifest["icons"]:
        got = sqlite_client.get(icon_entry["src"])
        assert got.status_code == 200 and got.headers["content-type"] == icon_entry["type"]


def test_the_icon_and_manifest_mint_no_player(sqlite_client: TestClient) -> None:
    """Browsers fetch the manifest without cookies: no new player for a file."""
    sqlite_client.cookies.clear()
    for path in ("/favicon.ico", "/manifest.webmanifest"):
        r = sqlite_client.get(path)
        assert r.status_code == 200 and "set-cookie" not in r.headers, path
    assert "set-cookie" in sqlite_client.get("/").headers  # a page does make one


def test_pages_link_the_icon_and_manifest(sqlite_client: TestClient) -> None:
    html = sqlite_client.get("/").text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert re.search(r'<link rel="icon" href="/static/icon\.svg\?v=[0-9a-f]{8}"', html)
    assert '<meta name="theme-color"' in html


def test_every_static_url_of_a_page_is_hashed_and_immutable(sqlite_client: TestClient) -> None:
    urls = hashed_urls(sqlite_client.get("/games/klondike").text)
    assert any("/js/app.js" in u for u in urls) and any("/css/app.css" in u for u in urls)
    for url in urls:
        path, _, version = url.partition("?v=")
        r = sqlite_client.get(url)
        assert r.status_code == 200, url
        assert r.headers["cache-control"] == IMMUTABLE.decode()
        assert version == hashlib.sha256(r.content).hexdigest()[:8]


def test_text_files_are_gzipped_when_the_client_accepts_it(sqlite_client: TestClient) -> None:
    url = assets().url("js/app.js")
    r = sqlite_client.get(url, headers={"accept-encoding": "gzip"})
    assert r.headers["content-encoding"] == "gzip"
    assert "Accept-Encoding" in r.headers["vary"]
    assert r.headers["cache-control"] == "public, max-age=31536000, immutable"
    raw = sqlite_client.get(url, headers={"accept-encoding": "identity"})
    assert "content-encoding" not in raw.headers
    assert r.content == raw.content  # httpx decodes the gzipped body
    assert int(r.headers["content-length"]) < len(raw.content)
    assert gzip.decompress(assets().files["js/app.js"].gzipped or b"") == raw.content
    refused = sqlite_client.get(url, headers={"accept-encoding": "gzip;q=0"})
    assert "content-encoding" not in refused.headers
    png = sqlite_client.get(assets().url("icon-192.png"), headers={"accept-encoding": "gzip"})
    assert "content-encoding" not in png.headers  # already compressed


def test_module_imports_carry_the_hash_of_the_imported_module(
        sqlite_client: TestClient) -> None:
    app_js = sqlite_client.get(assets().url("js/app.js")).text
    imports = re.findall(r'from\s*"(\./[^"]+)"', app_js)
    assert imports
    for spec in imports:
        assert re.fullmatch(r"\./\w+\.js\?v=[0-9a-f]{8}", spec), spec
        r = sqlite_client.get("/static/js/" + spec[2:])
        assert r.status_code == 200
        assert r.headers["cache-control"] == IMMUTABLE.decode()


def test_an_unhashed_or_stale_url_is_revalidated(sqlite_client: TestClient) -> None:
    for url in ("/static/js/api.js", "/static/js/api.js?v=00000000"):
        r = sqlite_client.get(url)
        assert r.status_code == 200 and r.headers["cache-control"] == "no-cache"
        again = sqlite_client.get(url, headers={"if-none-match": r.headers["etag"]})
        assert again.status_code == 304 and again.content == b""
    assert sqlite_client.get("/static/js/nothing.js").status_code == 404
    assert sqlite_client.get("/static/../app.py").status_code == 404
    assert sqlite_client.post("/static/js/api.js").status_code in (403, 405)


def test_a_changed_file_gets_a_new_hash_and_so_do_its_importers() -> None:
    files = {"js/a.js": b'import { b } from "./b.js";\nb();\n',
             "js/b.js": b"export function b() {}\n", "css/x.css": b"body { color: red }\n"}
    before = Assets(files)
    assert before.files["css/x.css"].version == content_hash(files["css/x.css"])
    b_version = before.files["js/b.js"].version
    assert f'from "./b.js?v={b_version}"'.encode() in before.files["js/a.js"].body
    changed = Assets(files | {"js/b.js": b"export function b() { return 1; }\n"})
    assert changed.files["js/b.js"].version != b_version
    assert changed.files["js/a.js"].version != before.files["js/a.js"].version
    assert changed.files["css/x.css"].version == before.files["css/x.css"].version
    assert changed.url("js/b.js") == f"/static/js/b.js?v={changed.files['js/b.js'].version}"
