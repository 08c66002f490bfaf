"""Move a SQLite database to PostgreSQL without losing a game: ``python -m bot
export-sqlite-to-postgres SQLITE_PATH POSTGRES_URL``.

Both sides are migrated to the newest schema first (so their tables and columns match, which the
PostgreSQL store's schema check proves). The copy is one PostgreSQL transaction: every table,
every row with its id, the games' id sequence set past the highest id SQLite ever gave out, then
each table's row count compared; any difference rolls the whole copy back. A target that holds
any row is refused, so a second run (or a target already in use) changes nothing.

SQLite enforces foreign keys only where a connection asks (the bot's does; a hand-run sqlite3
shell does not), so a file may hold rows of games deleted by hand, which PostgreSQL would refuse.
The export counts them and is refused before anything is written, unless the operator passed
``--drop-orphans`` (``drop_orphans``): then they are left behind, and the counts expect that.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import asyncpg

from .sqlite import Store
from .postgres import PgStore

BATCH_ROWS = 2000  # rows read from SQLite and sent with COPY at a time: memory stays bounded


class ExportRefused(Exception):
    """The export did not start or was rolled back; the message says why."""


async def export_sqlite_to_postgres(sqlite_path: str, postgres_url: str, *,
                                    drop_orphans: bool = False) -> dict[str, int]:
    """Copy everything; returns the rows copied per table."""
    if not Path(sqlite_path).is_file():
        raise ExportRefused(f"{sqlite_path} is not a file")
    await (await Store.open(sqlite_path)).close()  # migrates and checks the source
    await (await PgStore.open(postgres_url, pool_size=1)).close()  # migrates and checks the target
    source = sqlite3.connect(f"file:{sqlite_path}?mode=ro", uri=True)
    target = await asyncpg.connect(postgres_url)
    try:
        tables = _tables(source)
        orphans = _orphans(source)
        if orphans and not drop_orphans:
            raise ExportRefused("rows of games that no longer exist (deleted by hand?): "
                                + ", ".join(f"{t} {len(n)}" for t, n in orphans.items())
                                + "; run again with --drop-orphans to leave them behind")
        async with target.transaction():
            # Nobody writes to the target while we look at it and fill it.
            await target.execute(f"LOCK TABLE {', '.join(tables)} IN EXCLUSIVE MODE")
            busy = [t for t in tables if await target.fetchval(f"SELECT EXISTS (SELECT 1 FROM {t})")]
            if busy:
                raise ExportRefused(f"the target database is not empty ({', '.join(busy)} hold rows); "
                                    "export only into a freshly created database")
            copied = {table: await _copy_table(source, target, table, orphans.get(table, set())) for table in tables}
            await _continue_ids(source, target)
            for table in tables:  # counted afresh on both sides, not by the copy loop
                expected = source.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] - len(orphans.get(table, ()))
                landed = await target.fetchval(f"SELECT COUNT(*) FROM {table}")
                if landed != expected or copied[table] != expected:
                    raise ExportRefused(f"{table}: {expected} rows to copy but {landed} landed; nothing was kept")
        return copied
    finally:
        source.close()
        await target.close()


def _orphans(source: sqlite3.Connection) -> dict[str, set[int]]:
    """Rowids of rows whose foreign key points at nothing, per table (SQLite's own check)."""
    found: dict[str, set[int]] = {}
    for table, rowid, _parent, _key in source.execute("PRAGMA foreign_key_check"):
        found.setdefault(table, set()).add(rowid)
    return found


def _tables(source: sqlite3.Connection) -> list[str]:
    """Every table, each after the tables its foreign keys point at (PostgreSQL checks each row
    as it lands)."""
    names = sorted(r[0] for r in source.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"))
    parents = {t: {r[2] for r in source.execute(f"PRAGMA foreign_key_list({t})")} - {t} for t in names}
    ordered: list[str] = []
    while len(ordered) < len(names):
        ready = [t for t in names if t not in ordered and parents[t] <= set(ordered)]
        if not ready:
            raise ExportRefused(f"foreign keys form a cycle among {sorted(set(names) - set(ordered))}")
        ordered += ready
    return ordered


async def _copy_table(source: sqlite3.Connection, target: asyncpg.Connection, table: str, skip: set[int]) -> int:
    columns = [r[1] for r in source.execute(f"PRAGMA table_info({table})")]
    # Keyset pages by rowid (every table here has one): each page costs the same however deep.
    select = f"SELECT rowid, {', '.join(columns)} FROM {table} WHERE rowid > ? ORDER BY rowid LIMIT ?"
    last, count = -(2 ** 63), 0
    while batch := source.execute(select, (last, BATCH_ROWS)).fetchall():
        last = batch[-1][0]
        records = [row[1:] for row in batch if row[0] not in skip]  # rows of a game not there (told to drop)
        await target.copy_records_to_table(table, records=records, columns=columns)
        count += len(records)
    return count


async def _continue_ids(source: sqlite3.Connection, target: asyncpg.Connection) -> None:
    """New games (and tournaments) continue after every id SQLite handed out (AUTOINCREMENT never
    reuses one, even a deleted game's), so an id a player saw never names another game."""
    for table in ("games", "tournaments"):
        highest = source.execute(f"SELECT MAX(id) FROM {table}").fetchone()[0] or 0
        seq = source.execute("SELECT seq FROM sqlite_sequence WHERE name = ?", (table,)).fetchone()
        highest = max(highest, seq[0] if seq else 0)
        if highest:
            await target.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), $1)", highest)
