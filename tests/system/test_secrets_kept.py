"""Secrets kept: over every game and every endpoint, no answer carries a face-down card or the
order of the stock.

The server's own position (replayed here move for move) says which cards lie face down and
where. Every answer is checked against it:
- in a view, every place where a face-down card lies holds exactly ``{"card": null, "up":
  false}``, nothing more (no extra field that could stand for the card);
- no card code and no card name appears more often in the text than that card lies face up
  (so a face-down card is named nowhere: not in an event, an error sentence, a hint, a page);
- no run of three or more face-down cards of a pile appears in order (or reversed) as numbers
  anywhere in a JSON answer (the engine's integer form of the stock's order);
- a hint is the same whatever the face-down cards are (it is computed from what is seen).
Endpoints: new game, view, move, undo, redo, restart, hint, refusals (409, 422),
the list of games, the statistics, the analysis (refused while the game is in play), and the
HTML pages in three languages.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from reussite.cards import RANKS, SUITS, UP, card_code, rank_of, suit_of
from reussite.deals import number_from
from reussite.engine import Move, Position
from reussite.games import CATALOGUE, get_game
from reussite.solver.hints import suggest_move

ACTIONS = 30
# A code standing alone (not inside a word, a number or a game id, which are [A-Za-z0-9_-]).
CODE = re.compile(rf"(?<![A-Za-z0-9_-])([{RANKS}][{SUITS}])(?![A-Za-z0-9_-])")
NAME = re.compile(r"\b(?:ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king)"
                  r" of (?:spades|hearts|diamonds|clubs)\b", re.IGNORECASE)


@pytest.fixture(scope="module")
def secret_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FastAPI]:
    from reussite.web.app import create_app

    path: Path = tmp_path_factory.mktemp("secrets") / "games.sqlite3"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("REUSSITE_RATE_LIMIT", "off")
        app = create_app(f"sqlite:///{path}")
    yield app
    app.state.store.dispose()


RANK_WORDS = ("", "ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
              "jack", "queen", "king")
SUIT_WORDS = ("spades", "hearts", "diamonds", "clubs")


def card_name(value: int) -> str:
    """A card in English words ("seven of hearts"), as a leak in a sentence would name it."""
    return f"{RANK_WORDS[rank_of(value)]} of {SUIT_WORDS[suit_of(value)]}"


def face_up_counts(pos: Position) -> tuple[dict[str, int], dict[str, int]]:
    codes: dict[str, int] = {}
    names: dict[str, int] = {}
    for pile in pos.piles:
        for c in pile:
            if c & UP:
                codes[card_code(c)] = codes.get(card_code(c), 0) + 1
                names[card_name(c)] = names.get(card_name(c), 0) + 1
    return codes, names


def hidden_runs(pos: Position) -> list[list[int]]:
    """Runs of three face-down cards lying in a row in a pile, as the engine's integers."""
    runs = []
    for pile in pos.piles:
        down = [c for c in pile if not c & UP]
        for i in range(len(down) - 2):
            run = down[i:i + 3]
            runs += [run, run[::-1]]
    return runs


def int_lists(data: Any) -> Iterator[list[int]]:
    if isinstance(data, list):
        ints = [x for x in data if type(x) is int]
        if len(ints) >= 3:
            yield ints
        for x in data:
            yield from int_lists(x)
    elif isinstance(data, dict):
        for x in data.values():
            yield from int_lists(x)


def contains_run(ints: list[int], run: list[int]) -> bool:
    return any(ints[i:i + 3] == run for i in range(len(ints) - 2))


