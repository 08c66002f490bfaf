"""The app installed to one person's account: a whole OSU game in a group DM of three friends (two
of whom never installed it) and an AI, where the bot may post nothing of its own, so every board
rides an interaction. In English and in Japanese."""

from __future__ import annotations

import json
import re

import pytest

from bot.discord_app.custom_ids import decode
from bot.i18n import T, render
from tests.e2e.database import SqliteDatabase, stored_until
from tests.e2e.test_bot_e2e import game_row, log_rows, reply_text, running_bot, uid
from tests.fake_clock import FakeClock

NAMES = ("alice", "bob", "carol")
# The whole game below ends by its turn limit only for some seeds: with a seed of the bot's own
# choosing, about one game in a hundred ends earlier, won by three captures. With this one, Alice,
# Bob and Carol (each playing the first action offered) reach the limit whatever the easy AI,
# dealt the last seat, plays.
TURN_LIMIT_SEED = 2026


def told(fake, name: str, game_id: int) -> list:
    """The DMs that told ``name`` of a turn in the game, deleted ones included: a turn's DM is
    deleted once the turn passed, and when that happens against the test's look is the machine's
    speed, not the bot's behaviour."""
    return [m for m in fake.messages(fake.dm_channel_id(name), include_deleted=True)
            if f"#{game_id}" in m.text() and "👉" in m.text()]


def boards(fake, group: int, game_id: int) -> list:
    """The game's public messages with controls in the group DM, by the version their controls
    act on, then oldest first: a board may come as an edit of an older message, so the newest
    board is the last, whichever message carries it."""
    found = [m for m in fake.messages(group, include_ephemeral=False)
             if any(decode(c) and decode(c).game_id == game_id for c in m.custom_ids())]
    return sorted(found, key=lambda m: max((decode(c).version for c in m.custom_ids()
                                            if decode(c) and decode(c).version is not None), default=-1))


async def act(fake, message, user: str, locale: str) -> str:
    """Play the first action the controls under ``message`` offer ``user``: a button, or the first
    choice of a menu and then what its answer offers."""
    for _ in range(6):
        direct = [c for c in message.custom_ids() if decode(c) and decode(c).kind == "a"]
        if direct:
            return await reply_text(await fake.click_button(message, direct[0], user, locale=locale))
        menu = next(c for c in message.custom_ids() if decode(c) and decode(c).kind == "g")
        options = next(comp for comp in message.all_components() if comp.get("custom_id") == menu)["options"]
        picker = await fake.select(message, menu, [options[0]["value"]], user, locale=locale)
        await picker.response()
        message = await picker.answer(lambda m: m.custom_ids() or "✅" in m.text(), timeout=30)
        if not message.custom_ids():
            return message.text()
    raise AssertionError("no action within six menus")


