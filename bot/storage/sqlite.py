"""SQLite storage through aiosqlite: games, seats, the append-only action log, results, settings.

Concurrency: the whole bot shares one connection, whose single worker thread runs every store
operation start to finish as one function (:meth:`Store._run`). No two operations can interleave,
so a transaction of one game never swallows a write of another coroutine, and each operation costs
one thread hand-off however many statements it runs. Games are ordered further by the service's
lock per game, and across processes by the version compare-and-swap in :meth:`Store.save`.

Writes of a game's play go through a :class:`Draft` (everything one operation changes: state,
seats, log rows, results), saved in one transaction; so an operation that changes a game several
times (a start with the AI's first moves, a timeout with its stand-in moves, a rematch) either
happens whole or not at all, wherever the process is killed. Delivery bookkeeping (posted message
ids, threads, languages) uses separate columns and plain one-statement writes.

Checkpoints: SQLite's automatic WAL checkpoint runs inside whichever commit fills the log, copying
and syncing the database file there; on a 2-core machine that made one action in a hundred 3-5 ms
slower (the p99 of every game's round trip). The action connection does not checkpoint; a second
connection does, on its own thread, after every :data:`CHECKPOINT_AFTER_CHANGES` rows written.
Commits stay as durable as before (``synchronous = NORMAL``: the log is synced by the checkpoint).

The log's size is bounded by design, not by how fast that checkpointer runs: before each operation
the action connection looks at the log's file, and when it has grown past :data:`WAL_LIMIT_BYTES`
(a burst of writes on a busy machine outran the checkpointer) it checkpoints and truncates the log
itself before writing more. Writes pause for that one checkpoint; none is lost.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sqlite3
import time
from importlib import resources
from typing import Any, Callable

import aiosqlite

from ..faults import crash_point
from . import sqlite_tournaments
from .sqlite_transaction import immediate
from .rows import (OPEN_TOURNAMENTS, ROUND_DONE, UNRECORDED, TournamentDraft, TournamentRow, ActionRow, changed_seat_fields, _decode_game, dm_asker, Draft, _DRAFT_COLUMNS,
                   _draft_values, FutureRow, _GAME_COLUMNS, GameRow, Handover, _LIVE, merged_ping_choices,
                   new_game_row, NO_USER_SETTINGS, NotFound, numbered_migrations, OPEN_STATUSES, Proposal,
                   _PROPOSAL_COLUMNS, proposal_of, rated_players, rating_pool, rating_updates, RematchExists,
                   SchemaDamaged, _SEAT_COLUMNS, _seat_values, SeatRow, StoreError, turn_seconds,
                   TURN_TIME_GAMES, TURN_TIMES_SQL, UndoRequest, _USER_COLUMNS, user_rating_key,
                   _user_settings, VersionConflict)

BUSY_TIMEOUT_MS = 5000
# About what SQLite's default (a checkpoint per 1,000 log pages) amounts to: a save writes a few
# rows and 5-10 pages.
CHECKPOINT_AFTER_CHANGES = 256
# When writes never pause, a checkpoint beside them never catches up and the log is never reused:
# past this size the action connection checkpoints it itself, between two operations, and no
# operation starts while the log is larger (see _checkpoint_if_log_too_long). The log file can
# therefore pass it by one operation's pages at most.
WAL_LIMIT_BYTES = 16 * 1024 * 1024
# How long writes wait for the log to be truncated (another checkpoint running, a reader in another
# process) before they go on anyway: an action is never refused for the log's sake.
WAL_LIMIT_WAIT_S = 30.0
log = logging.getLogger(__name__)


class Store:
    """One SQLite file. Open with :meth:`open`; every method is one operation on the worker thread."""

    # Failures of the database itself (busy, locked, gone, full): no fault of the game being read,
    # which a pass over many games leaves for the next pass rather than setting it aside.
    outages = (sqlite3.Error,)

    def __init__(self, db: aiosqlite.Connection, checkpointer: aiosqlite.Connection | None = None,
                 log_path: str | None = None):
        self._db = db
        self._checkpointer = checkpointer  # None: SQLite checkpoints inside commits (in-memory files)
        self._log_path = log_path  # the WAL file, watched before each operation (None: not ours to bound)
        self._changes_checkpointed = 0
        self._checkpointing: asyncio.Task | None = None

    @classmethod
    async def open(cls, path: str) -> "Store":
        db = await aiosqlite.connect(path, isolation_level=None)
        db.row_factory = sqlite3.Row
        checkpointer = None
        try:
            await db._execute(_prepare, db._conn)
            if not _in_memory(path):
                checkpointer = await aiosqlite.connect(path, isolation_level=None)
                await checkpointer.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
                await db.execute("PRAGMA wal_autocheckpoint = 0")
                await db.execute(f"PRAGMA journal_size_limit = {WAL_LIMIT_BYTES}")
        except BaseException:
            if checkpointer is not None:
                await checkpointer.close()
            await db.close()
            raise
        return cls(db, checkpointer, None if checkpointer is None else path + "-wal")

    async def close(self) -> None:
        if self._checkpointing is not None:
            await asyncio.gather(self._checkpointing, return_exceptions=True)
        if self._checkpointer is not None:
            await self._checkpointer.close()
        await self._db.close()  # the last connection out checkpoints what is left and removes the log

    async def _run(self, fn: Callable[..., Any], *args) -> Any:
        """Run ``fn(connection, *args)`` on the connection's worker thread as one operation.

        aiosqlite queues its own statements through ``Connection._execute``; we queue whole
        operations through it, so nothing else runs on the connection in between.
        """
        conn = self._db._conn
        result, changes = await self._db._execute(_operation, conn, self._log_path, fn, args)
        if changes - self._changes_checkpointed >= CHECKPOINT_AFTER_CHANGES:
            self._start_checkpoint(changes)
        return result

    def _start_checkpoint(self, changes: int) -> None:
        if self._checkpointer is None or (self._checkpointing is not None and not self._checkpointing.done()):
            return
        self._changes_checkpointed = changes
        self._checkpointing = asyncio.get_running_loop().create_task(self._checkpoint())

    async def _checkpoint(self) -> None:
        """Copy the log into the database file, beside the actions: PASSIVE waits for no one, and
        whatever it could not copy now (a reader still on it) is copied next time."""
        try:
            await (await self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)")).close()
        except Exception:  # never an action's failure: the log only grows until the next one
            log.exception("WAL checkpoint failed")

    @staticmethod
    def migrations() -> list[tuple[int, str]]:
        return numbered_migrations(resources.files("bot.storage") / "migrations" / "sqlite")

    async def schema_version(self) -> int:
        return await self._run(lambda c: c.execute("PRAGMA user_version").fetchone()[0])

    # ---- reading -----------------------------------------------------------------------------
    async def load(self, game_id: int) -> GameRow:
        return await self._run(_load, game_id)

    async def load_many(self, game_ids: list[int]) -> list[GameRow | StoreError]:
        """Several games in one operation; a row that cannot be decoded comes back as its error."""
        return await self._run(_load_many, list(game_ids))

    async def actions(self, game_id: int, *, after_n: int = 0, limit: int | None = None) -> list[ActionRow]:
        def read(c):
            sql = ("SELECT n, seat, user_id, action, version, at, stand_in FROM actions "
                   "WHERE game_id = ? AND n > ? ORDER BY n" + (" LIMIT ?" if limit is not None else ""))
            params = (game_id, after_n) + ((limit,) if limit is not None else ())
            return [ActionRow(r["n"], r["seat"], r["user_id"], r["action"], r["version"], r["at"],
                              bool(r["stand_in"])) for r in c.execute(sql, params)]
        return await self._run(read)

    async def action_count(self, game_id: int) -> int:
        return await self._run(lambda c: c.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?",
                                                     (game_id,)).fetchone()[0])

    async def seat_acted_since(self, game_id: int, seat: int, version: int) -> bool:
        """Whether this seat has an action logged after the given game version (a stale panel)."""
        return await self._run(lambda c: c.execute(
            "SELECT 1 FROM actions WHERE game_id = ? AND seat = ? AND version > ? LIMIT 1",
            (game_id, seat, version)).fetchone() is not None)

    async def game_ids_in_guild(self, guild_id: int, statuses=OPEN_STATUSES) -> list[int]:
        return await self._ids(f"SELECT id FROM games INDEXED BY games_by_guild_status WHERE guild_id = ? AND status IN ({_marks(statuses)}) "
                               f"AND {_LIVE} ORDER BY id", (guild_id, *statuses))

    async def game_ids_of_user(self, user_id: int, statuses=OPEN_STATUSES) -> list[int]:
        return await self._ids(
            f"SELECT g.id FROM seats s INDEXED BY seats_by_user_game JOIN games g ON g.id = s.game_id "
            f"WHERE s.user_id = ? AND g.status IN ({_marks(statuses)}) AND g.{_LIVE} ORDER BY g.id", (user_id, *statuses))

    async def game_ids_in_channel(self, channel_id: int, statuses=OPEN_STATUSES) -> list[int]:
        """Games whose home is this channel or thread."""
        return await self._ids(
            f"SELECT id FROM games INDEXED BY games_by_channel WHERE channel_id = ? AND status IN ({_marks(statuses)}) "
            f"AND {_LIVE} UNION SELECT id FROM games INDEXED BY games_by_thread WHERE thread_id = ? "
            f"AND status IN ({_marks(statuses)}) AND {_LIVE} "
            f"ORDER BY id", (channel_id, *statuses, channel_id, *statuses))

    async def game_ids_of_user_in_channel(self, user_id: int, channel_id: int) -> list[int]:
        """Open games in this channel or thread that the user sits in (bounded by the user's games)."""
        return await self._ids(
            "SELECT g.id FROM seats s INDEXED BY seats_by_user_game JOIN games g ON g.id = s.game_id "
            f"WHERE s.user_id = ? AND g.status IN ('lobby', 'active') AND g.{_LIVE} AND (g.channel_id = ? OR g.thread_id = ?) "
            "ORDER BY g.id", (user_id, channel_id, channel_id))

    async def threads_to_touch(self, before: str) -> list[tuple[int, int]]:
        """(game id, thread id) of open games whose thread has seen nothing from us since ``before``."""
        return await self._run(lambda c: [(r[0], r[1]) for r in c.execute(
            f"SELECT id, thread_id FROM games INDEXED BY games_threads WHERE thread_id IS NOT NULL "
            f"AND status IN ('lobby', 'active') AND {_LIVE} AND thread_touched_at < ? ORDER BY thread_touched_at",
            (before,))])

    async def is_open_game_thread(self, thread_id: int) -> bool:
        return await self._run(lambda c: c.execute(
            f"SELECT 1 FROM games INDEXED BY games_by_thread WHERE thread_id = ? AND status IN ('lobby', 'active') "
            f"AND {_LIVE} LIMIT 1", (thread_id,)).fetchone() is not None)

    async def unposted_game_ids(self) -> list[int]:
        """Games whose latest version never reached the channel (the bot stopped in between)."""
        return await self._ids(f"SELECT id FROM games INDEXED BY games_unposted WHERE posted_version < version "
                               f"AND status != 'lobby' AND {_LIVE} AND state IS NOT NULL", ())

    async def due_game_ids(self, now: str) -> list[int]:
        """Active games whose deadline has passed."""
        return await self._ids(
            f"SELECT id FROM games INDEXED BY games_due WHERE status = 'active' AND deadline_at IS NOT NULL "
            f"AND {_LIVE} AND deadline_at <= ? ORDER BY deadline_at", (now,))

    async def reminder_due_game_ids(self, now: str) -> list[int]:
        """Active games past half their deadline that have not been reminded for this turn."""
        return await self._ids(
            f"SELECT id FROM games INDEXED BY games_remind WHERE status = 'active' AND reminded = 0 "
            f"AND remind_at IS NOT NULL AND {_LIVE} AND remind_at <= ? AND deadline_at > ? ORDER BY id", (now, now))

    async def stats(self, guild_id: int | None, game: str | None = None, *,
                    asker: int | None = None) -> list[tuple[str, int, int, int, int]]:
        """(game, user_id, played, won, drawn) per player per game in a server, most wins first; in
        a DM (``guild_id`` None) the asker's own line of their DM games only (:func:`dm_asker`)."""
        mine = dm_asker(guild_id, asker)
        who, whose = ("user_id = ?", (mine,)) if mine is not None else ("user_id > 0", ())
        sql = ("SELECT game, user_id, COUNT(*) AS played, SUM(won) AS won, SUM(draw) AS drawn FROM results "
               f"WHERE guild_id IS ? AND {who}" + (" AND game = ?" if game else "") +
               " GROUP BY game, user_id ORDER BY game, won DESC, played DESC")
        params = (guild_id, *whose, *((game,) if game else ()))
        return await self._run(lambda c: [(r["game"], r["user_id"], r["played"], r["won"], r["drawn"])
                                          for r in c.execute(sql, params)])

    async def turn_times(self, guild_id: int | None, game: str | None = None,
                         games: int = TURN_TIME_GAMES, *, asker: int | None = None) -> list[tuple[int, float]]:
        """(user id, seconds) of each time a person took to act, over a server's latest ``games``
        games (of one game, if named): read off the action log, nothing stored for it. In a DM
        (``guild_id`` None): the asker's own times, in the latest DM games they sat in."""
        mine = dm_asker(guild_id, asker)
        ids = await (self._latest_dm_game_ids_of(mine, game, games) if mine is not None
                     else self._latest_game_ids_in(guild_id, game, games))
        return await self.turn_times_in(ids, mine)

    async def _latest_game_ids_in(self, guild_id: int, game: str | None, limit: int) -> list[int]:
        named = " AND game = ?" if game else ""
        return await self._ids(f"SELECT id FROM games INDEXED BY games_by_guild_status WHERE guild_id = ?{named} "
                               "ORDER BY id DESC LIMIT ?", (guild_id, *((game,) if game else ()), limit))

    async def _latest_dm_game_ids_of(self, user_id: int, game: str | None, limit: int) -> list[int]:
        """The latest games made in DMs that this user sits in (found through their seats)."""
        named = " AND g.game = ?" if game else ""
        return await self._ids(
            "SELECT DISTINCT g.id FROM seats s INDEXED BY seats_by_user_game JOIN games g ON g.id = s.game_id "
            f"WHERE s.user_id = ? AND g.guild_id IS NULL{named} ORDER BY g.id DESC LIMIT ?",
            (user_id, *((game,) if game else ()), limit))

    async def turn_times_in(self, game_ids: list[int], user_id: int | None = None) -> list[tuple[int, float]]:
        """(user id, seconds) of each time someone (or this user) took to act in these games."""
        if not game_ids:
            return []
        sql = TURN_TIMES_SQL.format(games=_marks(game_ids), user="AND user_id = ?" if user_id is not None else "")
        params = (*game_ids, *((user_id,) if user_id is not None else ()))
        return turn_seconds(await self._run(lambda c: [tuple(r) for r in c.execute(sql, params)]))

    async def seat_holders(self, game_ids: list[int]) -> dict[int, list[int]]:
        """Who sits in each seat of these games now, seat 0 first (a hand-over shows its substitute)."""
        ids = list(game_ids)

        def read(c):
            out: dict[int, list[int]] = {}
            for i in range(0, len(ids), 500):  # well inside SQLite's limit of bound values
                chunk = ids[i:i + 500]
                for r in c.execute(f"SELECT game_id, user_id FROM seats WHERE game_id IN ({_marks(chunk)}) "
                                   "ORDER BY game_id, seat", chunk):
                    out.setdefault(r[0], []).append(r[1])
            return out
        return await self._run(read)

    async def substitutions(self, game_id: int) -> list[Handover]:
        """A game's seat hand-overs, in order."""
        return await self._run(lambda c: [Handover(r[0], r[1], r[2], r[3], r[4], r[5], r[6]) for r in c.execute(
            "SELECT seat, from_user, to_user, by_user, after_n, version, at FROM substitutions WHERE game_id = ? "
            "ORDER BY version, seat", (game_id,))])

    async def rating_changes(self, game_id: int) -> dict[str, tuple[float, float, float, float]]:
        """player -> (mu before, sigma before, mu after, sigma after) for a rated finished game."""
        return await self._run(lambda c: {r[0]: (r[1], r[2], r[3], r[4]) for r in c.execute(
            "SELECT player, mu_before, sigma_before, mu_after, sigma_after FROM rating_changes WHERE game_id = ?",
            (game_id,))})

    async def leaderboard(self, guild_id: int | None, game: str, limit: int, *,
                          asker: int | None = None) -> list[tuple[str, float, float, int]]:
        """(player, mu, sigma, games) of a server's best ``limit`` players of a game, by ordinal; in
        a DM (``guild_id`` None) the asker's own rating from DM games, if any (:func:`dm_asker`)."""
        mine = dm_asker(guild_id, asker)
        who, whose = (" AND player = ?", (user_rating_key(mine),)) if mine is not None else ("", ())
        return await self._run(lambda c: [(r[0], r[1], r[2], r[3]) for r in c.execute(
            f"SELECT player, mu, sigma, games FROM ratings WHERE guild_id = ? AND game = ?{who} "
            "ORDER BY mu - 3 * sigma DESC, games DESC, player LIMIT ?", (rating_pool(guild_id), game, *whose, limit))])

    # ---- undo by consent (a request and its answers; the undo itself is a Draft) ------------------
    async def open_undo(self, request: UndoRequest) -> bool:
        """Store a new request; False when this position already has one (from any process)."""
        def write(c):
            try:
                c.execute("INSERT INTO undo_requests (game_id, version, n, seat, user_id, needed, status, created_at) "
                          "VALUES (?, ?, ?, ?, ?, ?, 'open', ?)",
                          (request.game_id, request.version, request.n, request.seat, request.user_id,
                           json.dumps(request.needed), request.created_at))
            except sqlite3.IntegrityError:
                return False
            return True
        return await self._run(write)

    async def undo_request(self, game_id: int, version: int) -> UndoRequest | None:
        def read(c):
            r = c.execute("SELECT game_id, version, n, seat, user_id, needed, status, created_at FROM undo_requests "
                          "WHERE game_id = ? AND version = ?", (game_id, version)).fetchone()
            if r is None:
                return None
            answers = {a[0]: bool(a[1]) for a in c.execute(
                "SELECT seat, agree FROM undo_answers WHERE game_id = ? AND version = ?", (game_id, version))}
            return UndoRequest(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), r[6], r[7], answers)
        return await self._run(read)

    async def answer_undo(self, game_id: int, version: int, seat: int, agree: bool, now: str) -> bool:
        """Record a seat's answer once (False if it had answered); a refusal closes the request."""
        return await self._run(
            _answer_once, "INSERT INTO undo_answers (game_id, version, seat, agree, at) VALUES (?, ?, ?, ?, ?)",
            (game_id, version, seat, int(agree), now), agree,
            "UPDATE undo_requests SET status = 'declined' WHERE game_id = ? AND version = ? AND status = 'open'",
            (game_id, version))

    async def set_undo_message(self, game_id: int, version: int, message_id: int) -> None:
        """Record the post that asks about the request asked at ``version`` (its buttons go when it ends)."""
        await self._write("UPDATE undo_requests SET message_id = ? WHERE game_id = ? AND version = ?",
                          (message_id, game_id, version))

    async def ended_undo_posts(self, game_id: int) -> list[tuple[int, int]]:
        """(version, message id) of a game's undo posts that still show buttons although their
        request ended: agreed, declined, or lapsed because the game moved past its version."""
        return await self._run(lambda c: [(r[0], r[1]) for r in c.execute(
            "SELECT u.version, u.message_id FROM undo_requests u JOIN games g ON g.id = u.game_id "
            "WHERE u.game_id = ? AND u.message_id IS NOT NULL AND u.controls_retired = 0 "
            "AND (u.status != 'open' OR u.version < g.version) ORDER BY u.version", (game_id,))])

    async def undo_post_retired(self, game_id: int, version: int) -> None:
        await self._write("UPDATE undo_requests SET controls_retired = 1 WHERE game_id = ? AND version = ?",
                          (game_id, version))

    # ---- proposals needing consent (votes, draw offers, seat hand-overs) ---------------------------
    async def open_proposal(self, p: Proposal) -> int | None:
        """Store a new proposal; its id, or None when the game has one open already (any process)."""
        def write(c):
            try:
                return c.execute(
                    "INSERT INTO proposals (game_id, kind, seat, user_id, turn, needed, status, created_at, expires_at, "
                    "hours, target_id, holder_id) VALUES (?, ?, ?, ?, ?, ?, 'open', ?, ?, ?, ?, ?)",
                    (p.game_id, p.kind, p.seat, p.user_id, p.turn, json.dumps(p.needed), p.created_at, p.expires_at,
                     p.hours, p.target_id, p.holder_id)).lastrowid
            except sqlite3.IntegrityError:
                return None
        return await self._run(write)

    async def proposal(self, proposal_id: int) -> Proposal | None:
        def read(c):
            r = c.execute(f"SELECT {_PROPOSAL_COLUMNS} FROM proposals WHERE id = ?", (proposal_id,)).fetchone()
            if r is None:
                return None
            return proposal_of(r, {a[0]: bool(a[1]) for a in c.execute(
                "SELECT seat, agree FROM proposal_answers WHERE proposal_id = ?", (proposal_id,))})
        return await self._run(read)

    async def open_proposals(self, game_id: int) -> list[Proposal]:
        """A game's open proposals, with their answers."""
        ids = await self._ids("SELECT id FROM proposals INDEXED BY proposals_by_game WHERE game_id = ? "
                              "AND status = 'open' ORDER BY id", (game_id,))
        return [p for i in ids if (p := await self.proposal(i)) is not None]

    async def answer_proposal(self, proposal_id: int, seat: int, agree: bool, now: str) -> bool:
        """Record a seat's answer once (False if it had answered); a no closes the proposal."""
        return await self._run(
            _answer_once, "INSERT INTO proposal_answers (proposal_id, seat, agree, at) VALUES (?, ?, ?, ?)",
            (proposal_id, seat, int(agree), now), agree,
            "UPDATE proposals SET status = 'declined' WHERE id = ? AND status = 'open'", (proposal_id,))

    async def end_proposal(self, proposal_id: int, status: str) -> bool:
        """Close an open proposal (declined, expired, lapsed); False when it had ended already."""
        return await self._run(lambda c: c.execute(
            "UPDATE proposals SET status = ? WHERE id = ? AND status = 'open'", (status, proposal_id)).rowcount == 1)

    async def lapse_proposals(self, game_id: int, turn: int) -> list[int]:
        """Votes and offers made before ``turn`` lapse (a seat hand-over does not)."""
        lapsing = "game_id = ? AND status = 'open' AND turn < ? AND kind != 'substitute'"

        def lapse(c):
            if c.execute(f"SELECT 1 FROM proposals INDEXED BY proposals_by_game WHERE {lapsing} LIMIT 1",
                         (game_id, turn)).fetchone() is None:
                return []  # the usual case, on every board: no write at all
            return sorted(r[0] for r in c.execute(f"UPDATE proposals SET status = 'lapsed' WHERE {lapsing} RETURNING id",
                                                  (game_id, turn)))
        return await self._run(lapse)

    async def due_proposals(self, now: str) -> list[tuple[int, int]]:
        """(game id, proposal id) of open proposals whose time is up."""
        return await self._run(lambda c: [(r[0], r[1]) for r in c.execute(
            "SELECT game_id, id FROM proposals INDEXED BY proposals_due WHERE status = 'open' AND expires_at <= ? "
            "ORDER BY expires_at", (now,))])

    async def set_proposal_message(self, proposal_id: int, message_id: int) -> None:
        await self._write("UPDATE proposals SET message_id = ? WHERE id = ?", (message_id, proposal_id))

    async def ended_proposal_posts(self, game_id: int) -> list[tuple[int, int]]:
        """(proposal id, message id) of a game's proposal posts still showing buttons though it ended."""
        return await self._run(lambda c: [(r[0], r[1]) for r in c.execute(
            "SELECT id, message_id FROM proposals INDEXED BY proposals_by_game WHERE game_id = ? AND status != 'open' "
            "AND message_id IS NOT NULL AND controls_retired = 0 ORDER BY id", (game_id,))])

    async def proposal_post_retired(self, proposal_id: int) -> None:
        await self._write("UPDATE proposals SET controls_retired = 1 WHERE id = ?", (proposal_id,))

    async def user_settings(self, user_id: int) -> dict[str, Any]:
        return (await self.users_settings([user_id]))[user_id]

    async def users_settings(self, user_ids: list[int]) -> dict[int, dict[str, Any]]:
        """Language, DM reachability, DM reminder choice and view choices of several users, in one operation."""
        ids = sorted(set(user_ids))

        def read(c):
            found = {r["user_id"]: _user_settings(r) for r in c.execute(
                f"SELECT {_USER_COLUMNS} FROM user_settings WHERE user_id IN ({_marks(ids)})", ids)}
            return {u: found.get(u, dict(NO_USER_SETTINGS)) for u in ids}
        return await self._run(read)

    async def set_user_time(self, user_id: int, time_zone: str | None, quiet_hours: str | None) -> None:
        """A person's time zone and quiet hours (None: none); both are written together."""
        await self._write("INSERT INTO user_settings (user_id, time_zone, quiet_hours) VALUES (?, ?, ?) "
                          "ON CONFLICT (user_id) DO UPDATE SET time_zone = excluded.time_zone, "
                          "quiet_hours = excluded.quiet_hours", (user_id, time_zone, quiet_hours))

    # ---- ping choices (per game, or game 0: the person's default) ---------------------------------
    async def ping_choices(self, user_ids: list[int], game_id: int) -> dict[int, dict[str, Any]]:
        """Each person's ping choices for a game: the game's own where set, else their default; a
        field set in neither is None."""
        ids = sorted(set(user_ids))

        def read(c):
            rows = c.execute(f"SELECT user_id, game_id, mode, via, last_wait FROM ping_choices "
                             f"WHERE user_id IN ({_marks(ids)}) AND game_id IN (0, ?)", (*ids, game_id)).fetchall()
            return merged_ping_choices(ids, [tuple(r) for r in rows])
        return await self._run(read) if ids else {}

    async def set_ping_choice(self, user_id: int, game_id: int, mode: str | None, via: str | None,
                              last_wait: bool | None) -> None:
        """Set the given fields of a person's choices for a game (0: their default); None keeps one."""
        await self._write("INSERT INTO ping_choices (user_id, game_id, mode, via, last_wait) VALUES (?, ?, ?, ?, ?) "
                          "ON CONFLICT (user_id, game_id) DO UPDATE SET mode = COALESCE(excluded.mode, mode), "
                          "via = COALESCE(excluded.via, via), last_wait = COALESCE(excluded.last_wait, last_wait)",
                          (user_id, game_id, mode, via, None if last_wait is None else int(last_wait)))

    async def digest_user_ids(self) -> list[int]:
        """People who chose the daily digest, for some game or as their default."""
        return await self._ids("SELECT DISTINCT user_id FROM ping_choices INDEXED BY ping_choices_mode "
                               "WHERE mode = 'digest' ORDER BY user_id", ())

    async def claim_digest(self, user_id: int, day: str) -> bool:
        """Take the sending of a person's digest for their local ``day``; False when sent already."""
        return await self._run(lambda c: c.execute(
            "INSERT INTO user_settings (user_id, digest_on) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE "
            "SET digest_on = excluded.digest_on WHERE digest_on IS NULL OR digest_on < excluded.digest_on",
            (user_id, day)).rowcount == 1)

    # ---- notices to clean up once their turn has passed ---------------------------------------------
    async def notice_posted(self, channel_id: int, message_id: int, game_turns: list[tuple[int, int]]) -> None:
        if game_turns:
            await self._run(lambda c: c.executemany(
                "INSERT INTO notice_posts (channel_id, message_id, game_id, turn) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (message_id, game_id) DO NOTHING",
                [(channel_id, message_id, g, t) for g, t in dict(game_turns).items()]).close())

    async def retire_notices(self, game_id: int, turn: int | None) -> list[tuple[int, int]]:
        """The game moved past ``turn`` (None: it ended): its notices of earlier turns are retired,
        and the (channel, message) of every notice none of whose games is still on its turn returned."""
        stale = "game_id = ? AND retired = 0" + ("" if turn is None else " AND turn < ?")
        params = (game_id,) if turn is None else (game_id, turn)

        def retire(c):
            found = c.execute(f"SELECT channel_id, message_id FROM notice_posts INDEXED BY notice_posts_game "
                              f"WHERE {stale}", params).fetchall()
            if not found:
                return []  # the usual case, on every board: no write at all
            with immediate(c):
                c.execute(f"UPDATE notice_posts SET retired = 1 WHERE {stale}", params)
                done = [(r[0], r[1]) for r in found if c.execute(
                    "SELECT 1 FROM notice_posts WHERE message_id = ? AND retired = 0", (r[1],)).fetchone() is None]
            return sorted(set(done))
        return await self._run(retire)

    # ---- notices held through quiet hours ----------------------------------------------------------
    async def hold_notices(self, rows: list[tuple[int, int, str, str, str]]) -> None:
        """Hold (user, game, kind, held at, release at) notices; one that is held already stays as it was."""
        if rows:
            await self._run(lambda c: c.executemany(
                "INSERT INTO held_notices (user_id, game_id, kind, held_at, release_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (user_id, game_id, kind) DO NOTHING", rows).close())

    async def held_due_users(self, now: str) -> list[int]:
        """People with a held notice whose quiet hours have ended."""
        return await self._ids("SELECT DISTINCT user_id FROM held_notices INDEXED BY held_notices_due "
                               "WHERE release_at <= ? ORDER BY user_id", (now,))

    async def take_held(self, user_id: int, now: str) -> list[tuple[int, str]]:
        """Take (delete and return) a person's due held notices as (game id, kind): of several
        processes, one takes each, so the notice is sent once."""
        return await self._run(lambda c: sorted((r[0], r[1]) for r in c.execute(
            "DELETE FROM held_notices WHERE user_id = ? AND release_at <= ? RETURNING game_id, kind",
            (user_id, now))))

    async def move_held(self, user_id: int, release_at: str) -> None:
        """A person's quiet hours changed: their held notices are released at ``release_at``."""
        await self._write("UPDATE held_notices SET release_at = ? WHERE user_id = ?", (release_at, user_id))

    # ---- per-server settings (changed by the server's admins) -------------------------------------
    async def server_settings(self, guild_id: int) -> dict[str, Any]:
        """A server's settings; a setting never set is None (the bot's default applies)."""
        def read(c):
            r = c.execute("SELECT stand_in_level FROM server_settings WHERE guild_id = ?", (guild_id,)).fetchone()
            return {"stand_in_level": r[0] if r else None}
        return await self._run(read)

    async def set_stand_in_level(self, guild_id: int, level: str, user_id: int, now: str) -> None:
        """The AI strength that plays for absent players in this server's games (who set it, when)."""
        await self._write("INSERT INTO server_settings (guild_id, stand_in_level, updated_by, updated_at) "
                          "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
                          "stand_in_level = excluded.stand_in_level, updated_by = excluded.updated_by, "
                          "updated_at = excluded.updated_at", (guild_id, level, user_id, now))

    # ---- spectators (followers of a game) ---------------------------------------------------------
    async def follow(self, game_id: int, user_id: int, now: str, turn: int) -> bool:
        """Start following; the turn under way counts as told. False when already following."""
        return await self._run(lambda c: c.execute(
            "INSERT INTO followers (game_id, user_id, since, notified_version) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (game_id, user_id) DO NOTHING", (game_id, user_id, now, turn)).rowcount == 1)

    async def unfollow(self, game_id: int, user_id: int) -> bool:
        return await self._run(lambda c: c.execute(
            "DELETE FROM followers WHERE game_id = ? AND user_id = ?", (game_id, user_id)).rowcount == 1)

    async def followers(self, game_id: int) -> list[int]:
        """A game's followers, earliest first."""
        return await self._run(lambda c: [r[0] for r in c.execute(
            "SELECT user_id FROM followers WHERE game_id = ? ORDER BY since, user_id", (game_id,))])

    async def follow_candidates(self) -> list[tuple[int, int, int]]:
        """(game id, user id, notified turn) of followers of running games saved since their last
        notice: those who may have a new turn to hear about."""
        return await self._run(lambda c: [(r[0], r[1], r[2]) for r in c.execute(
            "SELECT f.game_id, f.user_id, f.notified_version FROM followers f JOIN games g ON g.id = f.game_id "
            f"WHERE g.status = 'active' AND g.{_LIVE} AND g.version > f.notified_version "
            "ORDER BY f.user_id, f.game_id")])

    async def claim_follow_notices(self, user_id: int, turns: list[tuple[int, int]]) -> list[int]:
        """Take the notices of one follower's turns [(game id, turn), ...] in one transaction; returns
        the games claimed here. Another process composing the same notice finds them taken, so a
        follower gets one message, never the games of one place split over two."""
        def claim(c):
            with immediate(c):
                return [game_id for game_id, turn in turns if c.execute(
                    "UPDATE followers SET notified_version = ? WHERE game_id = ? AND user_id = ? "
                    "AND notified_version < ?", (turn, game_id, user_id, turn)).rowcount == 1]
        return await self._run(claim)

    async def preferences(self, user_id: int) -> dict[str, Any]:
        """A user's saved preferences (standing policies, view choices); {} when none or unreadable."""
        def read(c):
            row = c.execute("SELECT preferences FROM user_settings WHERE user_id = ?", (user_id,)).fetchone()
            try:
                found = json.loads(row[0]) if row else {}
            except ValueError:
                return {}
            return found if isinstance(found, dict) else {}
        return await self._run(read)

    async def set_preferences(self, user_id: int, preferences: dict[str, Any]) -> None:
        await self._set_user(user_id, "preferences", json.dumps(preferences, sort_keys=True))

    # ---- saved decks (per user and game) ---------------------------------------------------------
    async def decks(self, user_id: int, game: str) -> list[tuple[str, str]]:
        """(name, code) of a user's saved decks for a game, by name."""
        return await self._run(lambda c: [(r[0], r[1]) for r in c.execute(
            "SELECT name, code FROM decks WHERE user_id = ? AND game = ? ORDER BY name", (user_id, game))])

    async def deck(self, user_id: int, game: str, name: str) -> str | None:
        return await self._run(lambda c: next((r[0] for r in c.execute(
            "SELECT code FROM decks WHERE user_id = ? AND game = ? AND name = ?", (user_id, game, name))), None))

    async def save_deck(self, user_id: int, game: str, name: str, code: str, now: str) -> bool:
        """Save (or replace) a deck; True when it replaced one of the same name."""
        def write(c):  # one operation on the connection's thread: nothing runs between the two
            existed = c.execute("SELECT 1 FROM decks WHERE user_id = ? AND game = ? AND name = ?",
                                (user_id, game, name)).fetchone() is not None
            c.execute("INSERT INTO decks (user_id, game, name, code, saved_at) VALUES (?, ?, ?, ?, ?) "
                      "ON CONFLICT (user_id, game, name) DO UPDATE SET code = excluded.code, "
                      "saved_at = excluded.saved_at", (user_id, game, name, code, now))
            return existed
        return await self._run(write)

    async def delete_deck(self, user_id: int, game: str, name: str) -> bool:
        return await self._run(lambda c: c.execute(
            "DELETE FROM decks WHERE user_id = ? AND game = ? AND name = ?", (user_id, game, name)).rowcount == 1)

    # ---- tournaments and leagues (bot/storage/sqlite_tournaments.py) -----------------------------------------
    async def load_tournament(self, tournament_id: int) -> TournamentRow:
        """A tournament with its players and tables; TournamentNotFound when there is none."""
        return await self._run(sqlite_tournaments.load, tournament_id)

    async def save_tournament(self, draft: TournamentDraft, games: list[Draft], now: str) -> TournamentRow:
        """The draft and the games its new tables create, in one transaction (TournamentChanged
        when the tournament's version moved: nothing is written then)."""
        return await self._run(sqlite_tournaments.save, draft, list(games), now, write_draft)

    async def tournament_ids_in_guild(self, guild_id: int, statuses=OPEN_TOURNAMENTS) -> list[int]:
        return await self._ids(f"SELECT id FROM tournaments INDEXED BY tournaments_by_guild WHERE guild_id = ? "
                               f"AND status IN ({_marks(statuses)}) ORDER BY id", (guild_id, *statuses))

    async def unrecorded_tables(self) -> list[tuple[int, int, int, int]]:
        """(tournament, round, table, game) of tables whose game ended and whose result is not recorded."""
        sql = UNRECORDED.format(indexed="INDEXED BY tournament_tables_unrecorded")
        return await self._run(lambda c: [tuple(r) for r in c.execute(sql)])

    async def record_table(self, tournament_id: int, round_: int, table_no: int, places: list[int],
                           note: str | None) -> bool:
        """A table's result, once: False when it was recorded already (by anyone)."""
        return await self._run(sqlite_tournaments.record_table, tournament_id, round_, table_no, places, note)

    async def finished_round_ids(self) -> list[int]:
        """Running tournaments (not leagues) whose current round has every result recorded."""
        return await self._ids(ROUND_DONE, ())

    async def unannounced_tournament_ids(self, now: str) -> list[int]:
        """Tournaments with a change the channel has not heard of, not claimed by anyone now."""
        return await self._ids("SELECT id FROM tournaments INDEXED BY tournaments_unannounced WHERE announced < stage "
                               "AND (announce_claim_stage < stage OR announce_claimed_until IS NULL "
                               "OR announce_claimed_until <= ?) ORDER BY id", (now,))

    async def claim_announcement(self, tournament_id: int, stage: int, now: str, until: str) -> bool:
        """Take the lease to announce a tournament's stage until ``until``: False when it was
        announced already or another process holds an unexpired lease."""
        return await self._run(lambda c: c.execute(
            "UPDATE tournaments SET announce_claimed_until = ?, announce_claim_stage = ? WHERE id = ? AND announced < ? "
            "AND stage >= ? AND (announce_claim_stage < ? OR announce_claimed_until IS NULL "
            "OR announce_claimed_until <= ?)", (until, stage, tournament_id, stage, stage, stage, now)).rowcount == 1)

    async def announcement_done(self, tournament_id: int, stage: int) -> None:
        await self._write("UPDATE tournaments SET announced = MAX(announced, ?), announce_claimed_until = NULL "
                          "WHERE id = ?", (stage, tournament_id))

    async def ratings_of(self, guild_id: int | None, game: str, players: list[str]) -> dict[str, tuple[float, float]]:
        """player -> (mu, sigma) of those rated in this server's game (see bot/common/ratings.py)."""
        keys = sorted(set(players))
        return await self._run(lambda c: {r[0]: (r[1], r[2]) for r in c.execute(
            f"SELECT player, mu, sigma FROM ratings WHERE guild_id = ? AND game = ? AND player IN ({_marks(keys)})",
            (rating_pool(guild_id), game, *keys))})

    async def _ids(self, sql: str, params: tuple) -> list[int]:
        # Hot lookups name their index (INDEXED BY): with skewed statistics (one busy server) the
        # planner would rather walk every game in id order than sort a few, and it must not.
        return await self._run(lambda c: [r[0] for r in c.execute(sql, params)])

    # ---- writing a game's play ---------------------------------------------------------------
    async def save(self, draft: Draft, now: str) -> GameRow:
        """Write a draft in one transaction: a new game (inserted) or the next versions of one.

        Raises VersionConflict when the game moved on since the draft's row was loaded, and
        RematchExists when a rematch draft's old game already has one; nothing is written then.
        """
        return await self._run(_save, draft, now)

    async def create_game(self, *, game: str, guild_id: int | None, channel_id: int, creator_id: int,
                          options: dict, locale: str, now: str, seat_creator: bool = True,
                          settings: dict | None = None) -> GameRow:
        row = new_game_row(game=game, guild_id=guild_id, channel_id=channel_id, creator_id=creator_id,
                           options=options, locale=locale, now=now, settings=settings)
        if seat_creator:
            row.seats = [SeatRow(0, creator_id, now)]
        return await self.save(Draft.new(row), now)

    # ---- plain writes (one statement each) -------------------------------------------------------
    async def mark_posted(self, game_id: int, version: int, message_id: int | None) -> None:
        """Record the board message for a version (never moves backwards)."""
        await self._write("UPDATE games SET posted_version = MAX(posted_version, ?), "
                          "board_message_id = COALESCE(?, board_message_id) WHERE id = ? AND posted_version <= ?",
                          (version, message_id, game_id, version))

    async def set_thread(self, game_id: int, thread_id: int | None, now: str) -> None:
        """The game's own thread (None: it is played in its channel from now on)."""
        await self._write("UPDATE games SET thread_id = ?, thread_touched_at = ? WHERE id = ?", (thread_id, now, game_id))

    async def touched_thread(self, thread_id: int, now: str) -> None:
        """We posted in (or unarchived) a thread: its idle clock restarts."""
        await self._write("UPDATE games SET thread_touched_at = ? WHERE thread_id = ?", (now, thread_id))

    async def set_status_message(self, game_id: int, message_id: int) -> None:
        await self._write("UPDATE games SET status_message_id = ? WHERE id = ?", (message_id, game_id))

    async def claim_reminders(self, turns: list[tuple[int, int]]) -> list[int]:
        """Mark games reminded for this turn, given as [(game id, version its reminder was composed
        from), ...]; returns only those this call claimed (any process). A game saved since that
        version is not claimed: its reminder is of a position that is gone."""
        if not turns:
            return []
        return await self._run(lambda c: sorted(r[0] for r in c.execute(
            f"UPDATE games SET reminded = 1 WHERE reminded = 0 AND (id, version) IN "
            f"(VALUES {', '.join('(?, ?)' for _ in turns)}) RETURNING id",
            tuple(v for turn in turns for v in turn))))

    async def claim_repost(self, game_id: int, now: str, until: str) -> bool:
        """Take the lease to repost a game's unposted board until ``until``; False if another
        process holds an unexpired lease."""
        return await self._run(lambda c: c.execute(
            "UPDATE games SET repost_claimed_until = ? WHERE id = ? AND "
            "(repost_claimed_until IS NULL OR repost_claimed_until <= ?)", (until, game_id, now)).rowcount == 1)

    async def claim_thread_touch(self, thread_id: int, before: str, now: str) -> bool:
        """Take the touching of an idle game thread: restart its idle clock if it was last touched
        before ``before``; False if another process did so meanwhile."""
        return await self._run(lambda c: c.execute(
            "UPDATE games SET thread_touched_at = ? WHERE thread_id = ? AND thread_touched_at < ?",
            (now, thread_id, before)).rowcount >= 1)

    async def claim_recap(self, game_id: int, now: str, until: str) -> bool:
        """Take the lease to post a finished game's recap until ``until``: False when it was posted
        (or given up) already, or another process holds an unexpired lease."""
        return await self._run(lambda c: c.execute(
            "UPDATE games SET recap_claimed_until = ? WHERE id = ? AND status = 'finished' AND "
            "recap_message_id IS NULL AND (recap_claimed_until IS NULL OR recap_claimed_until <= ?)",
            (until, game_id, now)).rowcount == 1)

    async def recap_done(self, game_id: int, message_id: int) -> None:
        await self._write("UPDATE games SET recap_message_id = ?, recap_claimed_until = NULL WHERE id = ?",
                          (message_id, game_id))

    async def recap_failed(self, game_id: int, attempts: int) -> None:
        """Count a failed recap; after ``attempts`` failures, give up (message id 0)."""
        await self._write("UPDATE games SET recap_attempts = recap_attempts + 1, recap_claimed_until = NULL, "
                          "recap_message_id = CASE WHEN recap_attempts + 1 >= ? THEN 0 ELSE NULL END WHERE id = ?",
                          (attempts, game_id))

    async def recap_due_game_ids(self, now: str) -> list[int]:
        """Finished games whose final board is posted and whose recap is not (and not claimed)."""
        return await self._ids(
            f"SELECT id FROM games INDEXED BY games_recap_due WHERE status = 'finished' AND recap_message_id IS NULL "
            f"AND {_LIVE} AND posted_version >= version AND (recap_claimed_until IS NULL OR recap_claimed_until <= ?) "
            f"ORDER BY id", (now,))

    async def recent_game_ids_in_guild(self, guild_id: int, statuses, limit: int) -> list[int]:
        """The newest games of a server in these statuses (a bounded read for autocomplete)."""
        return await self._ids(
            f"SELECT id FROM games INDEXED BY games_by_guild_status WHERE guild_id = ? AND status IN ({_marks(statuses)}) "
            f"AND {_LIVE} ORDER BY id DESC LIMIT ?", (guild_id, *statuses, limit))

    async def set_vacation(self, game_id: int, seat: int, until: str, days_used: int) -> None:
        await self._write("UPDATE seats SET vacation_until = ?, vacation_days_used = ? WHERE game_id = ? AND seat = ?",
                          (until, days_used, game_id, seat))

    async def mark_broken(self, game_id: int, reason: str, now: str) -> bool:
        """Set a game aside; True only the first time (so it is reported once)."""
        return await self._run(lambda c: c.execute(
            "UPDATE games SET broken_at = ?, broken_reason = ? WHERE id = ? AND broken_at IS NULL",
            (now, reason[:500], game_id)).rowcount == 1)

    async def set_dm_reminders(self, user_id: int, on: bool) -> None:
        await self._set_user(user_id, "dm_reminders", int(on))

    async def set_dm_open(self, user_id: int, is_open: bool) -> None:
        await self._set_user(user_id, "dm_open", int(is_open))

    async def set_user_locale(self, user_id: int, locale: str) -> None:
        await self._set_user(user_id, "locale", locale)

    async def _set_user(self, user_id: int, column: str, value) -> None:
        await self._write(f"INSERT INTO user_settings (user_id, {column}) VALUES (?, ?) "
                          f"ON CONFLICT (user_id) DO UPDATE SET {column} = excluded.{column}", (user_id, value))

    async def _write(self, sql: str, params: tuple) -> None:
        await self._run(lambda c: c.execute(sql, params).close())


