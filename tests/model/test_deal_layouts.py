"""`reussite deal GAME --number N --json` shows each game's opening layout as docs/rules.md
deals it, and golden pins keep the first deals of each game the same forever."""

from __future__ import annotations

import json
from typing import Any

import pytest

from reussite.cli import main

Entry = dict[str, Any]


def deal_json(game_id: str, number: int, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(["deal", game_id, "--number", str(number), "--json"]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert data["game"] == game_id and data["number"] == number
    return data


def ups(pile: list[Entry]) -> list[bool]:
    return [e["up"] for e in pile]


def kind(piles: dict[str, list[Entry]], name: str) -> list[list[Entry]]:
    """The piles of one kind, in order (``tableau:0``, ``tableau:1``...)."""
    ids = sorted((p for p in piles if p.split(":")[0] == name), key=lambda p: int(p.split(":")[1]))
    return [piles[p] for p in ids]


def every_card(piles: dict[str, list[Entry]]) -> list[str]:
    return [e["card"] for pile in piles.values() for e in pile]


@pytest.mark.parametrize("game_id", ["spider", "spider-2-suits", "spider-1-suit"])
def test_spider_deal_shows_6_6_6_6_5_5_5_5_5_5_and_50_in_stock(
        game_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    piles = deal_json(game_id, 1, capsys)["piles"]
    tableau = kind(piles, "tableau")
    assert [len(p) for p in tableau] == [6, 6, 6, 6, 5, 5, 5, 5, 5, 5]
    assert all(ups(p) == [False] * (len(p) - 1) + [True] for p in tableau)
    assert len(piles["stock"]) == 50 and not any(ups(piles["stock"]))
    assert len(kind(piles, "foundation")) == 8
    assert len(every_card(piles)) == 104


@pytest.mark.parametrize("game_id", ["leap-year", "quadrennial"])
def test_leap_year_deal_shows_16_aces_8_reserve_cards_and_184_in_stock(
        game_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    piles = deal_json(game_id, 1, capsys)["piles"]
    foundations = kind(piles, "foundation")
    assert len(foundations) == 16
    assert all(len(f) == 1 and f[0]["card"][0] == "A" and f[0]["up"] for f in foundations)
    reserves = kind(piles, "reserve")
    assert [ups(r) for r in reserves] == [[True]] * 8
    assert len(piles["stock"]) == 184
    assert "tableau:0" not in piles and "waste" not in piles


def test_auld_lang_syne_deal_shows_4_aces_4_reserve_cards_and_44_in_stock(
        capsys: pytest.CaptureFixture[str]) -> None:
    piles = deal_json("auld-lang-syne", 1, capsys)["piles"]
    assert sorted(f[0]["card"] for f in kind(piles, "foundation")) == ["AC", "AD", "AH", "AS"]
    assert [ups(r) for r in kind(piles, "reserve")] == [[True]] * 4
    assert len(piles["stock"]) == 44


@pytest.mark.parametrize(("game_id", "stock", "reserve"), [("athena", 24, 0), ("minerva", 13, 11)])
def test_athena_deal_shows_7_piles_of_4_down_up_down_up(
        game_id: str, stock: int, reserve: int, capsys: pytest.CaptureFixture[str]) -> None:
    piles = deal_json(game_id, 1, capsys)["piles"]
    tableau = kind(piles, "tableau")
    assert [ups(p) for p in tableau] == [[False, True, False, True]] * 7
    assert len(piles["stock"]) == stock and piles["waste"] == []
    assert sum(len(r) for r in kind(piles, "reserve")) == reserve
    assert len(every_card(piles)) == 52


@pytest.mark.parametrize("game_id", ["klondike", "klondike-draw-3"])
def test_klondike_deal_shows_7_piles_of_1_to_7_top_card_up(
        game_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    piles = deal_json(game_id, 1, capsys)["piles"]
    assert [ups(p) for p in kind(piles, "tableau")] == [[False] * i + [True] for i in range(7)]
    assert len(piles["stock"]) == 24


def test_freds_spider_deal_shows_10_piles_of_5_face_up_and_54_in_stock(
        capsys: pytest.CaptureFixture[str]) -> None:
    piles = deal_json("freds-spider", 1, capsys)["piles"]
    assert [ups(p) for p in kind(piles, "tableau")] == [[True] * 5] * 10
    assert len(piles["stock"]) == 54


@pytest.mark.parametrize(("game_id", "pattern", "stock"), [
    ("freecell", [[True] * 7] * 4 + [[True] * 6] * 4, 0),
    ("bakers-dozen", [[True] * 4] * 13, 0),
    ("yukon", [[True]] + [[False] * i + [True] * 5 for i in range(1, 7)], 0),
    ("scorpion", [[False] * 3 + [True] * 4] * 4 + [[True] * 7] * 3, 3),
    ("forty-thieves", [[True] * 4] * 10, 64)])
def test_the_classics_deals_show_their_piles_face_up_and_down(
        game_id: str, pattern: list[list[bool]], stock: int,
        capsys: pytest.CaptureFixture[str]) -> None:
    piles = deal_json(game_id, 1, capsys)["piles"]
    assert [ups(p) for p in kind(piles, "tableau")] == pattern
    assert len(piles["stock"]) == stock
    assert sorted(every_card(piles)) == sorted(every_card(deal_json(game_id, 2, capsys)["piles"]))


def test_golf_deal_shows_7_piles_of_5_face_up_one_card_on_the_waste_and_16_in_stock(
        capsys: pytest.CaptureFixture[str]) -> None:
    piles = deal_json("golf", 1, capsys)["piles"]
    assert [ups(p) for p in kind(piles, "tableau")] == [[True] * 5] * 7
    assert ups(piles["waste"]) == [True]
    assert len(piles["stock"]) == 16 and not any(ups(piles["stock"]))
    assert kind(piles, "foundation") == [] and kind(piles, "cell") == []
    assert len(set(every_card(piles))) == 52


def test_deal_refuses_an_unknown_game_on_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deal", "leapyear", "--number", "1", "--json"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Unknown game 'leapyear'" in err


# Golden pins: the top card of each tableau or reserve pile, left to right, then the next five
# cards of the stock (the last stock entry is dealt next). Deal numbers are stable forever.
GOLDEN = {
    ("spider", 0):
        "QD 6D 3H 5D 7H 7S AH 8S 6H 5S | 9D 4S 8D JH QC",
    ("spider", 1):
        "4C 7S 8D 2S 2S 9D 2C JD 2D 8D | 3C 2H 5H 5C TH",
    ("spider-2-suits", 0):
        "QS 6S 3H 5S 7H 7S AH 8S 6H 5S | 9S 4S 8S JH QH",
    ("spider-2-suits", 1):
        "4H 7S 8S 2S 2S 9S 2H JS 2S 8S | 3H 2H 5H 5H TH",
    ("spider-1-suit", 0):
        "QS 6S 3S 5S 7S 7S AS 8S 6S 5S | 9S 4S 8S JS QS",
    ("spider-1-suit", 1):
        "4S 7S 8S 2S 2S 9S 2S JS 2S 8S | 3S 2S 5S 5S TS",
    ("leap-year", 0):
        "9D KC 9H 6C 9D TC 7D 6C | 9H KD JC 8D 5H",
    ("leap-year", 1):
        "7H KH 8C 4C 3H QD 5S 6C | TS QH 3C 6S TH",
    ("athena", 0):
        "QS TC QD AH 8H 8D 5H | TH 4C 6S AD 5S",
    ("athena", 1):
        "6S 4C QS 8C TH JC TC | TD KD KS 6C AH",
    ("klondike", 0):
        "TD KC AC 4H TC 8H 5H | TH 4C 6S AD 5S",
    ("klondike", 1):
        "7C 4S QD 5S 4C TH TC | TD KD KS 6C AH",
    ("klondike-draw-3", 0):
        "TD KC AC 4H TC 8H 5H | TH 4C 6S AD 5S",
    ("klondike-draw-3", 1):
        "7C 4S QD 5S 4C TH TC | TD KD KS 6C AH",
    ("freds-spider", 0):
        "4C TC 6D 8H 7H 7S AH 8S 6H 5S | QD 6D 3H 5D 9D",
    ("freds-spider", 1):
        "7S 5D 9C 5S 2S 9D 2C JD 2D 8D | 4C 7S 8D 2S 3C",
    ("auld-lang-syne", 0):
        "9D 5D QC QD | 9S KS 7D KC 9H",
    ("auld-lang-syne", 1):
        "7H 2C QH TH | 7D 4C JH KS 2S",
    ("quadrennial", 0):
        "9D KC 9H 6C 9D TC 7D 6C | 9H KD JC 8D 5H",
    ("quadrennial", 1):
        "7H KH 8C 4C 3H QD 5S 6C | TS QH 3C 6S TH",
    ("minerva", 0):
        "QS TC QD AH 8H 8D 5H 8S | 9D 7S JS AS 3H",
    ("minerva", 1):
        "6S 4C QS 8C TH JC TC 2H | 3S KH 5H JS 9C",
    ("freecell", 0):
        "2S 4C 2H 5S 9S KD 4H 7C | ",
    ("freecell", 1):
        "6S 9C 2H 6H 6C 3D 8C TC | ",
    ("bakers-dozen", 0):
        "9D 7S JS AS 3H TS 6C QH 2H 2C 9S JD 8C | ",
    ("bakers-dozen", 1):
        "3S TC 5H JS 9C 6H JH 5C 8H 8D 4H 9S 7H | ",
    ("yukon", 0):
        "TD AD QC AS QH 9S 8C | ",
    ("yukon", 1):
        "7C 6C JD JS 5C 4H 7H | ",
    ("scorpion", 0):
        "AS 3H TS 6C QH 2H 2C | 9S JD 8C",
    ("scorpion", 1):
        "JS 9C 6H JH 5C 8H 8D | 4H 9S 7H",
    ("forty-thieves", 0):
        "KH 5H QC 9H 2D 2C 7D 2H QS 8C | 4C TC 6D 8H 7H",
    ("forty-thieves", 1):
        "4H 4S QD 9D 4C TD AD 2C 6C 3S | 7S 5D 9C 5S 2S",
    ("golf", 0):
        "TH 4C 6S AD 5S 3D 2S | KD QC 8S 9D 7S",
    ("golf", 1):
        "TD KD KS 6C AH 2S 4D | 5D JD 2H 3S KH",
}


def pin(data: dict[str, Any]) -> str:
    piles = data["piles"]
    tops = [p[-1]["card"] if p else "--" for p in kind(piles, "tableau") + kind(piles, "reserve")]
    nxt = [e["card"] for e in reversed(piles["stock"][-5:])]
    return " ".join(tops) + " | " + " ".join(nxt)


@pytest.mark.parametrize(("game_id", "number"), list(GOLDEN))
def test_golden_deals_stay_the_same(game_id: str, number: int,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert pin(deal_json(game_id, number, capsys)) == GOLDEN[game_id, number]
