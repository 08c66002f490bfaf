"""Edits Discord refuses for now with 30046 (a channel's messages older than an hour take 3 edits
per 6 s) are made later, newest only (bot/discord_app/delivery.py ``LaterEdits``)."""

from __future__ import annotations

import asyncio

import discord
import pytest

from bot.discord_app import delivery
from bot.discord_app.delivery import LaterEdits

# The windows are real seconds in the bot; here the event loop's clock is virtual (looptime), so
# each sleep below ends exactly when the loop's time says, however busy the machine is.
pytestmark = pytest.mark.looptime


class Response:
    def __init__(self, status: int):
        self.status, self.reason = status, "refused"


def refusal(code: int, status: int = 400) -> discord.HTTPException:
    return discord.HTTPException(Response(status), {"code": code, "message": "refused"})


class OldMessage:
    """A message whose edits Discord refuses while ``limited``; remembers the edits it took."""

    def __init__(self):
        self.limited = True
        self.shown: list[str] = []

    def edit(self, text: str):
        async def make():
            if self.limited:
                raise refusal(30046)
            self.shown.append(text)
        return make


@pytest.fixture(autouse=True)
def short_window(monkeypatch):
    monkeypatch.setattr(delivery, "OLD_EDIT_WINDOW_SECONDS", 0.05)


async def test_a_refused_edit_is_made_once_the_window_has_passed_and_only_the_newest():
    edits, message = LaterEdits(), OldMessage()
    assert await edits.edit(1, 10, message.edit("turn 1")) is False
    assert await edits.edit(1, 10, message.edit("turn 2")) is False
    assert edits.waiting(1) == 1
    message.limited = False
    await asyncio.sleep(0.2)
    assert message.shown == ["turn 2"]
    assert edits.waiting() == 0


async def test_an_edit_made_now_overtakes_one_still_waiting():
    edits, message = LaterEdits(), OldMessage()
    assert await edits.edit(1, 10, message.edit("turn 1")) is False
    message.limited = False
    assert await edits.edit(1, 10, message.edit("turn 2")) is True
    await asyncio.sleep(0.2)
    assert message.shown == ["turn 2"]  # never "turn 1" over it


async def test_edits_keep_waiting_while_discord_still_refuses_and_other_refusals_are_raised():
    edits, message = LaterEdits(), OldMessage()
    assert await edits.edit(1, 10, message.edit("a")) is False
    await asyncio.sleep(0.2)  # several windows, still refused
    assert message.shown == [] and edits.waiting(1) == 1
    message.limited = False
    await asyncio.sleep(0.1)
    assert message.shown == ["a"]

    async def gone():
        raise refusal(10008, 404)
    with pytest.raises(discord.HTTPException):
        await edits.edit(1, 11, gone)


# ---- a game's pinned status, edited at most once per window (``ThrottledEdits``) ----------------------

def shown_in(log: list[str], text: str):
    async def make():
        log.append(text)
    return make


async def test_a_status_edit_goes_at_once_then_the_newest_of_a_window_when_it_ends():
    throttled, shown = delivery.ThrottledEdits(0.2), []
    await throttled.edit(1, shown_in(shown, "move 1"))
    assert shown == ["move 1"]  # the first edit is not held
    for n in (2, 3, 4):
        await throttled.edit(1, shown_in(shown, f"move {n}"))
    await throttled.edit(2, shown_in(shown, "other game"))  # another message has its own window
    assert shown == ["move 1", "other game"] and throttled.waiting() == 1
    await asyncio.sleep(0.3)
    assert shown == ["move 1", "other game", "move 4"] and throttled.waiting() == 0
    await asyncio.sleep(0.25)  # a window with nothing held: the next edit goes at once again
    await throttled.edit(1, shown_in(shown, "move 5"))
    assert shown[-1] == "move 5"


async def test_an_urgent_status_edit_overtakes_the_held_one():
    throttled, shown = delivery.ThrottledEdits(0.2), []
    await throttled.edit(1, shown_in(shown, "move 1"))
    await throttled.edit(1, shown_in(shown, "move 2"))
    await throttled.edit(1, shown_in(shown, "won"), urgent=True)
    await asyncio.sleep(0.3)
    assert shown == ["move 1", "won"]  # the held edit was older than the game's end: dropped


async def test_a_held_status_edit_that_fails_is_logged_and_the_next_one_still_goes(caplog):
    throttled, shown = delivery.ThrottledEdits(0.1), []

    async def refused():
        raise refusal(50013, 403)
    await throttled.edit(1, shown_in(shown, "move 1"))
    await throttled.edit(1, refused)
    await asyncio.sleep(0.15)
    assert "a held edit of message 1 failed" in caplog.text
    await asyncio.sleep(0.1)
    await throttled.edit(1, shown_in(shown, "move 3"))
    assert shown == ["move 1", "move 3"]
