"""Who may do what with a game, and where: the one place every entry point asks.

A game belongs to the server it was made in. A request about a game is honoured only when the
game is *visible* from where it was made:

- in a server: only in the game's own server (any of its channels or threads);
- in a DM with the bot: only for the game's seated players and its followers;
- a game made in a DM (no server): only in that DM, or for its seated players in their DMs.

Anything else is answered exactly as a game that does not exist ("game_not_found"), so a stranger
learns nothing, not even that the number is taken. Then the operation's *role* decides (``RULES``):
anyone who sees the game, a seated player, or the creator / a member with Manage Server (counted
only in the game's own server, since it is only visible there). docs/authorization.md shows the
same table for people; a test keeps the two in step.

A request with no place (``where=None``) comes from the host itself: the terminal driver, where
one person plays every seat, and the scheduler's own work. It sees every game; roles are checked as
for a member of the game's server without Manage Server.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import Enum

from ..storage.rows import GameRow
from .outbox import ServiceError

# A lobby whose creator left, or that nobody changed for this long, may be started by anyone seated.
START_OPENS_TO_ALL_AFTER = timedelta(hours=24)


@dataclass(frozen=True)
class Where:
    """Where a request was made: the server (None in a DM), the channel or thread, and whether the
    member holds Manage Server (or Administrator) in that server."""

    guild_id: int | None
    channel_id: int | None
    manages_server: bool = False


@dataclass(frozen=True)
class Ask:
    """One request about a game: the operation (a key of ``RULES``), by whom, from where."""

    op: str
    user_id: int
    where: Where | None


class Who(Enum):
    ANYONE = "anyone who sees the game"
    PLAYER = "a seated player"
    MANAGER = "the creator, or Manage Server in the game's server"
    STARTER = "the creator or Manage Server; anyone seated once the creator left or the lobby waited 24 h"
    # Tournaments and leagues (a tournament belongs to its server, as a game does)
    MEMBER = "anyone in the tournament's server; its players from a DM"
    ENTRANT = "a player of the tournament"
    ORGANISER = "the organiser, or Manage Server in the tournament's server"
    SUBSTITUTE = "a seated player (their own seat); the creator or Manage Server once a seat missed 2 deadlines"


@dataclass(frozen=True)
class Rule:
    who: Who
    entry_points: str  # what a person uses to ask for it, for the docs' table


RULES: dict[str, Rule] = {
    "status": Rule(Who.ANYONE, "/game status"),
    "history": Rule(Who.ANYONE, "/game history"),
    "replay": Rule(Who.ANYONE, "/game replay, the replay viewer's buttons and menus"),
    "export": Rule(Who.ANYONE, "/game export"),
    "follow": Rule(Who.ANYONE, "/game follow, the board's Follow button"),
    "unfollow": Rule(Who.ANYONE, "/game unfollow, the Unfollow button"),
    "join": Rule(Who.ANYONE, "/game join, the lobby's Join button"),
    "leave": Rule(Who.PLAYER, "/game leave, the lobby's Leave button"),
    "invite": Rule(Who.PLAYER, "the lobby's Invite menu"),
    "act": Rule(Who.PLAYER, "/play, action buttons and menus, forms"),
    "panel": Rule(Who.PLAYER, "the My panel button, /play's action autocomplete"),
    "resign": Rule(Who.PLAYER, "/game resign; in the terminal, resign and ai (the AI plays the seat to the end)"),
    "undo": Rule(Who.PLAYER, "/game undo, the Undo button, the Agree/Decline buttons"),
    "rematch": Rule(Who.PLAYER, "the Rematch button"),
    "pings": Rule(Who.PLAYER, "/game settings with game_id: (pings, via, last_wait for that game)"),
    "draw": Rule(Who.PLAYER, "/table draw"),
    "deadline": Rule(Who.PLAYER, "/table deadline (pause, resume, extend, advance)"),
    "vote": Rule(Who.PLAYER, "the Agree/Decline buttons of a draw offer or deadline vote"),
    "substitute": Rule(Who.SUBSTITUTE, "/table substitute"),
    "take_seat": Rule(Who.ANYONE, "the Take the seat/Decline buttons (only the member offered it)"),
    "add_ai": Rule(Who.MANAGER, "the lobby's Add AI menu"),
    "remove_seat": Rule(Who.MANAGER, "the lobby's Remove menu"),
    "abandon": Rule(Who.MANAGER, "/game abandon"),
    "start": Rule(Who.STARTER, "/game start, the lobby's Start button"),
    "tournament_join": Rule(Who.MEMBER, "/tournament join, /league join"),
    "tournament_standings": Rule(Who.MEMBER, "/tournament standings, /league table"),
    "tournament_leave": Rule(Who.ENTRANT, "/tournament leave, /league leave, /tournament drop without a player"),
    "league_play": Rule(Who.ENTRANT, "/league play"),
    "tournament_start": Rule(Who.ORGANISER, "/tournament start"),
    "tournament_drop": Rule(Who.ORGANISER, "/tournament drop player:"),
    "tournament_abandon": Rule(Who.ORGANISER, "/tournament abandon"),
}


def sees(row: GameRow, user_id: int, where: Where | None, *, follows: bool = False) -> bool:
    """Whether the game is visible to this user from where they asked."""
    if where is None:
        return True
    seated_or_following = row.seat_of(user_id) is not None or follows
    if row.guild_id is None:  # made in a DM: that DM, or its players in theirs
        return where.channel_id == row.channel_id or (where.guild_id is None and row.seat_of(user_id) is not None)
    if where.guild_id is None:
        return seated_or_following
    return where.guild_id == row.guild_id


def manages(row: GameRow, user_id: int, where: Where | None) -> bool:
    """The creator, or Manage Server where the game lives."""
    if user_id == row.creator_id:
        return True
    return where is not None and where.manages_server and where.guild_id is not None and where.guild_id == row.guild_id


def start_open_to_all(row: GameRow, now: datetime) -> bool:
    if row.seat_of(row.creator_id) is None:
        return True
    try:
        waited = now - datetime.fromisoformat(row.updated_at)
    except (TypeError, ValueError):  # a damaged time: the creator keeps the lobby
        return False
    return waited >= START_OPENS_TO_ALL_AFTER


def authorize(op: str, row: GameRow, user_id: int, where: Where | None, now: datetime, *,
              follows: bool = False) -> None:
    """Refuse ``op`` on ``row`` unless this user, here, may do it (see the module's docstring)."""
    rule = RULES[op]
    if not sees(row, user_id, where, follows=follows):
        raise ServiceError("game_not_found", id=row.id)
    if rule.who is Who.PLAYER and row.seat_of(user_id) is None:
        raise ServiceError("not_in_game", id=row.id)
    if rule.who is Who.MANAGER and not manages(row, user_id, where):
        raise ServiceError("not_creator", id=row.id)
    if rule.who is Who.SUBSTITUTE and row.seat_of(user_id) is None and not manages(row, user_id, where):
        raise ServiceError("not_in_game", id=row.id)  # (whose seat, and how many misses: bot/service/seats.py)
    if rule.who is Who.STARTER and not manages(row, user_id, where):
        if row.seat_of(user_id) is None:
            raise ServiceError("not_in_game", id=row.id)
        if not start_open_to_all(row, now):
            raise ServiceError("not_starter", id=row.id, creator=f"<@{row.creator_id}>",
                               hours=int(START_OPENS_TO_ALL_AFTER.total_seconds() // 3600))


# ---- tournaments and leagues ----------------------------------------------------------------------
def sees_tournament(t, user_id: int, where: Where | None) -> bool:
    """A tournament is visible in its own server, and to its players in a DM with the bot."""
    if where is None:
        return True
    if where.guild_id is None:
        return t.entrant(user_id) is not None
    return where.guild_id == t.guild_id


def organises(t, user_id: int, where: Where | None) -> bool:
    """The organiser, or Manage Server in the tournament's own server (nowhere else)."""
    if user_id == t.creator_id:
        return True
    return where is not None and where.manages_server and where.guild_id is not None and where.guild_id == t.guild_id


def family(league: bool) -> str:
    """How a message names a tournament or a league: the catalogues select their word on it."""
    return "league" if league else "tournament"


def family_of(t) -> str:
    return family(t.kind == "league")


def authorize_tournament(op: str, t, user_id: int, where: Where | None, *, league: bool = False) -> None:
    """Refuse ``op`` on tournament ``t`` unless this user, here, may do it; a tournament not
    visible from here is answered as one that does not exist, named as the command named it
    (``league``: a ``/league`` command), so that the answer tells nothing of what it is."""
    rule = RULES[op]
    if not sees_tournament(t, user_id, where):
        raise ServiceError("tournament_not_found", id=t.id, family=family(league))
    if league and t.kind != "league":   # a /league command given a tournament's number
        raise ServiceError("league_not_a_league", id=t.id)
    if rule.who is Who.ENTRANT and t.entrant(user_id) is None:
        raise ServiceError("not_in_tournament", id=t.id, family=family_of(t))
    if rule.who is Who.ORGANISER and not organises(t, user_id, where):
        raise ServiceError("not_organiser", id=t.id, family=family_of(t))
