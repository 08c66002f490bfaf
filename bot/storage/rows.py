"""The rows both stores read and write, and what both share to encode and decode them.

A game (:class:`GameRow`, its seats and log), what one operation changes (:class:`Draft`), a
tournament (:class:`TournamentRow`, :class:`TournamentDraft`), the errors a store raises, and the
pure helpers both backends use on them: the column lists, the decoding of a row, the ratings'
arithmetic. The SQLite store (:mod:`bot.storage.sqlite`) and the PostgreSQL store
(:mod:`bot.storage.postgres`) import this module; it imports neither, so neither imports the other
for its types.
"""

from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..common import ratings

STATE_FORMAT = 1  # bump when the stored state layout changes incompatibly
OPEN_STATUSES = ("lobby", "active")
TURN_TIME_GAMES = 500  # a server's turn-time statistics read this many of its latest games at most


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


class RematchExists(StoreError):
    key = "rematch_exists"


class SchemaDamaged(StoreError):
    """The database file lacks tables or columns its schema version promises."""

    key = "schema_damaged"


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
    id: int | None  # None until a new game's draft is inserted
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
    step_version: int = 0
    broken_reason: str | None = None

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
    stand_in: bool = False


@dataclass
class UndoRequest:
    game_id: int
    version: int  # the game version it was asked at; it lapses once the game moves on
    n: int  # the first action log entry it takes back
    seat: int
    user_id: int
    needed: list[int]  # the seats whose consent it needs
    status: str  # open, declined, done
    created_at: str
    answers: dict[int, bool] = field(default_factory=dict)


@dataclass
class Proposal:
    """A proposal needing consent (bot/service/consent.py): a deadline vote, a draw offer, a seat
    offered to a substitute. ``needed`` are the seats whose yes it needs (none for a hand-over,
    which ``target_id`` alone answers)."""

    id: int | None
    game_id: int
    kind: str  # pause, extend, advance, draw, substitute
    seat: int  # the proposer's seat; for a hand-over, the seat handed over
    user_id: int  # who proposed
    turn: int  # the turn it was made in (a vote lapses when it passes)
    needed: list[int]
    status: str  # open, passed, declined, expired, lapsed
    created_at: str
    expires_at: str
    hours: float | None = None  # extend: by how long
    target_id: int | None = None  # a hand-over: the member offered the seat
    holder_id: int | None = None  # a hand-over: who held the seat when it was offered
    answers: dict[int, bool] = field(default_factory=dict)


_PROPOSAL_COLUMNS = ("id, game_id, kind, seat, user_id, turn, needed, status, created_at, expires_at, hours, "
                     "target_id, holder_id")


def proposal_of(r, answers: dict[int, bool]) -> Proposal:
    """A proposals row (in _PROPOSAL_COLUMNS order) and its answers (both backends)."""
    return Proposal(r[0], r[1], r[2], r[3], r[4], r[5], json.loads(r[6]), r[7], r[8], r[9], r[10], r[11], r[12],
                    answers)


@dataclass
class Handover:
    """A seat handed to a substitute (``substitutions``): from whom to whom, after which log entry."""

    seat: int
    from_user: int
    to_user: int
    by_user: int
    after_n: int = 0  # log entries before it (set when saved)
    version: int = 0
    at: str = ""


