"""Tournaments in storage: the rows the service reads and the draft it saves, and their SQLite
statements (``bot/storage/postgres_tournaments.py`` holds the PostgreSQL twins; both stores expose the
same methods).

Everything one tournament operation changes (its row, players, the tables of a round with the
games they create, the results it records) is a :class:`TournamentDraft`, saved in one
transaction whose first write compares and bumps the tournament's version, as a game's save does.
So a round is paired and its games are created together or not at all: pairing it again after a
crash, or in a second process at the same moment, finds the version moved and writes nothing.
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from dataclasses import dataclass, field

from ..faults import crash_point

TOURNAMENT_STATUSES = ("open", "running", "finished", "abandoned")
OPEN_TOURNAMENTS = ("open", "running")


class TournamentNotFound(Exception):
    def __init__(self, tournament_id: int):
        super().__init__(f"tournament {tournament_id}")
        self.tournament_id = tournament_id


class TournamentChanged(Exception):
    """The tournament moved on since the draft's row was loaded (another operation, another
    process, or the same round paired again): nothing of the draft was written."""


@dataclass
class EntrantRow:
    user_id: int
    entry: int  # the player's number in this tournament, in joining order
    joined_at: str
    joined_round: int = 1  # the first round they may be paired in
    dropped_round: int | None = None  # the first round they are no longer paired in
    seed: int | None = None  # place in the starting order (1 = best), set at the start or a late join
    waiting_since: str | None = None  # a league player waiting for an opponent


@dataclass
class TableRow:
    round: int
    table_no: int
    players: list[int]
    game_id: int | None = None  # none for a bye or a walkover
    places: list[int] | None = None  # aligned with players once the game ended; [] when void
    note: str | None = None
    new_game: int | None = None  # in a draft: the index of the game (in the save's games) it creates


@dataclass
class TournamentRow:
    id: int | None
    guild_id: int
    channel_id: int
    creator_id: int
    kind: str
    game: str
    options: dict
    settings: dict
    status: str
    round: int
    version: int
    stage: int
    announced: int
    locale: str
    created_at: str
    updated_at: str
    players: list[EntrantRow] = field(default_factory=list)
    tables: list[TableRow] = field(default_factory=list)

    def entrant(self, user_id: int) -> EntrantRow | None:
        return next((p for p in self.players if p.user_id == user_id), None)

    def active(self, round_: int) -> list[EntrantRow]:
        """Who may be paired in a round: joined by then and not dropped before."""
        return [p for p in self.players if p.joined_round <= round_ and (p.dropped_round is None or p.dropped_round > round_)]

    def tables_of(self, round_: int) -> list[TableRow]:
        return [t for t in self.tables if t.round == round_]


@dataclass
class TournamentDraft:
    """Everything one operation changes in one tournament; ``row`` is the tournament as it will be
    stored (the caller bumps its version once)."""

    row: TournamentRow
    base_version: int | None
    added: list[EntrantRow] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)
    changed: dict[int, set[str]] = field(default_factory=dict)  # user -> the entrant fields set
    new_tables: list[TableRow] = field(default_factory=list)
    recorded: list[TableRow] = field(default_factory=list)  # results written where none is yet

    @classmethod
    def of(cls, row: TournamentRow) -> "TournamentDraft":
        copied = dataclasses.replace(row, options=dict(row.options), settings=dict(row.settings),
                                     players=[dataclasses.replace(p) for p in row.players],
                                     tables=[dataclasses.replace(t) for t in row.tables])
        return cls(copied, row.version)

    @classmethod
    def new(cls, row: TournamentRow) -> "TournamentDraft":
        return cls(row, None)

    def bump(self, *, announce: bool = False) -> None:
        """One more version; ``announce``: the channel must hear of this change (a round, the end)."""
        self.row.version += 1
        if announce:
            self.row.stage += 1

    def add(self, entrant: EntrantRow) -> None:
        self.row.players.append(entrant)
        self.added.append(entrant)

    def remove(self, user_id: int) -> None:
        self.row.players = [p for p in self.row.players if p.user_id != user_id]
        self.removed.append(user_id)

    def change(self, user_id: int, **fields) -> None:
        entrant = self.row.entrant(user_id)
        for name, value in fields.items():
            if name not in _ENTRANT_FIELDS:
                raise TypeError(f"not an entrant field: {name}")
            setattr(entrant, name, value)
        self.changed.setdefault(user_id, set()).update(fields)

    def table(self, table: TableRow) -> None:
        self.row.tables.append(table)
        self.new_tables.append(table)

    def record(self, round_: int, table_no: int, places: list[int], note: str | None = None) -> None:
        table = next(t for t in self.row.tables if (t.round, t.table_no) == (round_, table_no))
        table.places, table.note = places, note if note is not None else table.note
        self.recorded.append(table)


_ENTRANT_FIELDS = ("joined_round", "dropped_round", "seed", "waiting_since")
_ROW_COLUMNS = ("status", "options", "settings", "round", "version", "stage", "updated_at")
TOURNAMENT_COLUMNS = ("id, guild_id, channel_id, creator_id, kind, game, options, settings, status, round, version, "
                      "stage, announced, locale, created_at, updated_at")
ENTRANT_COLUMNS = "user_id, entry, joined_at, joined_round, dropped_round, seed, waiting_since"
TABLE_COLUMNS = "round, table_no, players, game_id, places, note"


def row_values(row: TournamentRow) -> tuple:
    return (row.status, json.dumps(row.options), json.dumps(row.settings), row.round, row.version, row.stage,
            row.updated_at)


def decode_tournament(r, players, tables) -> TournamentRow:
    return TournamentRow(
        id=r["id"], guild_id=r["guild_id"], channel_id=r["channel_id"], creator_id=r["creator_id"], kind=r["kind"],
        game=r["game"], options=json.loads(r["options"]), settings=json.loads(r["settings"]), status=r["status"],
        round=r["round"], version=r["version"], stage=r["stage"], announced=r["announced"], locale=r["locale"],
        created_at=r["created_at"], updated_at=r["updated_at"],
        players=[EntrantRow(*p) for p in players],
        tables=[TableRow(t[0], t[1], json.loads(t[2]), t[3], None if t[4] is None else json.loads(t[4]), t[5])
                for t in tables])


def entrant_values(tournament_id: int, p: EntrantRow) -> tuple:
    return (tournament_id, p.user_id, p.entry, p.joined_at, p.joined_round, p.dropped_round, p.seed, p.waiting_since)


def table_values(tournament_id: int, t: TableRow, game_id: int | None) -> tuple:
    return (tournament_id, t.round, t.table_no, json.dumps(t.players), game_id,
            None if t.places is None else json.dumps(t.places), t.note)


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
    row = draft.row
    row.updated_at = now
    c.execute("BEGIN IMMEDIATE")
    try:
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
        crash_point("store.tournament.before_commit")
        c.execute("COMMIT")
    except BaseException:
        c.execute("ROLLBACK")
        if draft.base_version is None:
            row.id = None
        for game in games:
            if game.base_version is None:
                game.row.id = None
        raise
    return load(c, row.id)


def record_table(c: sqlite3.Connection, tournament_id: int, round_: int, table_no: int, places: list[int],
                 note: str | None) -> bool:
    return c.execute("UPDATE tournament_tables SET places = ?, note = COALESCE(?, note) WHERE tournament_id = ? "
                     "AND round = ? AND table_no = ? AND places IS NULL",
                     (json.dumps(places), note, tournament_id, round_, table_no)).rowcount == 1


# Tables whose game ended (or was set aside) and whose result is not recorded yet.
UNRECORDED = ("SELECT x.tournament_id, x.round, x.table_no, x.game_id FROM tournament_tables x "
              "{indexed} JOIN games g ON g.id = x.game_id WHERE x.places IS NULL AND x.game_id IS NOT NULL "
              "AND (g.status NOT IN ('lobby', 'active') OR g.broken_at IS NOT NULL) "
              "ORDER BY x.tournament_id, x.round, x.table_no")
# Running tournaments (not leagues) whose current round has no game still to be recorded.
ROUND_DONE = ("SELECT t.id FROM tournaments t WHERE t.status = 'running' AND t.kind != 'league' AND t.round > 0 "
              "AND NOT EXISTS (SELECT 1 FROM tournament_tables x WHERE x.tournament_id = t.id "
              "AND x.round = t.round AND x.places IS NULL) ORDER BY t.id")
