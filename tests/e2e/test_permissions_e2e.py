"""The real bot where Discord refuses it something (issue #30, parts 3 to 6): each permission it
may lack, and Discord's signed, changing CDN URLs. The stand-in refuses what Discord would refuse
(403 50013 / 50001) and records it in ``permission_refusals``; ``running_bot`` fails a test on any
violation, so each scenario also shows the bot never did what Discord would have punished."""

from __future__ import annotations

import re
import sqlite3

from bot.discord_app.custom_ids import decode
from bot.common.permissions import INVITE_INTEGER, MANAGE_THREADS, PIN_MESSAGES
from tests.e2e.test_bot_e2e import game_row, latest_board, open_lobby, reply_text, running_bot, start_two_player, uid
from tests.fakediscord.server import P

WORLD = {"users": ("alice", "bob", "carol"), "guild_locale": "en-US"}


def gallery_media(message) -> dict:
    return next(c for c in message.all_components() if c["type"] == 12)["items"][0]["media"]


async def play_first_move(fake, bot, game_id: int, seats: dict[int, str]):
    """The seat to act places a piece with the board's buttons; returns the board it acted on."""
    board = await latest_board(fake, bot, game_id)
    user = seats[0]
    select = next(c for c in board.custom_ids() if decode(c).kind == "g")
    picker = await fake.select(board, select, [fake.message(board.id).component(select)["options"][0]["value"]], user)
    await picker.response()
    panel = await picker.answer(lambda m: m.custom_ids(), timeout=10)
    answer = await reply_text(await fake.click_button(panel, panel.custom_ids()[0], user))
    assert "✅" in answer, answer
    return board, answer


async def test_a_retired_board_keeps_its_image_when_cdn_urls_change(tmp_path):
    """Discord signs attachment URLs afresh on every fetch. Taking the buttons off the previous
    board reads it back and must keep its picture as a reference to its own attachment (by id), not
    echo a URL that expires; before, media was matched by exact URL and the signed one sent back."""
    async with running_bot(tmp_path, **WORLD) as (fake, bot):
        game_id, seats = await start_two_player(fake, bot)
        old, _ = await play_first_move(fake, bot, game_id, seats)
        await fake.wait_until(lambda: not fake.message(old.id).custom_ids(), timeout=10,
                              what="the previous board to lose its buttons")
        retired = fake.message(old.id)
        assert gallery_media(retired)["attachment_id"] == str(retired.attachment("board.png").id)
        assert gallery_media(retired)["url"] == retired.attachment("board.png").url
        assert [v.kind for v in fake.violations] == []


async def new_game(fake, user="alice", game="squares", locale="en-US", channel=None) -> tuple[str, int | None]:
    """``/game new``: the creator's answer, and the game's number when one was opened."""
    h = await fake.send_slash(fake.guild_id, channel or fake.channel_id, user, "game new", {"game": game}, locale=locale)
    text = await reply_text(h)
    opened = re.search(r"#(\d+)", text)
    return text, int(opened[1]) if opened and "⚠️" not in text else None


async def join_and_start(fake, bot, game_id: int):
    lobby = next(m for m in fake.messages(fake.channel_id) if m.custom_ids() and f"#{game_id}" in m.text())
    join = next(c for c in lobby.custom_ids() if c.endswith(":join"))
    await reply_text(await fake.click_button(lobby, join, "carol"))
    start = next(c for c in fake.message(lobby.id).custom_ids() if c.endswith(":start"))
    answer = await reply_text(await fake.click_button(fake.message(lobby.id), start, "alice"))
    await fake.wait_until(lambda: game_row(bot.db_path, game_id)["posted_version"] >= game_row(bot.db_path, game_id)["version"]
                          and game_row(bot.db_path, game_id)["status"] == "active", timeout=10, what="the first board")
    return answer


def boards(fake, channel_id: int) -> list:
    return [m for m in fake.messages(channel_id, include_ephemeral=False) if m.attachments]


async def test_without_attach_files_game_new_is_refused_and_says_why(tmp_path):
    async with running_bot(tmp_path, **WORLD) as (fake, bot):
        fake.set_overwrite(fake.channel_id, fake.application_id, deny=P["ATTACH_FILES"])
        mark = fake.mark()
        text, game_id = await new_game(fake)
        assert game_id is None and text.startswith("⚠️") and "Attach Files" in text
        ja, _ = await new_game(fake, locale="ja")
        assert "ファイルを添付" in ja  # in the player's language
        assert not [m for m in fake.messages(fake.channel_id, include_ephemeral=False) if m.id > mark]
        with sqlite3.connect(bot.db_path) as db:
            assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 0
        assert fake.permission_refusals == []  # it never tried what Discord would refuse
        # the same server's other channel is fine
        other = fake.guild["channel_ids"][1]
        text, game_id = await new_game(fake, channel=other)
        assert game_id is not None and "⚠️" not in text


