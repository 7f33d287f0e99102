"""Players' identity: display names (hidden by the operator, reported by players), the
browsers signed in as a player, and the codes that sign another browser in.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(100), nullable=True),
        sa.Column("name_key", sa.String(100), nullable=True),
        sa.Column("name_hidden", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.Column("updated_at", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_players_name_key", "players", ["name_key"])
    op.create_table(
        "hidden_names",
        sa.Column("name_key", sa.String(100), primary_key=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("hidden_at", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "name_reports",
        sa.Column("reporter_id", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(100), nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.PrimaryKeyConstraint("reporter_id", "name_key", name="pk_name_reports"),
    )
    op.create_index("ix_name_reports_key", "name_reports", ["name_key"])
    op.create_table(
        "browsers",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("agent", sa.String(32), nullable=False),
        sa.Column("system", sa.String(32), nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.Column("last_seen_at", sa.BigInteger, nullable=False),
        sa.Column("revoked_at", sa.BigInteger, nullable=True),
    )
    op.create_index("ix_browsers_player", "browsers", ["player_id"])
    op.create_table(
        "sign_in_codes",
        sa.Column("hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.Column("expires_at", sa.BigInteger, nullable=False),
        sa.Column("used_at", sa.BigInteger, nullable=True),
    )
    op.create_index("ix_sign_in_codes_player", "sign_in_codes", ["player_id"])
    op.create_index("ix_sign_in_codes_expires", "sign_in_codes", ["expires_at"])


def downgrade() -> None:
    for table in ("sign_in_codes", "browsers", "name_reports", "hidden_names", "players"):
        op.drop_table(table)