@pytest.mark.parametrize("locale", ["en-US", "ja"])
async def test_a_whole_osu_game_in_a_group_dm_of_friends(tmp_path, locale):
    lang = "ja" if locale == "ja" else "en"
    async with running_bot(tmp_path, users=NAMES, guild_locale="en-US", seed=TURN_LIMIT_SEED) as (fake, bot):
        fake.install_for_user("alice")  # only Alice added the app to her account
        group = fake.add_group_dm(NAMES)
        created = await fake.send_slash(None, group, "alice", "game new",
                                        {"game": "osu", "options": "turn_limit=10"}, locale=locale)
        game_id = int(re.search(r"#(\d+)", await reply_text(created))[1])
        lobby = await fake.wait_for_message(group, lambda m: not m.ephemeral and m.custom_ids())
        assert lobby.interaction_id == created.id  # the lobby rode the command
        for name in ("bob", "carol"):  # friends without the app press its buttons all the same
            join = next(c for c in fake.message(lobby.id).custom_ids() if c.endswith(":join"))
            assert f"#{game_id}" in await reply_text(await fake.click_button(fake.message(lobby.id), join, name,
                                                                             locale=locale))
        menu = next(c for c in fake.message(lobby.id).custom_ids() if c.endswith(":ai"))
        await reply_text(await fake.select(fake.message(lobby.id), menu, ["easy"], "alice", locale=locale))
        assert fake.message(lobby.id).content.count("<@") == 3  # edited in place through the clicks
        start = next(c for c in fake.message(lobby.id).custom_ids() if c.endswith(":start"))
        await reply_text(await fake.click_button(fake.message(lobby.id), start, "alice", locale=locale))

        users = {uid(fake, n): n for n in NAMES}
        for _ in range(60):
            row = game_row(bot.db_path, game_id)
            if row["status"] == "finished" and row["posted_version"] >= row["version"]:
                break
            shown = boards(fake, group, game_id)
            if row["posted_version"] < row["version"]:
                # The AI moved, or the board could not ride yet: whoever is told by DM presses any
                # button of the game and the board comes with it.
                stale = shown[-1]
                presser = next(n for n in NAMES if f"#{game_id}" in "".join(m.text() for m in fake.dms(n))) \
                    if any(fake.dms(n) for n in NAMES) else "alice"
                button = next(c for c in stale.custom_ids() if decode(c) and decode(c).kind in ("a", "g"))
                handle = (await fake.click_button(stale, button, presser, locale=locale) if decode(button).kind == "a"
                          else await fake.select(stale, button, [next(
                              comp for comp in stale.all_components() if comp.get("custom_id") == button
                          )["options"][0]["value"]], presser, locale=locale))
                await handle.response()
                await stored_until(lambda: (lambda r: r["posted_version"] >= r["version"])(game_row(bot.db_path, game_id)),
                                   f"game {game_id}'s board to ride the next click")
                continue
            board = shown[-1]
            waiting = re.findall(r"<@(\d+)>", board.text().split("👉")[-1])
            human = [users[int(w)] for w in waiting if int(w) in users]
            if not human:
                await stored_until(lambda: game_row(bot.db_path, game_id)["version"] > row["version"],
                                   "the AI to move")
                continue
            answer = await act(fake, board, human[0], locale)
            if "✅" not in answer:  # the AI moved between our look and the click: refused as stale,
                assert render(lang, T("error.stale")) in answer, answer  # and the click brings the board
                await stored_until(lambda: (lambda r: r["posted_version"] >= r["version"])(game_row(bot.db_path, game_id)),
                                   f"game {game_id}'s board to ride the refused click")
                continue
            await stored_until(lambda: (lambda r: r["version"] > row["version"])(game_row(bot.db_path, game_id)),
                               "the action to be saved")
        row = game_row(bot.db_path, game_id)
        assert row["status"] == "finished", row
        assert json.loads(row["state"])["outcome"]["reason"] == "turn_limit", row["state"]
        assert len(log_rows(bot.db_path, game_id)) == 10
        # Everything public rode an interaction; the bot asked nothing of the group DM itself.
        public = [m for m in fake.messages(group, include_ephemeral=False)]
        assert public and all(m.interaction_id is not None for m in public)
        assert not [r for r in fake.requests if f"/channels/{group}" in r.path]
        # the final board may ride a click on an older board, as an edit of that message, while
        # the bot edits other old boards to take their buttons away: no message order finds it
        ended = render(lang, T("reason.turn_limit"))
        finished = [m for m in public if m.attachments and ended in m.text()]
        assert finished, [m.text() for m in public if m.attachments][-3:]
        final = finished[-1]
        if lang == "ja":
            assert re.search(r"[\u3040-\u30ff]", final.text()), final.text()
        # Bob and Carol, who never installed the app, heard of their turns by DM.
        for name in ("bob", "carol"):
            assert told(fake, name, game_id), name


