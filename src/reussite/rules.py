"""What a game *is*, declared as data: pile kinds and their policies.

Each game of the catalogue is one :class:`GameRules` built from the small policy values
below (see ``reussite/games/``). The engine reads these values; it knows no game by name.

Deal patterns are strings read bottom to top, one letter a card: ``d`` face down, ``u`` face
up. ``"dudu"`` is Athena's pile of four.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class Build(Enum):
    """How a card is placed on a tableau pile (always one rank lower than the top card)."""

    DOWN_ANY_SUIT = "down, any suit"
    DOWN_ALTERNATE_COLOURS = "down, alternating colours"
    DOWN_SAME_SUIT = "down, same suit"
    NONE = "nothing: no card is ever placed on a tableau pile"


class Unit(Enum):
    """Which runs of cards may leave a tableau pile together (a single top card always may)."""

    SAME_SUIT_RUN = "same-suit run"
    ALTERNATING_RUN = "alternating run"
    SINGLE_CARD = "one card at a time"
    ANY_FACE_UP = "any face-up card, with every card on it"
    """Whatever lies on it, in any order (Yukon, Scorpion)."""


class Space(Enum):
    """What may be placed on an empty tableau pile."""

    ANY = "any card"
    KING = "a King or a run led by a King"
    NONE = "nothing: an emptied pile stays empty"


class FoundationTakes(Enum):
    """What a foundation accepts."""

    COMPLETE_SUIT = "a complete same-suit run from King to Ace, in one move, onto an empty one"
    UP_IN_SUIT = "up in suit from Ace, one card at a time"
    UP_ANY_SUIT = "up regardless of suit from Ace, one card at a time"


class StockAction(Enum):
    """What a click on the stock does."""

    DEAL_TO_TABLEAU = "deal one card face up onto each tableau pile"
    DEAL_TO_RESERVE = "deal one card face up onto each reserve pile"
    DRAW_TO_WASTE = "turn cards face up onto the waste"
    NONE = "there is no stock: every card is dealt at the start"


class WasteTakes(Enum):
    """What the waste accepts besides the cards turned from the stock: the top card of a
    tableau pile, one at a time, when it fits the waste's top card."""

    NOTHING = "nothing: only the stock's cards reach the waste"
    UP_OR_DOWN = ("a card one rank above or below its top card, any suit, without wrapping"
                  " (nothing on a King but a Queen, nothing on an Ace but a 2)")
    UP_OR_DOWN_WRAP = ("a card one rank above or below its top card, any suit, King and Ace"
                       " wrapping (a King on an Ace, an Ace on a King)")


class DealNumbers(Enum):
    """Where a deal number's layout comes from (see :mod:`reussite.deals`)."""

    OWN = "the project's own shuffle, numbers 0 to 2**64 - 1"
    MICROSOFT = "the deals of Windows FreeCell, numbers 0 to 1,000,000"


class Redeal(Enum):
    """How an empty stock is formed again, when redeals are left."""

    NONE = "no redeal"
    TURN_WASTE = "turn the waste over, keeping its order"
    GATHER_RESERVES = ("gather the reserve piles, the first pile first, without shuffling, and"
                       " deal one card onto each reserve pile again")


@dataclass(frozen=True)
class Tableau:
    piles: tuple[str, ...]
    """The deal pattern of each pile, left to right (``"ddddddu"``)."""
    build: Build
    unit: Unit
    space: Space = Space.ANY
    free_places_limit: bool = False
    """A run moves as a unit only as far as free cells and empty piles would let it move one
    card at a time: (free cells + 1) x 2 ** (empty piles), the target pile not counted."""
    kings_to_bottom: bool = False
    """At the deal, each pile's Kings are moved beneath its other cards (keeping their order)."""
    covers: tuple[tuple[int, ...], ...] = ()
    """For each pile (by its index in ``piles``), the piles that cover it; empty: no pile
    covers another. A covered pile's cards cannot move; when the last pile covering a
    face-down card is emptied, that card turns face up (TriPeaks' peaks)."""