def check(r: httpx.Response, pos: Position) -> None:
    """Nothing in this answer tells a face-down card of ``pos``."""
    assert r.status_code < 500, r.text
    text = r.text
    codes, names = face_up_counts(pos)
    for table, found in ((codes, CODE.findall(text)), (names, NAME.findall(text))):
        seen: dict[str, int] = {}
        for x in found:
            seen[x.lower()] = seen.get(x.lower(), 0) + 1
        for x, n in seen.items():
            up = sum(v for k, v in table.items() if k.lower() == x)
            assert n <= up, f"{x!r} appears {n} times in {r.url}, {up} face up"
    if not r.headers.get("content-type", "").startswith("application/json"):
        return
    data = r.json()
    runs = hidden_runs(pos)
    for ints in int_lists(data):
        for run in runs:
            assert not contains_run(ints, run), f"a face-down run {run} in {r.url}"
    if isinstance(data, dict) and "piles" in data:
        for pid, i in pos.layout.index.items():
            shown = data["piles"][pid]
            assert len(shown) == len(pos.piles[i])
            for entry, c in zip(shown, pos.piles[i], strict=True):
                if c & UP:
                    assert entry == {"card": card_code(c), "up": True}
                else:
                    assert entry == {"card": None, "up": False}


def with_hidden_shuffled(pos: Position, rng: random.Random) -> Position:
    """The same game as the player saw it, the face-down cards it never saw dealt otherwise.

    (A card seen face up and turned down again, as a waste turned over into the stock, is
    known to the player and stays where it is: the game's every view, from the deal on, is
    the same for both.)
    """
    from reussite.observation import UNKNOWN, Memory

    known = Memory.of(pos).known
    other = pos.copy()
    places = [(i, j) for i, p in enumerate(other.piles) for j, c in enumerate(p)
              if not c & UP and known[i][j] == UNKNOWN]
    values = [other.piles[i][j] for i, j in places]
    rng.shuffle(values)
    for (i, j), v in zip(places, values, strict=True):
        other.piles[i][j] = v
    return other


@pytest.mark.parametrize("game", list(CATALOGUE))
def test_no_answer_tells_a_face_down_card(secret_app: FastAPI, game: str) -> None:
    rng = random.Random(game)
    rules = get_game(game)
    number = number_from(rng.randrange(10**9), rules.numbers)
    pos = Position.deal(rules, number)
    # FreeCell and Baker's Dozen deal every card face up: nothing to keep, the test plays on.
    assert any(not c & UP for p in pos.piles for c in p) == rules.hides_cards
    with TestClient(secret_app) as c:
        r = c.post("/api/games", json={"game": game, "number": number})
        check(r, pos)
        view = r.json()
        gid = view["id"]
        redo: list[Move] = []
        for _ in range(ACTIONS):
            roll = rng.random()
            v = view["version"]
            if view["legal_moves"] and roll < 0.6:
                move = Move.from_json(rng.choice(view["legal_moves"]))
                r = c.post(f"/api/games/{gid}/moves", json={"move": move.to_json(),
                                                            "version": v})
                pos.play(move)
                redo.clear()
            elif roll < 0.72 and pos.history:
                r = c.post(f"/api/games/{gid}/undo", json={"version": v})
                redo.append(pos.pop())
            elif roll < 0.8 and redo:
                r = c.post(f"/api/games/{gid}/redo", json={"version": v})
                pos.play(redo.pop())
            elif roll < 0.84:
                r = c.post(f"/api/games/{gid}/restart", json={"version": v})
                while pos.history:
                    redo.append(pos.pop())
            else:
                h = c.get(f"/api/games/{gid}/hint")
                check(h, pos)
                # The hint would be the same with other cards face down (the search bounded
                # by states, not by time, so that two runs are comparable).
                budget: dict[str, Any] = dict(time_limit=None, samples=2,
                                              states_per_sample=200)
                mine = suggest_move(pos, **budget)
                assert suggest_move(with_hidden_shuffled(pos, rng), **budget) == mine
                r = c.get(f"/api/games/{gid}")
            assert r.status_code == 200, r.text
            check(r, pos)
            view = r.json()
            # Refusals: a stale version, an illegal move of a whole pile (face-down cards
            # included), an unknown pile, nothing to redo.
            check(c.post(f"/api/games/{gid}/undo", json={"version": v + 100}), pos)
            for pid, i in pos.layout.index.items():
                if pos.piles[i] and not pos.piles[i][0] & UP:
                    bad = {"type": "move", "from": pid, "to": "foundation:0",
                           "count": len(pos.piles[i])}
                    check(c.post(f"/api/games/{gid}/moves",
                                 json={"move": bad, "version": view["version"]}), pos)
                    break
        check(c.post(f"/api/games/{gid}/moves", json={"move": {
            "type": "move", "from": "tableau:0", "to": "tableau:0", "count": 1},
            "version": view["version"]}), pos)
        if not view["can_redo"]:
            check(c.post(f"/api/games/{gid}/redo", json={"version": view["version"]}), pos)
        check(c.get("/api/games"), pos)
        check(c.get("/api/stats"), pos)
        if c.get(f"/api/games/{gid}").json()["status"] == "playing":
            # The analysis shows every card: while the game is in play it is refused, and the
            # refusal tells nothing.
            for r in (c.post(f"/api/games/{gid}/analysis", json={}),
                      c.get(f"/api/games/{gid}/analysis"),
                      c.get(f"/api/games/{gid}/analysis/position",
                            params={"line": "player", "at": 0}),
                      c.get(f"/api/games/{gid}/analysis/position",
                            params={"line": "win", "at": 1, "from": 0})):
                assert r.status_code == 409, r.text
                check(r, pos)
        for lang in ("en", "fr", "ru"):
            for page in ("/", f"/games/{game}", "/stats"):
                check(c.get(page, params={"lang": lang}, headers={"accept": "text/html"}),
                      pos)


