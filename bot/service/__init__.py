"""The game host service: the one orchestrator between players and engines. No Discord types.

For every action: load -> check the user holds a seat -> check the seat is to act -> check the
button was drawn for this position -> apply -> save state, versions and log rows in one
transaction -> return an :class:`Outbox` saying what to post publicly, what to send each player
privately and whom to ping. Games are loaded from storage on demand and never cached.

The host is one object made of one part per concern, each a file that reads in one sitting:
``core`` (loading, fault isolation, freshness, drafts, AI seats, the render pool), ``present``
(what players read and see), ``lobby``, ``play``, ``clock`` (deadlines, reminders, vacations) and
``dashboards`` (lists, stats, leaderboards, lookups, reposting) and ``undo`` (taking an action back
by consent), ``follow`` (spectators' turn notices, view choices), ``forms`` (a secret step
answered in one dialog), ``servers`` (per-server settings, changed by the server's admins),
``tournaments`` (Swiss, round robin and elimination events, their rounds and standings),
``leagues`` (standing tournaments: games on request, paired by rating), ``quiet`` (quiet hours
and time zones: pings held until a person's quiet hours end), ``pings`` (each player's ping
choices, digests, stale notices cleaned up), ``consent`` (deadline votes and draw offers),
``asking`` (a seat's answer to an undo or a proposal, checked alike), ``seats`` (substitutes: a
seat handed to another member) and ``table`` (one viewer's table for the web way in).
"""

from __future__ import annotations

from .access import Where
from .asking import Asking
from .clock import ABSENCES_BEFORE_STAND_IN, Clock
from .core import AI_USER_BASE, HostCore, is_ai
from .consent import DEADLINE_ACTIONS, VOTE_HOURS, Consent
from .dashboards import Dashboards
from .follow import DEFAULT_FOLLOW_GATHER_SECONDS, Follow
from .forms import Forms
from .decks import MAX_DECK_NAME, Decks, deck_games, policy_games
from .leagues import Leagues
from .lobby import Lobby
from .outbox import (MOST_ACTION_BUTTONS, Controls, EndedProposal, EndedUndo, FollowNotice, FormSpec, GameSummary, Notice, Outbox, Post,
                     Private, Recap, Reminder, ServiceError, Viewer)
from .pings import PING_MODES, PING_VIAS, Pings
from .play import Play
from .quiet import Quiet
from .replay import Replays
from .seats import MISSES_BEFORE_HANDOVER, Substitutes
from .servers import Servers
from .tournaments import Tournaments
from .table import Table, TableAction, TablePanel, Tables
from .present import Presenter, user_name
from .undo import Undo
from ..storage import open_store
from ..storage.rows import GameRow
from .settings import (AI_LEVELS, DEFAULT_VACATION_DAYS, TIMEOUT_POLICIES, discord_time, make_settings, parse_deadline,
                       parse_options, stamp, utc_now)


class GameHost(Lobby, Play, Forms, Undo, Consent, Asking, Substitutes, Replays, Follow, Tables, Clock, Quiet, Pings, Dashboards, Decks,
               Servers, Tournaments, Leagues, Presenter, HostCore):
    """The service the Discord adapter and the local driver call."""


async def open_host(database: str, **options) -> GameHost:
    """A host on the database ``database`` names (a SQLite file or a ``postgresql://`` URL), migrated
    to the newest schema; ``options`` are :class:`GameHost`'s. The ways in open storage only through
    this; ``await host.store.close()`` closes it."""
    return GameHost(await open_store(database), **options)


__all__ = [
    "ABSENCES_BEFORE_STAND_IN", "AI_LEVELS", "MISSES_BEFORE_HANDOVER", "DEADLINE_ACTIONS", "VOTE_HOURS", "PING_MODES", "PING_VIAS", "MAX_DECK_NAME", "deck_games", "policy_games", "AI_USER_BASE", "MOST_ACTION_BUTTONS", "Controls", "EndedUndo", "DEFAULT_VACATION_DAYS", "FormSpec", "GameHost", "GameRow", "GameSummary",
    "Outbox", "FollowNotice", "Notice", "EndedProposal", "DEFAULT_FOLLOW_GATHER_SECONDS", "Post", "Private", "Recap", "Reminder", "Viewer", "ServiceError", "TIMEOUT_POLICIES", "discord_time", "is_ai",
    "Table", "TableAction", "TablePanel", "Where", "make_settings", "open_host", "parse_deadline", "parse_options", "stamp", "user_name", "utc_now",
]
