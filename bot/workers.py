"""CPU work off the event loop: drawing boards and thinking for AI seats, in worker processes.

A render (10-30 ms) or an AI search (up to a second) on the event loop would hold up every other
game's replies, and threads would not help (the GIL). The pool's processes start from a fork
server that has already imported the engines and renderers, and register the same plugin games as
the bot, so any game the bot knows can be drawn and played there.
"""

from __future__ import annotations

import asyncio
import gc
import importlib
import multiprocessing
import os
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor

import renderers
from games import get_game
from games.ai import choose_action
from games.rng import Rng


OWNER_CHECK_SECONDS = 1.0


def _init_worker(plugins: tuple[str, ...], owner: int) -> None:
    for module in plugins:
        importlib.import_module(module).register_plugin()
    threading.Thread(target=_exit_with, args=(owner,), daemon=True).start()
    settle_heap()


def settle_heap() -> None:
    """Move everything alive after start-up (modules, catalogues, sprites) out of the collector's
    reach. A full collection walks every tracked object: measured, one took 56 ms on the event
    loop in 300 Monster Hunter actions; after this, none ran. Frozen pages are also not written
    by the collector, so forked workers keep sharing them."""
    gc.collect()
    gc.freeze()


def _exit_with(owner: int) -> None:
    """A worker blocks on its queue forever if the bot is killed (SIGKILL, OOM): leave with it."""
    while True:
        time.sleep(OWNER_CHECK_SECONDS)
        try:
            os.kill(owner, 0)
        except ProcessLookupError:
            os._exit(0)
        except PermissionError:  # the pid was reused by someone else's process: the bot is gone
            os._exit(0)


def _ready() -> int:
    return os.getpid()


def render(game_name: str, view: dict) -> bytes:
    return renderers.render(game_name, view)


def think(game_name: str, state: dict, seat: int, seed: int, level: str, seconds: float = 1.0) -> str:
    """An AI seat's action, from a generator seeded by the game (so an AI game replays). The search
    is bounded by a count; ``seconds`` is only a safety net on a slow or busy machine."""
    give_up = time.monotonic() + seconds
    return choose_action(get_game(game_name), state, seat, Rng(seed), level=level,
                         should_stop=lambda: time.monotonic() > give_up)


def pool_size(processes: int | None = None) -> int:
    return processes or os.cpu_count() or 2


def process_pool(processes: int | None = None, plugins: tuple[str, ...] = (), *, warm: bool = False) -> Executor:
    """Workers forked from a server that imported the engines and renderers (and, with ``warm``,
    drew every sprite: ``renderers.warmed``), so each starts ready."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["renderers", "games", "games.ai"] + (["renderers.warmed"] if warm else []))
    return ProcessPoolExecutor(max_workers=pool_size(processes), mp_context=context,
                               initializer=_init_worker, initargs=(tuple(plugins), os.getpid()))


async def start(executor: Executor, processes: int) -> None:
    """Start every worker now, not on the first player's action (with a warmed fork server, this
    waits for the sprites, drawn once for all workers)."""
    await asyncio.gather(*(run(executor, _ready) for _ in range(processes)))


async def run(executor: Executor | None, fn, *args):
    """``fn(*args)`` in the pool, or right here when there is none (tests, the local driver)."""
    if executor is None:
        return fn(*args)
    return await asyncio.get_running_loop().run_in_executor(executor, fn, *args)
