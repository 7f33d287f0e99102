"""A game's time, the server's one definition: the spells between its changes, each at most
the idle cap, none while paused; what a view shows never shrinks later."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from webtools import new_game

from reussite.web import storage
from reussite.web.play import IDLE_CAP_MS

START = 1_900_000_000.0


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now

    def at(self, seconds: float) -> None:
        """Seconds since the game was dealt."""
        self.now = START + seconds


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    c = Clock()
    monkeypatch.setattr(storage, "clock", c)
    yield c


def post(client: TestClient, view: dict[str, Any], action: str, **body: Any) -> dict[str, Any]:
    r = client.post(f"/api/games/{view['id']}/{action}", json={"version": view["version"],
                                                                **body})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def stock(client: TestClient, view: dict[str, Any]) -> dict[str, Any]:
    return post(client, view, "moves", move={"type": "stock"})


def shown(view: dict[str, Any]) -> float:
    """The time a client shows as it gets ``view``."""
    return float(view["elapsed_seconds"] + view["idle_seconds"])


def test_each_spell_between_changes_counts(client: TestClient, clock: Clock) -> None:
    view = new_game(client, "klondike", 4)
    assert view["elapsed_seconds"] == 0 and view["idle_seconds"] == 0
    assert view["idle_cap_seconds"] == IDLE_CAP_MS / 1000 and not view["paused"]
    clock.at(30)
    view = stock(client, view)
    assert view["elapsed_seconds"] == 30 and view["idle_seconds"] == 0
    clock.at(42.5)
    seen = client.get(f"/api/games/{view['id']}").json()
    assert seen["elapsed_seconds"] == 30 and seen["idle_seconds"] == 12.5


def test_an_idle_spell_counts_up_to_the_cap_and_the_shown_time_never_shrinks(
        client: TestClient, clock: Clock) -> None:
    cap = IDLE_CAP_MS / 1000
    view = new_game(client, "klondike", 4)
    clock.at(30)
    view = stock(client, view)
    shows = []
    for t in (60, 150, 400, 1000):
        clock.at(t)
        seen = client.get(f"/api/games/{view['id']}").json()
        assert seen["idle_seconds"] == min(t - 30, cap)
        shows.append(shown(seen))
    clock.at(1030)
    view = stock(client, view)
    assert view["elapsed_seconds"] == 30 + cap
    shows.append(shown(view))
    assert shows == sorted(shows) and shows[-1] == shows[-2] == 30 + cap


def test_a_pause_counts_the_time_so_far_and_stops_the_clock(client: TestClient,
                                                              clock: Clock) -> None:
    view = new_game(client, "klondike", 4)
    clock.at(40)
    paused = post(client, view, "pause")
    assert paused["paused"] and paused["elapsed_seconds"] == 40 and paused["idle_seconds"] == 0
    assert paused["version"] == view["version"] + 1
    clock.at(900)
    seen = client.get(f"/api/games/{view['id']}").json()
    assert seen["paused"] and shown(seen) == 40
    again = post(client, seen, "pause")  # already paused: nothing changes
    assert again["version"] == seen["version"] and again["elapsed_seconds"] == 40
    resumed = post(client, again, "resume")
    assert not resumed["paused"] and resumed["elapsed_seconds"] == 40
    clock.at(910)
    view = stock(client, resumed)
    assert view["elapsed_seconds"] == 50 and not view["paused"]


def test_an_action_while_paused_adds_no_time_and_starts_the_clock(client: TestClient,
                                                                   clock: Clock) -> None:
    view = new_game(client, "klondike", 4)
    clock.at(20)
    view = post(client, view, "pause")
    clock.at(500)
    view = stock(client, view)
    assert view["elapsed_seconds"] == 20 and not view["paused"]
    clock.at(505)
    view = post(client, view, "undo")
    assert view["elapsed_seconds"] == 25


def test_a_won_games_time_has_its_pauses_left_out(client: TestClient, clock: Clock) -> None:
    """Statistics read the same time: the best time of a won game leaves its pause out."""
    from reussite.engine import Position
    from reussite.games import get_game
    from reussite.solver.search import solve

    pos = Position.deal(get_game("klondike"), 2393)
    result = solve(pos.copy(), time_limit=20)
    assert result.status == "won"
    view = new_game(client, "klondike", 2393)
    t = 0
    for i, move in enumerate(result.moves):
        if i == 10:
            view = post(client, view, "pause")
            t += 3000
            clock.at(t)
            view = post(client, view, "resume")
        t += 1
        clock.at(t)
        view = post(client, view, "moves", move=move.to_json())
    assert view["status"] == "won" and view["elapsed_seconds"] == len(result.moves)
    stats = {s["game"]: s for s in client.get("/api/stats").json()}
    assert stats["klondike"]["best_time_seconds"] == len(result.moves)


def test_pause_and_resume_answer_404_and_409_as_other_actions(client: TestClient) -> None:
    view = new_game(client, "klondike", 4)
    for action in ("pause", "resume"):
        r = client.post(f"/api/games/nope/{action}", json={"version": 0})
        assert r.status_code == 404
        r = client.post(f"/api/games/{view['id']}/{action}", json={"version": 7})
        assert r.status_code == 409
        r = client.post(f"/api/games/{view['id']}/{action}", json={})
        assert r.status_code == 422 and "version" in r.json()["detail"]
