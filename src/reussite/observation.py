"""What a player sees of a game, and remembers: the one thing the honest players and the hints
receive.

An :class:`Observation` is made in one place, :func:`observe`, from a position and what its
player remembers. It holds the game's rules, the piles as the player sees them (each face-down
card masked by :func:`reussite.engine.shown`, the one rule of what is hidden), the redeals
used, the moves played so far with what each did (which cards went where, which turned over:
no card's identity), and the player's memory (:class:`Memory`). It holds no position, no
face-down card the player has not seen and no deal number: a player given one cannot read a
hidden card, whatever it does.

A player that needs positions makes them from the observation: :meth:`Observation.sample`
deals the cards it cannot place at random into the places it cannot see (the
determinization), :meth:`Observation.stand_in` puts them there in a fixed order, for the rules
that read no hidden card (the legal moves, the search's children).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from reussite.cards import UP, build_deck
from reussite.engine import HIDDEN, TRANSFER, Layout, Position, RawMove, layout_of, shown
from reussite.rules import GameRules

UNKNOWN = -1
"""A place whose card the player never saw (in :attr:`Memory.known`)."""

Record = tuple[RawMove, tuple[tuple[int, ...], ...]]
"""A move played and what it did, as in :attr:`Position.history`: (TRANSFER, from, to, n),
(FLIP, pile), (REDEAL,); pile numbers and counts only."""


class Memory:
    """The cards the player has seen, by place: ``known[pile][i]`` is the card (without its
    face-up bit) at place ``i`` of the pile, or :data:`UNKNOWN` when the player never saw it.

    A card seen face up stays known when it is turned face down again: the waste turned over
    into the stock (Klondike, Athena, Minerva), the reserves gathered into the stock
    (Quadrennial). Built from what the player sees alone: after each move the face-up cards
    are recorded, and a transfer carries what is known of its cards along with them (the
    player sees which cards a move takes where, even when a redeal turns them face down).
    """

    def __init__(self, pos: Position) -> None:
        self.known: list[list[int]] = [[c & ~UP if c & UP else UNKNOWN for c in p]
                                       for p in pos.piles]

    @classmethod
    def of(cls, pos: Position) -> Memory:
        """What a player who played ``pos``'s moves from the deal remembers now."""
        start = pos.copy()
        line = [raw for raw, _ in start.history]
        while start.history:
            start.pop()
        memory = cls(start)
        for raw in line:
            start.push_raw(raw)
            memory.follow(start)
        return memory

    @classmethod
    def recalled(cls, known: tuple[tuple[int, ...], ...]) -> Memory:
        """A memory holding ``known`` (an observation's), to follow further."""
        memory = cls.__new__(cls)
        memory.known = [list(k) for k in known]
        return memory

    def follow(self, pos: Position) -> None:
        """Take in the last move of ``pos`` (just played)."""
        known = self.known
        for op in pos.history[-1][1]:
            if op[0] == TRANSFER:
                _, src, dst, n = op
                known[dst] += known[src][-n:]
                del known[src][-n:]
        for k, p in zip(known, pos.piles, strict=True):
            for i, c in enumerate(p):
                if c & UP:
                    k[i] = c & ~UP

    def frozen(self) -> tuple[tuple[int, ...], ...]:
        """What is remembered, as an observation holds it."""
        return tuple(tuple(k) for k in self.known)


@dataclass(frozen=True)
class Observation:
    """What the player sees and remembers (see the module's docstring)."""

    rules: GameRules
    piles: tuple[tuple[int, ...], ...]
    """Each pile bottom to top, each card as :func:`reussite.engine.shown` shows it (face up
    with its face-up bit, :data:`reussite.engine.HIDDEN` when face down)."""
    redeals_used: int
    history: tuple[Record, ...]
    """The moves played so far, each with what it did (no card's identity)."""
    known: tuple[tuple[int, ...], ...]
    """What the player remembers (:attr:`Memory.known`)."""

    @property
    def layout(self) -> Layout:
        return layout_of(self.rules)

    @property
    def moves(self) -> tuple[RawMove, ...]:
        return tuple(raw for raw, _ in self.history)

    def key(self) -> tuple[object, ...]:
        """What the player sees, as a hashable value (the visible key)."""
        return (self.redeals_used, self.piles)

    def masked_piles(self) -> tuple[bytes, ...]:
        """The piles as the C core's visible search takes them: each face-down card as 0."""
        return tuple(bytes(p) for p in self.piles)

    def memory(self) -> Memory:
        """A memory holding what the player remembers, to follow further moves with."""
        return Memory.recalled(self.known)

    def stock_known(self) -> bool:
        """The player knows every card of the stock (or it is empty)."""
        return not self.piles[0] or all(c != UNKNOWN for c in self.known[0])

    def unseen(self) -> list[int]:
        """The cards the player cannot place, as a sorted multiset: the deck minus the face-up
        cards, minus the face-down cards it remembers."""
        left = Counter(build_deck(self.rules.packs, self.rules.suits))
        for pile, known in zip(self.piles, self.known, strict=True):
            for c, k in zip(pile, known, strict=True):
                if c != HIDDEN:
                    left[c & ~UP] -= 1
                elif k != UNKNOWN:
                    left[k] -= 1
        return sorted(left.elements())

    def _filled(self, hidden: list[int]) -> Position:
        """A position that looks like this observation, each unseen card taken from the end
        of ``hidden``, each remembered one where the player saw it go (no history)."""
        piles: list[list[int]] = []
        for pile, known in zip(self.piles, self.known, strict=True):
            piles.append([c if c != HIDDEN else k if k != UNKNOWN else hidden.pop()
                          for c, k in zip(pile, known, strict=True)])
        return Position(self.rules, 0, piles, self.redeals_used)

    def sample(self, rng: random.Random) -> Position:
        """A position that looks exactly like this to the player and agrees with what it
        remembers, the other hidden cards drawn at random (the same generator state, the same
        sample)."""
        hidden = self.unseen()
        rng.shuffle(hidden)
        return self._filled(hidden)

    def stand_in(self) -> Position:
        """A position that looks exactly like this to the player, the cards it cannot place
        in a fixed order, and the moves played: for what reads no hidden card (the legal
        moves, the search's children, the visible scores), never for what the cards are."""
        pos = self._filled(self.unseen())
        pos.history = list(self.history)
        return pos


def _masked(pos: Position) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(shown(c) for c in p) for p in pos.piles)


def view_key(pos: Position) -> tuple[object, ...]:
    """What the player of ``pos`` sees, as a hashable value: :meth:`Observation.key` of its
    observation (without making one)."""
    return (pos.redeals_used, _masked(pos))


def repeat_key(pos: Position) -> tuple[object, ...]:
    """A position of ``pos``'s game as far as going round in circles goes: what the player
    sees, with the redeals used only where they are limited (turning the waste over without
    limit leaves nothing changed for what can happen next).

    Within one game, two positions with this key alike are the same position: the face-down
    cards never move unseen (a stock keeps its order, a turned-over waste is the stock again
    in the order the player saw it, a gathering is made from cards in view), so the key reads
    no hidden card and compares whole positions."""
    limited = pos.rules.stock.redeals is not None and pos.rules.stock.redeals > 0
    return (pos.redeals_used if limited else 0, _masked(pos))


def observe(pos: Position, memory: Memory | None = None) -> Observation:
    """What the player of ``pos`` sees and remembers (``memory``: what it remembers, when
    followed along the game; by default rebuilt from ``pos``'s moves, :meth:`Memory.of`)."""
    if memory is None:
        memory = Memory.of(pos)
    return Observation(pos.rules, _masked(pos), pos.redeals_used, tuple(pos.history),
                       memory.frozen())
