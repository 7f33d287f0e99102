"""A real server and a real browser for the browser tests and ``scripts/screenshots.py``.

The server is ``reussite serve`` started as a subprocess on a free port of 127.0.0.1 with a
fresh SQLite database; the browser is Debian's Chromium driven by Playwright.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from serverproc import free_port

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--no-first-run"]
BASE_URL_ENV = "REUSSITE_BROWSER_BASE_URL"
"""Set it to test a server that is already running instead of starting one."""
database: str | None = None
"""The database URL of the server :func:`running_server` started (None for one named in the
environment): a test reads what only the server knows there (a daily deal's solution)."""


def _wait_until_up(url: str, proc: subprocess.Popen[bytes] | None, timeout: float,
                   log: Path | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            out = log.read_text(errors="replace") if log is not None else ""
            raise RuntimeError(f"reussite serve exited with {proc.returncode}:\n{out[-3000:]}")
        try:
            with urllib.request.urlopen(url + "/api/catalogue", timeout=2):
                return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.15)
    raise RuntimeError(f"the server at {url} did not answer within {timeout} s")


@contextmanager
def running_server() -> Iterator[str]:
    """The base URL of a running site: ours, started for the occasion, or the one named in
    the environment variable ``REUSSITE_BROWSER_BASE_URL``."""
    given = os.environ.get(BASE_URL_ENV)
    if given:
        _wait_until_up(given.rstrip("/"), None, 10)
        yield given.rstrip("/")
        return
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="reussite-browser-") as tmp:
        db = f"sqlite:///{Path(tmp) / 'site.sqlite3'}"
        exe = Path(sys.executable).with_name("reussite")
        cmd = [str(exe) if exe.exists() else "reussite", "serve", "--host", "127.0.0.1",
               "--port", str(port), "--db", db, "--no-access-log"]
        env = {**os.environ, "REUSSITE_DATABASE_URL": db}
        global database
        database = db
        # The server's output goes to a file: a pipe nobody reads fills up (64 KB) in a long
        # run, and the server then blocks on its next log line.
        log = Path(tmp) / "server.log"
        with log.open("ab") as out:
            proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
        try:
            url = f"http://127.0.0.1:{port}"
            _wait_until_up(url, proc, 40, log)
            yield url
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def launch_chromium(playwright: Any) -> Any:
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
