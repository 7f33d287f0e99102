"""Deals: the project's own seeded shuffle, the decks, and golden deals pinned forever.

"The same game id and number give the same deal on every machine and in every later version
of the project (pinned by tests)." (docs/interfaces.md) The golden file ``golden/deals.json`` is
written by ``golden/make_golden.py``, never by the tests.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from helpers import parse_pile, piles_of

from reussite.cards import RANKS, SUITS, UP, build_deck, card_code
from reussite.deals import MAX_DEAL_NUMBER, SplitMix64, check_deal_number, shuffled
from reussite.engine import Position
from reussite.games import CATALOGUE

GOLDEN_DEALS = json.loads((Path(__file__).parent.parent / "golden" / "deals.json").read_text())


# ---------------------------------------------------------------------------------- the PRNG


def test_splitmix64_gives_the_reference_outputs_for_seed_0() -> None:
    """SplitMix64 (Steele, Lea & Flood) is the published generator, bit for bit."""
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(5)] == [
        0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F, 0xF88BB8A8724C81EC,
        0x1B39896A51A8749B]


def test_splitmix64_gives_the_reference_outputs_for_seed_1234567() -> None:
    """The reference sequence for seed 1234567 (as published with the algorithm's examples)."""
    rng = SplitMix64(1234567)
    assert [rng.next() for _ in range(5)] == [
        6457827717110365317, 3203168211198807973, 9817491932198370423, 4593380528125082431,
        16408922859458223821]


def test_splitmix64_below_stays_in_range_and_reaches_every_value() -> None:
    rng = SplitMix64(42)
    seen = Counter(rng.below(7) for _ in range(7000))
    assert set(seen) == set(range(7))
    assert min(seen.values()) > 800  # about 1000 each: no value starved
    with pytest.raises(ValueError):
        rng.below(0)


def test_a_shuffle_is_a_permutation_and_depends_only_on_the_number() -> None:
    deck = build_deck(2)
    a, b, c = shuffled(deck, 5), shuffled(deck, 5), shuffled(deck, 6)
    assert a == b and a != c
    assert sorted(a) == sorted(deck)
    assert shuffled([1, 2, 3, 4, 5], 7) == [5, 2, 4, 1, 3]


@pytest.mark.parametrize("bad", [-1, MAX_DEAL_NUMBER + 1, 1.5, "3", True])
def test_deal_numbers_are_non_negative_integers_below_2_64(bad: object) -> None:
    """Deal numbers: non-negative integers (below 2**64)."""
    with pytest.raises(ValueError):
        check_deal_number(bad)  # type: ignore[arg-type]
    assert check_deal_number(0) == 0 and check_deal_number(MAX_DEAL_NUMBER) == MAX_DEAL_NUMBER


# ---------------------------------------------------------------------------------- decks


ALL_CARDS = {r + s for r in RANKS for s in SUITS}


@pytest.mark.parametrize("packs", [1, 2, 4])
def test_a_deck_of_n_packs_holds_each_card_n_times(packs: int) -> None:
    """Decks of 1, 2 or 4 packs: 52 x packs cards, each of the 52 once per pack."""
    counts = Counter(card_code(c) for c in build_deck(packs))
    assert set(counts) == ALL_CARDS
    assert set(counts.values()) == {packs}
    assert not any(c & UP for c in build_deck(packs))


def test_two_suit_spider_deck_is_52_spades_and_52_hearts() -> None:
    """2 suits (♠ and ♥, 52 of each), 104 cards."""
    counts = Counter(card_code(c) for c in build_deck(2, suits="SH"))
    assert set(counts) == {r + s for r in RANKS for s in "SH"}
    assert set(counts.values()) == {4}
    assert sum(counts.values()) == 104


def test_one_suit_spider_deck_is_104_spades() -> None:
    """1 suit (104 ♠)."""
    counts = Counter(card_code(c) for c in build_deck(2, suits="S"))
    assert set(counts) == {r + "S" for r in RANKS}
    assert set(counts.values()) == {8}


@pytest.mark.parametrize("suits", ["", "SHD", "SX", "SS S"])
def test_other_suit_sets_are_refused(suits: str) -> None:
    with pytest.raises(ValueError):
        build_deck(2, suits=suits)


# ---------------------------------------------------------------------------------- golden


def test_the_golden_file_covers_every_game_for_deals_1_to_3() -> None:
    assert set(GOLDEN_DEALS) == set(CATALOGUE)
    for gid in CATALOGUE:
        assert {"1", "2", "3"} <= set(GOLDEN_DEALS[gid])
    assert {"0", "1", "2"} <= set(GOLDEN_DEALS["astrocyte"])


@pytest.mark.parametrize("game_id", list(CATALOGUE))
def test_golden_deals_are_dealt_the_same_forever(game_id: str) -> None:
    """The same game id and number give the same deal on every machine and in every later
    version of the project."""
    for number, piles in GOLDEN_DEALS[game_id].items():
        assert piles_of(Position.deal(CATALOGUE[game_id], int(number))) == piles, number


@pytest.mark.parametrize("number", ["0", "1", "2"])
def test_astrocyte_golden_deals_in_full_json(number: str) -> None:
    """``reussite deal astrocyte --number N --json`` shows these piles, card for card."""
    golden = GOLDEN_DEALS["astrocyte"][number]
    got = Position.deal(CATALOGUE["astrocyte"], int(number)).to_json()
    assert got["game"] == "astrocyte" and got["number"] == int(number)
    expected = {pid: [{"card": card_code(c), "up": bool(c & UP)} for c in parse_pile(text)]
                for pid, text in golden.items()}
    assert got["piles"] == expected
