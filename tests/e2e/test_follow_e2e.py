"""Spectators and view choices (#18), through the real bot and the stand-in.

A non-player follows games by the board's button and by ``/game follow``; each turn reaches a
follower once, combined across the games they follow in one place (a DM for those who chose DMs,
else a mention in the channel); players cannot follow; double clicks change nothing; old Follow
buttons work after a restart. ``/game settings view_large/view_side`` change the images a player
receives privately, never the public board.
"""

from __future__ import annotations

import asyncio
import io
import re
import sqlite3

import pytest
from PIL import Image

from bot.discord_app.custom_ids import decode
from tests.e2e.test_bot_e2e import board_shown, game_row, home, open_lobby, reply_text, running_bot, uid
from tests.fake_clock import FakeClock

from games import get_game
import json

GATHER = 3  # seconds a follower's notice waits for other turns in the same place (FOLLOW_GATHER_SECONDS)
TICKS = 1.5  # real seconds for several scheduler ticks (SCHEDULER_INTERVAL_SECONDS is 0.3)
PEOPLE = ("alice", "bob", "carol", "dave", "erin")


@pytest.fixture
async def world(tmp_path, monkeypatch):
    monkeypatch.setenv("FOLLOW_GATHER_SECONDS", str(GATHER))  # the bot process inherits it
    # The bot reads the time from a clock the test moves: the gather time passes when the test says,
    # so two moves fall in one notice however long the machine takes to play them.
    async with running_bot(tmp_path, users=PEOPLE, dm_closed=("bob",), guild_locale="en-US",
                           clock=FakeClock(tmp_path / "now")) as w:
        yield w


async def typed(fake, user: str, command: str, options: dict | None = None, locale: str = "en-US") -> str:
    return await reply_text(await fake.send_slash(fake.guild_id, fake.channel_id, user, command, options or {},
                                                  locale=locale))


async def typed_message(fake, user: str, command: str, options: dict | None = None):
    """The whole ephemeral answer (with its image and buttons)."""
    handle = await fake.send_slash(fake.guild_id, fake.channel_id, user, command, options or {})
    await handle.response()
    return await handle.answer(timeout=10)


async def new_game(fake, bot, creator: str = "alice", other: str = "carol") -> int:
    """A SQUARESIV game in the channel itself (no thread), so several games share one place."""
    answer = await typed(fake, creator, "game new", {"game": "squares", "thread": False})
    game_id = int(re.search(r"#(\d+)", answer)[1])
    await typed(fake, other, "game join", {"game_id": game_id})
    await typed(fake, creator, "game start", {"game_id": game_id})
    await board_shown(fake, bot, game_id)
    return game_id


def followers(bot, game_id: int) -> list[tuple[int, int]]:
    with sqlite3.connect(bot.db_path) as db:
        return db.execute("SELECT user_id, notified_version FROM followers WHERE game_id = ? ORDER BY user_id",
                          (game_id,)).fetchall()


def board_of(fake, bot, game_id: int):
    """The game's newest public board (an image and a Follow button)."""
    return [m for m in fake.messages(home(bot, fake, game_id), include_ephemeral=False)
            if m.attachments and follow_id(m, game_id)][-1]


def follow_id(message, game_id: int, op: str = "on") -> str | None:
    return next((c for c in message.custom_ids() if decode(c) and decode(c).kind == "f"
                 and decode(c).game_id == game_id and decode(c).arg == op), None)


