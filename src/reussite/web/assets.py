"""The static files, read once at start-up: each with its content hash and a gzipped copy.

A page names a static file by its hashed URL (``/static/js/app.js?v=1a2b3c4d``, from
:meth:`Assets.url`), served with ``Cache-Control: public, max-age=31536000, immutable``: a
changed file gets a new hash, so a new URL. The ES modules' relative imports
(``from "./api.js"``) are rewritten here to the imported module's hashed URL, and a module's
hash is taken over its rewritten text, so a change in an imported module changes the URL of
every module that imports it, up to ``app.js``. A URL without the current hash (an old page, a
hand-typed address) is answered too, with ``Cache-Control: no-cache`` and an ETag, so it is
revalidated. Text files go out gzipped to a client that accepts it.
"""

from __future__ import annotations

import gzip
import hashlib
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from importlib.abc import Traversable
from urllib.parse import parse_qs

from starlette.types import ASGIApp, Receive, Scope, Send

IMMUTABLE = b"public, max-age=31536000, immutable"
REVALIDATE = b"no-cache"

TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".webmanifest": "application/manifest+json",
    ".png": "image/png",
    ".ico": "image/x-icon",
}
COMPRESSED = (".js", ".css", ".svg", ".webmanifest")

# a relative import or re-export in an ES module: ``from "./x.js"``, ``import("./x.js")``
IMPORT = re.compile(r"""((?:\bfrom|\bimport)\s*\(?\s*)(["'])(\./[^"'?]+\.js)\2""")


def content_hash(body: bytes) -> str:
    """The 8 hex digits a static URL carries: the start of the body's SHA-256."""
    return hashlib.sha256(body).hexdigest()[:8]


@dataclass(frozen=True)
class Asset:
    body: bytes
    gzipped: bytes | None
    version: str
    media_type: str

    @property
    def etag(self) -> bytes:
        return f'"{self.version}"'.encode()


def _files(root: Traversable, prefix: str = "") -> dict[str, bytes]:
    found: dict[str, bytes] = {}
    for entry in root.iterdir():
        name = prefix + entry.name
        if entry.is_dir():
            found |= _files(entry, name + "/")
        elif not entry.name.startswith("."):
            found[name] = entry.read_bytes()
    return found


@cache
def assets() -> Assets:
    """The package's static files, read once per process."""
    return Assets.package()


class Assets:
    """The static files under one directory, by path (``js/app.js``), and their ASGI app."""

    def __init__(self, files: dict[str, bytes]) -> None:
        self.files: dict[str, Asset] = {}
        for path in sorted(files):
            self._load(path, files, ())
        self.fingerprint = content_hash(
            "\n".join(f"{p} {a.version}" for p, a in sorted(self.files.items())).encode())
        """A hash of every file's path and version: it changes when any file does (the pages
        rendered once are kept under it: :mod:`reussite.web.pages`)."""

    @classmethod
    def package(cls) -> Assets:
        return cls(_files(resources.files("reussite.web") / "static"))

    def _load(self, path: str, files: dict[str, bytes], chain: tuple[str, ...]) -> Asset:
        if path in self.files:
            return self.files[path]
        if path in chain:
            raise ValueError(f"circular imports between static modules: {chain}")
        body = files[path]
        if path.endswith(".js"):
            folder = path.rpartition("/")[0]

            def hashed(m: re.Match[str]) -> str:
                target = (folder + "/" if folder else "") + m[3][2:]
                if target not in files:
                    return m[0]
                version = self._load(target, files, (*chain, path)).version
                return f"{m[1]}{m[2]}{m[3]}?v={version}{m[2]}"

            body = IMPORT.sub(hashed, body.decode()).encode()
        suffix = "." + path.rpartition(".")[2]
        gzipped = gzip.compress(body, 9, mtime=0) if suffix in COMPRESSED else None
        asset = Asset(body, gzipped, content_hash(body),
                      TYPES.get(suffix, "application/octet-stream"))
        self.files[path] = asset
        return asset

    def url(self, path: str) -> str:
        """The hashed URL of a static file: ``url("js/app.js")`` → ``/static/js/app.js?v=…``."""
        asset = self.files.get(path)  # missing only from a package built without it
        return f"/static/{path}" + (f"?v={asset.version}" if asset else "")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The ASGI app mounted at ``/static``: GET and HEAD of the files read at start-up."""
        path = scope["path"].removeprefix(scope.get("root_path", "")).removeprefix("/static")
        await self.serve(self.files.get(path.lstrip("/")), scope, send)

    def one(self, path: str) -> ASGIApp:
        """An ASGI app answering with one of the files (``/favicon.ico``, the manifest)."""
        return One(self.files.get(path))

    @staticmethod
    async def serve(asset: Asset | None, scope: Scope, send: Send) -> None:
        if scope["method"] not in ("GET", "HEAD"):
            await _plain(send, 405, b"This method is not allowed here",
                         [(b"allow", b"GET, HEAD")])
            return
        if asset is None:
            await _plain(send, 404, b"There is nothing at this address", [])
            return
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        current = query.get("v") == [asset.version]
        headers = [(b"cache-control", IMMUTABLE if current else REVALIDATE),
                   (b"etag", asset.etag)]
        if asset.gzipped is not None:
            headers.append((b"vary", b"Accept-Encoding"))
        request = dict(scope["headers"])
        if asset.etag in [t.strip() for t in request.get(b"if-none-match", b"").split(b",")]:
            await send({"type": "http.response.start", "status": 304, "headers": headers})
            await send({"type": "http.response.body", "body": b""})
            return
        body = asset.body
        if asset.gzipped is not None and accepts_gzip(request.get(b"accept-encoding", b"")):
            body = asset.gzipped
            headers.append((b"content-encoding", b"gzip"))
        headers += [(b"content-type", asset.media_type.encode()),
                    (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body",
                    "body": b"" if scope["method"] == "HEAD" else body})


@dataclass(frozen=True)
class One:
    """An ASGI app (an object, not a function: Starlette's routes call a function with a
    request) answering with one file."""

    asset: Asset | None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await Assets.serve(self.asset, scope, send)


def accepts_gzip(accept: bytes) -> bool:
    for part in accept.lower().split(b","):
        name, _, params = part.strip().partition(b";")
        if name.strip() == b"gzip":
            q = params.strip().removeprefix(b"q=")
            return not params.strip().startswith(b"q=") or q.strip() not in (b"0", b"0.0",
                                                                              b"0.00", b"0.000")
    return False


async def _plain(send: Send, status: int, text: bytes, extra: list[tuple[bytes, bytes]]) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(text)).encode()), *extra]})
    await send({"type": "http.response.body", "body": text})