@dataclass
class Draft:
    """Everything one operation changes in one game, saved in one transaction.

    ``row`` is the game as it will be stored; the service edits it in memory and records each
    action with :meth:`log`, which bumps the version (one per action, as buttons count them).
    """

    row: GameRow
    base_version: int | None  # the version loaded; None for a game not stored yet
    actions: list[ActionRow] = field(default_factory=list)
    seats_replaced: bool = False
    seats_changed: dict[int, set[str]] = field(default_factory=dict)  # seat -> the fields this draft set
    results: list[tuple[int, bool, bool]] = field(default_factory=list)
    rematch_of: int | None = None
    # A finished game's sides for ratings: [(player keys of a team, place), ...] (see bot/common/ratings.py)
    rating: list[tuple[tuple[str, ...], int]] | None = None
    undo_done: int | None = None  # the version of the undo request this draft carries out
    proposal_done: int | None = None  # the proposal (bot/service/consent.py) this draft carries out
    handovers: list[Handover] = field(default_factory=list)  # seats handed to a substitute
    # A rated side's member standing for a seat several people held -> [(player key, share), ...]
    rating_shares: dict[str, list[tuple[str, float]]] = field(default_factory=dict)
    undoable: bool = True  # every action recorded so far may be taken back (Game.undoable)

    @classmethod
    def of(cls, row: GameRow) -> "Draft":
        """A draft over a copy of the row; the state is shared, since engines never change a state
        in place (``apply`` returns a new one)."""
        copied = dataclasses.replace(row, seats=[dataclasses.replace(s) for s in row.seats],
                                     options=dict(row.options), settings=dict(row.settings))
        return cls(copied, row.version)

    @classmethod
    def new(cls, row: GameRow) -> "Draft":
        return cls(row, None, seats_replaced=True)

    def bump(self) -> None:
        self.row.version += 1

    def log(self, seat: int, user_id: int | None, action: str, at: str, *, stand_in: bool = False) -> None:
        self.bump()
        self.actions.append(ActionRow(0, seat, user_id, action, self.row.version, at, stand_in))

    def replace_seats(self, user_ids: list[int], now: str) -> None:
        self.row.seats = [SeatRow(i, uid, now) for i, uid in enumerate(user_ids)]
        self.seats_replaced = True

    def hand_seat(self, seat: int, to_user: int, by_user: int, at: str) -> None:
        """Give a seat to another person: a clean slate (no absences, no stand-in, no vacation)."""
        seat_row = self.row.seat_row(seat)
        self.handovers.append(Handover(seat, seat_row.user_id, to_user, by_user, version=self.row.version, at=at))
        seat_row.user_id, seat_row.joined_at = to_user, at
        self.update_seat(seat, absences=0, stand_in=False, vacation_until=None, vacation_days_used=0)

    def update_seat(self, seat: int, **fields) -> None:
        seat_row = self.row.seat_row(seat)
        for name, value in fields.items():
            if name not in _SEAT_FIELDS:
                raise TypeError(f"not a seat field: {name}")
            setattr(seat_row, name, value)
        self.seats_changed.setdefault(seat, set()).update(fields)


# Columns a Draft owns (written under the game's version) versus delivery bookkeeping columns
# (posted version, message and thread ids), written by plain updates that a Draft never overwrites.
_DRAFT_COLUMNS = ("status", "options", "seed", "state", "state_format", "version", "updated_at", "salt",
                  "settings", "deadline_at", "turn_started_at", "reminded", "remind_at", "step_version")


_GAME_COLUMNS = ("id, game, guild_id, channel_id, thread_id, creator_id, status, options, seed, state, "
                 "state_format, version, board_message_id, posted_version, locale, created_at, updated_at, salt, "
                 "settings, deadline_at, turn_started_at, reminded, status_message_id, rematch_id, step_version, "
                 "broken_reason")
_SEAT_FIELDS = ("absences", "stand_in", "vacation_until", "vacation_days_used")
_SEAT_COLUMNS = "game_id, seat, user_id, joined_at, " + ", ".join(_SEAT_FIELDS)
_LIVE = "broken_at IS NULL"


def is_postgres_url(target: str) -> bool:
    return target.startswith(("postgresql://", "postgres://"))


def shown_target(target: str) -> str:
    """The database target as it may be printed or logged: a URL's password is blanked out."""
    return re.sub(r"^(postgres(?:ql)?://[^:/@]*):[^@]*@", r"\1:***@", target)


