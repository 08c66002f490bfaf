"""A server's admins choose the stand-in AI's strength (issue 16), typed through the real bot and
the stand-in: `/game settings standin_level:` from an admin (the server's owner, and a member with
the Administrator role) is stored; from a member without Manage Server, or in DMs, it is refused
in the person's language and nothing is stored; `/game settings` alone shows the level; a missed
deadline in that server is then played by the stand-in."""

from __future__ import annotations

import pytest

from tests.e2e.test_bot_e2e import home, log_rows, reply_text, running_bot, start_two_player


@pytest.fixture
async def world(tmp_path):
    async with running_bot(tmp_path, users=("alice", "bob", "carol"), guild_locale="ja") as w:
        yield w


async def settings(fake, user: str, options: dict | None = None, locale: str = "en-US", *, dm: bool = False) -> str:
    where = (None, None) if dm else (fake.guild_id, fake.channel_id)
    return await reply_text(await fake.send_slash(*where, user, "game settings", options or {}, locale=locale))


def stored_level(bot, guild_id: int) -> list[str | None]:
    return [r["stand_in_level"] for r in bot.database.rows(
        "SELECT stand_in_level FROM server_settings WHERE guild_id = ?", (guild_id,))]


async def test_only_a_servers_admins_change_its_stand_in_level(world):
    fake, bot = world
    # Bob has no Manage Server permission (alice, the first member, owns the server).
    answer = await settings(fake, "bob", {"standin_level": "hard", "dm_reminders": True})
    assert "Manage Server" in answer and "Nothing was changed" in answer
    answer = await settings(fake, "bob", {"standin_level": "hard"}, locale="ja")
    assert "「サーバー管理」" in answer and "何も変更していません" in answer
    answer = await settings(fake, "alice", {"standin_level": "hard"}, dm=True)
    assert "needs a server that added the bot" in answer
    assert "ボットを追加したサーバーでのみ" in await settings(fake, "alice", {"standin_level": "easy"}, locale="ja", dm=True)
    assert stored_level(bot, fake.guild_id) == []
    assert not bot.database.rows("SELECT 1 FROM user_settings WHERE dm_reminders = 1")  # the refusal stored nothing
    # Bob's own settings and the server's default level.
    shown = await settings(fake, "bob")
    assert "**normal** (the default)" in shown and "DM too: off" in shown
    # The owner sets it (in Japanese); a member given the Administrator role changes it again.
    assert "「**つよい**」" in await settings(fake, "alice", {"standin_level": "hard"}, locale="ja")
    assert stored_level(bot, fake.guild_id) == ["hard"]
    fake.add_user("dave", admin=True)
    assert "**easy**" in await settings(fake, "dave", {"standin_level": "easy"})
    assert stored_level(bot, fake.guild_id) == ["easy"]
    assert "「**やさしい**」" in await settings(fake, "bob", locale="ja")
    assert "in a server to see it" in await settings(fake, "bob", dm=True)
    # A missed deadline in this server: the stand-in plays the absent seat.
    game_id, seats = await start_two_player(fake, bot)
    mark = fake.mark()
    bot.database.execute("UPDATE games SET deadline_at = '2026-01-01T00:00:00+00:00' WHERE id = ?", (game_id,))
    await fake.wait_for_message(home(bot, fake, game_id), lambda m: m.attachments and "🤖" in m.text(),
                                since=mark, timeout=10)
    rows = log_rows(bot.db_path, game_id)
    assert len(rows) == 1 and rows[0][0] == 0 and rows[0][1] is None