async def test_without_pin_messages_the_game_plays_and_every_board_carries_the_status(tmp_path):
    async with running_bot(tmp_path, **WORLD) as (fake, bot):
        fake.set_bot_permissions(fake.guild_id, INVITE_INTEGER & ~PIN_MESSAGES.value)
        text, game_id = await new_game(fake)
        assert game_id is not None and "Pin Messages" in text and "top of every board" in text
        answer = await join_and_start(fake, bot, game_id)
        assert "Pin Messages" in answer  # whoever starts is told too
        thread_id = game_row(bot.db_path, game_id)["thread_id"]
        assert thread_id  # still in its own thread
        first = boards(fake, thread_id)[-1]
        assert first.text().startswith(f"#{game_id} ")  # the status opens the board
        seats = {0: "alice" if str(uid(fake, "alice")) in first.text().split("👉")[-1] else "carol"}
        seats[1] = "carol" if seats[0] == "alice" else "alice"
        await play_first_move(fake, bot, game_id, seats)
        await fake.wait_until(lambda: len(boards(fake, thread_id)) >= 2, timeout=10, what="the second board")
        assert boards(fake, thread_id)[-1].text().startswith(f"#{game_id} ")
        assert game_row(bot.db_path, game_id)["status_message_id"] is None  # no unpinned status to sink
        assert not fake.requests_to("PUT", r"/pins/") and fake.permission_refusals == []


async def test_without_thread_permission_the_game_is_played_in_the_channel(tmp_path):
    async with running_bot(tmp_path, **WORLD) as (fake, bot):
        fake.set_overwrite(fake.channel_id, fake.guild_id, deny=P["CREATE_PUBLIC_THREADS"])  # @everyone
        text, game_id = await new_game(fake, locale="ja")
        assert game_id is not None and "公開スレッドを作成" in text and "このチャンネルで" in text
        await join_and_start(fake, bot, game_id)
        assert game_row(bot.db_path, game_id)["thread_id"] is None
        assert boards(fake, fake.channel_id) and not fake.requests_to("POST", r"/threads$")
        assert fake.permission_refusals == []


async def help_text(fake) -> str:
    """Every page of ``/help``'s answer (a long answer comes as several messages)."""
    h = await fake.send_slash(fake.guild_id, fake.channel_id, "alice", "help", {})
    await reply_text(h)
    await h.followup(predicate=lambda m: "🔑" in m.content or "docs/permissions.md" in m.content, timeout=10)
    await fake.wait_until(lambda: any("docs/permissions.md" in m.content for m in h.followups), timeout=10)
    return "\n".join(m.content for m in h.followups)


async def test_help_shows_an_admin_what_the_bot_lacks_in_the_channel(tmp_path):
    async with running_bot(tmp_path, **WORLD) as (fake, bot):
        everything = await help_text(fake)
        assert "every permission" in everything and str(INVITE_INTEGER) in everything
        fake.set_overwrite(fake.channel_id, fake.application_id, deny=P["PIN_MESSAGES"] | P["READ_MESSAGE_HISTORY"])
        lacking = await help_text(fake)
        assert "Pin Messages" in lacking and "Read Message History" in lacking and "Attach Files" not in lacking
        assert "every permission" not in lacking


def seats_from(fake, board) -> dict[int, str]:
    """Seat 0 is whoever the first board waits on (alice or carol)."""
    first = "alice" if str(uid(fake, "alice")) in board.text().split("👉")[-1] else "carol"
    return {0: first, 1: "carol" if first == "alice" else "alice"}


async def test_losing_send_in_threads_mid_game_moves_the_game_to_the_channel(tmp_path):
    """An admin takes Send Messages in Threads from the bot while a game runs in its thread: the
    next board cannot go there, so the game moves to the channel, the board is posted there saying
    why, and play goes on there."""
    async with running_bot(tmp_path, **WORLD) as (fake, bot):
        game_id, seats = await start_two_player(fake, bot)
        thread_id = game_row(bot.db_path, game_id)["thread_id"]
        assert thread_id
        fake.set_overwrite(fake.channel_id, fake.application_id, deny=P["SEND_MESSAGES_IN_THREADS"])
        mark = fake.mark()
        await play_first_move(fake, bot, game_id, seats)
        moved = await fake.wait_for_message(fake.channel_id, lambda m: m.attachments and m.custom_ids(), since=mark, timeout=10)
        assert f"can no longer post in game #{game_id}'s thread" in moved.text() and f"<#{thread_id}>" in moved.text()
        assert game_row(bot.db_path, game_id)["thread_id"] is None
        assert [missing for _, _, missing in fake.permission_refusals] == [["SEND_MESSAGES_IN_THREADS", "ATTACH_FILES"]]
        # play goes on in the channel
        seats = {0: seats[1], 1: seats[0]}
        mark = fake.mark()
        await play_first_move(fake, bot, game_id, seats)
        await fake.wait_for_message(fake.channel_id, lambda m: m.attachments and m.custom_ids(), since=mark, timeout=10)
        assert not [m for m in fake.messages(thread_id) if m.id > mark]


