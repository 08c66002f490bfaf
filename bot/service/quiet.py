"""Quiet hours and time zones: a person's pings, reminders and DMs wait until their quiet hours end.

Each person may set a time zone (an IANA name) and quiet hours in it (``/game settings quiet:
tz:``; see bot/common/quiet_hours.py for the arithmetic, all of it through zoneinfo). While they are
quiet, nothing pings them: a board still names them but does not mention them, their panel DM and
turn DM are not sent (the board's My panel button serves them), reminders and requests for them
are not posted. Instead one row per person, game and kind is *held* (``held_notices``); when the
quiet hours end, one process takes the person's rows and sends one combined message saying only
what is still true then (a turn already played is not mentioned). Spectators' turn notices wait
too (they are simply not claimed until then).

A game may also keep its deadlines from running out while a player it waits on is quiet
(``quiet_deadlines``, on by default for deadlines of a day or more): such a seat is left out of
the timeout like a seat on vacation, and when everyone the game waits on is resting, the deadline
moves to the end of the quiet hours plus :data:`WAKE_GRACE`.
"""

from __future__ import annotations

from typing import ClassVar

from datetime import datetime, timedelta

from ..i18n import T, Text
from ..common.quiet_hours import QuietHours, known_zone, local_wall, quiet_until
from ..storage.rows import GameRow
from .core import is_ai
from .outbox import Notice, Outbox, ServiceError
from .settings import MAX_SHORT_INPUT, discord_time, normalized, stamp

WAKE_GRACE = timedelta(hours=1)  # a deadline held through quiet hours runs out this long after them
HELD_KINDS = ("turn", "reminder", "request", "invite")
OFF_WORDS = ("off", "none", "no", "なし", "オフ")
MAX_ZONE_INPUT = 40  # the longest IANA names are about 30 characters


def quiet_window(settings: dict) -> QuietHours | None:
    """A person's stored quiet hours (None: none, or a stored value that no longer reads)."""
    try:
        return QuietHours.parse(settings["quiet_hours"]) if settings.get("quiet_hours") else None
    except ValueError:
        return None


