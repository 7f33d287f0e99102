"""Athena and Minerva: 7 piles dealt down/up/down/up, alternating colours, Kings in spaces."""

from reussite.rules import (
    Build,
    Foundations,
    FoundationTakes,
    GameRules,
    Redeal,
    Reserve,
    Space,
    Stock,
    StockAction,
    Tableau,
    Unit,
)

DOWN_UP_DOWN_UP = Tableau(piles=("dudu",) * 7, build=Build.DOWN_ALTERNATE_COLOURS,
                          unit=Unit.ALTERNATING_RUN, space=Space.KING)

ATHENA = GameRules(
    id="athena",
    names={"en": "Athena", "fr": "Athéna", "ru": "Афина"},
    packs=1,
    tableau=DOWN_UP_DOWN_UP,
    foundations=Foundations(count=4, takes=FoundationTakes.UP_IN_SUIT, gives_back=True),
    stock=Stock(action=StockAction.DRAW_TO_WASTE, draw=3, redeal=Redeal.TURN_WASTE,
                redeals=None),
    difficulty="easy",
    related=("klondike", "minerva"),
)

MINERVA = GameRules(
    id="minerva",
    names={"en": "Minerva", "fr": "Minerve", "ru": "Минерва"},
    packs=1,
    tableau=DOWN_UP_DOWN_UP,
    reserve=Reserve(piles=("dddddddddd" "u",), to_tableau=True),
    foundations=Foundations(count=4, takes=FoundationTakes.UP_IN_SUIT),
    stock=Stock(action=StockAction.DRAW_TO_WASTE, draw=1, redeal=Redeal.TURN_WASTE, redeals=1),
    difficulty="medium",
    related=("athena", "klondike"),
    notes=("The reserve is dealt face down with its top card up; each new top card turns up.",),
)
