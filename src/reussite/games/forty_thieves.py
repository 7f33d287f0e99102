"""Forty Thieves: two packs, ten piles of four face up, one card at a time, in suit."""

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

FORTY_THIEVES = GameRules(
    id="forty-thieves",
    names={"en": "Forty Thieves", "fr": "Quarante voleurs", "ru": "Сорок разбойников"},
    packs=2,
    tableau=Tableau(piles=("uuuu",) * 10, build=Build.DOWN_SAME_SUIT, unit=Unit.SINGLE_CARD,
                    space=Space.ANY),
    foundations=Foundations(count=8, takes=FoundationTakes.UP_IN_SUIT),
    stock=Stock(action=StockAction.DRAW_TO_WASTE, draw=1),
    difficulty="difficult",
    related=("freecell", "bakers-dozen", "golf"),
    notes=("Any Ace goes to an empty foundation (two foundations per suit).",
           "The stock is gone through once: no redeal.",
           "A foundation's card never comes back.",),
)
