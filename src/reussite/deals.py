"""Deal numbers: the project's own seeded shuffle, stable forever.

A deal number ``n`` seeds a SplitMix64 generator (Steele, Lea & Flood, 2014) whose
state starts at ``n``. The deck (in the fixed order of :func:`reussite.cards.build_deck`)
is shuffled by Fisher–Yates from the last position down, each index drawn without bias
by rejection sampling. Nothing here uses Python's ``random``, so the same number gives
the same deal on every machine and in every later version (the golden tests pin it).

The game id is not part of the seed: games that share a deck and a layout (Klondike draw 1
and draw 3, Leap Year and Quadrennial) share their deals, number for number.

>>> SplitMix64(0).next()
16294208416658607535
>>> shuffled([1, 2, 3, 4, 5], 7)
[5, 2, 4, 1, 3]
"""

from __future__ import annotations

from collections.abc import Sequence

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


def check_deal_number(number: int) -> int:
    if isinstance(number, bool) or not isinstance(number, int):
        raise ValueError("A deal number is a whole number")
    if not 0 <= number <= MAX_DEAL_NUMBER:
        raise ValueError(f"A deal number is between 0 and {MAX_DEAL_NUMBER}")
    return number


def shuffled(deck: Sequence[int], number: int) -> list[int]:
    """The deck shuffled for deal ``number`` (Fisher–Yates, last index first)."""
    rng = SplitMix64(check_deal_number(number))
    cards = list(deck)
    for i in range(len(cards) - 1, 0, -1):
        j = rng.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards
