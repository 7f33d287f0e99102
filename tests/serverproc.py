"""Real server processes for the tests: ``reussite serve`` on 127.0.0.1 and a free port, and a
TCP relay to put between a server and PostgreSQL or Redis (to cut one off and bring it back
without touching the shared server)."""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import httpx

DEFAULT_POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Forked:
    """A forked child process, with the little of ``Popen``'s face the tests use."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(str(self.pid), timeout or 0)
            time.sleep(0.02)
        assert self.returncode is not None
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class Server:
    """One ``reussite serve`` process."""

    def __init__(self, db: str, log: Path, env: dict[str, str] | None = None,
                 port: int | None = None) -> None:
        self.db = db
        self.log = log
        self.env = env or {}
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: Forked | None = None

    def start(self, timeout: float = 90) -> Server:
        """Run ``reussite serve`` in a new process and wait until it answers.

        The process is forked from this one with the web modules already imported, then runs
        the command line exactly as ``reussite serve --port P --db URL`` would: the same code,
        without paying for the imports at every start (the fault tests start it many times).
        """
        import reussite.web.app  # noqa: F401  (imported once, before forking)

        pid = os.fork()
        if pid == 0:  # the child: become the server, never return into pytest
            code = 1
            try:
                fd = os.open(self.log, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
                os.dup2(fd, 1)
                os.dup2(fd, 2)
                os.environ.pop("REUSSITE_DATABASE_URL", None)
                os.environ.update(self.env)
                from reussite.cli import main

                code = main(["serve", "--port", str(self.port), "--db", self.db,
                             "--no-access-log"])
            finally:
                os._exit(code)
        self.proc = Forked(pid)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server stopped:\n{self.log.read_text()[-3000:]}")
            try:
                if httpx.get(f"{self.url}/api/catalogue", timeout=2).status_code == 200:
                    return self
            except httpx.TransportError:
                pass
            time.sleep(0.05)
        self.kill()
        raise RuntimeError("the server did not start in time")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, as if the machine lost power for this process."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None


DEFAULT_REDIS = ("127.0.0.1", 6379)


def redis_address() -> tuple[str, int] | None:
    """The Redis to test against (``REUSSITE_TEST_REDIS``, ``host:port``: then it must answer;
    else 127.0.0.1:6379 if it answers there, or None)."""
    wanted = os.environ.get("REUSSITE_TEST_REDIS")
    host, _, port = (wanted or "{}:{}".format(*DEFAULT_REDIS)).rpartition(":")
    try:
        with socket.create_connection((host, int(port)), timeout=2) as s:
            s.sendall(b"PING\r\n")
            if s.recv(16).startswith(b"+PONG"):
                return host, int(port)
    except OSError:
        pass
    if wanted:
        raise RuntimeError(f"REUSSITE_TEST_REDIS={wanted} does not answer")
    return None


def postgres_base() -> str | None:
    """The PostgreSQL to test against, or None when none answers and none was asked for."""
    url = os.environ.get("REUSSITE_TEST_POSTGRES")
    required = bool(url)
    url = url or DEFAULT_POSTGRES
    try:
        import sqlalchemy

        engine = sqlalchemy.create_engine(url)
        with engine.connect():
            pass
        engine.dispose()
    except Exception:
        if required:
            raise
        return None
    return url


@contextmanager
def postgres_schema(base: str, prefix: str) -> Iterator[str]:
    """A URL whose connections work in a fresh schema of their own, dropped afterwards."""
    import sqlalchemy

    schema = f"{prefix}_{secrets.token_hex(5)}"
    admin = sqlalchemy.create_engine(base)
    with admin.begin() as conn:
        conn.execute(sqlalchemy.text(f'CREATE SCHEMA "{schema}"'))
    sep = "&" if "?" in base else "?"
    try:
        yield f"{base}{sep}options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as conn:
            conn.execute(sqlalchemy.text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@contextmanager
def two_servers(folder: Path, prefix: str, env: dict[str, str] | None = None
                ) -> Iterator[tuple[Server, Server, str]]:
    """Two server processes on one PostgreSQL, in a fresh schema, and its URL (the caller
    has checked that a PostgreSQL answers: :func:`postgres_base`). Migrations run once, by
    the first process; the second finds the schema up to date."""
    base = postgres_base()
    assert base is not None
    with postgres_schema(base, prefix) as url:
        a = Server(url, folder / "a.log", env=env).start()
        b = Server(url, folder / "b.log", env=env)
        try:
            b.start()
            yield a, b, url
        finally:
            a.stop()
            b.stop()


class Relay:
    """A TCP relay on 127.0.0.1 to another address, that can be cut and restored.

    ``cut()`` closes the listening socket and every relayed connection (the server behind
    sees its database vanish); ``restore()`` listens again on the same port. ``freeze()``
    stops forwarding without closing anything, as a network partition does (connections
    are still accepted, nothing gets through); ``thaw()`` lets it all through again.
    """

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = free_port()
        self._listener: socket.socket | None = None
        self._conns: list[socket.socket] = []
        self._lock = threading.Lock()
        self._flowing = threading.Event()
        self._flowing.set()

    def freeze(self) -> None:
        self._flowing.clear()

    def thaw(self) -> None:
        self._flowing.set()

    def restore(self) -> None:
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", self.port))
        s.listen(64)
        self._listener = s
        threading.Thread(target=self._accept, args=(s,), daemon=True).start()

    def cut(self) -> None:
        self._flowing.set()  # the frozen pipes end with their sockets
        listener, self._listener = self._listener, None
        if listener is not None:
            with suppress(OSError):
                listener.shutdown(socket.SHUT_RDWR)
            listener.close()
        with self._lock:
            conns, self._conns = self._conns, []
        for c in conns:
            with suppress(OSError):
                c.shutdown(socket.SHUT_RDWR)
            c.close()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self._lock:
                self._conns += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                self._flowing.wait()
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
