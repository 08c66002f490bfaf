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

import re
import sqlite3

from tests.e2e.test_bot_e2e import game_row, home, reply_text, running_bot, uid

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
