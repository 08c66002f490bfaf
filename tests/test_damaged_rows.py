"""A stored game damaged one field at a time costs no other game anything (issue #29, part 2).

For each game, on each backend: a healthy game and a game to damage are started side by side (one
player in both, one spectator following both, one thread), and a baseline scenario is recorded on
the undamaged database: a scheduler tick past half the deadline (reminders, follower notices,
reposts, threads kept open), the dashboards, a tick past the deadline (the stand-in plays), a
vacation and one more tick. Then, for every column of the ``games`` table and every top-level key
of the settings and state (each set to a wrong type, to garbage text, to NULL), and for the seat
rows deleted, the database is put back, that one field of the other game is damaged in place, and
the scenario runs again: everything about the healthy game must come out exactly as in the
baseline, and the damaged game is either untouched by its damage or set aside, logged once.

A damage the database itself refuses (a NULL in a NOT NULL column, text in a PostgreSQL integer
column) cannot exist, and is passed over. The settings and state are JSON text that either backend
hands to the same decoding, so their keys are damaged on SQLite only; columns and seat rows, stored
differently, on both. The cases of one game run in one test, restoring a snapshot of the database
between them, so the whole matrix takes seconds rather than minutes.

Then every entry point that reads one stored game (issue #40, part 4): for each game, its state
damaged key by key (missing, of a wrong type, its lists cut short), its log (an entry garbled, lost,
or by a seat that does not exist), its options and seed, each of ``/game history``, ``/game replay``,
``/game export``, ``/game status``, the panel and the action suggestions either reads the game
untroubled or sets it aside like the others: the clear answer in both languages (what is wrong and
what an admin can do, never "try again"), logged once, and nothing stored changed but the flag.
Ending such a game (``/game abandon``, the way out the answer names), its rematch, its recap, an
undo and a tournament's announcement of its round are checked one by one after that.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections import Counter
from datetime import datetime, timedelta, timezone

import pytest

from bot.i18n import render
from bot.service.scheduler import Scheduler
from bot.service import GameHost, ServiceError, Where, make_settings
from bot.storage.sqlite import Store, _split_sql
from games import all_games, get_game
from tests.conftest import SqliteBackend

ALICE, BOB, CAROL, SPECTATOR = 111, 222, 333, 444
GUILD, CHANNEL, THREAD = 1, 5, 7001
START = datetime(2026, 11, 21, 9, 0, tzinfo=timezone.utc)
LONG_IDLE = "2026-11-01T00:00:00+00:00"  # the thread has been quiet long enough to be kept open


def game_columns() -> list[tuple[str, str, bool]]:
    """(name, declared type, may be NULL) of every column of the games table, as migrated."""
    scratch = sqlite3.connect(":memory:")
    for _, sql in Store.migrations():
        for statement in _split_sql(sql):
            scratch.execute(statement)
    return [(r[1], r[2], not r[3] and not r[5]) for r in scratch.execute("PRAGMA table_info(games)")]


JSON_COLUMNS = {"options", "settings", "state"}
TEXT = "garbage ✗ 壊れた"


def column_damages(name: str, kind: str, nullable: bool) -> list[tuple[str, object]]:
    """(how, value) for one column: a wrong type, garbage text, NULL."""
    if name in JSON_COLUMNS:
        wrong = "[1, 2]"  # valid JSON, but not an object
    elif kind == "INTEGER":
        wrong = 2.5
    else:
        wrong = b"\x00\xff"  # a BLOB where text belongs
    out = [("wrong type", wrong), ("garbage", "{not json" if name in JSON_COLUMNS else TEXT)]
    return out + ([("null", None)] if nullable else [])


def key_damages(value) -> list[tuple[str, object]]:
    """(how, value) for one top-level JSON key: a wrong type, garbage text, null."""
    wrong = [1, 2] if isinstance(value, (str, dict)) or value is None else {"not": "this"}
    return [("wrong type", wrong), ("garbage", TEXT), ("null", None)]


class Clock:
    def __init__(self):
        self.now = START

    def __call__(self) -> datetime:
        return self.now


class Raw:
    """The database under the store, as an operator's SQL session sees it."""

    def __init__(self, backend):
        self.backend = backend
        self.tables: list[str] = []
        self.db = None
        if backend.name == "sqlite":  # one session, not syncing to disk: restored hundreds of times
            self.db = sqlite3.connect(backend.target, isolation_level=None)
            self.db.execute("PRAGMA synchronous = OFF")

    def close(self) -> None:
        if self.db is not None:
            self.db.close()

    async def execute(self, sql: str, *args) -> None:
        if self.db is not None:
            self.db.execute(sql, args)
        else:
            await self.backend.execute(sql, *args)

    async def script(self, sql: str) -> None:
        if self.db is not None:
            self.db.executescript(f"BEGIN; {sql} COMMIT;")
        else:
            await self.backend.script(f"BEGIN; SET LOCAL synchronous_commit = off; {sql} COMMIT;")

    async def value(self, sql: str, *args):
        if self.db is not None:
            found = self.db.execute(sql, args).fetchone()
            return None if found is None else found[0]
        await self.backend.admin.execute(f"SET search_path = {self.backend.schema}")
        count = iter(range(1, len(args) + 1))
        return await self.backend.admin.fetchval("".join(f"${next(count)}" if c == "?" else c for c in sql), *args)

    async def snapshot(self) -> None:
        tables = sorted(t for t in await self.backend.tables() if t not in ("sqlite_sequence", "schema_version"))
        self.tables = sorted(tables, key=lambda t: (t != "games", t != "undo_requests"))  # parents first
        await self.script("".join(f"CREATE TABLE snap_{t} AS SELECT * FROM {t};" for t in self.tables))

    async def rows(self) -> dict[str, list[str]]:
        """Every stored row, table by table, but a game's set-aside flag (``broken_at``, ``broken_reason``)."""
        out = {}
        for table in self.tables:
            if self.db is not None:
                cursor = self.db.execute(f"SELECT * FROM {table}")
                names, rows = [d[0] for d in cursor.description], cursor.fetchall()
            else:
                await self.backend.admin.execute(f"SET search_path = {self.backend.schema}")
                records = await self.backend.admin.fetch(f"SELECT * FROM {table}")
                names, rows = (list(records[0].keys()) if records else []), [tuple(r) for r in records]
            kept = [i for i, name in enumerate(names) if name not in ("broken_at", "broken_reason")]
            out[table] = sorted(repr(tuple(row[i] for i in kept)) for row in rows)
        return out

    async def restore(self) -> None:
        wipe = "".join(f"DELETE FROM {t};" for t in reversed(self.tables))  # children first
        await self.script(wipe + "".join(f"INSERT INTO {t} SELECT * FROM snap_{t};" for t in self.tables))