def acting(fake, bot, game_id: int) -> str:
    row = game_row(bot.db_path, game_id)
    seat = min(get_game("squares").to_act(json.loads(row["state"])))
    with sqlite3.connect(bot.db_path) as db:
        user_id = db.execute("SELECT user_id FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat)).fetchone()[0]
    return next(n for n in PEOPLE if uid(fake, n) == user_id)


async def play_one(fake, bot, game_id: int) -> None:
    user = acting(fake, bot, game_id)
    choices = await (await fake.autocomplete(fake.guild_id, fake.channel_id, user, "play",
                                             {"game_id": game_id, "action": ""}, "action")).choices()
    answer = await typed(fake, user, "play", {"game_id": game_id, "action": choices[0]["value"]})
    assert "✅" in answer, answer
    await board_shown(fake, bot, game_id)


def notices(fake, user: str) -> list:
    return [m for m in fake.dms(user) if "👁️" in m.content]


def mentions_in_channel(fake, user: str) -> list:
    return [m for m in fake.messages(fake.channel_id, include_ephemeral=False)
            if "👁️" in m.content and f"<@{uid(fake, user)}>" in m.content and not m.attachments]


async def test_followers_get_one_combined_notice_per_turn_then_unfollow(world):
    fake, bot = world
    first, second = await new_game(fake, bot), await new_game(fake, bot)
    # Dave chose DMs; Bob did not (and his DMs are closed): he is told in the channel.
    assert "DM" in await typed(fake, "dave", "game settings", {"dm_reminders": True})
    clicked = await reply_text(await fake.click_button(board_of(fake, bot, first), follow_id(board_of(fake, bot, first), first), "dave"))
    assert f"#{first}" in clicked and "follow" in clicked.lower()
    assert f"#{second}" in await typed(fake, "dave", "game follow", {"game_id": second})
    assert f"#{first}" in await typed(fake, "bob", "game follow", {"game_id": first})
    assert [u for u, _ in followers(bot, first)] == sorted([uid(fake, "dave"), uid(fake, "bob")])
    # The turn under way when they followed is not announced.
    bot.clock.advance(seconds=GATHER + 1)
    await asyncio.sleep(TICKS)
    assert notices(fake, "dave") == [] and mentions_in_channel(fake, "bob") == []
    # A move in each game: one DM to Dave naming both, one channel mention for Bob naming the first.
    await play_one(fake, bot, first)
    await play_one(fake, bot, second)
    bot.clock.advance(seconds=GATHER + 1)
    dm = await fake.wait_for_dm("dave", lambda m: "👁️" in m.content, timeout=GATHER + 10)
    assert f"#{first}" in dm.content and f"#{second}" in dm.content and "2" in dm.content
    mention = await fake.wait_until(lambda: mentions_in_channel(fake, "bob"), GATHER + 10, "Bob's notice")
    assert f"#{first}" in mention[0].content and f"#{second}" not in mention[0].content
    # Nothing secret and no second notice for the same turns.
    bot.clock.advance(seconds=GATHER + 1)
    await asyncio.sleep(TICKS)
    assert len(notices(fake, "dave")) == 1 and len(mentions_in_channel(fake, "bob")) == 1
    turn = json.loads(game_row(bot.db_path, first)["settings"])["turn_from"]
    assert (uid(fake, "dave"), turn) in followers(bot, first)
    # /game status lists the followers.
    status = await typed(fake, "carol", "game status", {"game_id": first})
    assert str(uid(fake, "dave")) in status and str(uid(fake, "bob")) in status
    # Dave stops following the first game with the reply's Unfollow button, the second by command.
    follow_reply = await (await fake.send_slash(fake.guild_id, fake.channel_id, "erin", "game follow",
                                                {"game_id": first})).answer(timeout=10)
    stop = await reply_text(await fake.click_button(follow_reply, follow_id(follow_reply, first, "off"), "erin"))
    assert f"#{first}" in stop and uid(fake, "erin") not in [u for u, _ in followers(bot, first)]
    assert f"#{second}" in await typed(fake, "dave", "game unfollow", {"game_id": second})
    assert "do not follow" in await typed(fake, "dave", "game unfollow", {"game_id": second})
    # The next turn of the second game reaches nobody; the first game's still reaches Dave, alone.
    await play_one(fake, bot, second)
    await play_one(fake, bot, first)
    bot.clock.advance(seconds=GATHER + 1)
    dm = await fake.wait_for_dm("dave", lambda m: "👁️" in m.content, timeout=GATHER + 10, since=dm.id)
    assert f"#{first}" in dm.content and f"#{second}" not in dm.content
    assert notices(fake, "erin") == []


async def test_players_double_clicks_japanese_and_a_restart(world):
    fake, bot = world
    game_id = await new_game(fake, bot)
    board = board_of(fake, bot, game_id)
    button = follow_id(board, game_id)
    # A player is refused politely, in both languages, and nothing is stored.
    refusal = await reply_text(await fake.click_button(board, button, "alice"))
    assert refusal.startswith("⚠️") and "playing" in refusal
    refusal = await reply_text(await fake.click_button(board, button, "carol", locale="ja"))
    assert "プレイヤー" in refusal
    assert followers(bot, game_id) == []
    # A double click: the first follows, the second says so and changes nothing.
    answers = await asyncio.gather(*[reply_text(await fake.click_button(board, button, "dave")) for _ in range(2)])
    assert sum("already" in a for a in answers) == 1
    assert [u for u, _ in followers(bot, game_id)] == [uid(fake, "dave")]
    # Japanese replies for following and stopping.
    assert "フォロー" in await typed(fake, "erin", "game follow", {"game_id": game_id}, locale="ja")
    assert "フォロー" in await typed(fake, "erin", "game unfollow", {"game_id": game_id}, locale="ja")
    # After a restart, the Follow button drawn by the old process still works.
    await bot.stop()
    await bot.start()
    answer = await reply_text(await fake.click_button(board, button, "erin"))
    assert f"#{game_id}" in answer and not answer.startswith("⚠️")
    assert uid(fake, "erin") in [u for u, _ in followers(bot, game_id)]
    # A finished game can no longer be followed (its boards lost their buttons; the command refuses).
    await typed(fake, "carol", "game resign", {"game_id": game_id})
    await board_shown(fake, bot, game_id)
    # the old board is retired after the new one is noted as shown: wait for that edit (a busy
    # machine once ran the assertion between the two)
    await fake.wait_until(lambda: not follow_id(fake.message(board.id), game_id),
                          what="the finished game's old board to lose its Follow button")
    answer = await typed(fake, "bob", "game follow", {"game_id": game_id})
    assert answer.startswith("⚠️")
    assert uid(fake, "bob") not in [u for u, _ in followers(bot, game_id)]


def png_size(message) -> tuple[int, int]:
    return Image.open(io.BytesIO(message.attachments[0].data)).size


def pixels(message) -> bytes:
    return Image.open(io.BytesIO(message.attachments[0].data)).convert("RGB").tobytes()


async def test_view_choices_change_private_images_only(world):
    fake, bot = world
    game_id = await new_game(fake, bot)
    public = png_size(board_of(fake, bot, game_id))
    before = await typed_message(fake, "alice", "game status", {"game_id": game_id})
    assert png_size(before) == public
    answer = await typed(fake, "alice", "game settings", {"view_large": True})
    assert "1.5" in answer
    assert "1.5" in await typed(fake, "carol", "game settings", {"view_large": True}, locale="ja")
    large = await typed_message(fake, "alice", "game status", {"game_id": game_id})
    assert png_size(large) == (round(public[0] * 1.5), round(public[1] * 1.5))
    # Carol, who chose nothing else, sees the normal size; the next public board too.
    await typed(fake, "carol", "game settings", {"view_large": False})
    assert png_size(await typed_message(fake, "carol", "game status", {"game_id": game_id})) == public
    await play_one(fake, bot, game_id)
    assert png_size(board_of(fake, bot, game_id)) == public
    # The board from my side: the same size, other pixels, for the player sitting second only.
    await typed(fake, "alice", "game settings", {"view_large": False})
    plain = {n: await typed_message(fake, n, "game status", {"game_id": game_id}) for n in ("alice", "carol")}
    for name in ("alice", "carol"):
        assert "🔄" in await typed(fake, name, "game settings", {"view_side": True})
    turned = {n: await typed_message(fake, n, "game status", {"game_id": game_id}) for n in ("alice", "carol")}
    second = next(n for n in ("alice", "carol") if game_row(bot.db_path, game_id) and
                  sqlite3.connect(bot.db_path).execute("SELECT seat FROM seats WHERE game_id = ? AND user_id = ?",
                                                       (game_id, uid(fake, n))).fetchone()[0] == 1)
    first = "carol" if second == "alice" else "alice"
    assert png_size(turned[second]) == public and pixels(turned[second]) != pixels(plain[second])
    assert pixels(turned[first]) == pixels(plain[first])  # the first seat already sits at the bottom
    assert png_size(board_of(fake, bot, game_id)) == public


async def test_view_large_reaches_secret_panels_by_dm_and_my_panel(world):
    fake, bot = world
    for name in ("dave", "bob"):
        assert "1.5" in await typed(fake, name, "game settings", {"view_large": True})
    game_id, lobby = await open_lobby(fake, creator="dave", game="secretpick")
    join = next(c for c in fake.message(lobby.id).custom_ids() if c.endswith(":join"))
    await reply_text(await fake.click_button(fake.message(lobby.id), join, "bob"))
    mark = fake.mark()
    start = next(c for c in fake.message(lobby.id).custom_ids() if c.endswith(":start"))
    await reply_text(await fake.click_button(fake.message(lobby.id), start, "dave"))
    large = await fake.wait_for_dm("dave", lambda m: m.attachments, since=mark)
    board = await fake.wait_for_message(home(bot, fake, game_id), lambda m: m.attachments and not m.ephemeral,
                                        since=mark)
    plain = png_size(board)  # the public board: one image for everyone, at the usual size
    assert png_size(large) == (round(plain[0] * 1.5), round(plain[1] * 1.5))
    # Bob's DMs are closed: his "My panel" answer is drawn larger too.
    notice = await fake.wait_for_message(
        home(bot, fake, game_id), lambda m: str(uid(fake, "bob")) in m.text() and any(
            decode(c) and decode(c).kind == "p" for c in m.custom_ids()), since=mark)
    handle = await fake.click_button(notice, next(c for c in notice.custom_ids() if decode(c).kind == "p"), "bob")
    await handle.response()
    panel = await handle.answer(timeout=10)
    assert png_size(panel) == png_size(large)
