"""Who may do what, and where, through the real bot and the stand-in (issue #29).

Two servers. In the game's server: alice (created the games, seated), bob (seated; both are also members
of the other server), carol (follows the games), dave (a member), erin (an admin). In the other
server: its owner frank, who is in none of the first server's channels. Every game command is
typed by each of them from each place they can type in: the game's thread, another channel of the
game's server, the other server, a DM with the bot. The expectations are the issue's words:

- visible only in the game's server, or in a DM to its players and followers; elsewhere the answer
  is word for word the answer about a number no game has, and nothing of the game is shown;
- Manage Server counts only in the game's own server;
- a refusal changes nothing stored and posts nothing.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3

from tests.e2e.test_bot_e2e import game_row, home, reply_text, running_bot, uid
from tests.e2e.test_people_e2e import new_game, play_any, to_act
from tests.fake_clock import FakeClock

MISSING = 987654
TABLES = ("games", "seats", "actions", "followers", "undo_requests", "results")
READS = ("game status", "game history", "game replay", "game export")
CHANGES_TO_THE_GAME = ("game resign", "game abandon", "game undo", "game follow", "game unfollow", "play")
CHANGES_TO_THE_LOBBY = ("game start", "game join", "game leave")
PLACES_OF = {"alice": ("home", "other_channel", "other_server", "dm"),
             "bob": ("home", "other_channel", "other_server", "dm"),
             "carol": ("home", "other_channel", "dm"), "dave": ("home", "other_channel", "dm"),
             "erin": ("home", "other_channel", "dm"), "frank": ("other_server", "dm")}


def allowed(command: str, who: str, place: str) -> bool:
    """The issue's rules, restated for these people."""
    in_home_server = place in ("home", "other_channel")
    if not (in_home_server or (place == "dm" and who in ("alice", "bob", "carol"))):
        return False
    seated, manager = who in ("alice", "bob"), who == "alice" or (who == "erin" and in_home_server)
    if command in ("game resign", "game undo", "play", "game leave"):
        return seated
    if command == "game abandon":
        return manager
    if command == "game start":
        return manager
    if command == "game join":
        return not seated
    if command == "game follow":
        return not seated and who != "carol"
    if command == "game unfollow":
        return who == "carol"
    return True


def stored(bot) -> str:
    with sqlite3.connect(bot.db_path) as db:
        return "\n".join(repr(db.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall()) for t in TABLES)


def posts_since(fake, mark: int) -> list:
    """Messages the bot sent to any channel, thread or DM since ``mark`` (not interaction answers)."""
    return [r for r in fake.requests if r.at >= mark and r.method in ("POST", "PATCH", "PUT")
            and re.match(r"/channels/\d+/(messages|threads)", r.path)]


