"""The real bot within Discord's limits (issue #30): the stand-in refuses as Discord does, per-route
and global rate limits (429), edits of messages older than an hour (30046), follow-ups after the
interaction token's 15 minutes (50027) and first answers after 3 seconds (10062); the bot keeps
working under each, nothing it was asked to do lost or done twice.
"""

from __future__ import annotations

import asyncio
import random

from bot.discord_app.custom_ids import decode
from tests.e2e.test_bot_e2e import (FIRST_SEAT, SECOND_SEAT, game_row, home, latest_board, log_rows, open_lobby,
                                    play_by_command, reply_text, running_bot, start_two_player, uid)
from tests.e2e.test_load_e2e import LOAD_RESPONSE_DEADLINE, USERS, check_load, posted_twice, run_load
from tests.fakediscord.ratelimits import REALISTIC_RATE_LIMITS

# Every route the realistic set names, at 2 a second: small enough that every game meets them.
TIGHT = {route: (2, 1.0) for route in REALISTIC_RATE_LIMITS}


def bot_log_is_clean(bot) -> None:
    text = bot.log.read_text()
    assert "ERROR" not in text and "Traceback" not in text, text[-3000:]


async def test_under_tight_rate_limits_every_game_goes_on_and_nothing_lands_twice(tmp_path):
    """Two games of every kind at once, over three channels, with every route the bot uses limited
    to 2 requests a second per channel (or per interaction) and 15 a second in all: the bot waits
    when Discord's headers say a bucket is spent and retries each 429 after its ``retry_after``;
    every action a player was told counted is stored once, in order, and no message is doubled."""
    rng = random.Random(3046)
    async with running_bot(tmp_path, users=USERS, channels=("general", "games", "more"), rate_limits=TIGHT,
                           global_rate_limit=(15, 1.0), response_deadline=LOAD_RESPONSE_DEADLINE) as (fake, bot):
        places = [(fake.guild_id, c) for c in fake.guild["channel_ids"]]
        tables, settings = await run_load(fake, bot, rng, places=places, games_per_kind=2)
        await asyncio.sleep(1)  # the last boards' retirements
        log = bot.log.read_text()
    check_load(fake, bot.database, tables, settings, [log])
    assert not posted_twice(fake)
    # The limits were met, not merely configured: buckets ran empty (how many of those turned into
    # 429s depends on the machine's speed, so that is not what is asserted).
    assert sum(fake.buckets_emptied.values()) > 0, fake.buckets_emptied
    assert len(fake.requests_to("POST", r"^/channels/\d+/messages$")) > 50


async def age_all(fake, seconds: float = 2 * 3600) -> None:
    for channel in list(fake._channel_messages):
        for message in fake.messages(channel, include_ephemeral=False):
            fake.age_message(message, seconds)


