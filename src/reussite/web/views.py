"""A game's view as JSON: what the player sees, and nothing of what lies face down."""

from __future__ import annotations

import json
from typing import Any

import orjson

from reussite.autofinish import finishing_line
from reussite.cards import UP
from reussite.engine import Position, RawMove, view_entry
from reussite.rules import GameRules
from reussite.scoring import scores
from reussite.web.play import IDLE_CAP_MS, Outcome, idle_ms
from reussite.web.storage import GameRow, now_ms


def view_of(row: GameRow, pos: Position, events: list[dict[str, Any]],
            raw: list[RawMove] | None = None, piles: Any = None,
            legal: list[Any] | None = None) -> dict[str, Any]:
    """A game's view: what the player sees, and nothing of what lies face down (``piles``:
    the piles already made, else :meth:`Position.player_view`; ``legal``: the legal moves
    already made, else each ``Move.to_json()``)."""
    raw = pos.raw_moves() if raw is None else raw
    status = pos.status(raw)
    final = row.final
    if final:  # abandoned, given up or analysed: no move taken any more
        status, legal = ("won" if row.ended == "won" else "lost"), []
    elif legal is None:
        legal = [pos.to_move(m).to_json() for m in raw]
    rules = pos.rules
    both = scores(pos)
    finish = finishing_line(pos, raw) if status == "playing" else None
    return {
        "id": row.id, "game": row.game, "number": row.shown_number, "origin": row.origin,
        "ended": row.ended, "sealed": row.sealed, "daily": row.daily, "ranked": row.ranked,
        "version": row.version,
        "status": status, "piles": pos.player_view() if piles is None else piles,
        "legal_moves": legal,
        "can_undo": (row.cursor > 0 or row.restart_cursor is not None) and not final,
        "can_redo": row.cursor < row.length and not final,
        "moves": pos.moves_played, "score": pos.score,
        "scores": None if both is None else {"standard": both.standard, "vegas": both.vegas},
        "redeals_left": pos.redeals_left,
        "elapsed_seconds": row.elapsed_ms / 1000,
        "idle_seconds": idle_ms(row, now_ms()) / 1000 if status == "playing" else 0,
        "idle_cap_seconds": IDLE_CAP_MS / 1000, "paused": row.paused,
        "finish": None if finish is None else pos.to_move(finish[0]).to_json(),
        "used_undo": row.used_undo,
        "used_hint": row.used_hint, "names": dict(rules.names), "events": events,
        "draw": rules.stock.draw if rules.has_waste else 0,
        "has_stock": rules.has_stock,
        "build": rules.tableau.build.value if rules.tableau else None,
        "covers": covers_view(rules),
    }


def covers_view(rules: GameRules) -> list[list[int]] | None:
    """For each tableau pile, the tableau piles covering it (:attr:`.Tableau.covers`), so that
    the table draws them overlapping; ``None`` where no pile covers another."""
    tab = rules.tableau
    return [list(c) for c in tab.covers] if tab and tab.covers else None


_ENTRIES: dict[int, bytes] = {}


def _entry(c: int) -> bytes:
    """One card of a pile as the player sees it (:func:`.engine.view_entry`, the rule of
    :meth:`Position.player_view`), as JSON, made once per card value."""
    e = _ENTRIES.get(c)
    if e is None:
        e = _ENTRIES[c] = orjson.dumps(view_entry(c))
    return e


_PILE_KEYS: dict[tuple[str, ...], list[bytes]] = {}


def _table() -> list[bytes | None]:
    """Every card value's entry, by value (None where no card has that value face up)."""
    table: list[bytes | None] = []
    for c in range(2 * UP):
        rank = (c & (UP - 1)) >> 2
        table.append(_entry(c) if not c & UP or 1 <= rank <= 13 else None)
    return table


_TABLE: list[Any] = _table()  # None where no card: the join below then fails


def piles_json(pos: Position) -> bytes:
    """``orjson.dumps(pos.player_view())``, built from ready-made pieces (the view is the
    biggest part of every answer; a test checks that both are the same bytes)."""
    ids = pos.layout.ids
    keys = _PILE_KEYS.get(ids)
    if keys is None:
        keys = _PILE_KEYS[ids] = [orjson.dumps(pid) + b":[" for pid in ids]
    parts = []
    table = _TABLE.__getitem__
    try:
        for key, pile in zip(keys, pos.piles, strict=True):
            parts.append(key + b",".join(map(table, pile)) + b"]")
    except (TypeError, IndexError):  # a value no card has: made one by one, as it is
        parts = [key + b",".join([_entry(c) for c in pile]) + b"]"
                 for key, pile in zip(keys, pos.piles, strict=True)]
    return b"{" + b",".join(parts) + b"}"


_MOVES: dict[tuple[str, ...], dict[RawMove, orjson.Fragment]] = {}


def moves_json(pos: Position, raw: list[RawMove]) -> list[orjson.Fragment]:
    """``[pos.to_move(m).to_json() for m in raw]``, each move's JSON made once per layout."""
    ids = pos.layout.ids
    made = _MOVES.get(ids)
    if made is None:
        made = _MOVES[ids] = {}
    out = []
    for m in raw:
        f = made.get(m)
        if f is None:
            if len(made) >= 100_000:  # bounded: a layout has far fewer moves
                made.clear()
            f = made[m] = orjson.Fragment(orjson.dumps(pos.to_move(m).to_json()))
        out.append(f)
    return out


def view_json_of(row: GameRow, pos: Position, events: list[dict[str, Any]],
                 raw: list[RawMove] | None = None) -> bytes:
    """``view_of(...)`` as compact JSON, the same bytes, made faster."""
    raw = pos.raw_moves() if raw is None else raw
    view = view_of(row, pos, events, raw, piles=orjson.Fragment(piles_json(pos)),
                   legal=moves_json(pos, raw))
    return orjson.dumps(view)


def dumps(data: Any) -> bytes:
    """Compact UTF-8 JSON (orjson, which writes integers up to 2**64 - 1 as deal numbers
    need; the standard library for anything orjson refuses)."""
    try:
        return orjson.dumps(data)
    except TypeError:
        return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()


def view_json(outcome: Outcome) -> bytes:
    return view_json_of(outcome.row, outcome.pos, outcome.events, outcome.legal)
