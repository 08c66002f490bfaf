"""Undo by consent: the player who just acted asks to take it back; every other person agrees.

The undo is written as a new log entry ``undo N`` (see bot/storage/undo_log.py for how a log with undos
is read back). Versions only move forward: the undo is a new version, and every button drawn
before it is stale.

An undo is allowed only while it cannot help anyone: ``Game.undoable(before, after, events)``
must hold for the action and for every AI reply after it (no card drawn, no die rolled, nothing
hidden revealed). The request lives in ``undo_requests`` for the position (game version) it was
asked at, so any later action lets it lapse; each seat's answer is one ``undo_answers`` row.
"""

from __future__ import annotations

from typing import ClassVar

import logging
from dataclasses import dataclass

from games import Game

from ..workers import pool as workers
from ..i18n import T
from ..storage.rows import Draft, GameRow, UndoRequest
from ..storage.undo_log import END_ACTIONS, check_undo
from .access import Ask, Where
from .asking import AskingWords
from .core import is_ai, mark_turn, on_latest
from .outbox import Outbox, ServiceError

log = logging.getLogger("bot.service")
UNDO_WORDS = AskingWords(expired="undo_expired", own="undo_own_request", not_asked="undo_not_asked",
                         answered="undo_already_answered", closed="undo_closed", prefix="undo")


@dataclass
class UndoPlan:
    n: int  # the first log entry taken back
    seat: int
    action: str  # what is taken back (the asker's action)
    state: dict  # the position before it


class Undo:
    uses: ClassVar[tuple[str, ...]] = ("Asking", "Presenter")

    @on_latest
    async def ask_undo(self, game_id: int, user_id: int, seen_version: int | None = None, *,
                       where: Where | None = None) -> Outbox:
        """Ask to take back one's last action (with the AI replies after it). With nobody to ask
        (only AI seats besides), it is taken back at once."""
        async with self._lock(game_id):
            row, game = await self._load_active(game_id, Ask("undo", user_id, where))
            seat = self._seat(row, user_id)
            if seen_version is not None and seen_version != row.version:
                raise ServiceError("stale")
            plan = await self._undo_plan(row, game, user_id)
            needed = [s.seat for s in row.seats if s.seat != seat and not self._automatic(row, s.seat)]
            request = UndoRequest(row.id, row.version, plan.n, seat, user_id, needed, "open", self.now_stamp())
            if not needed:
                return await self._carry_out(row, game, request, plan)
            if not await self.store.open_undo(request):
                existing = await self.store.undo_request(game_id, row.version)
                raise ServiceError("undo_pending" if existing and existing.status == "open" else "undo_declined_here")
            post = self._post(row, [T("undo.asked", player=self._name(row, seat), action=self._shown(game, plan.action),
                                      n=plan.n),
                                    T("undo.ask_others", players=self._names(row, needed))])
            post.mentions = [row.user_of(s) for s in needed]
            post.undo_version, post.hold_as = row.version, "request"
            return await self._address(Outbox(reply=[T("undo.you_asked", id=game_id)], posts=[post]))

    @on_latest
    async def answer_undo(self, game_id: int, user_id: int, version: int, agree: bool, *,
                          where: Where | None = None) -> Outbox:
        """One seat's answer to the request asked at ``version``; the last consent carries it out."""
        async with self._lock(game_id):
            row, game = await self._load_game(game_id, Ask("undo", user_id, where))
            request = await self.store.undo_request(game_id, version)
            if request is None:
                raise ServiceError("undo_expired")
            live = request.status == "open" and row.status == "active" and row.version == version
            return await self._answer_asked(
                row, request, user_id, agree, live, UNDO_WORDS,
                store_answer=lambda seat: self.store.answer_undo(game_id, version, seat, agree, self.now_stamp()),
                reread=lambda: self.store.undo_request(game_id, version),
                carry_out=lambda request: self._consented(row, game, request))

    async def undo_posted(self, game_id: int, version: int, message_id: int) -> None:
        """Delivery posted the request asked at ``version``: remember its message, so its buttons
        can be removed when the request ends (even after a restart)."""
        await self.store.set_undo_message(game_id, version, message_id)

    async def undo_post_retired(self, game_id: int, version: int) -> None:
        await self.store.undo_post_retired(game_id, version)

    async def _consented(self, row: GameRow, game: Game, request: UndoRequest) -> Outbox:
        plan = await self._undo_plan(row, game, request.user_id)
        if plan.n != request.n:
            raise ServiceError("undo_expired")
        return await self._carry_out(row, game, request, plan)

    async def _undo_plan(self, row: GameRow, game: Game, user_id: int) -> UndoPlan:
        """What taking back ``user_id``'s last action means, or the reason it cannot be done.

        The action must be the last one standing, apart from AI seats' replies after it; it and
        every reply must leave nothing learned and nothing drawn (``Game.undoable``)."""
        entries = await self._standing(row.id)
        k = len(entries) - 1
        while k >= 0 and entries[k].user_id is None and is_ai(row.user_of(entries[k].seat)):
            k -= 1  # AI replies go back with the action they answered
        if k < 0 or entries[k].user_id is None or entries[k].action in END_ACTIONS:
            raise ServiceError("undo_nothing")
        if entries[k].user_id != user_id:
            raise ServiceError("undo_not_yours")
        moves = [(e.n, e.seat, e.action) for e in entries]
        async with self._stored(row.id):  # the log replayed to the stored state: damaged, the game is set aside
            judged = await workers.run(self.executor, check_undo, game.name, len(row.seats), row.options, row.seed,
                                       moves, k, row.state)
        if not judged["replays"]:
            log.warning("game %s: its log does not replay to its state; undo refused", row.id)
            raise ServiceError("undo_unavailable")
        if not judged["undoable"]:
            raise ServiceError("undo_final")
        return UndoPlan(entries[k].n, entries[k].seat, entries[k].action, judged["before"])

    async def _carry_out(self, row: GameRow, game: Game, request: UndoRequest, plan: UndoPlan) -> Outbox:
        """Write the undo as a new log entry and version, in one transaction with the request's end."""
        draft = Draft.of(row)
        now = self.now_stamp()
        draft.log(request.seat, request.user_id, f"undo {plan.n}", now)
        new = draft.row
        new.state = plan.state
        new.deadline_at, new.turn_started_at, new.reminded = self._deadline(new), now, False
        new.step_version = new.version  # every button drawn before the undo is stale now
        if self._waiting(new, game):
            mark_turn(new, now)  # the restored position is a new turn: followers hear of it
        draft.undo_done = request.version
        lines = [T("undo.done", player=self._name(row, plan.seat), action=self._shown(game, plan.action), n=plan.n)]
        async with self._stored(row.id):  # AI seats play on from the position rebuilt from the log
            lines += await self._run_ai(draft, game)
        saved = await self._save(draft)
        outbox = Outbox(reply=[T("undo.taken_back", id=row.id, n=plan.n)])
        async with self._once_saved(outbox, saved):
            await self._announce(outbox, saved, game, lines)
            await self._address(outbox)
        return outbox