class Seen:
    """What the scheduler handed on, kept for the game it is about."""

    def __init__(self, host, game_id: int):
        self.host, self.game_id = host, game_id
        self.items: list = []

    async def deliver(self, outbox) -> None:
        for post in outbox.posts:
            if post.board_version is not None:  # as the adapter records a board it posted
                await self.host.store.mark_posted(post.game_id, post.board_version, 1)
            if post.game_id == self.game_id:
                self.items.append(("post", post.channel_id, lines(post.lines), sorted(post.mentions),
                                   post.board_version, post.image))
        for private in outbox.privates:
            if private.game_id == self.game_id:
                self.items.append(("private", private.user_id, lines(private.lines)))

    async def remind(self, reminders) -> None:
        for r in reminders:
            if self.game_id in r.game_ids:
                i = r.game_ids.index(self.game_id)
                self.items.append(("reminder", r.user_id, r.channel_id, lines([r.lines[1 + i]]), r.deadlines[i],
                                   r.dm, r.lang))

    async def notify(self, notices) -> None:
        for n in notices:
            if self.game_id in n.game_ids:
                line = n.lines[1 + n.game_ids.index(self.game_id)]
                self.items.append(("notice", n.user_id, n.channel_id, lines([line]), n.dm, n.lang))

    async def keep_open(self, thread_id: int) -> bool:
        if thread_id == THREAD:  # (a damaged thread id may name another thread)
            self.items.append(("thread kept open", thread_id))
        return True

    def taken(self) -> list:
        items, self.items = sorted(self.items, key=repr), []
        return items


def lines(texts) -> list[str]:
    return [render("en", t) for t in texts]


