"""Two sharded bot processes on one database, against the stand-in routing by shard (issue #17).

Four shards split 0-1 / 2-3 between two processes, one guild on each shard. Discord delivers a
guild's interactions to the shard owning it and DM interactions to shard 0, so a DM panel click is
handled by the first process even when the game's channel belongs to the second: both processes
serve every game, and whatever must happen once (an action per version, a deadline, a repost) is
decided in the database. Every scenario runs on one shared SQLite file, then on one PostgreSQL
database (a fresh schema of ``TEST_DATABASE_URL``, dropped afterwards; skipped when it is unset).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re

import pytest

from bot.discord_app.custom_ids import decode
from games import get_game
from tests.e2e.coverage import COVERAGE
from tests.e2e.database import for_backend, stored_until
from tests.e2e.test_bot_e2e import (
    STARTUP_TIMEOUT, BotProcess, fail_on_images_that_do_not_read_back, reply_text, uid)
from tests.e2e.test_load_e2e import LOAD_RESPONSE_DEADLINE, USERS, check_load, run_load
from tests.fakediscord import FakeDiscord

SHARD_COUNT = 4
SPLIT = ((0, 1), (2, 3))
ACCEPTED = "✅"
STALE = "out of date"


@pytest.fixture
def database(backend):
    """The database both processes share, as the checks read it: SQLite, then PostgreSQL
    (``backend`` of tests/conftest.py: a fresh schema, dropped afterwards)."""
    with for_backend(backend) as shared:
        yield shared


@contextlib.asynccontextmanager
async def two_processes(tmp_path, database, expected_violation=lambda v: False, **world):
    """The stand-in with a guild on every shard and two bot processes holding half the shards each,
    on ``database``. Afterwards anything Discord would have refused fails the test (except
    ``expected_violation``), and on PostgreSQL no SQLite file was made."""
    fake = FakeDiscord(**world)
    guilds = [fake.add_guild(f"server {s}", shard=(s, SHARD_COUNT), locale="ja" if s % 2 else "en-US",
                             channels=("games",)) for s in range(SHARD_COUNT)]
    await fake.start()
    on_sqlite = database.name == "sqlite"
    sqlite_file = database.path if on_sqlite else tmp_path / "games.sqlite3"  # on PostgreSQL: never made
    bots = [BotProcess(fake, sqlite_file, tmp_path, shards=(SHARD_COUNT, ids),
                       name=f"shards-{ids[0]}-{ids[-1]}", database=database) for ids in SPLIT]
    try:
        for bot in bots:
            await bot.start()
        await fake.wait_for_commands(timeout=STARTUP_TIMEOUT)
        yield fake, bots, guilds
    finally:
        for bot in bots:
            await bot.stop()
        await fake.stop()
        COVERAGE.record(fake)
    unexpected = [v for v in fake.violations if not expected_violation(v)]
    if unexpected:
        pytest.fail(f"Discord would have refused: {unexpected}\n" + "\n".join(b.log.read_text()[-2000:] for b in bots))
    fail_on_images_that_do_not_read_back(bots)
    assert on_sqlite or not sqlite_file.exists()


def place(guild) -> tuple[int, int]:
    return guild["id_int"], guild["channel_ids"][0]


def stored_actions(database, game_id: int) -> list[tuple[int | None, str, int]]:
    """(user_id, action, version) of the game's log, in order."""
    return [(user, action, version) for _, user, action, version in database.actions(game_id)]


async def new_game(fake, guild, game: str, players=("alice", "bob"), options=None) -> int:
    """Open a game in a guild by command, seat the others by command, start it."""
    gid, channel = place(guild)
    opened = await reply_text(await fake.send_slash(gid, channel, players[0], "game new",
                                                    {"game": game, **(options or {})}))
    game_id = int(re.search(r"#(\d+)", opened)[1])
    for user in players[1:]:
        assert f"#{game_id}" in await reply_text(await fake.send_slash(gid, channel, user, "game join",
                                                                       {"game_id": game_id}))
    await reply_text(await fake.send_slash(gid, channel, players[0], "game start", {"game_id": game_id}))
    return game_id


async def wait_posted(fake, bot, game_id: int) -> None:
    """Until the board of the game's latest version is in its channel."""
    def posted():
        row = bot.database.game_row(game_id)
        return row["posted_version"] >= row["version"]
    await stored_until(posted, f"game {game_id}'s board to be posted")


def home_of(bot, guild, game_id: int) -> int:
    return bot.database.game_row(game_id)["thread_id"] or guild["channel_ids"][0]


