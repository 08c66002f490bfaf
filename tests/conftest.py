import os

# Every PNG the renderers write is read back by Pillow and compared with its image (renderers/common.py),
# here and in every process a test starts (they inherit it): the worker pool's, the bot's. Set before
# the renderers are imported: they read it once.
os.environ["TABLETOP_CHECK_IMAGES"] = "1"

import pytest  # noqa: E402

import renderers  # noqa: E402
from games import registry  # noqa: E402
from tests.fake_games import SecretPick, render_secretpick  # noqa: E402


@pytest.fixture
def secret_game():
    """A tiny hidden-information game (and its renderer) registered only for the test asking."""
    game = registry.register(SecretPick())
    renderers.register(game.name)(render_secretpick)
    yield game
    registry.unregister(game.name)
    renderers._RENDERERS.pop(game.name, None)


# ---- storage backends: the store suite runs against SQLite and PostgreSQL ---------------------------
import asyncio  # noqa: E402
import re  # noqa: E402
import sqlite3  # noqa: E402
import uuid  # noqa: E402

PG_HOW_TO_RUN = ("PostgreSQL runs skipped: TEST_DATABASE_URL is not set. To run them, point it at a server "
                 "where you may create schemas, e.g. TEST_DATABASE_URL=postgresql://root@127.0.0.1:5432/test "
                 ".venv/bin/python -m pytest (.ci/run sets it).")


OPENAPI_OFF = "Discord OpenAPI validation OFF"


def pytest_report_header(config):
    """Once per run: whether the Discord stand-in checks request bodies against Discord's own
    OpenAPI description (../shared/discord/openapi.json beside the repository)."""
    from tests.fakediscord.openapi import status

    return status()


# ---- what the end-to-end scenarios used, over every test process ---------------------------------
# The scenarios are shared out between the test processes like every other file (most of their time
# is waiting on the bot's process and Discord's deadlines, so together in one process they set the
# suite's length). Each process hands its share of tests/e2e/coverage.py's record to the controller,
# which checks the union once every scenario has run (none left out by -k, -m or --deselect).
E2E_FILES_RUN: set[str] = set()
E2E_DESELECTED: set[str] = set()   # scenarios a filter left out: their share is missing by choice
E2E_LOST_SHARES: list[str] = []   # test processes that ended without handing their share on
E2E_GAPS = pytest.StashKey[list]()


def pytest_runtest_logreport(report):
    if report.nodeid.startswith("tests/e2e/"):
        E2E_FILES_RUN.add(report.nodeid.split("::", 1)[0])


def pytest_deselected(items):
    E2E_DESELECTED.update(item.nodeid for item in items if item.nodeid.startswith("tests/e2e/"))


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    from tests.e2e.coverage import COVERAGE

    output = getattr(node, "workeroutput", {})
    E2E_DESELECTED.update(output.get("e2e_deselected", ()))
    share = output.get("e2e_coverage")
    if share is None:
        E2E_LOST_SHARES.append(node.gateway.id)
    else:
        COVERAGE.merge(share)


def pytest_sessionfinish(session):
    from tests.e2e.coverage import COVERAGE, scenario_files

    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:   # a test process of pytest-xdist: the controller checks
        workeroutput["e2e_coverage"] = COVERAGE.as_json()
        workeroutput["e2e_deselected"] = sorted(E2E_DESELECTED)
        return
    if E2E_DESELECTED or not scenario_files() <= E2E_FILES_RUN:   # only some ran: nothing to check
        return
    gaps = [f"test process {name} ended without handing on what its scenarios used" for name in E2E_LOST_SHARES]
    gaps += COVERAGE.gaps() or ([] if COVERAGE.registered else ["no scenario recorded what the bot registered"])
    if gaps:
        session.config.stash[E2E_GAPS] = gaps
        if session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if gaps := config.stash.get(E2E_GAPS, None):
        terminalreporter.section("end-to-end coverage: FAILED", sep="=", red=True, bold=True)
        for line in gaps:
            terminalreporter.write_line(line)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """Every PostgreSQL run skipped for want of TEST_DATABASE_URL is reported at one place, so
    ``-ra`` folds them into one summary line ("SKIPPED [48] tests/conftest.py: ...") instead of
    one line per test; ``-v`` still names each skipped test."""
    report = yield
    if report.skipped and isinstance(report.longrepr, tuple) and report.longrepr[2].endswith(PG_HOW_TO_RUN):
        report.longrepr = (__file__, None, PG_HOW_TO_RUN)
    elif report.skipped and isinstance(report.longrepr, tuple) and OPENAPI_OFF in report.longrepr[2]:
        report.longrepr = (__file__, None, report.longrepr[2])  # one line however many tests need the description
    return report


