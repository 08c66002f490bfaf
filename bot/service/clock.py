"""Play over days: deadlines that pass, half-way reminders, vacations."""

from __future__ import annotations

from typing import ClassVar

from datetime import timedelta

from games import Game

from ..i18n import T, Text
from ..storage.rows import Draft, GameRow
from .core import on_latest, turn_of
from .outbox import Outbox, Reminder, ServiceError
from .settings import DEFAULT_VACATION_DAYS, discord_time, stamp

ABSENCES_BEFORE_STAND_IN = 3


class Clock:
    uses: ClassVar[tuple[str, ...]] = ("Pings", "Presenter", "Quiet")

    async def passed_deadline(self, game_id: int) -> Outbox | None:
        """The scheduler's pass over passed deadlines, for one game: its timeout, or None when the
        game was left out. A timeout that cannot be played would fail again every tick, and nobody
        waits on its answer: the game is set aside instead (see ``_isolated``)."""
        async with self._isolated(game_id):
            return await self.timeout(game_id)
        return None

    @on_latest
    async def timeout(self, game_id: int) -> Outbox:
        """A deadline passed: apply the game's timeout policy to every seat it still waits on.

        The absences it counts and the moves made for the absent are saved in one transaction,
        so a crash in between leaves the deadline to fire again, counted once. The engine's and
        drawing's failures are not refused here but reach the pass that runs it (``passed_deadline``)."""
        async with self._lock(game_id):
            row, game = await self._load_active(game_id)
            now = self.now_stamp()
            if row.deadline_at is None or row.deadline_at > now:
                return Outbox()  # someone acted meanwhile
            draft = Draft.of(row)
            row = draft.row
            waiting = [s for s in self._waiting(row, game) if not self._automatic(row, s)]
            away = {s: row.seat_row(s).vacation_until for s in waiting if self._on_vacation(row.seat_row(s))}
            resting = await self._resting_until(row, [s for s in waiting if s not in away])  # in quiet hours
            if (away or resting) and len(away) + len(resting) == len(waiting):  # nobody to time out: wait
                back = min(list(away.values()) + list(resting.values()))
                deadline = max(back, self._deadline(row) or back) if away else back
                row.deadline_at, row.turn_started_at, row.reminded = deadline, now, False
                await self._save(draft)
                return Outbox()
            away = list(away) + list(resting)
            lines: list[Text] = []
            timed_out = [s for s in waiting if s not in away]
            if timed_out and self._grace_due(row):
                return await self._grace(draft, timed_out)
            for seat in timed_out:
                absences = row.seat_row(seat).absences + 1
                replaced = absences >= ABSENCES_BEFORE_STAND_IN
                draft.update_seat(seat, absences=absences, stand_in=replaced)
                lines.append(T("timeout.passed", player=self._name(row, seat), count=absences))
                if replaced:
                    lines.append(T("timeout.replaced", player=self._name(row, seat)))
            lines += await self._apply_policy(draft, game, set(timed_out))
            row = await self._save(draft)
            outbox = Outbox()
            async with self._once_saved(outbox, row):
                await self._announce(outbox, row, game, lines)
                await self._address(outbox)
            return outbox

    @staticmethod
    def _grace_due(row) -> bool:
        """A game with a grace period whose deadline passed for the first time this turn."""
        return bool(row.settings.get("grace_hours")) and row.settings.get("graced") != row.deadline_at

    async def _grace(self, draft: Draft, late: list[int]) -> Outbox:
        """The deadline passed: a grace period first (``/game new grace:``), and one ping saying so;
        the timeout applies when the grace runs out too."""
        row = draft.row
        hours = row.settings["grace_hours"]
        row.deadline_at = row.settings["graced"] = stamp(self._now() + timedelta(hours=hours))
        row.reminded = True  # this notice is the turn's reminder
        row = await self._save(draft)
        post = self._post(row, [T("timeout.grace", players=self._names(row, late), hours=f"{hours:g}",
                                  left=discord_time(row.deadline_at))])
        post.mentions = [row.user_of(s) for s in late]
        return await self._address(Outbox(posts=[post]))

    async def _apply_policy(self, draft: Draft, game, timed_out: set[int]) -> list[Text]:
        row = draft.row
        policy = row.settings.get("timeout", "ai")
        if policy == "forfeit" and len(row.seats) == 2:
            seat = min(timed_out)
            state, events = game.resign(row.state, seat)
            self._record(draft, game, seat, None, "timeout-forfeit", state, stand_in=True)
            return [T("timeout.forfeit", player=self._name(row, seat))] + self._event_lines(row, game, events)
        lines: list[Text] = []
        for seat in sorted(timed_out):
            skip = policy == "skip" and game.skip_action(row.state, seat)
            if skip:
                events = self._play(draft, game, seat, None, skip, stand_in=True)
                lines += [T("timeout.skipped", player=self._name(row, seat))] + self._event_lines(row, game, events)
                timed_out.discard(seat)
        still = game.to_act(row.state) if row.status == "active" else set()
        return lines + await self._run_ai(draft, game, also=timed_out & still)

    async def due_reminders(self) -> list[Reminder]:
        """Half-deadline reminders, combined per player and place; each game reminded once per turn.

        Each game's reminder is composed first and claimed after, on the version it was composed
        from, in one statement: with several bot processes one claim wins; a game that cannot be
        composed is set aside unclaimed, and one that moved on meanwhile is not claimed for a turn
        it has left. After the claim, only each player's ping choices and quiet hours are read
        (a reminder held through quiet hours is stored, and sent when they end)."""
        composed = []
        for row, game in await self._rows(await self.store.reminder_due_game_ids(self.now_stamp())):
            async with self._isolated(row.id):
                composed.append((row, turn_of(row), self._reminder_lines(row, game)))
        people = sorted({user_id for _, _, lines in composed for user_id, _, _ in lines})
        settings = await self.store.users_settings(people) if people else {}
        claimed = set(await self.store.claim_reminders([(row.id, row.version) for row, _, _ in composed]))
        by_user: dict[tuple[int, int], Reminder] = {}
        for row, turn, lines in composed:
            if row.id not in claimed:
                continue
            for user_id, home, line in lines:
                reminder = by_user.setdefault((user_id, home), Reminder(user_id, [], [], channel_id=home, lang=row.locale))
                reminder.game_ids.append(row.id)
                reminder.deadlines.append(row.deadline_at)
                reminder.turns.append(turn)
                reminder.lines.append(line)
        reminders = await self._choose_reminders(list(by_user.values()))  # as each player chose
        now = self._now()
        quiet = {r.user_id: until for r in reminders if (until := self._quiet_until(settings[r.user_id], now))}
        await self._hold({(r.user_id, g, "reminder"): quiet[r.user_id] for r in reminders if r.user_id in quiet
                          for g in r.game_ids})
        reminders = [r for r in reminders if r.user_id not in quiet]  # held until their quiet hours end
        for r in reminders:
            r.lines.insert(0, T("reminder.header", player=f"<@{r.user_id}>", count=len(r.game_ids)))
            r.dm = r.dm and settings[r.user_id]["dm_open"] is not False
            r.channel = r.channel or not r.dm  # a closed DM falls back to the channel
            r.dm_lang = settings[r.user_id]["locale"] or r.lang
        return reminders

    def _reminder_lines(self, row: GameRow, game: Game) -> list[tuple[int, int, Text]]:
        """(player, place, line) for each player one game waits on who needs reminding."""
        home = row.thread_id or row.channel_id
        line = T("reminder.game", id=row.id, game=T(f"game.{row.game}.title"), channel=f"<#{home}>",
                 left=discord_time(row.deadline_at))
        out = []
        for seat in self._waiting(row, game):
            seat_row = row.seat_row(seat)
            if self._automatic(row, seat) or self._on_vacation(seat_row):
                continue
            out.append((seat_row.user_id, home, line))
        return out

    async def vacation(self, user_id: int, days: int) -> Outbox:
        """Pause this player's deadlines in all their running games, within each game's limit."""
        if days < 1:
            raise ServiceError("vacation_range", value=days)
        lines = []
        for game_id in await self.store.game_ids_of_user(user_id, ("active",)):
            async with self._isolated(game_id), self._lock(game_id):
                lines.append(await self._vacation_in(game_id, user_id, days))
        if not lines:
            raise ServiceError("no_running_games")
        return Outbox(reply=lines)

    async def _vacation_in(self, game_id: int, user_id: int, days: int) -> Text:
        row = await self._load(game_id)
        seat_row = row.seat_row(row.seat_of(user_id))
        allowed = max(0, row.settings.get("vacation_days", DEFAULT_VACATION_DAYS) - seat_row.vacation_days_used)
        granted = min(days, allowed)
        if granted <= 0:
            return T("vacation.none_left", id=game_id)
        until = stamp(self._now() + timedelta(days=granted))
        await self.store.set_vacation(game_id, seat_row.seat, until, seat_row.vacation_days_used + granted)
        return T("vacation.granted", id=game_id, count=granted, until=discord_time(until))
