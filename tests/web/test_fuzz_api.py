"""Property-based fuzzing of the whole JSON API from its own OpenAPI document (schemathesis).

Every operation of ``/openapi.json`` gets generated requests, valid and invalid by the schema;
half of them aim at a real game of the calling player at its current version (so moves, undo,
redo and restart really run), the others at made-up ids. Every answer must be a documented
status with a body matching its documented model: above all, never a 500.
"""

from __future__ import annotations

import random
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings

EXAMPLES = 30
"""Examples per operation: bounded, so the whole file runs in well under a minute."""

NOT_CHECKED = [
    # That every schema-valid request is accepted: a move the rules refuse, an undo with
    # nothing to undo, a game id not in the catalogue are well-formed and still 422 by design
    # (docs/interfaces.md), with the rules' sentence.
    schemathesis.checks.positive_data_acceptance,
    # That an undeclared method gets 405: the edge answers every unsafe request before any
    # route, 403 when it comes from another site and 415 when a POST is not JSON, whatever
    # the path; test_hostile.py checks the 405 (with its Allow list) for the rest.
    schemathesis.checks.unsupported_method,
]


def make_app() -> tuple[FastAPI, Path]:
    """The site on a SQLite file of its own, without rate limits (the fuzzing is a flood)."""
    from reussite.web.app import create_app

    folder = Path(tempfile.mkdtemp(prefix="reussite-fuzz-"))
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("REUSSITE_RATE_LIMIT", "off")
        mp.setenv("REUSSITE_RATE_LIMIT_ADDRESS", "off")
        return create_app(f"sqlite:///{folder / 'games.sqlite3'}"), folder


# The schema is read when the module is collected, so the application is made then too.
APP, FOLDER = make_app()
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


@pytest.fixture(scope="module")
def fuzz_app() -> Iterator[FastAPI]:
    yield APP
    APP.state.store.dispose()
    shutil.rmtree(FOLDER, ignore_errors=True)


@pytest.fixture(scope="module")
def browser(fuzz_app: FastAPI) -> Iterator[TestClient]:
    """One player with games of their own, for the fuzzed requests to aim at."""
    from reussite.web import daily
    from reussite.web.days import daily_games, today

    for game in daily_games():  # as the site does at start: no request waits for them
        daily.prepare(fuzz_app.state.store, game, today())
    with TestClient(fuzz_app) as c:
        for game, number in (("klondike", 11), ("spider", 12), ("astrocyte", 13),
                             ("athena", 14)):
            assert c.post("/api/games", json={"game": game, "number": number}
                          ).status_code == 201
        yield c


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
def test_no_answer_breaks_its_documented_contract(case: Any, browser: TestClient) -> None:
    rng = random.Random(repr(case.body) + repr(case.path_parameters))
    cookie = browser.cookies.get("reussite_player")
    if case.path_parameters and "game_id" in case.path_parameters and rng.random() < 0.5:
        games = browser.get("/api/games").json()
        mine = rng.choice(games)
        case.path_parameters["game_id"] = mine["id"]
        version = case.body.get("version") if isinstance(case.body, dict) else None
        if type(version) is int and version >= 0 and rng.random() < 0.7:
            case.body["version"] = browser.get(f"/api/games/{mine['id']}").json()["version"]
    response = case.call_and_validate(cookies={"reussite_player": cookie},
                                      excluded_checks=NOT_CHECKED)
    assert response.status_code < 500, response.text


def test_the_fuzzed_games_are_still_whole(browser: TestClient) -> None:
    """After the fuzzing (whatever order it ran in), every game reads back consistently."""
    for g in browser.get("/api/games").json():
        view = browser.get(f"/api/games/{g['id']}").json()
        assert view["moves"] == g["moves"]
        r = browser.post(f"/api/games/{g['id']}/restart", json={"version": view["version"]})
        if view["ended"] in ("abandoned", "resigned") or view["sealed"]:
            assert r.status_code == 409  # over for good: no more actions
            continue
        assert r.status_code == 200 and r.json()["moves"] == 0
