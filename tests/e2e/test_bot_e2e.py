"""The real bot process against the local Discord stand-in (issue #3).

Each scenario starts ``python -m bot`` as a subprocess with a fresh SQLite file, pointed at the
in-process FakeDiscord by DISCORD_API_BASE. Run them alone with ``.venv/bin/python -m pytest tests/e2e``.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import re
import signal
import sqlite3
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from PIL import Image

from bot.discord_app.custom_ids import decode
from tests.e2e.coverage import COVERAGE
from tests.e2e.database import E2EDatabase, SqliteDatabase, stored_until
from tests.fake_clock import FakeClock
from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
STARTUP_TIMEOUT = 30.0


class BotProcess:
    """The bot as a child process; killable and restartable on the same database.

    ``shards=(count, ids)`` makes it one of several processes, holding shards ``ids`` of ``count``.
    ``database`` is the database the processes of a test share and its checks read (tests/e2e/database.py):
    by default the SQLite file ``db_path``; with a PostgreSQL one, ``db_path`` names the SQLite file
    that must never be created. A DATABASE_URL in the developer's own environment never leaks in."""

    def __init__(self, fake: FakeDiscord, db_path: Path, workdir: Path, log_level: str = "INFO", *,
                 shards: tuple[int, tuple[int, ...]] | None = None, name: str = "bot",
                 database: E2EDatabase | None = None, clock: FakeClock | None = None,
                 seed: int | None = None, env: dict[str, str] | None = None, root: Path = ROOT):
        self.fake, self.db_path, self.workdir, self.log_level = fake, db_path, workdir, log_level
        self.extra_env, self.root = dict(env or {}), root  # the benchmarks': another setting, another checkout
        self.clock, self.seed = clock, seed
        self.database = database or SqliteDatabase(db_path)
        self.shards = shards
        self.proc: asyncio.subprocess.Process | None = None
        self.log = workdir / f"{name}.log"

    @property
    def shard_ids(self) -> tuple[int, ...]:
        return self.shards[1] if self.shards else ()

    async def start(self) -> None:
        identified = self.fake.identify_count
        env = {k: v for k, v in os.environ.items()
               if k not in ("DISCORD_TOKEN", "DEV_GUILD_ID", "SHARD_COUNT", "SHARD_IDS", "SYNC_COMMANDS")}
        env.update(self.fake.env, GAME_PLUGINS="tests.fake_games,tests.fake_clock,tests.slow_ai,tests.fake_seed",
                   PYTHONPATH=str(self.root), LOG_LEVEL=self.log_level, SCHEDULER_INTERVAL_SECONDS="0.3",
                   WARM_SPRITES="0")  # a few seconds of CPU per start; tests/test_workers.py covers it
        env.update(DATABASE_URL="", DATABASE_PATH=str(self.db_path))
        env.update(self.database.bot_env())
        env.update(self.clock.env if self.clock else {"FAKE_CLOCK_FILE": ""})
        env.update(FAKE_SEED="" if self.seed is None else str(self.seed))  # tests/fake_seed.py
        env.update(self.extra_env)
        if self.shards:
            env.update(SHARD_COUNT=str(self.shards[0]), SHARD_IDS=",".join(map(str, self.shards[1])))
        log = open(self.log, "ab")
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=str(self.workdir), env=env, stdout=log, stderr=log,
            stdin=asyncio.subprocess.DEVNULL)
        log.close()
        await self.fake.wait_until(lambda: self.fake.identify_count > identified or self._dead(),
                                   timeout=STARTUP_TIMEOUT, what="the bot to identify")
        assert not self._dead(), self.log.read_text()
        await self.fake.wait_connected(timeout=STARTUP_TIMEOUT, shards=self.shard_ids or None)

    def _dead(self) -> bool:
        return self.proc is not None and self.proc.returncode is not None

    async def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()

    async def stop(self) -> None:
        if self.proc and self.proc.returncode is None:
            self.proc.terminate()
            try:
                await asyncio.wait_for(self.proc.wait(), 10)
            except asyncio.TimeoutError:
                self.proc.kill()
                await self.proc.wait()


