"""Keeping the bot's REST requests under Discord's global rate limit.

Discord takes 50 requests a second from a bot in all (interaction answers apart) and refuses more
with a global 429. discord.py does not count towards that limit before sending: every request
refused sleeps ``retry_after`` and retries at the same moment as the others, so a burst (a hundred
games moving at once, a catch-up after an outage) turns into waves of 429s, each request giving up
after its fifth: a board not posted. Pacing the requests here, first come first served, keeps the
bot under the limit; interaction answers go through discord.py's webhook client and are not paced.
"""

from __future__ import annotations

import asyncio
import collections
import functools

DISCORD_GLOBAL_LIMIT = 50  # requests a second for the whole bot, every process together
MARGIN = 0.9  # for clocks that disagree
GLOBAL_REQUESTS_PER_SECOND = int(DISCORD_GLOBAL_LIMIT * MARGIN)


def share_of_limit(limit: int = DISCORD_GLOBAL_LIMIT, shard_count: int | None = None,
                   shard_ids: list[int] | tuple[int, ...] | None = None) -> int:
    """The requests a second this process may start: Discord counts the global limit per bot, so
    processes holding some of its shards take their part of it (its shards over all of them;
    servers spread over shards evenly), less the margin; at least one."""
    held = len(shard_ids) if shard_count and shard_ids is not None else (shard_count or 1)
    return max(1, int(limit * MARGIN * held / (shard_count or 1)))


class Pace:
    """At most ``rate`` requests started in any one second, in the order they asked."""

    def __init__(self, rate: int = GLOBAL_REQUESTS_PER_SECOND, period: float = 1.0) -> None:
        self.rate, self.period = rate, period
        self._started: collections.deque[float] = collections.deque()
        self._turn = asyncio.Lock()  # fair: waiters go in the order they came

    async def wait(self) -> None:
        async with self._turn:
            loop = asyncio.get_running_loop()
            while True:
                now = loop.time()
                while self._started and now - self._started[0] >= self.period:
                    self._started.popleft()
                if len(self._started) < self.rate:
                    self._started.append(now)
                    return
                await asyncio.sleep(self.period - (now - self._started[0]))


def pace_requests(http, pace: Pace | None = None) -> Pace:
    """Make every request of discord.py's REST client ``http`` wait its turn first."""
    pace = pace or Pace()
    request = http.request

    @functools.wraps(request)
    async def paced(*args, **kwargs):
        await pace.wait()
        return await request(*args, **kwargs)

    http.request = paced
    return pace
