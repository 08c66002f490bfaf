"""Replays: the step-by-step viewer, the export file, and the end-of-game animated recap.

Every step is rebuilt from seed + options + log (``games.replay``) in the worker pool. What a
viewer may see is decided here, in one place (:func:`viewpoints`):

- while a game runs, a player sees the public view or their own seat's view; anyone else sees only
  the public view, and secret actions (Arena orders, Monster Hunter cards) stay 🔒 exactly as long
  as ``/game history`` keeps them so;
- once the game is over (finished or abandoned), everyone may look from every seat, and every
  action shows its notation.

Frames are cached per (game, log prefix, point of view), so the same step looked at again, by
anyone allowed that point of view, is not drawn twice.
"""

from __future__ import annotations

from typing import ClassVar

import json
import logging
from collections import OrderedDict
from datetime import timedelta

from games import Game, Outcome
from games.replay import AGREED_END, CONCESSIONS, log_fingerprint, state_hash
import renderers
from renderers import LARGE_SCALE
from renderers.common import SHAPE_SYMBOLS, player_style, scaled_png

from ..common import fairplay
from ..workers import replay_frames, pool as workers
from ..i18n import T, Text
from ..storage.rows import ActionRow, GameRow
from .access import Ask, Where
from .outbox import Outbox, Recap, ServiceError, Viewer
from .settings import stamp

log = logging.getLogger("bot.service")

OVER = ("finished", "abandoned")
VIEWABLE = ("active", "finished", "abandoned")
JUMP_OPTIONS = 25
FRAME_CACHE_BYTES = 48 * 1024 * 1024
RECAP_LEASE_MINUTES = 10
RECAP_ATTEMPTS = 3
EXPORT_FORMAT = "tabletop-replay/1"


def is_over(row: GameRow) -> bool:
    return row.status in OVER


def viewpoints(row: GameRow, user_id: int) -> list[int | None]:
    """The points of view this user may take: None is the public view, a number a seat's view."""
    if is_over(row):
        return [None] + [s.seat for s in row.seats]
    seat = row.seat_of(user_id)
    return [None] if seat is None else [seat, None]


def still_secret(row: GameRow, game: Game, action: ActionRow, pov: int | None) -> bool:
    """Whether this logged action must stay hidden from ``pov`` (the rule ``/game history`` uses;
    a seat always knows its own actions)."""
    if is_over(row) or game.action_is_public(action.action) or (pov is not None and pov == action.seat):
        return False
    return not (game.secrets_end_with_step and action.version <= row.step_version)


class FrameCache:
    """Drawn steps by (game, log prefix, point of view), least recently used out first."""

    def __init__(self, limit: int = FRAME_CACHE_BYTES):
        self.limit, self.size = limit, 0
        self.items: OrderedDict[tuple, tuple] = OrderedDict()

    def get(self, key: tuple):
        item = self.items.get(key)
        if item is not None:
            self.items.move_to_end(key)
        return item

    def put(self, key: tuple, item: tuple) -> None:
        self.size += len(item[2])
        self.items[key] = item
        while self.size > self.limit and len(self.items) > 1:
            _, old = self.items.popitem(last=False)
            self.size -= len(old[2])


