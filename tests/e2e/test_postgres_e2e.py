"""The real bot process with DATABASE_URL set plays on PostgreSQL (issue #17): a game is started,
played by command and by button, survives a SIGKILL, and every row is in PostgreSQL (the SQLite
file DATABASE_PATH names is never created)."""

from __future__ import annotations

from tests.e2e import test_bot_e2e as e2e
from tests.e2e.database import PgDatabase


async def test_the_bot_plays_on_postgres_and_survives_a_kill(tmp_path, pg_backend):
    with PgDatabase(pg_backend.target) as database:
        async with e2e.running_bot(tmp_path, database=database, users=("alice", "bob", "carol")) as (fake, bot):
            game_id, seats = await e2e.start_two_player(fake, bot)
            await e2e.play_by_command(fake, seats[0], "N1@a2")
            board = await e2e.latest_board(fake, bot, game_id)
            await e2e.play_by_button(fake, board, seats[1], "N1@e5")
            old_board = await e2e.latest_board(fake, bot, game_id)
            await bot.kill()
            await bot.start()
            await e2e.play_by_button(fake, old_board, seats[0], "a2-a3")
            await e2e.board_shown(fake, bot, game_id)
            assert [row[:3] for row in database.actions(game_id)] == [
                (0, e2e.uid(fake, seats[0]), "N1@a2"), (1, e2e.uid(fake, seats[1]), "N1@e5"),
                (0, e2e.uid(fake, seats[0]), "a2-a3")]
            assert not bot.db_path.exists()  # nothing went to the SQLite default
