"""The command line, ``reussite`` (docs/interfaces.md): ``games`` and ``deal``.

Bad arguments print one line on standard error and exit with status 2, never a traceback.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from reussite.cards import RANKS, SUITS
from reussite.cli import main
from reussite.games import CATALOGUE


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_games_lists_the_whole_catalogue(capsys: pytest.CaptureFixture[str]) -> None:
    """``reussite games``: the catalogue, every id whole (ids are what the user types next)."""
    status, out, err = run(capsys, "games")
    assert status == 0 and err == ""
    for gid, rules in CATALOGUE.items():
        assert f" {gid} " in out
        assert rules.name in out


def test_deal_astrocyte_1_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    """``reussite deal astrocyte --number 1 --json`` shows 8 tableau piles of 8 cards with only
    the top one up, an empty layout of 4 cells and 8 foundations, and a 40-card stock; 104
    cards, each of the 52 twice."""
    status, out, err = run(capsys, "deal", "astrocyte", "--number", "1", "--json")
    assert status == 0 and err == ""
    data = json.loads(out)
    assert data["game"] == "astrocyte" and data["number"] == 1
    piles = data["piles"]
    assert set(piles) == ({"stock"} | {f"tableau:{i}" for i in range(8)}
                          | {f"cell:{i}" for i in range(4)}
                          | {f"foundation:{i}" for i in range(8)})
    for i in range(8):
        pile = piles[f"tableau:{i}"]
        assert len(pile) == 8
        assert [e["up"] for e in pile] == [False] * 7 + [True]
    assert all(piles[f"cell:{i}"] == [] for i in range(4))
    assert all(piles[f"foundation:{i}"] == [] for i in range(8))
    assert len(piles["stock"]) == 40 and not any(e["up"] for e in piles["stock"])
    counts = Counter(e["card"] for p in piles.values() for e in p)
    assert sum(counts.values()) == 104
    assert counts == Counter({r + s: 2 for r in RANKS for s in SUITS})


@pytest.mark.parametrize("game_id", list(CATALOGUE))
def test_deal_prints_every_game_with_every_card(capsys: pytest.CaptureFixture[str],
                                                game_id: str) -> None:
    status, out, err = run(capsys, "deal", game_id, "-n", "3", "--json")
    assert status == 0 and err == ""
    piles = json.loads(out)["piles"]
    assert sum(len(p) for p in piles.values()) == CATALOGUE[game_id].cards
    assert all(e["card"] for p in piles.values() for e in p)  # a tool: every card shown


def test_deal_as_text(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "deal", "astrocyte", "--number", "1")
    assert status == 0 and err == ""
    assert "Astrocyte, deal 1" in out
    assert "tableau:7" in out and "40 cards" in out


@pytest.mark.parametrize("argv", [
    ["deal", "nope", "--number", "1"],               # unknown game
    ["deal", "astrocyte", "--number", "x"],          # not a whole number
    ["deal", "astrocyte", "--number", "1.5"],
    ["deal", "astrocyte", "--number", "-1"],         # negative
    ["deal", "astrocyte", "--number", str(2**64)],   # beyond the deal numbers
    ["deal", "astrocyte"],                           # missing option
    ["deal"],                                        # missing game
    ["deal", "astrocyte", "--number", "1", "--bogus"],
    ["shuffle"],                                     # unknown command
])
def test_bad_arguments_exit_2_with_one_line(capsys: pytest.CaptureFixture[str],
                                            argv: list[str]) -> None:
    """Bad arguments: a one-line error and exit code 2, no traceback."""
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("reussite: error: ")
    assert "Traceback" not in err


def test_the_unknown_game_error_names_the_games(capsys: pytest.CaptureFixture[str]) -> None:
    _, _, err = run(capsys, "deal", "astrocite", "--number", "1")
    assert "astrocite" in err and "astrocyte" in err


def reussite_script() -> str:
    script = Path(sys.executable).with_name("reussite")
    found = str(script) if script.exists() else shutil.which("reussite")
    assert found, "the reussite console script is installed with the package"
    return found


def test_the_installed_script() -> None:
    """The real console script, in a process of its own."""
    ok = subprocess.run([reussite_script(), "deal", "astrocyte", "--number", "1", "--json"],
                        capture_output=True, text=True, timeout=60, check=False)
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["piles"]["tableau:0"][-1]["up"] is True
    bad = subprocess.run([reussite_script(), "deal", "astrocyte", "--number", "-3"],
                         capture_output=True, text=True, timeout=60, check=False)
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr


@pytest.mark.parametrize(("name", "value", "words"), [
    ("REUSSITE_CLEANUP_EVERY", "soon", "REUSSITE_CLEANUP_EVERY must be a number"),
    ("REUSSITE_WINNABLE_POOL", "-1", "REUSSITE_WINNABLE_POOL must be a whole number"),
    ("REUSSITE_ABANDONED_AFTER", "z", "REUSSITE_ABANDONED_AFTER must be a number"),
    ("REUSSITE_HISTORY_PER_GAME", "0", "REUSSITE_HISTORY_PER_GAME must be at least 1"),
    ("REUSSITE_MAX_GAMES_IN_PLAY", "many", "REUSSITE_MAX_GAMES_IN_PLAY must be a whole"),
    ("REUSSITE_ANALYSES_PER_HOUR", "lots", "REUSSITE_ANALYSES_PER_HOUR is a whole number"),
    ("REUSSITE_ANALYSIS_CPU", "-2", "REUSSITE_ANALYSIS_CPU is between 0 and 600"),
    ("REUSSITE_ANALYSIS_WORKERS", "0", "REUSSITE_ANALYSIS_WORKERS is a number from 1"),
    ("REUSSITE_JOBS", "carrier-pigeon", "REUSSITE_JOBS is local or redis"),
    ("REUSSITE_RATE_LIMIT", "fast", "REUSSITE_RATE_LIMIT: A rate limit reads like"),
    ("REUSSITE_SIGN_IN_LIMIT", "ten", "REUSSITE_SIGN_IN_LIMIT: A rate limit reads like"),
    ("REUSSITE_BROWSER_CHECK", "-1", "REUSSITE_BROWSER_CHECK is 0 to 3600 seconds"),
])
def test_serve_refuses_a_bad_setting_in_one_line(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 tmp_path: Path, name: str, value: str,
                                                 words: str) -> None:
    """Every setting is read before the site starts: a bad one stops ``reussite serve`` with
    its sentence (no traceback, no server), not at a first request or in a thread."""
    monkeypatch.setenv(name, value)
    status, out, err = run(capsys, "serve", "--port", "1", "--db",
                           f"sqlite:///{tmp_path / 'never.sqlite3'}")
    assert status == 2
    assert err.startswith("reussite: error: ") and words in err, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "never.sqlite3").exists()  # refused before the database is opened