async def test_a_board_the_stand_in_made_rides_the_next_click(tmp_path):
    """A deadline passes in a group DM: the stand-in moves, but nobody's interaction can carry its
    board. The player whose turn it is hears so by DM; the next press of any of the game's buttons
    (refused as stale) brings the current board."""
    import sqlite3

    async with running_bot(tmp_path, users=NAMES, guild_locale="en-US") as (fake, bot):
        fake.install_for_user("alice")
        group = fake.add_group_dm(NAMES)
        created = await fake.send_slash(None, group, "alice", "game new", {"game": "osu"})
        game_id = int(re.search(r"#(\d+)", await reply_text(created))[1])
        lobby = await fake.wait_for_message(group, lambda m: not m.ephemeral and m.custom_ids())
        join = next(c for c in lobby.custom_ids() if c.endswith(":join"))
        await reply_text(await fake.click_button(lobby, join, "bob"))
        start = next(c for c in fake.message(lobby.id).custom_ids() if c.endswith(":start"))
        await reply_text(await fake.click_button(fake.message(lobby.id), start, "alice"))
        await stored_until(lambda: game_row(bot.db_path, game_id)["status"] == "active", "the start")
        board = boards(fake, group, game_id)[-1]
        with sqlite3.connect(bot.db_path) as db:
            db.execute("UPDATE games SET deadline_at = '2026-01-01T00:00:00+00:00' WHERE id = ?", (game_id,))
        await stored_until(lambda: len(log_rows(bot.db_path, game_id)) == 1, "the stand-in's move")
        row = game_row(bot.db_path, game_id)
        assert row["posted_version"] < row["version"]  # nobody could carry it yet
        # the DM follows the stored move: wait for it, as the player would
        await fake.wait_until(lambda: any(told(fake, n, game_id) for n in ("alice", "bob")), timeout=30,
                              what="the player whose turn came to be told by DM")
        nxt = [n for n in ("alice", "bob") if told(fake, n, game_id)][-1]
        button = next(c for c in board.custom_ids() if decode(c) and decode(c).kind in ("a", "g"))
        if decode(button).kind == "a":
            handle = await fake.click_button(board, button, nxt)
        else:
            options = next(c for c in board.all_components() if c.get("custom_id") == button)["options"]
            handle = await fake.select(board, button, [options[0]["value"]], nxt)
        await handle.response()
        await stored_until(lambda: (lambda r: r["posted_version"] >= r["version"])(game_row(bot.db_path, game_id)),
                           "the board to ride the click")
        shown = boards(fake, group, game_id)[-1]
        assert shown.id != board.id and shown.interaction_id == handle.id and shown.attachments
        assert not [r for r in fake.requests if f"/channels/{group}" in r.path]


async def osu_against_the_ai(fake, bot, group: int, **options) -> int:
    """Alice opens an OSU game in the group DM against an easy AI and starts it; its id."""
    created = await fake.send_slash(None, group, "alice", "game new", {"game": "osu", **options})
    game_id = int(re.search(r"#(\d+)", await reply_text(created))[1])
    lobby = await fake.wait_for_message(group, lambda m: not m.ephemeral and any(
        decode(c) and decode(c).game_id == game_id for c in m.custom_ids()))
    menu = next(c for c in lobby.custom_ids() if c.endswith(":ai"))
    await reply_text(await fake.select(lobby, menu, ["easy"], "alice"))
    start = next(c for c in fake.message(lobby.id).custom_ids() if c.endswith(":start"))
    await (await fake.click_button(fake.message(lobby.id), start, "alice")).response()
    await stored_until(lambda: game_row(bot.db_path, game_id)["status"] == "active", f"game {game_id} to start")
    return game_id


async def press_any(fake, board, user: str):
    """Press the first of the game's buttons or menus under ``board`` (a stale one is refused)."""
    button = next(c for c in board.custom_ids() if decode(c) and decode(c).kind in ("a", "g"))
    if decode(button).kind == "a":
        handle = await fake.click_button(board, button, user)
    else:
        options = next(c for c in board.all_components() if c.get("custom_id") == button)["options"]
        handle = await fake.select(board, button, [options[0]["value"]], user)
    await handle.response()
    return handle


def alice_to_act(fake, bot, game_id: int) -> bool:
    """An OSU game of the scenario waits for Alice (the rest of its seats are the AI's)."""
    turn = json.loads(game_row(bot.db_path, game_id)["state"])["turn"]
    return (turn, uid(fake, "alice")) in SqliteDatabase(bot.db_path).query(
        "SELECT seat, user_id FROM seats WHERE game_id = ?", (game_id,))


def unposted(bot, game_ids) -> list[int]:
    return [g for g in game_ids if (lambda r: r["posted_version"] < r["version"])(game_row(bot.db_path, g))]


