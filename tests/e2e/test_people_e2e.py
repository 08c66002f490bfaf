"""The people around the board (issue 34) through the real bot, on a fake clock: quiet hours across
the date line, ping choices, draw offers, deadline votes, turn-time statistics and a substitute."""

from __future__ import annotations

import asyncio
import json
import re

from tests.e2e.test_bot_e2e import board_shown, is_board, game_row, home, log_rows, reply_text, running_bot, uid
from tests.fake_clock import FakeClock


def pinged(message) -> set[int]:
    """Whom a message really pinged (its mentions as Discord parsed them under allowed_mentions)."""
    return {int(u["id"]) for u in message.data.get("mentions") or []}


async def slash(fake, user, command, options=None, locale="en-US", channel=None) -> str:
    return await reply_text(await fake.send_slash(fake.guild_id, channel or fake.channel_id, user, command,
                                                  options or {}, locale=locale))


async def new_game(fake, bot, creator, others, game="squares", **options) -> int:
    text = await slash(fake, creator, "game new", {"game": game, **options})
    gid = int(re.search(r"#(\d+)", text)[1])
    for user in others:
        await slash(fake, user, "game join", {"game_id": gid})
    await slash(fake, creator, "game start", {"game_id": gid})
    await board_shown(fake, bot, gid)
    return gid


def to_act(fake, bot, gid, names) -> str:
    """Who the latest board asks to play (by the 👉 line's mention)."""
    boards = [m for m in fake.messages(home(bot, fake, gid), include_ephemeral=False) if m.attachments]
    waiting = int(re.findall(r"<@(\d+)>", boards[-1].text().split("👉")[-1])[0])
    return next(n for n in names if uid(fake, n) == waiting)


async def play_any(fake, bot, gid, user) -> str:
    choices = await (await fake.autocomplete(fake.guild_id, home(bot, fake, gid), user, "play",
                                             {"action": "", "game_id": gid}, "action")).choices()
    answer = await slash(fake, user, "play", {"action": choices[0]["value"], "game_id": gid},
                         channel=home(bot, fake, gid))
    assert "✅" in answer, answer
    await board_shown(fake, bot, gid)
    return choices[0]["value"]


async def test_a_ping_is_held_through_quiet_hours_across_the_date_line_and_delivered_once(tmp_path):
    """Bob sleeps in Kiritimati (UTC+14), Alice plays from Honolulu (UTC-10): the same wall clock,
    a calendar day apart. Bob's turn comes at 23:00 his time: the board names him without a ping,
    says until when he is quiet, and at 07:00 his time one message reaches him, once."""
    clock = FakeClock(tmp_path / "now", start="2026-12-01T06:00:00+00:00")  # 20:00 in Kiritimati
    async with running_bot(tmp_path, clock=clock, users=("alice", "bob")) as (fake, bot):
        zones = await (await fake.autocomplete(fake.guild_id, fake.channel_id, "alice", "game settings",
                                               {"tz": "pacific/hono"}, "tz")).choices()
        assert [c["value"] for c in zones] == ["Pacific/Honolulu"]
        answer = await slash(fake, "alice", "game settings", {"tz": zones[0]["value"]}, locale="ja")
        assert "Pacific/Honolulu" in answer and "タイムゾーン" in answer  # she reads Japanese
        answer = await slash(fake, "bob", "game settings", {"quiet": "22:00-07:00", "tz": "Pacific/Kiritimati"})
        assert "22:00-07:00" in answer and "Pacific/Kiritimati" in answer
        refused = await slash(fake, "bob", "game settings", {"quiet": "22:00", "tz": "Atlantis/Capital"})
        assert refused.startswith("⚠️") and "Nothing was changed" in refused
        assert "22:00-07:00" in await slash(fake, "bob", "game settings")

        gid = await new_game(fake, bot, "alice", ["bob"], deadline="3d", quiet_deadlines=True)
        where = home(bot, fake, gid)
        if to_act(fake, bot, gid, ("alice", "bob")) == "bob":
            await play_any(fake, bot, gid, "bob")  # awake: 20:00 his time
        clock.set("2026-12-01T09:00:00+00:00")  # 23:00 on 1 Dec in Kiritimati, 23:00 on 30 Nov in Honolulu
        mark = fake.mark()
        await play_any(fake, bot, gid, "alice")
        board = [m for m in fake.messages(where, include_ephemeral=False) if m.attachments and m.id > mark][-1]
        assert uid(fake, "bob") not in pinged(board)  # named, not pinged
        assert f"<@{uid(fake, 'bob')}>" in board.text() and "quiet until 07:00 their time" in board.text()
        status = await slash(fake, "alice", "game status", {"game_id": gid}, channel=where)
        assert "Pacific/Kiritimati" in status

        for hours in (3, 3):  # the night goes by: nothing pings him, nothing is DMed
            clock.advance(hours=hours)
            await asyncio.sleep(1.0)
        assert not [m for m in fake.messages(where, include_ephemeral=False)
                    if m.id > mark and uid(fake, "bob") in pinged(m)]
        assert not fake.dms("bob")
        clock.set("2026-12-01T17:00:00+00:00")  # 07:00 on 2 Dec in Kiritimati
        woke = await fake.wait_for_message(where, lambda m: uid(fake, "bob") in pinged(m) and "🌅" in m.text(),
                                           since=mark, timeout=10)
        assert f"#{gid}" in woke.text() and "your turn" in woke.text()
        await asyncio.sleep(1.5)  # several scheduler ticks later
        clock.advance(minutes=30)
        await asyncio.sleep(1.0)
        wakes = [m for m in fake.messages(where, include_ephemeral=False) if m.id > mark and "🌅" in m.text()]
        assert len(wakes) == 1
        assert game_row(bot.db_path, gid)["status"] == "active"


