"""Live updates: which watched game changed, from any way in.

Saves made by this process arrive at once through the service's save watcher
(``GameHost.watch_saves``); saves by another bot process sharing the database are found by reading
each watched game's version every ``poll_seconds`` (only games someone has open, one read each).
A watcher hears versions only: the page then asks for its own view, through the access checks.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

log = logging.getLogger("bot.web")
QUEUED = 4  # versions one open page may fall behind by; older ones are dropped (the newest is what counts)


class Changes:
    def __init__(self, host, poll_seconds: float = 2.0):
        self.host, self.poll_seconds = host, poll_seconds
        self.watchers: dict[int, set[asyncio.Queue]] = {}
        self.known: dict[int, int] = {}
        self._poller: asyncio.Task | None = None
        self._stop_watching = host.watch_saves(self.saved)

    def saved(self, game_id: int, version: int) -> None:
        if version <= self.known.get(game_id, -1):
            return
        self.known[game_id] = version
        for queue in self.watchers.get(game_id, ()):
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(version)

    @contextlib.asynccontextmanager
    async def watching(self, game_id: int, version: int):
        """A queue of the game's new versions while the caller watches it."""
        queue: asyncio.Queue = asyncio.Queue(QUEUED)
        self.known[game_id] = max(self.known.get(game_id, -1), version)
        self.watchers.setdefault(game_id, set()).add(queue)
        try:
            yield queue
        finally:
            self.watchers[game_id].discard(queue)
            if not self.watchers[game_id]:
                del self.watchers[game_id]
                self.known.pop(game_id, None)

    def start(self) -> None:
        if self._poller is None and self.poll_seconds > 0:
            self._poller = asyncio.create_task(self._poll())

    async def stop(self) -> None:
        self._stop_watching()
        if self._poller is not None:
            self._poller.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._poller
            self._poller = None

    async def poll_once(self) -> None:
        for game_id in list(self.watchers):
            try:
                version = await self.host.table_version(game_id)
            except Exception:  # the database away for a moment: the next round tries again
                log.warning("reading game %s's version failed", game_id, exc_info=True)
                continue
            if version is not None:
                self.saved(game_id, version)

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(self.poll_seconds)
            await self.poll_once()
