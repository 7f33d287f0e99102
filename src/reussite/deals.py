"""Deal numbers: the project's own seeded shuffle, stable forever.

A deal number ``n`` seeds a SplitMix64 generator (Steele, Lea & Flood, 2014) whose
state starts at ``n``. The deck (in the fixed order of :func:`reussite.cards.build_deck`)
is shuffled by Fisher–Yates from the last position down, each index drawn without bias
by rejection sampling. Nothing here uses Python's ``random``, so the same number gives
the same deal on every machine and in every later version (the golden tests pin it).

The game id is not part of the seed: games that share a deck and a layout (Klondike draw 1
and draw 3, Leap Year and Quadrennial) share their deals, number for number.

FreeCell's numbers are Microsoft's instead (:func:`microsoft_order`): the deals of Windows
FreeCell, 1 to 1,000,000, so that "FreeCell #11982" is the deal players know by that name.

>>> SplitMix64(0).next()
16294208416658607535
>>> shuffled([1, 2, 3, 4, 5], 7)
[5, 2, 4, 1, 3]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from reussite.cards import card
from reussite.rules import DealNumbers

MASK64 = (1 << 64) - 1
MAX_DEAL_NUMBER = MASK64
"""Deal numbers are non-negative integers below 2**64."""


class SplitMix64:
    """A tiny 64-bit generator with a well-known, documented output sequence."""

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, by rejection of the biased top of the range."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next()
            if x < limit:
                return x % n


MICROSOFT_DEALS = 1_000_000
"""Windows FreeCell's deals are numbered 1 to 1,000,000 (the generator gives a deal 0 too,
which Windows never offered; it is accepted here, so that every game has a deal 0)."""


def number_range(numbers: DealNumbers = DealNumbers.OWN) -> tuple[int, int]:
    """The first and last deal number of a game whose numbers are ``numbers``."""
    if numbers is DealNumbers.MICROSOFT:
        return 0, MICROSOFT_DEALS
    return 0, MAX_DEAL_NUMBER


def check_deal_number(number: int, numbers: DealNumbers = DealNumbers.OWN) -> int:
    if isinstance(number, bool) or not isinstance(number, int):
        raise ValueError("A deal number is a whole number")
    lo, hi = number_range(numbers)
    if not lo <= number <= hi:
        raise ValueError(f"A deal number of this game is between {lo} and {hi}")
    return number


def number_from(value: int, numbers: DealNumbers = DealNumbers.OWN) -> int:
    """A deal number in the game's range made from any non-negative ``value`` (a random draw,
    a keyed hash): ``value`` itself where the range is the whole of 64 bits."""
    lo, hi = number_range(numbers)
    return lo + value % (hi - lo + 1)


def random_number(numbers: DealNumbers, below: Callable[[int], int]) -> int:
    """A deal number drawn uniformly from the game's range, ``below(n)`` drawing from
    ``[0, n)`` (the site passes ``secrets.randbelow``)."""
    lo, hi = number_range(numbers)
    return lo + below(hi - lo + 1)


def microsoft_order(number: int) -> list[int]:
    """The 52 cards of Windows FreeCell's deal ``number``, in the order they are dealt (row by
    row onto 8 piles).

    The generator is Microsoft C's ``rand()`` seeded with the number: state ``s`` becomes
    ``s * 214013 + 2531011`` (mod 2**31), and each draw is bits 16-30 of the state. The pack
    is numbered 0-51, rank first (Ace to King) then suit (clubs, diamonds, hearts, spades);
    each card dealt is the draw modulo the cards left, and the last card left takes its
    place.

    >>> from reussite.cards import card_code
    >>> [card_code(c) for c in microsoft_order(1)[:8]]
    ['JD', '2D', '9H', 'JC', '5D', '7H', '7C', '5H']
    """
    check_deal_number(number, DealNumbers.MICROSOFT)
    suits = (3, 2, 1, 0)  # Microsoft's clubs, diamonds, hearts, spades as S H D C indexes
    pack = [card(i // 4 + 1, suits[i % 4]) for i in range(52)]
    state = number
    order: list[int] = []
    for left in range(52, 0, -1):
        state = (state * 214013 + 2531011) & 0x7FFFFFFF
        j = (state >> 16) % left
        order.append(pack[j])
        pack[j] = pack[left - 1]
    return order


def shuffled(deck: Sequence[int], number: int) -> list[int]:
    """The deck shuffled for deal ``number`` (Fisher–Yates, last index first)."""
    rng = SplitMix64(check_deal_number(number))
    cards = list(deck)
    for i in range(len(cards) - 1, 0, -1):
        j = rng.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards
