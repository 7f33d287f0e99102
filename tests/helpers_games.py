"""Hand-made positions for the rule tests of the games.

``make_position("spider", {"tableau:0": "(5H) KS QS"})`` is a Spider position whose first
tableau pile holds a face-down five of hearts under a face-up King and Queen of spades, bottom
card first. Parentheses mark a face-down card. Piles that are not named are empty. The stock is
always face down (parentheses there are optional); its last card is the one dealt next.
"""

from __future__ import annotations

from reussite.cards import UP, card_code, parse_card
from reussite.engine import Move, Position
from reussite.games import get_game


def parse_pile(text: str, face_down: bool = False) -> list[int]:
    """Card values from ``"(5H) KS QS"``, bottom card first."""
    out: list[int] = []
    for word in text.split():
        down = face_down or (word.startswith("(") and word.endswith(")"))
        value = parse_card(word.strip("()"))
        out.append(value if down else value | UP)
    return out


def make_position(game_id: str, piles: dict[str, str], redeals_used: int = 0) -> Position:
    rules = get_game(game_id)
    empty = Position(rules, 0, [])
    lay = empty.layout
    unknown = set(piles) - set(lay.ids)
    if unknown:
        raise KeyError(f"{game_id} has no pile {sorted(unknown)}")
    values = [parse_pile(piles.get(pid, ""), face_down=pid == "stock") for pid in lay.ids]
    return Position(rules, 0, values, redeals_used)


def show(pos: Position, pile_id: str) -> str:
    """A pile in the notation of :func:`make_position`, for readable assertions."""
    return " ".join(card_code(c) if c & UP else f"({card_code(c)})" for c in pos.pile(pile_id))


def move(src: str, dst: str, count: int = 1) -> Move:
    return Move("move", src, dst, count)


STOCK = Move("stock")
