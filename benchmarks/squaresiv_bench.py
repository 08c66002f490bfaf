"""SQUARESIV figures: engine apply, render vs bare PNG encode, and the service round trip.

    .venv/bin/python benchmarks/squaresiv_bench.py [--games 20] [--actions 400]

Prints figures; asserts nothing (our machines are shared and noisy, so these are not tests).
Targets (issue #2): render <= 1.5x the bare encode of the same image; round trip p99 < 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image  # noqa: E402

import renderers  # noqa: E402
from bot.service import GameHost  # noqa: E402
from bot.storage.sqlite import Store  # noqa: E402
from games import get_game  # noqa: E402
from games.ai import choose_action  # noqa: E402
from games.rng import Rng  # noqa: E402
from renderers.common import fresh_png_bytes  # noqa: E402

GAME = get_game("squares")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(values: list[float]) -> str:
    return (f"mean {statistics.mean(values) * 1e3:7.3f} ms  p50 {pct(values, .5) * 1e3:7.3f} ms  "
            f"p99 {pct(values, .99) * 1e3:7.3f} ms  (n={len(values)})")


def random_states(games: int) -> list[tuple[dict, int, str]]:
    out = []
    for seed in range(games):
        rng, state = Rng(seed), GAME.setup(2, {}, seed)
        while GAME.outcome(state) is None:
            seat = min(GAME.to_act(state))
            action = choose_action(GAME, state, seat, rng)
            out.append((state, seat, action))
            state, _ = GAME.apply(state, seat, action)
    return out


def bench_engine(samples) -> None:
    applies, legals = [], []
    for state, seat, action in samples:
        t = time.perf_counter()
        GAME.legal_actions(state, seat)
        legals.append(time.perf_counter() - t)
        t = time.perf_counter()
        GAME.apply(state, seat, action)
        applies.append(time.perf_counter() - t)
    print(f"engine apply (checks legality)  {ms(applies)}")
    print(f"engine legal_actions            {ms(legals)}")


def bench_render(samples, count: int = 300) -> None:
    step = max(1, len(samples) // count)
    views = [GAME.view(s, None) for s, _, _ in samples[::step]][:count]
    renderers.render("squares", views[0])  # build the cached layers once, as a running bot has
    render_times, encode_times, sizes = [], [], []
    for view in views:
        t = time.perf_counter()
        data = renderers.render("squares", view)
        render_times.append(time.perf_counter() - t)
        image = Image.open(io.BytesIO(data))
        image.load()
        t = time.perf_counter()
        fresh_png_bytes(image)
        encode_times.append(time.perf_counter() - t)
        sizes.append(len(data))
    ratio = statistics.median(render_times) / statistics.median(encode_times)
    print(f"render board (incl. encode)     {ms(render_times)}")
    print(f"bare PNG encode of same image   {ms(encode_times)}")
    print(f"render / bare encode (median)   {ratio:.2f}x   image {image.size[0]}x{image.size[1]}, "
          f"{statistics.mean(sizes) / 1024:.0f} KiB mean")


async def bench_round_trip(actions: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(str(Path(folder) / "bench.sqlite3"))
        host = GameHost(store)
        times: list[float] = []
        rng = Rng(99)
        heap_from = actions // 2  # the heap is traced only over the second half, never while timing
        while len(times) < actions:
            row, _ = await host.create("squares", None, guild_id=1, channel_id=2, user_id=1, locale="en")
            await host.join(row.id, 2)
            await host.start(row.id, 1)
            while len(times) < actions:
                row = await store.load(row.id)
                if row.status != "active":
                    break
                seat = min(GAME.to_act(row.state))
                action = choose_action(GAME, row.state, seat, rng)
                if len(times) == heap_from:
                    tracemalloc.start()
                tracing = tracemalloc.is_tracing()
                t = time.perf_counter()
                await host.act(row.id, row.user_of(seat), action, seen_version=row.version)
                if not tracing:  # tracing makes every allocation slower: those actions are not timed
                    times.append(time.perf_counter() - t)
                else:
                    heap_from = -1
                    times.append(float("nan"))
        current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        times = [t for t in times if t == t]
        games = len(await store.game_ids_in_guild(1, ("active", "finished")))
        await store.close()
    print(f"service round trip (load, apply, save, render)  {ms(times)}")
    print(f"  over {games} games on one SQLite file; Python heap after: {current / 1024:.0f} KiB "
          f"(peak {peak / 1024:.0f} KiB) - games are loaded per action, none kept in memory")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--actions", type=int, default=400)
    args = parser.parse_args(argv)
    samples = random_states(args.games)
    print(f"SQUARESIV benchmark: {len(samples)} positions from {args.games} random games")
    bench_engine(samples)
    bench_render(samples)
    asyncio.run(bench_round_trip(args.actions))


if __name__ == "__main__":
    main()