async def test_every_game_command_from_every_place_by_everyone(tmp_path):
    async with running_bot(tmp_path, users=("alice", "bob", "carol", "dave"), guild_locale="en-US") as (fake, bot):
        fake.add_user("erin", admin=True)
        fake.add_user("frank", join_guilds=False)
        other = fake.add_guild("Other", members=["frank", "alice", "bob"], owner="frank")
        a_channel, other_channel = fake.guild["channel_ids"][:2]

        async def say(who, place, command, options, game_id):
            guild, channel = {"home": (fake.guild_id, home(bot, fake, game_id)),
                              "other_channel": (fake.guild_id, other_channel),
                              "other_server": (other["id_int"], other["channel_ids"][0]),
                              "dm": (None, None)}[place]
            return await reply_text(await fake.send_slash(guild, channel, who, command, options))

        async def new_game(game, *, start):
            text = await reply_text(await fake.send_slash(fake.guild_id, a_channel, "alice", "game new", {"game": game}))
            gid = int(re.search(r"#(\d+)", text)[1])
            await fake.wait_until(lambda: game_row(bot.db_path, gid)["thread_id"] is not None, timeout=10)
            await say("bob", "home", "game join", {"game_id": gid}, gid)
            await say("carol", "home", "game follow", {"game_id": gid}, gid)
            if start:
                await say("alice", "home", "game start", {"game_id": gid}, gid)
                await fake.wait_until(lambda: game_row(bot.db_path, gid)["posted_version"]
                                      == game_row(bot.db_path, gid)["version"], timeout=15)
            return gid

        def options(command, gid):
            return {"action": "T2@b2", "game_id": gid} if command == "play" else {"game_id": gid}

        async def check(command, who, place, gid):
            """Typed where it may not be: refused, nothing stored changed, nothing posted; and where the
            game is not visible, the same words as for a number no game has."""
            before, mark = stored(bot), fake.mark()
            text = await say(who, place, command, options(command, gid), gid)
            assert text.startswith("⚠️"), (command, who, place, text)
            assert stored(bot) == before, (command, who, place)
            assert not posts_since(fake, mark), (command, who, place)
            if not visible(who, place):
                missing = await say(who, place, command, options(command, MISSING), gid)
                assert text.replace(str(gid), "N") == missing.replace(str(MISSING), "N"), (command, who, place)

        def visible(who, place):
            return place in ("home", "other_channel") or (place == "dm" and who in ("alice", "bob", "carol"))

        game, lobby = await new_game("squares", start=True), await new_game("osu", start=False)
        cells = [(who, place) for who, places in PLACES_OF.items() for place in places]

        for command in READS:
            for who, place in cells:
                if allowed(command, who, place):
                    before = stored(bot)
                    text = await say(who, place, command, {"game_id": game}, game)
                    assert not text.startswith("⚠️") and f"#{game}" in text, (command, who, place, text)
                    assert stored(bot) == before
                else:
                    await check(command, who, place, game)
        for commands, gid in ((CHANGES_TO_THE_GAME, game), (CHANGES_TO_THE_LOBBY, lobby)):
            for command in commands:
                for who, place in cells:
                    if not allowed(command, who, place):
                        await check(command, who, place, gid)

        # Game numbers offered by autocomplete: only games visible from where one types.
        for place, offered in (("home", True), ("other_server", False), ("dm", True)):
            guild, channel = {"home": (fake.guild_id, home(bot, fake, game)),
                              "other_server": (other["id_int"], other["channel_ids"][0]), "dm": (None, None)}[place]
            choices = await (await fake.autocomplete(guild, channel, "bob", "game status", {"game_id": ""},
                                                     "game_id")).choices()
            assert (game in [c["value"] for c in choices]) is offered, (place, choices)

        # What is allowed works, and only in the game's server (or a DM): a few of each kind.
        gid = await new_game("squares", start=False)
        assert "⚠️" in await say("frank", "other_server", "game start", {"game_id": gid}, gid)
        assert "⚠️" in await say("bob", "home", "game start", {"game_id": gid}, gid)  # the creator starts
        assert "⚠️" not in await say("erin", "other_channel", "game start", {"game_id": gid}, gid)
        assert game_row(bot.db_path, gid)["status"] == "active"
        assert "⚠️" not in await say("bob", "dm", "game resign", {"game_id": gid}, gid)
        assert game_row(bot.db_path, gid)["status"] == "finished"
        gid = await new_game("squares", start=True)
        assert "⚠️" not in await say("erin", "home", "game abandon", {"game_id": gid}, gid)
        assert game_row(bot.db_path, gid)["status"] == "abandoned"
        gid = await new_game("osu", start=False)
        assert "⚠️" not in await say("alice", "dm", "game abandon", {"game_id": gid}, gid)
        assert game_row(bot.db_path, gid)["status"] == "abandoned"
        assert "⚠️" not in await say("dave", "other_channel", "game join", {"game_id": lobby}, lobby)
        assert uid(fake, "dave") in [s[0] for s in sqlite3.connect(bot.db_path).execute(
            "SELECT user_id FROM seats WHERE game_id = ?", (lobby,))]
        # The lobby's buttons: Start pressed by a joiner is refused with who can start.
        msg = next(m for m in fake.messages(a_channel) if f"tt:l:{lobby}:start" in m.custom_ids())
        refusal = await reply_text(await fake.click_button(msg, f"tt:l:{lobby}:start", "dave"))
        assert refusal.startswith("⚠️") and str(uid(fake, "alice")) in refusal
        assert game_row(bot.db_path, lobby)["status"] == "lobby"


# ---- figures typed in a DM (issue #40) ------------------------------------------------------------
async def in_dm(fake, user: str, command: str, options: dict | None = None, locale: str = "en-US") -> str:
    return await reply_text(await fake.send_slash(None, None, user, command, options or {}, locale=locale))


