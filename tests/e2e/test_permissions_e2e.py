"""The real bot where Discord refuses it something (issue #30, parts 3 to 6): each permission it
may lack, and Discord's signed, changing CDN URLs. The stand-in refuses what Discord would refuse
(403 50013 / 50001) and records it in ``permission_refusals``; ``running_bot`` fails a test on any
violation, so each scenario also shows the bot never did what Discord would have punished."""

from __future__ import annotations

import re

from bot.custom_ids import decode
from bot.permissions import INVITE_PERMISSIONS, PIN_MESSAGES
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
    panel = await picker.original(lambda m: not m.loading and m.custom_ids(), timeout=10)
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
