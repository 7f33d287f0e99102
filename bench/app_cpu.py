"""The web application's own CPU a request, in process: no HTTP, no other process to wait for.

On a shared machine the CPU time a request costs the server under ``bench/load.py`` moves
with the load average (its caches are cold after every switch to another process), so two
versions compare only side by side. This drives the ASGI application itself (the site's
layers, the hot path, the database) from players in the same event loop: a new game, then
moves taken from the view's ``legal_moves`` (some undos, so some moves cut the redo line),
and prints the CPU time of this process per request (the application's, plus this driver's
few microseconds: a scope, a ``json`` read of the answer) and, on PostgreSQL, that of every
``postgres`` process of the machine meanwhile (shared: a lower bound is not known).

    python bench/app_cpu.py --db sqlite                        # a temporary SQLite file
    python bench/app_cpu.py --db 'postgresql+psycopg://postgres@127.0.0.1:5432/test?options=-csearch_path%3Dappcpu'
    python bench/app_cpu.py --db sqlite --profile /tmp/app.prof   # cProfile (CPU clock)
    python bench/app_cpu.py --db sqlite --pages     # pages instead: the catalogue, game pages

With ``--pages`` each player (one cookie, after a game of 30 actions, so that its catalogue
lists an unfinished game, and a first round of pages, not counted) asks in turn for the
catalogue and for game pages, each in English, French and Russian (``Accept-Language``), as
a browser does (``Accept: text/html``, ``Accept-Encoding: gzip, deflate, br``).

Compare two trees by running each (``PYTHONPATH=/copy/of/old/src python bench/app_cpu.py``)
several times in turn and taking the minimum and the median.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson

GAMES = ["klondike", "spider", "freds-spider", "minerva", "athena", "astrocyte"]


class Driver:
    def __init__(self, app: Any) -> None:
        self.app = app
        self.count = 0
        self.cookies: dict[int, list[bytes | None]] = {}
        """Each player's cookie (player ``i`` is the same browser throughout)."""

    async def call(self, cookie: list[bytes | None], method: str, path: str,
                   body: Any = None, client: str = "127.0.0.1",
                   lang: bytes = b"en", *, page: bool = False) -> tuple[int, bytes]:
        payload = b"" if body is None else orjson.dumps(body)
        headers = [(b"host", b"127.0.0.1:8000"), (b"accept-language", lang)]
        if page:  # as a browser asks for a page
            headers += [(b"accept", b"text/html"), (b"accept-encoding", b"gzip, deflate, br")]
        else:
            headers.append((b"accept", b"application/json"))
        if cookie[0]:
            headers.append((b"cookie", cookie[0]))
        if body is not None:
            headers += [(b"content-type", b"application/json"),
                        (b"content-length", str(len(payload)).encode())]
        scope = {"type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"},
                 "http_version": "1.1", "method": method, "scheme": "http", "path": path,
                 "raw_path": path.encode(), "query_string": b"", "root_path": "",
                 "headers": headers, "client": (client, 5555),
                 "server": ("127.0.0.1", 8000), "state": {}}
        sent = False

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": payload, "more_body": False}
            await asyncio.sleep(3600)
            return {"type": "http.disconnect"}

        out: dict[str, Any] = {"body": b""}

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                out["status"] = message["status"]
                for k, v in message["headers"]:
                    if k == b"set-cookie":
                        cookie[0] = v.split(b";")[0]
            else:
                out["body"] += message.get("body", b"")

        await self.app(scope, receive, send)
        self.count += 1
        return out["status"], out["body"]

    async def player(self, i: int, rng: random.Random, quota: int) -> None:
        cookie = self.cookies.setdefault(i, [None])
        # each player from an address of its own (198.18.0.0/15 is set aside for benchmarks), as
        # people are: the rate limit per address then counts as it does on the site
        client = f"198.18.{i // 250}.{i % 250 + 1}"
        while quota > 0:
            status, body = await self.call(cookie, "POST", "/api/games", {
                "game": GAMES[i % len(GAMES)], "number": rng.randrange(10**9)}, client)
            quota -= 1
            assert status == 201, body
            view = orjson.loads(body)
            gid = view["id"]
            for _ in range(60):
                if quota <= 0 or view["status"] != "playing":
                    break
                if rng.random() < 0.06 and view["can_undo"]:
                    status, body = await self.call(cookie, "POST", f"/api/games/{gid}/undo",
                                                   {"version": view["version"]}, client)
                else:
                    legal = view["legal_moves"]
                    piles = [m for m in legal if m["type"] == "move"]
                    choice = rng.choice(piles if piles and rng.random() < 0.8 else legal)
                    move = {"move": choice, "version": view["version"]}
                    status, body = await self.call(cookie, "POST", f"/api/games/{gid}/moves",
                                                   move, client)
                quota -= 1
                assert status == 200, body
                view = orjson.loads(body)


    async def pages(self, i: int, quota: int) -> None:
        """The catalogue and game pages, in turn, in each language (see the module's text)."""
        cookie = self.cookies.setdefault(i, [None])
        client = f"198.18.{i // 250}.{i % 250 + 1}"
        for k in range(quota):
            path = "/" if k % 2 == 0 else f"/games/{GAMES[(i + k) % len(GAMES)]}"
            status, body = await self.call(cookie, "GET", path, None, client,
                                           (b"en", b"fr", b"ru")[k % 3], page=True)
            assert status == 200, body


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", default="sqlite", help="'sqlite' (a temporary file) or a URL")
    ap.add_argument("--players", type=int, default=30)
    ap.add_argument("--requests", type=int, default=3000)
    ap.add_argument("--profile", help="write cProfile's statistics (CPU clock) to this file")
    ap.add_argument("--pages", action="store_true",
                    help="ask for pages (the catalogue, game pages) instead of playing")
    args = ap.parse_args()
    os.environ.setdefault("REUSSITE_RATE_LIMIT", "off")
    os.environ["REUSSITE_HINT_WORKERS"] = "0"  # no hints asked: no worker started
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import load  # noqa: E402  (bench/load.py: the schema, the PostgreSQL processes' CPU)

    from reussite.web.app import serving_app

    tmp = tempfile.TemporaryDirectory(prefix="reussite-appcpu-")
    url = f"sqlite:///{tmp.name}/app.sqlite3" if args.db == "sqlite" else args.db
    load.ensure_schema(url)
    driver = Driver(serving_app(url))

    async def run() -> None:
        n = args.players
        await asyncio.gather(*(driver.player(i, random.Random(i), 30) for i in range(n)))
        if args.pages:
            await asyncio.gather(*(driver.pages(i, 2 * len(GAMES)) for i in range(n)))
        driver.count = 0
        profiler = cProfile.Profile(time.thread_time) if args.profile else None
        pg0, cpu0 = load.postgres_cpu(), time.process_time()
        sw0, pgsw0 = load.switches(), load.switches(0)
        if profiler:
            profiler.enable()
        if args.pages:
            await asyncio.gather(*(driver.pages(i, args.requests // n) for i in range(n)))
        else:
            await asyncio.gather(*(driver.player(i, random.Random(100 + i),
                                                 args.requests // n) for i in range(n)))
        if profiler:
            profiler.disable()
            profiler.dump_stats(args.profile)
        cpu, pg = time.process_time() - cpu0, load.postgres_cpu() - pg0
        sw, pgsw = load.switches(), load.switches(0)
        per = 1000 / driver.count
        what = "pages" if args.pages else "requests"
        line = f"{driver.count} {what}: {cpu * per:.3f} ms of CPU a request in this process"
        if url.startswith("postgresql"):
            line += f", PostgreSQL's processes {pg * per:.3f} ms"
            line += (f"; context switches a request: this process"
                     f" {(sw[0] - sw0[0] + sw[1] - sw0[1]) * per / 1000:.2f},"
                     f" PostgreSQL's {(pgsw[0] - pgsw0[0] + pgsw[1] - pgsw0[1]) * per / 1000:.2f}")
        print(line)

    load.run_loop(run())
    tmp.cleanup()


if __name__ == "__main__":
    main()
