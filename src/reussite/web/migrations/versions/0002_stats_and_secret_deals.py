"""Running statistics, how a game ended, secret deals and their pool.

- ``games.origin`` (random, winnable, number), ``games.secret`` (the number hidden until the
  game is over), ``games.ended`` (won, lost, abandoned; NULL in play).
- ``totals``: each player's running statistics per game and origin.
- ``deal_pool``: secret proven-winnable deal numbers, each dealt once.

Existing games: which were dealt by chosen number is not known, so every one reads
``random``; none is secret (each keeps showing its number). A won game ended ``won``, a
game stuck at the clear end ``lost``; of a player's games of one kind in play, all but the
newest are ``abandoned`` (the statistics counted them lost already). The totals are made
from the rows as the statistics computed them until now (oldest first, by creation).

Revision ID: 0002
Revises: 0001
"""

from collections.abc import Iterator
from itertools import groupby
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

BATCH = 1000


def upgrade() -> None:
    with op.batch_alter_table("games") as b:
        b.add_column(sa.Column("origin", sa.String(8), nullable=False,
                               server_default="random"))
        b.add_column(sa.Column("secret", sa.Boolean, nullable=False,
                               server_default=sa.false()))
        b.add_column(sa.Column("ended", sa.String(10), nullable=True))
    op.create_index("ix_games_player_ended", "games", ["player_id", "ended"])
    op.create_index("ix_games_ended_updated", "games", ["ended", "updated_at"])
    totals = op.create_table(
        "totals",
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("origin", sa.String(8), nullable=False),
        sa.Column("played", sa.Integer, nullable=False),
        sa.Column("won", sa.Integer, nullable=False),
        sa.Column("lost", sa.Integer, nullable=False),
        sa.Column("current_streak", sa.Integer, nullable=False),
        sa.Column("best_streak", sa.Integer, nullable=False),
        sa.Column("best_ms", sa.BigInteger, nullable=True),
        sa.Column("fewest_moves", sa.Integer, nullable=True),
        sa.Column("wins_with_undo", sa.Integer, nullable=False),
        sa.Column("wins_with_hint", sa.Integer, nullable=False),
        sa.Column("wins_unaided", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("player_id", "game", "origin", name="pk_totals"),
    )
    op.create_table(
        "deal_pool",
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("number", sa.String(20), nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.PrimaryKeyConstraint("game", "number", name="pk_deal_pool"),
    )
    games = sa.table("games", *(sa.column(c) for c in (
        "id", "player_id", "game", "status", "length", "created_at", "won_at", "won_ms",
        "won_moves", "won_used_undo", "won_used_hint", "ended")))
    conn = op.get_bind()
    conn.execute(games.update().where(games.c.won_at.is_not(None)).values(ended="won"))
    conn.execute(games.update().where(games.c.won_at.is_(None), games.c.status == "lost")
                 .values(ended="lost"))
    rows = conn.execute(sa.select(games).order_by(
        games.c.player_id, games.c.game, games.c.created_at, games.c.id)).mappings().all()
    made: list[dict[str, Any]] = []
    abandoned: list[str] = []
    for (player, game), group in groupby(rows, key=lambda r: (r["player_id"], r["game"])):
        entry, older = backfill(list(group))
        entry.update(player_id=player, game=game, origin="random")
        made.append(entry)
        abandoned += older
        if len(made) >= BATCH:
            conn.execute(totals.insert(), made)
            made = []
    if made:
        conn.execute(totals.insert(), made)
    for chunk in chunks(abandoned):
        conn.execute(games.update().where(games.c.id.in_(chunk)).values(
            ended="abandoned", status="lost"))


def chunks(ids: list[str]) -> Iterator[list[str]]:
    for i in range(0, len(ids), BATCH):
        yield ids[i:i + BATCH]


def backfill(rows: list[Any]) -> tuple[dict[str, Any], list[str]]:
    """The totals of one player's games of one kind (oldest first), as the statistics
    counted them: played once a move was made or won; the newest game still in play breaks
    no streak; and the games in play but the newest, to be marked abandoned."""
    played = [r for r in rows if r["length"] > 0 or r["won_at"] is not None]
    wins = [r for r in played if r["won_at"] is not None]
    in_play = [r for r in rows if r["won_at"] is None and r["status"] == "playing"]
    finished = list(played)
    if finished and finished[-1]["won_at"] is None and finished[-1]["status"] == "playing":
        finished.pop()
    best = run = 0
    for r in finished:
        run = run + 1 if r["won_at"] is not None else 0
        best = max(best, run)
    times = [r["won_ms"] for r in wins if r["won_ms"] is not None]
    counts = [r["won_moves"] for r in wins if r["won_moves"] is not None]
    entry = {
        "played": len(played), "won": len(wins), "lost": len(finished) - len(wins),
        "current_streak": run, "best_streak": best,
        "best_ms": min(times) if times else None,
        "fewest_moves": min(counts) if counts else None,
        "wins_with_undo": sum(1 for r in wins if r["won_used_undo"]),
        "wins_with_hint": sum(1 for r in wins if r["won_used_hint"]),
        "wins_unaided": sum(1 for r in wins if not r["won_used_undo"]
                            and not r["won_used_hint"]),
    }
    return entry, [r["id"] for r in in_play[:-1]]


def downgrade() -> None:
    op.drop_table("deal_pool")
    op.drop_table("totals")
    op.drop_index("ix_games_ended_updated", "games")
    op.drop_index("ix_games_player_ended", "games")
    with op.batch_alter_table("games") as b:
        b.drop_column("ended")
        b.drop_column("secret")
        b.drop_column("origin")
