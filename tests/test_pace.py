"""The bot's own pace under Discord's global rate limit (bot/adapter/pace.py)."""

from __future__ import annotations

import asyncio

from bot.adapter.pace import Pace, pace_requests


async def test_no_more_than_the_rate_start_in_any_period_and_in_the_order_asked():
    pace = Pace(rate=3, period=0.2)
    loop = asyncio.get_running_loop()
    started: list[tuple[int, float]] = []

    async def request(i: int) -> None:
        await pace.wait()
        started.append((i, loop.time()))

    await asyncio.gather(*(request(i) for i in range(9)))
    assert [i for i, _ in started] == list(range(9))  # first come, first served
    times = [t for _, t in started]
    assert all(times[k + 3] - times[k] >= 0.2 - 1e-3 for k in range(len(times) - 3))
    assert times[-1] - times[0] < 0.6  # and no slower than that


async def test_every_request_of_the_rest_client_waits_its_turn():
    calls = []

    class Http:
        async def request(self, route, **kwargs):
            calls.append((route, kwargs))
            return "ok"

    http = Http()
    pace = pace_requests(http, Pace(rate=1, period=0.1))
    loop = asyncio.get_running_loop()
    begun = loop.time()
    assert await asyncio.gather(http.request("a", json=1), http.request("b")) == ["ok", "ok"]
    assert calls == [("a", {"json": 1}), ("b", {})]
    assert loop.time() - begun >= 0.1 - 1e-3
    assert len(pace._started) == 1
