"""A scratch database on either backend for the benchmarks: a SQLite file in a temporary folder,
or a fresh schema in a PostgreSQL database (dropped afterwards).

    --backend sqlite                      (default)
    --backend postgres [--database-url postgresql://root@127.0.0.1:5432/test]
      (the URL defaults to TEST_DATABASE_URL, then to the local server above)
"""

from __future__ import annotations

import argparse
import contextlib
import os
import tempfile
import uuid
from pathlib import Path

DEFAULT_URL = "postgresql://root@127.0.0.1:5432/test"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--database-url", default=os.environ.get("TEST_DATABASE_URL") or DEFAULT_URL,
                        help="PostgreSQL database for --backend postgres (a scratch schema is made and dropped)")


@contextlib.asynccontextmanager
async def scratch(backend: str, url: str = DEFAULT_URL):
    """Yields the target to give ``open_store``: a file path, or a URL naming a fresh schema."""
    if backend == "sqlite":
        with tempfile.TemporaryDirectory() as folder:
            yield str(Path(folder) / "bench.sqlite3")
        return
    import asyncpg

    schema = f"bench_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(url)
    await admin.execute(f"CREATE SCHEMA {schema}")
    try:
        yield url + ("&" if "?" in url else "?") + f"search_path={schema}"
    finally:
        await admin.execute(f"DROP SCHEMA {schema} CASCADE")
        await admin.close()
