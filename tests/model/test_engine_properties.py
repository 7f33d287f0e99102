"""What must always hold, for every game of the catalogue, over random deals and playouts.

- the cards are conserved (52 x packs, each card the right number of times);
- pop() restores the position exactly (equal, and equal hash), move by move and whole games;
- every listed legal move is accepted by play(), and every move not listed is refused;
- the player view never contains a face-down card's identity or the stock order;
- moves round-trip through JSON.

Hypothesis draws a deal number and a playout (a seed for the moves, a length, a liking for
the stock click);
``derandomize=True`` keeps CI stable.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import FrozenInstanceError, dataclass

import pytest
from helpers import card_counts
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reussite.cards import UP, build_deck, card_code
from reussite.deals import MAX_DEAL_NUMBER, number_from
from reussite.engine import STOCK_RAW, IllegalMoveError, InvalidMoveError, Move, Position
from reussite.games import CATALOGUE

GAMES = list(CATALOGUE)

PROPERTY = settings(max_examples=8, derandomize=True, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

numbers = st.integers(min_value=0, max_value=MAX_DEAL_NUMBER)


def deal(game_id: str, number: int) -> Position:
    """The deal of ``game_id`` that the drawn ``number`` names in that game's range."""
    rules = CATALOGUE[game_id]
    return Position.deal(rules, number_from(number, rules.numbers))


@dataclass(frozen=True)
class Playout:
    """How to play a random game: a seed for the choices, a number of moves, and how often
    to click the stock when it may be clicked (so that deals and redeals are reached)."""

    seed: int
    length: int
    stock_bias: float


playouts = st.builds(Playout, seed=st.integers(min_value=0, max_value=2**32),
                     length=st.integers(min_value=0, max_value=200),
                     stock_bias=st.sampled_from([0.0, 0.1, 0.3]))


def walk(pos: Position, playout: Playout) -> Iterator[Position]:
    """Yield the position, then after each yield play a random legal move, until the playout's
    length or the legal moves run out."""
    rng = random.Random(playout.seed)
    yield pos
    for _ in range(playout.length):
        moves = pos.raw_moves()
        if not moves:
            return
        if moves[-1] == STOCK_RAW and rng.random() < playout.stock_bias:
            pos.push_raw(STOCK_RAW)
        else:
            pos.push_raw(rng.choice(moves))
        yield pos


def expected_counts(game_id: str) -> Counter[str]:
    rules = CATALOGUE[game_id]
    return Counter(card_code(c) for c in build_deck(rules.packs, rules.suits))


@pytest.mark.parametrize("game_id", GAMES)
@PROPERTY
@given(number=numbers, playout=playouts)
def test_the_cards_are_conserved(game_id: str, number: int, playout: Playout) -> None:
    """Every card of the game's packs is in the position, the right number of times, always."""
    expected = expected_counts(game_id)
    assert sum(expected.values()) == 52 * CATALOGUE[game_id].packs
    for pos in walk(deal(game_id, number), playout):
        assert card_counts(pos) == expected


@pytest.mark.parametrize("game_id", GAMES)
@PROPERTY
@given(number=numbers, playout=playouts)
def test_take_back_restores_the_position_exactly(game_id: str, number: int,
                                                 playout: Playout) -> None:
    """pop() restores the position exactly (equal, equal hash), after each legal move of every
    position met, and after a whole playout taken back move by move."""
    start = deal(game_id, number)
    pos = start.copy()
    for p in walk(pos, playout):
        before = p.copy()
        for raw in p.raw_moves():
            p.push_raw(raw)
            assert p.pop() == p.to_move(raw)
            assert p == before and hash(p) == hash(before)
            assert p.piles == before.piles and p.redeals_used == before.redeals_used
    played = list(pos.history)
    for raw, _ in reversed(played):
        assert pos.pop() == pos.to_move(raw)
    assert pos == start and hash(pos) == hash(start)
    assert pos.piles == start.piles and pos.history == []


def candidate_moves(pos: Position) -> Iterator[Move]:
    """Every move of the top 0..n+1 cards of a tableau pile onto any pile (n: the pile's size,
    at most 14), of 0, 1, 2, n or n+1 cards of any other pile onto any pile, and the stock
    click.

    Only a tableau pile ever gives more than one card, so the other piles are tried at the
    edges only (this keeps the 25 piles of Leap Year affordable). Nothing is lost: a listed move
    outside this set would still fail the comparison, since it would be listed but not
    accepted."""
    yield Move("stock")
    for src in pos.layout.ids:
        size = len(pos.pile(src))
        for dst in pos.layout.ids:
            counts = range(0, min(14, size + 1) + 1) if src.startswith("tableau") \
                else (0, 1, 2, size, size + 1)
            for count in sorted(set(counts)):
                yield Move("move", src, dst, count)


@pytest.mark.parametrize("game_id", GAMES)
@settings(PROPERTY, max_examples=4)
@given(number=numbers, playout=playouts, middle=st.floats(min_value=0, max_value=1))
def test_play_accepts_exactly_the_listed_moves(game_id: str, number: int, playout: Playout,
                                               middle: float) -> None:
    """Every listed legal move is accepted by play(); a move not listed is refused with a
    sentence (IllegalMoveError), and the position is left as it was. Checked on the position
    reached half-way through a playout (somewhere) and at its end."""
    pos = deal(game_id, number)
    stop = int(playout.length * middle)
    for step, p in enumerate(walk(pos, playout)):
        if step == stop:
            check_play_accepts_exactly_the_listed_moves(p)
    check_play_accepts_exactly_the_listed_moves(pos)


