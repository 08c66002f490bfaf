"""Deadlines, reminders and lost boards, checked on a timer against what is stored.

Each tick handles every game whose deadline has passed exactly once, whatever the downtime was
(the timeout sets a fresh deadline from *now*), sends half-deadline reminders combined per player and spectators' turn notices,
and posts again any board that was saved but never reached its channel. After a long outage the
first tick catches up with one post per overdue game and no stale reminders. It also keeps the threads of open games from archiving while they wait
(Discord archives after 7 idle days; a game may wait for weeks). One game's failure never stops
the others: a game that cannot be read or composed is set aside by the service (logged once), and
a failure to hand one game's part on is logged and skipped.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Awaitable, Callable

from .service import FollowNotice, GameHost, Outbox, Reminder

log = logging.getLogger(__name__)

DEFAULT_INTERVAL_SECONDS = 60.0


class Scheduler:
    def __init__(self, host: GameHost, deliver: Callable[[Outbox], Awaitable[None]],
                 remind: Callable[[list[Reminder]], Awaitable[None]],
                 keep_thread_open: Callable[[int], Awaitable[bool]] | None = None,
                 recaps: Callable[[], Awaitable[None]] | None = None,
                 notify_followers: Callable[[list[FollowNotice]], Awaitable[None]] | None = None):
        self.host = host
        self.notify_followers = notify_followers
        self.recaps = recaps
        self.deliver = deliver
        self.remind = remind
        self.keep_thread_open = keep_thread_open

    async def tick(self) -> None:
        for game_id in await self.host.store.due_game_ids(self.host.now_stamp()):
            try:
                outbox = await self.host.passed_deadline(game_id)  # None: the game was left out
                if outbox is not None:
                    await self.deliver(outbox)
            except Exception:
                log.exception("timeout of game %s failed", game_id)
        try:
            reminders = await self.host.due_reminders()
            if reminders:
                await self.remind(reminders)
        except Exception:
            log.exception("reminders failed")
        if self.notify_followers is not None:
            try:
                notices = await self.host.due_follow_notices()
                if notices:
                    await self.notify_followers(notices)
            except Exception:
                log.exception("follower notices failed")
        try:
            posts = await self.host.pending_posts(settled_only=True)
            if posts:
                await self.deliver(Outbox(posts=posts))
        except Exception:
            log.exception("reposting lost boards failed")
        if self.recaps is not None:
            try:
                await self.recaps()  # starts them in the background: drawing one takes seconds
            except Exception:
                log.exception("starting recaps failed")
        if self.keep_thread_open is not None:
            try:
                threads = await self.host.threads_to_keep_open()
            except Exception:
                log.exception("keeping game threads open failed")
                threads = []
            for thread_id in threads:
                try:
                    await self.keep_thread_open(thread_id)
                except Exception:
                    log.exception("keeping thread %s open failed", thread_id)

    async def run(self, interval: float = DEFAULT_INTERVAL_SECONDS) -> None:
        while True:
            try:
                await self.tick()
            except Exception:  # the loop must survive anything one tick meets
                log.exception("scheduler tick failed")
            await asyncio.sleep(interval)