async def test_the_load_test_passes_across_two_processes(tmp_path, database):
    async with two_processes(tmp_path, database, users=USERS, response_deadline=LOAD_RESPONSE_DEADLINE) as (fake, bots, guilds):
        tables, settings = await run_load(fake, bots[0], random.Random(17), [place(g) for g in guilds],
                                          games_per_kind=int(os.environ.get("SHARDS_GAMES_PER_KIND", "4")))
        logs = [b.log.read_text() for b in bots]
    check_load(fake, database, tables, settings, logs)
    served = {rec.shard for rec in fake.interactions.values()}
    assert served == {0, 1, 2, 3}  # every shard, so both processes, took part
    assert [g for g, _ in fake.command_syncs] == [None]  # one process synced the commands, once
    assert "synced by another process" in logs[1]


async def test_a_hundred_clicks_from_both_processes_and_a_deadline_fire_once(tmp_path, database):
    async with two_processes(tmp_path, database) as (fake, bots, guilds):
        guild = guilds[2]  # its channel is on the second process; DM clicks go to the first
        game_id = await new_game(fake, guild, "secretpick")
        await wait_posted(fake, bots[0], game_id)
        version = database.game_row(game_id)["version"]
        board = next(m for m in reversed(fake.messages(home_of(bots[0], guild, game_id), include_ephemeral=False))
                     if any(decode(c) and decode(c).kind == "p" for c in m.custom_ids()))
        buttons = []  # (message, custom id, user): each player's pick on their DM and on their channel panel
        for user, pick in (("alice", "pick3"), ("bob", "pick1")):
            dm = await fake.wait_for_dm(user, lambda m: any(c.endswith(f":{pick}") for c in m.custom_ids()))
            opened = await fake.click_button(board, board.custom_ids()[0], user)
            await opened.response()
            panel = await opened.answer(lambda m: m.custom_ids(), timeout=10)
            for message in (dm, panel):
                button = next(c for c in message.custom_ids() if c.endswith(f":{pick}"))
                assert decode(button).version == version
                buttons += [(message, button, user)] * 25

        async def click(message, button, user):
            handle = await fake.click_button(message, button, user)
            return handle.record.shard, user, await reply_text(handle)

        answers = await asyncio.gather(*(click(*b) for b in buttons))
        assert len(answers) == 100 and {shard for shard, _, _ in answers} == {0, 2}  # both processes
        for user in ("alice", "bob"):
            theirs = [text for _, who, text in answers if who == user]
            assert sum(ACCEPTED in t for t in theirs) == 1, theirs
            assert all(ACCEPTED in t or STALE in t for t in theirs), theirs  # the rest: the stale answer
        logged = stored_actions(database, game_id)
        assert sorted(a for _, a, _ in logged) == ["pick1", "pick3"]
        assert [v for _, _, v in logged] == [version + 1, version + 2]  # one per version

        # A deadline passes while both schedulers look: one timeout, one post.
        timed = await new_game(fake, guilds[1], "squares", options={"deadline": "1h"})
        await wait_posted(fake, bots[0], timed)
        where = home_of(bots[0], guilds[1], timed)
        mark = fake.mark()
        database.execute("UPDATE games SET deadline_at = '2026-01-01T00:00:00+00:00' WHERE id = ?", (timed,))
        await fake.wait_for_message(where, lambda m: m.attachments and "🤖" in m.text(), since=mark, timeout=15)
        await asyncio.sleep(2)  # several more ticks of both schedulers
        posts = [m for m in fake.messages(where, include_ephemeral=False) if m.id > mark and "🤖" in m.text()]
        assert len(posts) == 1, [m.text() for m in posts]
        assert [(u, ) for u, _, _ in stored_actions(database, timed)] == [(None,)]


