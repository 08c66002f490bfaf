"""Boards on their way to Discord after their actor was answered: the next operation on that game
waits until they land.

A typed command's answer may go before its board (so the board can be the interaction's follow-up,
which costs nothing of the bot's global rate limit: see ``Delivery.send``). The person may then act
again before the board's message id is stored, and the next operation would work on the board
before it: edit a lobby into a board, or leave the new board's buttons live. So such a board is
noted as leaving before the answer goes, and the next operation on its game waits, under the game's
lock, until it has landed: posted and recorded (``mark_posted``), or owed after a failure (the
scheduler then draws it afresh). ``LANDING_SECONDS`` is a safety net; a post takes 0.1-1 s.

Only boards answered ahead of are noted: everywhere else the answer comes after the board, and a
wait under the lock would only hold a game's next action behind its rate-limited edits.
In-process: a game's operations and deliveries happen in the process serving its server.
"""

from __future__ import annotations

import asyncio
import logging

log = logging.getLogger("bot.service")
LANDING_SECONDS = 8.0


class Landings:
    def __init__(self, limit: float = LANDING_SECONDS):
        self.limit = limit
        self._leaving: dict[int, tuple[int, asyncio.Event]] = {}  # game id -> (version, landed)
        self.waits = self.overdue = 0  # operations that waited, and of those, that gave up waiting

    def leaving(self, game_id: int, version: int) -> None:
        """The board of version ``version`` of the game is on its way."""
        before = self._leaving.get(game_id)
        if before is not None:
            if before[0] >= version:
                return
            before[1].set()
        self._leaving[game_id] = (version, asyncio.Event())

    def landed(self, game_id: int, version: int) -> None:
        """The board of ``version`` (or a later one) was posted, or is owed."""
        waiting = self._leaving.get(game_id)
        if waiting is not None and waiting[0] <= version:
            del self._leaving[game_id]
            waiting[1].set()

    def in_flight(self, game_id: int) -> bool:
        return game_id in self._leaving

    async def wait(self, game_id: int) -> None:
        """Until the game's board on its way has landed, or ``limit`` seconds."""
        waiting = self._leaving.get(game_id)
        if waiting is None:
            return
        self.waits += 1
        import time as _t; _s = _t.monotonic()
        try:
            await asyncio.wait_for(waiting[1].wait(), self.limit)
            log.warning("DEBUGWAIT game %s waited %.2f s for v%s", game_id, _t.monotonic() - _s, waiting[0])
        except TimeoutError:
            self.overdue += 1
            log.warning("game %s: the board of version %s did not land within %.0f s; going on",
                        game_id, waiting[0], self.limit)
            self.landed(game_id, waiting[0])
