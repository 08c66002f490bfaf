"""Many games acting at once in one process, on a real SQLite file or PostgreSQL (issues #10, #17).

For 1, 10, 50 and 100 games acting at the same moment: actions per second sustained, latency p50/p99
of each action through the service (load, checks, apply, one-transaction save, board drawn), how
many failed, and the event loop's longest stall. ``--slow-render MS`` makes one game's boards that
much slower to draw, to show whether one game's drawing holds up the others' replies.
``--thinking N`` keeps N hard AI searches (SQUARESIV, about a second each) running in the workers
the whole time, as AI seats of other games would; ``--no-free-worker`` lets them take every
worker (the pool's behaviour before it kept one free for drawing).

It uses only the service API that every version of the bot had, so the same script measures an
older checkout: ``PYTHONPATH=/path/to/old/checkout python benchmarks/load_bench.py``.

    python benchmarks/load_bench.py                 # real renderers, worker processes if the bot has them
    python benchmarks/load_bench.py --slow-render 250
    python benchmarks/load_bench.py --games 10 --thinking 2 [--no-free-worker]
    python benchmarks/load_bench.py --backend postgres --games 10 100   # see benchmarks/backends.py
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import time

import renderers
from backends import add_arguments, scratch
from bot.service import GameHost
from bot.storage.sqlite import Store
from games import get_game
from games.rng import Rng

GAME = get_game("squares")
SLOW_KIND = "osu"  # with --slow-render, the first game is an OSU game whose boards draw slower


def slow_render(delay_ms: float):
    return _SlowRender(delay_ms)


class _SlowRender:
    """Picklable (for worker processes): every OSU board costs ``delay_ms`` of CPU more."""

    def __init__(self, delay_ms: float):
        self.delay_ms = delay_ms

    def __call__(self, game_name: str, view: dict) -> bytes:
        if self.delay_ms and game_name == SLOW_KIND:
            end = time.perf_counter() + self.delay_ms / 1000  # CPU, not sleep: what a heavy render does
            while time.perf_counter() < end:
                pass
        return renderers.render(game_name, view)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def loop_stalls(stop: asyncio.Event, out: list[float], work: list[float]) -> None:
    """How late a 5 ms timer fires: the longest time the loop could not run anything else.

    ``work`` gets the loop thread's own CPU time in the same windows, less the timer's 5 ms: on a
    machine shared with other jobs the wall-clock lateness also counts the times the operating
    system ran something else, while this counts only what the loop itself was busy with."""
    while not stop.is_set():
        t, cpu = time.perf_counter(), time.thread_time()
        await asyncio.sleep(0.005)
        out.append(time.perf_counter() - t - 0.005)
        work.append(max(0.0, time.thread_time() - cpu - 0.005))


async def open_target(target: str):
    try:
        from bot.storage import open_store
    except ImportError:  # a checkout from before issue #17: SQLite only
        return await Store.open(target)
    return await open_store(target)


def thinking_position(seed: int) -> dict:
    """A SQUARESIV position some moves in, where a hard search has real choices."""
    state, rng = GAME.setup(2, GAME.resolve_options({}, 2), seed), Rng(seed)
    for _ in range(6):
        seat = min(GAME.to_act(state))
        legal = GAME.legal_actions(state, seat)
        state, _ = GAME.apply(state, seat, legal[rng.below(len(legal))])
    return state


async def keep_thinking(executor, stop: asyncio.Event, seed: int, done: list[int]) -> None:
    from bot.workers import pool as workers

    state = thinking_position(seed)
    run_long = getattr(workers, "run_long", workers.run)
    while not stop.is_set():
        seat = min(GAME.to_act(state))
        await run_long(executor, workers.think, GAME.name, state, seat, seed + len(done), "hard", 1.0)
        done.append(1)


async def run(games: int, actions: int, delay_ms: float, pool: bool, backend: str = "sqlite",
              url: str | None = None, in_flight: int | None = None, thinking: int = 0,
              free_worker: bool = True) -> dict:
    async with scratch(backend, url) as target:
        store = await open_target(target)
        kwargs = {"render": slow_render(delay_ms), "seed_source": iter(range(1, 10**6)).__next__}
        if in_flight is not None:
            kwargs["games_in_flight"] = in_flight
        executor = None
        if pool and "executor" in inspect.signature(GameHost.__init__).parameters:
            from bot.workers import pool as workers

            executor = workers.process_pool(2)
            kwargs["executor"] = executor
            if not free_worker:
                executor._long_places = executor.size
        host = GameHost(store, **kwargs)
        ids = []
        for g in range(games):
            kind = SLOW_KIND if g == 0 and delay_ms else "squares"
            row, _ = await host.create(kind, None, guild_id=1, channel_id=2, user_id=10 * g + 1, locale="en")
            await host.join(row.id, 10 * g + 2)
            await host.start(row.id, 10 * g + 1)
            ids.append(row.id)
        if executor is not None:  # warm every worker up (imports, sprite caches): start-up is not measured
            boards = [(k, get_game(k).view(get_game(k).setup(2, {}, seed), None)) for k in ("squares", SLOW_KIND)
                      for seed in range(8)]
            for _ in range(3):
                await asyncio.gather(*(host._draw(kind, view) for kind, view in boards))
        from bot.workers import pool as settled

        if hasattr(settled, "settle_heap"):  # (older checkouts, compared with this script, lack it)
            settled.settle_heap()  # as the bot does once it has started
        latencies: list[float] = []
        failures = 0
        slow_latencies: list[float] = []

        async def play(index: int, game_id: int) -> None:
            nonlocal failures
            rng = Rng(game_id)
            for _ in range(actions):
                row = await store.load(game_id)
                game = get_game(row.game)
                if row.status != "active":
                    row, _ = await host.create(row.game, None, guild_id=1, channel_id=2,
                                               user_id=row.user_ids[0], locale="en")
                    await host.join(row.id, row.user_ids[0] + 1)
                    await host.start(row.id, row.user_ids[0])
                    game_id = row.id
                    row = await store.load(game_id)
                seat = min(game.to_act(row.state))
                legal = game.legal_actions(row.state, seat)
                t = time.perf_counter()
                try:
                    await host.act(game_id, row.user_of(seat), legal[rng.below(len(legal))], seen_version=row.version)
                except Exception:
                    failures += 1
                    continue
                (slow_latencies if index == 0 and delay_ms else latencies).append(time.perf_counter() - t)

        stop, stalls, busy, thought = asyncio.Event(), [], [], []
        watcher = asyncio.create_task(loop_stalls(stop, stalls, busy))
        thinkers = [asyncio.create_task(keep_thinking(executor, stop, 1000 + i, thought)) for i in range(thinking)]
        start = time.perf_counter()
        await asyncio.gather(*(play(i, gid) for i, gid in enumerate(ids)))
        elapsed = time.perf_counter() - start
        stop.set()
        await asyncio.gather(watcher, *thinkers)
        await store.close()
        if executor is not None:
            executor.shutdown()
    done = len(latencies) + len(slow_latencies)
    return {"games": games, "ok": done, "failed": failures, "per_s": done / elapsed,
            "p50": percentile(latencies, 0.5) * 1000, "p99": percentile(latencies, 0.99) * 1000,
            "stall": max(stalls, default=0) * 1000, "busy": max(busy, default=0) * 1000,
            "thought": len(thought)}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--actions", type=int, default=30, help="actions per game")
    parser.add_argument("--slow-render", type=float, default=0, help="extra ms to draw the first game's boards")
    parser.add_argument("--inline", action="store_true", help="draw in the event loop even if the bot has workers")
    parser.add_argument("--games", type=int, nargs="+", default=[1, 10, 50, 100], help="games acting at once")
    parser.add_argument("--in-flight", type=int, default=None,
                        help="games the service lets into an operation at once (default: the bot's)")
    parser.add_argument("--thinking", type=int, default=0, help="hard AI searches kept running in the workers")
    parser.add_argument("--no-free-worker", action="store_true", help="let AI searches take every worker")
    add_arguments(parser)
    args = parser.parse_args(argv)
    print(f"backend: {args.backend}, 1 process")
    print(f"{'games':>5} {'ok':>6} {'failed':>6} {'actions/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'loop stall ms':>13} {'of it loop CPU':>14}"
          + (f"   (game 1 draws {args.slow_render:.0f} ms slower; p50/p99 are the other games')" if args.slow_render else "")
          + (f"   ({args.thinking} AI searches running{', free to take every worker' if args.no_free_worker else ''};"
             " the last column: searches finished)" if args.thinking else ""))
    for games in args.games:
        r = asyncio.run(run(games, args.actions, args.slow_render, pool=not args.inline, backend=args.backend,
                            url=args.database_url, in_flight=args.in_flight, thinking=args.thinking,
                            free_worker=not args.no_free_worker))
        print(f"{r['games']:>5} {r['ok']:>6} {r['failed']:>6} {r['per_s']:>9.1f} {r['p50']:>8.1f} {r['p99']:>8.1f} "
              f"{r['stall']:>13.1f} {r['busy']:>14.1f}" + (f" {r['thought']:>8}" if args.thinking else ""))


if __name__ == "__main__":
    main()