@contextlib.asynccontextmanager
async def running_bot(tmp_path, log_level: str = "INFO", database: E2EDatabase | None = None,
                      clock: FakeClock | None = None, seed: int | None = None, **world):
    """The stand-in with ``world`` (users, closed DMs, server locale) and the bot connected to it, on
    ``database`` (the SQLite file ``games.sqlite3`` unless given), reading the time from ``clock``
    when given (tests/fake_clock.py) and setting every game up from ``seed`` when given
    (tests/fake_seed.py); afterwards, anything Discord would have refused fails the test."""
    fake = FakeDiscord(**world)
    await fake.start()
    bot = BotProcess(fake, tmp_path / "games.sqlite3", tmp_path, log_level=log_level, database=database,
                     clock=clock, seed=seed)
    await bot.start()
    await fake.wait_for_commands(timeout=STARTUP_TIMEOUT)
    try:
        yield fake, bot
    finally:
        await bot.stop()
        await fake.stop()
        COVERAGE.record(fake)
    if fake.violations:
        pytest.fail(f"Discord would have refused: {fake.violations}\n{bot.log.read_text()[-3000:]}")
    fail_on_images_that_do_not_read_back([bot])


def fail_on_images_that_do_not_read_back(bots: list[BotProcess]) -> None:
    """The bot reads back every PNG it writes (TABLETOP_CHECK_IMAGES, inherited from the tests); a
    failure there is logged and answered as an internal error, which a scenario may not look at."""
    failures = [line for bot in bots for line in bot.log.read_text().splitlines() if "ImageCheckError" in line]
    if failures:
        pytest.fail("the bot wrote PNGs that do not read back as their images:\n" + "\n".join(failures))


@pytest.fixture
async def world(tmp_path):
    async with running_bot(tmp_path, users=("alice", "bob", "carol"), dm_closed=("bob",), guild_locale="ja") as w:
        yield w


def uid(fake, name) -> int:
    return int(fake.user(name)["id"])


def log_rows(db_path: Path, game_id: int) -> list[tuple]:
    """(seat, user_id, action) of a game's log, from the SQLite file of a one-process scenario."""
    return [row[:3] for row in SqliteDatabase(db_path).actions(game_id)]


def home(bot, fake, game_id: int) -> int:
    """Where a game posts: its own thread (the default), or the channel when it has none."""
    return bot.database.game_row(game_id)["thread_id"] or fake.channel_id


def game_row(db_path: Path, game_id: int) -> dict:
    """A game's stored row, from the SQLite file of a one-process scenario."""
    return SqliteDatabase(db_path).game_row(game_id)


def is_board(message) -> bool:
    """A board post (its image is board.png), not an end-of-game recap (a .webp)."""
    return any(a.filename == "board.png" for a in message.attachments)


async def reply_text(handle) -> str:
    """The ephemeral answer to an interaction: after a defer, the first follow-up replaces it."""
    response = await handle.response()
    if response.type in (4, 7):
        return response.data.get("content", "")
    message = await handle.answer(timeout=10)
    return message.content


async def open_lobby(fake, creator="alice", game="squares", locale="en-US") -> tuple[int, object]:
    mark = fake.mark()
    h = await fake.send_slash(fake.guild_id, fake.channel_id, creator, "game new", {"game": game}, locale=locale)
    text = await reply_text(h)
    game_id = int(re.search(r"#(\d+)", text)[1])
    lobby = await fake.wait_for_message(
        fake.channel_id, lambda m: not m.ephemeral and m.custom_ids() and f"#{game_id}" in m.text(), since=mark)
    return game_id, lobby


async def start_two_player(fake, bot, game="squares") -> tuple[int, dict[int, str]]:
    """Alice opens, Carol joins by button, Alice starts. Returns the game id and seat -> user name."""
    game_id, lobby = await open_lobby(fake, game=game)
    join = next(c for c in lobby.custom_ids() if c.endswith(":join"))
    await reply_text(await fake.click_button(lobby, join, "carol"))
    lobby = fake.message(lobby.id)
    mark = fake.mark()
    start = next(c for c in lobby.custom_ids() if c.endswith(":start"))
    await reply_text(await fake.click_button(lobby, start, "alice"))
    board = await fake.wait_for_message(home(bot, fake, game_id), lambda m: m.attachments and not m.ephemeral,
                                        since=mark)
    first = int(re.search(r"<@(\d+)>", board.text().split("👉")[-1])[1])
    seats = {0: "alice" if first == uid(fake, "alice") else "carol"}
    seats[1] = "carol" if seats[0] == "alice" else "alice"
    return game_id, seats


