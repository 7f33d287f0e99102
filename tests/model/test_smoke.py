"""The first checks: every game deals the right number of cards, and the docs' examples run."""

import doctest

import pytest

import reussite.cards
import reussite.deals
import reussite.engine
from reussite.engine import Position
from reussite.games import CATALOGUE


@pytest.mark.parametrize("module", [reussite.cards, reussite.deals, reussite.engine])
def test_docstring_examples_run(module: object) -> None:
    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("game_id", list(CATALOGUE))
def test_every_deal_holds_every_card(game_id: str) -> None:
    rules = CATALOGUE[game_id]
    pos = Position.deal(rules, 1)
    assert sum(len(p) for p in pos.piles) == rules.packs * 52
