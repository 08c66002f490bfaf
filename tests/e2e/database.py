"""The database the bot processes of an end-to-end scenario share, as the scenario's checks read it.

Checks run between stand-in events in the test's own code, so reading is synchronous: a SQLite file
through sqlite3, or a PostgreSQL schema through one asyncpg connection living on a thread and event
loop of its own (the test's loop keeps serving the stand-in meanwhile). SQL is written once, with
``?`` placeholders, and means the same on both: the PostgreSQL twins of the migrations keep every
column's name and kind of value (times and JSON as text, flags as integers).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import sqlite3
import threading
from pathlib import Path
from typing import Any, Callable

from tests.fakediscord.records import HANG_BOUND_SECONDS


class E2EDatabase:
    """Read (and, to make time pass, write) the rows the bot stored. Subclasses give ``rows`` and
    ``execute`` for their backend, and ``bot_env`` for the processes sharing it."""

    name: str

    def rows(self, sql: str, params: tuple = ()) -> list[dict]:
        raise NotImplementedError

    def execute(self, sql: str, params: tuple = ()) -> None:
        raise NotImplementedError

    def bot_env(self) -> dict[str, str]:
        """What a bot process's environment needs to use this database."""
        raise NotImplementedError

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *_exc) -> None:
        self.close()

    def query(self, sql: str, params: tuple = ()) -> list[tuple]:
        return [tuple(row.values()) for row in self.rows(sql, params)]

    def game_row(self, game_id: int) -> dict:
        return self.rows("SELECT * FROM games WHERE id = ?", (game_id,))[0]

    def actions(self, game_id: int) -> list[tuple[int, int | None, str, int]]:
        """The game's log in order: (seat, user_id, action, version); user_id None is the stand-in."""
        return self.query("SELECT seat, user_id, action, version FROM actions WHERE game_id = ? ORDER BY n",
                          (game_id,))

    def seats(self, game_id: int) -> dict[int, int]:
        return dict(self.query("SELECT seat, user_id FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)))


class SqliteDatabase(E2EDatabase):
    """The SQLite file at ``path``, read as a person with sqlite3 would (a connection per read, so
    no read ever holds the file between the bot's writes)."""

    name = "sqlite"

    def __init__(self, path: Path | str):
        self.path = Path(path)

    def rows(self, sql: str, params: tuple = ()) -> list[dict]:
        with contextlib.closing(sqlite3.connect(self.path)) as db:
            db.row_factory = sqlite3.Row
            return [dict(r) for r in db.execute(sql, params)]

    def execute(self, sql: str, params: tuple = ()) -> None:
        with contextlib.closing(sqlite3.connect(self.path)) as db, db:
            db.execute(sql, params)

    def bot_env(self) -> dict[str, str]:
        return {"DATABASE_URL": "", "DATABASE_PATH": str(self.path)}


class PgDatabase(E2EDatabase):
    """The PostgreSQL database ``url`` names (a test's own schema, by its ``search_path``)."""

    name = "postgres"

    def __init__(self, url: str):
        self.url = url
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="e2e-postgres-reader", daemon=True)
        self._thread.start()
        self._connection = None

    def _run(self, work):
        async def on_own_loop():
            import asyncpg

            if self._connection is None:
                self._connection = await asyncpg.connect(self.url)
            return await work(self._connection)
        return asyncio.run_coroutine_threadsafe(on_own_loop(), self._loop).result(timeout=60)

    def rows(self, sql: str, params: tuple = ()) -> list[dict]:
        return [dict(r.items()) for r in self._run(lambda db: db.fetch(numbered(sql), *params))]

    def execute(self, sql: str, params: tuple = ()) -> None:
        self._run(lambda db: db.execute(numbered(sql), *params))

    def bot_env(self) -> dict[str, str]:
        return {"DATABASE_URL": self.url}

    def close(self) -> None:
        async def hang_up():
            if self._connection is not None:
                await self._connection.close()
        asyncio.run_coroutine_threadsafe(hang_up(), self._loop).result(timeout=30)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=30)
        self._loop.close()


def numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2, ...`` (the checks' SQL holds no literal ``?``)."""
    count = iter(range(1, sql.count("?") + 1))
    return re.sub(r"\?", lambda _: f"${next(count)}", sql)


def for_backend(backend) -> E2EDatabase:
    """The e2e reader for one of ``tests/conftest.py``'s storage backends: its SQLite file, or its
    fresh PostgreSQL schema."""
    return PgDatabase(backend.target) if backend.name == "postgres" else SqliteDatabase(backend.target)


async def stored_until(predicate: Callable[[], Any], what: str, timeout: float = HANG_BOUND_SECONDS) -> Any:
    """Until ``predicate()`` (a look at the database) is truthy; returns its value. The database is
    not one of the stand-in's events, so it is looked at every 50 ms; the timeout only catches a
    hang (at least the stand-in's own bound), never a slow machine."""
    deadline = asyncio.get_running_loop().time() + max(timeout, HANG_BOUND_SECONDS)
    while not (value := predicate()):
        if asyncio.get_running_loop().time() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)
    return value