class SqliteBackend:
    """A SQLite file; raw SQL goes straight to the file, as a person with sqlite3 would."""

    name = "sqlite"

    def __init__(self, path: str):
        self.target = path

    async def open(self):
        from bot.storage.sqlite import Store

        return await Store.open(self.target)

    def migrations(self):
        from bot.storage.sqlite import Store

        return Store.migrations()

    async def execute(self, sql: str, *args) -> None:
        with sqlite3.connect(self.target) as db:
            db.execute(sql, args)

    async def script(self, sql: str) -> None:
        with sqlite3.connect(self.target) as db:
            db.executescript(sql)

    async def set_schema_version(self, number: int) -> None:
        await self.execute(f"PRAGMA user_version = {number}")

    async def tables(self) -> set[str]:
        with sqlite3.connect(self.target) as db:
            return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


class PgBackend:
    """A fresh schema of the test database, dropped afterwards: runs sharing the database never meet."""

    name = "postgres"

    def __init__(self, url: str, schema: str, admin):
        self.url, self.schema, self.admin = url, schema, admin
        self.target = url + ("&" if "?" in url else "?") + f"search_path={schema}"

    async def open(self):
        from bot.storage.postgres import PgStore

        return await PgStore.open(self.target, pool_size=4)

    def migrations(self):
        from bot.storage.postgres import PgStore

        return PgStore.migrations()

    async def execute(self, sql: str, *args) -> None:
        count = iter(range(1, len(args) + 1))
        await self.admin.execute(f"SET search_path = {self.schema}")
        await self.admin.execute(re.sub(r"\?", lambda _: f"${next(count)}", sql), *args)

    async def script(self, sql: str) -> None:
        await self.admin.execute(f"SET search_path = {self.schema}")
        await self.admin.execute(sql)

    async def set_schema_version(self, number: int) -> None:
        await self.admin.execute(f"CREATE TABLE IF NOT EXISTS {self.schema}.schema_version (version INTEGER NOT NULL)")
        await self.admin.execute(f"DELETE FROM {self.schema}.schema_version")
        await self.admin.execute(f"INSERT INTO {self.schema}.schema_version VALUES ($1)", number)

    async def tables(self) -> set[str]:
        return {r[0] for r in await self.admin.fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = $1", self.schema)}

    def dump_database(self) -> str:
        """Every row of every table, in a stable order, as text (synchronous, like sqlite3's
        iterdump that the SQLite tests compare): on its own thread and connection."""
        import concurrent.futures

        import asyncpg

        async def read():
            db = await asyncpg.connect(self.target)
            try:
                lines = []
                tables = [r[0] for r in await db.fetch(
                    "SELECT table_name FROM information_schema.tables WHERE table_schema = $1", self.schema)]
                for table in sorted(tables):
                    lines += sorted(f"{table}: {tuple(r)}" for r in await db.fetch(f"SELECT * FROM {table}"))
                return "\n".join(lines)
            finally:
                await db.close()
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            return pool.submit(asyncio.run, read()).result()


async def _pg_backend():
    """Yields a PgBackend; skips only when TEST_DATABASE_URL is unset (a set but unreachable
    server fails the test: CI must not pass by skipping)."""
    import asyncpg

    url = os.environ.get("TEST_DATABASE_URL", "").strip()
    if not url:
        pytest.skip(PG_HOW_TO_RUN)
    admin = await asyncpg.connect(url)
    schema = f"t_{uuid.uuid4().hex[:16]}"
    await admin.execute(f"CREATE SCHEMA {schema}")
    try:
        yield PgBackend(url, schema, admin)
    finally:
        await admin.execute(f"DROP SCHEMA {schema} CASCADE")
        await admin.close()


@pytest.fixture
async def pg_backend():
    async for backend in _pg_backend():
        yield backend


@pytest.fixture(params=["sqlite", "postgres"])
async def backend(request, tmp_path):
    """Each storage backend in turn, empty; ``await backend.open()`` opens a store on it (call it
    twice for two processes' stores)."""
    if request.param == "sqlite":
        yield SqliteBackend(str(tmp_path / "games.sqlite3"))
        return
    async for pg in _pg_backend():
        yield pg


@pytest.fixture
async def host_on_each_backend(backend):
    """The game host service on SQLite, then on PostgreSQL, as tests/test_service.py's ``host``
    (``refused`` compares stored rows through ``host.dump_database``)."""
    from bot.service import GameHost
    from tests.test_service import fake_render

    store = await backend.open()
    seeds = iter(range(1000, 2000))
    h = GameHost(store, clock=lambda: "2026-11-21T00:00:00+00:00", seed_source=lambda: next(seeds), render=fake_render)
    h.backend = backend
    h.dump_database = (lambda: backend.dump_database()) if backend.name == "postgres" else None
    h.db_path = backend.target if backend.name == "sqlite" else None
    yield h
    await store.close()