def test_the_deal_json_and_the_first_view_agree_on_what_is_hidden(secret_app: FastAPI) -> None:
    """A new game's view is the full deal with every face-down entry blanked, in every game,
    and no card that lies only face down is named in it."""
    with TestClient(secret_app) as c:
        for i, game in enumerate(CATALOGUE):
            number = 500 + i
            full = Position.deal(get_game(game), number).to_json()
            r = c.post("/api/games", json={"game": game, "number": number})
            view = r.json()
            for pid, pile in full["piles"].items():
                assert len(view["piles"][pid]) == len(pile)
                for shown, entry in zip(view["piles"][pid], pile, strict=True):
                    assert shown == (entry if entry["up"] else {"card": None, "up": False})
            hidden = {e["card"] for p in full["piles"].values() for e in p if not e["up"]}
            up = {e["card"] for p in full["piles"].values() for e in p if e["up"]}
            # every game that hides cards deals some face down (FreeCell, Baker's Dozen: none)
            assert bool(hidden - up) == get_game(game).hides_cards, game
            assert not any(f'"{code}"' in r.text for code in hidden - up)
        assert len(c.get("/api/stats").json()) == len(CATALOGUE)


@pytest.mark.parametrize("leak", ["full", "name", "stock-ints", "extra-field"])
def test_the_check_catches_each_kind_of_leak(leak: str) -> None:
    """The checker above is not blind: each way of telling a hidden card is caught."""
    pos = Position.deal(get_game("klondike"), 12)
    view: dict[str, Any] = {"piles": pos.player_view()}
    stock = pos.piles[pos.layout.index["stock"]]
    if leak == "full":
        view = pos.to_json()
    elif leak == "name":
        view["events"] = [{"type": "flip", "text": card_name(stock[5])}]
    elif leak == "stock-ints":
        view["debug"] = [c for c in stock[4:9]]
    else:
        view["piles"]["stock"][3]["id"] = stock[3]
    r = httpx.Response(200, json=view, request=httpx.Request("GET", "http://t/api/games/x"))
    with pytest.raises(AssertionError):
        check(r, pos)
    check(httpx.Response(200, json={"piles": pos.player_view()},
                         request=httpx.Request("GET", "http://t/api/games/x")), pos)


def deal_number_told(r: httpx.Response, number: int) -> bool:
    text = r.text + " ".join(f"{k}: {v}" for k, v in r.headers.items())
    return str(number) in text