async def test_sigkill_of_one_process_mid_burst_loses_and_doubles_nothing(tmp_path, database):
    dead_shards = set(SPLIT[1])

    def unanswered_on_dead_shards(violation):
        return violation.kind == "late_response" and getattr(violation.detail, "shard", None) in dead_shards

    async with two_processes(tmp_path, database, expected_violation=unanswered_on_dead_shards) as (fake, bots, guilds):
        survivor, victim = bots
        games = [(g, await new_game(fake, g, "squares")) for g in guilds for _ in range(2)]
        secret = await new_game(fake, guilds[2], "secretpick")  # its channel dies with the victim
        for _, game_id in games:
            await wait_posted(fake, survivor, game_id)
        accepted: dict[int, list[tuple[int, str]]] = {game_id: [] for _, game_id in games}
        in_flight: dict[int, tuple[int, str]] = {}
        killed = asyncio.Event()

        async def answer_unless_killed(handle) -> str | None:
            """The answer's text, or None once the process that got the interaction was killed
            without answering: no response by Discord's deadline, or a "thinking…" one that no
            follow-up replaced (waiting for the stand-in's hang bound instead cost half a minute)."""
            def settled():
                rec = handle.record
                cut_off = killed.is_set() and rec.shard in dead_shards and (rec.expired or rec.response is not None)
                return cut_off or handle.answered() is not None

            await fake.wait_until(settled, what=f"interaction {handle.id} answered or its process killed")
            return handle.answered()

        async def player(guild, game_id):
            """Plays the game by /play as fast as it is answered, until its shard stops answering."""
            squares = get_game("squares")
            for _ in range(40):
                row = database.game_row(game_id)
                if row["status"] != "active":
                    return
                seats = database.seats(game_id)
                state = json.loads(row["state"])
                seat = min(squares.to_act(state))
                action = squares.legal_actions(state, seat)[0]
                user = next(u for u in ("alice", "bob") if uid(fake, u) == seats[seat])
                handle = await fake.send_slash(*place(guild), user, "play", {"action": action, "game_id": game_id},
                                               wait_connected=False)
                text = await answer_unless_killed(handle)
                if text is None:
                    assert handle.record.shard in dead_shards
                    in_flight[game_id] = (uid(fake, user), action)
                    return
                if ACCEPTED in text:
                    accepted[game_id].append((uid(fake, user), action))
                await wait_posted(fake, survivor, game_id)

        burst = [asyncio.create_task(player(g, game_id)) for g, game_id in games]
        await fake.wait_until(lambda: sum(map(len, accepted.values())) >= 12, timeout=30, what="the burst")
        await victim.kill()
        killed.set()
        await asyncio.gather(*burst)
        assert in_flight  # the kill cut players off mid-request

        for guild, game_id in games:
            stored = [(u, a) for u, a, _ in stored_actions(database, game_id) if u is not None]
            told = accepted[game_id]
            # Everything a player was told is stored once, in order; an action whose answer died
            # with the process may be stored (it was saved) or not, but never twice.
            assert stored in (told, told + [in_flight[game_id]] if game_id in in_flight else told), game_id
            versions = [v for _, _, v in stored_actions(database, game_id)]
            assert len(set(versions)) == len(versions)
            if fake.shard_of(guild["id_int"]) not in dead_shards:
                assert game_id not in in_flight and database.game_row(game_id)["status"] == "active"
        survivors_games = [gid for g, gid in games if fake.shard_of(g["id_int"]) not in dead_shards]
        assert all(len(accepted[g]) >= 10 for g in survivors_games)  # kept playing after the kill

        # A game whose channel belongs to the dead process's shards waits, as on Discord ...
        waiting = next(gid for g, gid in games if fake.shard_of(g["id_int"]) in dead_shards)
        before = database.game_row(waiting)
        guild = next(g for g, gid in games if gid == waiting)
        lost = await fake.send_slash(*place(guild), "alice", "game status", {"game_id": waiting}, wait_connected=False)
        await fake.wait_until(lambda: lost.record.expired, timeout=10, what="the unserved interaction to expire")
        assert database.game_row(waiting)["version"] == before["version"]
        # ... while its DM panels keep working: DMs arrive on shard 0, held by the survivor, which
        # posts the new board into the dead process's channel over REST.
        where = home_of(survivor, guilds[2], secret)
        mark = fake.mark()
        for user, pick in (("alice", "pick2"), ("bob", "pick1")):
            dm = await fake.wait_for_dm(user, lambda m: any(c.endswith(f":{pick}") and decode(c).game_id == secret
                                                            for c in m.custom_ids()))
            handle = await fake.click_button(dm, next(c for c in dm.custom_ids() if c.endswith(f":{pick}")), user)
            assert handle.record.shard == 0 and ACCEPTED in await reply_text(handle)
        await fake.wait_for_message(where, lambda m: m.attachments, since=mark, timeout=10)
        assert sorted(a for _, a, _ in stored_actions(database, secret)) == ["pick1", "pick2"]

        # The victim comes back: its shards' games continue where they stopped.
        await victim.start()
        row = database.game_row(waiting)
        answer = await reply_text(await fake.send_slash(*place(guild), "alice", "game status", {"game_id": waiting}))
        assert f"#{waiting}" in answer and database.game_row(waiting)["version"] == row["version"]
        logs = [b.log.read_text() for b in bots]
    assert "Traceback" not in logs[0], logs[0][-3000:]
