"""The host's core: loading games safely, checking who may act, recording actions in a draft,
the AI seats, and drawing images off the event loop.

Fault isolation: a game whose stored row cannot be decoded, names an unknown game, or whose state
the engine cannot read is set aside once (logged with its id, flagged in storage) and refused with
a clear message from then on; every shared feature skips it and every other game goes on. A shared
feature that goes over several games (a dashboard, a scheduler pass) does each game's part inside
:meth:`HostCore._isolated`, so a game whose part fails is set aside there and the others go on.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import inspect
import logging
import random
import secrets
import weakref
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from typing import Callable, ClassVar

import renderers
from games import Game, GameError, get_game

from ..workers import pool as workers

from ..faults import crash_point, fail_point
from ..i18n import T, Text
from ..storage.rows import (ActionRow, Draft, GameRow, NotFound, RematchExists, StoreError, VersionConflict,
                            user_rating_key)
from ..storage.sqlite import Store
from ..storage.undo_log import standing
from .access import Ask, authorize
from .landing import Landings
from .outbox import Outbox, ServiceError
from .words import termed
from .settings import MAX_ACTION_LENGTH, echoed, normalized, stamp, utc_now

log = logging.getLogger("bot.service")
AI_USER_BASE = -1  # AI seats hold user ids -1, -2, ...
CONFLICT_ATTEMPTS = 12  # tries of one operation against other processes saving the same game
# Games that may be inside an operation at once. Under load every game in flight adds its share of
# loop work to each turn of the event loop (a 100-game burst made it 60-160 ms late), which delays
# every interaction's acknowledgement; the others wait, in arrival order, without costing the loop.
# With 2 drawing workers, a few in flight already keep the workers and the database busy.
GAMES_IN_FLIGHT = 8


class Conflict(ServiceError):
    """Another bot process saved the game between our load and our save: the database's version
    check refused ours and nothing of it was written. :func:`on_latest` runs the operation again."""

    def __init__(self):
        super().__init__("stale")


def on_latest(operation):
    """Run a service operation again, from loading the game, when another process saved the same
    game first (several bot processes share one database; the per-game lock is per process).

    The rerun sees the new version and decides afresh: a double click, or a button drawn before the
    other save, is then refused as stale; a seat's part of a simultaneous step, or a join, applies;
    a deadline that another process already handled finds nothing to do. So nothing applies twice
    and nobody is refused for a collision they could not see."""

    @functools.wraps(operation)
    async def on_latest_version(self, *args, **kwargs):
        for attempt in range(CONFLICT_ATTEMPTS):
            try:
                return await operation(self, *args, **kwargs)
            except Conflict:
                # A random pause, growing, so two processes stop meeting at the same instant.
                await asyncio.sleep(random.uniform(0, 0.002 * (2 ** min(attempt, 7))))
        log.warning("%s: gave up after %d conflicts with other processes", operation.__name__, CONFLICT_ATTEMPTS)
        raise ServiceError("busy")

    return on_latest_version


def is_ai(user_id: int | None) -> bool:
    return user_id is not None and user_id < 0


def _fresh_seed() -> int:
    return secrets.randbits(63)


class HostCore:
    # What every part may use of the core (tests/test_architecture.py holds the parts to it).
    exposes: ClassVar[tuple[str, ...]] = ("ai_level", "_automatic", "_begin", "board_owed",
                                          "_bounded_action", "_check_fresh", "_deadline", "_draw", "_engine",
                                          "executor", "_isolated", "landings", "_load", "_load_active",
                                          "_load_game", "_load_lobby", "_lock", "_now", "now_stamp",
                                          "_on_vacation", "_once_saved", "_owed", "_play", "_player_key",
                                          "_readable", "_record", "render", "_rows", "_run_ai", "_save",
                                          "_seat", "seed_source", "_standing", "store", "_stored",
                                          "_view_prefs", "_waiting", "_saved_versions")
    uses: ClassVar[tuple[str, ...]] = ("Presenter", "Servers")
    # The time and the game seeds of a host given none: plugins loaded into the bot's own process
    # (tests/fake_clock.py, tests/fake_seed.py, through GAME_PLUGINS) replace them, as a test does.
    default_clock: ClassVar[Callable[[], datetime | str]] = utc_now
    default_seed_source: ClassVar[Callable[[], int]] = _fresh_seed

    def __init__(self, store: Store, *, clock: Callable[[], datetime | str] | None = None,
                 seed_source: Callable[[], int] | None = None,
                 render: Callable[[str, dict], bytes] = renderers.render,
                 render_panel: Callable[[str, dict], bytes] | None = None,
                 executor: workers.WorkerPool | None = None, ai_level: str = "normal", hard_seconds: float = 1.0,
                 games_in_flight: int = GAMES_IN_FLIGHT):
        self.store = store
        self.clock = clock or HostCore.default_clock
        self.seed_source = seed_source or HostCore.default_seed_source
        self.render = render
        # A private panel's picture (a game may draw its panel differently at some steps); with
        # an injected board renderer (tests, benchmarks) and none given, that one draws panels too.
        self.render_panel = render_panel or (renderers.render_panel if render is renderers.render else render)
        self.executor = executor  # worker processes for drawing and AI; None: inline (tests, local)
        self.ai_level = ai_level  # AI seats and stand-ins unless the game chose otherwise
        self.hard_seconds = hard_seconds  # the wall-clock safety net of a hard AI's search
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._in_flight = asyncio.Semaphore(games_in_flight)
        self._holding: dict[asyncio.Task, int] = {}  # the game whose lock a task holds
        # Boards this process saved but failed to show: game id -> (version, its panels too).
        self._owed: dict[int, tuple[int, bool]] = {}
        self.board_owed = asyncio.Event()  # wakes the scheduler's redelivery (Scheduler.redeliver)
        self.landings = Landings()  # boards on their way after their actor was answered: see landing.py
        self._watchers: list[Callable[[int, int], None]] = []  # told of every save: see watch_saves

    # ---- change notices --------------------------------------------------------------------------
    def watch_saves(self, watcher: Callable[[int, int], None]) -> Callable[[], None]:
        """Call ``watcher(game_id, version)`` after each save of a game by this process, whichever way
        in made it (the web table's live updates listen here); returns what stops it. A watcher must
        not block: it is called on the event loop, inside the operation that saved."""
        self._watchers.append(watcher)
        return lambda: self._watchers.remove(watcher) if watcher in self._watchers else None

    def _saved_versions(self, row: GameRow) -> None:
        for watcher in list(self._watchers):
            try:
                watcher(row.id, row.version)
            except Exception:  # a listener's fault never undoes or fails a saved operation
                log.exception("game %s: a save watcher failed", row.id)

    # ---- time ------------------------------------------------------------------------------------
    def _now(self) -> datetime:
        moment = self.clock()
        return datetime.fromisoformat(moment) if isinstance(moment, str) else moment

    def now_stamp(self) -> str:
        return stamp(self._now())

    def _deadline(self, row: GameRow) -> str | None:
        hours = row.settings.get("deadline_hours", 0)
        if row.settings.get("paused"):  # deadlines paused by the players' vote, until resumed
            return None
        return stamp(self._now() + timedelta(hours=hours)) if hours else None

    @asynccontextmanager
    async def _lock(self, game_id: int):
        """One operation at a time on a game, and at most ``games_in_flight`` games at a time.

        The game's lock comes first, so an operation queued behind another on the same game holds
        no slot while it waits. No operation takes a game's lock inside another's: with every
        slot taken, that would wait forever (and the same game's lock, at once), so it is refused
        as the programming error it is."""
        task = asyncio.current_task()
        if task in self._holding:
            raise RuntimeError(f"game {game_id}'s lock taken inside game {self._holding[task]}'s")
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        async with lock:
            await self.landings.wait(game_id)  # the message id of the game's last board, first
            async with self._in_flight:
                self._holding[task] = game_id
                try:
                    yield
                finally:
                    del self._holding[task]

    # ---- loading ---------------------------------------------------------------------------------
    async def _load(self, game_id: int, ask: Ask | None = None, *, set_aside_too: bool = False) -> GameRow:
        """A game's row; with ``ask``, only if that request may be honoured (see ``access``),
        checked before anything else about the game is said. A game set aside is refused, unless
        ``set_aside_too`` (abandoning it: the way out the refusal names)."""
        try:
            row = await self.store.load(game_id)
        except NotFound:
            raise ServiceError("game_not_found", id=game_id) from None
        except StoreError as e:
            raise await self._set_aside(game_id, f"{e.key}: {e.detail}") from None
        if ask is not None:
            await self._authorize(row, ask)
        if row.broken_reason and not set_aside_too:
            raise ServiceError("game_broken", id=game_id)
        return row

    async def _authorize(self, row: GameRow, ask: Ask) -> None:
        where, user_id = ask.where, ask.user_id
        follows = (where is not None and where.guild_id is None and row.seat_of(user_id) is None
                   and user_id in await self.store.followers(row.id))
        authorize(ask.op, row, user_id, where, self._now(), follows=follows)

    async def _load_game(self, game_id: int, ask: Ask | None = None) -> tuple[GameRow, Game]:
        """A game's row and engine, after checking the engine can read its stored state."""
        return await self._readable(await self._load(game_id, ask))

    async def _readable(self, row: GameRow) -> tuple[GameRow, Game]:
        """A loaded row and its engine, once the engine can read its state (else it is set aside)."""
        async with self._stored(row.id):
            return readable(row)

    async def _standing(self, game_id: int) -> list[ActionRow]:
        """A game's log entries in force, undone ones left out (what replays, exports and undos
        rebuild from); a log whose undos cannot be read is damaged."""
        entries = await self.store.actions(game_id)
        async with self._stored(game_id):
            return standing(entries)

    async def _load_lobby(self, game_id: int, ask: Ask | None = None) -> tuple[GameRow, Game]:
        row, game = await self._load_game(game_id, ask)
        if row.status != "lobby":
            raise ServiceError("not_in_lobby" if row.status == "active" else f"game_{row.status}", id=game_id)
        return row, game

    async def _load_active(self, game_id: int, ask: Ask | None = None) -> tuple[GameRow, Game]:
        row, game = await self._load_game(game_id, ask)
        if row.status != "active":
            raise ServiceError("game_not_started" if row.status == "lobby" else f"game_{row.status}", id=game_id)
        return row, game

    @asynccontextmanager
    async def _stored(self, game_id: int):
        """The one guard around reading a game's stored data through the engine or a renderer: its
        state, its log and options, or states rebuilt from them (a replay). Data the engine cannot
        read is damaged, and trying again cannot mend it: the game is set aside (logged once,
        flagged) and refused with ``game_broken``, here and everywhere from then on.

        A refusal passes as it is. So does a failure of the machinery (the database, a drawing
        worker, the network): no fault of the game's, it fails this call only."""
        try:
            yield
        except (ServiceError, asyncio.CancelledError):
            raise
        except Exception as e:
            if self._outage(e):
                raise
            raise await self._set_aside(game_id, failure_reason(e), e) from None

    def _outage(self, e: BaseException) -> bool:
        """A failure of the machinery rather than of a game's data: tried again later, never set aside."""
        return isinstance(e, (OSError, workers.WorkerLost, *getattr(self.store, "outages", ())))

    @asynccontextmanager
    async def _engine(self, game_id: int, *, on_input: bool = False):
        """Engine and drawing work for one game: a refusal becomes a ServiceError; a failure is logged
        with the game's id and refused, for this call only (a bug in our code is not damaged data,
        and garbage a player typed must not break a game)."""
        try:
            yield
        except (ServiceError, asyncio.CancelledError):
            raise
        except GameError as e:
            raise ServiceError(e.key, **e.params) from None  # (terms are worded where the game is known)
        except Exception:
            log.exception("game %s: %s failed", game_id, "reading an input" if on_input else "engine or drawing work")
            raise ServiceError("action_failed" if on_input else "internal") from None

    async def _set_aside(self, game_id: int, reason: str, failure: BaseException | None = None) -> ServiceError:
        """Flag a game as damaged; logged the first time only (by whichever process flags it), with
        the failure's traceback when there is one: it may be a bug of ours rather than bad data."""
        if await self.store.mark_broken(game_id, reason, self.now_stamp()):
            log.error("game %s set aside: %s", game_id, reason, exc_info=failure)
        return ServiceError("game_broken", id=game_id)

    @asynccontextmanager
    async def _isolated(self, game_id: int):
        """One game's part of a pass over several games (a dashboard, a scheduler pass). If the part
        fails, the game is set aside (logged once, flagged, left out of every list from then on) and
        the pass goes on with the other games. A part hands its result on in its last statement,
        so a game that fails leaves nothing half-done behind.

        A failure of the machinery (the database, a drawing worker, the network) is no fault of the
        game's: it is only left out of this pass, and the next one tries it again."""
        try:
            yield
        except asyncio.CancelledError:
            raise
        except ServiceError as e:  # refused: set aside already, or no longer in the state the pass wants
            if e.key != "game_broken":
                log.info("game %s left out of a pass: %s", game_id, e.key)
        except Exception as e:
            if self._outage(e):
                log.warning("game %s left out of a pass for now: %r", game_id, e)
            else:
                await self._set_aside(game_id, failure_reason(e), e)

    async def _rows(self, game_ids: list[int]) -> list[tuple[GameRow, Game]]:
        """Several games for a list or a scheduler pass; damaged ones are set aside and skipped."""
        out = []
        for game_id, row in zip(game_ids, await self.store.load_many(game_ids)):
            async with self._isolated(game_id):
                out.append(readable(row))
        return out

    # ---- who may act -----------------------------------------------------------------------------
    @staticmethod
    def _seat(row: GameRow, user_id: int) -> int:
        seat = row.seat_of(user_id)
        if seat is None:
            raise ServiceError("not_in_game", id=row.id)
        return seat

    async def _check_fresh(self, row: GameRow, seat: int, seen_version: int | None, *, typed: bool = False) -> None:
        """A button is valid only for the position it was drawn from. The exception: within one
        simultaneous step, other seats handing in their parts do not make a seat's panel stale.
        A typed line carries no version; it is checked against the last board posted, so a line
        sent twice before its result was shown cannot apply twice."""
        if seen_version is None:
            if not typed or row.posted_version >= row.version:
                return
            seen_version = max(row.posted_version, 0)
            if not await self.store.seat_acted_since(row.id, seat, seen_version):
                return
            raise ServiceError("stale_typed")
        if seen_version == row.version:
            return
        if seen_version > row.version:
            raise ServiceError("stale")
        panel = row.settings.get("panels", {}).get(str(seat))
        if panel and seen_version >= panel[1]:
            # A game with private digests: the seat's panel stays valid while what it shows (its
            # hand, its question, its legal actions) is unchanged, whatever others did meanwhile.
            if await self.store.seat_acted_since(row.id, seat, seen_version):
                raise ServiceError("stale")
            return
        if seen_version < row.step_version:
            raise ServiceError("stale")
        if await self.store.seat_acted_since(row.id, seat, seen_version):
            raise ServiceError("stale")

    @staticmethod
    def _bounded_action(action: str | None) -> str:
        text = normalized(action, MAX_ACTION_LENGTH, "action_too_long")
        if not text:
            raise ServiceError("action_empty")
        return text

    # ---- recording play in a draft -----------------------------------------------------------------
    def _play(self, draft: Draft, game: Game, seat: int, user_id: int | None, action: str, *,
              stand_in: bool = False, as_typed: str | None = None) -> list[dict]:
        """Apply one action to the draft; a refusal raises ServiceError and leaves it unchanged. A
        refusal that quotes the action quotes it ``as_typed``, not as the engine normalised it."""
        before = draft.row.state
        try:
            state, events = game.apply(before, seat, action)
        except GameError as e:
            params = termed(game, e.params)
            if as_typed is not None and "action" in params:
                params["action"] = echoed(as_typed)
            raise ServiceError(e.key, **params) from None
        self._record(draft, game, seat, user_id, action, state, stand_in=stand_in)
        draft.undoable = draft.undoable and game.undoable(before, state, events)
        return events

    def _record(self, draft: Draft, game: Game, seat: int, user_id: int | None, action: str, state: dict, *,
                stand_in: bool = False) -> None:
        """Log an action and its new state; restart the clock only when someone new must act, so
        a multi-action turn or a secret order handed in early keeps the running deadline."""
        row, now = draft.row, self.now_stamp()
        before = game.to_act(row.state)
        draft.log(seat, user_id, action, now, stand_in=stand_in)
        row.state = state
        outcome = game.outcome(state)
        after = game.to_act(state) if outcome is None else set()
        if outcome is not None:
            row.status = "finished"
            # A draw shared by some (an agreed end with seats already out): those share it, the rest lost.
            draft.results = [(s.user_id, s.seat in outcome.winners and not outcome.draw,
                              outcome.draw and (not outcome.winners or s.seat in outcome.winners)) for s in row.seats]
            draft.rating = self._rating_sides(row, game, state)
            row.deadline_at, row.turn_started_at, row.reminded = None, now, False
        elif after - before or not row.deadline_at:
            row.deadline_at, row.turn_started_at, row.reminded = self._deadline(row), now, False
        if outcome is None and after - before:
            mark_turn(row, now)
        acting = before | {seat}
        if not (len(acting) >= 2 and after and after <= acting):  # not part of one simultaneous step
            row.step_version = row.version

    def _rating_sides(self, row: GameRow, game: Game, state: dict) -> list[tuple[tuple[str, ...], int]] | None:
        """The finished game's sides as rated players (people by id, AI seats by level), or None
        when fewer than two sides are left to compare. A player on several sides (two AI seats of
        one level facing each other) would be rated against itself: that player is left out."""
        standings = game.standings(state)
        outcome = game.outcome(state)
        if outcome is not None and outcome.reason == "agreed":
            # An agreed end: the seats still playing share first place, whatever the game's own
            # ranking (HOSTILE would rank a tie by gems); seats already out stay behind.
            standings = [(team, 0 if not outcome.winners or set(team) & set(outcome.winners) else 1)
                         for team, _ in standings]
        shared = row.settings.get("holders", {})  # seats a substitute took: rated by share (seats.py)
        sides = [(tuple(dict.fromkeys(f"seat:{s}" if str(s) in shared else self._player_key(row, s) for s in team)),
                  place) for team, place in standings]
        keys = [key for team, _ in sides for key in team]
        on_several = {key for key in keys if keys.count(key) > 1}
        sides = [(kept, place) for team, place in sides if (kept := tuple(k for k in team if k not in on_several))]
        return sides if len(sides) >= 2 else None

    def _player_key(self, row: GameRow, seat: int) -> str:
        user_id = row.user_of(seat)
        return f"ai:{self._level_of(row, seat)}" if is_ai(user_id) else user_rating_key(user_id)

    def _begin(self, draft: Draft, game: Game, user_ids: list[int], seed: int, salt: str) -> None:
        """Seat the players in order and set the game up (a start or a rematch)."""
        row, now = draft.row, self.now_stamp()
        try:
            state = game.setup(len(user_ids), row.options, seed)
        except GameError as e:
            raise ServiceError(e.key, **e.params) from None
        draft.replace_seats(user_ids, now)
        row.state, row.seed, row.salt, row.status = state, seed, salt, "active"
        row.deadline_at, row.turn_started_at, row.reminded = self._deadline(row), now, False
        draft.bump()
        row.step_version = row.version
        mark_turn(row, now)

    async def _run_ai(self, draft: Draft, game: Game, *, also: set[int] = frozenset()) -> list[Text]:
        """Let AI seats, stand-ins and the seats in ``also`` act until a human must (or the game ends)."""
        lines: list[Text] = []
        also = set(also)
        row = draft.row
        while row.status == "active":
            lines += await self._saved_policies(draft, game)
            if row.status != "active":
                break
            to_act = game.to_act(row.state)
            seats = sorted(s for s in to_act if self._automatic(row, s) or s in also)
            if not seats:
                break
            seat = seats[0]
            action = await self._think(game, row, seat)
            stand_in = not is_ai(row.user_of(seat))
            events = self._play(draft, game, seat, None, action, stand_in=stand_in)
            if stand_in:
                lines.append(T("timeout.stand_in_played", player=self._name(row, seat),
                               action=self._shown(game, action)))
            lines += self._action_lines(row, game, seat, action, events)
            after = game.to_act(row.state)
            if seat not in after or after - to_act:
                also.discard(seat)  # a timed-out seat is played for this turn only, not the next step
        return lines

    async def _saved_policies(self, draft: Draft, game: Game) -> list[Text]:
        """Play a player's saved default policies (``/game settings``) as ordinary logged actions at
        the seat's first chance to set policies in this game; once per seat and game, so a policy
        changed during the game stays changed."""
        row = draft.row
        kinds = game.policies()
        if not kinds:
            return []
        applied = list(row.settings.get("policies_applied", []))
        lines: list[Text] = []
        for seat in sorted(game.to_act(row.state)):
            user_id = row.user_of(seat)
            if seat in applied or user_id is None or self._automatic(row, seat) or row.status != "active":
                continue
            legal = set(game.legal_actions(row.state, seat))
            if not any(game.policy_action(k, v) in legal for k, values in kinds.items() for v in values):
                continue  # not a step where policies are set (e.g. the loadout): try again later
            applied.append(seat)
            saved = (await self.store.preferences(user_id)).get(game.name, {})
            for key, value in sorted(saved.items()):
                action = game.policy_action(key, value)
                if row.status == "active" and action in game.legal_actions(row.state, seat):
                    events = self._play(draft, game, seat, user_id, action)
                    lines += self._event_lines(row, game, events)
        if applied != row.settings.get("policies_applied", []):
            row.settings["policies_applied"] = applied
        return lines

    async def _think(self, game: Game, row: GameRow, seat: int) -> str:
        """An AI seat's choice, seeded from the game's own seed and version, so it replays."""
        seed = ((row.seed or 0) ^ ((row.version + 1) * 0x9E3779B97F4A7C15) ^ seat) & ((1 << 63) - 1)
        server_level = None
        if not is_ai(row.user_of(seat)) and "stand_in_level" not in row.settings:
            server_level = await self._server_stand_in_level(row.guild_id)  # read when it plays: a change applies at once
        return await workers.run_long(self.executor, workers.think, game.name, row.state, seat, seed,
                                      self._level_of(row, seat, server_level), self.hard_seconds)

    def _level_of(self, row: GameRow, seat: int, server_level: str | None = None) -> str:
        """An AI seat plays at the level it was added with; a stand-in at the level its game chose
        (``/game new ai:``), else its server's (``/game settings standin_level:``)."""
        user_id = row.user_of(seat)
        if is_ai(user_id):
            return row.settings.get("ai_levels", {}).get(str(user_id), self.ai_level)
        return row.settings.get("stand_in_level", server_level or self.ai_level)

    def _waiting(self, row: GameRow, game: Game) -> list[int]:
        """The seats the game waits for, retired seats left out (never pinged nor listed)."""
        if row.status != "active" or row.state is None:
            return []
        return sorted(game.to_act(row.state) - game.retired(row.state))

    def _bookkeep(self, draft: Draft) -> None:
        """For games with digests (see ``Game.private_digest``/``public_digest``): note, in the
        game's settings saved with this version, when a new wait began, when the public board last
        changed, and for each seat to act the digest of its panel and the version it changed at."""
        row = draft.row
        if row.state is None or row.status not in ("active", "finished"):
            return
        try:
            game = get_game(row.game)
            public = game.public_digest(game.view(row.state, None))
        except Exception:  # an unreadable state is dealt with where it is loaded
            return
        if public is None:
            return
        settings = row.settings
        waiting = self._waiting(row, game)
        if set(waiting) - set(settings.get("waiting", [])):
            settings["wait_from"] = row.version
        settings["waiting"] = waiting
        board = _digest(public)
        if board != settings.get("board"):
            settings["board"], settings["board_from"] = board, row.version
        old, panels = settings.get("panels", {}), {}
        for seat in waiting:
            private = game.private_digest(game.view(row.state, seat))
            if private is None:
                continue
            mark = _digest([private, game.legal_actions(row.state, seat)])
            before = old.get(str(seat))
            panels[str(seat)] = before if before and before[0] == mark else [mark, row.version]
        settings["panels"] = panels

    async def _credit_holders(self, draft: Draft) -> None:
        """A game ending with a seat several people held (bot/service/seats.py overrides this)."""

    async def _save(self, draft: Draft) -> GameRow:
        self._bookkeep(draft)
        if draft.row.status == "finished" and draft.row.settings.get("holders"):
            await self._credit_holders(draft)
        try:
            row = await self.store.save(draft, self.now_stamp())
            crash_point("service.saved")  # saved, not yet delivered: the board must be posted on restart
            self._saved_versions(row)
            return row
        except VersionConflict:
            raise Conflict() from None
        except RematchExists as e:
            current = await self.store.load(e.game_id)
            raise ServiceError("rematch_exists", id=current.rematch_id) from None

    @asynccontextmanager
    async def _once_saved(self, outbox: Outbox, row: GameRow):
        """Composing what a saved operation shows: its board, panels and the actor's extras.

        The operation counted the moment it was saved, so no failure from here on may be told
        as a refusal ("nothing was changed"). The outbox keeps what was composed before (the
        actor's reply says what counted) and says the board follows; the board is owed, drawn
        afresh from the saved state and posted within seconds."""
        kept = {name: list(value) if isinstance(value, list) else value for name, value in vars(outbox).items()}
        try:
            yield
        except Exception:
            log.exception("game %s: version %s is saved, but showing it failed", row.id, row.version)
            vars(outbox).update(kept)
            if row.state is not None:  # a lobby has no board to follow: its reply says what counted
                outbox.reply.append(T("game.counted_board_follows"))
                self.owe_board(row.id, row.version, panels=True)

    def owe_board(self, game_id: int, version: int, *, panels: bool = False) -> None:
        """A saved version's board was not shown (drawing or posting it failed): the scheduler
        posts it within seconds (``Dashboards.owed_boards``). ``panels``: its secret panels never
        went out either."""
        self.landings.landed(game_id, version)  # not shown, but the next operation need not wait for it
        old_version, old_panels = self._owed.get(game_id, (version, False))
        if old_version > version:
            return
        self._owed[game_id] = (version, panels or (old_panels and old_version == version))
        self.board_owed.set()

    @staticmethod
    def _automatic(row: GameRow, seat: int) -> bool:
        seat_row = row.seat_row(seat)
        return seat_row is not None and (is_ai(seat_row.user_id) or seat_row.stand_in)

    def _on_vacation(self, seat_row) -> bool:
        return bool(seat_row and seat_row.vacation_until and seat_row.vacation_until > self.now_stamp())

    # ---- images ----------------------------------------------------------------------------------
    async def _draw(self, game_name: str, view: dict, *, panel: bool = False, seat: int | None = None,
                    prefs: dict | None = None, lang: str | None = None) -> bytes:
        """A board image (``panel``: a seat's private panel picture), drawn in the worker pool so
        no game's drawing holds up another's reply.

        ``prefs`` are a person's view choices (``/game settings``) for an image only they see:
        ``side`` draws the board from ``seat``'s side where the game's renderer can, ``large``
        draws it larger, ``lang`` (their own language) names things in that language where the
        game's board writes names. Public boards never pass them: one image for everyone who
        reads the game's language (``lang``, the game's)."""
        fail_point("service.draw")  # tests: a drawing that fails (see bot/faults.py)
        draw = self.render_panel if panel else self.render
        options = renderers.view_options(game_name, prefs or {}, seat)
        lang = (prefs or {}).get("lang") or lang
        if lang and renderers.speaks(game_name) and _takes_lang(draw):
            options["lang"] = lang
        if options:
            draw = functools.partial(draw, **options)
        if self.executor is None:
            return draw(game_name, view)
        return await workers.run(self.executor, draw, game_name, view)

    async def _view_prefs(self, user_ids) -> dict[int, dict]:
        """The view choices of several people, in one store read."""
        people = sorted({u for u in user_ids if u is not None and not is_ai(u)})
        if not people:
            return {}
        return {u: {**s.get("view", {}), **({"lang": s["locale"]} if s.get("locale") else {})}
                for u, s in (await self.store.users_settings(people)).items()}


def _takes_lang(draw: Callable) -> bool:
    """Whether a drawing function takes a ``lang`` (the renderers' do; a test's stand-in may not)."""
    try:
        params = inspect.signature(draw).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == "lang" or p.kind is inspect.Parameter.VAR_KEYWORD for p in params)


def mark_turn(row: GameRow, now: str) -> None:
    """Note that a new wait began (someone new must act) at this version: followers hear of each
    such turn once (see ``Follow.due_follow_notices``)."""
    row.settings["turn_from"], row.settings["turn_at"] = row.version, now


def turn_of(row: GameRow) -> int:
    """The version at which the current wait began (0 for games saved before turns were noted)."""
    return int(row.settings.get("turn_from", 0))


def readable(row: GameRow | StoreError) -> tuple[GameRow, Game]:
    """A loaded row and its engine, once the engine can read its stored state; else the failure.

    What is read here is what every list, pass and board reads of a state (the outcome, whom it
    waits for, the public view): cheap (well under a millisecond), and a damage found here sets
    the game aside before any operation starts on it. What only some operations read is guarded
    where they read it (``HostCore._stored``)."""
    if isinstance(row, StoreError):
        raise row
    game = get_game(row.game)
    if row.state is not None:
        game.outcome(row.state)
        game.to_act(row.state)
        game.retired(row.state)
        game.view(row.state, None)
    return row, game


def failure_reason(e: BaseException) -> str:
    """Why a stored game was set aside, as its failure tells it (for the log and the row's flag)."""
    if isinstance(e, StoreError):
        return f"{e.key}: {e.detail}"
    if isinstance(e, GameError):
        return f"unknown game {e.params.get('name')!r}" if e.key == "unknown_game" else f"{e.key} {e.params}"
    return f"{type(e).__name__}: {e}"


def _digest(value) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:16]


def game_of(name: str) -> Game:
    try:
        return get_game(name)
    except GameError as e:
        raise ServiceError(e.key, **e.params) from None