class Replays:
    uses: ClassVar[tuple[str, ...]] = ("Dashboards", "Presenter")

    _frame_cache: FrameCache | None = None

    # ---- which game, and may this user look at it ------------------------------------------------------
    async def _viewable(self, op: str, game_id: int, user_id: int, where: Where | None) -> tuple[GameRow, Game]:
        """A started game that this user may see from here (``access``)."""
        row, game = await self._load_game(game_id, Ask(op, user_id, where))
        if row.state is None or row.seed is None:
            raise ServiceError("replay_not_started", id=game_id)
        return row, game

    async def replay_game_here(self, channel_id: int, user_id: int) -> int:
        """The game of this channel or thread: the user's own here, else the only one here."""
        mine = await self.games_for(channel_id, user_id)
        here = mine or await self.store.game_ids_in_channel(channel_id, VIEWABLE)
        if len(here) == 1:
            return here[0]
        raise ServiceError("which_game" if here else "no_game_here", ids=[f"#{i}" for i in here[-10:]])

    async def replay_choices(self, user_id: int, where: Where) -> list[int]:
        """Games this user may replay from here, newest first: their own and this server's."""
        ids = set(await self.game_choices(user_id, where, VIEWABLE))
        if where.guild_id is not None:
            ids |= set(await self.store.recent_game_ids_in_guild(where.guild_id, VIEWABLE, JUMP_OPTIONS))
        return sorted(ids, reverse=True)

    # ---- the viewer ------------------------------------------------------------------------------------
    async def replay(self, game_id: int, user_id: int, step: int | None = None,
                     pov: int | None | str = "default", *, clicked: bool = False, where: Where | None = None) -> Outbox:
        """The viewer at ``step`` (default: the latest) from ``pov`` (default: the user's seat while
        playing, else the public view). A point of view the user may not take is refused."""
        row, game = await self._viewable("replay", game_id, user_id, where)
        actions = await self._standing(game_id)
        allowed = viewpoints(row, user_id)
        if pov == "default":
            pov = row.seat_of(user_id) if row.seat_of(user_id) in allowed else None
        if pov not in allowed:
            raise ServiceError("replay_view_refused")
        steps = len(actions)
        if step is None:
            step = steps
        if not 0 <= step <= steps:
            raise ServiceError("replay_step_gone", step=step, steps=steps)
        large = (await self._view_prefs([user_id])).get(user_id, {}).get("large")
        async with self._stored(game_id):  # a log, options or seed that cannot be replayed set the game aside
            lang = (await self._view_prefs([user_id])).get(user_id, {}).get("lang") or row.locale
            events, outcome, image = await self._replay_frame(row, actions[:step], pov, lang)
            if image and large:
                image = await workers.run(self.executor, scaled_png, image, LARGE_SCALE)  # this viewer's own copy
            lines = self._replay_lines(row, game, actions, step, pov, events, outcome)
            jumps = self._jumps(row, game, actions, step, pov)
        viewer = Viewer(game_id, user_id, step, steps, pov, [(p, self._pov_label(p)) for p in allowed], jumps)
        return Outbox(reply=lines, reply_image=image, reply_viewer=viewer)

    async def _replay_frame(self, row: GameRow, prefix: list[ActionRow], pov: int | None, lang: str = "en"):
        if self._frame_cache is None:
            Replays._frame_cache = FrameCache()
        log_ = [(a.seat, a.action) for a in prefix]
        lang = lang if renderers.speaks(row.game) else "en"   # one frame for every language where the board has no words
        key = (row.id, row.seed, log_fingerprint(log_), pov, lang)
        cached = self._frame_cache.get(key)
        if cached is not None:
            return cached
        frame = await workers.run(self.executor, replay_frames.frame, row.game, len(row.seats), row.options,
                                  row.seed, log_, pov, lang)
        self._frame_cache.put(key, frame)
        return frame

    def _pov_label(self, pov: int | None) -> Text:
        return T("replay.pov_public") if pov is None else T("replay.pov_seat", mark=plain_mark(pov))

    def _step_words(self, row: GameRow, game: Game, action: ActionRow, pov: int | None) -> Text:
        """Who did what at one step, in words where the game has them, 🔒 while still secret."""
        player = self._name(row, action.seat)
        if still_secret(row, game, action, pov):
            return T("turn.played", player=player, action="🔒")
        if action.action in CONCESSIONS:
            return T("replay.conceded", player=player)
        if action.action == AGREED_END:
            return T("replay.agreed_end")
        words = self._choice_text(game, game.action_path(action.action))
        if words is None:
            return T("turn.played", player=player, action=action.action)
        return T("turn.played_words", player=player, words=words, action=action.action)

    def _replay_lines(self, row: GameRow, game: Game, actions: list[ActionRow], step: int, pov: int | None,
                      events: list[dict], outcome: dict | None) -> list[Text]:
        lines = [T("replay.header", id=row.id, game=T(f"game.{row.game}.title"), step=step, steps=len(actions),
                   view=self._pov_label(pov))]
        if step == 0:
            lines.append(T("replay.start"))
        else:
            lines.append(self._step_words(row, game, actions[step - 1], pov))
        lines += self._event_lines(row, game, events)
        if outcome is not None:
            lines.append(self._outcome_line(row, Outcome.from_json(outcome)))
        elif step == len(actions) and row.status == "active":
            lines.append(T("replay.now"))
        if not is_over(row) and pov is None:
            lines.append(T("replay.public_only"))
        return lines

    def _jumps(self, row: GameRow, game: Game, actions: list[ActionRow], step: int,
               pov: int | None) -> list[list[tuple[int, Text]]]:
        """The jump menus: all steps when they fit in one; else one spread over the whole game and
        one of the steps around this one."""
        steps = len(actions)
        def option(k: int) -> tuple[int, Text]:
            if k == 0:
                return 0, T("replay.option_start")
            a = actions[k - 1]
            mark = plain_mark(a.seat)
            if still_secret(row, game, a, pov):
                return k, T("replay.option", n=k, mark=mark, action="🔒")
            if a.action in CONCESSIONS:
                return k, T("replay.option", n=k, mark=mark, action=T("replay.option_conceded"))
            if a.action == AGREED_END:
                return k, T("replay.option", n=k, mark=mark, action=T("replay.option_agreed"))
            # Menu labels show no markdown, so no code span: the action in words where the game has them.
            words = self._choice_text(game, game.action_path(a.action))
            return k, T("replay.option", n=k, mark=mark, action=words if words is not None else a.action)

        if steps < JUMP_OPTIONS:
            return [[option(k) for k in range(steps + 1)]] if steps else []
        spread = sorted({round(i * steps / (JUMP_OPTIONS - 1)) for i in range(JUMP_OPTIONS)})
        half = JUMP_OPTIONS // 2
        low = max(0, min(step - half, steps + 1 - JUMP_OPTIONS))
        near = range(low, min(steps, low + JUMP_OPTIONS - 1) + 1)
        return [[option(k) for k in spread], [option(k) for k in near]]

    # ---- the export file -------------------------------------------------------------------------------
    async def export(self, game_id: int, user_id: int, *, where: Where | None = None) -> Outbox:
        """A JSON file: game, options, seats, every action in notation; the seed (and a hash of the
        final state) once the game is over, only the fair-play commitment while it runs. An action
        still secret from this user is left out (``null``)."""
        row, game = await self._viewable("export", game_id, user_id, where)
        actions = await self._standing(game_id)
        handovers = await self.store.substitutions(game_id)
        async with self._stored(game_id):  # the log and state, read for the file
            text = self._export_text(row, game, actions, handovers, row.seat_of(user_id))
        lines = [T("export.ready", id=row.id, count=len(actions))]
        lines.append(T("export.replay_hint") if is_over(row) else T("export.running"))
        return Outbox(reply=lines, reply_files=[(f"game{row.id}-{row.game}.json", text.encode())])

    @staticmethod
    def _export_text(row: GameRow, game: Game, actions: list[ActionRow], handovers: list, pov: int | None) -> str:
        """The file's JSON, as ``pov`` (the asker's seat, or None) may see it."""
        over = is_over(row)
        data = {
            "format": EXPORT_FORMAT, "game": row.game, "id": row.id, "status": row.status,
            "players": len(row.seats), "options": row.options,
            "seats": [{"seat": s.seat, "mark": seat_mark_letter(s.seat),
                       "ai_level": row.settings.get("ai_levels", {}).get(str(s.user_id))} for s in row.seats],
            "commitment": fairplay.commitment(row.seed, row.salt) if row.salt else None,
            "seed": row.seed if over else None, "salt": row.salt if over else None,
            "actions": [{"n": a.n, "seat": a.seat,
                         "action": None if still_secret(row, game, a, pov) else a.action} for a in actions],
            # Seats handed to a substitute, after which log entry (no Discord users in a file).
            "substitutions": [{"seat": h.seat, "mark": seat_mark_letter(h.seat), "after": h.after_n}
                              for h in handovers],
            "outcome": row.state.get("outcome") if over else None,
            "final_state_sha256": state_hash(row.state) if over else None,
        }
        return json.dumps(data, ensure_ascii=False, indent=1)

    # ---- the end-of-game recap -------------------------------------------------------------------------
    async def claim_recap(self, game_id: int) -> Recap | None:
        """Take the lease to post a finished game's recap and draw it; None when another process
        holds it, or it was posted already. A failure to draw is counted (and given up after a few)."""
        now = self._now()
        if not await self.store.claim_recap(game_id, stamp(now), stamp(now + timedelta(minutes=RECAP_LEASE_MINUTES))):
            return None
        try:
            row, game = await self._load_game(game_id)
            actions = await self._standing(game_id)
            async with self._stored(game_id):  # a log that cannot be replayed sets the game aside
                data = await workers.run_long(self.executor, replay_frames.recap, row.game, len(row.seats),
                                              row.options, row.seed, [(a.seat, a.action) for a in actions],
                                              replay_frames.RECAP_BUDGET, row.locale)
        except Exception as e:
            await self.recap_failed(game_id)
            if not (isinstance(e, ServiceError) and e.key == "game_broken"):  # set aside: logged once already
                log.warning("game %s: no recap: %s", game_id, e if isinstance(e, ServiceError) else repr(e))
            return None
        lines = [T("recap.header", id=row.id, game=T(f"game.{row.game}.title"), steps=len(actions))]
        return Recap(row.id, row.thread_id or row.channel_id, row.guild_id, row.locale, lines, data,
                     f"game{row.id}-recap.webp", in_thread=row.thread_id is not None,
                     after_message_id=row.board_message_id)

    async def recap_posted(self, game_id: int, message_id: int) -> None:
        await self.store.recap_done(game_id, message_id)

    async def recap_failed(self, game_id: int) -> None:
        await self.store.recap_failed(game_id, RECAP_ATTEMPTS)

    async def due_recaps(self) -> list[int]:
        return await self.store.recap_due_game_ids(self.now_stamp())


def seat_mark_letter(seat: int) -> str:
    return player_style(seat).letter


def plain_mark(seat: int) -> str:
    """A seat's letter and shape without markdown (menu labels show none)."""
    style = player_style(seat)
    return f"{style.letter} {SHAPE_SYMBOLS.get(style.shape, '')}".strip()
