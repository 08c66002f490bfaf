"""What the benchmarks that run the real bot against the local Discord stand-in share (issue #33).

The bot is ``tests/e2e``'s :class:`BotProcess` (``python -m bot`` as a child process) and the
stand-in is ``tests/fakediscord``'s :class:`FakeDiscord`, serving on loopback inside the benchmark's
own process. Here: the bot's process tree and its CPU and memory (read from ``/proc``, Linux only),
the stand-in's payload checks switched off for timing, and :class:`TimedGame`, one game played by
scripted people, each action timed from the interaction sent until its reply has arrived and the
board it led to is posted (or the bot has marked that nothing was to be posted).
"""

from __future__ import annotations

import json
import os
import random
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.discord_app.custom_ids import decode  # noqa: E402
from games import get_game  # noqa: E402

ACCEPTED = "✅"
KINDS = ("squares", "arena", "osu", "hostile", "monsterhunter")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_KIB = os.sysconf("SC_PAGE_SIZE") // 1024


# ---- processes ---------------------------------------------------------------------------------
def _stat(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2:].split()  # fields from the state on (the name may hold spaces)


def children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat(int(entry))) is not None and int(fields[1]) == pid:
            found.append(int(entry))
    return found


def tree(pid: int) -> list[int]:
    """``pid`` and every process below it (the bot, its fork server, its workers)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo += children(p)
    return out


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU of these processes so far (a process gone meanwhile counts nothing)."""
    total = 0
    for pid in pids:
        if (fields := _stat(pid)) is not None:
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / CLOCK_TICKS


def rss_mib(pid: int) -> float:
    try:
        return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE_KIB / 1024
    except OSError:
        return float("nan")


def pss_mib(pid: int) -> float:
    """Proportional set size: pages shared with other processes (a worker's with its fork server)
    count a share each, so the figures of a process tree add up to its real memory."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def roles(bot_pid: int) -> dict[str, list[int]]:
    """The bot's processes by role: the main process, the fork server, the drawing/AI workers."""
    servers = children(bot_pid)
    workers = [w for s in servers for w in children(s)]
    forkservers = [s for s in servers if children(s)]
    return {"main": [bot_pid], "forkserver": forkservers, "workers": workers}


def memory_line(bot_pid: int) -> str:
    """Resident and (in brackets) proportional MiB of the bot's main process, fork server and workers."""
    r = roles(bot_pid)

    def each(pids: list[int]) -> str:
        return " ".join(f"{rss_mib(p):.0f} ({pss_mib(p):.0f})" for p in pids) or "-"
    total = sum(pss_mib(p) for p in [bot_pid, *r["forkserver"], *r["workers"]])
    return (f"resident (proportional) MiB: main {each([bot_pid])}, fork server {each(r['forkserver'])}, "
            f"workers {each(r['workers'])}; proportional total {total:.0f}")


def checks_off() -> None:
    """Skip the stand-in's payload checks (the bot's payloads are checked by the e2e tests): they
    are the stand-in's own CPU, which shares the machine's two cores with the bot."""
    from tests.fakediscord import validate

    validate.message_problems = lambda *args, **kwargs: []
    validate.attachment_reference_problems = lambda *args, **kwargs: []


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else float("nan")


