"""Tournaments on PostgreSQL: the twins of ``bot/storage/sqlite_tournaments.py``'s SQLite statements.

A save's first write is the version compare-and-swap on the tournament's row, which holds the
row's lock until commit: of two processes pairing the same round, exactly one commits its tables
and games; the other matches nothing and writes nothing.
"""

from __future__ import annotations

import json

import asyncpg

from ..faults import crash_point
from .rows import (_ENTRANT_FIELDS, _ROW_COLUMNS, ENTRANT_COLUMNS, TABLE_COLUMNS, TOURNAMENT_COLUMNS, TournamentChanged,
                   TournamentDraft, TournamentNotFound, TournamentRow, decode_tournament, entrant_values, row_values,
                   table_values)


def _params(count: int, start: int = 1) -> str:
    return ", ".join(f"${i}" for i in range(start, start + count))


async def load(conn: asyncpg.Connection, tournament_id: int) -> TournamentRow:
    r = await conn.fetchrow(f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = $1", tournament_id)
    if r is None:
        raise TournamentNotFound(tournament_id)
    players = await conn.fetch(f"SELECT {ENTRANT_COLUMNS} FROM tournament_players WHERE tournament_id = $1 "
                               "ORDER BY entry", tournament_id)
    tables = await conn.fetch(f"SELECT {TABLE_COLUMNS} FROM tournament_tables WHERE tournament_id = $1 "
                              "ORDER BY round, table_no", tournament_id)
    return decode_tournament(r, players, tables)


async def save(conn: asyncpg.Connection, draft: TournamentDraft, games: list, now: str, write_draft) -> TournamentRow:
    row = draft.row
    row.updated_at = now
    try:
        async with conn.transaction():
            if draft.base_version is None:
                names = ("guild_id", "channel_id", "creator_id", "kind", "game", "locale", "created_at") + _ROW_COLUMNS
                row.id = await conn.fetchval(
                    f"INSERT INTO tournaments ({', '.join(names)}) VALUES ({_params(len(names))}) RETURNING id",
                    row.guild_id, row.channel_id, row.creator_id, row.kind, row.game, row.locale, row.created_at,
                    *row_values(row))
            else:
                n = len(_ROW_COLUMNS)
                sets = ", ".join(f"{name} = ${i}" for i, name in enumerate(_ROW_COLUMNS, start=1))
                if await conn.fetchval(f"UPDATE tournaments SET {sets} WHERE id = ${n + 1} AND version = ${n + 2} "
                                       "RETURNING id", *row_values(row), row.id, draft.base_version) is None:
                    if not await conn.fetchval("SELECT 1 FROM tournaments WHERE id = $1", row.id):
                        raise TournamentNotFound(row.id)
                    raise TournamentChanged(row.id)
            for user_id in draft.removed:
                await conn.execute("DELETE FROM tournament_players WHERE tournament_id = $1 AND user_id = $2",
                                   row.id, user_id)
            if draft.added:
                await conn.executemany(f"INSERT INTO tournament_players (tournament_id, {ENTRANT_COLUMNS}) "
                                       f"VALUES ({_params(8)})", [entrant_values(row.id, p) for p in draft.added])
            for user_id, names in draft.changed.items():
                entrant = row.entrant(user_id)
                if entrant is None or entrant in draft.added:
                    continue
                fields = [f for f in _ENTRANT_FIELDS if f in names]
                sets = ", ".join(f"{f} = ${i}" for i, f in enumerate(fields, start=1))
                await conn.execute(f"UPDATE tournament_players SET {sets} WHERE tournament_id = ${len(fields) + 1} "
                                   f"AND user_id = ${len(fields) + 2}",
                                   *[getattr(entrant, f) for f in fields], row.id, user_id)
            for game in games:
                await write_draft(conn, game, now)
            if draft.new_tables:
                await conn.executemany(
                    f"INSERT INTO tournament_tables (tournament_id, {TABLE_COLUMNS}) VALUES ({_params(7)})",
                    [table_values(row.id, t, games[t.new_game].row.id if t.new_game is not None else t.game_id)
                     for t in draft.new_tables])
            for t in draft.recorded:
                await conn.execute("UPDATE tournament_tables SET places = $1, note = $2 WHERE tournament_id = $3 "
                                   "AND round = $4 AND table_no = $5 AND places IS NULL",
                                   json.dumps(t.places), t.note, row.id, t.round, t.table_no)
            saved = await load(conn, row.id)
            crash_point("store.tournament.before_commit")
    except BaseException:
        if draft.base_version is None:
            row.id = None
        for game in games:
            if game.base_version is None:
                game.row.id = None
        raise
    return saved