async def test_ping_choices_the_last_one_we_wait_for_and_old_notices_cleaned_up(tmp_path):
    clock = FakeClock(tmp_path / "now", start="2026-12-01T09:00:00+00:00")
    async with running_bot(tmp_path, clock=clock, users=("alice", "bob")) as (fake, bot):
        answer = await slash(fake, "alice", "game settings", {"pings": "every", "via": "channel"})
        assert "every turn" in answer
        gid = await new_game(fake, bot, "alice", ["bob"], game="secretpick", deadline="24h")
        where = home(bot, fake, gid)
        answer = await slash(fake, "bob", "game settings", {"pings": "mine", "last_wait": True, "game_id": gid},
                             locale="ja", channel=where)
        assert f"#{gid}" in answer and "自分の番のときだけ" in answer
        refused = await slash(fake, "alice", "game settings", {"pings": "none", "game_id": gid + 100})
        assert refused.startswith("⚠️")
        mark = fake.mark()
        assert "✅" in await slash(fake, "alice", "play", {"action": "pick2", "game_id": gid}, channel=where)
        last = await fake.wait_for_message(where, lambda m: "the last one" in m.text(), since=mark, timeout=10)
        assert uid(fake, "bob") in pinged(last)
        boards = [m for m in fake.messages(where, include_ephemeral=False) if m.attachments and m.id > mark]
        assert boards and not pinged(boards[-1])  # the notice is his one ping for it
        clock.advance(hours=13)  # past half the deadline: Bob is reminded
        reminder = await fake.wait_for_message(where, lambda m: "⏰" in m.text() and uid(fake, "bob") in pinged(m),
                                               since=mark, timeout=10)
        assert "✅" in await slash(fake, "bob", "play", {"action": "pick1", "game_id": gid}, channel=where)
        await fake.wait_until(lambda: fake.message(reminder.id).deleted and fake.message(last.id).deleted,
                              timeout=10, what="the old reminder and notice to be deleted")
        # The next step begins: Alice takes every turn, Bob (only his own) is pinged as one to play.
        board = [m for m in fake.messages(where, include_ephemeral=False) if is_board(m)][-1]
        assert {uid(fake, "alice"), uid(fake, "bob")} <= pinged(board)
        # Bob took 13 hours to answer Alice's pick: the statistics read it off the log.
        stats = await slash(fake, "alice", "game stats")
        assert f"<@{uid(fake, 'bob')}>: 13 h 0 min / 13 h 0 min over 1 turn" in stats, stats
        assert "平均13時間0分" in await slash(fake, "bob", "game mine", locale="ja")


