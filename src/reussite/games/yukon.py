"""Yukon and Scorpion: any face-up card moves with every card on it, Kings into spaces."""

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

YUKON = GameRules(
    id="yukon",
    names={"en": "Yukon", "fr": "Yukon", "ru": "Юкон"},
    packs=1,
    tableau=Tableau(piles=("u",) + tuple("d" * i + "u" * 5 for i in range(1, 7)),
                    build=Build.DOWN_ALTERNATE_COLOURS, unit=Unit.ANY_FACE_UP,
                    space=Space.KING),
    foundations=Foundations(count=4, takes=FoundationTakes.UP_IN_SUIT),
    stock=Stock(action=StockAction.NONE),
    difficulty="medium",
    related=("scorpion",),
    notes=("Any face-up card moves with every card on it, in whatever order they lie, when it"
           " fits the pile it goes to.",
           "A foundation's card never comes back.",),
)

SCORPION = GameRules(
    id="scorpion",
    names={"en": "Scorpion", "fr": "Scorpion", "ru": "Скорпион"},
    packs=1,
    tableau=Tableau(piles=("ddduuuu",) * 4 + ("uuuuuuu",) * 3, build=Build.DOWN_SAME_SUIT,
                    unit=Unit.ANY_FACE_UP, space=Space.KING),
    foundations=Foundations(count=4, takes=FoundationTakes.COMPLETE_SUIT, auto_collect=True),
    # The three cards left go one each onto the first three piles, whenever the player wants.
    stock=Stock(action=StockAction.DEAL_TO_TABLEAU),
    difficulty="difficult",
    related=("yukon",),
    notes=("The stock's three cards are dealt in one click onto the first three piles, empty"
           " or not, whenever the player chooses.",
           "A completed suit, King to Ace on top of a pile, leaves by itself as part of the"
           " move that completed it.",),
)