# ---- one game ----------------------------------------------------------------------------------
class TimedGame:
    """One game in its own channel, played by two people of its own: each action is a click on a
    button of the board (or, in games with secrets, of the player's DM panel), a choice in its menu
    and then a button of the private picker it opens, or a typed ``/play``, at random."""

    def __init__(self, fake, database, kind: str, place: tuple[int, int], users: list[str], seed: int,
                 clicks: float = 0.5):
        self.fake, self.database, self.kind = fake, database, kind
        self.clicks = clicks  # the share of actions made with the controls (a button, or a menu and a picker)
        (self.guild_id, self.channel_id), self.users = place, users
        self.game = get_game(kind)
        self.rng = random.Random(seed)
        self.game_id: int | None = None
        self.by_id = {int(fake.user(u)["id"]): u for u in users}
        self.refusals: list[str] = []  # what the bot answered to actions it refused
        self.board_posted = False  # whether the last action posted a new board in the channel

    async def answer(self, handle) -> str:
        response = await handle.response()
        if response.type in (4, 7):
            return response.data.get("content", "")
        return (await handle.answer(timeout=60)).content

    async def slash(self, user: str, name: str, options: dict) -> str:
        return await self.answer(await self.fake.send_slash(self.guild_id, self.channel_id, user, name, options))

    async def open(self) -> None:
        """Lobby, join, start; returns once the first board is posted."""
        text = await self.slash(self.users[0], "game new", {"game": self.kind, "thread": False})
        self.game_id = int(re.search(r"#(\d+)", text)[1])
        for user in self.users[1:]:
            await self.slash(user, "game join", {"game_id": self.game_id})
        await self.slash(self.users[0], "game start", {"game_id": self.game_id})
        await self.posted()

    def row(self) -> dict:
        return self.database.game_row(self.game_id)

    async def posted(self, since: int | None = None) -> bool:
        """Until the game's newest version is posted: a new board message in its channel since
        ``since`` (messages counted; then True), or the bot's mark that it delivered that version."""
        def new_board() -> bool:
            messages = self.fake._channel_messages.get(self.channel_id, [])
            return since is not None and any(m.attachments for m in messages[since:])
        while True:
            if new_board():
                return True
            row = self.row()
            if row["posted_version"] >= row["version"]:
                return new_board()
            try:  # woken by the stand-in as soon as a message arrives; else look at the row again
                await self.fake.wait_until(new_board, timeout=0.05)
                return True
            except TimeoutError:
                pass

    async def through_menu(self, message, menu: str, user: str) -> str:
        """Choose at random in a menu, then in the menus of the private pickers that follow, until a
        button of an action: its answer (a menu may also complete an action by itself)."""
        for _ in range(4):
            component = message.component(menu)
            picker = await self.fake.select(message, menu, [self.rng.choice([o["value"] for o in component["options"]])], user)
            message = await picker.answer(timeout=60)
            if ACCEPTED in message.content:
                return message.content
            ids = [c for c in message.custom_ids() if decode(c)]
            if buttons := [c for c in ids if decode(c).kind == "a"]:
                return await self.answer(await self.fake.click_button(message, self.rng.choice(buttons), user))
            if not (menus := [c for c in ids if decode(c).kind == "g"]):
                return message.content
            menu = self.rng.choice(menus)
        return message.content

    def panel(self, user: str, row: dict):
        """The message whose buttons this player may click: their newest DM panel of this game in a
        game with secrets, else the board."""
        if self.game.hidden_information:
            for message in reversed(self.fake.dms(user)):
                if any((r := decode(c)) and r.game_id == self.game_id for c in message.custom_ids()):
                    return message
            return None
        return self.fake.message(row["board_message_id"]) if row["board_message_id"] else None

    async def act(self) -> tuple[float, str] | None:
        """One action: (seconds until its board is posted, "ok" | "refused" | "error"), or None
        once the game is over."""
        row = self.row()
        if row["status"] != "active":
            return None
        state = json.loads(row["state"])
        seats = dict(self.database.seats(self.game_id))
        seat = self.rng.choice(sorted(self.game.to_act(state)))
        user = self.by_id[seats[seat]]
        panel = self.panel(user, row)
        # Only buttons drawn for the game's current version: a DM panel of a step that has moved on
        # (the script cannot tell which step a panel belongs to) is left for /play.
        current = [c for c in (panel.custom_ids() if panel else [])
                   if (r := decode(c)) and r.game_id == self.game_id and r.version == row["version"]]
        buttons = [c for c in current if decode(c).kind == "a"]
        menus = [c for c in current if decode(c).kind == "g"]
        before = len(self.fake._channel_messages.get(self.channel_id, []))
        start = time.perf_counter()
        way = self.rng.random()
        try:
            if buttons and way < self.clicks:
                handle = await self.fake.click_button(panel, self.rng.choice(buttons), user)
                text = await self.answer(handle)
            elif menus and way < self.clicks:  # a menu's choice, then a button of the private picker
                text = await self.through_menu(panel, self.rng.choice(menus), user)
            else:
                action = self.rng.choice(self.game.legal_actions(state, seat))
                text = await self.slash(user, "play", {"action": action, "game_id": self.game_id})
            if ACCEPTED not in text:
                self.refusals.append(text)
                return time.perf_counter() - start, "refused"
            self.board_posted = await self.posted(since=before)
        except Exception:  # a timeout or an unanswered interaction: counted, and the run goes on
            return time.perf_counter() - start, "error"
        return time.perf_counter() - start, "ok"


def make_world(games: int, shards: int | None = None, **options):
    """A stand-in with one channel (a (guild, channel) place) and two people per game, enforcing
    Discord's rate limits (tests/fakediscord/ratelimits.py); with ``shards``, the games' servers
    spread over that many shards, one server each."""
    from tests.fakediscord import FakeDiscord

    from tests.fakediscord.ratelimits import GLOBAL_RATE_LIMIT, REALISTIC_RATE_LIMITS

    users = [f"u{i:03d}" for i in range(2 * games)]
    options = {"rate_limits": REALISTIC_RATE_LIMITS, "global_rate_limit": GLOBAL_RATE_LIMIT} | options
    fake = FakeDiscord(users=users, response_deadline=30.0, token_lifetime=3600, **options)
    guilds = [fake.guild_id] if shards is None else \
        [fake.add_guild(f"server {s}", shard=(s, shards), members=users)["id_int"] for s in range(shards)]
    places = []
    for i in range(games):
        guild = guilds[i % len(guilds)]
        places.append((guild, int(fake.add_channel(guild, f"table-{i}")["id"])))
    return fake, users, places


def tables(fake, database, users: list[str], places: list[tuple[int, int]], games: int, seed: int = 1,
           clicks: float = 0.5) -> list[TimedGame]:
    """``games`` games, every kind in turn; ``clicks``: the share of actions made with the controls."""
    return [TimedGame(fake, database, KINDS[i % len(KINDS)], places[i], users[2 * i:2 * i + 2], seed * 1000 + i,
                      clicks) for i in range(games)]


def pin(pids: list[int], core: int) -> None:
    """Keep these processes on one core (their children forked later inherit it)."""
    for pid in pids:
        try:
            os.sched_setaffinity(pid, {core})
        except OSError:  # gone meanwhile
            pass
