"""Moving a SQLite database to PostgreSQL (`python -m bot export-sqlite-to-postgres`): every game,
seat, action, result, deck and setting arrives with its id, reads back the same through both
stores, new games continue after the old ids, and a target holding anything is refused."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from bot.service import GameHost
from bot.storage.rows import CorruptRow, StoreError
from bot.storage.sqlite import Store
from games import get_game
from tests.test_service import ALICE, BOB, CAROL, fake_render, started

ROOT = Path(__file__).resolve().parents[1]
NOW = "2026-11-21T00:00:00+00:00"


async def a_lived_in_database(path: str) -> None:
    """Games in every condition a real file holds: lobby, active with moves, finished with results
    and a rematch, unposted boards, a corrupt row, a deleted game's id, decks and settings."""
    store = await Store.open(path)
    seeds = iter(range(1000, 2000))
    host = GameHost(store, clock=lambda: NOW, seed_source=lambda: next(seeds), render=fake_render)
    await host.create("squares", None, guild_id=1, channel_id=5, user_id=CAROL, locale="ja")
    active, _ = await started(host)
    for _ in range(3):
        row = await store.load(active.id)
        game = get_game(row.game)
        seat = min(game.to_act(row.state))
        legal = game.legal_actions(row.state, seat)
        await host.act(row.id, row.user_of(seat), legal[0], seen_version=row.version)
    await host.mark_posted(active.id, (await store.load(active.id)).version, 9_000_000_000_000_000_001)
    row = await store.load(active.id)
    mover = row.user_of(1 - min(get_game(row.game).to_act(row.state)))  # who moved last asks to take it back
    await host.ask_undo(active.id, mover)
    finished, _ = await started(host, game="arena")
    await host.resign(finished.id, finished.user_ids[1])
    await host.rematch(finished.id, ALICE)
    corrupt, _ = await started(host, game="osu", users=(444, 555))
    await store.save_deck(ALICE, "monsterhunter", "fire", "A01x3", NOW)
    await store.set_preferences(BOB, {"monsterhunter": {"def": "block"}})
    await store.set_dm_reminders(BOB, True)
    await store.set_dm_open(ALICE, False)
    await store.claim_repost(active.id, NOW, "2026-11-21T00:01:00+00:00")
    gone, _ = await host.create("squares", None, guild_id=1, channel_id=5, user_id=777, locale="en")
    await store.close()
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("UPDATE games SET state = '{not json' WHERE id = ?", (corrupt.id,))
        db.execute("DELETE FROM games WHERE id = ?", (gone.id,))  # its id is never handed out again


def export(sqlite_path: str, url: str, *flags: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "bot", "export-sqlite-to-postgres", sqlite_path, url, *flags], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)


async def everything(store, ids: list[int]) -> dict:
    """What the service can read from a store, for comparing two stores row for row."""
    games = await store.load_many(ids)
    users = [ALICE, BOB, CAROL, 444, 555, 777]
    return {
        "games": [type(g).__name__ if isinstance(g, StoreError) else g for g in games],
        "actions": [await store.actions(i) for i in ids],
        "stats": await store.stats(1),
        "settings": await store.users_settings(users),
        "preferences": [await store.preferences(u) for u in users],
        "decks": await store.decks(ALICE, "monsterhunter"),
        "ratings": [await store.rating_changes(i) for i in ids] + [await store.leaderboard(1, "arena", 10)],
        "undo": [await store.undo_request(i, v) for i in ids for v in range(12)],
        "lists": [await store.game_ids_in_guild(1), await store.game_ids_of_user(ALICE),
                  await store.game_ids_in_channel(5), await store.unposted_game_ids()],
    }


async def test_export_keeps_every_game_and_refuses_a_second_time(tmp_path, pg_backend):
    path = str(tmp_path / "old.sqlite3")
    await a_lived_in_database(path)
    with sqlite3.connect(path) as db:
        ids = [r[0] for r in db.execute("SELECT id FROM games ORDER BY id")]
        counts = {t: db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
                  for t in ("games", "seats", "actions", "results", "user_settings", "decks")}
        highest = db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'games'").fetchone()[0]

    done = export(path, pg_backend.target)
    assert done.returncode == 0, done.stderr
    for table, count in counts.items():
        assert f"{table}: {count} rows" in done.stdout

    source, target = await Store.open(path), await pg_backend.open()
    try:
        before = await everything(source, ids)
        # The copy has something to lose: a corrupt row, moves, a rating, an undo request.
        assert "CorruptRow" in before["games"] and before["actions"][1]
        assert before["ratings"][-1] and any(before["undo"])
        assert await everything(target, ids) == before
        with_corrupt = await target.load_many(ids)
        assert any(isinstance(g, CorruptRow) for g in with_corrupt)
        # New games continue after every id SQLite gave out, the deleted game's included.
        fresh = await target.create_game(game="squares", guild_id=1, channel_id=5, creator_id=ALICE, options={},
                                         locale="en", now=NOW)
        assert fresh.id == highest + 1
    finally:
        await source.close()
        await target.close()

    again = export(path, pg_backend.target)
    assert again.returncode == 1 and "not empty" in again.stderr
    target = await pg_backend.open()
    try:  # the copy plus the fresh game, nothing doubled
        every_status = ("lobby", "active", "finished", "abandoned")
        assert await target.game_ids_in_guild(1, statuses=every_status) == ids + [fresh.id]
    finally:
        await target.close()


async def test_export_refuses_a_missing_file_and_writes_nothing(tmp_path, pg_backend):
    refused = export(str(tmp_path / "nope.sqlite3"), pg_backend.target)
    assert refused.returncode == 1 and "is not a file" in refused.stderr
    assert not (tmp_path / "nope.sqlite3").exists()


async def test_rows_of_a_game_deleted_by_hand_are_refused_or_left_behind_when_told(tmp_path, pg_backend):
    path = str(tmp_path / "orphans.sqlite3")
    store = await Store.open(path)
    host = GameHost(store, clock=lambda: NOW, render=fake_render)
    kept, _ = await started(host)
    deleted, _ = await started(host, users=(444, 555))
    await store.close()
    with sqlite3.connect(path) as db:  # the sqlite3 shell: foreign keys off, seats stay behind
        db.execute("DELETE FROM games WHERE id = ?", (deleted.id,))

    refused = export(path, pg_backend.target)
    assert refused.returncode == 1 and "seats 2" in refused.stderr and "--drop-orphans" in refused.stderr
    target = await pg_backend.open()
    assert await target.game_ids_in_guild(1) == []  # nothing written
    await target.close()

    done = export(path, pg_backend.target, "--drop-orphans")
    assert done.returncode == 0, done.stderr
    assert "games: 1 rows" in done.stdout and "seats: 2 rows" in done.stdout
    target = await pg_backend.open()
    try:
        assert (await target.load(kept.id)).user_ids == kept.user_ids
        assert await target.game_ids_of_user(444) == []
    finally:
        await target.close()