async def test_old_boards_and_the_status_are_edited_later_when_discord_refuses_old_edits(tmp_path):
    """A game played while its messages are more than an hour old: each move strips the buttons off
    the previous board and updates the pinned status, two edits of old messages in the game's
    thread, more than Discord's 3 per 6 seconds. Refused with 30046, each is made once the window
    has passed: in the end every older board has lost its buttons and the status shows the result."""
    async with running_bot(tmp_path, users=("alice", "bob", "carol")) as (fake, bot):
        game_id, seats = await start_two_player(fake, bot)
        thread = home(bot, fake, game_id)
        assert thread != fake.channel_id
        for turn in range(len(FIRST_SEAT) + len(SECOND_SEAT)):
            await age_all(fake)  # the game waited: every message so far is hours old
            seat = turn % 2
            action = (FIRST_SEAT if seat == 0 else SECOND_SEAT)[turn // 2]
            mark = fake.mark()
            answer = await play_by_command(fake, seats[seat], action)
            assert action in answer, answer
            await fake.wait_for_message(thread, lambda m: m.attachments, since=mark)
        assert fake.old_edit_refusals  # Discord's limit was met
        status_id = game_row(bot.db_path, game_id)["status_message_id"]

        def settled():
            boards = [m for m in fake.messages(thread, include_ephemeral=False) if m.attachments]
            older_with_buttons = [m for m in boards[:-1] if any(decode(c) and decode(c).kind in ("a", "g")
                                                                for c in m.custom_ids())]
            return "🏆" in fake.message(status_id).content and not older_with_buttons

        await fake.wait_until(settled, timeout=60, what="the refused edits to be made once Discord takes them")
        assert [(s, a) for s, _, a in log_rows(bot.db_path, game_id)] == [
            (t % 2, (FIRST_SEAT if t % 2 == 0 else SECOND_SEAT)[t // 2]) for t in range(len(FIRST_SEAT) + len(SECOND_SEAT))]
    bot_log_is_clean(bot)


async def game_against_a_hard_ai(fake, bot, user: str = "alice") -> tuple[int, object]:
    """``user`` opens a SQUARESIV lobby and adds a hard AI seat; returns the game id and lobby."""
    game_id, lobby = await open_lobby(fake, creator=user)
    menu = next(c for c in lobby.custom_ids() if c.endswith(":ai"))
    await reply_text(await fake.select(lobby, menu, ["hard"], user))
    return game_id, fake.message(lobby.id)


async def the_ai_thinks_during(fake, bot, game_id: int, lobby, user: str):
    """Start the game; if the person moves first, they play one move. Returns the handle of the
    interaction whose answer waited for the AI's move, and when it was sent (the stand-in's clock)."""
    loop = asyncio.get_running_loop()
    start = next(c for c in lobby.custom_ids() if c.endswith(":start"))
    sent = loop.time()
    handle = await fake.click_button(lobby, start, user)
    await fake.wait_until(lambda: game_row(bot.db_path, game_id)["status"] == "active", timeout=30,
                          what="the game to start")
    if log_rows(bot.db_path, game_id):  # the AI moved first, inside the Start click
        return handle, sent
    await handle.answer(timeout=30)
    choices = await (await fake.autocomplete(fake.guild_id, fake.channel_id, user, "play", {"action": ""},
                                             "action")).choices()
    sent = loop.time()
    handle = await fake.send_slash(fake.guild_id, fake.channel_id, user, "play",
                                   {"action": choices[0]["value"], "game_id": game_id})
    return handle, sent


async def test_a_long_ai_think_is_acknowledged_in_time_and_answered_after(tmp_path, monkeypatch):
    """An AI move that takes 4 s (a hard search on a busy machine) inside a player's interaction:
    the bot acknowledges within Discord's 3 seconds and the answer follows when the AI has moved."""
    monkeypatch.setenv("FAKE_AI_SECONDS", "4")
    async with running_bot(tmp_path, users=("alice", "bob")) as (fake, bot):
        game_id, lobby = await game_against_a_hard_ai(fake, bot)
        handle, sent = await the_ai_thinks_during(fake, bot, game_id, lobby, "alice")
        first = await handle.response(timeout=10)
        assert first.type == 5 and first.latency < fake.response_deadline
        answer = await handle.answer(timeout=30)
        assert asyncio.get_running_loop().time() - sent >= 4  # the answer waited for the AI
        assert f"#{game_id}" in answer.content or "✅" in answer.content, answer.content
        await fake.wait_until(lambda: any(u is None for _, u, _ in log_rows(bot.db_path, game_id)), timeout=10,
                              what="the AI's move to be stored")
    bot_log_is_clean(bot)


async def test_an_answer_after_the_interaction_token_expired_comes_by_dm_or_in_the_channel(tmp_path, monkeypatch):
    """The token of an interaction lives 6 s here (15 minutes on Discord) and the AI takes 7 s: the
    answer cannot be a follow-up any more. The bot reads the expiry from the interaction and sends
    the answer as a DM (it may name a secret choice); to a player whose DMs are closed, a line in
    the channel naming them. Its board is posted in the game's thread as always."""
    monkeypatch.setenv("FAKE_AI_SECONDS", "7")
    async with running_bot(tmp_path, users=("alice", "bob"), dm_closed=("bob",), token_lifetime=6) as (fake, bot):
        for user in ("alice", "bob"):
            game_id, lobby = await game_against_a_hard_ai(fake, bot, user)
            mark = fake.mark()
            handle, _ = await the_ai_thinks_during(fake, bot, game_id, lobby, user)
            await fake.wait_until(lambda: any(u is None for _, u, _ in log_rows(bot.db_path, game_id)), timeout=20,
                                  what="the AI's move")
            if user == "alice":
                dm = await fake.wait_for_dm("alice", lambda m: "⌛" in m.content, timeout=20, since=mark)
                assert f"#{game_id}" in dm.content or "✅" in dm.content, dm.content
            else:
                note = await fake.wait_for_message(fake.channel_id, lambda m: "⌛" in m.content, timeout=20, since=mark)
                assert f"<@{uid(fake, 'bob')}>" in note.content and note.mention_ids() == [uid(fake, "bob")]
                assert fake.dm_failures
            assert handle.record.original.loading  # the "thinking…" placeholder was never touched after expiry
            await latest_board(fake, bot, game_id, since=mark)
        assert not [r for r in fake.requests if r.path.startswith("/webhooks/") and r.status == 401]
    bot_log_is_clean(bot)


async def test_a_token_discord_expired_before_the_bot_expected_is_answered_by_dm(tmp_path, monkeypatch):
    """Discord refuses a follow-up with 50027 while the bot still thinks the token valid (clocks
    disagree): the bot sends the answer by DM instead, files and all."""
    monkeypatch.setenv("FAKE_AI_SECONDS", "2")
    async with running_bot(tmp_path, users=("alice", "bob")) as (fake, bot):
        game_id, lobby = await game_against_a_hard_ai(fake, bot)
        mark = fake.mark()
        handle, _ = await the_ai_thinks_during(fake, bot, game_id, lobby, "alice")
        await handle.response(timeout=10)
        fake.token_lifetime = 1  # the token was dated to live 15 minutes; Discord ends it now
        dm = await fake.wait_for_dm("alice", lambda m: "⌛" in m.content, timeout=20, since=mark)
        assert f"#{game_id}" in dm.content or "✅" in dm.content, dm.content
        assert [v.kind for v in fake.violations] == ["expired_token"]  # the refused follow-up, as recorded
        fake.violations.clear()
    bot_log_is_clean(bot)


async def test_an_interaction_acknowledged_after_three_seconds_is_not_acted_on(tmp_path):
    """Discord forgets an interaction not acknowledged within 3 seconds (the person is shown that
    it failed): the bot's late acknowledgement gets 10062, and it does nothing more, logging no
    error; the person's next try is acted on."""
    async with running_bot(tmp_path, users=("alice", "bob", "carol")) as (fake, bot):
        game_id, lobby = await open_lobby(fake)
        join = next(c for c in lobby.custom_ids() if c.endswith(":join"))
        fake.response_deadline = 0.0  # as if the bot's process had stalled for 3 seconds
        late = await fake.click_button(lobby, join, "carol")
        await fake.wait_until(lambda: late.record.rejected, timeout=10, what="the late acknowledgement")
        assert late.record.rejected[0][1]["code"] == 10062
        assert [v.kind for v in fake.violations] == ["late_response"]
        fake.violations.clear()
        await asyncio.sleep(1)
        assert uid(fake, "carol") not in bot.database.seats(game_id).values()  # not seated
        assert "acknowledged after Discord's 3 seconds" in bot.log.read_text()
        fake.response_deadline = 3.0
        answer = await reply_text(await fake.click_button(fake.message(lobby.id), join, "carol"))
        assert f"#{game_id}" in answer
        await fake.wait_until(lambda: f"<@{uid(fake, 'carol')}>" in fake.message(lobby.id).content, timeout=10,
                              what="carol in the lobby")
    bot_log_is_clean(bot)