def _operation(c: sqlite3.Connection, log_path: str | None, fn: Callable[..., Any], args: tuple) -> tuple[Any, int]:
    if log_path is not None:
        _checkpoint_if_log_too_long(c, log_path)
    return fn(c, *args), c.total_changes


def _checkpoint_if_log_too_long(c: sqlite3.Connection, log_path: str) -> None:
    """Truncate the log when it has grown past the limit, before this connection writes more.

    Runs on the action connection's thread between two operations, so no write of this process can
    slip in. Only the checkpoint lock can be busy (the checkpointer copying; SQLite calls no busy
    handler for that lock), so this waits for it in short steps, and gives up after
    WAL_LIMIT_WAIT_S rather than refuse the operation."""
    if _file_size(log_path) <= WAL_LIMIT_BYTES:
        return
    deadline = time.monotonic() + WAL_LIMIT_WAIT_S
    while True:
        try:
            busy = c.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
        except sqlite3.OperationalError:
            busy = 1
        if not busy or time.monotonic() > deadline:
            break
        time.sleep(0.005)
    if busy:
        log.warning("the WAL is past %d bytes and could not be checkpointed for %.0f s", WAL_LIMIT_BYTES, WAL_LIMIT_WAIT_S)


def _file_size(path: str) -> int:
    try:
        return os.stat(path).st_size
    except FileNotFoundError:
        return 0


