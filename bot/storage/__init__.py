"""Storage: the row types (:mod:`.rows`), the SQLite store (:mod:`.sqlite`, the default), the
PostgreSQL store (:mod:`.postgres`) and their parts, and the migrations of both.

Everything above storage opens a store through :func:`open_store` only."""

from __future__ import annotations

from .rows import is_postgres_url
from .sqlite import Store


async def open_store(target: str):
    """The store for a target: a ``postgresql://`` URL opens :class:`~bot.storage.postgres.PgStore`,
    anything else is a SQLite file path. Either is migrated to the newest schema it knows and
    refused (FutureRow, SchemaDamaged) when its schema is newer or damaged."""
    if is_postgres_url(target):
        from .postgres import PgStore  # asyncpg is imported only where a PostgreSQL URL is named

        return await PgStore.open(target)
    return await Store.open(target)
