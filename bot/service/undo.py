"""Undo by consent: the player who just acted asks to take it back; every other person agrees.

How an undo is written down (so that replays and exports of the log reproduce every state):
nothing is ever deleted. An undo is one more log entry, ``undo N``, by the seat that asked: "the
game returns to the position before log entry N". Reading a log therefore means taking the
entries in order and letting each ``undo N`` drop every still-standing entry numbered N or more
(:func:`standing`); the state is ``setup(players, options, seed)`` followed by the standing
entries (:func:`rebuild`). Versions only move forward: the undo is a new version, and every
button drawn before it is stale.

An undo is allowed only while it cannot help anyone: ``Game.undoable(before, after, events)``
must hold for the action and for every AI reply after it (no card drawn, no die rolled, nothing
hidden revealed). The request lives in ``undo_requests`` for the position (game version) it was
asked at, so any later action lets it lapse; each seat's answer is one ``undo_answers`` row.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass

from games import Game, GameError

from ..i18n import T
from ..store import ActionRow, Draft, GameRow, UndoRequest
from .core import is_ai
from .outbox import Outbox, ServiceError

log = logging.getLogger("bot.service")

_UNDO = re.compile(r"^undo (\d+)$")
END_ACTIONS = ("resign", "timeout-forfeit")  # log entries that are a concession, not an engine action


def undo_target(action: str) -> int | None:
    """The log number an ``undo N`` entry takes the game back before; None for other entries."""
    m = _UNDO.match(action)
    return int(m[1]) if m else None


def standing(entries: list[ActionRow]) -> list[ActionRow]:
    """The entries still in force once every ``undo N`` has taken its entries back.

    >>> rows = [ActionRow(i, 0, 1, a, i, "") for i, a in enumerate(["b2-b3", "undo 1", "c2-c3"], 1)]
    >>> [r.action for r in standing(rows)]
    ['c2-c3']
    """
    out: list[ActionRow] = []
    for entry in entries:
        n = undo_target(entry.action)
        out = out + [entry] if n is None else [e for e in out if e.n < n]
    return out


@dataclass
class Step:
    before: dict
    entry: ActionRow
    after: dict
    events: list


def rebuild(game: Game, players: int, options: dict, seed: int, entries: list[ActionRow]) -> tuple[dict, list[Step]]:
    """Replay standing entries from the seed: the start state and every step taken from it."""
    state = start = game.setup(players, options, seed)
    steps = []
    for entry in entries:
        if entry.action in END_ACTIONS:
            after, events = game.resign(state, entry.seat)
        else:
            after, events = game.apply(state, entry.seat, entry.action)
        steps.append(Step(state, entry, after, events))
        state = after
    return start, steps


@dataclass
class UndoPlan:
    n: int  # the first log entry taken back
    seat: int
    action: str  # what is taken back (the asker's action)
    state: dict  # the position before it


def _same(a: dict, b: dict) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


class Undo:
    async def ask_undo(self, game_id: int, user_id: int, seen_version: int | None = None) -> Outbox:
        """Ask to take back one's last action (with the AI replies after it). With nobody to ask
        (only AI seats besides), it is taken back at once."""
        async with self._lock(game_id):
            row, game = await self._load_active(game_id)
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
            post.undo_version = row.version
            return await self._address(Outbox(reply=[T("undo.you_asked", id=game_id)], posts=[post]))

    async def answer_undo(self, game_id: int, user_id: int, version: int, agree: bool) -> Outbox:
        """One seat's answer to the request asked at ``version``; the last consent carries it out."""
        async with self._lock(game_id):
            row, game = await self._load_game(game_id)
            request = await self.store.undo_request(game_id, version)
            if request is None:
                raise ServiceError("undo_expired")
            seat = row.seat_of(user_id)
            if seat is None:
                raise ServiceError("not_in_game", id=game_id)
            if seat == request.seat:
                raise ServiceError("undo_own_request")
            if seat not in request.needed:
                raise ServiceError("undo_not_asked")
            live = request.status == "open" and row.status == "active" and row.version == version
            if seat in request.answers:
                if live and all(request.answers.get(s) for s in request.needed):
                    return await self._consented(row, game, request)  # finish one interrupted by a crash
                raise ServiceError("undo_already_answered")
            if request.status == "declined":
                raise ServiceError("undo_closed")
            if not live:
                raise ServiceError("undo_expired")
            if not await self.store.answer_undo(game_id, version, seat, agree, self.now_stamp()):
                raise ServiceError("undo_already_answered")
            if not agree:
                post = self._post(row, [T("undo.declined", player=self._name(row, seat),
                                          asker=self._name(row, request.seat))])
                return await self._address(Outbox(reply=[T("undo.you_declined", id=game_id)], posts=[post]))
            # Read the answers again after ours is stored: of two last answers given at once (two
            # processes), at least one sees both, and the version compare-and-swap lets one apply.
            request = await self.store.undo_request(game_id, version)
            if all(request.answers.get(s) for s in request.needed):
                return await self._consented(row, game, request)
            waiting = [s for s in request.needed if s not in request.answers]
            post = self._post(row, [T("undo.agreed", player=self._name(row, seat),
                                      waiting=self._names(row, waiting))])
            return await self._address(Outbox(reply=[T("undo.you_agreed", id=game_id)], posts=[post]))

    async def _consented(self, row: GameRow, game: Game, request: UndoRequest) -> Outbox:
        plan = await self._undo_plan(row, game, request.user_id)
        if plan.n != request.n:
            raise ServiceError("undo_expired")
        return await self._carry_out(row, game, request, plan)

    async def _undo_plan(self, row: GameRow, game: Game, user_id: int) -> UndoPlan:
        """What taking back ``user_id``'s last action means, or the reason it cannot be done.

        The action must be the last one standing, apart from AI seats' replies after it; it and
        every reply must leave nothing learned and nothing drawn (``Game.undoable``)."""
        entries = standing(await self.store.actions(row.id))
        k = len(entries) - 1
        while k >= 0 and entries[k].user_id is None and is_ai(row.user_of(entries[k].seat)):
            k -= 1  # AI replies go back with the action they answered
        if k < 0 or entries[k].user_id is None or entries[k].action in END_ACTIONS:
            raise ServiceError("undo_nothing")
        if entries[k].user_id != user_id:
            raise ServiceError("undo_not_yours")
        async with self._engine(row.id):
            try:
                start, steps = rebuild(game, len(row.seats), row.options, row.seed, entries)
            except GameError:
                steps = None
            if steps is None or not _same(steps[-1].after if steps else start, row.state):
                log.warning("game %s: its log does not replay to its state; undo refused", row.id)
                raise ServiceError("undo_unavailable")
            if not all(game.undoable(s.before, s.after, s.events) for s in steps[k:]):
                raise ServiceError("undo_final")
        return UndoPlan(entries[k].n, entries[k].seat, entries[k].action, steps[k].before)

    async def _carry_out(self, row: GameRow, game: Game, request: UndoRequest, plan: UndoPlan) -> Outbox:
        """Write the undo as a new log entry and version, in one transaction with the request's end."""
        draft = Draft.of(row)
        now = self.now_stamp()
        draft.log(request.seat, request.user_id, f"undo {plan.n}", now)
        new = draft.row
        new.state = plan.state
        new.deadline_at, new.turn_started_at, new.reminded = self._deadline(new), now, False
        new.step_version = new.version  # every button drawn before the undo is stale now
        draft.undo_done = request.version
        lines = [T("undo.done", player=self._name(row, plan.seat), action=self._shown(game, plan.action), n=plan.n)]
        async with self._engine(row.id):
            lines += await self._run_ai(draft, game)
        saved = await self._save(draft)
        outbox = Outbox(reply=[T("undo.taken_back", id=row.id, n=plan.n)])
        async with self._engine(row.id):
            await self._announce(outbox, saved, game, lines)
        return await self._address(outbox)
