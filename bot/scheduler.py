"""Deadlines, reminders and lost boards, checked on a timer against what is stored.

Each tick handles every game whose deadline has passed exactly once, whatever the downtime was
(the timeout sets a fresh deadline from *now*), sends half-deadline reminders combined per player and spectators' turn notices, releases what
was held through people's quiet hours,
and posts again any board that was saved but never reached its channel. After a long outage the
first tick catches up with one post per overdue game and no stale reminders. It also keeps the threads of open games from archiving while they wait
(Discord archives after 7 idle days; a game may wait for weeks). One game's failure
is logged and skipped; it never stops the others.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Awaitable, Callable

from .service import FollowNotice, GameHost, Notice, Outbox, Reminder, ServiceError

log = logging.getLogger(__name__)

DEFAULT_INTERVAL_SECONDS = 60.0


class Scheduler:
    def __init__(self, host: GameHost, deliver: Callable[[Outbox], Awaitable[None]],
                 remind: Callable[[list[Reminder]], Awaitable[None]],
                 keep_thread_open: Callable[[int], Awaitable[bool]] | None = None,
                 recaps: Callable[[], Awaitable[None]] | None = None,
                 notify_followers: Callable[[list[FollowNotice]], Awaitable[None]] | None = None,
                 notices: Callable[[list[Notice]], Awaitable[None]] | None = None):
        self.host = host
        self.notices = notices
        self.notify_followers = notify_followers
        self.recaps = recaps
        self.deliver = deliver
        self.remind = remind
        self.keep_thread_open = keep_thread_open

    async def tick(self) -> None:
        for game_id in await self.host.store.due_game_ids(self.host.now_stamp()):
            try:
                await self.deliver(await self.host.timeout(game_id))
            except ServiceError as e:  # e.g. a game set aside: it was reported when it was
                log.info("timeout of game %s refused: %s", game_id, e.key)
            except Exception:
                log.exception("timeout of game %s failed", game_id)
        try:
            for outbox in await self.host.expire_proposals():  # votes and offers left unanswered
                await self.deliver(outbox)
        except Exception:
            log.exception("expiring proposals failed")
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
        if self.notices is not None:
            try:
                held = await self.host.due_held_notices()  # quiet hours that ended: one message each
                held += await self.host.due_digests()  # daily digests, at each player's morning
                if held:
                    await self.notices(held)
            except Exception:
                log.exception("releasing held notices failed")
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
                for thread_id in await self.host.threads_to_keep_open():
                    await self.keep_thread_open(thread_id)
            except Exception:
                log.exception("keeping game threads open failed")

    async def run(self, interval: float = DEFAULT_INTERVAL_SECONDS) -> None:
        while True:
            try:
                await self.tick()
            except Exception:  # the loop must survive anything one tick meets
                log.exception("scheduler tick failed")
            await asyncio.sleep(interval)
