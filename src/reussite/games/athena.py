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
    names={"en": "Athena", "fr": "Athena", "ru": "Афина"},
    packs=1,
    tableau=DOWN_UP_DOWN_UP,
    foundations=Foundations(count=4, takes=FoundationTakes.UP_IN_SUIT, gives_back=True),
    stock=Stock(action=StockAction.DRAW_TO_WASTE, draw=3, redeal=Redeal.TURN_WASTE,
                redeals=None),
    difficulty="easy",
    related=("klondike", "minerva"),
    klondike_score=True,
    notes=("Three cards are drawn as a packet and turned over: the third card from the top of"
           " the stock lands on top of the waste.",
           "A foundation's top card may come back onto the tableau, not to another foundation.",),
)

MINERVA = GameRules(
    id="minerva",
    names={"en": "Minerva", "fr": "Minerva", "ru": "Минерва"},
    packs=1,
    tableau=DOWN_UP_DOWN_UP,
    reserve=Reserve(piles=("dddddddddd" "u",), to_tableau=True),
    foundations=Foundations(count=4, takes=FoundationTakes.UP_IN_SUIT),
    stock=Stock(action=StockAction.DRAW_TO_WASTE, draw=1, redeal=Redeal.TURN_WASTE, redeals=1),
    difficulty="medium",
    related=("athena", "klondike"),
    klondike_score=True,
    notes=("The reserve is dealt face down with its top card up; each new top card turns up.",
           "The reserve's top card may go to a foundation or onto the tableau (a King into a"
           " space); an emptied reserve stays empty.",),
)