def about(texts, game_id: int) -> list[str]:
    return [render("en", t) for t in texts if getattr(t, "params", {}).get("id") == game_id]


async def stored(host, game_id: int) -> tuple:
    row = await host.store.load(game_id)
    actions = [(a.n, a.seat, a.user_id, a.action, a.version, a.at, a.stand_in) for a in await host.store.actions(game_id)]
    return (row.status, row.version, json.dumps(row.state, sort_keys=True), json.dumps(row.settings, sort_keys=True),
            row.deadline_at, row.turn_started_at, row.reminded, row.broken_reason, row.seats, actions,
            await host.store.followers(game_id))


async def scenario(host, clock: Clock, healthy: int, other: int) -> dict:
    """Everything shared features do about ``healthy`` over a day and a half."""
    seen = Seen(host, healthy)
    scheduler = Scheduler(host, seen.deliver, seen.remind, keep_thread_open=seen.keep_open,
                          notify_followers=seen.notify)
    out: dict = {}
    clock.now = START + timedelta(hours=13)  # past half the deadline: reminders
    await scheduler.tick()
    out["first tick"] = seen.taken()
    out["list"] = about(await host.list_lines(GUILD, ALICE), healthy)
    out["mine"] = about(await host.mine_lines(ALICE), healthy) + about(await host.mine_lines(BOB), healthy)
    out["summaries"] = [s for s in await host.summaries([healthy, other]) if s.id == healthy]
    # The results table; the server's time-to-act lines pool every game of the server, the damaged
    # one included, and a game whose server id is damaged rightly leaves that pool.
    out["stats"] = results_part(lines(await host.stats_lines(GUILD, ALICE)))
    out["leaderboard"] = lines(await host.leaderboard_lines(GUILD, ALICE))
    out["row after the first tick"] = await stored(host, healthy)
    clock.now = START + timedelta(hours=25)  # past the deadline: the stand-in plays
    await scheduler.tick()
    out["second tick"] = seen.taken()
    out["row after the deadline"] = await stored(host, healthy)
    out["vacation"] = about((await host.vacation(ALICE, 2)).reply, healthy)
    clock.now = START + timedelta(hours=26)
    await scheduler.tick()
    out["third tick"] = seen.taken()
    out["row at the end"] = await stored(host, healthy)
    return out


async def started(host, game: str, users: tuple[int, ...]) -> int:
    row, _ = await host.create(game, None, guild_id=GUILD, channel_id=CHANNEL, user_id=users[0], locale="en",
                               settings=make_settings(deadline="24h"))
    for u in users[1:]:
        await host.join(row.id, u)
    await host.start(row.id, users[0])
    return row.id


async def next_turn(host, game_id: int) -> None:
    """Act for whoever must until a new wait begins, so the spectator has a turn to hear of."""
    row = await host.store.load(game_id)
    turn, game = row.settings["turn_from"], get_game(row.game)
    while row.settings["turn_from"] == turn:
        seat = min(game.to_act(row.state))
        await host.act(game_id, row.user_of(seat), game.legal_actions(row.state, seat)[0])
        row = await host.store.load(game_id)


async def two_games(host, raw: Raw, game: str) -> tuple[int, int]:
    """A finished game (for stats and ratings), then the healthy game and the one to damage."""
    finished = await started(host, game, (ALICE, BOB))
    await host.resign(finished, ALICE)
    row = await host.store.load(finished)
    await host.store.mark_posted(finished, row.version, 1)  # its board is out: only the two others matter
    healthy = await started(host, game, (ALICE, BOB))
    damaged = await started(host, game, (CAROL, ALICE))
    for game_id in (healthy, damaged):
        await host.follow(game_id, SPECTATOR)
        await next_turn(host, game_id)
        await host.thread_created(game_id, THREAD)  # one thread, as a rematch shares its game's
    await raw.execute("UPDATE games SET thread_touched_at = ?", LONG_IDLE)
    return healthy, damaged


