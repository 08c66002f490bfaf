"""Replays through the real bot and the Discord stand-in: /game replay with every viewer control,
/game export played back by ``python -m bot.local --replay``, the animated recap posted once (also
across a restart), a non-player mid-game who sees nothing secret, a click by someone else, and
clicks on an old viewer after the bot restarted."""

from __future__ import annotations

import asyncio
import io
import json
import re
import sqlite3
import sys

import pytest
from PIL import Image

import renderers
from bot.discord_app.custom_ids import decode
from games import get_game
from tests.e2e.test_bot_e2e import (FIRST_SEAT, ROOT, SECOND_SEAT, board_shown, game_row, home, log_rows,
                                    play_by_command, play_suggested, running_bot, start_two_player)
from tests.e2e.database import stored_until
from tests.e2e.test_games_e2e import fill_and_start

MIB = 1024 * 1024


@pytest.fixture
async def world(tmp_path):
    async with running_bot(tmp_path, users=("alice", "bob", "carol"), guild_locale="ja") as w:
        yield w


def control(message, name: str) -> str:
    return next(c for c in message.custom_ids() if decode(c) and decode(c).kind == "v"
                and decode(c).arg.split(":")[0] == name)


def controls(message) -> set[str]:
    return {decode(c).arg.split(":")[0] for c in message.custom_ids() if decode(c) and decode(c).kind == "v"}


async def open_viewer(fake, user: str, channel_id: int, options: dict, locale: str = "en-US"):
    handle = await fake.send_slash(fake.guild_id, channel_id, user, "game replay", options, locale=locale)
    await handle.response()
    viewer = await handle.answer(timeout=20)
    assert viewer.ephemeral, viewer.content
    return viewer


async def use(fake, viewer, name: str, user: str, expect: str, values: list | None = None, locale="en-US"):
    """Press a viewer button (or choose in one of its menus) and wait for the viewer to show ``expect``."""
    message = fake.message(viewer.id)
    custom_id = control(message, name)
    if values is None:
        handle = await fake.click_button(message, custom_id, user, locale=locale)
    else:
        handle = await fake.select(message, custom_id, values, user, locale=locale)
    assert (await handle.response()).type == 6  # acknowledged as an update of the viewer itself
    await fake.wait_until(lambda: expect in fake.message(viewer.id).content, timeout=20,
                          what=f"the viewer to show {expect!r}")
    return fake.message(viewer.id)


