"""The game host service: the one orchestrator between players and engines. No Discord types.

For every action: load -> check the user holds a seat -> check the seat is to act -> check the
version the user saw is still current -> apply -> save state, version+1 and the action log row in
one transaction -> return an :class:`Outbox` saying what to post publicly, what to send each
player privately and whom to ping. Games are loaded from storage on demand and never cached, so a
game nobody plays costs no memory.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import shlex
import weakref
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Callable

import renderers
from games import Game, GameError, Outcome, events_for, get_game
from games.ai import choose_action
from games.rng import Rng

from . import fairplay, i18n
from .i18n import T, Text
from .store import GameRow, NotFound, StoreError, Store, VersionConflict

log = logging.getLogger(__name__)
SEAT_PARAMS = ("seat", "attacker", "defender", "winner", "loser", "pushed_seat")  # event params naming seats
AI_USER_BASE = -1  # stand-in seats hold user ids -1, -2, ...
MAX_LOBBY_SEATS = 8


class ServiceError(Exception):
    """A refusal for the person who asked; ``key`` is under ``error.`` in the catalogues."""

    def __init__(self, key: str, **params):
        super().__init__(key)
        self.key = key
        self.params = params

    @property
    def text(self) -> Text:
        return T(f"error.{self.key}", **self.params)


@dataclass
class Controls:
    """The choices offered to a seat: the next steps below ``prefix``, each with its actions."""

    game_id: int
    version: int
    prefix: tuple[str, ...]
    choices: dict[str, list[str]]  # next step -> the legal actions it leads to, in order

    @property
    def actions(self) -> list[str]:
        return [a for actions in self.choices.values() for a in actions]


@dataclass
class Post:
    """A public message in the game's channel (or thread)."""

    game_id: int
    channel_id: int
    lines: list[Text]
    image: bytes | None = None
    controls: Controls | None = None
    guild_id: int | None = None
    lobby: bool = False
    panel_button: bool = False
    mentions: list[int] = field(default_factory=list)
    board_version: int | None = None  # set when this is the board post for that version
    replaces_message_id: int | None = None  # the previous board, whose buttons go stale
    edit_in_place: bool = False  # lobbies update their one message instead of posting anew
    rematch_button: bool = False
    open_thread: Text | None = None  # start a thread on this message and move the game there
    status_lines: list[Text] = field(default_factory=list)  # the pinned status message in the thread
    status_message_id: int | None = None


@dataclass
class Private:
    """A secret panel for one player: DM first, ephemeral "my panel" as the fallback."""

    user_id: int
    game_id: int
    lines: list[Text]
    image: bytes | None = None
    controls: Controls | None = None


@dataclass
class Outbox:
    reply: list[Text] = field(default_factory=list)
    reply_image: bytes | None = None
    reply_controls: Controls | None = None
    posts: list[Post] = field(default_factory=list)
    privates: list[Private] = field(default_factory=list)
    dm_probes: list[Private] = field(default_factory=list)  # "can I DM you?" when joining a secret game


@dataclass
class GameSummary:
    id: int
    game: str
    status: str
    user_ids: list[int]
    to_act_user_ids: list[int]
    channel_id: int
    thread_id: int | None
    deadline_at: str | None = None
    on_vacation: list[int] = field(default_factory=list)


@dataclass
class Reminder:
    """One combined reminder: a player and every game that waits on them in one place."""

    user_id: int
    game_ids: list[int]
    deadlines: list[str | None]


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


def stamp(moment: datetime) -> str:
    """Stored times: UTC ISO 8601 to the second, so they sort and compare as text."""
    return moment.astimezone(timezone.utc).isoformat(timespec="seconds")


def discord_time(iso: str | None) -> str:
    """A Discord timestamp tag: each reader sees it in their own language and time zone."""
    return f"<t:{int(datetime.fromisoformat(iso).timestamp())}:R>" if iso else "-"


TIMEOUT_POLICIES = ("ai", "skip", "forfeit")
DEFAULT_DEADLINE_HOURS = 24
MAX_DEADLINE_HOURS = 24 * 30
DEFAULT_VACATION_DAYS = 7
ABSENCES_BEFORE_STAND_IN = 3


def parse_deadline(text: str | None) -> float:
    """"24h", "3d", "90m", "none" -> hours (0 = no deadline). Plain numbers are hours."""
    raw = (text or "").strip().lower()
    if not raw:
        return DEFAULT_DEADLINE_HOURS
    if raw in ("none", "off", "0", "なし"):
        return 0
    unit = {"m": 1 / 60, "h": 1, "d": 24}.get(raw[-1], None)
    number = raw[:-1] if unit else raw
    try:
        hours = float(number) * (unit or 1)
    except ValueError:
        raise ServiceError("deadline_syntax", value=text) from None
    if not 0.25 <= hours <= MAX_DEADLINE_HOURS:
        raise ServiceError("deadline_range", value=text)
    return hours


