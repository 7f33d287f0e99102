"""FreeCell and Baker's Dozen: every card dealt face up, no stock; skill alone decides."""

from reussite.rules import (
    Build,
    DealNumbers,
    Foundations,
    FoundationTakes,
    GameRules,
    Space,
    Stock,
    StockAction,
    Tableau,
    Unit,
)

FREECELL = GameRules(
    id="freecell",
    names={"en": "FreeCell", "fr": "FreeCell", "ru": "Свободная ячейка"},
    packs=1,
    numbers=DealNumbers.MICROSOFT,
    tableau=Tableau(piles=("u" * 7,) * 4 + ("u" * 6,) * 4, build=Build.DOWN_ALTERNATE_COLOURS,
                    unit=Unit.ALTERNATING_RUN, space=Space.ANY, free_places_limit=True),
    cells=4,
    foundations=Foundations(count=4, takes=FoundationTakes.UP_IN_SUIT),
    stock=Stock(action=StockAction.NONE),
    difficulty="easy",
    related=("bakers-dozen", "forty-thieves"),
    notes=("Deal numbers are those of Windows FreeCell, 1 to 1,000,000: the cards are dealt"
           " row by row, left to right, as Microsoft's generator gives them.",
           "A run moves as one move, at most (free cells + 1) x 2 ^ (empty piles) cards, the"
           " target pile not counted when it is empty.",
           "A foundation's card never comes back.",),
)

BAKERS_DOZEN = GameRules(
    id="bakers-dozen",
    names={"en": "Baker's Dozen", "fr": "Treize du boulanger", "ru": "Чёртова дюжина"},
    packs=1,
    tableau=Tableau(piles=("uuuu",) * 13, build=Build.DOWN_ANY_SUIT, unit=Unit.SINGLE_CARD,
                    space=Space.NONE, kings_to_bottom=True),
    foundations=Foundations(count=4, takes=FoundationTakes.UP_IN_SUIT),
    stock=Stock(action=StockAction.NONE),
    difficulty="medium",
    related=("freecell", "forty-thieves"),
    notes=("At the deal, the Kings of each pile go beneath its other cards, in their order.",
           "An emptied pile stays empty.",
           "A foundation's card never comes back.",),
)
