"""Leap Year and Quadrennial: 4 packs, the 16 Aces on foundations built up regardless of suit,
8 reserve piles fed by the stock. Quadrennial adds two redeals gathering the reserves; Auld Lang
Syne is their one-pack ancestor."""

from dataclasses import replace

from reussite.rules import (
    Foundations,
    FoundationTakes,
    GameRules,
    Redeal,
    Reserve,
    Stock,
    StockAction,
)

LEAP_YEAR = GameRules(
    id="leap-year",
    names={"en": "Leap Year", "fr": "Leap Year", "ru": "Високосный год"},
    packs=4,
    tableau=None,
    reserve=Reserve(piles=("u",) * 8),
    foundations=Foundations(count=16, takes=FoundationTakes.UP_ANY_SUIT, start_with_aces=True,
                            between=True),
    # An emptied reserve pile stays empty: the stock deals only onto the others.
    stock=Stock(action=StockAction.DEAL_TO_RESERVE, skip_empty_piles=True),
    difficulty="difficult",
    related=("auld-lang-syne", "quadrennial"),
    notes=("A reserve pile that has become empty stays empty: the stock deals onto the others;"
           " when every reserve pile is empty and stock remains, the game is lost.",
           "A foundation's top card may move to another foundation that takes it; such a move"
           " never changes what the foundations accept, so a game where only such moves remain"
           " is lost.",),
)

QUADRENNIAL = replace(
    LEAP_YEAR,
    id="quadrennial",
    names={"en": "Quadrennial", "fr": "Quadrennial", "ru": "Четырёхлетие"},
    stock=replace(LEAP_YEAR.stock, redeal=Redeal.GATHER_RESERVES, redeals=2),
    difficulty="medium",
    related=("leap-year", "auld-lang-syne"),
    notes=("Gathering: the reserve piles are picked up, the first pile first and each keeping its"
           " order, and turned face down as the new stock: the first pile's bottom card is dealt"
           " first.",
           "The click that gathers also deals one card onto each of the 8 reserve piles, as the"
           " opening deal did: every pile is empty after a gather, and the stock would otherwise"
           " have nowhere to deal. A pile emptied later stays empty until the next gather.",
           "Otherwise as Leap Year: an emptied reserve pile stays empty; a foundation's top card"
           " may move to another foundation.",),
)

AULD_LANG_SYNE = GameRules(
    id="auld-lang-syne",
    names={"en": "Auld Lang Syne", "fr": "Auld Lang Syne", "ru": "Старая дружба"},
    packs=1,
    tableau=None,
    reserve=Reserve(piles=("u",) * 4),
    foundations=Foundations(count=4, takes=FoundationTakes.UP_ANY_SUIT, start_with_aces=True),
    stock=Stock(action=StockAction.DEAL_TO_RESERVE),
    difficulty="difficult",
    related=("leap-year", "quadrennial"),
    notes=("The stock deals onto all 4 reserve piles, empty ones included.",
           "Cards stay on the foundations: Leap Year's moves between foundations are not part of"
           " this game (they never change anything).",),
)
