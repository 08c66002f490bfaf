"""SQLite storage through aiosqlite: games, seats and the append-only action log.

Every write that changes a game checks the version the caller loaded (optimistic concurrency), so a
double click or two writers at once can never apply an action twice. Rows written by a newer
version of the bot, or rows that do not decode, are reported as errors, never skipped.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import aiosqlite

STATE_FORMAT = 1  # bump when the stored state layout changes incompatibly
BUSY_TIMEOUT_MS = 5000
OPEN_STATUSES = ("lobby", "active")


class StoreError(Exception):
    """A storage problem the user should hear about; ``key`` is an i18n error key."""

    key = "store_error"

    def __init__(self, game_id: int | None = None, detail: str = ""):
        super().__init__(f"game {game_id}: {detail}" if game_id is not None else detail)
        self.game_id = game_id
        self.detail = detail


class NotFound(StoreError):
    key = "game_not_found"


class VersionConflict(StoreError):
    key = "stale"


class CorruptRow(StoreError):
    key = "corrupt_game"


class FutureRow(StoreError):
    key = "future_game"


@dataclass
class SeatRow:
    seat: int
    user_id: int
    joined_at: str
    absences: int = 0
    stand_in: bool = False  # the AI plays this seat for the rest of the game
    vacation_until: str | None = None
    vacation_days_used: int = 0


@dataclass
class GameRow:
    id: int
    game: str
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    creator_id: int
    status: str
    options: dict
    seed: int | None
    state: dict | None
    version: int
    board_message_id: int | None
    posted_version: int
    locale: str
    created_at: str
    updated_at: str
    seats: list[SeatRow] = field(default_factory=list)
    salt: str | None = None
    settings: dict = field(default_factory=dict)
    deadline_at: str | None = None
    turn_started_at: str | None = None
    reminded: bool = False
    status_message_id: int | None = None
    rematch_id: int | None = None

    @property
    def user_ids(self) -> list[int]:
        return [s.user_id for s in self.seats]

    def seat_of(self, user_id: int) -> int | None:
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def user_of(self, seat: int) -> int | None:
        return next((s.user_id for s in self.seats if s.seat == seat), None)

    def seat_row(self, seat: int) -> SeatRow | None:
        return next((s for s in self.seats if s.seat == seat), None)


@dataclass
class ActionRow:
    n: int
    seat: int
    user_id: int | None
    action: str
    version: int
    at: str


_GAME_COLUMNS = ("id, game, guild_id, channel_id, thread_id, creator_id, status, options, seed, state, "
                 "state_format, version, board_message_id, posted_version, locale, created_at, updated_at, salt, "
                 "settings, deadline_at, turn_started_at, reminded, status_message_id, rematch_id")
_SEAT_COLUMNS = "seat, user_id, joined_at, absences, stand_in, vacation_until, vacation_days_used"


class Store:
    """One SQLite file. Open with :meth:`open`; every method is a short transaction."""

    def __init__(self, db: aiosqlite.Connection):
        self._db = db

    @classmethod
    async def open(cls, path: str) -> "Store":
        db = await aiosqlite.connect(path, isolation_level=None)
        db.row_factory = aiosqlite.Row
        await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        await db.execute("PRAGMA journal_mode = WAL")
        await db.execute("PRAGMA synchronous = NORMAL")
        await db.execute("PRAGMA foreign_keys = ON")
        store = cls(db)
        try:
            await store._migrate()
        except BaseException:
            await db.close()
            raise
        return store

    async def close(self) -> None:
        await self._db.close()

    # ---- migrations --------------------------------------------------------------------------
    @staticmethod
    def migrations() -> list[tuple[int, str]]:
        folder = resources.files("bot") / "migrations"
        found = []
        for entry in folder.iterdir():
            if m := re.fullmatch(r"(\d+)_.*\.sql", entry.name):
                found.append((int(m[1]), entry.read_text(encoding="utf-8")))
        return sorted(found)

    async def _migrate(self) -> None:
        async with self._db.execute("PRAGMA user_version") as cur:
            current = (await cur.fetchone())[0]
        known = self.migrations()
        if current > (known[-1][0] if known else 0):
            raise FutureRow(None, f"database schema {current} is newer than this bot understands")
        for number, sql in known:
            if number <= current:
                continue
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                for statement in _split_sql(sql):
                    await self._db.execute(statement)
                await self._db.execute(f"PRAGMA user_version = {number}")
                await self._db.execute("COMMIT")
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise

    async def schema_version(self) -> int:
        async with self._db.execute("PRAGMA user_version") as cur:
            return (await cur.fetchone())[0]

    # ---- reading -----------------------------------------------------------------------------
    async def load(self, game_id: int) -> GameRow:
        async with self._db.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)) as cur:
            row = await cur.fetchone()
        if row is None:
            raise NotFound(game_id, "no such game")
        async with self._db.execute(
            f"SELECT {_SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
        ) as cur:
            seats = [SeatRow(r["seat"], r["user_id"], r["joined_at"], r["absences"], bool(r["stand_in"]),
                             r["vacation_until"], r["vacation_days_used"]) for r in await cur.fetchall()]
        return _decode_game(row, seats)

    async def actions(self, game_id: int) -> list[ActionRow]:
        async with self._db.execute(
            "SELECT n, seat, user_id, action, version, at FROM actions WHERE game_id = ? ORDER BY n", (game_id,)
        ) as cur:
            return [ActionRow(r["n"], r["seat"], r["user_id"], r["action"], r["version"], r["at"])
                    for r in await cur.fetchall()]

    async def seat_acted_since(self, game_id: int, seat: int, version: int) -> bool:
        """Whether this seat has an action logged after the given game version (a stale panel)."""
        async with self._db.execute(
            "SELECT 1 FROM actions WHERE game_id = ? AND seat = ? AND version > ? LIMIT 1", (game_id, seat, version)
        ) as cur:
            return await cur.fetchone() is not None

    async def game_ids_in_guild(self, guild_id: int, statuses=OPEN_STATUSES) -> list[int]:
        marks = ",".join("?" * len(statuses))
        async with self._db.execute(
            f"SELECT id FROM games WHERE guild_id = ? AND status IN ({marks}) ORDER BY id", (guild_id, *statuses)
        ) as cur:
            return [r[0] for r in await cur.fetchall()]

    async def game_ids_of_user(self, user_id: int, statuses=OPEN_STATUSES) -> list[int]:
        marks = ",".join("?" * len(statuses))
        async with self._db.execute(
            f"SELECT g.id FROM seats s JOIN games g ON g.id = s.game_id "
            f"WHERE s.user_id = ? AND g.status IN ({marks}) ORDER BY g.id", (user_id, *statuses)
        ) as cur:
            return [r[0] for r in await cur.fetchall()]

    async def game_ids_in_channel(self, channel_id: int, statuses=OPEN_STATUSES) -> list[int]:
        """Open games whose home is this channel or thread."""
        marks = ",".join("?" * len(statuses))
        async with self._db.execute(
            f"SELECT id FROM games WHERE (channel_id = ? OR thread_id = ?) AND status IN ({marks}) ORDER BY id",
            (channel_id, channel_id, *statuses),
        ) as cur:
            return [r[0] for r in await cur.fetchall()]

    async def unposted_game_ids(self) -> list[int]:
        """Games whose latest version never reached the channel (the bot stopped in between)."""
        async with self._db.execute(
            "SELECT id FROM games WHERE status IN ('active', 'finished', 'abandoned') AND state IS NOT NULL "
            "AND posted_version < version"
        ) as cur:
            return [r[0] for r in await cur.fetchall()]

    # ---- writing -----------------------------------------------------------------------------
    async def create_game(self, *, game: str, guild_id: int | None, channel_id: int, creator_id: int,
                          options: dict, locale: str, now: str, seat_creator: bool = True,
                          settings: dict | None = None) -> GameRow:
        await self._db.execute("BEGIN IMMEDIATE")
        try:
            cur = await self._db.execute(
                "INSERT INTO games (game, guild_id, channel_id, creator_id, status, options, locale, created_at, "
                "updated_at, settings) VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?)",
                (game, guild_id, channel_id, creator_id, json.dumps(options), locale, now, now,
                 json.dumps(settings or {})),
            )
            game_id = cur.lastrowid
            if seat_creator:
                await self._db.execute(
                    "INSERT INTO seats (game_id, seat, user_id, joined_at) VALUES (?, 0, ?, ?)",
                    (game_id, creator_id, now))
            await self._db.execute("COMMIT")
        except BaseException:
            await self._db.execute("ROLLBACK")
            raise
        return await self.load(game_id)

    async def set_seats(self, game_id: int, expected_version: int, user_ids: list[int], now: str) -> GameRow:
        """Replace the lobby's seat list (join/leave), bumping the version."""
        async with self._transaction(game_id, expected_version, now):
            await self._db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            await self._db.executemany(
                "INSERT INTO seats (game_id, seat, user_id, joined_at) VALUES (?, ?, ?, ?)",
                [(game_id, i, uid, now) for i, uid in enumerate(user_ids)],
            )
        return await self.load(game_id)

    async def start(self, game_id: int, expected_version: int, *, state: dict, seed: int, salt: str,
                    now: str, deadline_at: str | None = None) -> GameRow:
        async with self._transaction(game_id, expected_version, now, status="active"):
            await self._db.execute(
                "UPDATE games SET state = ?, seed = ?, salt = ?, state_format = ?, deadline_at = ?, "
                "turn_started_at = ?, reminded = 0 WHERE id = ?",
                (json.dumps(state), seed, salt, STATE_FORMAT, deadline_at, now, game_id),
            )
        return await self.load(game_id)

    async def commit_action(self, game_id: int, expected_version: int, *, seat: int, user_id: int | None,
                            action: str, state: dict, status: str, now: str, stand_in: bool = False,
                            new_deadline: bool = True, deadline_at: str | None = None,
                            results: list[tuple[int, bool, bool]] = ()) -> GameRow:
        """Save the new state, version+1, the action log row, the next deadline (when a new turn
        starts) and (when the game ends) the results, all in one transaction."""
        async with self._transaction(game_id, expected_version, now, status=status):
            await self._db.execute("UPDATE games SET state = ? WHERE id = ?", (json.dumps(state), game_id))
            if new_deadline:
                await self._db.execute(
                    "UPDATE games SET deadline_at = ?, turn_started_at = ?, reminded = 0 WHERE id = ?",
                    (deadline_at, now, game_id))
            await self._db.execute(
                "INSERT INTO actions (game_id, n, seat, user_id, action, version, at, stand_in) "
                "VALUES (?, (SELECT COALESCE(MAX(n), 0) + 1 FROM actions WHERE game_id = ?), ?, ?, ?, ?, ?, ?)",
                (game_id, game_id, seat, user_id, action, expected_version + 1, now, int(stand_in)),
            )
            await self._record_results(game_id, results, now)
        return await self.load(game_id)

    async def _record_results(self, game_id: int, results, now: str) -> None:
        await self._db.executemany(
            "INSERT OR REPLACE INTO results (game_id, guild_id, game, user_id, won, draw, at) "
            "SELECT id, guild_id, game, ?, ?, ?, ? FROM games WHERE id = ?",
            [(user_id, int(won), int(draw), now, game_id) for user_id, won, draw in results])

    async def set_status(self, game_id: int, expected_version: int, status: str, now: str,
                         state: dict | None = None) -> GameRow:
        async with self._transaction(game_id, expected_version, now, status=status):
            if state is not None:
                await self._db.execute("UPDATE games SET state = ? WHERE id = ?", (json.dumps(state), game_id))
            if status != "active":
                await self._db.execute("UPDATE games SET deadline_at = NULL WHERE id = ?", (game_id,))
        return await self.load(game_id)

    # ---- play over days ------------------------------------------------------------------------
    async def set_deadline(self, game_id: int, deadline_at: str | None, turn_started_at: str | None) -> None:
        await self._db.execute("UPDATE games SET deadline_at = ?, turn_started_at = ?, reminded = 0 WHERE id = ?",
                               (deadline_at, turn_started_at, game_id))

    async def due_game_ids(self, now: str) -> list[int]:
        """Active games whose deadline has passed (uses the (status, deadline_at) index)."""
        async with self._db.execute(
            "SELECT id FROM games WHERE status = 'active' AND deadline_at IS NOT NULL AND deadline_at <= ? "
            "ORDER BY deadline_at", (now,)
        ) as cur:
            return [r[0] for r in await cur.fetchall()]

    async def reminder_due_game_ids(self, now: str) -> list[int]:
        """Active games past half their deadline that have not been reminded for this turn."""
        async with self._db.execute(
            "SELECT id, turn_started_at, deadline_at FROM games WHERE status = 'active' AND reminded = 0 "
            "AND deadline_at IS NOT NULL AND deadline_at > ? AND turn_started_at IS NOT NULL", (now,)
        ) as cur:
            rows = await cur.fetchall()
        return [r["id"] for r in rows if _halfway(r["turn_started_at"], r["deadline_at"]) <= now]

    async def mark_reminded(self, game_ids: list[int]) -> None:
        await self._db.executemany("UPDATE games SET reminded = 1 WHERE id = ?", [(i,) for i in game_ids])

    async def update_seat(self, game_id: int, seat: int, **fields) -> None:
        allowed = {"absences", "stand_in", "vacation_until", "vacation_days_used"}
        assert set(fields) <= allowed, fields
        sets = ", ".join(f"{name} = ?" for name in fields)
        await self._db.execute(f"UPDATE seats SET {sets} WHERE game_id = ? AND seat = ?",
                               (*fields.values(), game_id, seat))

    async def set_status_message(self, game_id: int, message_id: int) -> None:
        await self._db.execute("UPDATE games SET status_message_id = ? WHERE id = ?", (message_id, game_id))

    async def set_rematch(self, game_id: int, rematch_id: int) -> bool:
        """Link a rematch once; False if another click got there first."""
        cur = await self._db.execute("UPDATE games SET rematch_id = ? WHERE id = ? AND rematch_id IS NULL",
                                     (rematch_id, game_id))
        return cur.rowcount == 1

    async def record_results(self, game_id: int, results: list[tuple[int, bool, bool]], now: str) -> None:
        await self._record_results(game_id, results, now)

    async def stats(self, guild_id: int | None, game: str | None = None) -> list[tuple[str, int, int, int, int]]:
        """(game, user_id, played, won, drawn) per player per game in a server, most wins first."""
        sql = ("SELECT game, user_id, COUNT(*) AS played, SUM(won) AS won, SUM(draw) AS drawn FROM results "
               "WHERE guild_id IS ? AND user_id > 0" + (" AND game = ?" if game else "") +
               " GROUP BY game, user_id ORDER BY game, won DESC, played DESC")
        async with self._db.execute(sql, (guild_id, game) if game else (guild_id,)) as cur:
            return [(r["game"], r["user_id"], r["played"], r["won"], r["drawn"]) for r in await cur.fetchall()]

    async def set_dm_reminders(self, user_id: int, on: bool) -> None:
        await self._db.execute(
            "INSERT INTO user_settings (user_id, dm_reminders) VALUES (?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET dm_reminders = excluded.dm_reminders", (user_id, int(on)))

    async def mark_posted(self, game_id: int, version: int, message_id: int | None) -> None:
        """Record the board message for a version (never moves backwards)."""
        await self._db.execute(
            "UPDATE games SET posted_version = MAX(posted_version, ?), "
            "board_message_id = COALESCE(?, board_message_id) WHERE id = ? AND posted_version <= ?",
            (version, message_id, game_id, version),
        )

    async def set_thread(self, game_id: int, thread_id: int) -> None:
        await self._db.execute("UPDATE games SET thread_id = ? WHERE id = ?", (thread_id, game_id))

    async def user_settings(self, user_id: int) -> dict[str, Any]:
        async with self._db.execute("SELECT dm_open, locale, dm_reminders FROM user_settings WHERE user_id = ?",
                                    (user_id,)) as cur:
            row = await cur.fetchone()
        if row is None:
            return {"dm_open": None, "locale": None, "dm_reminders": False}
        return {"dm_open": None if row["dm_open"] is None else bool(row["dm_open"]), "locale": row["locale"],
                "dm_reminders": bool(row["dm_reminders"])}

    async def set_dm_open(self, user_id: int, is_open: bool) -> None:
        await self._db.execute(
            "INSERT INTO user_settings (user_id, dm_open) VALUES (?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET dm_open = excluded.dm_open", (user_id, int(is_open)))

    async def set_user_locale(self, user_id: int, locale: str) -> None:
        await self._db.execute(
            "INSERT INTO user_settings (user_id, locale) VALUES (?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale", (user_id, locale))

    # ---- internals ---------------------------------------------------------------------------
    def _transaction(self, game_id: int, expected_version: int, now: str, status: str | None = None):
        return _VersionedWrite(self._db, game_id, expected_version, now, status)