def numbered_migrations(folder) -> list[tuple[int, str]]:
    """(number, SQL) of every ``NNN_name.sql`` in a migrations folder, in order."""
    found = []
    for entry in folder.iterdir():
        if m := re.fullmatch(r"(\d+)_.*\.sql", entry.name):
            found.append((int(m[1]), entry.read_text(encoding="utf-8")))
    return sorted(found)


def dm_asker(guild_id: int | None, asker: int | None) -> int | None:
    """Whose figures a place may show (both backends): in a server everyone's (None), in a DM
    (``guild_id`` None) the asker's own. Games made in DMs belong to no server, so "every DM game"
    is every stranger's games pooled together: nobody may read that (issue #40)."""
    if guild_id is not None:
        return None
    if asker is None:
        raise ValueError("figures read in a DM are one person's: name the asker")
    return asker


def rating_pool(guild_id: int | None) -> int:
    """The ratings of a server's games are that server's; those of DM games are rated together
    (under 0), so a player's DM games count towards one rating, shown to nobody else."""
    return guild_id or 0


def user_rating_key(user_id: int) -> str:
    """A person's key in the ratings (an AI's is "ai:<level>"); the service rates under the same."""
    return f"user:{user_id}"


def new_game_row(*, game: str, guild_id: int | None, channel_id: int, creator_id: int, options: dict,
                 locale: str, now: str, settings: dict | None = None) -> GameRow:
    """A lobby not stored yet (id None); save it with ``Store.save(Draft.new(row))``."""
    return GameRow(id=None, game=game, guild_id=guild_id, channel_id=channel_id, thread_id=None,
                   creator_id=creator_id, status="lobby", options=dict(options), seed=None, state=None, version=0,
                   board_message_id=None, posted_version=-1, locale=locale, created_at=now, updated_at=now,
                   settings=dict(settings or {}))


# ---- what runs on the worker thread ------------------------------------------------------------
def _view_of(preferences: str | None) -> dict[str, Any]:
    """The view choices ("view" key) of a user's stored preferences; {} when none or unreadable."""
    try:
        found = json.loads(preferences) if preferences else {}
    except ValueError:
        return {}
    view = found.get("view") if isinstance(found, dict) else None
    return view if isinstance(view, dict) else {}


# A person's time to act: from the log entry before theirs (another seat's: the moment their turn
# began, in a game that takes turns) to their own first entry of the turn. Entries of AI seats and
# stand-ins, undos and game ends are not anyone's time; in a simultaneous step the later player's
# time counts from the earlier one's entry (the log keeps no other mark of when a step began).
TURN_TIMES_SQL = (
    "SELECT user_id, at, prev_at FROM (SELECT game_id, user_id, seat, at, action, stand_in, "
    "LAG(seat) OVER (PARTITION BY game_id ORDER BY n) AS prev_seat, "
    "LAG(at) OVER (PARTITION BY game_id ORDER BY n) AS prev_at FROM actions WHERE game_id IN ({games})) timed "
    "WHERE user_id > 0 AND stand_in = 0 AND prev_seat IS NOT NULL AND prev_seat != seat "
    "AND action NOT LIKE 'undo %' AND action NOT IN ('resign', 'timeout-forfeit', 'agreed-end') {user}")


def turn_seconds(rows: list[tuple]) -> list[tuple[int, float]]:
    """(user id, at, the entry before's at) -> (user id, seconds) (both backends)."""
    return [(u, (datetime.fromisoformat(at) - datetime.fromisoformat(before)).total_seconds())
            for u, at, before in rows]


def merged_ping_choices(user_ids: list[int], rows: list[tuple]) -> dict[int, dict[str, Any]]:
    """(user, game, mode, via, last_wait) rows of a game and of the defaults (game 0) -> each
    person's choices, the game's fields over the default's (both backends)."""
    out = {u: {"mode": None, "via": None, "last_wait": None} for u in user_ids}
    for user_id, game_id, mode, via, last_wait in sorted(rows, key=lambda r: r[1] != 0):  # defaults first
        mine = out[user_id]
        for name, value in (("mode", mode), ("via", via), ("last_wait", last_wait)):
            if value is not None:
                mine[name] = bool(value) if name == "last_wait" else value
    return out