@pytest.mark.parametrize("game", ["klondike", "spider", "astrocyte"])
def test_a_deal_the_site_chose_tells_its_number_nowhere_until_the_game_is_over(
        secret_app: FastAPI, game: str) -> None:
    """Its number (drawn from 2**64: the opening cannot be matched against a list) is in no
    view, answer, list, address or page while it is in play; once over, the view has it."""
    from webtools import stored_number

    rng = random.Random(game)
    with TestClient(secret_app) as c:
        r = c.post("/api/games", json={"game": game})
        view = r.json()
        gid = view["id"]
        number = stored_number(c, gid)
        assert len(str(number)) >= 10  # below 10**9 once in 20 billion draws
        answers = [r]
        for _ in range(40):
            if view["legal_moves"] and rng.random() < 0.8:
                r = c.post(f"/api/games/{gid}/moves", json={
                    "move": rng.choice(view["legal_moves"]), "version": view["version"]})
            elif view["can_undo"]:
                r = c.post(f"/api/games/{gid}/undo", json={"version": view["version"]})
            else:
                r = c.get(f"/api/games/{gid}/hint")
            answers.append(r)
            view = c.get(f"/api/games/{gid}").json()
        if view["status"] != "playing":
            pytest.skip("the random moves ended the game")
        answers += [c.get(f"/api/games/{gid}"), c.get("/api/games"), c.get("/api/stats"),
                    c.get(f"/api/games/{gid}/hint"),
                    c.post(f"/api/games/{gid}/undo", json={"version": view["version"] + 9})]
        for lang in ("en", "fr", "ru"):
            for page in ("/", f"/games/{game}", "/stats", f"/games/{game}?id={gid}"):
                answers.append(c.get(page, params={"lang": lang},
                                     headers={"accept": "text/html"}))
        for a in answers:
            assert a.status_code < 500 and not deal_number_told(a, number), a.text
        assert view["number"] is None and view["origin"] == "random"
        # Over (abandoned: another game of its kind dealt): the number is told.
        c.post("/api/games", json={"game": game})
        over = c.get(f"/api/games/{gid}").json()
        assert over["number"] == number and over["ended"] == "abandoned"
        assert over["status"] == "lost" and over["legal_moves"] == [] and not over["can_undo"]
        from reussite.web.i18n import LANG_COOKIE

        c.cookies.delete(LANG_COOKIE)  # the pages' language links set it
        for lang, words in (("en", "abandoned"), ("fr", "abandonnée"), ("ru", "брошена")):
            r = c.post(f"/api/games/{gid}/moves", headers={"accept-language": lang},
                       json={"move": {"type": "stock"}, "version": over["version"]})
            assert r.status_code == 409 and words in r.json()["detail"]


