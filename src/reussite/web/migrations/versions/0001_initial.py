"""The first schema: settings, games, their moves, feedback.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "settings",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("number", sa.String(20), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("cursor", sa.Integer, nullable=False),
        sa.Column("length", sa.Integer, nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("used_undo", sa.Boolean, nullable=False),
        sa.Column("used_hint", sa.Boolean, nullable=False),
        sa.Column("elapsed_ms", sa.BigInteger, nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.Column("updated_at", sa.BigInteger, nullable=False),
        sa.Column("won_at", sa.BigInteger, nullable=True),
        sa.Column("won_moves", sa.Integer, nullable=True),
        sa.Column("won_ms", sa.BigInteger, nullable=True),
        sa.Column("won_used_undo", sa.Boolean, nullable=True),
        sa.Column("won_used_hint", sa.Boolean, nullable=True),
    )
    op.create_index("ix_games_player_updated", "games", ["player_id", "updated_at"])
    op.create_table(
        "moves",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("move", sa.String(40), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "seq", name="pk_moves"),
    )
    op.create_table(
        "feedback",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("game", sa.String(32), nullable=True),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("message", sa.Text, nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("feedback")
    op.drop_table("moves")
    op.drop_index("ix_games_player_updated", "games")
    op.drop_table("games")
    op.drop_table("settings")