class Quiet:
    uses: ClassVar[tuple[str, ...]] = ("Pings", "Presenter")

    # ---- settings ----------------------------------------------------------------------------------
    async def set_quiet(self, user_id: int, quiet: str | None, time_zone: str | None) -> Outbox:
        """``/game settings quiet: tz:``: a window ("23:00-08:00", or "off") and an IANA zone. Both
        are checked before anything is stored; held notices follow the new hours at once."""
        mine = await self.store.user_settings(user_id)
        zone_name, window = mine["time_zone"], mine["quiet_hours"]
        lines: list[Text] = []
        if time_zone is not None:
            typed = normalized(time_zone, MAX_ZONE_INPUT, "tz_long")
            zone_name = known_zone(typed)
            if zone_name is None:
                raise ServiceError("tz_unknown", value=typed[:MAX_ZONE_INPUT])
        if quiet is not None:
            typed = normalized(quiet, MAX_SHORT_INPUT, "quiet_syntax").lower()
            if typed in OFF_WORDS:
                window = None
            else:
                try:
                    window = QuietHours.parse(typed).text
                except ValueError:
                    raise ServiceError("quiet_syntax") from None
        await self.store.set_user_time(user_id, zone_name, window)
        now = self._now()
        local = local_wall(now, zone_name)
        if time_zone is not None:
            lines.append(T("quiet.tz_set", zone=zone_name, time=f"{local:%H:%M}"))
        if quiet is not None:
            lines.append(T("quiet.set", window=window, zone=zone_name or "UTC") if window else T("quiet.cleared"))
            if window and zone_name is None:
                lines.append(T("quiet.no_zone"))
        until = quiet_until(now, quiet_window({"quiet_hours": window}), zone_name)
        await self.store.move_held(user_id, stamp(until or now))
        return Outbox(reply=lines)

    def _settings_quiet_lines(self, mine: dict) -> list[Text]:
        """``/game settings`` without options: the person's zone and quiet hours."""
        zone_name, window = mine.get("time_zone"), quiet_window(mine)
        local = local_wall(self._now(), zone_name)
        lines = [T("quiet.summary_zone", zone=zone_name or "UTC", time=f"{local:%H:%M}")]
        if window is None:
            return lines + [T("quiet.summary_none")]
        until = quiet_until(self._now(), window, zone_name)
        return lines + [T("quiet.summary_now" if until else "quiet.summary", window=window.text)]

    # ---- who is quiet ------------------------------------------------------------------------------
    def _quiet_until(self, settings: dict, now: datetime | None = None) -> datetime | None:
        return quiet_until(now or self._now(), quiet_window(settings), settings.get("time_zone"))

    async def _quiet_people(self, user_ids) -> dict[int, datetime]:
        """The people among these who are in their quiet hours now, with when those end."""
        people = sorted({u for u in user_ids if u is not None and not is_ai(u)})
        if not people:
            return {}
        now = self._now()
        return {u: until for u, s in (await self.store.users_settings(people)).items()
                if (until := self._quiet_until(s, now))}

    async def _quiet_lines(self, row: GameRow, seats) -> list[Text]:
        """"Waiting for B, quiet until 08:00 their time" for the waited-on seats that are quiet."""
        people = {row.user_of(s): s for s in seats if not self._automatic(row, s)}
        quiet = await self._quiet_people(people)
        if not quiet:
            return []
        settings = await self.store.users_settings(list(quiet))
        lines = []
        for user_id, until in quiet.items():
            zone_name = settings[user_id]["time_zone"]
            lines.append(T("quiet.waiting", player=self._name(row, people[user_id]),
                           time=f"{local_wall(until, zone_name):%H:%M}", zone=zone_name or "UTC",
                           at=discord_time(stamp(until), "t")))
        return lines

    async def _resting_until(self, row: GameRow, seats) -> dict[int, str]:
        """Seats whose player is quiet now, in a game whose deadlines wait for quiet hours: seat ->
        when the deadline may run out for them (the end of their quiet hours plus a grace)."""
        if not row.settings.get("quiet_deadlines"):
            return {}
        people = {row.user_of(s): s for s in seats}
        return {people[u]: stamp(until + WAKE_GRACE) for u, until in (await self._quiet_people(people)).items()}

    # ---- holding and releasing ---------------------------------------------------------------------
    async def _hold_for_quiet(self, outbox: Outbox, settings: dict[int, dict]) -> None:
        """Take the pings, panel DMs and notices of quiet people out of an outbox and hold them."""
        now = self._now()
        quiet = {u: until for u, s in settings.items() if (until := self._quiet_until(s, now))}
        if not quiet:
            return
        holds: dict[tuple[int, int, str], datetime] = {}
        for post in outbox.posts:
            for user_id in [u for u in post.mentions if u in quiet]:
                post.mentions.remove(user_id)
                holds[(user_id, post.game_id, post.hold_as)] = quiet[user_id]
        for private in [p for p in outbox.privates if p.user_id in quiet]:
            outbox.privates.remove(private)  # the board's My panel button shows it when they want it
            holds[(private.user_id, private.game_id, "turn")] = quiet[private.user_id]
        for notice in [n for n in outbox.notices if n.user_id in quiet]:
            outbox.notices.remove(notice)
            if notice.hold_as is not None:
                for game_id, _ in notice.game_turns:
                    holds[(notice.user_id, game_id, notice.hold_as)] = quiet[notice.user_id]
        await self._hold(holds)

    async def _hold(self, holds: dict[tuple[int, int, str], datetime]) -> None:
        now = self.now_stamp()
        await self.store.hold_notices([(u, g, kind, now, stamp(until)) for (u, g, kind), until in sorted(holds.items())])

    async def due_held_notices(self) -> list[Notice]:
        """For each person whose quiet hours ended: one message with what was held and is still
        true (per place, or one DM). Rows are taken before composing, so it is sent once."""
        now = self.now_stamp()
        notices: list[Notice] = []
        for user_id in await self.store.held_due_users(now):
            taken = await self.store.take_held(user_id, now)
            if taken:
                notices += await self._released(user_id, taken)
        return notices

    async def _released(self, user_id: int, taken: list[tuple[int, str]]) -> list[Notice]:
        kinds: dict[int, set[str]] = {}
        for game_id, kind in taken:
            kinds.setdefault(game_id, set()).add(kind)
        places: dict[int, Notice] = {}
        found: list[tuple[GameRow, Text, int]] = []
        for row, game in await self._rows(sorted(kinds)):
            async with self._isolated(row.id):  # a game that cannot be worded is set aside, not the others' lines
                line = await self._still_true(row, game, user_id, kinds[row.id])
                found += [(row, line, self._turn_now(row))] if line is not None else []
        for row, line, turn in found:
            home = row.thread_id or row.channel_id
            notice = places.setdefault(home, Notice(user_id, home, [], [], lang=row.locale, hold_as=None))
            notice.lines.append(line)
            notice.game_turns.append((row.id, turn))
        if not places:
            return []
        mine = await self.store.user_settings(user_id)
        notices = await self._route_released(user_id, list(places.values()), mine)
        for n in notices:
            n.lines.insert(0, T("held.header", player=f"<@{user_id}>", count=len(n.game_turns)))
        return notices

    async def _route_released(self, user_id: int, places: list[Notice], mine: dict) -> list[Notice]:
        """By DM (one message for every place) when the person takes their pings by DM (their
        default ``via``, bot/service/pings.py), else one message per place."""
        choice = (await self._ping_choices(0, [user_id], {user_id: mine}))[user_id]
        dm = choice.dm and mine["dm_open"] is not False
        if not dm:
            return places
        first = places[0]
        for other in places[1:]:
            first.lines += other.lines
            first.game_turns += other.game_turns
        first.dm, first.channel, first.dm_lang = True, False, mine["locale"] or first.lang
        return [first]

    @staticmethod
    def _turn_now(row: GameRow) -> int:
        return int(row.settings.get("turn_from", 0))

    async def _still_true(self, row: GameRow, game, user_id: int, kinds: set[str]) -> Text | None:
        """The released line for one game, or None when nothing held for it is true any more."""
        title, link = T(f"game.{row.game}.title"), self._board_link(row)
        seat = row.seat_of(user_id)
        if kinds & {"turn", "reminder"} and seat is not None and seat in self._waiting(row, game) \
                and not self._automatic(row, seat):
            return T("held.turn", id=row.id, game=title, link=link, left=discord_time(row.deadline_at))
        if "request" in kinds and row.status == "active" and await self._asks_answer(row, user_id):
            return T("held.request", id=row.id, game=title, link=link)
        if "invite" in kinds and row.status == "lobby" and seat is None:
            return T("held.invite", id=row.id, game=title, link=link)
        return None

    async def _asks_answer(self, row: GameRow, user_id: int) -> bool:
        """Whether an open request in this game still waits for this person's answer."""
        seat = row.seat_of(user_id)
        request = await self.store.undo_request(row.id, row.version)
        return (request is not None and request.status == "open" and seat in request.needed
                and seat not in request.answers)

    @staticmethod
    def _board_link(row: GameRow) -> str:
        home = row.thread_id or row.channel_id
        if row.board_message_id:
            return f"https://discord.com/channels/{row.guild_id or '@me'}/{home}/{row.board_message_id}"
        return f"<#{home}>"
