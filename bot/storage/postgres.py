"""PostgreSQL storage through asyncpg: the same public methods and behaviour as the SQLite
:class:`bot.storage.sqlite.Store`, for deployments where several bot processes share one database.

Every guarantee that spans processes lives in the database, never in process memory:

- A game's actions are ordered by the game row: the first statement of :meth:`PgStore.save`'s
  transaction is the version compare-and-swap ``UPDATE games ... WHERE id = $n AND version = $m``,
  which takes the row's lock until commit. A second process saving the same game waits on that
  lock, then re-checks ``version`` against the committed row and matches nothing: exactly one of
  several processes saving one version commits, the others get :class:`VersionConflict`, and the
  action numbers, seats and results written after the UPDATE are written under the lock.
- Claims (a reminder, the lease to repost a board) are single ``UPDATE ... WHERE`` statements.
  Under READ COMMITTED a second process's UPDATE waits for the first's row lock and then re-checks
  its WHERE on the committed row, so each claim is won by exactly one process; reminders, claimed
  in batches, lock their rows in id order with ``FOR UPDATE SKIP LOCKED``.
- Migrations run under a transaction-scoped advisory lock, so processes starting together migrate
  once.

Rows keep SQLite's representation (times as ISO-8601 text, JSON as text, flags as 0/1), so rows
decode through the same functions and the service cannot tell the backends apart. Migrations live
in ``bot/storage/migrations/postgres/``, numbered as their SQLite twins; the schema check compares the
tables and columns here with those the SQLite migrations make, so the twins cannot drift apart.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import asyncpg

from ..faults import crash_point
from . import postgres_tournaments
from .rows import (_DRAFT_COLUMNS, _GAME_COLUMNS, _LIVE, _SEAT_COLUMNS, OPEN_STATUSES, OPEN_TOURNAMENTS, ROUND_DONE,
                   UNRECORDED, ActionRow, Draft, FutureRow, GameRow, NotFound, RematchExists, SchemaDamaged, SeatRow,
                   StoreError, TournamentDraft, TournamentRow, UndoRequest, VersionConflict, Handover,
                   NO_USER_SETTINGS, _PROPOSAL_COLUMNS, _USER_COLUMNS, Proposal, _decode_game, _draft_values,
                   _seat_values, _user_settings, changed_seat_fields, merged_ping_choices, proposal_of,
                   TURN_TIMES_SQL, turn_seconds, numbered_migrations, rated_players,
                   rating_updates, dm_asker, rating_pool, user_rating_key)
from .sqlite import Store, _expected_columns

POOL_SIZE = 10
# The version table is the store's, like SQLite's PRAGMA user_version: not part of any migration.
_VERSION_TABLE = "schema_version"


class PgStore:
    """A pool of connections to one PostgreSQL database (its schema from the URL's search_path).

    Open with :meth:`open` (``postgresql://user@host/db``; add ``?search_path=name`` for another
    schema than ``public``). Each method is one operation on a pooled connection.
    """

    # Failures of the database or the connection to it: no fault of the game being read, which a
    # pass over many games leaves for the next pass rather than setting it aside.
    outages = (asyncpg.PostgresError, asyncpg.InterfaceError)

    def __init__(self, pool: asyncpg.Pool):
        self._pool = pool

    @classmethod
    async def open(cls, url: str, *, pool_size: int = POOL_SIZE) -> "PgStore":
        pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size, reset=_session_unchanged)
        try:
            async with pool.acquire() as conn:
                await _migrate(conn)
                await _check_schema(conn)
        except BaseException:
            await pool.close()
            raise
        return cls(pool)

    async def close(self) -> None:
        await self._pool.close()

    @staticmethod
    def migrations() -> list[tuple[int, str]]:
        return numbered_migrations(resources.files("bot.storage") / "migrations" / "postgres")

    async def schema_version(self) -> int:
        return await self._pool.fetchval(f"SELECT version FROM {_VERSION_TABLE}")

    # ---- reading -----------------------------------------------------------------------------
    async def load(self, game_id: int) -> GameRow:
        async with self._pool.acquire() as conn:
            return await _load(conn, game_id)

    async def load_many(self, game_ids: list[int]) -> list[GameRow | StoreError]:
        """Several games in one query; a row that cannot be decoded comes back as its error."""
        ids = list(game_ids)
        rows = {r["id"]: r for r in await self._pool.fetch(f"{_SELECT_GAME} WHERE g.id = ANY($1::bigint[])", ids)}
        out: list[GameRow | StoreError] = []
        for game_id in ids:
            try:
                if game_id not in rows:
                    raise NotFound(game_id, "no such game")
                out.append(_decode(rows[game_id]))
            except StoreError as e:
                out.append(e)
        return out

    async def actions(self, game_id: int, *, after_n: int = 0, limit: int | None = None) -> list[ActionRow]:
        sql = ("SELECT n, seat, user_id, action, version, at, stand_in FROM actions "
               "WHERE game_id = $1 AND n > $2 ORDER BY n" + (" LIMIT $3" if limit is not None else ""))
        params = (game_id, after_n) + ((limit,) if limit is not None else ())
        return [ActionRow(r["n"], r["seat"], r["user_id"], r["action"], r["version"], r["at"], bool(r["stand_in"]))
                for r in await self._pool.fetch(sql, *params)]

    async def action_count(self, game_id: int) -> int:
        return await self._pool.fetchval("SELECT COUNT(*) FROM actions WHERE game_id = $1", game_id)

    async def seat_acted_since(self, game_id: int, seat: int, version: int) -> bool:
        """Whether this seat has an action logged after the given game version (a stale panel)."""
        return await self._pool.fetchval(
            "SELECT 1 FROM actions WHERE game_id = $1 AND seat = $2 AND version > $3 LIMIT 1",
            game_id, seat, version) is not None

    async def game_ids_in_guild(self, guild_id: int, statuses=OPEN_STATUSES) -> list[int]:
        return await self._ids(f"SELECT id FROM games WHERE guild_id = $1 AND status = ANY($2::text[]) AND {_LIVE} "
                               "ORDER BY id", guild_id, list(statuses))

    async def game_ids_of_user(self, user_id: int, statuses=OPEN_STATUSES) -> list[int]:
        return await self._ids(
            "SELECT g.id FROM seats s JOIN games g ON g.id = s.game_id "
            f"WHERE s.user_id = $1 AND g.status = ANY($2::text[]) AND g.{_LIVE} ORDER BY g.id", user_id, list(statuses))

    async def game_ids_in_channel(self, channel_id: int, statuses=OPEN_STATUSES) -> list[int]:
        """Games whose home is this channel or thread."""
        return await self._ids(
            f"SELECT id FROM games WHERE channel_id = $1 AND status = ANY($2::text[]) AND {_LIVE} "
            f"UNION SELECT id FROM games WHERE thread_id = $1 AND status = ANY($2::text[]) AND {_LIVE} "
            "ORDER BY id", channel_id, list(statuses))

    async def game_ids_of_user_in_channel(self, user_id: int, channel_id: int) -> list[int]:
        """Open games in this channel or thread that the user sits in (bounded by the user's games)."""
        return await self._ids(
            "SELECT g.id FROM seats s JOIN games g ON g.id = s.game_id "
            f"WHERE s.user_id = $1 AND g.status IN ('lobby', 'active') AND g.{_LIVE} "
            "AND (g.channel_id = $2 OR g.thread_id = $2) ORDER BY g.id", user_id, channel_id)

    async def threads_to_touch(self, before: str) -> list[tuple[int, int]]:
        """(game id, thread id) of open games whose thread has seen nothing from us since ``before``."""
        return [(r[0], r[1]) for r in await self._pool.fetch(
            "SELECT id, thread_id FROM games WHERE thread_id IS NOT NULL AND status IN ('lobby', 'active') "
            f"AND {_LIVE} AND thread_touched_at < $1 ORDER BY thread_touched_at, id", before)]

    async def is_open_game_thread(self, thread_id: int) -> bool:
        return await self._pool.fetchval(
            f"SELECT 1 FROM games WHERE thread_id = $1 AND status IN ('lobby', 'active') AND {_LIVE} LIMIT 1",
            thread_id) is not None

    async def unposted_game_ids(self) -> list[int]:
        """Games whose latest version never reached the channel (the bot stopped in between)."""
        return await self._ids(f"SELECT id FROM games WHERE posted_version < version AND status != 'lobby' "
                               f"AND {_LIVE} AND state IS NOT NULL ORDER BY id")

    async def due_game_ids(self, now: str) -> list[int]:
        """Active games whose deadline has passed."""
        return await self._ids(
            f"SELECT id FROM games WHERE status = 'active' AND deadline_at IS NOT NULL AND {_LIVE} "
            "AND deadline_at <= $1 ORDER BY deadline_at, id", now)

    async def reminder_due_game_ids(self, now: str) -> list[int]:
        """Active games past half their deadline that have not been reminded for this turn."""
        return await self._ids(
            f"SELECT id FROM games WHERE status = 'active' AND reminded = 0 AND remind_at IS NOT NULL AND {_LIVE} "
            "AND remind_at <= $1 AND deadline_at > $1 ORDER BY id", now)

    async def stats(self, guild_id: int | None, game: str | None = None, *,
                    asker: int | None = None) -> list[tuple[str, int, int, int, int]]:
        """(game, user_id, played, won, drawn) per player per game in a server, most wins first; in
        a DM (``guild_id`` None) the asker's own line of their DM games only (``store.dm_asker``)."""
        mine = dm_asker(guild_id, asker)
        who, whose = ("user_id = $2", (mine,)) if mine is not None else ("user_id > 0", ())
        named = f" AND game = ${2 + len(whose)}" if game else ""
        sql = ("SELECT game, user_id, COUNT(*) AS played, SUM(won) AS won, SUM(draw) AS drawn FROM results "
               f"WHERE guild_id IS NOT DISTINCT FROM $1 AND {who}{named}"
               " GROUP BY game, user_id ORDER BY game, won DESC, played DESC, user_id")
        params = (guild_id, *whose, *((game,) if game else ()))
        return [(r["game"], r["user_id"], r["played"], r["won"], r["drawn"]) for r in await self._pool.fetch(sql, *params)]

    async def _latest_game_ids_in(self, guild_id: int, game: str | None, limit: int) -> list[int]:
        named = " AND game = $3" if game else ""
        return await self._ids(f"SELECT id FROM games WHERE guild_id = $1{named} ORDER BY id DESC LIMIT $2",
                               guild_id, limit, *((game,) if game else ()))

    async def _latest_dm_game_ids_of(self, user_id: int, game: str | None, limit: int) -> list[int]:
        """The latest games made in DMs that this user sits in (found through their seats)."""
        named = " AND g.game = $3" if game else ""
        return await self._ids(
            "SELECT DISTINCT g.id FROM seats s JOIN games g ON g.id = s.game_id "
            f"WHERE s.user_id = $1 AND g.guild_id IS NULL{named} ORDER BY g.id DESC LIMIT $2",
            user_id, limit, *((game,) if game else ()))

    async def turn_times_in(self, game_ids: list[int], user_id: int | None = None) -> list[tuple[int, float]]:
        """(user id, seconds) of each time someone (or this user) took to act in these games."""
        if not game_ids:
            return []
        sql = TURN_TIMES_SQL.format(games="SELECT unnest($1::bigint[])", user="AND user_id = $2" if user_id is not None else "")
        rows = await self._pool.fetch(sql, list(game_ids), *((user_id,) if user_id is not None else ()))
        return turn_seconds([tuple(r) for r in rows])

    async def seat_holders(self, game_ids: list[int]) -> dict[int, list[int]]:
        """Who sits in each seat of these games now, seat 0 first (a hand-over shows its substitute)."""
        out: dict[int, list[int]] = {}
        for r in await self._pool.fetch("SELECT game_id, user_id FROM seats WHERE game_id = ANY($1::bigint[]) "
                                        "ORDER BY game_id, seat", list(game_ids)):
            out.setdefault(r[0], []).append(r[1])
        return out

    async def substitutions(self, game_id: int) -> list[Handover]:
        """A game's seat hand-overs, in order."""
        return [Handover(r[0], r[1], r[2], r[3], r[4], r[5], r[6]) for r in await self._pool.fetch(
            "SELECT seat, from_user, to_user, by_user, after_n, version, at FROM substitutions WHERE game_id = $1 "
            "ORDER BY version, seat", game_id)]

    async def rating_changes(self, game_id: int) -> dict[str, tuple[float, float, float, float]]:
        """player -> (mu before, sigma before, mu after, sigma after) for a rated finished game."""
        return {r[0]: (r[1], r[2], r[3], r[4]) for r in await self._pool.fetch(
            "SELECT player, mu_before, sigma_before, mu_after, sigma_after FROM rating_changes WHERE game_id = $1",
            game_id)}

    async def leaderboard(self, guild_id: int | None, game: str, limit: int, *,
                          asker: int | None = None) -> list[tuple[str, float, float, int]]:
        """(player, mu, sigma, games) of a server's best ``limit`` players of a game, by ordinal; in
        a DM (``guild_id`` None) the asker's own rating from DM games, if any (``store.dm_asker``)."""
        mine = dm_asker(guild_id, asker)
        who, whose = (" AND player = $4", (user_rating_key(mine),)) if mine is not None else ("", ())
        return [(r[0], r[1], r[2], r[3]) for r in await self._pool.fetch(
            f"SELECT player, mu, sigma, games FROM ratings WHERE guild_id = $1 AND game = $2{who} "
            "ORDER BY mu - 3 * sigma DESC, games DESC, player LIMIT $3", rating_pool(guild_id), game, limit, *whose)]

    # ---- undo by consent (a request and its answers; the undo itself is a Draft) ------------------
    async def open_undo(self, request: UndoRequest) -> bool:
        """Store a new request; False when this position already has one (from any process)."""
        return await self._pool.fetchval(
            "INSERT INTO undo_requests (game_id, version, n, seat, user_id, needed, status, created_at) "
            "VALUES ($1, $2, $3, $4, $5, $6, 'open', $7) ON CONFLICT (game_id, version) DO NOTHING RETURNING TRUE",
            request.game_id, request.version, request.n, request.seat, request.user_id, json.dumps(request.needed),
            request.created_at) is not None

    async def undo_request(self, game_id: int, version: int) -> UndoRequest | None:
        async with self._pool.acquire() as conn:
            r = await conn.fetchrow("SELECT game_id, version, n, seat, user_id, needed, status, created_at "
                                    "FROM undo_requests WHERE game_id = $1 AND version = $2", game_id, version)
            if r is None:
                return None
            answers = {a[0]: bool(a[1]) for a in await conn.fetch(
                "SELECT seat, agree FROM undo_answers WHERE game_id = $1 AND version = $2", game_id, version)}
        return UndoRequest(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), r[6], r[7], answers)

    async def answer_undo(self, game_id: int, version: int, seat: int, agree: bool, now: str) -> bool:
        """Record a seat's answer once (False if it had answered); a refusal closes the request."""
        async with self._pool.acquire() as conn:
            try:
                async with conn.transaction():
                    await conn.execute("INSERT INTO undo_answers (game_id, version, seat, agree, at) "
                                       "VALUES ($1, $2, $3, $4, $5)", game_id, version, seat, int(agree), now)
                    if not agree:
                        await conn.execute("UPDATE undo_requests SET status = 'declined' WHERE game_id = $1 "
                                           "AND version = $2 AND status = 'open'", game_id, version)
            except asyncpg.IntegrityConstraintViolationError:  # answered already, or no such request
                return False
        return True

    async def set_undo_message(self, game_id: int, version: int, message_id: int) -> None:
        """Record the post that asks about the request asked at ``version`` (its buttons go when it ends)."""
        await self._pool.execute("UPDATE undo_requests SET message_id = $1 WHERE game_id = $2 AND version = $3",
                                 message_id, game_id, version)

    async def ended_undo_posts(self, game_id: int) -> list[tuple[int, int]]:
        """(version, message id) of a game's undo posts that still show buttons although their
        request ended: agreed, declined, or lapsed because the game moved past its version."""
        return [(r[0], r[1]) for r in await self._pool.fetch(
            "SELECT u.version, u.message_id FROM undo_requests u JOIN games g ON g.id = u.game_id "
            "WHERE u.game_id = $1 AND u.message_id IS NOT NULL AND u.controls_retired = 0 "
            "AND (u.status != 'open' OR u.version < g.version) ORDER BY u.version", game_id)]

    async def undo_post_retired(self, game_id: int, version: int) -> None:
        await self._pool.execute("UPDATE undo_requests SET controls_retired = 1 WHERE game_id = $1 AND version = $2",
                                 game_id, version)

    # ---- proposals needing consent (votes, draw offers, seat hand-overs) ---------------------------
    async def open_proposal(self, p: Proposal) -> int | None:
        """Store a new proposal; its id, or None when the game has one open already (any process)."""
        try:
            return await self._pool.fetchval(
                "INSERT INTO proposals (game_id, kind, seat, user_id, turn, needed, status, created_at, expires_at, "
                "hours, target_id, holder_id) VALUES ($1, $2, $3, $4, $5, $6, 'open', $7, $8, $9, $10, $11) RETURNING id",
                p.game_id, p.kind, p.seat, p.user_id, p.turn, json.dumps(p.needed), p.created_at, p.expires_at,
                p.hours, p.target_id, p.holder_id)
        except asyncpg.UniqueViolationError:
            return None

    async def proposal(self, proposal_id: int) -> Proposal | None:
        async with self._pool.acquire() as conn:
            r = await conn.fetchrow(f"SELECT {_PROPOSAL_COLUMNS} FROM proposals WHERE id = $1", proposal_id)
            if r is None:
                return None
            answers = {a[0]: bool(a[1]) for a in await conn.fetch(
                "SELECT seat, agree FROM proposal_answers WHERE proposal_id = $1", proposal_id)}
        return proposal_of(r, answers)

    async def open_proposals(self, game_id: int) -> list[Proposal]:
        """A game's open proposals, with their answers."""
        ids = await self._ids("SELECT id FROM proposals WHERE game_id = $1 AND status = 'open' ORDER BY id", game_id)
        return [p for i in ids if (p := await self.proposal(i)) is not None]

    async def answer_proposal(self, proposal_id: int, seat: int, agree: bool, now: str) -> bool:
        """Record a seat's answer once (False if it had answered); a no closes the proposal."""
        async with self._pool.acquire() as conn:
            try:
                async with conn.transaction():
                    await conn.execute("INSERT INTO proposal_answers (proposal_id, seat, agree, at) "
                                       "VALUES ($1, $2, $3, $4)", proposal_id, seat, int(agree), now)
                    if not agree:
                        await conn.execute("UPDATE proposals SET status = 'declined' WHERE id = $1 AND status = 'open'",
                                           proposal_id)
            except asyncpg.IntegrityConstraintViolationError:  # answered already, or no such proposal
                return False
        return True

    async def end_proposal(self, proposal_id: int, status: str) -> bool:
        """Close an open proposal (declined, expired, lapsed); False when it had ended already."""
        return await self._pool.execute("UPDATE proposals SET status = $1 WHERE id = $2 AND status = 'open'",
                                        status, proposal_id) == "UPDATE 1"

    async def lapse_proposals(self, game_id: int, turn: int) -> list[int]:
        """Votes and offers made before ``turn`` lapse (a seat hand-over does not)."""
        lapsing = "game_id = $1 AND status = 'open' AND turn < $2 AND kind != 'substitute'"
        if await self._pool.fetchval(f"SELECT 1 FROM proposals WHERE {lapsing} LIMIT 1", game_id, turn) is None:
            return []  # the usual case, on every board: no write at all
        return sorted(r[0] for r in await self._pool.fetch(
            f"UPDATE proposals SET status = 'lapsed' WHERE {lapsing} RETURNING id", game_id, turn))

    async def due_proposals(self, now: str) -> list[tuple[int, int]]:
        """(game id, proposal id) of open proposals whose time is up."""
        return [(r[0], r[1]) for r in await self._pool.fetch(
            "SELECT game_id, id FROM proposals WHERE status = 'open' AND expires_at <= $1 ORDER BY expires_at", now)]

    async def set_proposal_message(self, proposal_id: int, message_id: int) -> None:
        await self._pool.execute("UPDATE proposals SET message_id = $1 WHERE id = $2", message_id, proposal_id)

    async def ended_proposal_posts(self, game_id: int) -> list[tuple[int, int]]:
        """(proposal id, message id) of a game's proposal posts still showing buttons though it ended."""
        return [(r[0], r[1]) for r in await self._pool.fetch(
            "SELECT id, message_id FROM proposals WHERE game_id = $1 AND status != 'open' "
            "AND message_id IS NOT NULL AND controls_retired = 0 ORDER BY id", game_id)]

    async def proposal_post_retired(self, proposal_id: int) -> None:
        await self._pool.execute("UPDATE proposals SET controls_retired = 1 WHERE id = $1", proposal_id)

    # Backend-neutral methods: written once on Store, in terms of the methods each backend has.
    user_settings = Store.user_settings
    create_game = Store.create_game
    set_preferences = Store.set_preferences
    set_dm_reminders = Store.set_dm_reminders
    set_dm_open = Store.set_dm_open
    set_user_locale = Store.set_user_locale
    turn_times = Store.turn_times

    async def users_settings(self, user_ids: list[int]) -> dict[int, dict[str, Any]]:
        """Language, DM reachability and DM reminder choice of several users, in one operation."""
        ids = sorted(set(user_ids))
        found = {r["user_id"]: _user_settings(r) for r in await self._pool.fetch(
            f"SELECT {_USER_COLUMNS} FROM user_settings WHERE user_id = ANY($1::bigint[])", ids)}
        return {u: found.get(u, dict(NO_USER_SETTINGS)) for u in ids}

    async def set_user_time(self, user_id: int, time_zone: str | None, quiet_hours: str | None) -> None:
        """A person's time zone and quiet hours (None: none); both are written together."""
        await self._pool.execute("INSERT INTO user_settings (user_id, time_zone, quiet_hours) VALUES ($1, $2, $3) "
                                 "ON CONFLICT (user_id) DO UPDATE SET time_zone = excluded.time_zone, "
                                 "quiet_hours = excluded.quiet_hours", user_id, time_zone, quiet_hours)

    # ---- ping choices (per game, or game 0: the person's default) ---------------------------------
    async def ping_choices(self, user_ids: list[int], game_id: int) -> dict[int, dict[str, Any]]:
        """Each person's ping choices for a game: the game's own where set, else their default; a
        field set in neither is None."""
        ids = sorted(set(user_ids))
        if not ids:
            return {}
        rows = await self._pool.fetch("SELECT user_id, game_id, mode, via, last_wait FROM ping_choices "
                                      "WHERE user_id = ANY($1::bigint[]) AND game_id IN (0, $2)", ids, game_id)
        return merged_ping_choices(ids, [tuple(r) for r in rows])

    async def set_ping_choice(self, user_id: int, game_id: int, mode: str | None, via: str | None,
                              last_wait: bool | None) -> None:
        """Set the given fields of a person's choices for a game (0: their default); None keeps one."""
        await self._pool.execute(
            "INSERT INTO ping_choices (user_id, game_id, mode, via, last_wait) VALUES ($1, $2, $3, $4, $5) "
            "ON CONFLICT (user_id, game_id) DO UPDATE SET mode = COALESCE(excluded.mode, ping_choices.mode), "
            "via = COALESCE(excluded.via, ping_choices.via), "
            "last_wait = COALESCE(excluded.last_wait, ping_choices.last_wait)",
            user_id, game_id, mode, via, None if last_wait is None else int(last_wait))

    async def digest_user_ids(self) -> list[int]:
        """People who chose the daily digest, for some game or as their default."""
        return await self._ids("SELECT DISTINCT user_id FROM ping_choices WHERE mode = 'digest' ORDER BY user_id")

    async def claim_digest(self, user_id: int, day: str) -> bool:
        """Take the sending of a person's digest for their local ``day``; False when sent already."""
        status = await self._pool.execute(
            "INSERT INTO user_settings (user_id, digest_on) VALUES ($1, $2) ON CONFLICT (user_id) DO UPDATE "
            "SET digest_on = excluded.digest_on WHERE user_settings.digest_on IS NULL "
            "OR user_settings.digest_on < excluded.digest_on", user_id, day)
        return status.endswith(" 1")

    # ---- notices to clean up once their turn has passed ---------------------------------------------
    async def notice_posted(self, channel_id: int, message_id: int, game_turns: list[tuple[int, int]]) -> None:
        if game_turns:
            await self._pool.executemany(
                "INSERT INTO notice_posts (channel_id, message_id, game_id, turn) VALUES ($1, $2, $3, $4) "
                "ON CONFLICT (message_id, game_id) DO NOTHING",
                [(channel_id, message_id, g, t) for g, t in dict(game_turns).items()])

    async def retire_notices(self, game_id: int, turn: int | None) -> list[tuple[int, int]]:
        """The game moved past ``turn`` (None: it ended): its notices of earlier turns are retired,
        and the (channel, message) of every notice none of whose games is still on its turn returned."""
        stale = "game_id = $1 AND retired = 0" + ("" if turn is None else " AND turn < $2")
        params = (game_id,) if turn is None else (game_id, turn)
        if await self._pool.fetchval(f"SELECT 1 FROM notice_posts WHERE {stale} LIMIT 1", *params) is None:
            return []  # the usual case, on every board: no write at all
        async with self._pool.acquire() as conn, conn.transaction():
            found = await conn.fetch(f"UPDATE notice_posts SET retired = 1 WHERE {stale} "
                                     "RETURNING channel_id, message_id", *params)
            done = []
            for r in found:
                if await conn.fetchval("SELECT 1 FROM notice_posts WHERE message_id = $1 AND retired = 0",
                                       r[1]) is None:
                    done.append((r[0], r[1]))
            return sorted(set(done))

    # ---- notices held through quiet hours ----------------------------------------------------------
    async def hold_notices(self, rows: list[tuple[int, int, str, str, str]]) -> None:
        """Hold (user, game, kind, held at, release at) notices; one that is held already stays as it was."""
        if rows:
            await self._pool.executemany(
                "INSERT INTO held_notices (user_id, game_id, kind, held_at, release_at) VALUES ($1, $2, $3, $4, $5) "
                "ON CONFLICT (user_id, game_id, kind) DO NOTHING", rows)

    async def held_due_users(self, now: str) -> list[int]:
        """People with a held notice whose quiet hours have ended."""
        return await self._ids("SELECT DISTINCT user_id FROM held_notices WHERE release_at <= $1 ORDER BY user_id", now)

    async def take_held(self, user_id: int, now: str) -> list[tuple[int, str]]:
        """Take (delete and return) a person's due held notices as (game id, kind): of several
        processes, one takes each, so the notice is sent once."""
        return sorted((r[0], r[1]) for r in await self._pool.fetch(
            "DELETE FROM held_notices WHERE user_id = $1 AND release_at <= $2 RETURNING game_id, kind", user_id, now))

    async def move_held(self, user_id: int, release_at: str) -> None:
        """A person's quiet hours changed: their held notices are released at ``release_at``."""
        await self._pool.execute("UPDATE held_notices SET release_at = $1 WHERE user_id = $2", release_at, user_id)

    # ---- per-server settings (changed by the server's admins) -------------------------------------
    async def server_settings(self, guild_id: int) -> dict[str, Any]:
        """A server's settings; a setting never set is None (the bot's default applies)."""
        level = await self._pool.fetchval("SELECT stand_in_level FROM server_settings WHERE guild_id = $1", guild_id)
        return {"stand_in_level": level}

    async def set_stand_in_level(self, guild_id: int, level: str, user_id: int, now: str) -> None:
        """The AI strength that plays for absent players in this server's games (who set it, when)."""
        await self._pool.execute("INSERT INTO server_settings (guild_id, stand_in_level, updated_by, updated_at) "
                                 "VALUES ($1, $2, $3, $4) ON CONFLICT (guild_id) DO UPDATE SET "
                                 "stand_in_level = excluded.stand_in_level, updated_by = excluded.updated_by, "
                                 "updated_at = excluded.updated_at", guild_id, level, user_id, now)

    # ---- spectators (followers of a game) ---------------------------------------------------------
    async def follow(self, game_id: int, user_id: int, now: str, turn: int) -> bool:
        """Start following; the turn under way counts as told. False when already following."""
        return await self._pool.execute(
            "INSERT INTO followers (game_id, user_id, since, notified_version) VALUES ($1, $2, $3, $4) "
            "ON CONFLICT (game_id, user_id) DO NOTHING", game_id, user_id, now, turn) == "INSERT 0 1"

    async def unfollow(self, game_id: int, user_id: int) -> bool:
        return await self._pool.execute("DELETE FROM followers WHERE game_id = $1 AND user_id = $2",
                                        game_id, user_id) == "DELETE 1"

    async def followers(self, game_id: int) -> list[int]:
        """A game's followers, earliest first."""
        return await self._ids("SELECT user_id FROM followers WHERE game_id = $1 ORDER BY since, user_id", game_id)

    async def follow_candidates(self) -> list[tuple[int, int, int]]:
        """(game id, user id, notified turn) of followers of running games saved since their last
        notice: those who may have a new turn to hear about."""
        return [(r[0], r[1], r[2]) for r in await self._pool.fetch(
            "SELECT f.game_id, f.user_id, f.notified_version FROM followers f JOIN games g ON g.id = f.game_id "
            f"WHERE g.status = 'active' AND g.{_LIVE} AND g.version > f.notified_version "
            "ORDER BY f.user_id, f.game_id")]

    async def claim_follow_notices(self, user_id: int, turns: list[tuple[int, int]]) -> list[int]:
        """Take the notices of one follower's turns [(game id, turn), ...] in one transaction; returns
        the games claimed here (the rows stay locked until commit, so another process's claim of
        the same notice waits and then finds them taken)."""
        async with self._pool.acquire() as conn:
            async with conn.transaction():
                taken = []
                for game_id, turn in sorted(turns):  # one lock order across processes: no deadlock
                    if await conn.execute(
                            "UPDATE followers SET notified_version = $1 WHERE game_id = $2 AND user_id = $3 "
                            "AND notified_version < $1", turn, game_id, user_id) == "UPDATE 1":
                        taken.append(game_id)
                return [g for g, _ in turns if g in taken]

    async def preferences(self, user_id: int) -> dict[str, Any]:
        """A user's saved preferences (standing policies, view choices); {} when none or unreadable."""
        text = await self._pool.fetchval("SELECT preferences FROM user_settings WHERE user_id = $1", user_id)
        try:
            found = json.loads(text) if text is not None else {}
        except ValueError:
            return {}
        return found if isinstance(found, dict) else {}

    # ---- saved decks (per user and game) ---------------------------------------------------------
    async def decks(self, user_id: int, game: str) -> list[tuple[str, str]]:
        """(name, code) of a user's saved decks for a game, by name."""
        return [(r[0], r[1]) for r in await self._pool.fetch(
            "SELECT name, code FROM decks WHERE user_id = $1 AND game = $2 ORDER BY name", user_id, game)]

    async def deck(self, user_id: int, game: str, name: str) -> str | None:
        return await self._pool.fetchval("SELECT code FROM decks WHERE user_id = $1 AND game = $2 AND name = $3",
                                         user_id, game, name)

    async def save_deck(self, user_id: int, game: str, name: str, code: str, now: str) -> bool:
        """Save (or replace) a deck; True when it replaced one of the same name."""
        # One statement, so two processes saving the same name cannot both see "new": a row the
        # upsert updated carries the updating transaction in xmax, a freshly inserted one has 0.
        inserted = await self._pool.fetchval(
            "INSERT INTO decks (user_id, game, name, code, saved_at) VALUES ($1, $2, $3, $4, $5) "
            "ON CONFLICT (user_id, game, name) DO UPDATE SET code = excluded.code, saved_at = excluded.saved_at "
            "RETURNING (xmax = 0)", user_id, game, name, code, now)
        return not inserted

    async def delete_deck(self, user_id: int, game: str, name: str) -> bool:
        return await self._pool.execute("DELETE FROM decks WHERE user_id = $1 AND game = $2 AND name = $3",
                                        user_id, game, name) == "DELETE 1"

    async def _ids(self, sql: str, *params) -> list[int]:
        return [r[0] for r in await self._pool.fetch(sql, *params)]

    # ---- writing a game's play ---------------------------------------------------------------
    async def save(self, draft: Draft, now: str) -> GameRow:
        """Write a draft in one transaction: a new game (inserted) or the next versions of one.

        Raises VersionConflict when the game moved on since the draft's row was loaded (in this
        process or any other), and RematchExists when a rematch draft's old game already has one;
        nothing is written then.
        """
        async with self._pool.acquire() as conn:
            return await _save(conn, draft, now)

    # ---- plain writes (one statement each) -------------------------------------------------------
    async def mark_posted(self, game_id: int, version: int, message_id: int | None) -> None:
        """Record the board message for a version (never moves backwards)."""
        await self._pool.execute("UPDATE games SET posted_version = GREATEST(posted_version, $1), "
                                 "board_message_id = COALESCE($2, board_message_id) WHERE id = $3 AND posted_version <= $1",
                                 version, message_id, game_id)

    async def set_thread(self, game_id: int, thread_id: int | None, now: str) -> None:
        """The game's own thread (None: it is played in its channel from now on)."""
        await self._pool.execute("UPDATE games SET thread_id = $1, thread_touched_at = $2 WHERE id = $3",
                                 thread_id, now, game_id)

    async def touched_thread(self, thread_id: int, now: str) -> None:
        """We posted in (or unarchived) a thread: its idle clock restarts."""
        await self._pool.execute("UPDATE games SET thread_touched_at = $1 WHERE thread_id = $2", now, thread_id)

    async def set_status_message(self, game_id: int, message_id: int) -> None:
        await self._pool.execute("UPDATE games SET status_message_id = $1 WHERE id = $2", message_id, game_id)

    async def claim_reminders(self, turns: list[tuple[int, int]]) -> list[int]:
        """Mark games reminded for this turn, given as [(game id, version its reminder was composed
        from), ...]; returns only those this call claimed (any process). A game saved since that
        version is not claimed: its reminder is of a position that is gone."""
        if not turns:
            return []
        # Rows are locked in id order and rows another process is claiming right now are skipped
        # (it will claim them): two schedulers with overlapping lists neither deadlock nor wait,
        # and the update re-checks reminded = 0 and the version on the locked row, so a row
        # claimed or saved and committed meanwhile is out.
        ids, versions = [game_id for game_id, _ in turns], [version for _, version in turns]
        return sorted(r[0] for r in await self._pool.fetch(
            "UPDATE games g SET reminded = 1 FROM unnest($1::bigint[], $2::int[]) AS t(id, version) "
            "WHERE g.id = t.id AND g.version = t.version AND g.reminded = 0 AND g.id IN (SELECT id FROM games "
            "WHERE id = ANY($1::bigint[]) AND reminded = 0 ORDER BY id FOR UPDATE SKIP LOCKED) RETURNING g.id",
            ids, versions))

    async def claim_repost(self, game_id: int, now: str, until: str) -> bool:
        """Take the lease to repost a game's unposted board until ``until``; False if another
        process holds an unexpired lease."""
        return await self._pool.execute(
            "UPDATE games SET repost_claimed_until = $1 WHERE id = $2 AND "
            "(repost_claimed_until IS NULL OR repost_claimed_until <= $3)", until, game_id, now) == "UPDATE 1"

    async def claim_thread_touch(self, thread_id: int, before: str, now: str) -> bool:
        """Take the touching of an idle game thread: restart its idle clock if it was last touched
        before ``before``; False if another process did so meanwhile."""
        status = await self._pool.execute("UPDATE games SET thread_touched_at = $1 WHERE thread_id = $2 "
                                          "AND thread_touched_at < $3", now, thread_id, before)
        return int(status.split()[-1]) >= 1

    async def claim_recap(self, game_id: int, now: str, until: str) -> bool:
        """Take the lease to post a finished game's recap until ``until``: False when it was posted
        (or given up) already, or another process holds an unexpired lease."""
        return await self._pool.execute(
            "UPDATE games SET recap_claimed_until = $1 WHERE id = $2 AND status = 'finished' AND "
            "recap_message_id IS NULL AND (recap_claimed_until IS NULL OR recap_claimed_until <= $3)",
            until, game_id, now) == "UPDATE 1"

    async def recap_done(self, game_id: int, message_id: int) -> None:
        await self._pool.execute("UPDATE games SET recap_message_id = $1, recap_claimed_until = NULL WHERE id = $2",
                                 message_id, game_id)

    async def recap_failed(self, game_id: int, attempts: int) -> None:
        """Count a failed recap; after ``attempts`` failures, give up (message id 0)."""
        await self._pool.execute(
            "UPDATE games SET recap_attempts = recap_attempts + 1, recap_claimed_until = NULL, "
            "recap_message_id = CASE WHEN recap_attempts + 1 >= $1 THEN 0 ELSE NULL END WHERE id = $2",
            attempts, game_id)

    async def recap_due_game_ids(self, now: str) -> list[int]:
        """Finished games whose final board is posted and whose recap is not (and not claimed)."""
        return await self._ids(
            f"SELECT id FROM games WHERE status = 'finished' AND recap_message_id IS NULL AND {_LIVE} "
            "AND posted_version >= version AND (recap_claimed_until IS NULL OR recap_claimed_until <= $1) "
            "ORDER BY id", now)

    async def recent_game_ids_in_guild(self, guild_id: int, statuses, limit: int) -> list[int]:
        """The newest games of a server in these statuses (a bounded read for autocomplete)."""
        return await self._ids(
            f"SELECT id FROM games WHERE guild_id = $1 AND status = ANY($2::text[]) AND {_LIVE} "
            "ORDER BY id DESC LIMIT $3", guild_id, list(statuses), limit)

    async def set_vacation(self, game_id: int, seat: int, until: str, days_used: int) -> None:
        await self._pool.execute("UPDATE seats SET vacation_until = $1, vacation_days_used = $2 "
                                 "WHERE game_id = $3 AND seat = $4", until, days_used, game_id, seat)

    async def mark_broken(self, game_id: int, reason: str, now: str) -> bool:
        """Set a game aside; True only the first time (so it is reported once)."""
        return await self._pool.execute(
            "UPDATE games SET broken_at = $1, broken_reason = $2 WHERE id = $3 AND broken_at IS NULL",
            now, reason[:500], game_id) == "UPDATE 1"

    # ---- tournaments and leagues (bot/storage/postgres_tournaments.py) ----------------------------------------
    async def load_tournament(self, tournament_id: int) -> TournamentRow:
        """A tournament with its players and tables; TournamentNotFound when there is none."""
        async with self._pool.acquire() as conn:
            return await postgres_tournaments.load(conn, tournament_id)

    async def save_tournament(self, draft: TournamentDraft, games: list[Draft], now: str) -> TournamentRow:
        """The draft and the games its new tables create, in one transaction (TournamentChanged
        when the tournament's version moved: nothing is written then)."""
        async with self._pool.acquire() as conn:
            return await postgres_tournaments.save(conn, draft, list(games), now, write_draft)

    async def tournament_ids_in_guild(self, guild_id: int, statuses=OPEN_TOURNAMENTS) -> list[int]:
        return await self._ids("SELECT id FROM tournaments WHERE guild_id = $1 AND status = ANY($2::text[]) ORDER BY id",
                               guild_id, list(statuses))

    async def unrecorded_tables(self) -> list[tuple[int, int, int, int]]:
        """(tournament, round, table, game) of tables whose game ended and whose result is not recorded."""
        return [tuple(r) for r in await self._pool.fetch(UNRECORDED.format(indexed=""))]

    async def record_table(self, tournament_id: int, round_: int, table_no: int, places: list[int],
                           note: str | None) -> bool:
        """A table's result, once: False when it was recorded already (by anyone)."""
        return await self._pool.execute(
            "UPDATE tournament_tables SET places = $1, note = COALESCE($2, note) WHERE tournament_id = $3 "
            "AND round = $4 AND table_no = $5 AND places IS NULL",
            json.dumps(places), note, tournament_id, round_, table_no) == "UPDATE 1"

    async def finished_round_ids(self) -> list[int]:
        """Running tournaments (not leagues) whose current round has every result recorded."""
        return await self._ids(ROUND_DONE)

    async def unannounced_tournament_ids(self, now: str) -> list[int]:
        """Tournaments with a change the channel has not heard of, not claimed by anyone now."""
        return await self._ids("SELECT id FROM tournaments WHERE announced < stage AND (announce_claim_stage < stage "
                               "OR announce_claimed_until IS NULL OR announce_claimed_until <= $1) ORDER BY id", now)

    async def claim_announcement(self, tournament_id: int, stage: int, now: str, until: str) -> bool:
        """Take the lease to announce a tournament's stage until ``until``: False when it was
        announced already or another process holds an unexpired lease."""
        return await self._pool.execute(
            "UPDATE tournaments SET announce_claimed_until = $1, announce_claim_stage = $3 WHERE id = $2 "
            "AND announced < $3 AND stage >= $3 AND (announce_claim_stage < $3 OR announce_claimed_until IS NULL "
            "OR announce_claimed_until <= $4)", until, tournament_id, stage, now) == "UPDATE 1"

    async def announcement_done(self, tournament_id: int, stage: int) -> None:
        await self._pool.execute("UPDATE tournaments SET announced = GREATEST(announced, $1), "
                                 "announce_claimed_until = NULL WHERE id = $2", stage, tournament_id)

    async def ratings_of(self, guild_id: int | None, game: str, players: list[str]) -> dict[str, tuple[float, float]]:
        """player -> (mu, sigma) of those rated in this server's game (see bot/common/ratings.py)."""
        return {r[0]: (r[1], r[2]) for r in await self._pool.fetch(
            "SELECT player, mu, sigma FROM ratings WHERE guild_id = $1 AND game = $2 AND player = ANY($3::text[])",
            rating_pool(guild_id), game, sorted(set(players)))}

    async def _set_user(self, user_id: int, column: str, value) -> None:
        await self._pool.execute(f"INSERT INTO user_settings (user_id, {column}) VALUES ($1, $2) "
                                 f"ON CONFLICT (user_id) DO UPDATE SET {column} = excluded.{column}", user_id, value)


async def _session_unchanged(conn: asyncpg.Connection) -> None:
    """A connection goes back to the pool as it is: no operation here changes session state (no
    SET, LISTEN, cursors or session-level advisory locks; the migration lock is per transaction),
    so asyncpg's default reset (RESET ALL and friends) would only add a round trip per operation.
    asyncpg still rolls back any transaction left open."""


# ---- one operation on one connection ------------------------------------------------------------
def _params(count: int, start: int = 1) -> str:
    return ", ".join(f"${i}" for i in range(start, start + count))


async def _migrate(conn: asyncpg.Connection) -> None:
    known = PgStore.migrations()
    async with conn.transaction():
        # Processes starting together: the first migrates, the others wait and find nothing to do.
        # The key is per schema, so databases in other schemas (tests, other bots) do not wait.
        await conn.execute("SELECT pg_advisory_xact_lock(hashtext('tabletop-migrate:' || current_schema()))")
        await conn.execute(f"CREATE TABLE IF NOT EXISTS {_VERSION_TABLE} (version INTEGER NOT NULL)")
        current = await conn.fetchval(f"SELECT version FROM {_VERSION_TABLE}")
        if current is None:
            current = 0
            await conn.execute(f"INSERT INTO {_VERSION_TABLE} (version) VALUES (0)")
        if current > (known[-1][0] if known else 0):
            raise FutureRow(None, f"database schema {current} is newer than this bot understands")
        pending = [(number, sql) for number, sql in known if number > current]
        for number, sql in pending:
            await conn.execute(sql)  # a whole file: the simple query protocol runs every statement
            await conn.execute(f"UPDATE {_VERSION_TABLE} SET version = $1", number)
    if pending:
        await conn.execute("ANALYZE")  # statistics for the planner, gathered once per schema change


async def _columns(conn: asyncpg.Connection) -> dict[str, set[str]]:
    have: dict[str, set[str]] = {}
    for r in await conn.fetch("SELECT table_name, column_name FROM information_schema.columns "
                              "WHERE table_schema = current_schema()"):
        have.setdefault(r["table_name"], set()).add(r["column_name"])
    return have


async def _check_schema(conn: asyncpg.Connection) -> None:
    # What the SQLite migrations make is what the PostgreSQL twins must make too.
    have, want = await _columns(conn), _expected_columns()
    problems = [f"table {t} is missing" for t in want if t not in have]
    problems += [f"{t}.{col} is missing" for t in want if t in have for col in sorted(want[t] - have[t])]
    if problems:
        raise SchemaDamaged(None, "the database is damaged: " + "; ".join(problems))


# A game and its seats in one round trip: the seats come as an array of records (tuples).
_SELECT_GAME = (f"SELECT {', '.join('g.' + c.strip() for c in _GAME_COLUMNS.split(','))}, "
                f"ARRAY(SELECT ROW({', '.join(c.strip() for c in _SEAT_COLUMNS.split(',')[1:])}) FROM seats s "
                "WHERE s.game_id = g.id ORDER BY s.seat) AS seat_rows FROM games g")


def _decode(row) -> GameRow:
    seats = [SeatRow(seat, user_id, joined_at, absences, bool(stand_in), vacation_until, days_used)
             for seat, user_id, joined_at, absences, stand_in, vacation_until, days_used in row["seat_rows"]]
    return _decode_game(row, seats)


async def _load(conn: asyncpg.Connection, game_id: int) -> GameRow:
    row = await conn.fetchrow(f"{_SELECT_GAME} WHERE g.id = $1", game_id)
    if row is None:
        raise NotFound(game_id, "no such game")
    return _decode(row)


async def _save(conn: asyncpg.Connection, draft: Draft, now: str) -> GameRow:
    try:
        async with conn.transaction():
            await write_draft(conn, draft, now)
            saved = await _load(conn, draft.row.id)
            crash_point("store.save.before_commit")
    except BaseException:
        if draft.base_version is None:
            draft.row.id = None
        raise
    return saved


async def write_draft(conn: asyncpg.Connection, draft: Draft, now: str) -> None:
    """A draft's writes inside the caller's transaction (a game's save, or a tournament round that
    creates its games with its pairing)."""
    row = draft.row
    row.updated_at = now
    values = _draft_values(row)
    if draft.base_version is None:
        await _insert_game(conn, draft, values)
    else:
        await _update_game(conn, draft, values)
    await _write_seats(conn, draft)
    await _append_actions(conn, draft)
    if draft.results:
        await conn.executemany(
            "INSERT INTO results (game_id, guild_id, game, user_id, won, draw, at) VALUES ($1, $2, $3, $4, $5, $6, $7) "
            "ON CONFLICT (game_id, user_id) DO UPDATE SET guild_id = excluded.guild_id, game = excluded.game, "
            "won = excluded.won, draw = excluded.draw, at = excluded.at",
            [(row.id, row.guild_id, row.game, uid, int(won), int(draw), now) for uid, won, draw in draft.results])
    if draft.handovers:
        await _hand_seats(conn, draft)
    if draft.rating:
        await _rate(conn, row, draft.rating, now, draft.rating_shares)
    if draft.undo_done is not None:
        await conn.execute("UPDATE undo_requests SET status = 'done' WHERE game_id = $1 AND version = $2",
                           row.id, draft.undo_done)
    if draft.proposal_done is not None and await conn.execute(
            "UPDATE proposals SET status = 'passed' WHERE id = $1 AND status = 'open'",
            draft.proposal_done) != "UPDATE 1":
        raise VersionConflict(row.id, "the proposal ended meanwhile")


async def _hand_seats(conn: asyncpg.Connection, draft: Draft) -> None:
    """Seats handed to a substitute: the seat's new player, and the hand-over's record."""
    row = draft.row
    logged = await conn.fetchval("SELECT COALESCE(MAX(n), 0) FROM actions WHERE game_id = $1", row.id)
    for h in draft.handovers:
        await conn.execute("UPDATE seats SET user_id = $1, joined_at = $2 WHERE game_id = $3 AND seat = $4",
                           h.to_user, h.at, row.id, h.seat)
        await conn.execute("INSERT INTO substitutions (game_id, seat, from_user, to_user, after_n, version, at, by_user) "
                           "VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                           row.id, h.seat, h.from_user, h.to_user, logged, row.version, h.at, h.by_user)


async def _rate(conn: asyncpg.Connection, row: GameRow, sides: list[tuple[tuple[str, ...], int]], now: str,
                shares: dict[str, list[tuple[str, float]]] | None = None) -> None:
    """The ratings of a finished game's players, inside its final transaction, once per game (the
    same arithmetic as SQLite's, :func:`bot.storage.sqlite.rating_updates`)."""
    if await conn.fetchval("SELECT 1 FROM rating_changes WHERE game_id = $1 LIMIT 1", row.id):
        return  # rated already: an end saved twice is counted once
    guild = rating_pool(row.guild_id)
    # Two games of one server and game ending at once in two processes would each read the same
    # ratings and the later write would drop the earlier change (SQLite's writer lock rules that
    # out there): rating updates of one server's game take turns on a transaction lock.
    await conn.execute("SELECT pg_advisory_xact_lock(hashtext('tabletop-rating:' || $1::text || ':' || $2))",
                       str(guild), row.game)
    found = {r[0]: (r[1], r[2]) for r in await conn.fetch(
        "SELECT player, mu, sigma FROM ratings WHERE guild_id = $1 AND game = $2 AND player = ANY($3::text[])",
        guild, row.game, rated_players(sides, shares))}
    for key, before, mu, sigma in rating_updates(sides, found, shares):
        await conn.execute(
            "INSERT INTO ratings (guild_id, game, player, mu, sigma, games, updated_at) VALUES ($1, $2, $3, $4, $5, 1, $6) "
            "ON CONFLICT (guild_id, game, player) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
            "games = ratings.games + 1, updated_at = excluded.updated_at", guild, row.game, key, mu, sigma, now)
        await conn.execute(
            "INSERT INTO rating_changes (game_id, player, mu_before, sigma_before, mu_after, sigma_after) "
            "VALUES ($1, $2, $3, $4, $5, $6)", row.id, key, before.mu, before.sigma, mu, sigma)


async def _insert_game(conn: asyncpg.Connection, draft: Draft, values: tuple) -> None:
    row = draft.row
    names = ("game", "guild_id", "channel_id", "creator_id", "locale", "created_at", "posted_version") + _DRAFT_COLUMNS
    row.id = await conn.fetchval(f"INSERT INTO games ({', '.join(names)}) VALUES ({_params(len(names))}) RETURNING id",
                                 row.game, row.guild_id, row.channel_id, row.creator_id, row.locale, row.created_at,
                                 row.posted_version, *values)
    if draft.rematch_of is not None and await conn.execute(
            "UPDATE games SET rematch_id = $1 WHERE id = $2 AND rematch_id IS NULL", row.id, draft.rematch_of) != "UPDATE 1":
        raise RematchExists(draft.rematch_of, "a rematch exists already")


async def _update_game(conn: asyncpg.Connection, draft: Draft, values: tuple) -> None:
    row = draft.row
    # The compare-and-swap takes the game row's lock until commit, so it orders this game's saves
    # across processes: a second saver waits here until the first commits, then finds the
    # version moved and matches nothing.
    sets = ", ".join(f"{name} = ${i}" for i, name in enumerate(_DRAFT_COLUMNS, start=1))
    n = len(_DRAFT_COLUMNS)
    if await conn.fetchval(f"UPDATE games SET {sets} WHERE id = ${n + 1} AND version = ${n + 2} RETURNING id",
                           *values, row.id, draft.base_version) is None:
        exists = await conn.fetchval("SELECT 1 FROM games WHERE id = $1", row.id)
        raise (VersionConflict if exists else NotFound)(row.id, "version changed")


async def _write_seats(conn: asyncpg.Connection, draft: Draft) -> None:
    row = draft.row
    if draft.seats_replaced:
        await conn.execute("DELETE FROM seats WHERE game_id = $1", row.id)
        count = len(_SEAT_COLUMNS.split(","))
        await conn.executemany(f"INSERT INTO seats ({_SEAT_COLUMNS}) VALUES ({_params(count)})",
                               [_seat_values(row.id, s) for s in row.seats])
    elif draft.seats_changed:
        for seat, fields, values in changed_seat_fields(draft):
            sets = ", ".join(f"{f} = ${i}" for i, f in enumerate(fields, start=1))
            await conn.execute(f"UPDATE seats SET {sets} WHERE game_id = ${len(fields) + 1} AND seat = ${len(fields) + 2}",
                               *values, row.id, seat)


async def _append_actions(conn: asyncpg.Connection, draft: Draft) -> None:
    if not draft.actions:
        return
    # One statement numbers and writes them all (numbers continue the log; the game row's lock,
    # held since the compare-and-swap, keeps another process from numbering at the same time).
    a = draft.actions
    await conn.execute(
        "INSERT INTO actions (game_id, n, seat, user_id, action, version, at, stand_in) "
        "SELECT $1, m.first + a.i - 1, a.seat, a.user_id, a.action, a.version, a.at, a.stand_in "
        "FROM (SELECT COALESCE(MAX(n), 0) + 1 AS first FROM actions WHERE game_id = $1) m, "
        "unnest($2::int[], $3::bigint[], $4::text[], $5::int[], $6::text[], $7::int[]) "
        "WITH ORDINALITY AS a(seat, user_id, action, version, at, stand_in, i)",
        draft.row.id, [x.seat for x in a], [x.user_id for x in a], [x.action for x in a], [x.version for x in a],
        [x.at for x in a], [int(x.stand_in) for x in a])
