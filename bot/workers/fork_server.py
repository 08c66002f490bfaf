"""The worker pool's fork server: what it imports, and starting it on the bot's first line.

Kept apart from ``bot.workers.pool``, whose import pulls in the engines and renderers: started from
here, the fork server's imports and palettes (a second or two of CPU) begin before the bot's own
imports, instead of after them (issue #33)."""

from __future__ import annotations

import multiprocessing


def preload(warm: bool) -> list[str]:
    """What the fork server imports before any worker forks from it: with ``warm``, ``bot.workers.warming``
    too, which sets or draws the palettes (most of a first board), then starts drawing every other
    sprite there in the background, once for all workers."""
    return ["renderers", "games", "games.ai", "bot.workers.pool"] + (["bot.workers.warming"] if warm else [])


def start(warm: bool) -> None:
    """Start the workers' fork server now: its imports and palettes then overlap the bot's own
    imports, login and gateway connection, instead of following them and keeping the first board
    after READY waiting."""
    multiprocessing.get_context("forkserver").set_forkserver_preload(preload(warm))
    from multiprocessing import forkserver
    forkserver.ensure_running()