async def test_a_finished_game_replayed_by_a_spectator_exported_and_recapped_once(world, tmp_path):
    fake, bot = world
    game_id, seats = await start_two_player(fake, bot)
    for turn in range(len(FIRST_SEAT) + len(SECOND_SEAT)):
        seat = turn % 2
        answer = await play_by_command(fake, seats[seat], (FIRST_SEAT if seat == 0 else SECOND_SEAT)[turn // 2])
        assert "✅" in answer, answer
        await board_shown(fake, bot, game_id)
    steps = len(log_rows(bot.db_path, game_id))
    assert game_row(bot.db_path, game_id)["status"] == "finished" and steps == 11

    # The recap: one animated WebP under 8 MiB in the game's thread, recorded once.
    where = home(bot, fake, game_id)
    def recaps():
        return [m for m in fake.messages(where, include_ephemeral=False)
                if m.attachments and m.attachments[0].filename.endswith(".webp")]
    await fake.wait_until(lambda: recaps(), timeout=60, what="the recap")
    recap = recaps()[0]
    animation = Image.open(io.BytesIO(recap.attachments[0].data))
    assert animation.format == "WEBP" and animation.n_frames > 5 and recap.attachments[0].size < 8 * MIB
    assert f"#{game_id}" in recap.content
    await stored_until(lambda: game_row(bot.db_path, game_id)["recap_message_id"] == recap.id, "the recap to be recorded")
    assert game_row(bot.db_path, game_id)["recap_message_id"] == recap.id
    await bot.stop()
    await bot.start()  # a restart finds it posted: no second recap
    await asyncio.sleep(1.5)
    assert len(recaps()) == 1
    # Discord accepted the recap, the process died before the database recorded it, the lease ran
    # out: the next process finds it in the thread (by its file name) and records it, posting nothing.
    await bot.kill()
    with sqlite3.connect(bot.db_path) as db:
        db.execute("UPDATE games SET recap_message_id = NULL, recap_claimed_until = '2000-01-01T00:00:00+00:00' "
                   "WHERE id = ?", (game_id,))
    await bot.start()
    await stored_until(lambda: game_row(bot.db_path, game_id)["recap_message_id"] == recap.id, "the recap to be recorded")
    assert game_row(bot.db_path, game_id)["recap_message_id"] == recap.id
    assert len(recaps()) == 1
    # A process that took the lease and died before posting: after the lease, the scheduler posts it.
    await bot.kill()
    fake._delete_message(recap)
    with sqlite3.connect(bot.db_path) as db:
        db.execute("UPDATE games SET recap_message_id = NULL, recap_claimed_until = '2000-01-01T00:00:00+00:00' "
                   "WHERE id = ?", (game_id,))
    await bot.start()
    await fake.wait_until(lambda: recaps(), timeout=60, what="the recap a crash interrupted")
    await asyncio.sleep(1.5)
    assert len(recaps()) == 1 and recaps()[0].id != recap.id

    # A spectator's viewer, in English, in the game's thread: every control, every point of view.
    viewer = await open_viewer(fake, "bob", where, {})
    assert f"**{steps}/{steps}**" in viewer.content and viewer.attachments
    assert controls(viewer) == {"first", "prev", "next", "last", "j0", "s"}
    viewer = await use(fake, viewer, "first", "bob", f"**0/{steps}**")
    viewer = await use(fake, viewer, "next", "bob", f"**1/{steps}**")
    assert FIRST_SEAT[0] in viewer.content or SECOND_SEAT[0] in viewer.content
    viewer = await use(fake, viewer, "last", "bob", f"**{steps}/{steps}**")
    assert "🏆" in viewer.content
    viewer = await use(fake, viewer, "prev", "bob", f"**{steps - 1}/{steps}**")
    viewer = await use(fake, viewer, "j0", "bob", f"**5/{steps}**", values=["5"])
    viewer = await use(fake, viewer, "s", "bob", "'s view", values=["1"])
    assert f"**5/{steps}**" in viewer.content
    # Someone else's click on Bob's viewer (a copied custom id): refused, the viewer unchanged.
    before = viewer.content
    handle = await fake.forge_click(viewer, control(viewer, "next"), "alice")
    refusal = await handle.followup(timeout=10)
    assert refusal.ephemeral and "someone else" in refusal.content
    assert fake.message(viewer.id).content == before

    # The autocomplete offers the game; the export plays back in a terminal and checks itself.
    choices = await (await fake.autocomplete(fake.guild_id, where, "bob", "game replay", {"game_id": ""},
                                             "game_id")).choices()
    assert game_id in [c["value"] for c in choices]
    handle = await fake.send_slash(fake.guild_id, where, "bob", "game export", {"game_id": game_id})
    exported = await handle.message(lambda m: m.attachments, timeout=20)
    data = json.loads(exported.attachments[0].data)
    assert data["seed"] == game_row(bot.db_path, game_id)["seed"] and len(data["actions"]) == steps
    path = tmp_path / exported.attachments[0].filename
    path.write_bytes(exported.attachments[0].data)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.local", "--replay", str(path), "--out", str(tmp_path / "boards"), cwd=str(ROOT),
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    output = (await proc.communicate())[0].decode()
    assert proc.returncode == 0, output
    assert "✅" in output and len(list((tmp_path / "boards").glob("*.png"))) == steps + 1


async def test_a_non_player_mid_game_sees_nothing_secret_and_old_viewers_work_after_a_restart(world):
    fake, bot = world
    game_id = await fill_and_start(fake, "arena", ["alice", "carol"])
    where = home(bot, fake, game_id)
    assert "✅" in await play_by_command(fake, "alice", "S/R")  # a secret order, its turn not resolved

    # Bob, who does not play, in Japanese: the public board only, the order hidden everywhere.
    viewer = await open_viewer(fake, "bob", where, {}, locale="ja")
    assert "ステップ**1/1**" in viewer.content and "🔒" in viewer.content
    assert controls(viewer) == {"first", "prev", "next", "last", "j0"}  # no other point of view
    shown = viewer.content + json.dumps(fake.message(viewer.id).data.get("components"))
    assert "S/R" not in shown
    row = game_row(bot.db_path, game_id)
    public = renderers.render("arena", get_game("arena").view(json.loads(row["state"]), None))
    assert viewer.attachments[0].data == public  # byte for byte what the channel may see
    viewer = await use(fake, viewer, "first", "bob", "**0/1**", locale="ja")
    assert "開始" in viewer.content
    # His export carries the commitment, never the seed, and not the order.
    handle = await fake.send_slash(fake.guild_id, where, "bob", "game export", {}, locale="ja")
    exported = await handle.message(lambda m: m.attachments, timeout=20)
    text = exported.attachments[0].data.decode()
    assert str(row["seed"]) not in text and row["salt"] not in text and "S/R" not in text
    assert json.loads(text)["commitment"]

    # Alice sees her own order in her own view, and may switch to the public one.
    mine = await open_viewer(fake, "alice", where, {"game_id": game_id})
    assert "S/R" in mine.content and "s" in controls(mine)
    mine = await use(fake, mine, "s", "alice", "public view", values=["-"])
    assert "🔒" in mine.content and "S/R" not in mine.content  # the public view: as the channel sees it

    # The bot restarts; Carol's order resolves the turn; Bob's old viewer still answers, and now
    # shows the order (its step resolved, as the channel saw).
    await bot.kill()
    await bot.start()
    assert "✅" in await play_by_command(fake, "carol", "F/0")
    await board_shown(fake, bot, game_id)
    viewer = await use(fake, viewer, "next", "bob", "/2**", locale="ja")
    assert "S/R" in viewer.content
    viewer = await use(fake, viewer, "last", "bob", "**2/2**", locale="ja")


async def test_a_long_game_offers_two_jump_menus(world):
    fake, bot = world
    game_id = await fill_and_start(fake, "osu", ["alice", "carol"])
    await play_suggested(fake, bot, game_id, ["alice", "carol"], turns=26)
    steps = len(log_rows(bot.db_path, game_id))
    if steps < 25:
        pytest.skip(f"the game ended after {steps} steps")
    viewer = await open_viewer(fake, "carol", home(bot, fake, game_id), {"game_id": game_id})
    assert {"j0", "j1", "s"} <= controls(viewer)
    options = next(c for row in fake.message(viewer.id).data["components"] for c in row["components"]
                   if c["custom_id"] == control(viewer, "j1"))["options"]
    target = options[0]["value"]
    viewer = await use(fake, viewer, "j1", "carol", f"**{target}/{steps}**", values=[target])
    viewer = await use(fake, viewer, "j0", "carol", f"**0/{steps}**", values=["0"])
    assert re.search(r"\*\*0/\d+\*\*", viewer.content)


async def test_a_recap_sent_by_a_process_that_died_before_recording_it_is_not_posted_again(world, monkeypatch):
    """The real crash window: the process kills itself the moment Discord accepted the recap
    (``delivery.recap.sent``); once its lease has run out, the next process finds the recap in the
    thread and records it: one recap in the thread, not two."""
    fake, bot = world
    game_id, seats = await start_two_player(fake, bot)
    moves = [(FIRST_SEAT if turn % 2 == 0 else SECOND_SEAT)[turn // 2] for turn in range(len(FIRST_SEAT) + len(SECOND_SEAT))]
    for turn, move in enumerate(moves[:-1]):
        assert "✅" in await play_by_command(fake, seats[turn % 2], move)
        await board_shown(fake, bot, game_id)
    await bot.stop()
    monkeypatch.setenv("TABLETOP_CRASH_AT", "delivery.recap.sent")
    await bot.start()
    where = home(bot, fake, game_id)

    def recaps():
        return [m for m in fake.messages(where, include_ephemeral=False)
                if m.attachments and m.attachments[0].filename == f"game{game_id}-recap.webp"]
    await play_by_command(fake, seats[(len(moves) - 1) % 2], moves[-1])
    await fake.wait_until(lambda: recaps(), timeout=60, what="the recap")
    await asyncio.wait_for(bot.proc.wait(), 20)  # it died right after Discord accepted the recap
    row = game_row(bot.db_path, game_id)
    assert row["status"] == "finished" and row["recap_message_id"] is None
    monkeypatch.delenv("TABLETOP_CRASH_AT")
    with sqlite3.connect(bot.db_path) as db:  # the lease runs out (ten minutes, as time would pass)
        db.execute("UPDATE games SET recap_claimed_until = '2000-01-01T00:00:00+00:00' WHERE id = ?", (game_id,))
    await bot.start()
    await stored_until(lambda: game_row(bot.db_path, game_id)["recap_message_id"] is not None, "the recap to be recorded")
    assert game_row(bot.db_path, game_id)["recap_message_id"] == recaps()[0].id
    await asyncio.sleep(1.5)
    assert len(recaps()) == 1
