"""A slow AI for end-to-end tests, loaded like tests/fake_clock.py through GAME_PLUGINS (in the bot
and in its worker processes). With FAKE_AI_SECONDS set, every AI move takes at least that long, as
a hard search on a busy machine may; unset, nothing changes.
"""

from __future__ import annotations

import os
import time

from bot.workers import pool as workers

SECONDS = float(os.environ.get("FAKE_AI_SECONDS") or 0)
_think = workers.think


def slow_think(*args):
    time.sleep(SECONDS)
    return _think(*args)


def register_plugin() -> None:
    if SECONDS:
        workers.think = slow_think  # looked up at each AI move (HostCore._think), sent to a worker by name
