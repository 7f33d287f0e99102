"""The site's pool of secret proven-winnable deals (reussite.web.pool): refilled with deals
the solver wins, each dealt once, and secret until the game is over."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from webtools import stored_number

from reussite.engine import Position
from reussite.games import get_game
from reussite.solver import solve
from reussite.web.play import Tables
from reussite.web.pool import pool_size, proven_winnable, refill
from reussite.web.storage import Store


@pytest.fixture
def store(tmp_path: object) -> Iterator[Store]:
    s = Store(f"sqlite:///{tmp_path}/pool.sqlite3")
    s.migrate()
    yield s
    s.dispose()


def test_the_pool_is_refilled_with_won_deals_each_dealt_once_and_kept_secret(
        store: Store) -> None:
    tried: list[int] = []

    def solver(game: str, number: int) -> bool:
        tried.append(number)
        return proven_winnable(game, number, seconds=5)

    assert refill(store, "klondike", 3, solver) == 3
    assert store.pool_count("klondike") == 3 and store.pool_count("spider") == 0
    assert refill(store, "klondike", 3, solver) == 0  # full: nothing tried
    won = [n for n in tried if solve(Position.deal(get_game("klondike"), n),
                                     time_limit=5).status == "won"]
    assert len(won) >= 3 and all(n >= 2**32 for n in tried[:3])  # drawn from 2**64

    t = Tables(store)
    dealt = []
    for k in range(3):
        out = t.new_game(f"p{k}", "klondike", None, winnable=True)
        assert out.row.origin == "winnable" and out.row.shown_number is None
        dealt.append(out.row.number)
    assert len(set(dealt)) == 3 and set(dealt) <= set(won)
    assert store.pool_count("klondike") == 0  # each retired as it was dealt
    # The pool empty: a deal of the public list, its number shown from the start.
    out = t.new_game("p9", "klondike", None, winnable=True)
    assert out.row.origin == "winnable" and out.row.shown_number is not None
    assert out.row.number not in dealt


def test_a_pooled_deal_is_dealt_once_through_the_api(client: object) -> None:
    from fastapi.testclient import TestClient

    assert isinstance(client, TestClient)
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    assert store.add_pooled("athena", 2**63 + 5) and not store.add_pooled("athena", 2**63 + 5)
    view = client.post("/api/games", json={"game": "athena", "winnable": True}).json()
    assert view["number"] is None and view["origin"] == "winnable"
    assert stored_number(client, view["id"]) == 2**63 + 5
    again = client.post("/api/games", json={"game": "athena", "winnable": True}).json()
    assert stored_number(client, again["id"]) != 2**63 + 5 and again["number"] is not None


def test_the_pool_size_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REUSSITE_WINNABLE_POOL", "0")
    assert pool_size() == 0
    monkeypatch.setenv("REUSSITE_WINNABLE_POOL", "many")
    with pytest.raises(ValueError, match="REUSSITE_WINNABLE_POOL"):
        pool_size()
