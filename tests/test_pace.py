"""The bot's own pace under Discord's global rate limit (bot/discord_app/pace.py)."""

from __future__ import annotations

import asyncio

import pytest

from bot.discord_app.pace import Pace, pace_requests

pytestmark = pytest.mark.looptime  # a virtual clock: "no slower than" bounds are exact, not the machine's speed


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
    from bot.discord_app.pace import share_of_limit

    assert share_of_limit() == 45  # one process: Discord's 50, less the margin
    assert share_of_limit(50, 8, (0, 1, 2, 3)) == share_of_limit(50, 8, (4, 5, 6, 7)) == 22
    assert share_of_limit(50, 8, None) == 45  # a process holding every shard
    assert share_of_limit(500, 4, (3,)) == 112  # a limit Discord raised
    assert share_of_limit(50, 100, (7,)) == 1  # never nothing
    halves = [share_of_limit(50, 2, (n,)) for n in (0, 1)]
    assert sum(halves) <= 50


def test_a_bot_holding_some_shards_paces_itself_to_their_part(tmp_path, monkeypatch):
    from bot.discord_app.client import make_bot
    from bot.config import load

    monkeypatch.setenv("GLOBAL_RATE_LIMIT", "100")
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", "0-1")
    config = load(None)
    assert config.global_rate_limit == 100
    bot = make_bot(str(tmp_path / "x.sqlite3"), shard_count=config.shard_count, shard_ids=config.shard_ids,
                   global_rate_limit=config.global_rate_limit)
    assert bot.pace.rate == 45  # half of 100, less the margin (nothing connected: nothing to close)


async def test_what_only_others_see_gives_way_to_what_a_person_waits_on():
    """Under a burst, requests made in_background() (a "your turn" DM, the pinned status) wait
    behind the rest, yet one in BACKGROUND_SHARE still goes, so they are never starved."""
    from bot.discord_app.pace import BACKGROUND_SHARE, in_background

    pace = Pace(rate=1, period=0.02)
    order: list[str] = []

    async def request(name: str, background: bool) -> None:
        if background:
            with in_background():
                await pace.wait()
        else:
            await pace.wait()
        order.append(name)

    await pace.wait()  # the period's one request is taken: everyone below queues
    asked = [request(f"b{i}", True) for i in range(3)] + [request(f"f{i}", False) for i in range(10)]
    await asyncio.gather(*asked)
    assert order[:BACKGROUND_SHARE - 1] == [f"f{i}" for i in range(BACKGROUND_SHARE - 1)]
    assert order[BACKGROUND_SHARE - 1] == "b0"  # its turn comes even while people wait
    assert [n for n in order if n.startswith("f")] == [f"f{i}" for i in range(10)]  # each kind in order
    assert [n for n in order if n.startswith("b")] == ["b0", "b1", "b2"]


async def test_a_request_given_up_takes_no_turn():
    pace = Pace(rate=1, period=0.05)
    await pace.wait()
    gave_up = asyncio.create_task(pace.wait())
    waits = asyncio.create_task(pace.wait())
    await asyncio.sleep(0)
    gave_up.cancel()
    loop = asyncio.get_running_loop()
    begun = loop.time()
    await asyncio.wait_for(waits, 1)
    assert loop.time() - begun < 0.09  # the next period's turn went to the one still waiting