def damages(columns, settings: dict, state: dict, *, keys: bool) -> list[tuple[str, str, object]]:
    """(what, how, value) for every column and seat row of a stored game, and with ``keys`` for
    every top-level key of its settings and state."""
    out = [(f"column {name}", how, value) for name, kind, nullable in columns
           for how, value in column_damages(name, kind, nullable)]
    out += [("seats", "all deleted", None), ("seats", "the first one deleted", None)]
    if keys:
        out += [(f"settings.{key}", how, value) for key in sorted(settings) for how, value in key_damages(settings[key])]
        out += [(f"state.{key}", how, value) for key in sorted(state) for how, value in key_damages(state[key])]
    return out


async def damage(raw: Raw, game_id: int, what: str, how: str, value, settings: dict, state: dict) -> None:
    if what.startswith("column "):
        await raw.execute(f"UPDATE games SET {what[7:]} = ? WHERE id = ?", value, game_id)
    elif what == "seats":
        first = "" if how == "all deleted" else " AND seat = 0"
        await raw.execute(f"DELETE FROM seats WHERE game_id = ?{first}", game_id)
    else:
        column, key = what.split(".", 1)
        data = dict(settings if column == "settings" else state, **{key: value})
        await raw.execute(f"UPDATE games SET {column} = ? WHERE id = ?", json.dumps(data), game_id)


def results_part(stats: list[str]) -> list[str]:
    """/game stats without its time-to-act section (see above)."""
    return stats[: next((i for i, line in enumerate(stats) if line.startswith("⏱️")), len(stats))]


def differences(expected: dict, got: dict) -> list[str]:
    out = []
    for part in expected:
        if got.get(part) != expected[part]:
            missing = [x for x in expected[part] if x not in got[part]] if isinstance(got[part], list) else []
            extra = [x for x in got[part] if x not in expected[part]] if isinstance(got[part], list) else []
            out.append(f"{part} differs: missing {shown(missing or expected[part])}, unexpected {shown(extra or got[part])}")
    return out


def shown(value) -> str:
    text = repr(value)
    return text if len(text) <= 400 else text[:400] + "..."


async def opened(backend):
    """The store. On PostgreSQL its commits do not wait for the disk: durability is not what this
    test is about, and the hundreds of cases then take seconds, not minutes."""
    if backend.name == "sqlite":
        return await backend.open()
    from bot.storage.postgres import PgStore

    return await PgStore.open(backend.target + "&synchronous_commit=off", pool_size=4)


@pytest.mark.parametrize("game", [g.name for g in all_games()])
async def test_one_damaged_field_costs_the_other_game_nothing(backend, game, caplog):
    store = await opened(backend)
    clock = Clock()
    seeds = iter(range(3000, 4000))
    host = GameHost(store, clock=clock, seed_source=lambda: next(seeds), render=lambda *a, **k: b"PNG",
                    ai_level="easy")
    host.follow_gather_seconds = 0
    raw = Raw(backend)
    caplog.set_level(logging.WARNING, logger="bot")
    try:
        healthy, damaged = await two_games(host, raw, game)
        row = await store.load(damaged)
        settings, state = dict(row.settings), dict(row.state)
        await raw.snapshot()
        baseline = await scenario(host, clock, healthy, damaged)
        sane(baseline, healthy)
        assert caplog.records == [], "the undamaged scenario logged a problem"
        failures, refused, applied, set_aside = [], [], 0, set()
        for what, how, value in damages(game_columns(), settings, state, keys=backend.name == "sqlite"):
            await raw.restore()
            clock.now = START
            try:
                await damage(raw, damaged, what, how, value, settings, state)
            except Exception:  # the database refuses to hold it: a damage that cannot happen
                refused.append((what, how))
                continue
            applied += 1
            caplog.clear()
            try:
                got = await scenario(host, clock, healthy, damaged)
            except Exception as e:
                failures.append(f"{what} ({how}): the scenario failed: {type(e).__name__}: {e}")
                continue
            problems = differences(baseline, got) + await set_aside_once(raw, caplog, damaged)
            failures += [f"{what} ({how}): {p}" for p in problems]
            if await raw.value("SELECT broken_reason FROM games WHERE id = ?", damaged) is not None:
                set_aside.add((what, how))
        assert applied > len(refused), refused
        assert not failures, f"{len(failures)} problems:\n" + "\n".join(failures)
        # The findings are among the damages, and each sets the damaged game aside.
        findings = {("column deadline_at", "garbage"), ("seats", "all deleted")}
        findings |= {("settings.turn_from", "garbage")} if backend.name == "sqlite" else set()
        assert findings <= set_aside, findings - set_aside
    finally:
        raw.close()
        await store.close()


