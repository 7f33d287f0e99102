"""The tests, in folders by layer: ``model`` (cards, deals, rules, engine, games), ``solver``,
``web`` (the application in process), ``system`` (real processes, the command line, load and
faults) and ``browser`` (Chromium). Every test of ``system`` and ``browser`` is marked slow, as
are the longer solver tests: ``make check-fast`` runs the rest.

Fixtures for the web tests: the application on SQLite and on PostgreSQL.

PostgreSQL: ``REUSSITE_TEST_POSTGRES`` (CI sets it; then the server must be reachable) or the
default local URL (skipped when nothing answers there). Each test session works in a schema
of its own, made at the start and dropped at the end, so parallel sessions never meet.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from serverproc import postgres_base, postgres_schema

# The rate limits (web/ratelimit.py) are speeds: a test that streams requests from one
# player, or from 127.0.0.1, would meet them on a fast machine and not on a slow one. Tests
# run without them, and every server they start inherits this; the tests of the limits set
# them themselves.
os.environ["REUSSITE_RATE_LIMIT"] = "off"
os.environ["REUSSITE_RATE_LIMIT_ADDRESS"] = "off"
# Likewise the sign-in codes tried per address (ten an hour): every test client is one address.
os.environ["REUSSITE_SIGN_IN_LIMIT"] = "off"
# Leaderboards read afresh for every request (the reuse of their shared part has its own test).
os.environ["REUSSITE_BOARD_SECONDS"] = "0"
# Likewise the hints' CPU budget (web/hintpool.py, on by default): whether a hint is searched
# or the quick one would depend on how many hints the same test process searched before and
# how fast; tests that compare two answers need the searched one every time. The budget's own
# test sets it.
os.environ["REUSSITE_HINT_CPU"] = "off"


SLOW_FOLDERS = ("system", "browser")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if Path(str(item.fspath)).parent.name in SLOW_FOLDERS:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A URL whose connections work in a fresh schema of their own."""
    base = postgres_base()
    if base is None:
        pytest.skip("no PostgreSQL on 127.0.0.1:5432 (set REUSSITE_TEST_POSTGRES)")
    with postgres_schema(base, "t") as url:
        yield url


@pytest.fixture(scope="session")
def sqlite_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    path: Path = tmp_path_factory.mktemp("db") / "reussite.sqlite3"
    return f"sqlite:///{path}"


@pytest.fixture(scope="session", params=["sqlite", pytest.param("postgres",
                                                                marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest) -> str:
    name = "sqlite_url" if request.param == "sqlite" else "postgres_url"
    url: str = request.getfixturevalue(name)
    return url


@pytest.fixture(scope="session")
def app(database_url: str) -> Iterator[FastAPI]:
    from reussite.web.app import create_app

    application = create_app(database_url)
    yield application
    application.state.store.dispose()


@pytest.fixture(scope="session")
def sqlite_app(sqlite_url: str) -> Iterator[FastAPI]:
    from reussite.web.app import create_app

    application = create_app(sqlite_url)
    yield application
    application.state.store.dispose()


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    """A new browser: a new anonymous player (a fresh cookie jar)."""
    with TestClient(app) as c:
        yield c


@pytest.fixture
def sqlite_client(sqlite_app: FastAPI) -> Iterator[TestClient]:
    with TestClient(sqlite_app) as c:
        yield c
