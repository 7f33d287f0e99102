"""Astrocyte: 2 packs, 8 piles of 8 (top card up), 4 cells, suits collected whole. No redeal."""

from reussite.rules import (
    Build,
    Foundations,
    FoundationTakes,
    GameRules,
    Space,
    Stock,
    StockAction,
    Tableau,
    Unit,
)

ASTROCYTE = GameRules(
    id="astrocyte",
    names={"en": "Astrocyte", "fr": "Astrocyte", "ru": "Астроцит"},
    packs=2,
    tableau=Tableau(piles=("ddddddd" "u",) * 8, build=Build.DOWN_ANY_SUIT,
                    unit=Unit.SAME_SUIT_RUN, space=Space.ANY),
    cells=4,
    # A completed suit moves to the foundations by the player's choice, and stays there.
    foundations=Foundations(count=8, takes=FoundationTakes.COMPLETE_SUIT),
    stock=Stock(action=StockAction.DEAL_TO_TABLEAU, not_while_empty_pile=True),
    difficulty="difficult",
    related=("spider", "freds-spider", "klondike"),
    notes=("Cards never come back from a foundation: a completed suit is final.",),
)