def sane(baseline: dict, healthy: int) -> None:
    """The undamaged scenario does everything it is there to check (or the comparisons prove nothing)."""
    first, second = baseline["first tick"], baseline["second tick"]
    assert {item[0] for item in first} >= {"reminder", "notice", "post", "thread kept open"}, first
    assert {item[0] for item in second} >= {"post", "notice"}, second
    assert any("let the deadline pass" in " ".join(item[2]) for item in second if item[0] == "post")
    assert baseline["list"] and baseline["mine"] and baseline["summaries"] and baseline["vacation"]
    assert len(baseline["stats"]) > 1 and len(baseline["leaderboard"]) > 1
    assert baseline["row after the deadline"][1] > baseline["row after the first tick"][1]  # the stand-in played


async def set_aside_once(raw: Raw, caplog, game_id: int) -> list[str]:
    """The damaged game is either not troubled by its damage or set aside: flagged, logged once."""
    logged = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    # A deadline's move can be saved before its damaged board fails to draw: the move counted (and
    # is said to), then the board's redelivery sets the game aside. Two facts, one log line each.
    counted = [m for m in logged if m.startswith(f"game {game_id}: version ") and "is saved, but showing" in m]
    if counted:
        logged.remove(counted[0])  # once: a second would be a second failure to show
    mine = [m for m in logged if m.startswith(f"game {game_id} set aside")]
    if counted and not mine:
        return [f"a saved move's board failed and the game was not set aside: {counted[0]}"]
    others = Counter(m for m in logged if m not in mine)
    problems = [f"logged {n} time(s) besides setting the damaged game aside: {m}" for m, n in others.items()]
    if len(mine) > 1:
        problems.append(f"set aside {len(mine)} times")
    if mine and await raw.value("SELECT broken_at FROM games WHERE id = ?", game_id) is None:
        problems.append("logged as set aside but not flagged")
    return problems


# ---- every entry point that reads one damaged game (issue #40, part 4) ---------------------------------
READS = {
    "/game history": lambda host, game_id: host.history(game_id, asker=ALICE),
    "/game replay": lambda host, game_id: host.replay(game_id, ALICE),
    "/game replay, its first step as all see it": lambda host, game_id: host.replay(game_id, ALICE, 1, None),
    "/game export": lambda host, game_id: host.export(game_id, ALICE),
    "/game status": lambda host, game_id: host.status(game_id, ALICE),
    "the panel": lambda host, game_id: host.panel(game_id, ALICE),
    "the action suggestions": lambda host, game_id: host.legal_actions(game_id, ALICE),
}


def cut_short(value):
    """A list one item short; in a mapping, each of its lists one item short (a write cut off)."""
    if isinstance(value, list):
        return value[:-1]
    if isinstance(value, dict):
        return {k: v[:-1] if isinstance(v, list) else v for k, v in value.items()}
    return value


def state_damages(state: dict) -> list[tuple[str, str, tuple[str, tuple]]]:
    """(what, how, (SQL, arguments)) for every top-level key of a state: missing, of a wrong type,
    its lists cut short. The SQL's last argument is the game's id."""
    def stored(damaged: dict) -> tuple[str, tuple]:
        return "UPDATE games SET state = ? WHERE id = ?", (json.dumps(damaged),)

    out = []
    for key in sorted(state):
        out.append((f"state.{key}", "missing", stored({k: v for k, v in state.items() if k != key})))
        out.append((f"state.{key}", "wrong type", stored(dict(state, **{key: key_damages(state[key])[0][1]}))))
        if cut_short(state[key]) != state[key]:
            out.append((f"state.{key}", "cut short", stored(dict(state, **{key: cut_short(state[key])}))))
    return out


