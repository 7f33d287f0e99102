"""The analyses of finished games: their state in the job tier and their result; a game
whose analysis was asked for is sealed (it takes no more actions).

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as b:
        b.add_column(sa.Column("sealed", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "analyses",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("state", sa.String(8), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("result", sa.Text, nullable=True),
        sa.Column("error", sa.Text, nullable=True),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.Column("submitted_at", sa.BigInteger, nullable=False),
        sa.Column("started_at", sa.BigInteger, nullable=True),
        sa.Column("finished_at", sa.BigInteger, nullable=True),
    )
    op.create_index("ix_analyses_player_created", "analyses", ["player_id", "created_at"])
    op.create_index("ix_analyses_address_created", "analyses", ["address", "created_at"])
    op.create_index("ix_analyses_state_submitted", "analyses", ["state", "submitted_at"])


def downgrade() -> None:
    op.drop_table("analyses")
    with op.batch_alter_table("games") as b:
        b.drop_column("sealed")
