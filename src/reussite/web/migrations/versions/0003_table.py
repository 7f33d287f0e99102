"""The table's behaviour: an undoable restart and a game clock that pauses.

``restart_cursor``: the cursor a restart left, so that one undo takes the restart back (null
after any other action). ``paused``: the game's clock is stopped; the spell since
``updated_at`` adds no time.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("restart_cursor", sa.Integer, nullable=True))
        batch.add_column(sa.Column("paused", sa.Boolean, nullable=False,
                                   server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("paused")
        batch.drop_column("restart_cursor")