def log_damages(options: dict) -> list[tuple[str, str, tuple[str, tuple]]]:
    """(what, how, (SQL, arguments)) for what a replay rebuilds from: the log, the options, the seed."""
    key = sorted(options)[0]
    return [
        ("log", "an entry garbled", ("UPDATE actions SET action = ? WHERE game_id = ? AND n = 1", (TEXT,))),
        ("log", "its first entry lost", ("DELETE FROM actions WHERE game_id = ? AND n = 1", ())),
        ("log", "an entry by a seat that does not exist", ("UPDATE actions SET seat = 9 WHERE game_id = ? AND n = 1", ())),
        (f"options.{key}", "wrong type", ("UPDATE games SET options = ? WHERE id = ?",
                                          (json.dumps(dict(options, **{key: [1, 2]})),))),
        ("column seed", "garbage", ("UPDATE games SET seed = ? WHERE id = ?", (TEXT,))),
    ]


def unclear(error: ServiceError, game_id: int) -> list[str]:
    """What the answer to a set-aside game lacks, in each language: the game, that its saved data is
    damaged, and what can be done (abandon it, or restore a backup); never "try again"."""
    needs = {"en": (str(game_id), "saved data is damaged", "/game abandon", "backup"),
             "ja": (str(game_id), "保存データが壊れている", "/game abandon", "バックアップ")}
    problems = []
    for lang, words in needs.items():
        text = render(lang, error.text)
        problems += [f"the {lang} answer lacks {w!r}: {text}" for w in words if w not in text]
        problems += [f"the {lang} answer says to try again: {text}"
                     for phrase in ("try again", "もう一度お試し") if phrase in text.lower()]
    return problems


async def read_damaged(host, raw: Raw, caplog, game_id: int, read) -> tuple[list[str], bool]:
    """Problems with one read of a damaged game, and whether it set the game aside."""
    before = await raw.rows()
    aside = False
    try:
        await read(host, game_id)
        problems = []
    except ServiceError as e:
        if e.key != "game_broken":
            return [f"refused with {e.key!r} instead"], False
        aside = True
        problems = unclear(e, game_id) + await set_aside_once(raw, caplog, game_id)
        if await raw.value("SELECT broken_at FROM games WHERE id = ?", game_id) is None:
            problems.append("answered as set aside, but not flagged")
        if not [r for r in caplog.records if r.getMessage().startswith(f"game {game_id} set aside")]:
            problems.append("set aside without a line in the log")
    except Exception as e:
        return [f"failed: {type(e).__name__}: {e}"], False
    if not aside:
        problems += [f"logged: {r.getMessage()}" for r in caplog.records if r.levelno >= logging.WARNING]
    if await raw.rows() != before:
        problems.append("changed what is stored (beyond the set-aside flag)")
    return problems, aside


def fresh_host(store, clock: Clock, first_seed: int) -> GameHost:
    seeds = iter(range(first_seed, first_seed + 1000))
    host = GameHost(store, clock=clock, seed_source=lambda: next(seeds), render=lambda *a, **k: b"PNG",
                    ai_level="easy")
    host.follow_gather_seconds = 0
    return host


@pytest.mark.parametrize("game", [g.name for g in all_games()])
async def test_every_read_of_a_damaged_game_sets_it_aside_with_a_clear_answer(backend, game, caplog):
    """History, replay, export, status, the panel and the suggestions, on every damage of one running
    game. The state's keys are damaged on SQLite only (see the module's docstring)."""
    store = await opened(backend)
    host = fresh_host(store, Clock(), 5000)
    raw = Raw(backend)
    caplog.set_level(logging.WARNING, logger="bot")
    try:
        game_id = await started(host, game, (ALICE, BOB))
        for _ in range(2):  # a log to page through and replay
            await next_turn(host, game_id)
        row = await store.load(game_id)
        await raw.snapshot()
        for entry, read in READS.items():  # undamaged, each answers and changes nothing
            assert await read_damaged(host, raw, caplog, game_id, read) == ([], False), entry
        damages = (state_damages(row.state) if backend.name == "sqlite" else []) + log_damages(row.options)
        failures, set_aside, applied = [], Counter(), 0
        for what, how, (sql, args) in damages:
            for entry, read in READS.items():
                await raw.restore()
                try:
                    await raw.execute(sql, *args, game_id)
                except Exception:  # the database refuses to hold it (a seed of text in PostgreSQL)
                    continue
                applied += 1
                caplog.clear()
                problems, aside = await read_damaged(host, raw, caplog, game_id, read)
                failures += [f"{entry}, {what} ({how}): {p}" for p in problems]
                set_aside[entry] += aside
        assert applied, "no damage could be stored"
        assert not failures, f"{len(failures)} problems:\n" + "\n".join(failures)
        # The damages are ones these reads meet: each read sets the game aside for some of them.
        assert set(set_aside) == set(READS), set_aside
    finally:
        raw.close()
        await store.close()


