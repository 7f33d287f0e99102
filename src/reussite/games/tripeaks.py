"""TriPeaks: three peaks of cards over a row of ten, played onto the waste one rank up or down,
King and Ace wrapping."""

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


def peak_covers() -> tuple[tuple[int, ...], ...]:
    """The piles covering each of the 28 one-card piles, numbered row by row, left to right:
    the peaks' tops 0-2, the second row 3-8, the third 9-17, the bottom row 18-27."""
    covers: list[tuple[int, ...]] = []
    for p in range(3):  # a peak's top: the two cards of the second row under it
        covers.append((3 + 2 * p, 4 + 2 * p))
    for p in range(3):  # the second row: two cards of the third row each
        for q in range(2):
            covers.append((9 + 3 * p + q, 10 + 3 * p + q))
    for i in range(9):  # the third row: two neighbours of the bottom row each
        covers.append((18 + i, 19 + i))
    covers += [()] * 10  # the bottom row is open
    return tuple(covers)


TRIPEAKS = GameRules(
    id="tripeaks",
    names={"en": "TriPeaks", "fr": "Trois Pics", "ru": "Три пика"},
    packs=1,
    tableau=Tableau(piles=("d",) * 18 + ("u",) * 10, build=Build.NONE, unit=Unit.SINGLE_CARD,
                    space=Space.NONE, covers=peak_covers()),
    foundations=Foundations(count=0, takes=FoundationTakes.UP_ANY_SUIT),
    stock=Stock(action=StockAction.DRAW_TO_WASTE, draw=1,
                waste_takes=WasteTakes.UP_OR_DOWN_WRAP, first_to_waste=True),
    difficulty="medium",
    related=("golf",),
    notes=("The game is won when the 28 cards of the peaks are cleared, whatever is left in"
           " the stock.",
           "Ranks wrap: a King goes on an Ace and an Ace on a King.",
           "A face-down card turns face up as soon as the two cards covering it are gone.",
           "The stock is gone through once, one card at a time: no redeal.",),
)
