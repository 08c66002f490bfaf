"""Storage on a real SQLite file and a real PostgreSQL database (every test marked with the
``backend`` or ``store`` fixture runs on both): migrations, versions, concurrency across
processes, restart, bad rows. PostgreSQL runs need TEST_DATABASE_URL (see tests/conftest.py)."""

from __future__ import annotations

import asyncio
import inspect
import sqlite3

import pytest

from bot.storage.sqlite import WAL_LIMIT_BYTES, Store
from bot.storage.rows import CorruptRow, Draft, FutureRow, NotFound, SchemaDamaged, VersionConflict
from bot.storage.postgres import PgStore

NOW = "2026-11-21T10:00:00+00:00"


@pytest.fixture
async def store(backend):
    s = await backend.open()
    yield s
    await s.close()


async def new_active(store, users=(10, 20), *, guild_id=1):
    row = await store.create_game(game="squares", guild_id=guild_id, channel_id=2, creator_id=users[0],
                                  options={"cap": 8}, locale="ja", now=NOW)
    draft = Draft.of(row)
    draft.replace_seats(list(users), NOW)
    draft.row.state, draft.row.seed, draft.row.salt, draft.row.status = {"n": 0}, 42, "s", "active"
    draft.bump()
    return await store.save(draft, NOW)


async def commit_action(store, row, seat, action, state, *, user_id=10):
    """The next version of a game: one action and its state, as the service saves them."""
    draft = Draft.of(row)
    draft.log(seat, user_id, action, NOW)
    draft.row.state = state
    return await store.save(draft, NOW)


async def test_open_applies_migrations(backend):
    s = await backend.open()
    assert await s.schema_version() == backend.migrations()[-1][0]
    await s.close()
    assert {"games", "seats", "actions", "user_settings", "results", "decks"} <= await backend.tables()


async def test_sqlite_runs_in_wal_mode(tmp_path):
    path = tmp_path / "g.sqlite3"
    await (await Store.open(str(path))).close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def play_many(store, actions: int):
    row = await new_active(store)
    for n in range(actions):
        row = await commit_action(store, row, n % 2, f"a{n}", {"n": n, "pad": "x" * 2000})
    return row


# One save of play_many writes a few KiB of rows and index pages; a generous bound on one operation's log.
ONE_SAVE_LOG_BYTES = 256 * 1024


async def play_many_watching_log(store, path, actions: int) -> int:
    """play_many, returning the largest size the log file reached after any save."""
    row, largest = await new_active(store), 0
    for n in range(actions):
        row = await commit_action(store, row, n % 2, f"a{n}", {"n": n, "pad": "x" * 2000})
        largest = max(largest, path.stat().st_size)
    return largest


async def test_sqlite_checkpoints_beside_the_actions_not_inside_their_commits(tmp_path):
    """The connection that saves actions never checkpoints inside a commit (a checkpoint there made
    one action in a hundred several ms slower); a second connection does, and the log stays within
    its limit however far behind that connection falls."""
    path = tmp_path / "g.sqlite3"
    store = await Store.open(str(path))
    assert await store._run(lambda c: c.execute("PRAGMA wal_autocheckpoint").fetchone()[0]) == 0
    # 1,200 saves back to back fill ~40 MB of log without checkpoints.
    largest = await play_many_watching_log(store, tmp_path / "g.sqlite3-wal", 1200)
    assert 0 < largest <= WAL_LIMIT_BYTES + ONE_SAVE_LOG_BYTES, largest
    await store.close()
    assert not (tmp_path / "g.sqlite3-wal").exists()  # the last connection out checkpointed the rest
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT COUNT(*) FROM actions").fetchone()[0] == 1200


