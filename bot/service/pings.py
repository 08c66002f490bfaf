"""Each player chooses their pings: per game, or as their default (``/game settings pings: via:
last_wait: [game_id:]``).

- ``mode``: ``every`` (a mention at every new turn, whoever plays), ``mine`` (only when I must act;
  the bot's default), ``before`` (as mine, and a heads-up when the seat before mine starts its
  turn), ``digest`` (no pings; one message a day, at :data:`DIGEST_HOUR` in the player's time
  zone, listing the games waiting for them) or ``none``.
- ``via``: ``channel`` (a mention on the board), ``dm`` (a DM instead; the channel when DMs are
  closed) or ``both``. Unset, it follows the older ``dm_reminders`` switch (on: both).
- ``last_wait``: in a simultaneous step, "you are the last one we are waiting for" (default on).

A private panel is the game itself, not a ping: it is sent whatever the mode (quiet hours aside).
Notices the bot posts about a turn (reminders, "last one", digests, pings released after quiet
hours) are recorded and deleted once every game they name has moved past that turn, so a channel
keeps no stale reminders.
"""

from __future__ import annotations

from typing import ClassVar

from dataclasses import dataclass

from ..i18n import T, Text
from ..common.quiet_hours import local_wall
from ..storage.rows import GameRow
from .access import Ask, Where
from .core import is_ai, turn_of
from .outbox import Notice, Outbox, Post, ServiceError
from .settings import discord_time

PING_MODES = ("every", "mine", "before", "digest", "none")
PING_VIAS = ("channel", "dm", "both")
DIGEST_HOUR = 9  # local time of the daily digest
PINGED_MODES = ("every", "mine", "before")  # modes that mention a player whose turn it is


@dataclass(frozen=True)
class PingChoice:
    mode: str = "mine"
    via: str = "channel"
    last_wait: bool = True

    @property
    def dm(self) -> bool:
        return self.via in ("dm", "both")

    @property
    def channel(self) -> bool:
        return self.via in ("channel", "both")