class _VersionedWrite:
    """BEGIN IMMEDIATE; bump the version only if it is still the one the caller saw; COMMIT."""

    def __init__(self, db, game_id, expected_version, now, status):
        self.db, self.game_id, self.expected, self.now, self.status = db, game_id, expected_version, now, status

    async def __aenter__(self):
        await self.db.execute("BEGIN IMMEDIATE")
        try:
            sets = "version = version + 1, updated_at = ?" + (", status = ?" if self.status else "")
            params = [self.now] + ([self.status] if self.status else []) + [self.game_id, self.expected]
            cur = await self.db.execute(f"UPDATE games SET {sets} WHERE id = ? AND version = ?", params)
            if cur.rowcount != 1:
                exists = await (await self.db.execute("SELECT 1 FROM games WHERE id = ?", (self.game_id,))).fetchone()
                raise (VersionConflict if exists else NotFound)(self.game_id, "version changed")
        except BaseException:
            await self.db.execute("ROLLBACK")
            raise
        return self

    async def __aexit__(self, exc_type, exc, tb):
        await self.db.execute("ROLLBACK" if exc_type else "COMMIT")
        return False


def _decode_game(row, seats: list[SeatRow]) -> GameRow:
    game_id = row["id"]
    if row["state_format"] > STATE_FORMAT:
        raise FutureRow(game_id, f"state format {row['state_format']} is newer than {STATE_FORMAT}")
    try:
        options = json.loads(row["options"])
        settings = json.loads(row["settings"])
        state = json.loads(row["state"]) if row["state"] is not None else None
        if not isinstance(options, dict) or not isinstance(settings, dict) or (
                state is not None and not isinstance(state, dict)):
            raise ValueError("options and state must be JSON objects")
    except ValueError as e:
        raise CorruptRow(game_id, f"undecodable row: {e}") from None
    return GameRow(
        id=game_id, game=row["game"], guild_id=row["guild_id"], channel_id=row["channel_id"],
        thread_id=row["thread_id"], creator_id=row["creator_id"], status=row["status"], options=options,
        seed=row["seed"], state=state, version=row["version"], board_message_id=row["board_message_id"],
        posted_version=row["posted_version"], locale=row["locale"], created_at=row["created_at"],
        updated_at=row["updated_at"], seats=seats, salt=row["salt"], settings=settings,
        deadline_at=row["deadline_at"], turn_started_at=row["turn_started_at"], reminded=bool(row["reminded"]),
        status_message_id=row["status_message_id"], rematch_id=row["rematch_id"],
    )


def _halfway(start: str, end: str) -> str:
    a, b = datetime.fromisoformat(start), datetime.fromisoformat(end)
    return (a + (b - a) / 2).isoformat(timespec="seconds")


def _split_sql(script: str) -> list[str]:
    """Statements of a migration file (ours never put ';' inside strings)."""
    lines = [line for line in script.splitlines() if not line.strip().startswith("--")]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
