"""Deadlines, reminders, lost boards and tournament rounds, checked on a timer against what is stored.

Each tick handles every game whose deadline has passed exactly once, whatever the downtime was
(the timeout sets a fresh deadline from *now*), sends half-deadline reminders combined per player and spectators' turn notices,
releases what was held through people's quiet hours, and posts again any board that was saved but
never reached its channel. A board this process
saved and failed to show (drawing or posting it failed) is posted again within seconds, between
ticks, not after the wait that lets a board still on its way arrive. Tournament rounds end here
too: results of ended games are recorded, a complete round is followed by the next (or the end),
and announcements a crash interrupted are posted. After a long outage the
first tick catches up with one post per overdue game and no stale reminders. It also keeps the threads of open games from archiving while they wait
(Discord archives after 7 idle days; a game may wait for weeks). One game's failure never stops
the others: a game that cannot be read or composed is set aside by the service (logged once), and
a failure to hand one game's part on is logged and skipped.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Awaitable, Callable

from . import FollowNotice, GameHost, Notice, Outbox, Reminder

log = logging.getLogger(__name__)

DEFAULT_INTERVAL_SECONDS = 60.0
REDELIVERY_PAUSE_SECONDS = 1.0  # after a failure to show a board, before drawing it again


class Scheduler:
    def __init__(self, host: GameHost, deliver: Callable[[Outbox], Awaitable[None]],
                 remind: Callable[[list[Reminder]], Awaitable[None]],
                 keep_thread_open: Callable[[int], Awaitable[bool]] | None = None,
                 recaps: Callable[[], Awaitable[None]] | None = None,
                 notify_followers: Callable[[list[FollowNotice]], Awaitable[None]] | None = None,
                 started_at: str | None = None, notices: Callable[[list[Notice]], Awaitable[None]] | None = None):
        self.host = host
        self.started_at = started_at  # this process's start: boards saved before it were lost to a restart
        self.notices = notices
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
        await self.redeliver()
        try:  # tournaments: results of ended games, rounds complete, announcements not yet posted
            for outbox in await self.host.tournament_tick():
                await self.deliver(outbox)
        except Exception:
            log.exception("tournament rounds failed")
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
            posts = await self.host.pending_posts(settled_only=True, process_started=self.started_at)
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

    async def redeliver(self) -> None:
        """Post the boards this process failed to show, drawn afresh from what is saved."""
        try:
            outbox = await self.host.owed_boards(process_started=self.started_at)
            if outbox.posts or outbox.privates:
                await self.deliver(outbox)
        except Exception:
            log.exception("redelivering boards failed")

    async def redeliver_when_owed(self) -> None:
        """Between ticks: as soon as a board is owed, a short pause (a Discord hiccup may pass,
        several failures go out together), then its redelivery."""
        while True:
            await self.host.board_owed.wait()
            await asyncio.sleep(REDELIVERY_PAUSE_SECONDS)
            await self.redeliver()

    async def run(self, interval: float = DEFAULT_INTERVAL_SECONDS) -> None:
        redelivery = asyncio.create_task(self.redeliver_when_owed())
        try:
            while True:
                try:
                    await self.tick()
                except Exception:  # the loop must survive anything one tick meets
                    log.exception("scheduler tick failed")
                await asyncio.sleep(interval)
        finally:
            redelivery.cancel()
