"""A fixed game seed for end-to-end tests, loaded like tests/fake_clock.py through GAME_PLUGINS.
With FAKE_SEED set, every game the bot sets up draws that seed (seats dealt, dice, AI moves), so a
scenario that needs a game to go one way plays the same game on every run; unset, nothing changes.
"""

from __future__ import annotations

import os

from bot.service.core import HostCore

SEED = os.environ.get("FAKE_SEED")


def register_plugin() -> None:
    if SEED:
        HostCore.default_seed_source = lambda: int(SEED)