VAGUE = {"That move is not allowed", "The stock cannot be clicked now"}
"""The engine's last-resort sentences: a refusal met in play should say more."""


def check_play_accepts_exactly_the_listed_moves(pos: Position) -> None:
    listed = pos.legal_moves()
    assert len(set(listed)) == len(listed), "a move is listed twice"
    assert [pos.to_raw(m) for m in listed] == pos.raw_moves()
    before = pos.copy()
    accepted = set()
    for m in candidate_moves(pos):
        try:
            pos.play(m)
        except IllegalMoveError as e:
            assert str(e) and str(e) not in VAGUE, f"{m}: say why it is refused"
            assert pos == before
            continue
        accepted.add(m)
        pos.pop()
        assert pos == before
    assert accepted == set(listed)


def test_moves_are_small_immutable_values() -> None:
    """A move is a frozen value: equal moves are equal and hash equal, and it cannot change."""
    m = Move("move", "tableau:3", "cell:0", 1)
    assert m == Move.from_json({"type": "move", "from": "tableau:3", "to": "cell:0"})
    assert hash(m) == hash(Move("move", "tableau:3", "cell:0", 1))
    with pytest.raises(FrozenInstanceError):
        m.count = 2  # type: ignore[misc]
    assert Move.from_json({"type": "stock"}) == Move("stock")
    assert str(m) == "1 tableau:3 -> cell:0" and str(Move("stock")) == "stock"


@pytest.mark.parametrize("game_id", GAMES)
def test_malformed_moves_are_invalid(game_id: str) -> None:
    """A move naming a pile the game does not have, or of an unknown type, is not well
    formed: InvalidMoveError, not IllegalMoveError."""
    pos = Position.deal(CATALOGUE[game_id], 1)
    bad = [Move("move", "tableau:99", "tableau:0", 1), Move("move", "tableau:0", "bogus", 1),
           Move("move", "cell:17", "foundation:0", 1), Move("jump", "tableau:0", "cell:0", 1)]
    for m in bad:
        with pytest.raises(InvalidMoveError):
            pos.play(m)
    for data in [None, [], {"type": "pass"}, {"type": "move", "from": 3, "to": "cell:0"},
                 {"type": "move", "from": "tableau:0", "to": "cell:0", "count": "2"},
                 {"type": "move", "from": "tableau:0", "to": "cell:0", "count": True}]:
        with pytest.raises(InvalidMoveError):
            Move.from_json(data)


@pytest.mark.parametrize("game_id", GAMES)
@PROPERTY
@given(number=numbers, playout=playouts)
def test_the_player_view_hides_face_down_cards_and_the_stock_order(
        game_id: str, number: int, playout: Playout) -> None:
    """The player view shows every face-up card as it is and nothing of a face-down card
    (its identity is not in the view at all), compared with to_json of the same position."""
    for pos in walk(deal(game_id, number), playout):
        view = pos.player_view()
        full = pos.to_json()["piles"]
        assert list(view) == list(full)
        for pid, pile in full.items():
            assert len(view[pid]) == len(pile)
            for shown, entry in zip(view[pid], pile, strict=True):
                if entry["up"]:
                    assert shown == entry
                else:
                    assert shown == {"card": None, "up": False}
        assert all(e == {"card": None, "up": False} for e in view["stock"])
        shown_codes = Counter(e["card"] for p in view.values() for e in p if e["card"])
        up_codes = Counter(card_code(c) for p in pos.piles for c in p if c & UP)
        assert shown_codes == up_codes
        text = json.dumps(view)
        assert text.count('"card": "') == sum(up_codes.values())


@pytest.mark.parametrize("game_id", GAMES)
@PROPERTY
@given(number=numbers, playout=playouts)
def test_moves_round_trip_through_json(game_id: str, number: int, playout: Playout) -> None:
    """Moves are small immutable values that round-trip through JSON (and whose repr is
    valid code)."""
    for pos in walk(deal(game_id, number), playout):
        for i, m in enumerate(pos.legal_moves()):
            assert Move.from_json(json.loads(json.dumps(m.to_json()))) == m
            assert pos.to_move(pos.to_raw(m)) == m
            if i < 3:
                assert eval(repr(m)) == m


@pytest.mark.parametrize("game_id", GAMES)
@PROPERTY
@given(number=numbers, playout=playouts)
def test_status_follows_the_legal_moves(game_id: str, number: int, playout: Playout) -> None:
    """``won`` when every card is on the foundations, ``lost`` when no legal move remains but
    moves of a card from one foundation to another (which never change what the foundations
    accept), else ``playing``."""
    for pos in walk(deal(game_id, number), playout):
        status = pos.status()
        foundations = pos.layout.foundations
        useful = [(s, d) for s, d, _ in pos.raw_moves()
                  if s not in foundations or d not in foundations]
        if pos.foundation_cards == CATALOGUE[game_id].cards:
            assert status == "won"
        elif useful:
            assert status == "playing"
        else:
            assert status == "lost"