async def test_a_draw_offer_declined_then_accepted(tmp_path):
    async with running_bot(tmp_path, users=("alice", "bob")) as (fake, bot):
        gid = await new_game(fake, bot, "alice", ["bob"])
        where = home(bot, fake, gid)
        mark = fake.mark()
        answer = await slash(fake, "alice", "table draw", {"game_id": gid}, channel=where)
        assert f"#{gid}" in answer
        offer = await fake.wait_for_message(where, lambda m: "offers a draw" in m.text() and m.custom_ids(),
                                            since=mark, timeout=10)
        assert uid(fake, "bob") in pinged(offer)
        no = next(c for c in offer.custom_ids() if c.endswith(":no"))
        refused = await reply_text(await fake.click_button(offer, no, "alice"))  # her own offer
        assert refused.startswith("⚠️")
        assert "declined" in (await reply_text(await fake.click_button(offer, no, "bob"))).lower()
        await fake.wait_until(lambda: not fake.message(offer.id).custom_ids(), timeout=10,
                              what="the declined offer to lose its buttons")
        assert game_row(bot.db_path, gid)["status"] == "active"
        # Offered again, in Japanese this time, and accepted.
        mark = fake.mark()
        answer = await slash(fake, "bob", "table draw", {"game_id": gid}, locale="ja", channel=where)
        assert "提案しました" in answer
        offer = await fake.wait_for_message(where, lambda m: "offers a draw" in m.text() and m.custom_ids(),
                                            since=mark, timeout=10)
        yes = next(c for c in offer.custom_ids() if c.endswith(":yes"))
        await reply_text(await fake.click_button(offer, yes, "alice"))
        final = await fake.wait_for_message(where, lambda m: m.attachments and "🤝" in m.text(), since=mark,
                                            timeout=10)
        assert "Draw (by agreement)" in final.text()
        assert game_row(bot.db_path, gid)["status"] == "finished"
        stats = await slash(fake, "alice", "game stats")
        assert "0 won / 1 played (1 drawn)" in stats, stats


async def test_deadline_votes_pause_resume_and_one_that_times_out(tmp_path):
    clock = FakeClock(tmp_path / "now", start="2026-12-01T09:00:00+00:00")
    async with running_bot(tmp_path, clock=clock, users=("alice", "bob")) as (fake, bot):
        gid = await new_game(fake, bot, "alice", ["bob"], deadline="3d", grace="2h")
        where = home(bot, fake, gid)
        deadline = game_row(bot.db_path, gid)["deadline_at"]
        assert json.loads(game_row(bot.db_path, gid)["settings"])["grace_hours"] == 2
        mark = fake.mark()
        await slash(fake, "alice", "table deadline", {"action": "pause", "game_id": gid}, channel=where)
        vote = await fake.wait_for_message(where, lambda m: "pause the deadline" in m.text() and m.custom_ids(),
                                           since=mark, timeout=10)
        yes = next(c for c in vote.custom_ids() if c.endswith(":yes"))
        await reply_text(await fake.click_button(vote, yes, "bob"))
        await fake.wait_until(lambda: game_row(bot.db_path, gid)["deadline_at"] is None, timeout=10,
                              what="the deadline to pause")
        clock.advance(days=5)  # paused: nothing runs out
        await asyncio.sleep(1.0)
        assert game_row(bot.db_path, gid)["version"] == game_row(bot.db_path, gid)["posted_version"]
        answer = await slash(fake, "bob", "table deadline", {"action": "resume", "game_id": gid}, locale="ja",
                             channel=where)
        assert "再開" in answer
        assert game_row(bot.db_path, gid)["deadline_at"] > deadline  # the time left, from now
        # A vote nobody answers: after a day it ends, saying nothing changes, and loses its buttons.
        mark = fake.mark()
        await slash(fake, "bob", "table deadline", {"action": "extend", "by": "12h", "game_id": gid}, channel=where)
        vote = await fake.wait_for_message(where, lambda m: "extend the deadline" in m.text() and m.custom_ids(),
                                           since=mark, timeout=10)
        before = game_row(bot.db_path, gid)["deadline_at"]
        clock.advance(hours=25)
        expired = await fake.wait_for_message(where, lambda m: "⌛" in m.text(), since=mark, timeout=10)
        assert "nothing changes" in expired.text()
        await fake.wait_until(lambda: not fake.message(vote.id).custom_ids(), timeout=10,
                              what="the expired vote to lose its buttons")
        assert game_row(bot.db_path, gid)["deadline_at"] == before