async def damaged_game(backend, game: str, users=(ALICE, BOB), turns: int = 1):
    """A store, a host, the raw database and one started game (``turns`` new waits into it)."""
    store = await opened(backend)
    host = fresh_host(store, Clock(), 7000)
    game_id = await started(host, game, users)
    for _ in range(turns):
        await next_turn(host, game_id)
    return store, host, Raw(backend), game_id


async def test_a_set_aside_game_is_ended_by_game_abandon_as_its_answer_says(backend, caplog):
    store, host, raw, game_id = await damaged_game(backend, "monsterhunter")
    caplog.set_level(logging.WARNING, logger="bot")
    try:
        row = await store.load(game_id)
        await raw.execute("UPDATE games SET state = ? WHERE id = ?",
                          json.dumps({k: v for k, v in row.state.items() if k != "frozen"}), game_id)
        with pytest.raises(ServiceError) as refused:  # issue #40: a KeyError, and "please try again"
            await host.history(game_id, asker=BOB)
        assert refused.value.key == "game_broken" and not unclear(refused.value, game_id)
        outbox = await host.abandon(game_id, ALICE)  # its creator
        assert [render("en", t) for t in outbox.reply] == [f"You abandoned game #{game_id}."]
        [post] = outbox.posts
        assert post.image is None and post.board_version is None  # its board cannot be drawn
        assert render("en", post.lines[0]).startswith(f"Game #{game_id} was abandoned")
        row = await store.load(game_id)
        assert row.status == "abandoned" and row.broken_reason  # and still set aside: out of every list
        with pytest.raises(ServiceError) as again:  # ended: said so, as of any game
            await host.abandon(game_id, ALICE)
        assert again.value.key == "game_abandoned"
        set_aside = [r.getMessage() for r in caplog.records if r.getMessage().startswith(f"game {game_id} set aside")]
        assert len(set_aside) == 1 and "KeyError: 'frozen'" in set_aside[0], set_aside
        assert [r for r in caplog.records if r.levelno >= logging.WARNING and r.getMessage() not in set_aside] == []
    finally:
        raw.close()
        await store.close()


async def test_abandoning_a_game_damaged_unseen_sets_it_aside_first_then_ends_it(backend):
    store, host, raw, game_id = await damaged_game(backend, "squares")
    try:
        row = await store.load(game_id)
        await raw.execute("UPDATE games SET state = ? WHERE id = ?",
                          json.dumps({k: v for k, v in row.state.items() if k != "board"}), game_id)
        await raw.snapshot()
        before = await raw.rows()
        with pytest.raises(ServiceError) as refused:  # found damaged by the abandon itself: answered as every read
            await host.abandon(game_id, ALICE)
        assert refused.value.key == "game_broken" and await raw.rows() == before
        await host.abandon(game_id, ALICE)  # the answer's way out works
        assert (await store.load(game_id)).status == "abandoned"
    finally:
        raw.close()
        await store.close()


async def finished(host, game_id: int) -> None:
    """The game resigned by Alice, its final board posted (so its recap is due)."""
    await host.resign(game_id, ALICE)
    row = await host.store.load(game_id)
    await host.store.mark_posted(game_id, row.version, 1)


async def test_a_recap_that_cannot_be_replayed_sets_its_game_aside_once(backend, caplog):
    store, host, raw, game_id = await damaged_game(backend, "squares")
    caplog.set_level(logging.WARNING, logger="bot")
    try:
        await finished(host, game_id)
        assert await host.due_recaps() == [game_id]
        await raw.execute("UPDATE actions SET action = ? WHERE game_id = ? AND n = 1", TEXT, game_id)
        assert await host.claim_recap(game_id) is None
        assert await raw.value("SELECT broken_at FROM games WHERE id = ?", game_id) is not None
        assert await host.due_recaps() == []  # not tried again and again
        logged = [r.getMessage() for r in caplog.records]
        assert len(logged) == 1 and logged[0].startswith(f"game {game_id} set aside: ReplayError"), logged
    finally:
        raw.close()
        await store.close()


