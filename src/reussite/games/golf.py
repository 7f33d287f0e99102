"""Golf: seven piles of five face up, played onto the waste one rank up or down."""

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
    WasteTakes,
)

GOLF = GameRules(
    id="golf",
    names={"en": "Golf", "fr": "Golf", "ru": "Гольф"},
    packs=1,
    tableau=Tableau(piles=("uuuuu",) * 7, build=Build.NONE, unit=Unit.SINGLE_CARD,
                    space=Space.NONE),
    foundations=Foundations(count=0, takes=FoundationTakes.UP_ANY_SUIT),
    stock=Stock(action=StockAction.DRAW_TO_WASTE, draw=1, waste_takes=WasteTakes.UP_OR_DOWN,
                first_to_waste=True),
    difficulty="difficult",
    related=("forty-thieves", "tripeaks"),
    notes=("The game is won when the seven piles are empty, whatever is left in the stock.",
           "Ranks do not wrap: nothing goes on an Ace but a 2, and nothing on a King but a"
           " Queen. A Queen may go on a King, as in PySol's Golf; some versions (Aisleriot's,"
           " PySol's Dead King Golf) put nothing on a King.",
           "The stock is gone through once, one card at a time: no redeal.",),
)