async def test_the_log_stays_within_its_limit_when_the_checkpointer_never_runs(tmp_path):
    """The worst case of a busy machine: the checkpointer never gets its turn. The bound holds by
    design (the action connection truncates the log before it passes the limit by more than one
    save), not by how fast anything runs."""
    path = tmp_path / "g.sqlite3"
    store = await Store.open(str(path))
    store._start_checkpoint = lambda changes: None
    largest = await play_many_watching_log(store, tmp_path / "g.sqlite3-wal", 1200)
    assert WAL_LIMIT_BYTES < largest <= WAL_LIMIT_BYTES + ONE_SAVE_LOG_BYTES, largest
    await store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT COUNT(*) FROM actions").fetchone()[0] == 1200


async def test_a_log_held_by_a_reader_costs_no_action_and_is_truncated_once_free(tmp_path, caplog, monkeypatch):
    """A reader in another process can keep the log from being truncated: the save waits at most
    WAL_LIMIT_WAIT_S (here none), goes through, and the next save after the reader truncates it."""
    monkeypatch.setattr("bot.storage.sqlite.WAL_LIMIT_WAIT_S", 0.0)
    path, log_path = tmp_path / "g.sqlite3", tmp_path / "g.sqlite3-wal"
    store = await Store.open(str(path))
    store._start_checkpoint = lambda changes: None
    await store._run(lambda c: c.execute("PRAGMA busy_timeout = 50").close())
    row = await play_many(store, 10)
    with open(log_path, "r+b") as f:  # as if a burst had filled the log past its limit
        f.truncate(WAL_LIMIT_BYTES + 1)
    reader = sqlite3.connect(path, isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT COUNT(*) FROM actions").fetchone()  # holds a snapshot of the log
    row = await commit_action(store, row, 0, "held", {"n": -1})
    assert "could not be checkpointed" in caplog.text and log_path.stat().st_size > WAL_LIMIT_BYTES
    reader.execute("COMMIT")
    reader.close()
    row = await commit_action(store, row, 1, "free", {"n": -2})
    assert log_path.stat().st_size <= ONE_SAVE_LOG_BYTES
    assert [a.action for a in await store.actions(row.id)][-2:] == ["held", "free"]
    await store.close()


async def test_a_failing_checkpoint_costs_no_action(tmp_path, caplog):
    store = await Store.open(str(tmp_path / "g.sqlite3"))

    def broken(sql, *args):
        raise sqlite3.OperationalError("disk I/O error")
    store._checkpointer.execute = broken
    row = await play_many(store, 300)
    await store._checkpointing
    assert row.version == 301 and len(await store.actions(row.id)) == 300
    assert "WAL checkpoint failed" in caplog.text
    await store.close()


def test_both_backends_have_the_same_public_methods():
    """One interface: every public method of the SQLite store exists on the PostgreSQL store with
    the same parameters (and nothing the service could call on only one of them). Only ``open``
    differs (a file path or a URL): code opens either through ``open_store``."""
    def public(cls):
        return {name: inspect.signature(getattr(cls, name)) for name in dir(cls)
                if not name.startswith("_") and name != "open" and callable(getattr(cls, name))}
    sqlite_side, pg_side = public(Store), public(PgStore)
    assert sorted(sqlite_side) == sorted(pg_side)
    for name, signature in sqlite_side.items():
        assert list(signature.parameters) == list(pg_side[name].parameters), name
        assert [p.default for p in signature.parameters.values()] == \
            [p.default for p in pg_side[name].parameters.values()], name


def test_every_sqlite_migration_has_its_postgres_twin():
    assert [n for n, _ in Store.migrations()] == [n for n, _ in PgStore.migrations()]


async def test_create_and_load_round_trip(store):
    row = await store.create_game(game="squares", guild_id=1, channel_id=2, creator_id=10,
                                  options={"cap": 6}, locale="ja", now=NOW)
    loaded = await store.load(row.id)
    assert loaded.status == "lobby" and loaded.options == {"cap": 6} and loaded.user_ids == [10]
    assert loaded.locale == "ja" and loaded.version == 0


async def test_commit_action_bumps_version_and_logs(store):
    row = await new_active(store)
    row2 = await commit_action(store, row, 0, "T2@b2", {"n": 1})
    assert row2.version == row.version + 1 and row2.state == {"n": 1}
    log = await store.actions(row.id)
    assert [(a.n, a.seat, a.action, a.version) for a in log] == [(1, 0, "T2@b2", row2.version)]
    assert await store.seat_acted_since(row.id, 0, row.version)
    assert not await store.seat_acted_since(row.id, 1, row.version)


async def test_version_conflict_changes_nothing(store):
    row = await new_active(store)
    await commit_action(store, row, 0, "a", {"n": 1})
    with pytest.raises(VersionConflict):
        await commit_action(store, row, 0, "b", {"n": 2})
    after = await store.load(row.id)
    assert after.state == {"n": 1} and [a.action for a in await store.actions(row.id)] == ["a"]


async def test_missing_game(store):
    with pytest.raises(NotFound):
        await store.load(999)
    row = await new_active(store)
    row.id = 999
    with pytest.raises(NotFound):
        await commit_action(store, row, 0, "x", {})


async def save_or_lose(store, row, label: str) -> str | None:
    """One writer's action at ``row``'s version: its label if stored, None if another won."""
    try:
        await commit_action(store, row, 0, label, {"by": label})
        return label
    except VersionConflict:
        return None


async def test_two_connections_racing_apply_exactly_one(backend):
    """Two writers (as two bot processes would be) commit against the same version."""
    a, b = await backend.open(), await backend.open()
    try:
        row = await new_active(a)

        for _ in range(10):
            current = await a.load(row.id)
            row = current
            results = await asyncio.gather(save_or_lose(a, row, f"a{current.version}"), save_or_lose(b, row, f"b{current.version}"))
            winners = [r for r in results if r]
            assert len(winners) == 1
            assert (await b.load(row.id)).state == {"by": winners[0]}
        assert len(await a.actions(row.id)) == 10
    finally:
        await a.close()
        await b.close()


async def test_a_hundred_saves_at_one_version_from_two_processes_apply_once(backend):
    """Two stores (two processes' connections or pools), 100 saves of the same game at the same
    version at once: exactly one is stored, every other gets VersionConflict and wrote nothing."""
    a, b = await backend.open(), await backend.open()
    try:
        row = await new_active(a)

        results = await asyncio.gather(*(save_or_lose(a if i % 2 else b, row, f"w{i}") for i in range(100)))
        winners = [r for r in results if r]
        assert len(winners) == 1
        after = await b.load(row.id)
        assert after.version == row.version + 1 and after.state == {"by": winners[0]}
        assert [x.action for x in await a.actions(row.id)] == winners
    finally:
        await a.close()
        await b.close()


async def test_claims_fire_once_across_processes(backend):
    """Both processes' schedulers see the same due reminders and lost boards at once: each
    reminder and each repost lease is claimed by exactly one call."""
    a, b = await backend.open(), await backend.open()
    try:
        ids = [(await a.create_game(game="squares", guild_id=1, channel_id=2, creator_id=3 + i, options={},
                                    locale="en", now=NOW)).id for i in range(20)]
        claims = await asyncio.gather(*(store.claim_reminders([(i, 0) for i in ids]) for store in (a, b) * 5))
        claimed = [game_id for claim in claims for game_id in claim]
        assert sorted(claimed) == sorted(ids)
        leases = await asyncio.gather(*(store.claim_repost(ids[0], NOW, "2026-11-21T10:01:00+00:00")
                                        for store in (a, b) * 10))
        assert leases.count(True) == 1
    finally:
        await a.close()
        await b.close()


async def test_everything_survives_a_restart(backend):
    s = await backend.open()
    row = await new_active(s)
    await commit_action(s, row, 1, "x", {"n": 9}, user_id=20)
    await s.mark_posted(row.id, row.version + 1, 555)
    await s.close()
    s = await backend.open()
    try:
        again = await s.load(row.id)
        assert again.state == {"n": 9} and again.board_message_id == 555 and again.user_ids == [10, 20]
        assert [a.action for a in await s.actions(row.id)] == ["x"]
        assert await s.game_ids_in_guild(1) == [row.id]
        assert await s.game_ids_of_user(20) == [row.id]
        assert await s.game_ids_in_channel(2) == [row.id]
    finally:
        await s.close()


async def test_unposted_versions_are_found(store):
    row = await new_active(store)
    assert await store.unposted_game_ids() == [row.id]
    await store.mark_posted(row.id, row.version, 77)
    assert await store.unposted_game_ids() == []
    await store.mark_posted(row.id, row.version - 1, 76)  # never moves backwards
    assert (await store.load(row.id)).board_message_id == 77


async def test_corrupt_and_future_rows_are_reported_not_skipped(backend):
    s = await backend.open()
    good = await new_active(s)
    bad = await new_active(s, users=(30, 40))
    future = await new_active(s, users=(50, 60))
    await s.close()
    await backend.execute("UPDATE games SET state = '{not json' WHERE id = ?", bad.id)
    await backend.execute("UPDATE games SET state_format = 99 WHERE id = ?", future.id)
    s = await backend.open()
    try:
        assert (await s.load(good.id)).state == {"n": 0}
        with pytest.raises(CorruptRow):
            await s.load(bad.id)
        with pytest.raises(FutureRow):
            await s.load(future.id)
        # Until the service sets them aside, listings name them (and load_many reports them).
        assert await s.game_ids_in_guild(1) == [good.id, bad.id, future.id]
        loaded = await s.load_many([good.id, bad.id, future.id])
        assert loaded[0].id == good.id and isinstance(loaded[1], CorruptRow) and isinstance(loaded[2], FutureRow)
        assert await s.mark_broken(bad.id, "undecodable", NOW) and not await s.mark_broken(bad.id, "again", NOW)
        assert await s.game_ids_in_guild(1) == [good.id, future.id]
        assert bad.id not in await s.game_ids_of_user(30) + await s.game_ids_in_channel(2) + await s.unposted_game_ids()
    finally:
        await s.close()


async def test_future_schema_is_refused(backend):
    await (await backend.open()).close()
    await backend.set_schema_version(999)
    with pytest.raises(FutureRow):
        await backend.open()


async def test_an_older_database_is_migrated_forward(backend):
    number, first = backend.migrations()[0]
    await backend.script(first)
    await backend.set_schema_version(number)
    await backend.execute("INSERT INTO games (game, channel_id, creator_id, status, options, created_at, updated_at) "
                          "VALUES ('squares', 1, 2, 'lobby', '{}', 'now', 'now')")
    s = await backend.open()
    try:
        assert await s.schema_version() == backend.migrations()[-1][0] > number
        row = await s.load(1)
        assert row.salt is None and row.status == "lobby"
    finally:
        await s.close()


async def test_many_games_acting_at_once_on_one_store_all_apply(store):
    """Each game's writes are whole operations: 8 games x 30 actions interleaved, none lost."""
    games = [await new_active(store, users=(100 + i, 200 + i)) for i in range(8)]

    async def play(row, count):
        for n in range(count):
            row = await commit_action(store, row, n % 2, f"a{n}", {"n": n})
            await asyncio.sleep(0)
        return row

    finals = await asyncio.gather(*(play(row, 30) for row in games))
    for row, final in zip(games, finals):
        assert final.version == row.version + 30
        assert [a.action for a in await store.actions(row.id)] == [f"a{n}" for n in range(30)]


async def test_a_plain_write_during_another_games_save_is_kept(store):
    """A write another coroutine makes while a game is being saved is never swallowed by that
    save's transaction, whatever happens to the save."""
    row = await new_active(store)
    stale = await commit_action(store, row, 0, "first", {"n": 1})

    async def conflicting_save():
        with pytest.raises(VersionConflict):
            await commit_action(store, row, 0, "again", {"n": 2})  # rolled back

    await asyncio.gather(*[conflicting_save() for _ in range(5)],
                         *[store.set_user_locale(4242 + i, "ja") for i in range(5)],
                         store.mark_posted(row.id, stale.version, 9))
    settings = await store.users_settings([4242 + i for i in range(5)])
    assert all(s["locale"] == "ja" for s in settings.values())
    assert (await store.load(row.id)).board_message_id == 9


async def test_a_save_applies_everything_or_nothing(store):
    row = await new_active(store)
    draft = Draft.of(row)
    draft.log(0, 10, "one", NOW)
    draft.log(1, 20, "two", NOW)
    draft.update_seat(1, absences=2, stand_in=True)
    draft.results = [(10, True, False), (20, False, False)]
    draft.row.status = "finished"
    saved = await store.save(draft, NOW)
    assert saved.version == row.version + 2 and saved.seat_row(1).stand_in and saved.seat_row(1).absences == 2
    assert [(a.action, a.version) for a in await store.actions(row.id)] == [("one", row.version + 1),
                                                                           ("two", row.version + 2)]
    assert await store.stats(1) == [("squares", 10, 1, 1, 0), ("squares", 20, 1, 0, 0)]


async def finished_game(store, users, moves, *, guild_id=None):
    """A finished game of ``users`` (made in a DM unless ``guild_id``): ``moves`` (user, at) logged,
    the first user winning, rated as the service rates it."""
    row = await new_active(store, users, guild_id=guild_id)
    draft = Draft.of(row)
    for user, at in moves:
        draft.log(users.index(user), user, "x", at)
    draft.results = [(u, i == 0, False) for i, u in enumerate(users)]
    draft.rating = [((f"user:{u}",), i) for i, u in enumerate(users)]
    draft.row.status = "finished"
    return await store.save(draft, NOW)


async def test_figures_of_dm_games_are_read_for_one_asker_only(store):
    """Issue #40: DM games belong to no server, so "every DM game" is strangers' games pooled; a
    DM reads the asker's own results, times and rating, and without an asker nothing at all."""
    hour = "2026-11-21T{:02d}:00:00+00:00".format
    await finished_game(store, (10, 30), [(10, hour(1)), (30, hour(2)), (10, hour(4))])  # in 10's DM
    await finished_game(store, (20, 40), [(20, hour(1)), (40, hour(5))])  # in 20's DM
    await finished_game(store, (10, 20), [(10, hour(1)), (20, hour(7))], guild_id=1)
    assert await store.stats(None, asker=10) == [("squares", 10, 1, 1, 0)]
    assert await store.stats(None, "squares", asker=30) == [("squares", 30, 1, 0, 0)]
    assert await store.turn_times(None, asker=10) == [(10, 7200.0)]
    assert await store.turn_times(None, "squares", asker=40) == [(40, 4 * 3600.0)]
    assert [p for p, *_ in await store.leaderboard(None, "squares", 10, asker=20)] == ["user:20"]
    assert await store.leaderboard(None, "squares", 10, asker=99) == []
    for nobody_named in (store.stats(None), store.turn_times(None), store.leaderboard(None, "squares", 10)):
        with pytest.raises(ValueError):
            await nobody_named
    # A server's figures are everyone's there, whoever asks, and only its own games.
    assert await store.stats(1, asker=30) == await store.stats(1) == [("squares", 10, 1, 1, 0), ("squares", 20, 1, 0, 0)]
    assert await store.turn_times(1, asker=30) == [(20, 6 * 3600.0)]
    assert [p for p, *_ in await store.leaderboard(1, "squares", 10, asker=30)] == ["user:10", "user:20"]


@pytest.mark.parametrize("damage, says", [
    ("DROP TABLE results", "table results is missing"),
    ("ALTER TABLE games DROP COLUMN remind_at", "games.remind_at is missing"),
])
async def test_a_damaged_schema_is_refused_at_start_up(backend, damage, says):
    await (await backend.open()).close()
    await backend.execute("DROP INDEX IF EXISTS games_remind")
    await backend.execute(damage)
    with pytest.raises(SchemaDamaged, match=says):
        await backend.open()


async def test_hot_queries_are_bounded_by_an_index(tmp_path):
    """The scheduler, /play, lists and reposting never scan every stored table: the statements the
    store really runs are traced and each one's plan must search an index, not scan the table."""
    store = await Store.open(str(tmp_path / "hot.sqlite3"))
    await new_active(store)
    seen: list[str] = []
    await store._run(lambda c: c.set_trace_callback(seen.append))
    await store.due_game_ids(NOW)
    await store.reminder_due_game_ids(NOW)
    await store.unposted_game_ids()
    await store.game_ids_of_user_in_channel(10, 2)
    await store.game_ids_in_guild(1)
    await store.game_ids_of_user(10)
    await store.game_ids_in_channel(2)
    await store.held_due_users(NOW)  # the scheduler's issue-34 passes: quiet hours, proposals, digests
    await store.due_proposals(NOW)
    await store.digest_user_ids()
    await store._run(lambda c: c.set_trace_callback(None))
    assert len(seen) == 10
    for sql in seen:
        plan = await store._run(lambda c: [r[-1] for r in c.execute("EXPLAIN QUERY PLAN " + sql)])
        full_scans = [step for step in plan if step.startswith("SCAN") and "USING" not in step]
        assert not full_scans, (sql, plan)
    await store.close()


async def test_hot_queries_can_be_served_by_an_index_on_postgres(pg_backend):
    """The same hot queries on PostgreSQL, recorded as the store sends them: with sequential
    scans priced out, each plan must reach every table through an index (on a table this small
    the planner would otherwise rightly read it whole; at scale see storage_scale_bench)."""
    store = await pg_backend.open()
    await new_active(store)
    seen: list[tuple[str, tuple]] = []
    pool = store._pool

    class Recording:
        async def fetch(self, sql, *args):
            seen.append((sql, args))
            return await pool.fetch(sql, *args)

    store._pool = Recording()
    await store.due_game_ids(NOW)
    await store.reminder_due_game_ids(NOW)
    await store.unposted_game_ids()
    await store.game_ids_of_user_in_channel(10, 2)
    await store.game_ids_in_guild(1)
    await store.game_ids_of_user(10)
    await store.game_ids_in_channel(2)
    await store.held_due_users(NOW)
    await store.due_proposals(NOW)
    await store.digest_user_ids()
    store._pool = pool
    assert len(seen) == 10
    async with pool.acquire() as conn:
        await conn.execute("SET enable_seqscan = off")
        for sql, args in seen:
            plan = "\n".join(r[0] for r in await conn.fetch("EXPLAIN " + sql, *args))
            assert "Seq Scan" not in plan, (sql, plan)
    await store.close()


async def test_saved_decks_are_per_user_and_game(store):
    assert await store.save_deck(1, "monsterhunter", "fire", "A01x2", "t0") is False
    assert await store.save_deck(1, "monsterhunter", "fire", "A01x3", "t1") is True
    await store.save_deck(1, "monsterhunter", "aqua", "W01x4", "t1")
    await store.save_deck(2, "monsterhunter", "fire", "M01x1", "t1")
    assert await store.decks(1, "monsterhunter") == [("aqua", "W01x4"), ("fire", "A01x3")]
    assert await store.deck(2, "monsterhunter", "fire") == "M01x1"
    assert await store.deck(1, "osu", "fire") is None
    assert await store.delete_deck(1, "monsterhunter", "fire") is True
    assert await store.delete_deck(1, "monsterhunter", "fire") is False
    assert await store.decks(1, "monsterhunter") == [("aqua", "W01x4")]


async def test_preferences_round_trip_and_survive_other_settings(store):
    assert await store.preferences(5) == {}
    await store.set_user_locale(5, "ja")
    await store.set_preferences(5, {"monsterhunter": {"def": "block"}})
    await store.set_dm_reminders(5, True)
    assert await store.preferences(5) == {"monsterhunter": {"def": "block"}}
    assert (await store.user_settings(5))["locale"] == "ja"


async def test_reminders_and_reposts_are_claimed_once(backend):
    first, second = await backend.open(), await backend.open()  # two processes' connections
    try:
        row = await first.create_game(game="squaresiv", guild_id=1, channel_id=2, creator_id=3,
                                      options={}, locale="en", now="2026-01-01T00:00:00")
        assert await first.claim_reminders([(row.id, row.version)]) == [row.id]
        assert await second.claim_reminders([(row.id, row.version)]) == []
        assert await first.claim_reminders([]) == []
        assert await first.claim_repost(row.id, "2026-01-01T00:00:00", "2026-01-01T00:01:00") is True
        assert await second.claim_repost(row.id, "2026-01-01T00:00:30", "2026-01-01T00:01:30") is False
        assert await second.claim_repost(row.id, "2026-01-01T00:01:00", "2026-01-01T00:02:00") is True
        await first.set_thread(row.id, 77, "2026-01-01T00:00:00")
        assert await second.claim_thread_touch(77, "2026-01-02T00:00:00", "2026-01-06T00:00:00") is True
        assert await first.claim_thread_touch(77, "2026-01-02T00:00:00", "2026-01-06T00:00:01") is False
        assert await first.threads_to_touch("2026-01-02T00:00:00") == []
    finally:
        await first.close()
        await second.close()


async def test_followers_and_their_turn_notices_are_claimed_once(backend):
    first, second = await backend.open(), await backend.open()  # two processes
    try:
        row = await first.create_game(game="squaresiv", guild_id=1, channel_id=2, creator_id=3,
                                      options={}, locale="en", now="2026-01-01T00:00:00")
        draft = Draft.of(row)
        draft.row.status = "active"
        draft.bump()
        await first.save(draft, "2026-01-01T00:00:01")
        assert await first.follow(row.id, 9, "2026-01-01T00:00:02", 0) is True
        assert await second.follow(row.id, 9, "2026-01-01T00:00:03", 0) is False
        assert await second.followers(row.id) == [9]
        assert await first.follow_candidates() == [(row.id, 9, 0)]
        claims = await asyncio.gather(first.claim_follow_notices(9, [(row.id, 1)]),
                                      second.claim_follow_notices(9, [(row.id, 1)]))
        assert sorted(claims) == [[], [row.id]]
        assert await first.follow_candidates() == []
        await first.set_preferences(9, {"view": {"large": True}})
        assert (await second.users_settings([9]))[9]["view"] == {"large": True}
        assert await second.unfollow(row.id, 9) is True and await first.followers(row.id) == []
    finally:
        await first.close()
        await second.close()


async def test_a_save_writes_only_the_seat_fields_it_changed(backend):
    """Another process's vacation, set between this one's load and save, is not written over."""
    first, second = await backend.open(), await backend.open()  # two processes
    try:
        row = await first.create_game(game="squaresiv", guild_id=1, channel_id=2, creator_id=3,
                                      options={}, locale="en", now="2026-01-01T00:00:00")
        loaded = await first.load(row.id)
        await second.set_vacation(row.id, 0, "2026-01-05T00:00:00", 4)
        draft = Draft.of(loaded)
        draft.update_seat(0, absences=1)
        draft.bump()
        await first.save(draft, "2026-01-01T00:00:01")
        seat = (await second.load(row.id)).seat_row(0)
        assert (seat.absences, seat.vacation_until, seat.vacation_days_used) == (1, "2026-01-05T00:00:00", 4)
    finally:
        await first.close()
        await second.close()


async def test_a_recap_is_claimed_once_and_given_up_after_its_attempts(backend):
    first, second = await backend.open(), await backend.open()  # two processes
    try:
        rows = []
        for i in range(3):
            row = await new_active(first, users=(60 + i, 70 + i))
            draft = Draft.of(row)
            draft.row.status = "finished"
            draft.bump()
            row = await first.save(draft, NOW)
            await first.mark_posted(row.id, row.version, 500 + i)
            rows.append(row)
        ids = [r.id for r in rows]
        assert await second.recap_due_game_ids(NOW) == ids
        claims = await asyncio.gather(*(s.claim_recap(ids[0], NOW, "2026-11-21T10:05:00+00:00")
                                        for s in (first, second) * 4))
        assert claims.count(True) == 1
        assert await first.recap_due_game_ids(NOW) == ids[1:]  # leased
        await second.recap_done(ids[0], 900)
        assert not await first.claim_recap(ids[0], "2026-11-21T11:00:00+00:00", "2026-11-21T11:05:00+00:00")
        await first.recap_failed(ids[1], attempts=2)
        assert ids[1] in await first.recap_due_game_ids(NOW)  # one failure: tried again later
        await first.recap_failed(ids[1], attempts=2)
        assert await first.recap_due_game_ids(NOW) == ids[2:]  # given up
        assert await first.recent_game_ids_in_guild(1, ("finished",), 2) == [ids[2], ids[1]]
    finally:
        await first.close()
        await second.close()


async def test_a_servers_stand_in_level_is_stored_per_server(backend):
    first, second = await backend.open(), await backend.open()  # two processes
    try:
        assert await first.server_settings(500) == {"stand_in_level": None}  # never set: the default
        await first.set_stand_in_level(500, "hard", 7, "2026-01-01T00:00:00")
        assert await second.server_settings(500) == {"stand_in_level": "hard"}
        assert await second.server_settings(600) == {"stand_in_level": None}  # another server
        await second.set_stand_in_level(500, "easy", 8, "2026-01-01T00:00:01")  # changed again: one row
        assert await first.server_settings(500) == {"stand_in_level": "easy"}
        with pytest.raises(Exception):  # the schema refuses a level that does not exist
            await first.set_stand_in_level(600, "godlike", 7, "2026-01-01T00:00:02")
        assert await first.server_settings(600) == {"stand_in_level": None}
    finally:
        await first.close()
        await second.close()


async def test_held_notices_digests_and_proposals_are_taken_once_across_processes(backend):
    """Issue 34's claims: a person's held notices, their daily digest, a proposal's answer and its
    end are each taken by exactly one of two processes."""
    from bot.storage.rows import Proposal

    first, second = await backend.open(), await backend.open()  # two processes
    try:
        row = await new_active(first)
        await first.hold_notices([(10, row.id, "turn", NOW, NOW), (10, row.id, "reminder", NOW, NOW)])
        await second.hold_notices([(10, row.id, "turn", NOW, "2030-01-01T00:00:00+00:00")])  # held already: kept
        assert await second.held_due_users(NOW) == [10]
        taken = await asyncio.gather(first.take_held(10, NOW), second.take_held(10, NOW))
        assert sorted(taken, key=len) == [[], [(row.id, "reminder"), (row.id, "turn")]]
        claims = await asyncio.gather(*(s.claim_digest(10, "2026-11-21") for s in (first, second) * 3))
        assert claims.count(True) == 1 and await first.claim_digest(10, "2026-11-22") is True
        offer = Proposal(None, row.id, "draw", 0, 10, 1, [1], "open", NOW, "2026-11-22T10:00:00+00:00")
        pid = await first.open_proposal(offer)
        assert pid is not None and await second.open_proposal(offer) is None  # one open per game
        answers = await asyncio.gather(first.answer_proposal(pid, 1, True, NOW), second.answer_proposal(pid, 1, False, NOW))
        assert sorted(answers) == [False, True]
        ends = await asyncio.gather(first.end_proposal(pid, "expired"), second.end_proposal(pid, "expired"))
        assert ends.count(True) <= 1  # (a no already closed it: then neither)
        assert (await second.proposal(pid)).status in ("declined", "expired")
        await first.notice_posted(5, 900, [(row.id, 1)])
        await first.notice_posted(5, 901, [(row.id, 1), (row.id + 999, 1)])
        assert await second.retire_notices(row.id, 1) == []  # the turn has not passed
        assert await second.retire_notices(row.id, 2) == [(5, 900)]  # 901 still names another game's turn
        assert await first.retire_notices(row.id, 3) == []
    finally:
        await first.close()
        await second.close()
