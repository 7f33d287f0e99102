"""Klondike (draw 1 and draw 3) and Fred's Spider."""

from reussite.rules import (
    Build,
    Foundations,
    FoundationTakes,
    GameRules,
    Redeal,
    Space,
    Stock,
    StockAction,
    Tableau,
    Unit,
)


def klondike(id: str, draw: int, names: dict[str, str]) -> GameRules:
    return GameRules(
        id=id,
        names=names,
        packs=1,
        tableau=Tableau(piles=tuple("d" * i + "u" for i in range(7)),
                        build=Build.DOWN_ALTERNATE_COLOURS, unit=Unit.ALTERNATING_RUN,
                        space=Space.KING),
        foundations=Foundations(count=4, takes=FoundationTakes.UP_IN_SUIT, gives_back=True),
        stock=Stock(action=StockAction.DRAW_TO_WASTE, draw=draw, redeal=Redeal.TURN_WASTE,
                    redeals=None),
        difficulty="easy" if draw == 1 else "medium",
        related=tuple(g for g in ("klondike", "klondike-draw-3") if g != id)
        + ("athena", "minerva", "astrocyte"),
        klondike_score=True,
        notes=("A foundation's top card may come back onto the tableau.",),
    )


KLONDIKE = klondike("klondike", 1, {"en": "Klondike", "fr": "Klondike", "ru": "Косынка"})
KLONDIKE_DRAW_3 = klondike("klondike-draw-3", 3,
                           {"en": "Klondike (draw 3)", "fr": "Klondike (trois cartes)",
                            "ru": "Косынка (по три карты)"})

FREDS_SPIDER = GameRules(
    id="freds-spider",
    names={"en": "Fred's Spider", "fr": "Fred's Spider", "ru": "Паук Фреда"},
    packs=2,
    tableau=Tableau(piles=("uuuuu",) * 10, build=Build.DOWN_ANY_SUIT, unit=Unit.SAME_SUIT_RUN,
                    space=Space.ANY),
    foundations=Foundations(count=8, takes=FoundationTakes.UP_IN_SUIT, gives_back=True),
    # Ten cards a deal, onto empty piles too; the last deal gives its four cards to piles 1-4.
    stock=Stock(action=StockAction.DEAL_TO_TABLEAU),
    difficulty="medium",
    related=("spider", "spider-2-suits", "spider-1-suit", "astrocyte"),
    notes=("The stock deals onto empty piles too; the sixth and last deal gives its 4 cards to"
           " the first 4 piles.",
           "Any Ace goes to an empty foundation (two foundations per suit); a foundation's top"
           " card may come back onto the tableau.",),
)