def make_settings(deadline: str | None = None, timeout: str | None = None, thread: bool | None = None,
                  vacation_days: int | None = None) -> dict:
    """The platform's own per-game settings, chosen at creation (games know nothing of them)."""
    policy = (timeout or "ai").strip().lower()
    if policy not in TIMEOUT_POLICIES:
        raise ServiceError("timeout_policy", value=timeout, choices=", ".join(TIMEOUT_POLICIES))
    days = DEFAULT_VACATION_DAYS if vacation_days is None else vacation_days
    if not 0 <= days <= 60:
        raise ServiceError("vacation_range", value=days)
    return {"deadline_hours": parse_deadline(deadline), "timeout": policy,
            "thread": True if thread is None else bool(thread), "vacation_days": days}


def parse_options(text: str | None) -> dict[str, str]:
    """``"cap=6 set=heavy"`` -> ``{"cap": "6", "set": "heavy"}``."""
    options = {}
    for token in shlex.split(text or ""):
        name, sep, value = token.partition("=")
        if not sep or not name:
            raise ServiceError("option_syntax", token=token)
        options[name.strip().lower()] = value.strip()
    return options


def is_ai(user_id: int) -> bool:
    return user_id < 0


class GameHost:
    def __init__(self, store: Store, *, clock: Callable[[], datetime | str] = utc_now,
                 seed_source: Callable[[], int] = lambda: secrets.randbits(63),
                 render: Callable[[str, dict], bytes] = renderers.render):
        self.store = store
        self.clock = clock
        self.seed_source = seed_source
        self.render = render
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def _now(self) -> datetime:
        moment = self.clock()
        return datetime.fromisoformat(moment) if isinstance(moment, str) else moment

    def _stamp(self) -> str:
        return stamp(self._now())

    def now_stamp(self) -> str:
        return self._stamp()

    def _deadline(self, row: GameRow) -> str | None:
        hours = row.settings.get("deadline_hours", 0)
        return stamp(self._now() + timedelta(hours=hours)) if hours else None

    def _lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    # ---- lobby ---------------------------------------------------------------------------------
    async def create(self, game_name: str, options_text: str | None, *, guild_id: int | None,
                     channel_id: int, user_id: int, locale: str, seat_creator: bool = True,
                     settings: dict | None = None) -> tuple[GameRow, Outbox]:
        game = _game(game_name)
        raw = parse_options(options_text)
        try:
            options = game.resolve_options(raw, game.max_players)
        except GameError as e:
            raise ServiceError(e.key, **e.params) from None
        row = await self.store.create_game(game=game.name, guild_id=guild_id, channel_id=channel_id,
                                           creator_id=user_id, options=options, locale=locale, now=self._stamp(),
                                           seat_creator=seat_creator, settings=settings or make_settings())
        lobby = self._lobby_post(row, game)
        if row.settings.get("thread"):
            lobby.open_thread = T("thread.name", id=row.id, game=T(f"game.{game.name}.title"))
        return row, Outbox(reply=[T("lobby.created", id=row.id)], posts=[lobby])

    async def join(self, game_id: int, user_id: int) -> Outbox:
        async with self._lock(game_id):
            row, game = await self._load_lobby(game_id)
            if user_id in row.user_ids:
                raise ServiceError("already_joined", id=game_id)
            if len(row.seats) >= game.max_players:
                raise ServiceError("lobby_full", id=game_id, max=game.max_players)
            row = await self._save_seats(row, row.user_ids + [user_id])
            outbox = Outbox(reply=[T("lobby.joined", id=game_id)], posts=[self._lobby_post(row, game)])
            if game.hidden_information:
                outbox.dm_probes.append(Private(user_id, game_id, [T("panel.dm_probe", id=game_id)]))
            return outbox

    async def add_ai(self, game_id: int, user_id: int, is_admin: bool = False) -> Outbox:
        async with self._lock(game_id):
            row, game = await self._load_lobby(game_id)
            self._require_creator(row, user_id, is_admin)
            if len(row.seats) >= game.max_players:
                raise ServiceError("lobby_full", id=game_id, max=game.max_players)
            ai_id = min([AI_USER_BASE + 1] + [u for u in row.user_ids if is_ai(u)]) - 1
            row = await self._save_seats(row, row.user_ids + [ai_id])
            return Outbox(reply=[T("lobby.ai_added", id=game_id)], posts=[self._lobby_post(row, game)])

    async def leave(self, game_id: int, user_id: int) -> Outbox:
        async with self._lock(game_id):
            row, game = await self._load_lobby(game_id)
            if user_id not in row.user_ids:
                raise ServiceError("not_in_game", id=game_id)
            remaining = [u for u in row.user_ids if u != user_id]
            if not any(not is_ai(u) for u in remaining):
                row = await self._commit(self.store.set_status(row.id, row.version, "abandoned", self._stamp()))
                post = self._lobby_post(row, game)
                post.lines.append(T("lobby.closed", id=game_id))
                return Outbox(reply=[T("lobby.left", id=game_id)], posts=[post])
            row = await self._save_seats(row, remaining)
            return Outbox(reply=[T("lobby.left", id=game_id)], posts=[self._lobby_post(row, game)])

    async def start(self, game_id: int, user_id: int, is_admin: bool = False) -> Outbox:
        async with self._lock(game_id):
            row, game = await self._load_lobby(game_id)
            if user_id not in row.user_ids and not is_admin:
                raise ServiceError("not_in_game", id=game_id)
            if len(row.seats) < game.min_players:
                raise ServiceError("not_enough_players", id=game_id, min=game.min_players)
            if len(row.seats) not in game.player_counts():
                raise ServiceError("player_count", id=game_id, count=len(row.seats),
                                   allowed=", ".join(map(str, game.player_counts())))
            seed = self.seed_source()
            lobby_order = game.seat_order(len(row.user_ids), row.options)
            order = ([row.user_ids[i] for i in lobby_order] if lobby_order is not None
                     else Rng(seed ^ 0x5EA7).shuffled(row.user_ids))  # deal seats from the game's own seed
            try:
                state = game.setup(len(order), row.options, seed)
            except GameError as e:
                raise ServiceError(e.key, **e.params) from None
            row = await self._save_seats(row, order)
            row = await self._commit(self.store.start(row.id, row.version, state=state, seed=seed,
                                                      salt=fairplay.new_salt(), now=self._stamp(),
                                                      deadline_at=self._deadline(row)))
            outbox = Outbox(reply=[T("lobby.started", id=game_id)])
            lines = [T("game.started", id=game_id, game=T(f"game.{game.name}.title"),
                       seats=self._seat_list(row)),
                     T("game.commitment", hash=fairplay.commitment(row.seed, row.salt))]
            row, ai_lines = await self._run_ai(row, game)
            closed_lobby = self._lobby_post(row, game)  # the lobby message loses its buttons
            closed_lobby.board_version = None
            closed_lobby.lines.append(T("lobby.started", id=game_id))
            outbox.posts.append(closed_lobby)
            self._announce(outbox, row, game, lines + ai_lines)
            outbox.posts[-1].replaces_message_id = None
            return outbox

    # ---- play ----------------------------------------------------------------------------------
    async def act(self, game_id: int, user_id: int, action: str, seen_version: int | None = None) -> Outbox:
        """Apply one action for the user's seat. Refusals raise ServiceError and change nothing."""
        async with self._lock(game_id):
            row, game = await self._load_active(game_id)
            seat = self._seat(row, user_id)
            await self._check_fresh(row, seat, seen_version)
            action = game.canonical(action)
            waiting_before = game.to_act(row.state) - {seat}
            try:
                state, events = game.apply(row.state, seat, action)
            except GameError as e:
                raise ServiceError(e.key, **e.params) from None
            row = await self._save_action(row, game, seat, user_id, action, state)
            lines = self._action_lines(row, game, seat, action, events)
            row, ai_lines = await self._run_ai(row, game)
            outbox = Outbox(reply=[T("turn.accepted", action=action)])  # the actor may see their own
            # Panels go only to seats that are newly asked, so waiting players get no repeat DMs.
            self._announce(outbox, row, game, lines + ai_lines, panels_for_all=False,
                           already_asked=waiting_before)
            if row.status == "active" and seat not in game.to_act(row.state) and game.legal_actions(row.state, seat):
                outbox.reply.append(T("turn.may_change"))  # e.g. a secret order, changeable until all are in
                outbox.reply_controls = self._controls(row, game, seat)
            return outbox

    async def resign(self, game_id: int, user_id: int) -> Outbox:
        async with self._lock(game_id):
            row, game = await self._load_active(game_id)
            seat = self._seat(row, user_id)
            state, events = game.resign(row.state, seat)
            row = await self._save_action(row, game, seat, user_id, "resign", state)
            outbox = Outbox(reply=[T("game.you_resigned", id=game_id)])
            self._announce(outbox, row, game, self._event_lines(row, game, events))
            return outbox

    async def abandon(self, game_id: int, user_id: int, is_admin: bool) -> Outbox:
        async with self._lock(game_id):
            row = await self._load(game_id)
            if row.status not in ("lobby", "active"):
                raise ServiceError(f"game_{row.status}", id=game_id)
            self._require_creator(row, user_id, is_admin)
            row = await self._commit(self.store.set_status(row.id, row.version, "abandoned", self._stamp()))
            post = self._post(row, [T("game.abandoned", id=game_id, by=f"<@{user_id}>")])
            if row.state is not None:
                post.lines += self._reveal_lines(row)
                game = get_game(row.game)
                post.image = self.render(game.name, game.view(row.state, None))
                post.board_version = row.version
                post.replaces_message_id = row.board_message_id
            return Outbox(reply=[T("game.you_abandoned", id=game_id)], posts=[post])

    # ---- reading -------------------------------------------------------------------------------
    async def legal_actions(self, game_id: int, user_id: int) -> list[str]:
        row, game = await self._load_active(game_id)
        seat = row.seat_of(user_id)
        if seat is None:
            return []
        return game.legal_actions(row.state, seat)

    async def drill(self, game_id: int, user_id: int, seen_version: int, prefix: tuple[str, ...]) -> Outbox:
        """One step further down an action's path: offer the next steps, or play a finished path."""
        row, game = await self._load_active(game_id)
        seat = self._seat(row, user_id)
        await self._check_fresh(row, seat, seen_version)
        legal = game.legal_actions(row.state, seat)
        if not legal:
            raise ServiceError("not_your_turn")
        below = [a for a in legal if game.action_path(a)[: len(prefix)] == prefix]
        if not below:
            raise ServiceError("stale")
        if len(below) == 1 and len(game.action_path(below[0])) == len(prefix):
            return await self.act(game_id, user_id, below[0], seen_version=seen_version)
        controls = self._controls(row, game, seat, prefix, below)
        return Outbox(reply=[T("turn.choose", group=" › ".join(prefix))], reply_controls=controls)

    async def status(self, game_id: int, user_id: int | None = None) -> Outbox:
        row = await self._load(game_id)
        lines = [self._summary_line(row)]
        image = None
        if row.state is not None:
            game = get_game(row.game)
            seat = row.seat_of(user_id) if user_id is not None else None
            image = self.render(game.name, game.view(row.state, seat))
            lines += self._state_lines(row, game)
        return Outbox(reply=lines, reply_image=image)

    async def panel(self, game_id: int, user_id: int) -> Private:
        """The private panel for a seat (the "my panel" button, or a DM)."""
        row, game = await self._load_active(game_id)
        seat = self._seat(row, user_id)
        return self._private(row, game, seat)

    async def history(self, game_id: int, limit: int = 40) -> list[Text]:
        row = await self._load(game_id)
        actions = await self.store.actions(game_id)
        lines = [T("history.header", id=game_id, game=T(f"game.{row.game}.title"), count=len(actions))]
        game = get_game(row.game)
        running = row.status in ("lobby", "active")
        for a in actions[-limit:]:
            shown = a.action if not running or game.action_is_public(a.action) else "🔒"
            lines.append(T("history.line", n=a.n, player=self._name(row, a.seat), action=shown))
        if not actions:
            lines.append(T("history.empty"))
        return lines

    async def summaries(self, ids: list[int]) -> list[GameSummary]:
        out = []
        for game_id in ids:
            row = await self._load(game_id)
            to_act = []
            if row.status == "active":
                to_act = [row.user_of(s) for s in sorted(get_game(row.game).to_act(row.state))]
            away = [s.user_id for s in row.seats if self._on_vacation(s)]
            out.append(GameSummary(row.id, row.game, row.status, row.user_ids, to_act, row.channel_id,
                                   row.thread_id, row.deadline_at, away))
        return out

    async def list_lines(self, guild_id: int | None, user_id: int) -> list[Text]:
        """The server dashboard: every open game here with its players, whose turn and time left."""
        here = await self.store.game_ids_in_guild(guild_id) if guild_id is not None else []
        lines = [T("list.header_here", count=len(here))]
        lines += [self._summary_text(s) for s in await self.summaries(here)] or [T("list.none")]
        return lines

    async def mine_lines(self, user_id: int) -> list[Text]:
        """The same dashboard across every server, for one player."""
        ids = await self.store.game_ids_of_user(user_id)
        lines = [T("list.header_mine", count=len(ids))]
        return lines + ([self._summary_text(s) for s in await self.summaries(ids)] or [T("list.none")])

    # ---- play over days ------------------------------------------------------------------------
    async def timeout(self, game_id: int) -> Outbox:
        """A deadline passed: apply the game's timeout policy to every seat it still waits on."""
        async with self._lock(game_id):
            row, game = await self._load_active(game_id)
            now = self._stamp()
            if row.deadline_at is None or row.deadline_at > now:
                return Outbox()  # someone acted meanwhile
            waiting = [s for s in sorted(game.to_act(row.state)) if not self._automatic(row, s)]
            away = [s for s in waiting if self._on_vacation(row.seat_row(s))]
            if away and len(away) == len(waiting):  # everyone we wait on is on vacation: wait for them
                back = min(row.seat_row(s).vacation_until for s in away)
                await self.store.set_deadline(row.id, max(back, self._deadline(row) or back), now)
                return Outbox()
            lines: list[Text] = []
            policy = row.settings.get("timeout", "ai")
            for seat in waiting:
                if seat in away:
                    continue
                seat_row = row.seat_row(seat)
                absences = seat_row.absences + 1
                replaced = absences >= ABSENCES_BEFORE_STAND_IN
                await self.store.update_seat(row.id, seat, absences=absences, stand_in=int(replaced))
                lines.append(T("timeout.passed", player=self._name(row, seat), count=absences))
                if replaced:
                    lines.append(T("timeout.replaced", player=self._name(row, seat)))
            row = await self.store.load(row.id)
            timed_out = {s for s in waiting if s not in away}
            if policy == "forfeit" and len(row.seats) == 2:
                seat = min(timed_out)
                state, events = game.resign(row.state, seat)
                row = await self._save_action(row, game, seat, None, "timeout-forfeit", state, stand_in=True)
                lines += [T("timeout.forfeit", player=self._name(row, seat))] + self._event_lines(row, game, events)
            else:
                for seat in sorted(timed_out):
                    skip = policy == "skip" and game.skip_action(row.state, seat)
                    if skip:
                        state, events = game.apply(row.state, seat, skip)
                        row = await self._save_action(row, game, seat, None, skip, state, stand_in=True)
                        lines += [T("timeout.skipped", player=self._name(row, seat))]
                        lines += self._event_lines(row, game, events)
                        timed_out.discard(seat)
                still = game.to_act(row.state) if row.status == "active" else set()
                row, ai_lines = await self._run_ai(row, game, also=timed_out & still)
                lines += ai_lines
            outbox = Outbox()
            self._announce(outbox, row, game, lines)
            return outbox

    async def due_reminders(self) -> list[Reminder]:
        """Half-deadline reminders, combined per player; each game is reminded once per turn."""
        ids = await self.store.reminder_due_game_ids(self._stamp())
        by_user: dict[int, Reminder] = {}
        for game_id in ids:
            row = await self._load(game_id)
            game = get_game(row.game)
            for seat in sorted(game.to_act(row.state)):
                seat_row = row.seat_row(seat)
                if self._automatic(row, seat) or self._on_vacation(seat_row):
                    continue
                reminder = by_user.setdefault(seat_row.user_id, Reminder(seat_row.user_id, [], []))
                reminder.game_ids.append(row.id)
                reminder.deadlines.append(row.deadline_at)
        await self.store.mark_reminded(ids)
        return list(by_user.values())

    async def reminder_lines(self, reminder: Reminder) -> list[Text]:
        games = []
        for game_id, deadline in zip(reminder.game_ids, reminder.deadlines):
            row = await self._load(game_id)
            games.append(T("reminder.game", id=game_id, game=T(f"game.{row.game}.title"),
                           channel=f"<#{row.thread_id or row.channel_id}>", left=discord_time(deadline)))
        return [T("reminder.header", player=_user_name(reminder.user_id), count=len(games))] + games

    async def vacation(self, user_id: int, days: int) -> Outbox:
        """Pause this player's deadlines in all their running games, within each game's limit."""
        if days < 1:
            raise ServiceError("vacation_range", value=days)
        lines = []
        for game_id in await self.store.game_ids_of_user(user_id, ("active",)):
            row = await self._load(game_id)
            seat_row = row.seat_row(row.seat_of(user_id))
            allowed = max(0, row.settings.get("vacation_days", DEFAULT_VACATION_DAYS) - seat_row.vacation_days_used)
            granted = min(days, allowed)
            if granted <= 0:
                lines.append(T("vacation.none_left", id=game_id))
                continue
            until = stamp(self._now() + timedelta(days=granted))
            await self.store.update_seat(game_id, seat_row.seat, vacation_until=until,
                                         vacation_days_used=seat_row.vacation_days_used + granted)
            lines.append(T("vacation.granted", id=game_id, days=granted, until=discord_time(until)))
        if not lines:
            raise ServiceError("no_running_games")
        return Outbox(reply=lines)

    async def set_dm_reminders(self, user_id: int, on: bool) -> Outbox:
        await self.store.set_dm_reminders(user_id, on)
        return Outbox(reply=[T("settings.dm_reminders_on" if on else "settings.dm_reminders_off")])

    async def wants_dm_reminders(self, user_id: int) -> bool:
        return (await self.store.user_settings(user_id))["dm_reminders"]

    async def rematch(self, game_id: int, user_id: int) -> Outbox:
        """A new game with the same seats and options; the game decides who moves first."""
        async with self._lock(game_id):
            old = await self._load(game_id)
            if old.status != "finished":
                raise ServiceError("rematch_not_finished", id=game_id)
            self._seat(old, user_id)
            if old.rematch_id:
                raise ServiceError("rematch_exists", id=old.rematch_id)
            game = get_game(old.game)
            row = await self.store.create_game(
                game=old.game, guild_id=old.guild_id, channel_id=old.channel_id, creator_id=user_id,
                options=old.options, locale=old.locale, now=self._stamp(), seat_creator=False,
                settings=old.settings)
            if not await self.store.set_rematch(old.id, row.id):
                await self.store.set_status(row.id, row.version, "abandoned", self._stamp())
                raise ServiceError("rematch_exists", id=(await self._load(game_id)).rematch_id)
            outcome = game.outcome(old.state)
            order = [old.user_of(s) for s in game.rematch_order(len(old.seats), outcome)]
            row = await self._save_seats(row, order)
            seed = self.seed_source()
            row = await self._commit(self.store.start(
                row.id, row.version, state=game.setup(len(order), row.options, seed), seed=seed,
                salt=fairplay.new_salt(), now=self._stamp(), deadline_at=self._deadline(row)))
            outbox = Outbox(reply=[T("rematch.started", id=row.id)])
            lines = [T("rematch.header", old=old.id, id=row.id, game=T(f"game.{game.name}.title"),
                       seats=self._seat_list(row)),
                     T("game.commitment", hash=fairplay.commitment(row.seed, row.salt))]
            row, ai_lines = await self._run_ai(row, game)
            self._announce(outbox, row, game, lines + ai_lines)
            return outbox

    async def stats_lines(self, guild_id: int | None, game_name: str | None = None) -> list[Text]:
        name = _game(game_name).name if game_name else None
        rows = await self.store.stats(guild_id, name)
        lines = [T("stats.header", count=len(rows))]
        for game, user_id, played, won, drawn in rows:
            lines.append(T("stats.line", game=T(f"game.{game}.title"), player=_user_name(user_id),
                           played=played, won=won, drawn=drawn))
        return lines if rows else lines + [T("stats.none")]

    def _on_vacation(self, seat_row) -> bool:
        return bool(seat_row and seat_row.vacation_until and seat_row.vacation_until > self._stamp())

    async def games_for(self, channel_id: int, user_id: int) -> list[int]:
        """Open games in this channel or thread that the user sits in."""
        ids = await self.store.game_ids_in_channel(channel_id)
        return [s.id for s in await self.summaries(ids) if user_id in s.user_ids]

    async def pending_posts(self) -> list[Post]:
        """Board posts that never reached the channel, e.g. because the bot stopped mid-turn."""
        posts = []
        for game_id in await self.store.unposted_game_ids():
            try:
                row = await self._load(game_id)
            except ServiceError as e:  # a corrupt or future row: reported, and to players on touch
                log.error("cannot repost game %s: %s %s", game_id, e.key, e.params)
                continue
            outbox = Outbox()
            self._announce(outbox, row, get_game(row.game), [T("game.resumed", id=game_id)])
            posts += outbox.posts
        return posts

    async def home_of(self, game_id: int) -> tuple[int, str]:
        """The channel (or thread) a game posts to, and the language of its public posts."""
        row = await self._load(game_id)
        return row.thread_id or row.channel_id, row.locale

    async def home_of_channel(self, channel_id: int) -> tuple[int, str]:
        """A channel's language, read from any game that lives there (English if none does)."""
        ids = await self.store.game_ids_in_channel(channel_id, ("lobby", "active", "finished", "abandoned"))
        return channel_id, (await self._load(ids[-1])).locale if ids else "en"

    async def user_language(self, user_id: int) -> str:
        return (await self.store.user_settings(user_id))["locale"] or "en"

    async def remember_language(self, user_id: int, lang: str) -> None:
        await self.store.set_user_locale(user_id, lang)

    async def note_dm(self, user_id: int, is_open: bool) -> None:
        await self.store.set_dm_open(user_id, is_open)

    async def mark_posted(self, game_id: int, version: int, message_id: int | None) -> None:
        await self.store.mark_posted(game_id, version, message_id)

    async def thread_created(self, game_id: int, thread_id: int) -> None:
        await self.store.set_thread(game_id, thread_id)

    async def status_posted(self, game_id: int, message_id: int) -> None:
        await self.store.set_status_message(game_id, message_id)

    # ---- internals: loading and checks ----------------------------------------------------------
    async def _load(self, game_id: int) -> GameRow:
        try:
            return await self.store.load(game_id)
        except NotFound:
            raise ServiceError("game_not_found", id=game_id) from None
        except StoreError as e:
            raise ServiceError(e.key, id=game_id, detail=e.detail) from None

    async def _load_lobby(self, game_id: int) -> tuple[GameRow, Game]:
        row = await self._load(game_id)
        if row.status != "lobby":
            raise ServiceError("not_in_lobby" if row.status == "active" else f"game_{row.status}", id=game_id)
        return row, get_game(row.game)

    async def _load_active(self, game_id: int) -> tuple[GameRow, Game]:
        row = await self._load(game_id)
        if row.status != "active":
            raise ServiceError("game_not_started" if row.status == "lobby" else f"game_{row.status}", id=game_id)
        return row, get_game(row.game)

    def _seat(self, row: GameRow, user_id: int) -> int:
        seat = row.seat_of(user_id)
        if seat is None:
            raise ServiceError("not_in_game", id=row.id)
        return seat

    def _require_creator(self, row: GameRow, user_id: int, is_admin: bool) -> None:
        if user_id != row.creator_id and not is_admin:
            raise ServiceError("not_creator", id=row.id)

    async def _check_fresh(self, row: GameRow, seat: int, seen_version: int | None) -> None:
        """A panel is stale once its seat has acted since it was drawn (double clicks included)."""
        if seen_version is None:
            return
        if seen_version > row.version or await self.store.seat_acted_since(row.id, seat, seen_version):
            raise ServiceError("stale")

    async def _commit(self, write) -> GameRow:
        try:
            return await write
        except VersionConflict:
            raise ServiceError("stale") from None

    async def _save_seats(self, row: GameRow, user_ids: list[int]) -> GameRow:
        return await self._commit(self.store.set_seats(row.id, row.version, user_ids, self._stamp()))

    async def _save_action(self, row: GameRow, game: Game, seat: int, user_id: int | None, action: str,
                           state: dict, stand_in: bool = False) -> GameRow:
        outcome = game.outcome(state)
        results = []
        if outcome is not None:
            results = [(s.user_id, s.seat in outcome.winners, outcome.draw) for s in row.seats]
        # The clock restarts only when someone new must act: a multi-action turn, or a secret
        # order handed in while the other is still thinking, keeps the running deadline.
        new_turn = outcome is not None or bool(game.to_act(state) - game.to_act(row.state)) or not row.deadline_at
        return await self._commit(self.store.commit_action(
            row.id, row.version, seat=seat, user_id=user_id, action=action, state=state,
            status="finished" if outcome is not None else "active", now=self._stamp(), stand_in=stand_in,
            new_deadline=new_turn, deadline_at=None if outcome is not None else self._deadline(row),
            results=results))

    async def _run_ai(self, row: GameRow, game: Game, *, also: set[int] = frozenset()) -> tuple[GameRow, list[Text]]:
        """Let AI seats, stand-ins and the seats in ``also`` act until a human must (or the game ends)."""
        lines: list[Text] = []
        rng = Rng(self.seed_source())
        also = set(also)
        while row.status == "active":
            to_act = game.to_act(row.state)
            seats = sorted(s for s in to_act if self._automatic(row, s) or s in also)
            if not seats:
                break
            seat = seats[0]
            action = choose_action(game, row.state, seat, rng)
            state, events = game.apply(row.state, seat, action)
            stand_in = not is_ai(row.user_of(seat))
            row = await self._save_action(row, game, seat, None, action, state, stand_in=stand_in)
            if stand_in:
                lines.append(T("timeout.stand_in_played", player=self._name(row, seat), action=self._shown(game, action)))
            lines += self._action_lines(row, game, seat, action, events)
            after = game.to_act(row.state)
            if seat not in after or after - to_act:
                also.discard(seat)  # a timed-out seat is played for this turn only, not the next step
        return row, lines

    @staticmethod
    def _automatic(row: GameRow, seat: int) -> bool:
        seat_row = row.seat_row(seat)
        return seat_row is not None and (is_ai(seat_row.user_id) or seat_row.stand_in)

    @staticmethod
    def _shown(game: Game, action: str) -> str:
        return action if game.action_is_public(action) else "🔒"

    # ---- internals: what players see -------------------------------------------------------------
    def _name(self, row: GameRow, seat: int) -> str | Text:
        user_id = row.user_of(seat)
        return f"#{seat + 1}" if user_id is None else _user_name(user_id)

    def _seat_list(self, row: GameRow) -> list[Text]:
        return [T("game.seat", n=s.seat + 1, player=self._name(row, s.seat)) for s in row.seats]

    def _names(self, row: GameRow, seats) -> list[str | Text]:
        return [self._name(row, s) for s in seats]

    def _action_lines(self, row: GameRow, game: Game, seat: int, action: str, events: list[dict]) -> list[Text]:
        """What the channel reads about one action: its public events, or just the notation."""
        shown = action if game.action_is_public(action) else "🔒"
        return self._event_lines(row, game, events) or [T("turn.played", player=self._name(row, seat), action=shown)]

    def _event_lines(self, row: GameRow, game: Game, events: list[dict]) -> list[Text]:
        lines = []
        for event in events_for(events, None):
            params = {k: v for k, v in event.items() if k not in ("type", "to")}
            for key in SEAT_PARAMS:
                if key in params:
                    params[key] = self._name(row, params[key]) if params[key] is not None else "-"
            key = f"event.{game.name}.{event['type']}"
            lines.append(T(key if i18n.has(key) else f"event.{event['type']}", **params))
        return lines

    def _reveal_lines(self, row: GameRow) -> list[Text]:
        """The seed and salt behind the start's commitment, and how a game recomputes its dice."""
        lines = [T("game.reveal", seed=row.seed, salt=row.salt or "-")]
        verify = f"rules.{row.game}.verify"
        return lines + [T(verify, seed=row.seed)] if i18n.has(verify) else lines

    def _outcome_line(self, row: GameRow, outcome: Outcome) -> Text:
        reason = T(f"reason.{outcome.reason}")
        if outcome.draw or not outcome.winners:
            return T("outcome.draw", reason=reason)
        return T("outcome.win", winners=self._names(row, outcome.winners), reason=reason)

    def _state_lines(self, row: GameRow, game: Game) -> list[Text]:
        outcome = game.outcome(row.state)
        if outcome is not None:
            return [self._outcome_line(row, outcome)]
        return [T("turn.waiting", players=self._names(row, sorted(game.to_act(row.state))))]

    def _summary_line(self, row: GameRow) -> Text:
        return T("game.summary", id=row.id, game=T(f"game.{row.game}.title"), status=T(f"status.{row.status}"),
                 players=self._names(row, [s.seat for s in row.seats]))

    def _summary_text(self, s: GameSummary) -> Text:
        players = [_user_name(u) for u in s.user_ids]
        waiting = [_user_name(u) for u in s.to_act_user_ids]
        away = [T("list.away", player=_user_name(u)) for u in s.on_vacation]
        return T("list.line", id=s.id, game=T(f"game.{s.game}.title"), status=T(f"status.{s.status}"),
                 players=players, waiting=waiting, channel=f"<#{s.thread_id or s.channel_id}>",
                 left=discord_time(s.deadline_at), away=away or "")

    def _post(self, row: GameRow, lines: list[Text]) -> Post:
        return Post(row.id, row.thread_id or row.channel_id, lines, guild_id=row.guild_id)

    def _lobby_post(self, row: GameRow, game: Game) -> Post:
        options = ", ".join(f"{k}={v}" for k, v in row.options.items() if v not in ("", None)) or "-"
        lines = [T("lobby.header", id=row.id, game=T(f"game.{game.name}.title"),
                   min=game.min_players, max=game.max_players, options=options),
                 T("lobby.players", players=self._names(row, [s.seat for s in row.seats]))]
        return Post(row.id, row.channel_id, lines, guild_id=row.guild_id, lobby=row.status == "lobby",
                    board_version=row.version, replaces_message_id=row.board_message_id, edit_in_place=True)

    def _announce(self, outbox: Outbox, row: GameRow, game: Game, lines: list[Text], *,
                  panels_for_all: bool = True, already_asked: set[int] = frozenset()) -> None:
        """Add the board post (and secret panels) for the game's current version."""
        state = row.state
        outcome = game.outcome(state) if row.status != "abandoned" else None
        to_act = sorted(game.to_act(state)) if row.status == "active" else []
        humans = [s for s in to_act if not is_ai(row.user_of(s))]
        post = self._post(row, list(lines))
        post.image = self.render(game.name, game.view(state, None))
        post.board_version = row.version
        post.replaces_message_id = row.board_message_id
        if row.thread_id:
            post.status_lines = [self._summary_line(row)] + self._state_lines(row, game)
            if row.deadline_at and row.status == "active":
                post.status_lines.append(T("turn.deadline", left=discord_time(row.deadline_at)))
            post.status_message_id = row.status_message_id
        if row.status in ("finished", "abandoned"):
            if outcome is not None:
                post.lines.append(self._outcome_line(row, outcome))
            post.lines += self._reveal_lines(row)
            post.rematch_button = row.status == "finished" and not row.rematch_id
        elif to_act:
            post.lines.append(T("turn.prompt", players=self._names(row, to_act)))
            if row.deadline_at:
                post.lines.append(T("turn.deadline", left=discord_time(row.deadline_at)))
            away = [s.seat for s in row.seats if self._on_vacation(s)]
            if away:
                post.lines.append(T("turn.on_vacation", players=self._names(row, away)))
            post.mentions = [row.user_of(s) for s in humans]
            secret = game.hidden_information or len(to_act) > 1
            if secret:
                post.panel_button = True
                outbox.privates += [self._private(row, game, s) for s in humans
                                    if panels_for_all or s not in already_asked]
            elif humans:
                post.controls = self._controls(row, game, humans[0])
        outbox.posts.append(post)

    def _controls(self, row: GameRow, game: Game, seat: int, prefix: tuple[str, ...] = (),
                  actions: list[str] | None = None) -> Controls:
        if actions is None:
            actions = game.legal_actions(row.state, seat)
        choices: dict[str, list[str]] = {}
        for a in actions:
            path = game.action_path(a)
            choices.setdefault(path[len(prefix)] if len(path) > len(prefix) else a, []).append(a)
        return Controls(row.id, row.version, prefix, choices)

    def _private(self, row: GameRow, game: Game, seat: int) -> Private:
        view = game.view(row.state, seat)
        lines = [T("panel.header", id=row.id, game=T(f"game.{game.name}.title"), seat=seat + 1)]
        lines += [T(f"panel.{game.name}.{note['type']}", **{k: v for k, v in note.items() if k != "type"})
                  for note in game.panel_notes(view)]
        controls = None
        if game.legal_actions(row.state, seat):  # to act, or (secret orders) still free to change
            controls = self._controls(row, game, seat)
            lines.append(T("panel.your_choice"))
        else:
            lines.append(T("panel.waiting"))
        return Private(row.user_of(seat), row.id, lines, self.render(game.name, view), controls)


def _user_name(user_id: int) -> str | Text:
    """A mention for people (pinging only those in a post's mentions), a label for AI seats."""
    return T("player.ai", n=-user_id) if is_ai(user_id) else f"<@{user_id}>"


def _game(name: str) -> Game:
    try:
        return get_game(name)
    except GameError as e:
        raise ServiceError(e.key, **e.params) from None