_USER_COLUMNS = "user_id, dm_open, locale, dm_reminders, preferences, time_zone, quiet_hours"
NO_USER_SETTINGS = {"dm_open": None, "locale": None, "dm_reminders": False, "view": {}, "time_zone": None,
                    "quiet_hours": None}


def _user_settings(r) -> dict[str, Any]:
    """One user_settings row as the service reads it (both backends)."""
    return {"dm_open": None if r["dm_open"] is None else bool(r["dm_open"]), "locale": r["locale"],
            "dm_reminders": bool(r["dm_reminders"]), "view": _view_of(r["preferences"]),
            "time_zone": r["time_zone"], "quiet_hours": r["quiet_hours"]}


def _holders(member: str, shares: dict[str, list[tuple[str, float]]] | None) -> list[tuple[str, float]]:
    """The players a side's member stands for, with their shares (one player, whole, by default)."""
    return [(k, w) for k, w in (shares or {}).get(member, [(member, 1.0)]) if w > 0]


def rated_players(sides: list[tuple[tuple[str, ...], int]],
                  shares: dict[str, list[tuple[str, float]]] | None = None) -> list[str]:
    return sorted({k for team, _ in sides for member in team for k, _ in _holders(member, shares)})


def rating_updates(sides: list[tuple[tuple[str, ...], int]], found: dict[str, tuple[float, float]],
                   shares: dict[str, list[tuple[str, float]]] | None = None
                   ) -> list[tuple[str, "ratings.Rating", float, float]]:
    """(player, rating before, mu after, sigma after) for each rated player of a finished game,
    from the stored ratings ``found`` (player -> (mu, sigma)); shared by both store backends.

    A seat several people held (a substitute took it) is a member of ``shares``: the others are
    rated against it as one player whose rating is the holders' share-weighted mean; each holder
    gets the change they would have got playing the seat alone, times their share (the part of
    the seat's moves they made), so nobody is credited for the part they did not play."""
    shares = shares or {}
    keys = rated_players(sides, shares)
    before = {k: ratings.Rating(*found[k]) if k in found else ratings.Rating() for k in keys}

    def prior(member: str) -> ratings.Rating:
        held = _holders(member, shares)
        total = sum(w for _, w in held)
        return ratings.Rating(sum(w * before[k].mu for k, w in held) / total,
                              sum(w * before[k].sigma for k, w in held) / total)

    teams = [[prior(m) for m in team] for team, _ in sides]
    ranks = ratings.ranks_from([place for _, place in sides])
    updated = ratings.rate(teams, ranks)
    collected: dict[str, list[ratings.Rating]] = {}
    for t, ((team, _), new_team) in enumerate(zip(sides, updated)):
        for m, (member, new) in enumerate(zip(team, new_team)):
            if member not in shares:
                collected.setdefault(member, []).append(new)
                continue
            for key, share in _holders(member, shares):
                alone = [list(x) for x in teams]
                alone[t][m] = before[key]
                full = ratings.rate(alone, ranks)[t][m]
                was = before[key]
                collected.setdefault(key, []).append(ratings.Rating(was.mu + share * (full.mu - was.mu),
                                                                    was.sigma + share * (full.sigma - was.sigma)))
    out = []
    for key in keys:
        news = collected[key]
        out.append((key, before[key], sum(r.mu for r in news) / len(news), sum(r.sigma for r in news) / len(news)))
    return out


def _draft_values(row: GameRow) -> tuple:
    remind_at = _halfway(row.turn_started_at, row.deadline_at) if row.turn_started_at and row.deadline_at else None
    return (row.status, json.dumps(row.options), row.seed, None if row.state is None else json.dumps(row.state),
            STATE_FORMAT, row.version, row.updated_at, row.salt, json.dumps(row.settings), row.deadline_at,
            row.turn_started_at, int(row.reminded), remind_at, row.step_version)


