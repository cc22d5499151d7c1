"""Alembic environment: runs on the connection the server hands over.

The server calls :func:`cardtable.server.storage.migrate`, which puts an open connection
in ``config.attributes["connection"]``; there is no ``alembic.ini`` to configure.
Imported any other way (by a documentation or test collector) the module does nothing.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from cardtable.server.models import Base


def run_migrations() -> None:
    """Upgrade on the connection :func:`~cardtable.server.storage.migrate` passed in."""
    connection = context.config.attributes.get("connection")
    if not isinstance(connection, Connection):
        raise RuntimeError("run migrations through cardtable.server.storage.migrate()")
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


def _run_by_alembic() -> bool:
    try:
        context.config  # noqa: B018 - set only while Alembic runs this file
    except AttributeError:
        return False
    return True


if _run_by_alembic():
    run_migrations()
