"""Storage on a real SQLite file: migrations, versions, concurrency, restart, bad rows."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.store import CorruptRow, Draft, FutureRow, NotFound, SchemaDamaged, Store, VersionConflict

NOW = "2026-11-21T10:00:00+00:00"


@pytest.fixture
async def store(tmp_path):
    s = await Store.open(str(tmp_path / "games.sqlite3"))
    yield s
    await s.close()


async def new_active(store, users=(10, 20)):
    row = await store.create_game(game="squares", guild_id=1, channel_id=2, creator_id=users[0],
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


async def test_two_connections_racing_apply_exactly_one(tmp_path):
    """Two writers (as two bot processes would be) commit against the same version."""
    path = str(tmp_path / "race.sqlite3")
    a, b = await Store.open(path), await Store.open(path)
    try:
        row = await new_active(a)

        async def write(store, label):
            try:
                await commit_action(store, row, 0, label, {"by": label})
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
    await commit_action(s, row, 1, "x", {"n": 9}, user_id=20)
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
        # Until the service sets them aside, listings name them (and load_many reports them).
        assert await s.game_ids_in_guild(1) == [good.id, bad.id, future.id]
        loaded = await s.load_many([good.id, bad.id, future.id])
        assert loaded[0].id == good.id and isinstance(loaded[1], CorruptRow) and isinstance(loaded[2], FutureRow)
        assert await s.mark_broken(bad.id, "undecodable", NOW) and not await s.mark_broken(bad.id, "again", NOW)
        assert await s.game_ids_in_guild(1) == [good.id, future.id]
        assert bad.id not in await s.game_ids_of_user(30) + await s.game_ids_in_channel(2) + await s.unposted_game_ids()
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


@pytest.mark.parametrize("damage, says", [
    ("DROP TABLE results", "table results is missing"),
    ("ALTER TABLE games DROP COLUMN remind_at", "games.remind_at is missing"),
])
async def test_a_damaged_schema_is_refused_at_start_up(tmp_path, damage, says):
    path = tmp_path / "damaged.sqlite3"
    await (await Store.open(str(path))).close()
    with sqlite3.connect(path) as db:
        db.execute("DROP INDEX IF EXISTS games_remind")
        db.execute(damage)
    with pytest.raises(SchemaDamaged, match=says):
        await Store.open(str(path))


async def test_hot_queries_are_bounded_by_an_index(store):
    """The scheduler, /play, lists and reposting never scan every stored game: the statements the
    store really runs are traced and each one's plan must search an index, not scan the table."""
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
    await store._run(lambda c: c.set_trace_callback(None))
    assert len(seen) == 7
    for sql in seen:
        plan = await store._run(lambda c: [r[-1] for r in c.execute("EXPLAIN QUERY PLAN " + sql)])
        full_scans = [step for step in plan if step.startswith("SCAN") and "USING" not in step]
        assert not full_scans, (sql, plan)


async def test_saved_decks_are_per_user_and_game(tmp_path):
    store = await Store.open(str(tmp_path / "decks.sqlite3"))
    try:
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
    finally:
        await store.close()


async def test_preferences_round_trip_and_survive_other_settings(tmp_path):
    store = await Store.open(str(tmp_path / "prefs.sqlite3"))
    try:
        assert await store.preferences(5) == {}
        await store.set_user_locale(5, "ja")
        await store.set_preferences(5, {"monsterhunter": {"def": "block"}})
        await store.set_dm_reminders(5, True)
        assert await store.preferences(5) == {"monsterhunter": {"def": "block"}}
        assert (await store.user_settings(5))["locale"] == "ja"
    finally:
        await store.close()


async def test_reminders_and_reposts_are_claimed_once(tmp_path):
    path = str(tmp_path / "claims.sqlite3")
    first, second = await Store.open(path), await Store.open(path)  # two processes' connections
    try:
        row = await first.create_game(game="squaresiv", guild_id=1, channel_id=2, creator_id=3,
                                      options={}, locale="en", now="2026-01-01T00:00:00")
        assert await first.claim_reminders([row.id]) == [row.id]
        assert await second.claim_reminders([row.id]) == []
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