async def latest_board(fake, bot, game_id: int, since: int | None = None):
    """The newest board with controls (an older one may not have lost its buttons yet)."""
    def is_board(m):
        return m.attachments and any(decode(c) and decode(c).game_id == game_id for c in m.custom_ids())
    await fake.wait_for_message(home(bot, fake, game_id), is_board, since=since)
    return [m for m in fake.messages(home(bot, fake, game_id)) if is_board(m) and (since is None or m.id > since)][-1]


async def play_by_button(fake, board, user: str, action: str) -> str:
    """Select the piece on the board, then press the action's button on the ephemeral answer."""
    select = next(c for c in board.custom_ids() if decode(c).kind == "g")
    group = action.split("@")[0] if "@" in action else action[:2]
    picker = await fake.select(board, select, [group], user)
    await picker.response()
    panel = await picker.answer(lambda m: m.custom_ids(), timeout=10)
    button = next(c for c in panel.custom_ids() if decode(c).arg == action)
    return await reply_text(await fake.click_button(panel, button, user))


async def post_as_bot(fake, custom_ids: list[str]):
    """A message carrying buttons the current bot never drew (as an older version might have)."""
    import aiohttp

    rows = [{"type": 1, "components": [{"type": 2, "style": 2, "label": str(i), "custom_id": c}]}
            for i, c in enumerate(custom_ids)]
    headers = {"Authorization": f"Bot {fake.env['DISCORD_TOKEN']}"}
    async with aiohttp.ClientSession() as session:
        async with session.post(f"{fake.api_base}/channels/{fake.channel_id}/messages", headers=headers,
                                json={"content": "legacy", "components": rows}) as response:
            assert response.status == 200, await response.text()
            return fake.message(int((await response.json())["id"]))


async def play_suggested(fake, bot, game_id: int, names: list[str], turns: int, pick=lambda choices: choices[0]):
    """For a number of turns: read whom the latest board waits on, ask /play's autocomplete for
    their legal actions, and play one. Returns the actions played."""
    played = []
    for _ in range(turns):
        boards = [m for m in fake.messages(home(bot, fake, game_id), include_ephemeral=False) if m.attachments]
        waiting = re.findall(r"<@(\d+)>", boards[-1].text().split("👉")[-1])
        if not waiting:
            break
        user = next(n for n in names if uid(fake, n) == int(waiting[0]))
        choices = await (await fake.autocomplete(fake.guild_id, fake.channel_id, user, "play", {"action": ""},
                                                 "action")).choices()
        assert choices, "autocomplete must offer the legal actions"
        action = pick(choices)["value"]
        answer = await play_by_command(fake, user, action)
        assert "✅" in answer, answer
        played.append((user, action))
        await board_shown(fake, bot, game_id)
    return played


async def board_shown(fake, bot, game_id: int) -> None:
    """Until the board of the game's latest version is in the channel (posted, or edited in place)."""
    def shown():
        row = bot.database.game_row(game_id)
        return row["posted_version"] >= row["version"]
    await stored_until(shown, f"game {game_id}'s board to be shown")


async def play_by_command(fake, user: str, action: str) -> str:
    return await reply_text(await fake.send_slash(fake.guild_id, fake.channel_id, user, "play", {"action": action}))


# A quick, legal SQUARESIV win for the first seat: three pieces walk into row 3 while the second
# seat only places pieces in its own back row.
FIRST_SEAT = ["N1@a2", "a2-a3", "M1@b2", "b2-b3", "P2@c2", "c2-c3"]
SECOND_SEAT = ["N1@e5", "M1@d5", "M2@c5", "T2@b5", "W3@e4"]