async def test_a_thread_locked_by_a_moderator_sends_the_game_to_the_channel(tmp_path):
    """A moderator closes and locks a running game's thread. Without Manage Threads the bot may
    not reopen it (nor post in it, nor use its buttons): it says so in the channel at once, with
    the board and its buttons, and the game goes on there. Nothing stalls waiting for the thread."""
    async with running_bot(tmp_path, **WORLD) as (fake, bot):
        fake.set_bot_permissions(fake.guild_id, INVITE_INTEGER & ~MANAGE_THREADS.value)  # a server that withholds it
        game_id, seats = await start_two_player(fake, bot)
        thread_id = game_row(bot.db_path, game_id)["thread_id"]
        mark = fake.mark()
        fake.set_thread_state(thread_id, archived=True, locked=True)
        moved = await fake.wait_for_message(fake.channel_id, lambda m: m.attachments and m.custom_ids(), since=mark, timeout=10)
        assert f"#{game_id}" in moved.text() and f"<#{thread_id}>" in moved.text()
        assert str(uid(fake, seats[0])) in moved.text()  # whoever is to act is pinged where the game now is
        assert game_row(bot.db_path, game_id)["thread_id"] is None
        assert {tuple(m) for _, _, m in fake.permission_refusals} == {("MANAGE_THREADS",)}
        assert fake.channel(thread_id)["thread_metadata"]["locked"]  # the moderator's lock stands
        await play_first_move(fake, bot, game_id, seats)
        await fake.wait_for_message(fake.channel_id, lambda m: m.attachments and m.custom_ids(), since=moved.id, timeout=10)


async def test_with_manage_threads_a_locked_game_thread_is_reopened(tmp_path):
    """With Manage Threads (the invite asks for it) the bot unlocks and reopens a game thread a
    moderator closed and locked, and the game stays there."""
    async with running_bot(tmp_path, **WORLD) as (fake, bot):
        game_id, seats = await start_two_player(fake, bot)
        thread_id = game_row(bot.db_path, game_id)["thread_id"]
        fake.set_thread_state(thread_id, archived=True, locked=True)
        meta = fake.channel(thread_id)["thread_metadata"]
        await fake.wait_until(lambda: not meta["archived"] and not meta["locked"], timeout=10,
                              what="the bot to reopen its thread")
        mark = fake.mark()
        await play_first_move(fake, bot, game_id, seats)
        await fake.wait_for_message(thread_id, lambda m: m.attachments, since=mark, timeout=10)
        assert game_row(bot.db_path, game_id)["thread_id"] == thread_id and fake.permission_refusals == []


async def test_a_board_the_bot_may_not_post_is_reported_to_the_player_who_moved(tmp_path):
    """A game played in the channel, whose Send Messages an admin withdraws mid-game: the move is
    saved and the player who made it is told the board could not be posted there, and where."""
    async with running_bot(tmp_path, **WORLD) as (fake, bot):
        h = await fake.send_slash(fake.guild_id, fake.channel_id, "alice", "game new", {"game": "squares", "thread": False})
        game_id = int(re.search(r"#(\d+)", await reply_text(h))[1])
        await join_and_start(fake, bot, game_id)
        assert game_row(bot.db_path, game_id)["thread_id"] is None
        seats = seats_from(fake, boards(fake, fake.channel_id)[-1])
        fake.set_overwrite(fake.channel_id, fake.application_id, deny=P["SEND_MESSAGES"])
        version = game_row(bot.db_path, game_id)["version"]
        _, answer = await play_first_move(fake, bot, game_id, seats)
        assert game_row(bot.db_path, game_id)["version"] > version  # saved
        assert f"could not post the board in <#{fake.channel_id}>" in answer
        assert [m for _, _, m in fake.permission_refusals] == [["SEND_MESSAGES", "ATTACH_FILES"]]


async def test_a_board_sent_after_a_failed_edit_carries_its_image(tmp_path):
    """Delivery on a real discord.py client against the stand-in: a board meant to replace one in
    place that was deleted meanwhile is posted afresh, with its picture (the failed edit had read
    the file; sending the same one again uploaded nothing)."""
    import discord

    from bot.discord_app.delivery import Delivery
    from bot.discord_app.endpoint import point_at, reset
    from bot.i18n import T
    from bot.service import Post
    from tests.fakediscord import FakeDiscord, make_png

    class Host:  # the bookkeeping delivery reports to
        async def mark_posted(self, *args):
            pass

    fake = FakeDiscord()
    await fake.start()
    point_at(fake.api_base)
    client = discord.Client(intents=discord.Intents.none())
    try:
        await client.login("token")
        old = await client.get_partial_messageable(fake.channel_id).send("the board before")
        await old.delete()
        png = make_png(40, 30)
        post = Post(7, fake.channel_id, [T("game.resumed", id=7)], image=png, board_version=3,
                    replaces_message_id=old.id, edit_in_place=True)
        message = await Delivery(client, Host()).post(post)
        assert fake.message(message.id).attachment("board.png").data == png
        assert [v.kind for v in fake.violations] == []
    finally:
        await client.close()
        await fake.stop()
        reset()