async def test_a_substitute_takes_a_monster_hunter_seat_mid_hunt_with_its_private_panel(tmp_path):
    from bot.discord_app.custom_ids import decode
    from tests.e2e.test_mh_e2e import panel_of, play_by_panels, seat_users, state_of

    async with running_bot(tmp_path, users=("alice", "bob", "carol", "dave"), guild_locale="en-US") as (fake, bot):
        gid = await new_game(fake, bot, "alice", ["bob"], game="monsterhunter")
        where = home(bot, fake, gid)
        for _ in range(80):  # to the hunt, by panels
            if state_of(bot, gid)["phase"] == "hunt" or game_row(bot.db_path, gid)["status"] != "active":
                break
            await play_by_panels(fake, bot, gid, ["alice", "bob"], 1)
        assert state_of(bot, gid)["phase"] == "hunt"
        alice_seat = next(s for s, u in seat_users(bot, gid).items() if u == uid(fake, "alice"))
        old_panel = [m for m in fake.dms("alice") if m.custom_ids()][-1]  # her DM panel, drawn before
        # Dave is offered the seat and declines; then Carol takes it.
        mark = fake.mark()
        refused = await slash(fake, "bob", "table substitute", {"member": "carol", "player": "alice", "game_id": gid},
                              channel=where)
        assert refused.startswith("⚠️")  # not Bob's seat, and Alice missed no deadline
        answer = await slash(fake, "alice", "table substitute", {"member": "dave", "game_id": gid}, channel=where)
        assert f"#{gid}" in answer
        offer = await fake.wait_for_message(where, lambda m: "offers" in m.text() and m.custom_ids(), since=mark,
                                            timeout=10)
        assert uid(fake, "dave") in pinged(offer)
        no = next(c for c in offer.custom_ids() if decode(c).kind == "s" and c.endswith(":no"))
        assert "declined" in (await reply_text(await fake.click_button(offer, no, "dave"))).lower()
        mark = fake.mark()
        answer = await slash(fake, "alice", "table substitute", {"member": "carol", "game_id": gid}, locale="ja",
                             channel=where)
        assert "申し出" in answer
        offer = await fake.wait_for_message(where, lambda m: "offers" in m.text() and m.custom_ids(), since=mark,
                                            timeout=10)
        yes = next(c for c in offer.custom_ids() if decode(c).kind == "s" and c.endswith(":yes"))
        assert (await reply_text(await fake.click_button(offer, yes, "bob"))).startswith("⚠️")  # not offered to Bob
        taken = await reply_text(await fake.click_button(offer, yes, "carol"))
        assert f"#{gid}" in taken
        panel = await fake.wait_for_dm("carol", lambda m: m.attachments and f"#{gid}" in m.content, timeout=10)
        assert "private panel" in panel.content
        assert seat_users(bot, gid)[alice_seat] == uid(fake, "carol")
        # Alice's old panel and the My panel button answer her no more; Carol plays the seat on.
        go = next(c for c in old_panel.custom_ids() if decode(c) and decode(c).kind == "a")
        assert (await reply_text(await fake.click_button(old_panel, go, "alice"))).startswith("⚠️")
        mine = await panel_of(fake, bot, gid, "alice")
        assert mine.content.startswith("⚠️")
        assert await play_by_panels(fake, bot, gid, ["carol", "bob"], 8) > 0
        history = await slash(fake, "bob", "game history", {"game_id": gid}, channel=where)
        assert f"<@{uid(fake, 'carol')}> takes over from <@{uid(fake, 'alice')}>" in history
        assert uid(fake, "carol") in {user for seat, user, _ in log_rows(bot.db_path, gid) if seat == alice_seat}