@dataclass(frozen=True)
class Foundations:
    count: int
    takes: FoundationTakes
    start_with_aces: bool = False
    """The Aces are taken out before the shuffle and start on the foundations (one each)."""
    gives_back: bool = False
    """The top card may come back to the tableau."""
    between: bool = False
    """The top card may move to another foundation that accepts it."""
    auto_collect: bool = False
    """A complete same-suit run King..Ace on a tableau pile leaves it by itself (Spider)."""


@dataclass(frozen=True)
class Reserve:
    piles: tuple[str, ...]
    """The deal pattern of each reserve pile. Nothing is ever built on a reserve."""
    to_tableau: bool = False
    """The top card may go to the tableau (it may always go to a foundation)."""


@dataclass(frozen=True)
class Stock:
    action: StockAction
    draw: int = 1
    """Cards turned onto the waste per click (DRAW_TO_WASTE)."""
    not_while_empty_pile: bool = False
    """Dealing is refused while any target pile is empty."""
    skip_empty_piles: bool = False
    """An emptied target pile stays empty: dealing skips it."""
    redeal: Redeal = Redeal.NONE
    redeals: int | None = 0
    """How many times the stock may be formed again; ``None``: any number of times."""
    waste_takes: WasteTakes = WasteTakes.NOTHING
    """What the waste accepts from the tableau (DRAW_TO_WASTE)."""
    first_to_waste: bool = False
    """At the deal, one card is turned from the stock onto the waste (DRAW_TO_WASTE)."""


@dataclass(frozen=True)
class GameRules:
    id: str
    names: dict[str, str]
    """The game's name in English (``en``), French (``fr``) and Russian (``ru``)."""
    packs: int
    tableau: Tableau | None
    foundations: Foundations
    stock: Stock
    suits: str = "SHDC"
    numbers: DealNumbers = DealNumbers.OWN
    cells: int = 0
    reserve: Reserve | None = None
    difficulty: str = "medium"
    related: tuple[str, ...] = ()
    spider_score: bool = False
    """Familiar Spider scoring: 500, -1 per move, +100 per completed suit."""
    klondike_score: bool = False
    """Standard and Vegas scoring of the Klondike family (:mod:`reussite.scoring`), shown
    when the player chooses one."""
    notes: tuple[str, ...] = field(default=())
    """Decisions taken on ambiguous points, in plain words."""

    @property
    def name(self) -> str:
        return self.names["en"]

    @property
    def cards(self) -> int:
        return self.packs * 52

    @property
    def has_stock(self) -> bool:
        """Cards are left in a stock at the deal (the ``stock`` pile always exists, empty
        where there is none, and the table does not show it)."""
        return self.stock.action is not StockAction.NONE

    @property
    def has_waste(self) -> bool:
        return self.stock.action is StockAction.DRAW_TO_WASTE

    @property
    def clears_to_win(self) -> bool:
        """A game without foundations is won when the tableau, the reserves and the cells are
        empty (the stock and the waste may still hold cards)."""
        return self.foundations.count == 0

    @property
    def layout_cards(self) -> int:
        """The cards dealt onto the tableau and the reserves."""
        patterns = (*(self.tableau.piles if self.tableau else ()),
                    *(self.reserve.piles if self.reserve else ()))
        return sum(len(p) for p in patterns)

    @property
    def hides_cards(self) -> bool:
        """Some card of the deal is out of sight before the first move: dealt face down, or
        left in the stock. (A game without one can be solved before it is played.)"""
        patterns = (*(self.tableau.piles if self.tableau else ()),
                    *(self.reserve.piles if self.reserve else ()))
        dealt = sum(len(p) for p in patterns)
        if self.foundations.start_with_aces:
            dealt += len(self.suits) * self.packs
        return any("d" in p for p in patterns) or dealt < self.cards

    @property
    def redeals_label(self) -> str:
        if self.stock.redeals is None:
            return "unlimited"
        return str(self.stock.redeals)
