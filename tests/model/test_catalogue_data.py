"""The catalogue's data: names in three languages, packs, redeals, difficulty, related games."""

from __future__ import annotations

import re

import pytest

from reussite.games import CATALOGUE, CLASSICS, SEED_GAMES

RELATIVES = ("klondike", "klondike-draw-3", "freds-spider", "auld-lang-syne", "quadrennial",
             "minerva")
CYRILLIC = re.compile("[А-Яа-яЁё]")


def test_the_catalogue_holds_the_ids_of_the_interfaces() -> None:
    """Game ids as docs/interfaces.md fixes them."""
    assert set(CATALOGUE) == set(SEED_GAMES) | set(RELATIVES) | set(CLASSICS)
    assert set(CLASSICS) == {"freecell", "bakers-dozen", "yukon", "scorpion", "forty-thieves",
                             "golf", "tripeaks"}


@pytest.mark.parametrize("game_id", list(CATALOGUE))
def test_every_game_has_a_name_in_english_french_and_russian(game_id: str) -> None:
    names = CATALOGUE[game_id].names
    assert set(names) == {"en", "fr", "ru"}
    assert all(n.strip() == n and n for n in names.values())
    assert CYRILLIC.search(names["ru"])
    assert not CYRILLIC.search(names["en"] + names["fr"])


@pytest.mark.parametrize(("game_id", "packs", "redeals"), [
    ("astrocyte", 2, 0), ("spider", 2, 0), ("spider-2-suits", 2, 0), ("spider-1-suit", 2, 0),
    ("leap-year", 4, 0), ("athena", 1, None), ("klondike", 1, None),
    ("klondike-draw-3", 1, None), ("freds-spider", 2, 0), ("auld-lang-syne", 1, 0),
    ("quadrennial", 4, 2), ("minerva", 1, 1), ("freecell", 1, 0), ("bakers-dozen", 1, 0),
    ("yukon", 1, 0), ("scorpion", 1, 0), ("forty-thieves", 2, 0), ("golf", 1, 0),
    ("tripeaks", 1, 0)])
def test_packs_and_redeals_as_rules_md_says(game_id: str, packs: int, redeals: int | None) -> None:
    rules = CATALOGUE[game_id]
    assert rules.packs == packs
    assert rules.stock.redeals == redeals


@pytest.mark.parametrize("game_id", list(CATALOGUE))
def test_every_game_has_a_difficulty_word(game_id: str) -> None:
    assert CATALOGUE[game_id].difficulty in ("easy", "medium", "difficult")


@pytest.mark.parametrize("game_id", list(CATALOGUE))
def test_every_related_game_exists_and_is_not_the_game_itself(game_id: str) -> None:
    related = CATALOGUE[game_id].related
    assert related, f"{game_id} names no related game"
    assert len(set(related)) == len(related)
    assert game_id not in related
    assert set(related) <= set(CATALOGUE)


@pytest.mark.parametrize(("game_id", "named"), [
    ("astrocyte", {"spider", "freds-spider", "klondike"}),
    ("leap-year", {"auld-lang-syne", "quadrennial"}),
    ("athena", {"klondike", "minerva"})])
def test_the_pages_links_lead_to_catalogue_games(game_id: str, named: set[str]) -> None:
    """The pages link to these games; the catalogue should offer them so that the links lead
    somewhere."""
    assert named <= set(CATALOGUE[game_id].related)


@pytest.mark.parametrize("relative", RELATIVES)
def test_every_relative_links_back_to_the_games_that_name_it(relative: str) -> None:
    naming = {g.id for g in CATALOGUE.values() if relative in g.related and g.id in SEED_GAMES}
    assert naming <= set(CATALOGUE[relative].related)


@pytest.mark.parametrize("game_id", list(CATALOGUE))
def test_every_game_explains_its_decisions_in_notes(game_id: str) -> None:
    notes = CATALOGUE[game_id].notes
    assert notes and all(n.endswith(".") for n in notes)