async def test_two_players_play_squaresiv_to_a_win(world, tmp_path):
    fake, bot = world
    game_id, seats = await start_two_player(fake, bot)
    played = []
    for turn in range(len(FIRST_SEAT) + len(SECOND_SEAT)):
        seat = turn % 2
        action = (FIRST_SEAT if seat == 0 else SECOND_SEAT)[turn // 2]
        mark = fake.mark()
        board = await latest_board(fake, bot, game_id)
        if turn % 3 == 0:
            answer = await play_by_command(fake, seats[seat], action)
        else:
            answer = await play_by_button(fake, board, seats[seat], action)
        assert action in answer, answer
        played.append((seat, uid(fake, seats[seat]), action))
        await fake.wait_for_message(home(bot, fake, game_id), lambda m: m.attachments, since=mark)
    final = [m for m in fake.messages(home(bot, fake, game_id)) if is_board(m)][-1]  # not the recap after it
    assert "🏆" in final.text() and str(uid(fake, seats[0])) in final.text()
    assert [decode(c).kind for c in final.custom_ids()] == ["r"]  # only "rematch" is left to press
    # The game ran in its own thread, with a pinned status message kept up to date.
    assert home(bot, fake, game_id) != fake.channel_id
    assert fake.requests_to("PUT", r"/pins/")
    status_id = game_row(bot.db_path, game_id)["status_message_id"]
    # ... edited after the last mover is answered (what only others see follows the answer)
    await fake.wait_until(lambda: "🏆" in fake.message(status_id).content, 10, "the status shows the winner")
    assert log_rows(bot.db_path, game_id) == played
    assert game_row(bot.db_path, game_id)["status"] == "finished"
    boards = [m for m in fake.messages(home(bot, fake, game_id)) if is_board(m)]
    assert len(boards) >= len(played) + 1
    for m in boards:
        image = Image.open(io.BytesIO(m.attachments[0].data))
        image.verify()
        assert image.format == "PNG" and image.size[0] >= 600
    # The loser asks for a rematch: the same seats, started at once, the winner moving second.
    mark = fake.mark()
    answer = await reply_text(await fake.click_button(final, final.custom_ids()[0], seats[1]))
    rematch_id = game_row(bot.db_path, game_id)["rematch_id"]
    assert rematch_id and f"#{rematch_id}" in answer and game_row(bot.db_path, rematch_id)["status"] == "active"
    await fake.wait_for_message(home(bot, fake, rematch_id), lambda m: m.attachments, since=mark)
    again = await reply_text(await fake.click_button(final, final.custom_ids()[0], seats[0]))
    assert again.startswith("⚠️") and f"#{rematch_id}" in again  # one rematch, however many ask
    # Public posts speak the server's language (ja); the players' own replies speak theirs (en).
    assert "手番" in boards[1].text() or "配置" in boards[1].text()


async def test_closed_dms_get_the_panel_by_ephemeral_fallback(world):
    fake, bot = world
    game_id, lobby = await open_lobby(fake, game="secretpick")
    join = next(c for c in lobby.custom_ids() if c.endswith(":join"))
    answer = await reply_text(await fake.click_button(lobby, join, "bob"))
    assert "DMs are closed" in answer  # probed on joining
    mark = fake.mark()
    start = next(c for c in fake.message(lobby.id).custom_ids() if c.endswith(":start"))
    await reply_text(await fake.click_button(fake.message(lobby.id), start, "alice"))
    alice_dm = await fake.wait_for_dm("alice")
    assert alice_dm.attachments and {decode(c).arg for c in alice_dm.custom_ids()} == {"pick1", "pick2", "pick3"}
    notice = await fake.wait_for_message(
        home(bot, fake, game_id), lambda m: str(uid(fake, "bob")) in m.text() and m.custom_ids()
        and decode(m.custom_ids()[0]).kind == "p", since=mark)
    panel_handle = await fake.click_button(notice, notice.custom_ids()[0], "bob")
    await panel_handle.response()
    panel = await panel_handle.answer(timeout=10)
    assert panel.ephemeral and {decode(c).arg for c in panel.custom_ids()} == {"pick1", "pick2", "pick3"}
    # Bob picks through his ephemeral panel, Alice through her DM; the channel never sees the picks.
    await reply_text(await fake.click_button(panel, next(c for c in panel.custom_ids() if c.endswith("pick2")),
                                             "bob"))
    await reply_text(await fake.click_button(alice_dm, next(c for c in alice_dm.custom_ids()
                                                            if c.endswith("pick3")), "alice"))
    public = [m.text() for m in fake.messages(home(bot, fake, game_id), include_ephemeral=False)]
    revealed = [c for c in public if "3" in c and "2" in c and ("Revealed" in c or "公開" in c)]
    assert revealed, public
    hidden_phase = [c for c in public[:-1] if "pick" in c]
    assert not hidden_phase
    assert [a for _, _, a in log_rows(bot.db_path, game_id)] == ["pick2", "pick3"]


async def test_sigkill_mid_game_loses_nothing(world):
    fake, bot = world
    game_id, seats = await start_two_player(fake, bot)
    await play_by_command(fake, seats[0], "N1@a2")
    board = await latest_board(fake, bot, game_id)
    await play_by_button(fake, board, seats[1], "N1@e5")
    old_board = await latest_board(fake, bot, game_id)  # seat 0's turn: its buttons were drawn before the kill
    await bot.kill()
    before = log_rows(bot.db_path, game_id)
    await bot.start()
    # The old board's button works on the new process, and /play continues the game.
    await play_by_button(fake, old_board, seats[0], "a2-a3")
    await play_by_command(fake, seats[1], "M1@d5")
    after = log_rows(bot.db_path, game_id)
    assert after[: len(before)] == before and [a for _, _, a in after] == ["N1@a2", "N1@e5", "a2-a3", "M1@d5"]


async def test_same_button_twice_and_two_users_at_once_apply_once(world):
    fake, bot = world
    game_id, seats = await start_two_player(fake, bot)
    board = await latest_board(fake, bot, game_id)
    select = next(c for c in board.custom_ids() if decode(c).kind == "g")
    picker = await fake.select(board, select, ["N1"], seats[0])
    panel = await picker.answer(lambda m: m.custom_ids(), timeout=10)
    button = next(c for c in panel.custom_ids() if decode(c).arg == "N1@a2")
    mark = fake.mark()
    answers = await asyncio.gather(*[reply_text(await fake.click_button(panel, button, seats[0]))
                                     for _ in range(2)])
    assert sum("N1@a2" in a and "✅" in a for a in answers) == 1
    assert sum("out of date" in a for a in answers) == 1
    # Now seat 1 is to act: seat 1 presses its action while seat 0 grabs the public board's menu.
    board = await latest_board(fake, bot, game_id, since=mark)
    select = next(c for c in board.custom_ids() if decode(c).kind == "g")
    picker = await fake.select(board, select, ["N1"], seats[1])
    panel = await picker.answer(lambda m: m.custom_ids(), timeout=10)
    button = next(c for c in panel.custom_ids() if decode(c).arg == "N1@e5")
    both = await asyncio.gather(reply_text(await fake.click_button(panel, button, seats[1])),
                                reply_text(await fake.select(board, select, ["N4"], seats[0])))
    # Seat 0 is refused either way: not their turn, or (once seat 1's move landed) an old board.
    assert "✅" in both[0] and both[1].startswith("⚠️") and ("turn" in both[1] or "out of date" in both[1]), both
    assert [a for _, _, a in log_rows(bot.db_path, game_id)] == ["N1@a2", "N1@e5"]


async def test_bad_payloads_get_clear_answers_and_change_nothing(world):
    fake, bot = world
    game_id, seats = await start_two_player(fake, bot)
    before = game_row(bot.db_path, game_id)
    legacy = await post_as_bot(fake, ["tt:a:999999:1:T2@b2", "legacy-v0:join:7", f"tt:a:{game_id}:1:N1@a2"])
    answers = [
        await reply_text(await fake.click_button(legacy, "tt:a:999999:1:T2@b2", seats[0])),  # no such game
        await reply_text(await fake.click_button(legacy, "legacy-v0:join:7", seats[0])),  # an old bot's id
        await reply_text(await fake.click_button(legacy, f"tt:a:{game_id}:1:N1@a2", "bob")),  # not a player
        await play_by_command(fake, "bob", "N1@a2"),  # bob is not in the game
        await reply_text(await fake.send_slash(fake.guild_id, fake.channel_id, seats[0], "play",
                                               {"action": "💥' OR 1=1 --"})),
        await reply_text(await fake.send_slash(fake.guild_id, fake.channel_id, seats[0], "game new",
                                               {"game": "squares", "options": "cap=banana"})),
        await reply_text(await fake.send_slash(fake.guild_id, fake.channel_id, seats[0], "play",
                                               {"action": "N1@a2", "game_id": 424242})),
    ]
    for answer in answers:
        assert answer.startswith("⚠️"), answer
    assert game_row(bot.db_path, game_id) == before
    # ... and the bot keeps serving.
    assert "✅" in await play_by_command(fake, seats[0], "N1@a2")


async def test_a_passed_deadline_lets_the_stand_in_play(world):
    fake, bot = world
    game_id, seats = await start_two_player(fake, bot)
    where = home(bot, fake, game_id)
    mark = fake.mark()
    # Three days go by without a move: we move the stored deadline into the past, as time would.
    with sqlite3.connect(bot.db_path) as db:
        db.execute("UPDATE games SET deadline_at = '2026-01-01T00:00:00+00:00' WHERE id = ?", (game_id,))
    post = await fake.wait_for_message(where, lambda m: m.attachments and "🤖" in m.text(), since=mark, timeout=10)
    assert str(uid(fake, seats[0])) in post.text()  # names the absent player
    rows = log_rows(bot.db_path, game_id)
    assert len(rows) == 1 and rows[0][0] == 0 and rows[0][1] is None  # played by the stand-in, seat 0
    assert str(uid(fake, seats[1])) in post.text().split("👉")[-1]  # and now it is seat 1's turn
    with sqlite3.connect(bot.db_path) as db:
        absences = db.execute("SELECT absences FROM seats WHERE game_id = ? AND seat = 0", (game_id,)).fetchone()
    assert absences == (1,)
    # The game goes on normally: the other player answers with /play.
    board = await latest_board(fake, bot, game_id, since=mark)  # the old board is stale now
    assert "✅" in await play_by_button(fake, board, seats[1], "N1@e5")


async def test_dm_reminder_when_it_becomes_your_turn(world):
    fake, bot = world
    answer = await reply_text(await fake.send_slash(fake.guild_id, fake.channel_id, "carol", "game settings",
                                                    {"dm_reminders": True}))
    assert "DM" in answer
    game_id, seats = await start_two_player(fake, bot)
    if seats[0] == "alice":  # otherwise Carol's turn came at the start
        await play_by_command(fake, "alice", "N1@a2")
    dm = await fake.wait_for_dm("carol", lambda m: "your turn" in m.content)
    assert f"#{game_id}" in dm.content and f"/channels/{fake.guild_id}/" in dm.content


async def test_no_token_reaches_the_log_even_at_debug(tmp_path):
    """Interaction tokens are 15-minute reply credentials; discord.py logs them at DEBUG."""
    async with running_bot(tmp_path, log_level="DEBUG", token="Bot-token-for-the-log-test") as (fake, bot):
        game_id, lobby = await open_lobby(fake)
        join = next(c for c in lobby.custom_ids() if c.endswith(":join"))
        await reply_text(await fake.click_button(lobby, join, "bob"))
        await reply_text(await fake.send_slash(fake.guild_id, fake.channel_id, "bob", "game status",
                                               {"game_id": game_id}))
    log = bot.log.read_text()
    assert "DEBUG" in log and "INTERACTION_CREATE" in log  # the debug lines are there, redacted
    tokens = [record.token for record in fake.interactions.values()]
    assert len(tokens) >= 3
    assert not [t for t in tokens if t in log]
    assert "Bot-token-for-the-log-test" not in log


async def test_a_waiting_games_thread_is_kept_open(world):
    """Discord archives a thread after 7 idle days; a game may wait for weeks (vacations, no deadline)."""
    fake, bot = world
    game_id, _ = await start_two_player(fake, bot)
    thread_id = game_row(bot.db_path, game_id)["thread_id"]
    assert thread_id
    thread = fake._channels[thread_id]

    def reopened():
        return [r for r in fake.requests if r.method == "PATCH" and r.path == f"/channels/{thread_id}"
                and (r.json or {}).get("archived") is False]

    def touched_at():
        return game_row(bot.db_path, game_id)["thread_touched_at"]

    # A mark no write of the bot's can leave (a day ago: not idle enough to be touched for it).
    marked = (datetime.now(timezone.utc) - timedelta(days=1)).isoformat(timespec="seconds")
    with sqlite3.connect(bot.db_path) as db:
        db.execute("UPDATE games SET thread_touched_at = ? WHERE id = ?", (marked, game_id))
    # Discord archives it: the bot hears of it and opens it again.
    thread["thread_metadata"]["archived"] = True
    await fake.dispatch_event("THREAD_UPDATE", fake._channel_public(thread))
    await fake.wait_until(lambda: not thread["thread_metadata"]["archived"], timeout=10,
                          what="the bot to unarchive its game's thread")
    assert len(reopened()) == 1
    await stored_until(lambda: touched_at() != marked, "the bot to record that touch before we age it")
    # Days pass without a post: the scheduler touches the thread before Discord would archive it.
    with sqlite3.connect(bot.db_path) as db:
        db.execute("UPDATE games SET thread_touched_at = '2026-01-01T00:00:00+00:00' WHERE id = ?", (game_id,))
    await fake.wait_until(lambda: len(reopened()) == 2, timeout=10, what="the scheduler to touch the idle thread")
    assert game_row(bot.db_path, game_id)["thread_touched_at"] > "2026-01-01"


async def test_an_ai_player_added_from_the_lobby_menu_plays_at_its_level(world):
    fake, bot = world
    game_id, lobby = await open_lobby(fake)
    menu = next(c for c in lobby.custom_ids() if c.endswith(":ai"))
    answer = await reply_text(await fake.select(lobby, menu, ["hard"], "alice"))
    assert f"#{game_id}" in answer
    assert json.loads(game_row(bot.db_path, game_id)["settings"])["ai_levels"] == {"-1": "hard"}
    lobby = fake.message(lobby.id)
    assert "AI 1" in lobby.content
    start = next(c for c in lobby.custom_ids() if c.endswith(":start"))
    await reply_text(await fake.click_button(lobby, start, "alice"))
    await fake.wait_until(lambda: game_row(bot.db_path, game_id)["status"] == "active", timeout=10)
    row = game_row(bot.db_path, game_id)
    ai_seat = next(s for s, u in seats_of(bot, game_id) if u == -1)
    if ai_seat == 0:  # the AI moved first, at once, in a worker process
        assert log_rows(bot.db_path, game_id)[0][1] is None
    assert row["status"] == "active"


def seats_of(bot, game_id: int) -> list[tuple[int, int]]:
    with sqlite3.connect(bot.db_path) as db:
        return db.execute("SELECT seat, user_id FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)).fetchall()


async def test_the_lobby_invites_with_a_user_picker_and_the_creator_removes_seats(world):
    fake, bot = world
    game_id, lobby = await open_lobby(fake, game="osu")
    invite = next(c for c in lobby.custom_ids() if c.endswith(":invite"))
    mark = fake.mark()
    answer = await reply_text(await fake.select(lobby, invite, [uid(fake, "bob"), uid(fake, "carol")], "alice"))
    assert f"#{game_id}" in answer
    ping = await fake.wait_for_message(fake.channel_id, lambda m: "📨" in m.content, since=mark)
    assert str(uid(fake, "bob")) in ping.content and str(uid(fake, "carol")) in ping.content
    join = next(c for c in lobby.custom_ids() if c.endswith(":join"))
    await reply_text(await fake.click_button(fake.message(lobby.id), join, "bob"))
    menu = next(c for c in fake.message(lobby.id).custom_ids() if c.endswith(":ai"))
    await reply_text(await fake.select(fake.message(lobby.id), menu, ["easy"], "alice"))
    assert [u for _, u in seats_of(bot, game_id)] == [uid(fake, "alice"), uid(fake, "bob"), -1]
    remove = next(c for c in fake.message(lobby.id).custom_ids() if c.endswith(":remove"))
    refused = await reply_text(await fake.select(fake.message(lobby.id), remove, ["1"], "bob"))
    assert refused.startswith("⚠️")  # only the creator removes seats
    await reply_text(await fake.select(fake.message(lobby.id), remove, ["2"], "alice"))  # the AI
    assert [u for _, u in seats_of(bot, game_id)] == [uid(fake, "alice"), uid(fake, "bob")]
    leave = next(c for c in fake.message(lobby.id).custom_ids() if c.endswith(":leave"))
    assert f"#{game_id}" in await reply_text(await fake.click_button(fake.message(lobby.id), leave, "bob"))
    assert [u for _, u in seats_of(bot, game_id)] == [uid(fake, "alice")]