class Pings:
    uses: ClassVar[tuple[str, ...]] = ("Presenter", "Quiet")

    # ---- choosing ----------------------------------------------------------------------------------
    async def set_pings(self, user_id: int, mode: str | None, via: str | None, last_wait: bool | None) -> Outbox:
        """A person's default ping choices (every game without its own)."""
        self._check_ping_values(mode, via)
        await self.store.set_ping_choice(user_id, 0, mode, via, last_wait)
        return Outbox(reply=self._ping_lines(mode, via, last_wait, None))

    async def set_game_pings(self, game_id: int, user_id: int, mode: str | None, via: str | None,
                             last_wait: bool | None, *, where: Where | None = None) -> Outbox:
        """A seated player's ping choices for one game (they win over their default)."""
        self._check_ping_values(mode, via)
        row = await self._load(game_id, Ask("pings", user_id, where))
        self._seat(row, user_id)
        if row.status not in ("lobby", "active"):
            raise ServiceError(f"game_{row.status}", id=game_id)
        await self.store.set_ping_choice(user_id, game_id, mode, via, last_wait)
        return Outbox(reply=self._ping_lines(mode, via, last_wait, game_id))

    @staticmethod
    def _check_ping_values(mode: str | None, via: str | None) -> None:
        if mode is not None and mode not in PING_MODES:
            raise ServiceError("ping_mode", value=mode[:20], choices=list(PING_MODES))
        if via is not None and via not in PING_VIAS:
            raise ServiceError("ping_via", value=via[:20], choices=list(PING_VIAS))

    @staticmethod
    def _ping_lines(mode, via, last_wait, game_id) -> list[Text]:
        where = T("pings.in_game", id=game_id) if game_id is not None else T("pings.by_default")
        lines = []
        if mode is not None:
            lines.append(T("pings.mode_set", mode=T(f"pings.mode.{mode}"), where=where))
        if via is not None:
            lines.append(T("pings.via_set", via=T(f"pings.via.{via}"), where=where))
        if last_wait is not None:
            lines.append(T("pings.last_on" if last_wait else "pings.last_off", where=where))
        return lines

    async def _settings_ping_lines(self, user_id: int, mine: dict) -> list[Text]:
        choice = (await self._ping_choices(0, [user_id], {user_id: mine}))[user_id]
        return [T("pings.summary", mode=T(f"pings.mode.{choice.mode}"), via=T(f"pings.via.{choice.via}"),
                  last=T("settings.on" if choice.last_wait else "settings.off"))]

    async def _ping_choices(self, game_id: int, user_ids, settings: dict[int, dict] | None = None
                            ) -> dict[int, PingChoice]:
        """Each person's effective choices in a game: theirs for the game, their default, the bot's."""
        people = sorted({u for u in user_ids if u is not None and not is_ai(u)})
        if not people:
            return {}
        stored = await self.store.ping_choices(people, game_id)
        if settings is None or any(u not in settings for u in people):
            settings = await self.store.users_settings(people)
        out = {}
        for u in people:
            mine = stored[u]
            fallback_via = "both" if settings[u]["dm_reminders"] else "channel"
            out[u] = PingChoice(mine["mode"] or "mine", mine["via"] or fallback_via,
                                True if mine["last_wait"] is None else mine["last_wait"])
        return out

    # ---- a board's pings ---------------------------------------------------------------------------
    async def _choose_board_pings(self, post: Post, row: GameRow, to_act: list[int]) -> None:
        """Apply the players' modes to a board post: those who want no pings for their turn are
        named without a mention; at a new turn, those who want every turn (or who play right after
        the seat now starting) are mentioned in one more line."""
        seated = [s.seat for s in row.seats if not self._automatic(row, s.seat)]
        choices = await self._ping_choices(row.id, [row.user_of(s) for s in seated])
        post.mentions = [u for u in post.mentions if choices.get(u, PingChoice()).mode in PINGED_MODES]
        if turn_of(row) != row.version or not to_act:
            return  # not a new turn (a turn of several actions goes on): no heads-up
        count = max(s.seat for s in row.seats) + 1
        heads_up = []
        for seat in seated:
            user_id = row.user_of(seat)
            mode = choices[user_id].mode
            if seat in to_act or user_id in post.mentions:
                continue
            if mode == "every" or (mode == "before" and (seat - 1) % count in to_act):
                heads_up.append(seat)
        if heads_up:
            post.lines.append(T("pings.heads_up", players=self._names(row, heads_up),
                                now=self._names(row, to_act)))
            post.mentions += [row.user_of(s) for s in heads_up]

    async def _route_board_pings(self, post: Post, settings: dict[int, dict]) -> None:
        """Where each mention of a turn goes: the channel, a DM instead (when DMs are not known
        closed), or both."""
        if post.board_version is None or post.hold_as != "turn" or not post.mentions:
            return
        choices = await self._ping_choices(post.game_id, post.mentions, settings)
        for user_id in list(post.mentions):
            choice = choices.get(user_id)
            if choice is None or not (choice.dm or post.rides):  # where only clicks carry boards, a DM tells the turn
                continue
            post.dm_turn[user_id] = (settings.get(user_id) or {}).get("locale") or post.lang
            if not post.rides and not choice.channel and (settings.get(user_id) or {}).get("dm_open") is not False:
                post.mentions.remove(user_id)

    # ---- "you are the last one we are waiting for" -------------------------------------------------
    async def _last_one_notice(self, outbox: Outbox, row: GameRow, game, waited_before: set[int]) -> None:
        """In a simultaneous step that still waits for exactly one person who was waited for
        before this action: tell them (once per step, as the step's last wait begins)."""
        still = [s for s in self._waiting(row, game) if not self._automatic(row, s)]
        if len(still) != 1 or still[0] not in waited_before or len(waited_before) < 2:
            return
        user_id = row.user_of(still[0])
        choice = (await self._ping_choices(row.id, [user_id]))[user_id]
        if not choice.last_wait or choice.mode == "none":
            return
        home = row.thread_id or row.channel_id
        mine = await self.store.user_settings(user_id)
        for post in outbox.posts:  # the notice is their ping for this board: one, not two
            if user_id in post.mentions:
                post.mentions.remove(user_id)
        outbox.notices.append(Notice(
            user_id, home, [T("pings.last_one", player=f"<@{user_id}>", id=row.id, game=T(f"game.{row.game}.title"),
                              link=self._board_link(row), left=discord_time(row.deadline_at))],
            [(row.id, turn_of(row))], lang=row.locale, dm=choice.dm and mine["dm_open"] is not False,
            dm_lang=mine["locale"] or row.locale, channel=choice.channel or mine["dm_open"] is False))

    # ---- reminders ---------------------------------------------------------------------------------
    async def _choose_reminders(self, reminders) -> list:
        """Reminders as each player chose: none for games they take by digest or not at all; by
        DM, in the channel, or both."""
        kept = []
        for r in reminders:
            games = []
            for i, game_id in enumerate(r.game_ids):
                choice = (await self._ping_choices(game_id, [r.user_id]))[r.user_id]
                if choice.mode in PINGED_MODES:
                    games.append((i, choice))
            if not games:
                continue
            r.game_ids = [r.game_ids[i] for i, _ in games]
            r.deadlines = [r.deadlines[i] for i, _ in games]
            r.lines = [r.lines[i] for i, _ in games]
            r.turns = [r.turns[i] for i, _ in games]
            r.dm = any(c.dm for _, c in games)
            r.channel = any(c.channel for _, c in games)
            kept.append(r)
        return kept

    # ---- the daily digest --------------------------------------------------------------------------
    async def due_digests(self) -> list[Notice]:
        """One message a day, at DIGEST_HOUR in each player's time zone (not in their quiet
        hours), listing their games that wait for them and that they take by digest. Claimed per
        person and local day before composing, so it is sent once."""
        notices: list[Notice] = []
        people = await self.store.digest_user_ids()
        if not people:
            return []
        settings = await self.store.users_settings(people)
        now = self._now()
        for user_id in people:
            mine = settings[user_id]
            local = local_wall(now, mine["time_zone"])
            if local.hour < DIGEST_HOUR or self._quiet_until(mine, now):
                continue
            if not await self.store.claim_digest(user_id, local.date().isoformat()):
                continue
            notices += await self._digest_notice(user_id, mine)
        return notices

    async def _digest_notice(self, user_id: int, mine: dict) -> list[Notice]:
        lines, turns, first, via = [], [], None, None
        for row, game in await self._rows(await self.store.game_ids_of_user(user_id, ("active",))):
            async with self._isolated(row.id):  # a game that cannot be worded is set aside, not the digest
                part = await self._digest_part(row, game, user_id, mine)
                if part is not None:
                    first, via = first or row, via or part[0]
                    lines.append(part[1])
                    turns.append((row.id, part[2]))
        if not lines:
            return []
        header = T("pings.digest_header", player=f"<@{user_id}>", count=len(lines))
        dm = via.dm and mine["dm_open"] is not False
        return [Notice(user_id, first.thread_id or first.channel_id, [header] + lines, turns, lang=first.locale,
                       dm=dm, dm_lang=mine["locale"] or first.locale, channel=not dm, hold_as=None)]

    async def _digest_part(self, row: GameRow, game, user_id: int, mine: dict):
        """One game's part of a digest: (the ping choice, its line, its turn), or None when the
        person is not waited for there, or takes that game's pings otherwise."""
        seat = row.seat_of(user_id)
        if seat not in self._waiting(row, game) or self._automatic(row, seat):
            return None
        choice = (await self._ping_choices(row.id, [user_id], {user_id: mine}))[user_id]
        if choice.mode != "digest":
            return None
        line = T("held.turn", id=row.id, game=T(f"game.{row.game}.title"), link=self._board_link(row),
                 left=discord_time(row.deadline_at))
        return choice, line, turn_of(row)

    # ---- cleaning up notices of turns gone by ------------------------------------------------------
    async def notice_posted(self, channel_id: int, message_id: int, game_turns: list[tuple[int, int]]) -> None:
        """Delivery posted a notice about these games' turns: it is deleted once they all moved on."""
        await self.store.notice_posted(channel_id, message_id, game_turns)

    async def _retire_notices(self, outbox: Outbox, row: GameRow) -> None:
        """The game's turn passed (or it ended): its older notices go."""
        over = row.status not in ("active", "lobby")
        outbox.retire_notices += await self.store.retire_notices(row.id, None if over else turn_of(row))
