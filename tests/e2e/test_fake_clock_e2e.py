"""The fake clock (tests/fake_clock.py) moves the real bot process's time: a day passes in a second."""

from __future__ import annotations

import re

from tests.e2e.test_bot_e2e import game_row, home, reply_text, running_bot
from tests.fake_clock import FakeClock


async def test_a_deadline_passes_when_the_test_moves_the_clock(tmp_path):
    clock = FakeClock(tmp_path / "now", start="2026-12-01T09:00:00+00:00")
    async with running_bot(tmp_path, clock=clock, users=("alice", "bob")) as (fake, bot):
        text = await reply_text(await fake.send_slash(fake.guild_id, fake.channel_id, "alice", "game new",
                                                      {"game": "squares", "deadline": "24h"}))
        gid = int(re.search(r"#(\d+)", text)[1])
        await reply_text(await fake.send_slash(fake.guild_id, fake.channel_id, "bob", "game join", {"game_id": gid}))
        await reply_text(await fake.send_slash(fake.guild_id, fake.channel_id, "alice", "game start", {"game_id": gid}))
        assert game_row(bot.db_path, gid)["deadline_at"] == "2026-12-02T09:00:00+00:00"  # the fake "now" + 24 h
        mark = fake.mark()
        clock.advance(hours=13)  # past half the deadline: one reminder
        await fake.wait_for_message(home(bot, fake, gid), lambda m: "⏰" in m.text(), since=mark, timeout=10)
        clock.advance(hours=12)  # past the deadline: the timeout policy plays
        await fake.wait_until(lambda: game_row(bot.db_path, gid)["deadline_at"] != "2026-12-02T09:00:00+00:00",
                              timeout=10, what="the deadline to be handled")
        assert game_row(bot.db_path, gid)["deadline_at"] > "2026-12-02T10:00:00+00:00"
