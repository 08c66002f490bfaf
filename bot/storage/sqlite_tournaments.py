"""Tournaments in the SQLite store: their statements (``bot/storage/rows.py`` holds the rows the
service reads and the draft it saves, ``bot/storage/postgres_tournaments.py`` the PostgreSQL twins;
both stores expose the same methods).

Everything one tournament operation changes (its row, players, the tables of a round with the
games they create, the results it records) is a :class:`TournamentDraft`, saved in one
transaction whose first write compares and bumps the tournament's version, as a game's save does.
So a round is paired and its games are created together or not at all: pairing it again after a
crash, or in a second process at the same moment, finds the version moved and writes nothing.
"""

from __future__ import annotations

import json
import sqlite3

from ..faults import crash_point
from .sqlite_transaction import immediate
from .rows import (decode_tournament, ENTRANT_COLUMNS, _ENTRANT_FIELDS, entrant_values, _ROW_COLUMNS,
                   row_values, TABLE_COLUMNS, table_values, TOURNAMENT_COLUMNS, TournamentChanged,
                   TournamentDraft, TournamentNotFound, TournamentRow)


# ---- SQLite: what runs on the store's worker thread ------------------------------------------------
def load(c: sqlite3.Connection, tournament_id: int) -> TournamentRow:
    r = c.execute(f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?", (tournament_id,)).fetchone()
    if r is None:
        raise TournamentNotFound(tournament_id)
    players = c.execute(f"SELECT {ENTRANT_COLUMNS} FROM tournament_players WHERE tournament_id = ? ORDER BY entry",
                        (tournament_id,)).fetchall()
    tables = c.execute(f"SELECT {TABLE_COLUMNS} FROM tournament_tables WHERE tournament_id = ? "
                       "ORDER BY round, table_no", (tournament_id,)).fetchall()
    return decode_tournament(r, players, tables)


def save(c: sqlite3.Connection, draft: TournamentDraft, games: list, now: str, write_draft) -> TournamentRow:
    """The draft and the games its new tables create (``games``: game Drafts), in one transaction."""
    draft.row.updated_at = now
    try:
        with immediate(c):
            _write(c, draft, games, now, write_draft)
            crash_point("store.tournament.before_commit")
    except BaseException:
        if draft.base_version is None:
            draft.row.id = None
        for game in games:
            if game.base_version is None:
                game.row.id = None
        raise
    return load(c, draft.row.id)


def _write(c: sqlite3.Connection, draft: TournamentDraft, games: list, now: str, write_draft) -> None:
    """The writes of :func:`save`, inside its transaction."""
    row = draft.row
    if draft.base_version is None:
        cur = c.execute("INSERT INTO tournaments (guild_id, channel_id, creator_id, kind, game, locale, created_at, "
                        f"{', '.join(_ROW_COLUMNS)}) VALUES ({', '.join('?' * (7 + len(_ROW_COLUMNS)))})",
                        (row.guild_id, row.channel_id, row.creator_id, row.kind, row.game, row.locale,
                         row.created_at, *row_values(row)))
        row.id = cur.lastrowid
    elif c.execute(f"UPDATE tournaments SET {', '.join(f'{n} = ?' for n in _ROW_COLUMNS)} WHERE id = ? AND version = ?",
                   (*row_values(row), row.id, draft.base_version)).rowcount != 1:
        if not c.execute("SELECT 1 FROM tournaments WHERE id = ?", (row.id,)).fetchone():
            raise TournamentNotFound(row.id)
        raise TournamentChanged(row.id)
    for user_id in draft.removed:
        c.execute("DELETE FROM tournament_players WHERE tournament_id = ? AND user_id = ?", (row.id, user_id))
    c.executemany("INSERT INTO tournament_players (tournament_id, user_id, entry, joined_at, joined_round, "
                  "dropped_round, seed, waiting_since) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                  [entrant_values(row.id, p) for p in draft.added])
    for user_id, names in draft.changed.items():
        entrant = row.entrant(user_id)
        if entrant is None or entrant in draft.added:
            continue
        fields = [n for n in _ENTRANT_FIELDS if n in names]
        c.execute(f"UPDATE tournament_players SET {', '.join(f'{n} = ?' for n in fields)} "
                  "WHERE tournament_id = ? AND user_id = ?",
                  (*[getattr(entrant, n) for n in fields], row.id, user_id))
    for game in games:
        write_draft(c, game, now)
    c.executemany(f"INSERT INTO tournament_tables (tournament_id, {TABLE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                  [table_values(row.id, t, games[t.new_game].row.id if t.new_game is not None else t.game_id)
                   for t in draft.new_tables])
    for t in draft.recorded:
        c.execute("UPDATE tournament_tables SET places = ?, note = ? WHERE tournament_id = ? AND round = ? "
                  "AND table_no = ? AND places IS NULL",
                  (json.dumps(t.places), t.note, row.id, t.round, t.table_no))


def record_table(c: sqlite3.Connection, tournament_id: int, round_: int, table_no: int, places: list[int],
                 note: str | None) -> bool:
    return c.execute("UPDATE tournament_tables SET places = ?, note = COALESCE(?, note) WHERE tournament_id = ? "
                     "AND round = ? AND table_no = ? AND places IS NULL",
                     (json.dumps(places), note, tournament_id, round_, table_no)).rowcount == 1

