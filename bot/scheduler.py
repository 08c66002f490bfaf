"""Deadlines and reminders, checked on a timer against what is stored (never in-memory timers).

Each tick handles every game whose deadline has passed exactly once, whatever the downtime was
(the timeout sets a fresh deadline from *now*), and sends half-deadline reminders combined per
player. After a long outage the first tick therefore catches up with one post per overdue game and
no stale reminders: a reminder whose deadline already passed is never sent.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Awaitable, Callable

from .service import GameHost, Outbox, Reminder, ServiceError

log = logging.getLogger(__name__)

DEFAULT_INTERVAL_SECONDS = 60.0


class Scheduler:
    def __init__(self, host: GameHost, deliver: Callable[[Outbox], Awaitable[None]],
                 remind: Callable[[list[Reminder]], Awaitable[None]]):
        self.host = host
        self.deliver = deliver
        self.remind = remind

    async def tick(self) -> None:
        for game_id in await self.host.store.due_game_ids(self.host.now_stamp()):
            try:
                outbox = await self.host.timeout(game_id)
            except ServiceError as e:  # e.g. a corrupt row: report and keep serving the others
                log.error("timeout of game %s failed: %s %s", game_id, e.key, e.params)
                continue
            await self.deliver(outbox)
        reminders = await self.host.due_reminders()
        if reminders:
            await self.remind(reminders)

    async def run(self, interval: float = DEFAULT_INTERVAL_SECONDS) -> None:
        while True:
            try:
                await self.tick()
            except Exception:  # the loop must survive anything one tick meets
                log.exception("scheduler tick failed")
            await asyncio.sleep(interval)