def _halfway(start: str, end: str) -> str:
    a, b = datetime.fromisoformat(start), datetime.fromisoformat(end)
    return (a + (b - a) / 2).isoformat(timespec="seconds")


def changed_seat_fields(draft: Draft) -> list[tuple[int, tuple[str, ...], tuple]]:
    """(seat, fields, stored values) of each seat the draft changed: only the fields it set, so a
    save never overwrites a field another process changed meanwhile (a vacation set while another
    process ran a timeout that counted an absence)."""
    out = []
    for seat, names in sorted(draft.seats_changed.items()):
        fields = tuple(f for f in _SEAT_FIELDS if f in names)
        stored = dict(zip(_SEAT_FIELDS, _seat_values(draft.row.id, draft.row.seat_row(seat))[4:]))
        out.append((seat, fields, tuple(stored[f] for f in fields)))
    return out


def _seat_values(game_id: int, s: SeatRow) -> tuple:
    return (game_id, s.seat, s.user_id, s.joined_at, s.absences, int(s.stand_in), s.vacation_until,
            s.vacation_days_used)


def _decode_game(row, seats: list[SeatRow]) -> GameRow:
    game_id = row["id"]
    if type(row["state_format"]) is not int:
        raise CorruptRow(game_id, f"undecodable row: state format {row['state_format']!r}")
    if row["state_format"] > STATE_FORMAT:
        raise FutureRow(game_id, f"state format {row['state_format']} is newer than {STATE_FORMAT}")
    try:
        options = json.loads(row["options"])
        settings = json.loads(row["settings"])
        state = json.loads(row["state"]) if row["state"] is not None else None
        if not isinstance(options, dict) or not isinstance(settings, dict) or (
                state is not None and not isinstance(state, dict)):
            raise ValueError("options and state must be JSON objects")
    except (ValueError, TypeError) as e:
        raise CorruptRow(game_id, f"undecodable row: {e}") from None
    return GameRow(
        id=game_id, game=row["game"], guild_id=row["guild_id"], channel_id=row["channel_id"],
        thread_id=row["thread_id"], creator_id=row["creator_id"], status=row["status"], options=options,
        seed=row["seed"], state=state, version=row["version"], board_message_id=row["board_message_id"],
        posted_version=row["posted_version"], locale=row["locale"], created_at=row["created_at"],
        updated_at=row["updated_at"], seats=seats, salt=row["salt"], settings=settings,
        deadline_at=row["deadline_at"], turn_started_at=row["turn_started_at"], reminded=bool(row["reminded"]),
        status_message_id=row["status_message_id"], rematch_id=row["rematch_id"],
        step_version=row["step_version"], broken_reason=row["broken_reason"],
    )


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


# Statements both dialects accept: the SQLite and PostgreSQL stores run these same strings.
# Tables whose game ended (or was set aside) and whose result is not recorded yet.
UNRECORDED = ("SELECT x.tournament_id, x.round, x.table_no, x.game_id FROM tournament_tables x "
              "{indexed} JOIN games g ON g.id = x.game_id WHERE x.places IS NULL AND x.game_id IS NOT NULL "
              "AND (g.status NOT IN ('lobby', 'active') OR g.broken_at IS NOT NULL) "
              "ORDER BY x.tournament_id, x.round, x.table_no")
# Running tournaments (not leagues) whose current round has no game still to be recorded.
ROUND_DONE = ("SELECT t.id FROM tournaments t WHERE t.status = 'running' AND t.kind != 'league' AND t.round > 0 "
              "AND NOT EXISTS (SELECT 1 FROM tournament_tables x WHERE x.tournament_id = t.id "
              "AND x.round = t.round AND x.places IS NULL) ORDER BY t.id")
