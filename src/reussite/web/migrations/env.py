"""Alembic's environment: run by :meth:`reussite.web.storage.Store.migrate` with a connection."""

from alembic import context

from reussite.web.storage import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("Run the migrations through reussite (Store.migrate), with a connection")
context.configure(connection=connection, target_metadata=metadata,
                  render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
