"""The real bot when something fails after an action was saved (issue #30): drawing the board, or
Discord taking it. The fault is injected once per process through ``TABLETOP_FAIL_AT`` (bot/faults.py).

The player hears that the action counted (never "nothing was changed"), the action is stored
once, and the board arrives from the same process, without the wording of a restart. The old path
(a repost REPOST_AFTER_SECONDS after the save, by the bot's clock) cannot bring it here: the bot
reads a clock that stands still, so whatever arrives came by redelivery, however slow the machine."""

from __future__ import annotations

from tests.e2e.test_bot_e2e import (home, latest_board, log_rows, open_lobby, play_by_command, reply_text, running_bot,
                                    start_two_player, uid)
from tests.fake_clock import FakeClock

ARRIVAL_SECONDS = 60.0  # a hang bound only (see above)


async def test_a_start_whose_board_cannot_be_drawn_counts_and_its_board_and_panels_follow(tmp_path, monkeypatch):
    """The issue's Discord session: an Arena Duel in Japanese, a player with view_large:true."""
    monkeypatch.setenv("TABLETOP_FAIL_AT", "service.draw")  # the first drawing of the process fails
    async with running_bot(tmp_path, users=("alice", "bob"), guild_locale="ja",
                           clock=FakeClock(tmp_path / "now")) as (fake, bot):
        await reply_text(await fake.send_slash(fake.guild_id, fake.channel_id, "bob", "game settings",
                                               {"view_large": True}, locale="ja"))
        game_id, lobby = await open_lobby(fake, game="arena", locale="ja")
        join = next(c for c in lobby.custom_ids() if c.endswith(":join"))
        await reply_text(await fake.click_button(lobby, join, "bob", locale="ja"))
        start = next(c for c in fake.message(lobby.id).custom_ids() if c.endswith(":start"))
        mark = fake.mark()
        answer = await reply_text(await fake.click_button(fake.message(lobby.id), start, "alice", locale="ja"))
        assert "何も変更されていません" not in answer and "操作は反映されました" in answer, answer
        assert f"ゲーム #{game_id}を開始しました" in answer
        row = bot.database.game_row(game_id)
        assert row["status"] == "active" and row["posted_version"] < row["version"]
        board = await fake.wait_for_message(home(bot, fake, game_id), lambda m: m.attachments and not m.ephemeral,
                                            since=mark, timeout=ARRIVAL_SECONDS)
        assert "再起動" not in board.text() and f"ゲーム #{game_id}の盤面です" in board.text(), board.text()
        # The panels that never went out come with it, by DM.
        for name in ("alice", "bob"):
            dm = await fake.wait_for_dm(name, lambda m: m.attachments and m.custom_ids(), timeout=ARRIVAL_SECONDS)
            assert f"#{game_id}" in dm.content
        assert bot.database.game_row(game_id)["posted_version"] == row["version"]
        assert not fake.message(lobby.id).custom_ids()  # the lobby closed: no second "Start" to press
        assert "is saved, but showing it failed" in bot.log.read_text()  # the fault struck after the save


async def test_a_move_whose_board_discord_does_not_take_counts_and_its_board_follows(tmp_path, monkeypatch):
    monkeypatch.setenv("TABLETOP_FAIL_AT", "delivery.board#2")  # the start's board goes out, the move's fails
    async with running_bot(tmp_path, users=("alice", "bob", "carol"), clock=FakeClock(tmp_path / "now")) as (fake, bot):
        game_id, seats = await start_two_player(fake, bot)
        await latest_board(fake, bot, game_id)
        mark = fake.mark()
        answer = await play_by_command(fake, seats[0], "N1@a2")
        assert "Nothing was changed" not in answer and "`N1@a2` played" in answer and "That counted" in answer, answer
        assert [a for _, _, a in log_rows(bot.db_path, game_id)] == ["N1@a2"]
        board = await fake.wait_for_message(home(bot, fake, game_id), lambda m: m.attachments and not m.ephemeral,
                                            since=mark, timeout=ARRIVAL_SECONDS)
        assert "restart" not in board.text() and f"Game #{game_id}: here is the board" in board.text(), board.text()
        assert str(uid(fake, seats[1])) in board.text().split("👉")[-1]  # the next player's turn, drawn afresh
        # The game goes on from the redelivered board; the move stays stored once.
        assert "✅" in await play_by_command(fake, seats[1], "N1@e5")
        assert [a for _, _, a in log_rows(bot.db_path, game_id)] == ["N1@a2", "N1@e5"]