def _in_memory(path: str) -> bool:
    return path == ":memory:" or path.startswith("file::memory:") or "mode=memory" in path


def _marks(values) -> str:
    return ",".join("?" * len(values))


def _prepare(c: sqlite3.Connection) -> None:
    c.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    c.execute("PRAGMA journal_mode = WAL")
    c.execute("PRAGMA synchronous = NORMAL")
    c.execute("PRAGMA foreign_keys = ON")
    c.execute("PRAGMA cache_size = -32768")  # 32 MiB of pages: the open games stay in memory
    c.execute("PRAGMA mmap_size = 268435456")
    _migrate(c)
    _check_schema(c)


def _migrate(c: sqlite3.Connection) -> None:
    current = c.execute("PRAGMA user_version").fetchone()[0]
    known = Store.migrations()
    if current > (known[-1][0] if known else 0):
        raise FutureRow(None, f"database schema {current} is newer than this bot understands")
    applied = False
    for number, sql in known:
        if number <= current:
            continue
        with immediate(c):
            for statement in _split_sql(sql):
                c.execute(statement)
            c.execute(f"PRAGMA user_version = {number}")
        applied = True
    if applied:
        c.execute("ANALYZE")  # statistics for the planner, gathered once per schema change


def _columns(c: sqlite3.Connection) -> dict[str, set[str]]:
    tables = [r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
    return {t: {r[1] for r in c.execute(f"PRAGMA table_info({t})")} for t in tables}


def _expected_columns() -> dict[str, set[str]]:
    """The tables and columns the migrations make, read off a scratch in-memory database."""
    scratch = sqlite3.connect(":memory:")
    try:
        for _, sql in Store.migrations():
            for statement in _split_sql(sql):
                scratch.execute(statement)
        return _columns(scratch)
    finally:
        scratch.close()


def _check_schema(c: sqlite3.Connection) -> None:
    have, want = _columns(c), _expected_columns()
    problems = [f"table {t} is missing" for t in want if t not in have]
    problems += [f"{t}.{col} is missing" for t in want if t in have for col in sorted(want[t] - have[t])]
    if problems:
        raise SchemaDamaged(None, "the database is damaged: " + "; ".join(problems))


def _load(c: sqlite3.Connection, game_id: int) -> GameRow:
    row = c.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise NotFound(game_id, "no such game")
    seats = [SeatRow(r["seat"], r["user_id"], r["joined_at"], r["absences"], bool(r["stand_in"]),
                     r["vacation_until"], r["vacation_days_used"])
             for r in c.execute(f"SELECT {_SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))]
    return _decode_game(row, seats)


def _load_many(c: sqlite3.Connection, game_ids: list[int]) -> list[GameRow | StoreError]:
    out: list[GameRow | StoreError] = []
    for game_id in game_ids:
        try:
            out.append(_load(c, game_id))
        except StoreError as e:
            out.append(e)
    return out


def _answer_once(c: sqlite3.Connection, insert: str, args: tuple, agree: bool, decline: str, decline_args: tuple) -> bool:
    """Record one seat's answer to a request (False if that seat had answered: the row's key
    exists); a refusal also runs ``decline``, which closes the request, in the same transaction."""
    try:
        with immediate(c):
            c.execute(insert, args)
            if not agree:
                c.execute(decline, decline_args)
    except sqlite3.IntegrityError:
        return False
    return True


def _save(c: sqlite3.Connection, draft: Draft, now: str) -> GameRow:
    try:
        with immediate(c):
            write_draft(c, draft, now)
            crash_point("store.save.before_commit")
    except BaseException:
        if draft.base_version is None:
            draft.row.id = None
        raise
    return _load(c, draft.row.id)


def write_draft(c: sqlite3.Connection, draft: Draft, now: str) -> None:
    """A draft's writes inside the caller's transaction (a game's save, or a tournament round that
    creates its games with its pairing)."""
    row = draft.row
    row.updated_at = now
    values = _draft_values(row)
    if draft.base_version is None:
        names = ("game", "guild_id", "channel_id", "creator_id", "locale", "created_at", "posted_version") + _DRAFT_COLUMNS
        cur = c.execute(f"INSERT INTO games ({', '.join(names)}) VALUES ({_marks(names)})",
                        (row.game, row.guild_id, row.channel_id, row.creator_id, row.locale, row.created_at,
                         row.posted_version, *values))
        row.id = cur.lastrowid
        if draft.rematch_of is not None and c.execute(
                "UPDATE games SET rematch_id = ? WHERE id = ? AND rematch_id IS NULL",
                (row.id, draft.rematch_of)).rowcount != 1:
            raise RematchExists(draft.rematch_of, "a rematch exists already")
    else:
        sets = ", ".join(f"{name} = ?" for name in _DRAFT_COLUMNS)
        if c.execute(f"UPDATE games SET {sets} WHERE id = ? AND version = ?",
                     (*values, row.id, draft.base_version)).rowcount != 1:
            exists = c.execute("SELECT 1 FROM games WHERE id = ?", (row.id,)).fetchone()
            raise (VersionConflict if exists else NotFound)(row.id, "version changed")
    if draft.seats_replaced:
        c.execute("DELETE FROM seats WHERE game_id = ?", (row.id,))
        c.executemany(f"INSERT INTO seats ({_SEAT_COLUMNS}) VALUES ({_marks(_SEAT_COLUMNS.split(','))})",
                      [_seat_values(row.id, s) for s in row.seats])
    else:
        for seat, fields, values in changed_seat_fields(draft):
            c.execute(f"UPDATE seats SET {', '.join(f'{f} = ?' for f in fields)} WHERE game_id = ? AND seat = ?",
                      values + (row.id, seat))
    if draft.actions:
        first = c.execute("SELECT COALESCE(MAX(n), 0) + 1 FROM actions WHERE game_id = ?", (row.id,)).fetchone()[0]
        c.executemany("INSERT INTO actions (game_id, n, seat, user_id, action, version, at, stand_in) "
                      "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                      [(row.id, first + i, a.seat, a.user_id, a.action, a.version, a.at, int(a.stand_in))
                       for i, a in enumerate(draft.actions)])
    if draft.handovers:
        logged = c.execute("SELECT COALESCE(MAX(n), 0) FROM actions WHERE game_id = ?", (row.id,)).fetchone()[0]
        for h in draft.handovers:
            c.execute("UPDATE seats SET user_id = ?, joined_at = ? WHERE game_id = ? AND seat = ?",
                      (h.to_user, h.at, row.id, h.seat))
            c.execute("INSERT INTO substitutions (game_id, seat, from_user, to_user, after_n, version, at, by_user) "
                      "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                      (row.id, h.seat, h.from_user, h.to_user, logged, row.version, h.at, h.by_user))
    c.executemany("INSERT OR REPLACE INTO results (game_id, guild_id, game, user_id, won, draw, at) "
                  "VALUES (?, ?, ?, ?, ?, ?, ?)",
                  [(row.id, row.guild_id, row.game, uid, int(won), int(draw), now) for uid, won, draw in draft.results])
    if draft.rating:
        _rate(c, row, draft.rating, now, draft.rating_shares)
    if draft.undo_done is not None:
        c.execute("UPDATE undo_requests SET status = 'done' WHERE game_id = ? AND version = ?",
                  (row.id, draft.undo_done))
    if draft.proposal_done is not None and c.execute(
            "UPDATE proposals SET status = 'passed' WHERE id = ? AND status = 'open'",
            (draft.proposal_done,)).rowcount != 1:
        raise VersionConflict(row.id, "the proposal ended meanwhile")


def _rate(c: sqlite3.Connection, row: GameRow, sides: list[tuple[tuple[str, ...], int]], now: str,
          shares: dict[str, list[tuple[str, float]]] | None = None) -> None:
    """Update the ratings of a finished game's players inside its final transaction, once per game.

    A player who fills several seats of one game (two AI seats of the same level) is rated on each
    seat from the same prior; the results are averaged and count as one game."""
    if c.execute("SELECT 1 FROM rating_changes WHERE game_id = ? LIMIT 1", (row.id,)).fetchone():
        return  # rated already: an end saved twice is counted once
    guild = rating_pool(row.guild_id)
    keys = rated_players(sides, shares)
    found = {r[0]: (r[1], r[2]) for r in c.execute(
        f"SELECT player, mu, sigma FROM ratings WHERE guild_id = ? AND game = ? AND player IN ({_marks(keys)})",
        (guild, row.game, *keys))}
    for key, before, mu, sigma in rating_updates(sides, found, shares):
        c.execute("INSERT INTO ratings (guild_id, game, player, mu, sigma, games, updated_at) VALUES (?, ?, ?, ?, ?, 1, ?) "
                  "ON CONFLICT (guild_id, game, player) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
                  "games = games + 1, updated_at = excluded.updated_at", (guild, row.game, key, mu, sigma, now))
        c.execute("INSERT INTO rating_changes (game_id, player, mu_before, sigma_before, mu_after, sigma_after) "
                  "VALUES (?, ?, ?, ?, ?, ?)", (row.id, key, before.mu, before.sigma, mu, sigma))


def _split_sql(script: str) -> list[str]:
    """Statements of a migration file (ours never put ';' inside strings)."""
    lines = [line for line in script.splitlines() if not line.strip().startswith("--")]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
