"""One message per board (issue #18): every game board is ONE Components V2 message, and the
previous board keeps its image and text but loses its controls, even across a restart."""

from __future__ import annotations

import re

import pytest

from bot.service.present import seat_colour
from tests.e2e.test_bot_e2e import (latest_board, play_by_button, play_by_command, running_bot, start_two_player,
                                    uid)

V2 = 1 << 15


@pytest.fixture
async def world(tmp_path):
    async with running_bot(tmp_path, users=("alice", "bob", "carol"), dm_closed=("bob",), guild_locale="ja") as w:
        yield w


def shape(message) -> dict:
    """What a one-message board is made of: its container, text, alt text and action rows."""
    assert message.flags & V2 and not message.content and not message.embeds, message
    (container,) = message.components
    assert container["type"] == 17
    inside = container["components"]
    texts = [c["content"] for c in inside if c["type"] == 10]
    galleries = [c for c in inside if c["type"] == 12]
    return {"accent": container.get("accent_color"), "text": "\n".join(texts),
            "alt": [item.get("description") for g in galleries for item in g["items"]],
            "media": [item["media"]["url"] for g in galleries for item in g["items"]],
            "rows": [c for c in inside if c["type"] == 1]}


def acting_seat(text: str) -> int:
    """The seat letter on the "your turn" line (A = seat 0, B = seat 1, ...)."""
    return ord(re.search(r"👉 \*\*([A-H])\*\*", text)[1]) - ord("A")


async def retired(fake, message_id: int) -> dict:
    await fake.wait_until(lambda: not fake.message(message_id).custom_ids(), timeout=15, what="the old board retired")
    return shape(fake.message(message_id))


async def test_a_board_is_one_components_v2_message_and_a_move_retires_only_its_controls(world):
    fake, bot = world
    game_id, seats = await start_two_player(fake, bot)
    board = await latest_board(fake, bot, game_id)
    first = shape(board)
    seat = acting_seat(first["text"])
    assert first["accent"] == seat_colour(seat)  # framed in the colour of the seat to act
    assert first["alt"] and all(first["alt"]) and len(first["alt"][0]) <= 1024
    assert first["media"] == [board.attachment("board.png").url] and first["rows"]
    assert sum(1 for _ in board.all_components()) <= 40
    assert board.mention_ids() == [uid(fake, seats[0])]  # the ping, from the text display, for the player to act only
    mark = fake.mark()
    await play_by_button(fake, board, seats[0], "N1@a2")
    new = shape(await latest_board(fake, bot, game_id, since=mark))
    assert new["accent"] == seat_colour(acting_seat(new["text"])) != first["accent"]
    old = await retired(fake, board.id)
    # the old board keeps its text and image (same attachment), only its action rows are gone
    assert old["text"] == first["text"] and old["alt"] == first["alt"] and not old["rows"]
    assert old["media"] == [fake.message(board.id).attachment("board.png").url] == first["media"]
    assert fake.message(board.id).flags & V2
    fake.assert_clean()


async def test_a_components_v2_board_retired_after_a_restart(world):
    fake, bot = world
    game_id, seats = await start_two_player(fake, bot)
    board = await latest_board(fake, bot, game_id)
    before = shape(board)
    await bot.kill()  # the process that posted the board is gone: nothing of it survives in memory
    await bot.start()
    await play_by_command(fake, seats[0], "N1@a2")
    old = await retired(fake, board.id)
    assert old["text"] == before["text"] and old["alt"] == before["alt"] and old["media"] == before["media"]
    assert not old["rows"] and fake.message(board.id).attachments
    new = await latest_board(fake, bot, game_id, since=board.id)
    assert shape(new)["rows"] and new.id != board.id
    fake.assert_clean()
