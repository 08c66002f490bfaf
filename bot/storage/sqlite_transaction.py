"""The SQLite store's write transaction, shared by its game and tournament statements."""

from __future__ import annotations

import sqlite3
from contextlib import contextmanager


@contextmanager
def immediate(c: sqlite3.Connection):
    """A write transaction that takes the write lock at once (BEGIN IMMEDIATE, so it never has to
    upgrade a read lock while another writer waits): committed when the block ends, rolled back if
    the block or the commit raises."""
    c.execute("BEGIN IMMEDIATE")
    try:
        yield
        c.execute("COMMIT")
    except BaseException:
        c.execute("ROLLBACK")
        raise
