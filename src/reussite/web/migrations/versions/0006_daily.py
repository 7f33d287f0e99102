"""The daily deal: each game's deal of each day, the daily games and their leaderboard.

- ``daily_deals``: a game's deal of a day (its secret number, the attempt that gave it, the
  solver's winning line), primary key (game, day).
- ``games.daily`` (the day of a daily or practice game), ``games.ranked`` (the player's first
  game of that day's deal), ``games.played`` (every move played, undone ones included) and
  ``games.won_played`` (that count at the first win); the leaderboard's partial indexes, and
  one ranked game per player, game and day.

Existing games played before the count: 0 moves counted (none is a daily game).

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

_RANKED_WIN = "ranked AND won_at IS NOT NULL"
_CLEAN_WIN = f"{_RANKED_WIN} AND won_used_undo = false AND won_used_hint = false"
_BOARD = ["game", "daily", "won_played", "won_ms", "won_at"]


def upgrade() -> None:
    with op.batch_alter_table("games") as b:
        b.add_column(sa.Column("played", sa.Integer, nullable=False, server_default="0"))
        b.add_column(sa.Column("won_played", sa.Integer, nullable=True))
        b.add_column(sa.Column("daily", sa.String(10), nullable=True))
        b.add_column(sa.Column("ranked", sa.Boolean, nullable=False,
                               server_default=sa.false()))
    op.create_index("ix_games_player_daily", "games", ["player_id", "daily"])
    op.create_index("ux_games_ranked", "games", ["player_id", "game", "daily"], unique=True,
                    postgresql_where=sa.text("ranked"), sqlite_where=sa.text("ranked"))
    op.create_index("ix_games_daily_board", "games", [*_BOARD, "won_used_undo", "won_used_hint"],
                    postgresql_where=sa.text(_RANKED_WIN), sqlite_where=sa.text(_RANKED_WIN))
    op.create_index("ix_games_daily_clean", "games", _BOARD,
                    postgresql_where=sa.text(_CLEAN_WIN), sqlite_where=sa.text(_CLEAN_WIN))
    op.create_table(
        "daily_deals",
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("day", sa.String(10), nullable=False),
        sa.Column("number", sa.String(20), nullable=False),
        sa.Column("attempt", sa.Integer, nullable=False),
        sa.Column("line", sa.Text, nullable=False),
        sa.Column("prepared_at", sa.BigInteger, nullable=False),
        sa.PrimaryKeyConstraint("game", "day", name="pk_daily_deals"),
    )


def downgrade() -> None:
    op.drop_table("daily_deals")
    for name in ("ix_games_daily_clean", "ix_games_daily_board", "ux_games_ranked",
                 "ix_games_player_daily"):
        op.drop_index(name, "games")
    with op.batch_alter_table("games") as b:
        for column in ("ranked", "daily", "won_played", "played"):
            b.drop_column(column)
