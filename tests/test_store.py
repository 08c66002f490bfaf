"""Storage on a real SQLite file: migrations, versions, concurrency, restart, bad rows."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.store import CorruptRow, FutureRow, NotFound, Store, VersionConflict

NOW = "2026-11-21T10:00:00+00:00"


@pytest.fixture
async def store(tmp_path):
    s = await Store.open(str(tmp_path / "games.sqlite3"))
    yield s
    await s.close()


async def new_active(store, users=(10, 20)):
    row = await store.create_game(game="squares", guild_id=1, channel_id=2, creator_id=users[0],
                                  options={"cap": 8}, locale="ja", now=NOW)
    row = await store.set_seats(row.id, row.version, list(users), NOW)
    return await store.start(row.id, row.version, state={"n": 0}, seed=42, salt="s", now=NOW)


async def test_open_applies_migrations_and_wal(tmp_path):
    path = tmp_path / "g.sqlite3"
    s = await Store.open(str(path))
    assert await s.schema_version() == Store.migrations()[-1][0]
    await s.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"games", "seats", "actions", "user_settings"} <= tables


async def test_create_and_load_round_trip(store):
    row = await store.create_game(game="squares", guild_id=1, channel_id=2, creator_id=10,
                                  options={"cap": 6}, locale="ja", now=NOW)
    loaded = await store.load(row.id)
    assert loaded.status == "lobby" and loaded.options == {"cap": 6} and loaded.user_ids == [10]
    assert loaded.locale == "ja" and loaded.version == 0


async def test_commit_action_bumps_version_and_logs(store):
    row = await new_active(store)
    row2 = await store.commit_action(row.id, row.version, seat=0, user_id=10, action="T2@b2",
                                     state={"n": 1}, status="active", now=NOW)
    assert row2.version == row.version + 1 and row2.state == {"n": 1}
    log = await store.actions(row.id)
    assert [(a.n, a.seat, a.action, a.version) for a in log] == [(1, 0, "T2@b2", row2.version)]
    assert await store.seat_acted_since(row.id, 0, row.version)
    assert not await store.seat_acted_since(row.id, 1, row.version)


async def test_version_conflict_changes_nothing(store):
    row = await new_active(store)
    await store.commit_action(row.id, row.version, seat=0, user_id=10, action="a", state={"n": 1},
                              status="active", now=NOW)
    with pytest.raises(VersionConflict):
        await store.commit_action(row.id, row.version, seat=0, user_id=10, action="b", state={"n": 2},
                                  status="active", now=NOW)
    after = await store.load(row.id)
    assert after.state == {"n": 1} and [a.action for a in await store.actions(row.id)] == ["a"]


async def test_missing_game(store):
    with pytest.raises(NotFound):
        await store.load(999)
    with pytest.raises(NotFound):
        await store.commit_action(999, 0, seat=0, user_id=1, action="x", state={}, status="active", now=NOW)


async def test_two_connections_racing_apply_exactly_one(tmp_path):
    """Two writers (as two bot processes would be) commit against the same version."""
    path = str(tmp_path / "race.sqlite3")
    a, b = await Store.open(path), await Store.open(path)
    try:
        row = await new_active(a)

        async def write(store, label):
            try:
                await store.commit_action(row.id, row.version, seat=0, user_id=10, action=label,
                                          state={"by": label}, status="active", now=NOW)
                return label
            except VersionConflict:
                return None

        for _ in range(10):
            current = await a.load(row.id)
            row = current
            results = await asyncio.gather(write(a, f"a{current.version}"), write(b, f"b{current.version}"))
            winners = [r for r in results if r]
            assert len(winners) == 1
            assert (await b.load(row.id)).state == {"by": winners[0]}
        assert len(await a.actions(row.id)) == 10
    finally:
        await a.close()
        await b.close()


async def test_everything_survives_a_restart(tmp_path):
    path = str(tmp_path / "restart.sqlite3")
    s = await Store.open(path)
    row = await new_active(s)
    await s.commit_action(row.id, row.version, seat=1, user_id=20, action="x", state={"n": 9},
                          status="active", now=NOW)
    await s.mark_posted(row.id, row.version + 1, 555)
    await s.close()
    s = await Store.open(path)
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


async def test_corrupt_and_future_rows_are_reported_not_skipped(tmp_path):
    path = tmp_path / "bad.sqlite3"
    s = await Store.open(str(path))
    good = await new_active(s)
    bad = await new_active(s, users=(30, 40))
    future = await new_active(s, users=(50, 60))
    await s.close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE games SET state = '{not json' WHERE id = ?", (bad.id,))
        db.execute("UPDATE games SET state_format = 99 WHERE id = ?", (future.id,))
    s = await Store.open(str(path))
    try:
        assert (await s.load(good.id)).state == {"n": 0}
        with pytest.raises(CorruptRow):
            await s.load(bad.id)
        with pytest.raises(FutureRow):
            await s.load(future.id)
        # Listings still name them, so the problem is visible rather than silently skipped.
        assert await s.game_ids_in_guild(1) == [good.id, bad.id, future.id]
    finally:
        await s.close()


async def test_future_schema_is_refused(tmp_path):
    path = tmp_path / "newer.sqlite3"
    await (await Store.open(str(path))).close()
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version = 999")
    with pytest.raises(FutureRow):
        await Store.open(str(path))


async def test_an_older_database_is_migrated_forward(tmp_path):
    path = tmp_path / "old.sqlite3"
    number, first = Store.migrations()[0]
    with sqlite3.connect(path) as db:
        db.executescript(first)
        db.execute(f"PRAGMA user_version = {number}")
        db.execute("INSERT INTO games (game, channel_id, creator_id, status, options, created_at, updated_at) "
                   "VALUES ('squares', 1, 2, 'lobby', '{}', 'now', 'now')")
    s = await Store.open(str(path))
    try:
        assert await s.schema_version() == Store.migrations()[-1][0] > number
        row = await s.load(1)
        assert row.salt is None and row.status == "lobby"
    finally:
        await s.close()
