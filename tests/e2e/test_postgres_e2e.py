"""The real bot process with DATABASE_URL set plays on PostgreSQL (issue #17): a game is started,
played by command and by button, survives a SIGKILL, and every row is in PostgreSQL (the SQLite
file DATABASE_PATH names is never created)."""

from __future__ import annotations

import asyncio
import concurrent.futures

import asyncpg

from tests.e2e import test_bot_e2e as e2e


def pg_reader(target: str):
    """A synchronous ``game_row`` over PostgreSQL for the shared e2e helpers (they read the
    database between stand-in events); it runs on its own thread and loop."""
    def query(sql: str, *args):
        async def fetch():
            db = await asyncpg.connect(target)
            try:
                return await db.fetch(sql, *args)
            finally:
                await db.close()
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            return pool.submit(asyncio.run, fetch()).result()
    return query


async def test_the_bot_plays_on_postgres_and_survives_a_kill(tmp_path, pg_backend, monkeypatch):
    query = pg_reader(pg_backend.target)
    monkeypatch.setenv("E2E_DATABASE_URL", pg_backend.target)
    monkeypatch.setattr(e2e, "game_row", lambda _path, game_id: dict(
        query("SELECT * FROM games WHERE id = $1", game_id)[0]))

    def log_rows(game_id):
        return [tuple(r) for r in query("SELECT seat, user_id, action FROM actions WHERE game_id = $1 ORDER BY n",
                                        game_id)]

    async with e2e.running_bot(tmp_path, users=("alice", "bob", "carol")) as (fake, bot):
        game_id, seats = await e2e.start_two_player(fake, bot)
        await e2e.play_by_command(fake, seats[0], "N1@a2")
        board = await e2e.latest_board(fake, bot, game_id)
        await e2e.play_by_button(fake, board, seats[1], "N1@e5")
        old_board = await e2e.latest_board(fake, bot, game_id)
        await bot.kill()
        await bot.start()
        await e2e.play_by_button(fake, old_board, seats[0], "a2-a3")
        await e2e.board_shown(fake, bot, game_id)
        assert log_rows(game_id) == [(0, e2e.uid(fake, seats[0]), "N1@a2"), (1, e2e.uid(fake, seats[1]), "N1@e5"),
                                     (0, e2e.uid(fake, seats[0]), "a2-a3")]
        assert not bot.db_path.exists()  # nothing went to the SQLite default
