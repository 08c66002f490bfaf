"""Landings (bot/service/landing.py): the next operation on a game waits for its last board."""

from __future__ import annotations

import asyncio

import pytest

from bot.service.landing import Landings

pytestmark = pytest.mark.looptime  # a virtual clock: the limits and waits below are exact, not the machine's speed


async def test_an_operation_waits_until_the_last_saved_board_lands():
    landings = Landings(limit=5)
    landings.leaving(7, 3)
    waiter = asyncio.create_task(landings.wait(7))
    await asyncio.sleep(0.05)
    assert not waiter.done()
    landings.landed(7, 2)  # an older board's landing is not this one's
    await asyncio.sleep(0.05)
    assert not waiter.done()
    landings.landed(7, 3)
    await asyncio.wait_for(waiter, 1)
    assert (landings.waits, landings.overdue) == (1, 0)
    assert not landings.in_flight(7)


async def test_other_games_never_wait():
    landings = Landings(limit=5)
    landings.leaving(7, 3)
    await asyncio.wait_for(landings.wait(8), 0.5)
    assert landings.waits == 0


async def test_a_board_that_never_lands_holds_the_game_only_until_the_limit():
    landings = Landings(limit=0.1)
    landings.leaving(7, 3)
    await asyncio.wait_for(landings.wait(7), 1)
    assert (landings.waits, landings.overdue) == (1, 1)
    assert not landings.in_flight(7)  # the next one goes at once
    await asyncio.wait_for(landings.wait(7), 0.05)


async def test_a_later_version_supersedes_and_frees_the_earlier_waiters():
    landings = Landings(limit=5)
    landings.leaving(7, 3)
    waiter = asyncio.create_task(landings.wait(7))
    await asyncio.sleep(0.01)
    landings.leaving(7, 4)
    await asyncio.wait_for(waiter, 1)
    assert landings.in_flight(7)
    landings.leaving(7, 2)  # never moves back
    landings.landed(7, 3)
    assert landings.in_flight(7)
    landings.landed(7, 4)
    assert not landings.in_flight(7)