async def test_boards_past_five_follow_ups_wait_for_the_next_interaction(tmp_path):
    """Six games in one group DM move while nobody looks (a deadline passes: the stand-in, then the
    AI). Alice's next click may carry only 5 follow-ups (the app is installed to her account, not
    to the group): its refusal and four boards; the bot asks no sixth, and her next click brings
    the other two."""
    clock = FakeClock(tmp_path / "now")
    async with running_bot(tmp_path, clock=clock, users=NAMES, guild_locale="en-US") as (fake, bot):
        fake.install_for_user("alice")
        group = fake.add_group_dm(NAMES)
        games = [await osu_against_the_ai(fake, bot, group, deadline="24h") for _ in range(6)]
        # the AI may open a game after the Start click: wait until each is Alice's turn, shown (a
        # board shown before the AI's opening move let the clock pass first, and that move then
        # started Alice's 24 hours after the advance: once on a quiet machine, no stand-in moved)
        await stored_until(lambda: not unposted(bot, games) and all(alice_to_act(fake, bot, g) for g in games),
                           "every game to be Alice's turn, its board shown")
        old = {g: boards(fake, group, g)[-1] for g in games}
        moved = {g: len(log_rows(bot.db_path, g)) for g in games}
        clock.advance(hours=25)  # every deadline passes: the stand-in plays for Alice, then the AI
        # twelve moves and six boards in one wait: its hang bound is four times the usual one (it
        # timed out at 30 s once, on two cores running three test processes and two other jobs)
        await stored_until(lambda: all(len(log_rows(bot.db_path, g)) >= moved[g] + 2 for g in games)
                           and len(unposted(bot, games)) == 6, "the stand-ins' and the AI's moves", timeout=120)

        first = await press_any(fake, old[games[0]], "alice")
        await fake.wait_until(lambda: first.record.followup_requests >= 5, timeout=30,
                              what="the click's five follow-ups")
        await stored_until(lambda: len(unposted(bot, games)) == 2, "four boards to ride the click")
        assert first.record.followup_requests == 5 and not fake.violations

        waiting = unposted(bot, games)
        second = await press_any(fake, old[waiting[0]], "alice")
        await stored_until(lambda: not unposted(bot, games), "the last two boards to ride the next click")
        assert {boards(fake, group, g)[-1].interaction_id for g in waiting} == {second.id}
        assert not fake.violations
        assert not [r for r in fake.requests if f"/channels/{group}" in r.path]


async def test_a_board_ready_after_the_click_s_token_expired_rides_the_next_click(tmp_path, monkeypatch):
    """The AI takes 6 s inside Alice's `/play` and its token lives 5 s here (15 minutes on Discord):
    the bot asks nothing more of that token (her answer comes by DM), and the board it could not
    show comes with her next click."""
    monkeypatch.setenv("FAKE_AI_SECONDS", "6")
    async with running_bot(tmp_path, users=NAMES, guild_locale="en-US") as (fake, bot):
        fake.install_for_user("alice")
        group = fake.add_group_dm(NAMES)
        game_id = await osu_against_the_ai(fake, bot, group)
        await stored_until(lambda: not unposted(bot, [game_id]), "the board to ride the Start click")
        moved = len(log_rows(bot.db_path, game_id))
        choices = await (await fake.autocomplete(None, group, "alice", "play", {"action": ""}, "action")).choices()
        mark = fake.mark()
        fake.token_lifetime = 5  # the next interaction's token (its id dated to say so, as the bot reads it)
        late = await fake.send_slash(None, group, "alice", "play", {"action": choices[0]["value"], "game_id": game_id})
        await stored_until(lambda: len(log_rows(bot.db_path, game_id)) >= moved + 2, "Alice's and the AI's moves")
        dm = await fake.wait_for_dm("alice", lambda m: "⌛" in m.content, timeout=30, since=mark)
        assert "✅" in dm.content, dm.content  # her answer, by DM
        assert not fake.violations  # nothing asked of the expired token
        assert late.record.followups == [] and late.record.original.loading  # untouched after its expiry
        assert unposted(bot, [game_id]) == [game_id]  # nobody could show it yet
        fake.token_lifetime = 900
        shown = boards(fake, group, game_id)[-1]
        handle = await press_any(fake, shown, "alice")
        await stored_until(lambda: not unposted(bot, [game_id]), "the board to ride the next click")
        assert boards(fake, group, game_id)[-1].interaction_id == handle.id
        assert not [r for r in fake.requests if f"/channels/{group}" in r.path]


async def test_a_reminder_for_a_group_dm_game_goes_by_dm(tmp_path):
    """Half a deadline passes in a group DM game: the reminder cannot be posted there (the bot is
    no member), so it goes to the player by DM, and the bot asks nothing of the group DM."""
    clock = FakeClock(tmp_path / "now")
    async with running_bot(tmp_path, clock=clock, users=NAMES, guild_locale="en-US") as (fake, bot):
        fake.install_for_user("alice")
        group = fake.add_group_dm(NAMES)
        game_id = await osu_against_the_ai(fake, bot, group, deadline="24h")
        await stored_until(lambda: not unposted(bot, [game_id]), "the board to ride the Start click")
        mark = fake.mark()
        clock.advance(hours=13)
        await fake.wait_for_dm("alice", lambda m: "⏰" in m.content and f"#{game_id}" in m.content, timeout=30,
                               since=mark)
        assert not [r for r in fake.requests if f"/channels/{group}" in r.path]
        assert not fake.permission_refusals
