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


def test_the_processes_of_one_bot_share_its_global_limit_by_the_shards_they_hold():
    from bot.adapter.pace import share_of_limit

    assert share_of_limit() == 45  # one process: Discord's 50, less the margin
    assert share_of_limit(50, 8, (0, 1, 2, 3)) == share_of_limit(50, 8, (4, 5, 6, 7)) == 22
    assert share_of_limit(50, 8, None) == 45  # a process holding every shard
    assert share_of_limit(500, 4, (3,)) == 112  # a limit Discord raised
    assert share_of_limit(50, 100, (7,)) == 1  # never nothing
    halves = [share_of_limit(50, 2, (n,)) for n in (0, 1)]
    assert sum(halves) <= 50


def test_a_bot_holding_some_shards_paces_itself_to_their_part(tmp_path, monkeypatch):
    from bot.adapter.client import make_bot
    from bot.config import load

    monkeypatch.setenv("GLOBAL_RATE_LIMIT", "100")
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", "0-1")
    config = load(None)
    assert config.global_rate_limit == 100
    bot = make_bot(str(tmp_path / "x.sqlite3"), shard_count=config.shard_count, shard_ids=config.shard_ids,
                   global_rate_limit=config.global_rate_limit)
    assert bot.pace.rate == 45  # half of 100, less the margin (nothing connected: nothing to close)
