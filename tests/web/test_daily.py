"""The daily deal (web/daily.py, docs/daily.md): one proven-winnable deal a day for each daily
game, keyed by the site's secret; its games, ranked the first time; the leaderboard's order,
ties and clean ranking; the day's end with a clock the test controls; on SQLite and on
PostgreSQL."""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import delete, insert

from reussite.engine import Position
from reussite.games import CATALOGUE, get_game
from reussite.web import daily, days
from reussite.web.play import Tables, decode_move, encode_move
from reussite.web.storage import Store, daily_deals, games

GAME = "klondike"


def a_day() -> str:
    """A day of its own for one test (the schema is shared by the session's tests)."""
    return (date(2200, 1, 1) + timedelta(days=secrets.randbelow(2_000_000 // 7))).isoformat()


def at(day: str, hour: int = 12) -> float:
    return datetime.fromisoformat(day).replace(hour=hour, tzinfo=UTC).timestamp()


@pytest.fixture
def day(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Today, for this test: a day of its own, at noon UTC."""
    d = a_day()
    monkeypatch.setattr(days, "clock", lambda: at(d))
    yield d


def store_of(app: FastAPI) -> Store:
    s: Store = app.state.store
    return s


def prepared(app: FastAPI, game: str, d: str) -> daily.Prepared:
    store = store_of(app)
    assert daily.prepare(store, game, d) in ("prepared", "ready")
    found = daily.stored(store, game, d)
    assert found is not None
    return found


def post_daily(client: TestClient, value: Any, game: str = GAME) -> Any:
    return client.post("/api/games", json={"game": game, "daily": value})


def play_line(client: TestClient, view: dict[str, Any], line: list[str]) -> dict[str, Any]:
    for text in line:
        r = client.post(f"/api/games/{view['id']}/moves",
                        json={"move": decode_move(text).to_json(), "version": view["version"]})
        assert r.status_code == 200, r.text
        view = r.json()
    return view


def board(client: TestClient, d: str, game: str = GAME) -> dict[str, Any]:
    r = client.get(f"/api/daily/{game}/{d}/leaderboard")
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


# ---------------------------------------------------------------------- the derivation


def test_the_days_deal_is_keyed_by_the_sites_secret_and_stable() -> None:
    """The deal of a day cannot be produced without the key (another key, another deal),
    and the same key always gives the same deal (pinned)."""
    n = daily.deal_number("key one", "klondike", "2026-01-31", 0)
    assert n == daily.deal_number("key one", "klondike", "2026-01-31", 0)
    assert n == 10_102_768_616_502_237_091  # pinned: the deals of past days never change
    assert daily.deal_number("key two", "klondike", "2026-01-31", 0) != n
    others = {daily.deal_number("key one", g, d, a)
              for g in ("klondike", "spider") for d in ("2026-01-31", "2026-02-01")
              for a in (0, 1)}
    assert len(others) == 8 and n in others
    assert all(0 <= x < 2**64 for x in others)


def test_the_daily_games_hide_cards_and_are_often_won() -> None:
    games_ = days.daily_games()
    assert "leap-year" not in games_ and "auld-lang-syne" not in games_
    assert {"klondike", "spider", "astrocyte", "athena"} <= set(games_)
    assert all(CATALOGUE[g].hides_cards for g in games_)


def test_every_prepared_daily_deal_replays_to_a_win(tmp_path: Path) -> None:
    """Two days of every daily game, prepared with a small budget: each stored line plays
    legally from the stored deal to a win."""
    store = Store(f"sqlite:///{tmp_path / 'daily.sqlite3'}")
    store.migrate()
    said: list[tuple[str, str, str]] = []
    counts = daily.prepare_days(store, "2026-03-01", 2, seconds=2.0,
                                said=lambda *a: said.append(a))
    assert counts["failed"] == 0 and counts["prepared"] == 2 * len(days.daily_games())
    for game in days.daily_games():
        for d in ("2026-03-01", "2026-03-02"):
            p = daily.stored(store, game, d)
            assert p is not None
            assert p.number == daily.deal_number(store.secret_key(), game, d, p.attempt)
            pos = Position.deal(get_game(game), p.number)
            for text in p.line:
                pos.play(decode_move(text))
            assert pos.is_won(), (game, d)
    again = daily.prepare_days(store, "2026-03-01", 2)
    assert again == {"ready": 2 * len(days.daily_games()), "prepared": 0, "failed": 0}
    store.dispose()


def test_a_deal_the_solver_does_not_win_is_skipped_for_the_next_attempt() -> None:
    def solver(game: str, number: int, seconds: float) -> list[str] | None:
        if number == daily.deal_number("k", game, "2026-01-01", 0):
            return None  # not won in budget
        win = daily.solver_line(game, number, seconds)
        return win

    found = daily.find_deal("k", "klondike", "2026-01-01", solver=solver, attempts=10)
    assert found is not None and found.attempt >= 1


def test_streaks_count_days_in_a_row() -> None:
    assert daily.streaks([], "2026-01-10") == (0, 0)
    assert daily.streaks(["2026-01-08", "2026-01-09"], "2026-01-10") == (2, 2)
    assert daily.streaks(["2026-01-09", "2026-01-10", "2026-01-10"], "2026-01-10") == (2, 2)
    assert daily.streaks(["2026-01-01", "2026-01-02", "2026-01-03", "2026-01-07"],
                         "2026-01-10") == (0, 3)


# ---------------------------------------------------------------------- games of the day


def test_a_missing_days_deal_answers_503_while_it_is_prepared(client: TestClient, app: FastAPI,
                                                              day: str) -> None:
    asked: list[tuple[str, str]] = []
    done = threading.Event()
    tables: Tables = app.state.tables
    asker = tables.prepare_daily
    assert isinstance(asker, daily.Asker)  # shared with the hot path's tables
    before = asker.submit

    def submit(g: str, d: str) -> None:
        asked.append((g, d))
        done.set()

    asker.submit = submit
    try:
        r = post_daily(client, True)
        assert done.wait(60)
        post_daily(client, True)  # asked once a minute at most
    finally:
        asker.submit = before
    assert r.status_code == 503, r.text
    assert r.headers["retry-after"] == "5"
    assert r.json()["detail"] == ("Today's deal of Klondike is being prepared; try again in a "
                                  "few seconds")
    assert asked == [(GAME, day)]
    fr = client.post("/api/games", json={"game": GAME, "daily": True},
                     headers={"accept-language": "fr"})
    assert fr.status_code == 503 and "Klondike" in fr.json()["detail"]
    assert fr.json()["detail"] != r.json()["detail"]


def test_todays_deal_is_ranked_once_and_its_number_stays_secret(client: TestClient,
                                                                app: FastAPI, day: str) -> None:
    p = prepared(app, GAME, day)
    r = post_daily(client, True)
    assert r.status_code == 201, r.text
    view = r.json()
    assert (view["daily"], view["origin"], view["ranked"], view["number"]) == \
        (day, "daily", True, None)
    won = play_line(client, view, p.line)
    assert won["status"] == "won" and won["number"] is None  # the day runs: still secret
    assert str(p.number) not in client.get(f"/api/games/{view['id']}").text
    listed = client.get("/api/games").json()
    assert all(g["number"] is None for g in listed if g["id"] == view["id"])
    history = client.get("/api/history").json()
    assert all(str(p.number) not in str(h) for h in history)
    analysis = client.post(f"/api/games/{view['id']}/analysis", json={})
    assert analysis.status_code == 409
    assert analysis.json()["detail"] == ("The analysis of a daily deal opens once its day is "
                                         "over")

    second = post_daily(client, day)  # the same day written out: a second try
    assert second.status_code == 201
    assert second.json()["ranked"] is False and second.json()["origin"] == "daily"
    play_line(client, second.json(), p.line)
    b = board(client, day)
    assert b["all"]["count"] == 1 and b["clean"]["count"] == 1
    (entry,) = b["all"]["entries"]
    assert entry["you"] and entry["rank"] == 1 and entry["moves"] == len(p.line)
    assert entry["name"].startswith("Player ") and b["all"]["you"] == entry
    assert b["number"] is None and b["line"] is None  # not before the day is over

    summary = client.get("/api/daily").json()
    assert summary["day"] == day and summary["seconds_left"] == 12 * 3600
    mine = next(g for g in summary["games"] if g["game"] == GAME)
    assert mine["played"] and mine["won"] and mine["ranked"]["won"]
    assert mine["ranked"]["moves"] == len(p.line)
    assert summary["streaks"]["current"] == 1 and summary["streaks"]["games"][GAME]["best"] == 1
    stats = client.get("/stats?lang=en", headers={"accept": "text/html"}).text
    assert 'class="daily-streaks"' in stats and f'data-daily-game="{GAME}"' in stats


def test_every_move_played_counts_undone_and_redone_ones(client: TestClient, app: FastAPI,
                                                         day: str) -> None:
    p = prepared(app, GAME, day)
    view = post_daily(client, True).json()
    view = play_line(client, view, p.line[:2])
    for action in ("undo", "undo", "redo"):
        r = client.post(f"/api/games/{view['id']}/{action}", json={"version": view["version"]})
        assert r.status_code == 200, r.text
        view = r.json()
    # 2 played, 2 undone, 1 redone: the rest of the line, from move 1, plays the win
    view = play_line(client, view, p.line[1:])
    assert view["status"] == "won" and view["moves"] == len(p.line)
    (entry,) = board(client, day)["all"]["entries"]
    assert entry["moves"] == 2 + 1 + len(p.line) - 1 and entry["used_undo"]
    assert board(client, day)["clean"]["count"] == 0


def test_the_day_turns_over_during_a_game(client: TestClient, app: FastAPI,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A game keeps the deal it started with and ranks on the day it started; the next day
    deals the next day's deal, and the day that ended shows its number."""
    d = a_day()
    nxt = days.next_day(d)
    monkeypatch.setattr(days, "clock", lambda: at(d, 23))
    p = prepared(app, GAME, d)
    prepared(app, GAME, nxt)
    view = post_daily(client, True).json()
    view = play_line(client, view, p.line[:3])
    monkeypatch.setattr(days, "clock", lambda: at(nxt, 0))
    won = play_line(client, view, p.line[3:])
    assert won["status"] == "won" and won["daily"] == d and won["number"] == p.number
    assert [e["you"] for e in board(client, d)["all"]["entries"]] == [True]
    over = board(client, d)
    assert over["over"] and over["number"] == p.number
    assert [decode_move_json(m) for m in over["line"]] == p.line
    today_ = post_daily(client, True).json()
    assert today_["daily"] == nxt and today_["ranked"] and today_["number"] is None
    practice = post_daily(client, d).json()
    assert (practice["origin"], practice["ranked"], practice["number"]) == \
        ("practice", False, p.number)
    play_line(client, practice, p.line)
    assert board(client, d)["all"]["count"] == 1
    assert client.post(f"/api/games/{view['id']}/analysis", json={}).status_code in (200, 202)


def decode_move_json(m: dict[str, Any]) -> str:
    if m["type"] == "stock":
        return "stock"
    return f"{m['from']} {m['to']} {m.get('count', 1)}"


def test_a_future_day_and_bad_days_are_refused(client: TestClient, day: str) -> None:
    future = days.next_day(day)
    for value, words in ((future, "before its day"), ("2026-02-30", "not a date"),
                         ("tomorrow", "YYYY-MM-DD"), ("2026-1-01", "YYYY-MM-DD")):
        r = post_daily(client, value)
        assert r.status_code == 422 and words in r.json()["detail"], (value, r.text)
    r = client.get(f"/api/daily/{GAME}/{future}/leaderboard")
    assert r.status_code == 422 and "before its day" in r.json()["detail"]
    r = client.get(f"/api/daily/{GAME}/2026-13-01/leaderboard")
    assert r.status_code == 422 and "not a date" in r.json()["detail"]
    for body in ({"game": GAME, "daily": True, "number": 3},
                 {"game": GAME, "daily": True, "winnable": True},
                 {"game": GAME, "daily": 1}):
        r = client.post("/api/games", json=body)
        assert r.status_code == 422, (body, r.text)
    old = days.next_day(day, -31)  # never prepared, and too old to be prepared now
    r = post_daily(client, old)
    assert r.status_code == 422 and r.json()["detail"] == "There is no daily deal of that day"
    r = post_daily(client, "1999-12-31")
    assert r.status_code == 422 and "start on 2000-01-01" in r.json()["detail"]
    r = post_daily(client, True, game="leap-year")
    assert r.status_code == 422 and r.json()["detail"] == "This game has no daily deal"
    r = client.get(f"/api/daily/leap-year/{day}/leaderboard")
    assert r.status_code == 422
    assert client.get(f"/api/daily/nonsense/{day}/leaderboard").status_code == 422


def test_a_numbered_win_of_the_same_deal_never_ranks(client: TestClient, app: FastAPI,
                                                     day: str) -> None:
    p = prepared(app, GAME, day)
    r = client.post("/api/games", json={"game": GAME, "number": p.number})
    assert r.status_code == 201
    won = play_line(client, r.json(), p.line)
    assert won["status"] == "won" and won["origin"] == "number" and not won["ranked"]
    assert board(client, day)["all"]["count"] == 0


# ---------------------------------------------------------------------- the leaderboard


def add_win(store: Store, player: str, d: str, played: int, ms: int, *, at_ms: int,
            undo: bool = False, hint: bool = False, is_ranked: bool = True,
            game: str = GAME) -> None:
    with store.engine.begin() as conn:
        conn.execute(insert(games).values(
            id=secrets.token_urlsafe(12), player_id=player, game=game, number="1",
            version=1, cursor=1, length=1, status="won", used_undo=undo, used_hint=hint,
            elapsed_ms=ms, created_at=at_ms, updated_at=at_ms, won_at=at_ms, won_moves=played,
            won_ms=ms, won_used_undo=undo, won_used_hint=hint, origin="daily", secret=True,
            ended="won", played=played, won_played=played, daily=d, ranked=is_ranked))


def test_the_leaderboard_ranks_moves_then_time_then_the_earliest_win(
        client: TestClient, app: FastAPI, day: str) -> None:
    store = store_of(app)
    me = client.get("/api/daily")  # the client's player cookie
    assert me.status_code == 200
    tag = secrets.token_hex(3)
    add_win(store, f"a{tag}", day, 90, 60_000, at_ms=3)
    add_win(store, f"b{tag}", day, 80, 90_000, at_ms=2)
    add_win(store, f"g{tag}", day, 80, 90_900, at_ms=1)  # the same second as b: a tie
    add_win(store, f"c{tag}", day, 80, 70_000, at_ms=5, undo=True)
    add_win(store, f"d{tag}", day, 80, 70_000, at_ms=4, hint=True)  # a tie with c, earlier
    add_win(store, f"e{tag}", day, 70, 99_000, at_ms=9, is_ranked=False)  # a second try
    add_win(store, f"f{tag}", day, 10, 1_000, at_ms=1, game="spider")  # another game
    b = board(client, day)
    got = [(e["rank"], e["moves"], e["seconds"]) for e in b["all"]["entries"]]
    assert got == [(1, 80, 70.0), (1, 80, 70.0), (3, 80, 90.0), (3, 80, 90.9), (5, 90, 60.0)]
    assert [e["used_hint"] for e in b["all"]["entries"][:2]] == [True, False]  # earliest first
    assert [(e["rank"], e["moves"]) for e in b["clean"]["entries"]] == \
        [(1, 80), (1, 80), (3, 90)]
    assert b["all"]["you"] is None and b["all"]["count"] == 5
    names = [e["name"] for e in b["all"]["entries"]]
    assert len(set(names)) == 5 and all(tag not in n for n in names)
    with store.engine.begin() as conn:
        conn.execute(delete(games).where(games.c.daily == day))


def test_your_rank_is_given_outside_the_top_100(client: TestClient, app: FastAPI,
                                                day: str) -> None:
    store = store_of(app)
    view = post_daily_after_prepare(client, app, day)
    tag = secrets.token_hex(3)
    for i in range(105):
        add_win(store, f"p{i}-{tag}", day, 5 + i // 2, 1000, at_ms=i)
    p = daily.stored(store, GAME, day)
    assert p is not None
    play_line(client, view, p.line)
    b = board(client, day)
    assert len(b["all"]["entries"]) == 100 and b["all"]["count"] == 106
    assert not any(e["you"] for e in b["all"]["entries"])
    you = b["all"]["you"]
    assert you["you"] and you["moves"] == len(p.line)
    better = sum(1 for i in range(105) if 5 + i // 2 < len(p.line))
    assert you["rank"] == better + 1
    with store.engine.begin() as conn:
        conn.execute(delete(games).where(games.c.daily == day))
        conn.execute(delete(daily_deals).where(daily_deals.c.day == day))


def post_daily_after_prepare(client: TestClient, app: FastAPI, d: str) -> dict[str, Any]:
    prepared(app, GAME, d)
    r = post_daily(client, True)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def test_the_board_shows_chosen_names_and_anonymous_ones_in_the_language(
        client: TestClient, app: FastAPI, day: str) -> None:
    """A player is shown by the name it chose, else by an anonymous name in the reader's
    language, never by its id."""
    store = store_of(app)
    tag = secrets.token_hex(3)
    add_win(store, f"anon{tag}", day, 60, 1000, at_ms=1)
    assert client.put("/api/me", json={"name": "Élodie <3"}).status_code == 200
    p = prepared(app, GAME, day)
    play_line(client, post_daily(client, True).json(), p.line)
    entries = board(client, day)["all"]["entries"]
    names = {e["you"]: e["name"] for e in entries}
    assert names[True] == "Élodie <3"
    assert names[False].startswith("Player ") and tag not in names[False]
    # Only a chosen name can be reported: the board says which are.
    assert {e["you"]: e["chosen"] for e in entries} == {True: True, False: False}
    ru = client.get(f"/api/daily/{GAME}/{day}/leaderboard", headers={"accept-language": "ru"})
    assert any(e["name"].startswith("Игрок ") for e in ru.json()["all"]["entries"])
    with store.engine.begin() as conn:
        conn.execute(delete(games).where(games.c.daily == day))


def test_the_same_moves_encode_the_solvers_line() -> None:
    """The stored line is written as the moves table writes moves."""
    line = daily.solver_line(GAME, 2, 5.0)
    assert line is not None
    assert [encode_move(decode_move(m)) for m in line] == line


# ---------------------------------------------------------------------- PostgreSQL's plan


def plan_nodes(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield node
    for child in node.get("Plans", ()):
        yield from plan_nodes(child)


_COLUMNS = ("id, player_id, game, number, version, cursor, length, status, used_undo, "
            "used_hint, elapsed_ms, created_at, updated_at, won_at, won_moves, won_ms, "
            "won_used_undo, won_used_hint, origin, secret, ended, played, won_played, daily, "
            "ranked")


@pytest.mark.postgres
def test_the_leaderboard_is_read_through_its_index_in_postgresqls_plan(
        postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """5,000 ranked wins of one day among 100,000 daily games of other days: after ANALYZE,
    the board's top, its clean top and its counts (with a player's rank) are read through the
    leaderboard's partial indexes, never by a scan of the table."""
    import json

    from sqlalchemy import text

    # Writing 105,000 rows is the setting up, not what is measured: no 5 s deadline on it
    # (on a busy machine it takes longer).
    monkeypatch.setenv("REUSSITE_DB_DEADLINE", "300")
    store = Store(postgres_url)
    store.migrate()
    tag = secrets.token_hex(4)
    d = a_day()
    try:
        with store.engine.begin() as conn:
            conn.execute(text(
                f"INSERT INTO games ({_COLUMNS}) SELECT 'lb' || g || :t, 'lbp' || g || :t, "
                "'klondike', '1', 1, 1, 1, 'won', g % 3 = 0, g % 5 = 0, 1000 + g, g, g, g, "
                "100, 1000 + g % 977, g % 3 = 0, g % 5 = 0, 'daily', true, 'won', "
                "100 + g % 50, 100 + g % 50, :day, true FROM generate_series(1, 5000) AS g"),
                {"t": tag, "day": d})
            conn.execute(text(
                f"INSERT INTO games ({_COLUMNS}) SELECT 'lo' || g || :t, 'lop' || g || :t, "
                "'klondike', '1', 1, 1, 1, 'won', false, false, 1000, g, g, g, 100, 1000, "
                "false, false, 'daily', true, 'won', 100, 100, "
                "'2301-01-' || lpad((g % 28 + 1)::text, 2, '0'), true "
                "FROM generate_series(1, 100000) AS g"), {"t": tag})
            conn.execute(text("ANALYZE games"))
            plans = []
            me = f"lbp777{tag}"
            mine = daily.before_query(GAME, d, SimpleNamespace(won_played=127, won_ms=1777))
            for stmt in (daily.board_query(GAME, d, False), daily.board_query(GAME, d, True),
                         daily.counts_query(GAME, d), mine):
                sql = stmt.compile(dialect=conn.dialect, compile_kwargs={"literal_binds": True})
                plan = conn.execute(text(f"EXPLAIN (ANALYZE, FORMAT JSON) {sql}")).scalar_one()
                plans.append(json.loads(plan) if isinstance(plan, str) else plan)
        top = store_board(store, d, me)
    finally:
        with store.engine.begin() as conn:
            conn.execute(text("DELETE FROM games WHERE id LIKE 'lb%' || :t OR id LIKE 'lo%' || :t"),
                         {"t": tag})
        store.dispose()
    for i, (plan, index) in enumerate(zip(plans, ("ix_games_daily_board",
                                                  "ix_games_daily_clean",
                                                  "ix_games_daily_board",
                                                  "ix_games_daily_board"), strict=True)):
        nodes = list(plan_nodes(plan[0]["Plan"]))
        kinds = {n["Node Type"] for n in nodes}
        assert "Seq Scan" not in kinds, nodes
        if i < 2:  # the tops are read in the index's order: no sort, the LIMIT stops early
            assert "Sort" not in kinds and kinds & {"Index Scan", "Index Only Scan"}, nodes
        assert {n["Index Name"] for n in nodes if "Index Name" in n} == {index}, nodes
    assert top["all"]["count"] == 5_000 and len(top["all"]["entries"]) == 100
    assert top["all"]["you"]["rank"] > 100


def store_board(store: Store, d: str, me: str) -> dict[str, Any]:
    return daily.leaderboard(store, GAME, d, me)


def test_forgetting_the_statistics_does_not_make_a_second_try_ranked(
        client: TestClient, app: FastAPI, day: str) -> None:
    p = prepared(app, GAME, day)
    view = post_daily(client, True).json()
    play_line(client, view, p.line)
    assert client.delete("/api/stats").status_code == 200
    again = post_daily(client, True).json()
    assert again["ranked"] is False
    assert board(client, day)["all"]["count"] == 1


# ---------------------------------------------------------------------- the pages


def test_the_daily_pages(client: TestClient, app: FastAPI, day: str) -> None:
    prepared(app, GAME, day)
    for lang, words in (("en", "Daily deals"), ("fr", "Donnes du jour"),
                        ("ru", "Расклады дня")):
        r = client.get("/daily", params={"lang": lang}, headers={"accept": "text/html"})
        assert r.status_code == 200 and words in r.text
        assert f'href="/daily/{GAME}/{day}"' in r.text
        assert "leap-year" not in r.text
        home = client.get("/", params={"lang": lang})
        assert 'href="/daily"' in home.text
    page = client.get(f"/daily/{GAME}/{day}?lang=en", headers={"accept": "text/html"})
    assert page.status_code == 200
    assert f'data-daily="{day}"' in page.text and 'class="daily-board"' in page.text
    assert "is ranked" in page.text and "Practice" not in page.text
    past = client.get(f"/daily/{GAME}/{days.next_day(day, -3)}")
    assert past.status_code == 200 and "Practice, not ranked." in past.text
    for path in (f"/daily/{GAME}/{days.next_day(day)}", f"/daily/{GAME}/2026-02-30",
                 f"/daily/leap-year/{day}", f"/daily/nonsense/{day}"):
        r = client.get(path, headers={"accept": "text/html"})
        assert r.status_code == 404, path


def test_the_cleanup_keeps_the_daily_wins(tmp_path: Path) -> None:
    """Beyond a player's history of a game the cleanup removes ended games, but never a daily
    win: the leaderboards and the streaks are read from them."""
    from sqlalchemy import func, select

    from reussite.web.cleanup import cleanup

    store = Store(f"sqlite:///{tmp_path / 'clean.sqlite3'}")
    store.migrate()
    for i in range(4):
        add_win(store, "keeper", f"2200-01-0{i + 1}", 50, 1000, at_ms=i + 1)
    t = Tables(store)
    for i in range(3):  # three numbered games won... as far as the cleanup knows: ended
        row = t.new_game("keeper", GAME, i).row
        with store.engine.begin() as conn:
            conn.execute(games.update().where(games.c.id == row.id).values(
                ended="won", status="won", updated_at=100 + i))
    assert cleanup(store, keep=1) == 2
    with store.engine.connect() as conn:
        left = conn.execute(select(games.c.origin, func.count()).group_by(
            games.c.origin)).all()
    assert sorted(left) == [("daily", 4), ("number", 1)]
    store.dispose()


def test_a_fake_now_moves_the_days_of_a_test_server(monkeypatch: pytest.MonkeyPatch) -> None:
    """REUSSITE_FAKE_NOW (a test aid) starts a process's days at that moment."""
    monkeypatch.setenv("REUSSITE_FAKE_NOW", "2031-07-04T23:59:00")
    clock = days._real_clock()
    monkeypatch.setattr(days, "clock", clock)
    assert days.today() in ("2031-07-04", "2031-07-05")  # the real time runs on from it
    assert days.seconds_left() <= 61 or days.today() == "2031-07-05"
    monkeypatch.delenv("REUSSITE_FAKE_NOW")
    assert days._real_clock()() == pytest.approx(datetime.now(UTC).timestamp(), abs=5)


def test_one_ranked_game_per_player_game_and_day_whatever_the_race(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The unique partial index refuses a second ranked game of a player's day; a deal that
    lost that race (both saw no earlier game) is dealt again, as a second try."""
    from sqlalchemy.exc import IntegrityError

    from reussite.web.storage import DAILY_BEFORE

    store = Store(f"sqlite:///{tmp_path / 'race.sqlite3'}")
    store.migrate()
    add_win(store, "racer", "2200-02-02", 10, 1000, at_ms=1)
    with pytest.raises(IntegrityError):
        add_win(store, "racer", "2200-02-02", 12, 1000, at_ms=2)
    add_win(store, "racer", "2200-02-02", 12, 1000, at_ms=2, is_ranked=False)
    # The race: the first look for an earlier game finds none (the other request's game not
    # committed yet), so the insert meets the index and the deal is made again.
    d = "2200-02-03"
    monkeypatch.setattr(days, "clock", lambda: at(d))
    assert daily.prepare(store, GAME, d) in ("prepared", "ready")
    t = Tables(store)
    first = t.new_game("racer2", GAME, None, daily=d).row
    assert first.ranked
    looks = {"n": 0}
    real = store._transaction

    def blind(writes: Any) -> Any:
        def without_earlier(execute: Any, query: Any) -> Any:
            def q(stmt: Any, params: Any) -> Any:
                if stmt is DAILY_BEFORE and looks["n"] == 0:
                    looks["n"] += 1
                    return []
                return query(stmt, params)
            return writes(execute, q)
        return real(without_earlier)

    monkeypatch.setattr(store, "_transaction", blind)
    second = t.new_game("racer2", GAME, None, daily=d).row
    assert looks["n"] == 1 and not second.ranked and second.origin == "daily"
    store.dispose()


def test_a_process_reuses_a_boards_shared_part_but_reads_your_own_entry_afresh(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Within REUSSITE_BOARD_SECONDS a process shows the tops and counts it read (a crowd of
    readers costs one read of them, not one each); the caller's own win and rank are read
    for each request, so a player who just won sees its place at once; after that time the
    board is read again."""
    monkeypatch.setenv("REUSSITE_BOARD_SECONDS", "60")
    now = [1000.0]
    monkeypatch.setattr(daily, "clock", lambda: now[0])
    monkeypatch.setattr(daily, "_shared", {})
    store = Store(f"sqlite:///{tmp_path / 'boards.sqlite3'}")
    store.migrate()
    d = a_day()
    add_win(store, "first", d, 100, 60_000, at_ms=1)
    assert store_board(store, d, "first")["all"]["count"] == 1
    add_win(store, "second", d, 90, 50_000, at_ms=2)  # better than the first
    seen = store_board(store, d, "second")
    assert seen["all"]["count"] == 1 and len(seen["all"]["entries"]) == 1  # the shared part
    assert seen["all"]["you"]["rank"] == 1 and seen["all"]["you"]["you"]  # its own, afresh
    assert store_board(store, d, "first")["all"]["entries"][0]["you"]  # you marked per reader
    now[0] += 61
    fresh = store_board(store, d, "first")
    assert fresh["all"]["count"] == 2
    assert [e["moves"] for e in fresh["all"]["entries"]] == [90, 100]
    assert fresh["all"]["you"]["rank"] == 2 and fresh["all"]["entries"][1]["you"]
    store.dispose()


def test_the_reuse_of_boards_is_a_setting_checked_at_start(
        monkeypatch: pytest.MonkeyPatch) -> None:
    for bad in ("soon", "-1", "4000"):
        monkeypatch.setenv("REUSSITE_BOARD_SECONDS", bad)
        with pytest.raises(ValueError, match="REUSSITE_BOARD_SECONDS"):
            daily.board_seconds()
