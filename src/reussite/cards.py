"""Cards and decks: the first layer.

A card is a small int so that the engine and the solver stay fast::

    value = rank * 4 + suit          rank 1 (Ace) .. 13 (King), suit 0..3 = S H D C
    value | UP                        the same card lying face up

Two cards of the same rank and suit (from two packs) are the same value: they are
interchangeable in every rule.

>>> parse_card("TS") == card(10, SPADES)
True
>>> card_code(card(1, HEARTS))
'AH'
>>> len(build_deck(2)), len(build_deck(2, suits="SH")), len(build_deck(2, suits="S"))
(104, 104, 104)
"""

from __future__ import annotations

RANKS = "A23456789TJQK"
SUITS = "SHDC"
SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
ACE, JACK, QUEEN, KING = 1, 11, 12, 13
UP = 64
"""Flag added to a card value when the card lies face up."""


class InvalidCardError(ValueError):
    """A card code that is not two characters of rank then suit."""


def card(rank: int, suit: int) -> int:
    """The value of a face-down card of this rank (1..13) and suit (0..3)."""
    return rank * 4 + suit


def rank_of(value: int) -> int:
    return (value & 63) >> 2


def suit_of(value: int) -> int:
    return value & 3


def card_code(value: int) -> str:
    """The two-character code of a card (its face flag is ignored)."""
    return RANKS[rank_of(value) - 1] + SUITS[suit_of(value)]


def parse_card(code: str) -> int:
    """The face-down value of a two-character card code such as ``"QH"``."""
    if not isinstance(code, str) or len(code) != 2:
        raise InvalidCardError(f"A card code is two characters, rank then suit: {code!r}")
    r, s = code[0].upper(), code[1].upper()
    if r not in RANKS or s not in SUITS:
        raise InvalidCardError(f"Unknown card code {code!r}")
    return card(RANKS.index(r) + 1, SUITS.index(s))


def build_deck(packs: int, suits: str = SUITS) -> list[int]:
    """The cards of ``packs`` 52-card packs, in a fixed order (pack by pack, suit by suit, A..K).

    ``suits`` narrows the deck for one- and two-suit Spider: the deck keeps ``packs * 52``
    cards, made only of the given suits (``"SH"``: four packs' worth of spades and of hearts).
    """
    if not suits or any(s not in SUITS for s in suits) or 4 % len(suits):
        raise ValueError(f"suits must be 1, 2 or 4 of {SUITS!r}: {suits!r}")
    copies = packs * 4 // len(suits)
    deck: list[int] = []
    for _ in range(copies):
        for s in suits:
            deck.extend(card(r, SUITS.index(s)) for r in range(1, 14))
    return deck