async def test_a_rematch_of_a_damaged_game_creates_nothing(backend):
    store, host, raw, game_id = await damaged_game(backend, "arena")
    try:
        await finished(host, game_id)
        row = await store.load(game_id)
        await raw.execute("UPDATE games SET state = ? WHERE id = ?", json.dumps(dict(row.state, outcome=[1, 2])),
                          game_id)
        await raw.snapshot()
        before = await raw.rows()
        with pytest.raises(ServiceError) as refused:
            await host.rematch(game_id, BOB)
        assert refused.value.key == "game_broken" and not unclear(refused.value, game_id)
        assert await raw.rows() == before  # no new game, no rematch link
    finally:
        raw.close()
        await store.close()


async def test_an_undo_whose_log_cannot_be_replayed_sets_the_game_aside_and_asks_nobody(tmp_path, caplog):
    """A seed that is not a number (SQLite holds one; PostgreSQL refuses it). A log that replays to
    another position than the stored one stays refused as before ("undo_unavailable"): that may be
    an older engine's game, still playable."""
    store, host, raw, game_id = await damaged_game(SqliteBackend(str(tmp_path / "games.sqlite3")), "squares", turns=0)
    caplog.set_level(logging.WARNING, logger="bot")
    try:
        row = await store.load(game_id)
        game = get_game(row.game)
        seat = min(game.to_act(row.state))
        user = row.user_of(seat)
        await host.act(game_id, user, game.legal_actions(row.state, seat)[0])
        await raw.execute("UPDATE games SET seed = ? WHERE id = ?", TEXT, game_id)
        await raw.snapshot()
        before = await raw.rows()
        with pytest.raises(ServiceError) as refused:
            await host.ask_undo(game_id, user)
        assert refused.value.key == "game_broken" and not unclear(refused.value, game_id)
        assert [r.getMessage()[:len(f"game {game_id} set aside")] for r in caplog.records] == \
            [f"game {game_id} set aside"]
        assert await raw.rows() == before  # no request, nobody asked
    finally:
        raw.close()
        await store.close()


async def test_a_tournament_round_is_announced_without_the_one_game_whose_board_cannot_be_drawn(backend, caplog):
    """The round's boards go out with its announcement; a game whose state reads but whose board
    cannot be composed (here a SQUARESIV capture limit that is text: no legal move can be listed)
    is set aside, and the announcement and the other boards go on."""
    store = await opened(backend)
    clock = Clock()
    host = fresh_host(store, clock, 9000)
    raw = Raw(backend)
    caplog.set_level(logging.WARNING, logger="bot")
    try:
        outbox = await host.tournament_new("squares", "swiss", guild_id=GUILD, channel_id=CHANNEL, user_id=CAROL,
                                           locale="en")
        tid = int(render("en", outbox.reply[0]).split("#")[1].split()[0].rstrip("."))
        players = [ALICE, BOB, SPECTATOR, 555]
        where = Where(GUILD, CHANNEL, False)
        for p in players:
            await host.tournament_join(tid, p, where=where)
        await host.tournament_start(tid, CAROL, where=where)  # its announcement lost with its process
        games = [x.game_id for x in (await store.load_tournament(tid)).tables_of(1)]
        row = await store.load(games[0])
        await raw.execute("UPDATE games SET state = ? WHERE id = ?", json.dumps(dict(row.state, cap=TEXT)), games[0])
        clock.now = START + timedelta(minutes=11)  # the announcement's claim has lapsed: the next tick posts it
        [announced] = await host.tournament_tick()
        boards = [p.game_id for p in announced.posts if p.game_id]
        assert boards == games[1:] and any(p.game_id == 0 for p in announced.posts)
        assert await raw.value("SELECT broken_at FROM games WHERE id = ?", games[0]) is not None
        logged = [r.getMessage() for r in caplog.records]
        assert len(logged) == 1 and logged[0].startswith(f"game {games[0]} set aside"), logged
    finally:
        raw.close()
        await store.close()