def test_a_won_secret_deal_shows_its_number_at_the_win(secret_app: FastAPI,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from reussite.solver import solve
    from reussite.web import play

    number = 2  # a Klondike deal the solver wins, dealt as if drawn at random
    line = solve(Position.deal(get_game("klondike"), number), time_limit=30).moves
    with TestClient(secret_app) as c:
        monkeypatch.setattr(play.secrets, "randbelow", lambda n: number)
        view = c.post("/api/games", json={"game": "klondike"}).json()
        monkeypatch.undo()
        assert view["number"] is None
        for move in line:
            assert view["number"] is None and view["status"] == "playing"
            view = c.post(f"/api/games/{view['id']}/moves",
                          json={"move": move.to_json(), "version": view["version"]}).json()
        assert view["status"] == "won" and view["ended"] == "won" and view["number"] == number
        listed = c.get("/api/games").json()
        assert [g["number"] for g in listed if g["id"] == view["id"]] == [number]


def test_the_identity_answers_tell_no_card_and_no_players_id(secret_app: FastAPI) -> None:
    """The name, the sign-in code, the browsers, a report, forgetting: none of their answers
    (refusals and the statistics page included) names a face-down card, and none carries the
    player's id, the secret of its cookie, but in the cookie itself."""
    with TestClient(secret_app) as c, TestClient(secret_app) as other:
        view = c.post("/api/games", json={"game": "klondike", "number": 77}).json()
        pos = Position.deal(get_game("klondike"), 77)
        move = view["legal_moves"][0]
        r = c.post(f"/api/games/{view['id']}/moves", json={"move": move, "version": 0})
        pos.push(Move.from_json(move))
        check(r, pos)
        signed = c.cookies["reussite_player"]
        player = secret_app.state.signer.unsign(signed).decode().partition(".")[0]
        answers = [c.get("/api/me"), c.put("/api/me", json={"name": "Secretive"}),
                   c.put("/api/me", json={"name": "a\u200bb"}), c.post("/api/me/code", json={}),
                   c.get("/api/me/browsers"),
                   c.post("/api/names/report", json={"name": "Nobody"}),
                   c.post("/api/me/sign-in", json={"code": "ABCD-EFGH-JKMN"}),
                   c.delete("/api/me/browsers/nothing")]
        code = answers[3].json()["code"]
        other.get("/")
        answers.append(other.post("/api/me/sign-in", json={"code": code}))
        answers.append(other.get("/api/me/browsers"))
        for lang in ("en", "fr", "ru"):
            answers.append(c.get("/stats", params={"lang": lang},
                                 headers={"accept": "text/html"}))
        for r in answers:
            check(r, pos)
            assert player not in r.text, r.url
        r = c.delete("/api/me")
        check(r, pos)
        assert player not in r.text


def test_a_daily_deal_tells_its_number_nowhere_while_its_day_runs(
        secret_app: FastAPI, monkeypatch: pytest.MonkeyPatch) -> None:
    """The day's deal (one number for everyone: a winner who told it would tell every card)
    is in no view, list, history, leaderboard, page or refusal while its day runs, not even
    once the game is won; nor is the solver's line. Once the day is over both are told."""
    from datetime import UTC, datetime

    from reussite.web import daily, days
    from reussite.web.play import decode_move

    day = "2300-06-15"
    noon = datetime(2300, 6, 15, 12, tzinfo=UTC).timestamp()
    monkeypatch.setattr(days, "clock", lambda: noon)
    store = secret_app.state.store
    assert daily.prepare(store, "klondike", day) in ("prepared", "ready")
    p = daily.stored(store, "klondike", day)
    assert p is not None
    with TestClient(secret_app) as c:
        view = c.post("/api/games", json={"game": "klondike", "daily": True}).json()
        gid = view["id"]
        answers = []
        pos = Position.deal(get_game("klondike"), p.number)
        for text in p.line:
            move = decode_move(text)
            r = c.post(f"/api/games/{gid}/moves",
                       json={"move": move.to_json(), "version": view["version"]})
            pos.play(move)
            check(r, pos)
            answers.append(r)
            view = r.json()
        assert view["status"] == "won" and view["number"] is None
        answers += [c.get(f"/api/games/{gid}"), c.get("/api/games"), c.get("/api/history"),
                    c.get("/api/daily"), c.get(f"/api/daily/klondike/{day}/leaderboard"),
                    c.get(f"/api/games/{gid}/analysis"),
                    c.post(f"/api/games/{gid}/analysis", json={}),
                    c.get(f"/api/games/{gid}/analysis/position?line=player&at=0"),
                    c.post("/api/games", json={"game": "klondike", "daily": "2300-06-16"})]
        for lang in ("en", "fr", "ru"):
            for page in ("/", "/daily", f"/daily/klondike/{day}", "/stats",
                         f"/daily/klondike/{day}?id={gid}"):
                answers.append(c.get(page, params={"lang": lang},
                                     headers={"accept": "text/html"}))
        # the solver's first moves as JSON writes them (as a leaderboard would carry them)
        line_json = json.dumps([decode_move(m).to_json() for m in p.line[:3]],
                               separators=(",", ":"))[1:-1]
        for a in answers:
            assert a.status_code < 500 and not deal_number_told(a, p.number), a.text
            assert line_json not in a.text
        assert {a.status_code for a in answers[-19:-15]} == {409, 422}  # analysis, future
        monkeypatch.setattr(days, "clock", lambda: noon + 86_400)  # the next day
        assert c.get(f"/api/games/{gid}").json()["number"] == p.number
        board = c.get(f"/api/daily/klondike/{day}/leaderboard").json()
        assert board["number"] == p.number and len(board["line"]) == len(p.line)
