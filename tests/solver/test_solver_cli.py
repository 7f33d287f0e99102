"""The solver's commands: reussite solve, winrate and winnable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reussite.cli import main
from reussite.engine import Move, Position
from reussite.games import get_game
from reussite.solver import winnable_lists
from reussite.solver.batch import honest_effort
from reussite.solver.sampling import Effort


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_prints_a_winning_line_that_replays(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "klondike", "--number", "2", "--time-limit", "5",
                       "--json")
    data = json.loads(out)
    assert code == 0 and data["status"] == "won" and data["states"] == 86  # as in the golden
    pos = Position.deal(get_game("klondike"), 2)
    for m in data["moves"]:
        pos.play(Move.from_json(m))
    assert pos.status() == "won"


def test_winrate_counts_every_deal(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "winrate", "spider-1-suit", "--deals", "3-4", "--time-limit",
                       "1", "--json")
    data = json.loads(out)
    assert code == 0 and data["deals"] == 2
    assert data["won"] + data["lost"] + data["unknown"] == 2
    low, high = data["interval_95"]
    assert 0 <= low <= data["win_rate"] <= high <= 1


@pytest.mark.parametrize("argv", [
    ["solve", "nogame", "--number", "1"],
    ["solve", "klondike", "--number", "-4"],
    ["solve", "klondike", "--number", "1", "--time-limit", "0"],
    ["winrate", "klondike", "--deals", "9-2"],
    ["winrate", "klondike", "--deals", "a-b"],
    ["winrate", "klondike", "--deals", "1-2", "--jobs", "0"],
    ["winrate", "klondike", "--deals", "1-2", "--player", "psychic"],
    # the options of a player that does not play: refused, not silently ignored
    ["winrate", "klondike", "--deals", "1-2", "--samples", "4"],
    ["winnable", "extend", "nogame"],
])
def test_bad_input_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str],
                                            argv: list[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("reussite: error: ") and err.count("\n") == 1


def test_winnable_extend_adds_the_deals_it_wins(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(winnable_lists, "list_path", lambda game: tmp_path / f"{game}.txt")
    code, _, _ = run(capsys, "winnable", "extend", "klondike", "--count", "2", "--start", "1",
                     "--time-limit", "1")
    assert code == 0
    assert winnable_lists.tried_range("klondike") == (1, 2)
    listed = winnable_lists.listed("klondike")
    assert 2 in listed and set(listed) <= {1, 2}  # deal 2 is won at once
    code, _, _ = run(capsys, "winnable", "extend", "klondike", "--count", "1",
                     "--time-limit", "1")
    assert winnable_lists.tried_range("klondike") == (1, 3)


def test_winrate_of_the_honest_player(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "winrate", "auld-lang-syne", "--deals", "1-1", "--player",
                       "honest", "--time-limit", "0.02", "--json")
    data = json.loads(out)
    assert code == 0 and data["player"] == "honest" and data["deals"] == 1
    assert data["won"] + data["lost"] == 1 and data["unknown"] == 0


def test_the_honest_effort_of_a_run() -> None:
    """``--states``/``--samples`` (or ``--time-limit``) and the game's own lookahead."""
    assert honest_effort("auld-lang-syne", None, 100, 2) == Effort(samples=2,
                                                                   states_per_sample=100)
    assert honest_effort("klondike", 0.5, None) == Effort(
        states_per_sample=None, time_limit=0.5, lookahead=3)


@pytest.mark.parametrize("option", [["--method", "sample"], ["--effort", "close=0.05"]])
def test_the_players_are_chosen_by_the_game_not_the_command_line(
        capsys: pytest.CaptureFixture[str], option: list[str]) -> None:
    code, out, _ = run(capsys, "winrate", "klondike", "--deals", "1-1", "--player", "honest",
                       *option)
    assert code == 2 and out == ""


def test_solve_with_a_cpu_clock(capsys: pytest.CaptureFixture[str],
                                monkeypatch: pytest.MonkeyPatch) -> None:
    """--clock cpu: the time limit counts the search's CPU time (same answers, load aside)."""
    monkeypatch.delenv("REUSSITE_SOLVER_CLOCK", raising=False)
    code, out, _ = run(capsys, "solve", "klondike", "--number", "2", "--time-limit", "5",
                       "--clock", "cpu", "--json")
    assert code == 0 and json.loads(out)["status"] == "won"


def test_an_unknown_clock_is_a_clear_error(capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REUSSITE_SOLVER_CLOCK", raising=False)
    code, out, err = run(capsys, "winrate", "klondike", "--deals", "1-2", "--clock", "sundial")
    assert code == 2 and "--clock is wall or cpu" in err and "Traceback" not in err


def test_each_game_has_its_honest_player() -> None:
    from reussite.solver.batch import Tally
    from reussite.solver.players import player_name, seat

    games = ("spider", "astrocyte", "spider-2-suits", "freds-spider", "spider-1-suit",
             "klondike", "quadrennial", "leap-year")
    assert {g: player_name(seat(g, "play")) for g in games} == {
        "spider": "visible", "astrocyte": "visible", "spider-2-suits": "planning",
        "freds-spider": "planning", "spider-1-suit": "planning", "klondike": "sampling",
        "quadrennial": "sampling", "leap-year": "sampling"}
    text = Tally("spider-2-suits", "honest", None, 300_000, 6).budget()
    assert text == "planning (beam), 300,000 positions per plan, 6 samples"
    text = Tally("spider", "honest", None, 30_000).budget()
    assert text == "visible search, 30,000 positions per search"


def test_the_lookahead_is_the_honest_default_where_it_was_measured_to_win_more() -> None:
    """Klondike draw 3, Klondike and Athena play with the lookahead; the other games and the
    other honest players keep their own efforts."""
    from reussite.solver.batch import Tally

    text = Tally("klondike-draw-3", "honest", None, 1000, 16).budget()
    assert text == ("1,000 positions per search, 16 samples per move, lookahead=3, "
                    "outcomes=4, per_outcome=2")
    summary = Tally("klondike-draw-3", "honest", None, 1000, 16).summary()
    assert summary["effort"] == {"lookahead": 3, "outcomes": 4, "per_outcome": 2}
    assert Tally("klondike-draw-3", "full", 10.0).summary()["effort"] == {}