async def play_when_asked(fake, user: str, gid: int, guild=None, channel=None) -> None:
    """Play the first legal action once it is the user's turn (an AI answers from a worker
    process, a moment after the move before it)."""
    for _ in range(200):
        choices = await (await fake.autocomplete(guild, channel, user, "play", {"action": "", "game_id": gid},
                                                 "action")).choices()
        if choices:
            answer = await reply_text(await fake.send_slash(guild, channel, user, "play",
                                                            {"action": choices[0]["value"], "game_id": gid}))
            if "✅" in answer:
                return
        await asyncio.sleep(0.05)
    raise TimeoutError(f"{user} was never asked to play game #{gid}")


async def dm_game_against_the_ai(fake, bot, clock, user: str, hours: int) -> None:
    """``user`` opens SQUARESIV in their DM with the bot, seats the AI from the lobby, starts, moves
    twice ``hours`` after the move before (the second is timed from the AI's answer), resigns."""
    gid = int(re.search(r"#(\d+)", await in_dm(fake, user, "game new", {"game": "squares"}))[1])
    lobby = await fake.wait_for_dm(user, lambda m: m.custom_ids() and f"#{gid}" in m.text(), timeout=10)
    await reply_text(await fake.select(lobby, next(c for c in lobby.custom_ids() if c.endswith(":ai")), ["easy"], user))
    assert "⚠️" not in await in_dm(fake, user, "game start", {"game_id": gid})
    for _ in range(2):
        clock.advance(hours=hours)
        await play_when_asked(fake, user, gid)
    assert "⚠️" not in await in_dm(fake, user, "game resign", {"game_id": gid})
    await fake.wait_until(lambda: game_row(bot.db_path, gid)["status"] == "finished", timeout=10)


async def server_game(fake, bot, clock, winner: str, loser: str, hours: int) -> None:
    """The two play in the server, each move ``hours`` after the one before, until the loser resigns."""
    gid = await new_game(fake, bot, winner, [loser])
    for _ in range(4):
        clock.advance(hours=hours)
        await play_any(fake, bot, gid, to_act(fake, bot, gid, (winner, loser)))
    assert "⚠️" not in await reply_text(await fake.send_slash(fake.guild_id, fake.channel_id, loser, "game resign",
                                                                {"game_id": gid}))
    await fake.wait_until(lambda: game_row(bot.db_path, gid)["status"] == "finished", timeout=10)


async def test_stats_and_leaderboard_typed_in_a_dm_show_only_the_askers_own(tmp_path):
    """Alice and Bob each play the AI in their own DM with the bot, and each other in the server.
    Typed in a DM, /game stats and /game leaderboard listed every DM game's players (issue #40):
    now each sees their own results, time to act and rating only; the server's are unchanged."""
    clock = FakeClock(tmp_path / "now", start="2026-12-01T09:00:00+00:00")
    async with running_bot(tmp_path, clock=clock, users=("alice", "bob", "carol")) as (fake, bot):
        await dm_game_against_the_ai(fake, bot, clock, "alice", hours=1)
        await dm_game_against_the_ai(fake, bot, clock, "bob", hours=2)
        await server_game(fake, bot, clock, "alice", "bob", hours=5)
        for me, other, hours in (("alice", "bob", 1), ("bob", "alice", 2)):
            stats, board = await in_dm(fake, me, "game stats"), await in_dm(fake, me, "game leaderboard")
            shown = stats + board
            assert str(uid(fake, other)) not in shown and "AI" not in shown, (me, shown)
            assert "SQUARESIV: 0 won / 1 played" in stats, stats  # the DM game; not the server's
            assert f"you take {hours} h 0 min to act on average" in stats, stats
            assert "per server" in board and "SQUARESIV — " in board and "(1 game)" in board, board
            assert "あなたの成績" in await in_dm(fake, me, "game stats", locale="ja")
        assert "not finished a game in a DM" in await in_dm(fake, "carol", "game stats")
        # In the server: its own game, everyone's figures there, whoever asks.
        stats = await reply_text(await fake.send_slash(fake.guild_id, fake.channel_id, "carol", "game stats", {}))
        alice, bob = uid(fake, "alice"), uid(fake, "bob")
        assert f"<@{alice}>: 1 won / 1 played" in stats and f"<@{bob}>: 0 won / 1 played" in stats, stats
        assert "5 h 0 min" in stats and "1 h 0 min" not in stats and "2 h 0 min" not in stats, stats
        board = await reply_text(await fake.send_slash(fake.guild_id, fake.channel_id, "carol", "game leaderboard", {}))
        assert board.index(f"<@{alice}>") < board.index(f"<@{bob}>"), board
