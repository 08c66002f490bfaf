"""Keeping the bot's REST requests under Discord's global rate limit.

Discord takes 50 requests a second from a bot in all (interaction answers apart) and refuses more
with a global 429. discord.py does not count towards that limit before sending: every request
refused sleeps ``retry_after`` and retries at the same moment as the others, so a burst (a hundred
games moving at once, a catch-up after an outage) turns into waves of 429s, each request giving up
after its fifth: a board not posted. Pacing the requests here, first come first served, keeps the
bot under the limit; interaction answers go through discord.py's webhook client and are not paced.
What only others see gives way to what a person is waiting on (``in_background``).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import contextvars
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


BACKGROUND_SHARE = 5  # when both wait, one request in this many is a background one
# A turn due within this much of now is due now: the loop's clock is a float, and a sleep that ends
# a rounding error short of the period would otherwise be followed by sleeps too short to end it.
CLOCK_TOLERANCE = 1e-6


_background: contextvars.ContextVar[bool] = contextvars.ContextVar("background_requests", default=False)


@contextlib.contextmanager
def in_background():
    """The requests made inside (and in tasks started inside) wait behind those a person waits on."""
    token = _background.set(True)
    try:
        yield
    finally:
        _background.reset(token)


class Pace:
    """At most ``rate`` requests started in any one second, first come first served, except that
    requests made ``in_background()`` (what only others see: "your turn" DMs, the pinned status)
    give way to the rest: when both wait, only one in ``BACKGROUND_SHARE`` goes to the background,
    so under a long burst a person's answer does not queue behind them, and they still move."""

    def __init__(self, rate: int = GLOBAL_REQUESTS_PER_SECOND, period: float = 1.0) -> None:
        self.rate, self.period = rate, period
        self._started: collections.deque[float] = collections.deque()
        self._waiting: tuple[collections.deque, collections.deque] = (collections.deque(), collections.deque())
        self._granted = 0  # requests let go since the background's last turn
        self._letting_go: asyncio.Task | None = None

    async def wait(self) -> None:
        if not any(self._waiting) and self._take():
            return
        turn = asyncio.get_running_loop().create_future()
        self._waiting[_background.get()].append(turn)
        if self._letting_go is None or self._letting_go.done():
            self._letting_go = asyncio.create_task(self._let_go())
        await turn

    def _take(self) -> bool:
        now = asyncio.get_running_loop().time()
        while self._started and now - self._started[0] >= self.period - CLOCK_TOLERANCE:
            self._started.popleft()
        if len(self._started) < self.rate:
            self._started.append(now)
            return True
        return False

    def _next(self) -> asyncio.Future | None:
        for queue in self._waiting:  # a waiter that gave up (cancelled) has no turn to take
            while queue and queue[0].done():
                queue.popleft()
        foreground, background = self._waiting
        if background and (not foreground or self._granted >= BACKGROUND_SHARE - 1):
            self._granted = 0
            return background.popleft()
        if foreground:
            self._granted += 1
            return foreground.popleft()
        return None

    async def _let_go(self) -> None:
        while any(self._waiting):
            if not self._take():
                await asyncio.sleep(self.period - (asyncio.get_running_loop().time() - self._started[0]))
                continue
            turn = self._next()
            if turn is None:
                self._started.pop()  # nobody left to take it
                return
            turn.set_result(None)


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
