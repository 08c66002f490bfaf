"""Render benchmark: board drawing time against the bare PNG encode of the same image.

Plays random SQUARESIV games (``games.ai.choose_action`` with a seeded ``games.rng.Rng``),
collects a few hundred views and, for each, times

* ``render``: the full ``renderers.render(game, view)`` call (compose + encode), and
* ``encode``: ``renderers.common.png_bytes`` alone on the final image of that same view,

then prints mean / p50 / p99 of both and their ratio. A first pass over every view warms the
sprite caches (and is reported on its own), so the main figures are steady-state. No asserts:
it prints figures. Run as ``.venv/bin/python benchmarks/render_bench.py``; ``main()`` is
importable and returns the figures as a dict.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repo importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import get_game  # noqa: E402
from games.ai import choose_action  # noqa: E402
from games.rng import Rng  # noqa: E402
from renderers import render, renderer_for  # noqa: E402
from renderers.common import png_bytes  # noqa: E402


def collect_views(game_name: str = "squares", games: int = 12, per_game: int = 30, seed: int = 1) -> list[dict]:
    """Views from random games: up to ``per_game`` evenly spread positions of each game."""
    game = get_game(game_name)
    views: list[dict] = []
    for g in range(games):
        rng = Rng(seed * 1_000 + g)
        state = game.setup(2, {}, seed=seed * 7_919 + g)
        states = [state]
        while game.outcome(state) is None and state["ply"] < 400:
            seat = min(game.to_act(state))
            state, _ = game.apply(state, seat, choose_action(game, state, seat, rng))
            states.append(state)
        step = max(1, len(states) // per_game)
        picked = states[::step][:per_game - 1] + [states[-1]]
        views += [game.view(s, i % 2) for i, s in enumerate(picked)]
    return views


def _stats(samples_ms: list[float]) -> dict[str, float]:
    ordered = sorted(samples_ms)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return {"mean": statistics.fmean(ordered), "p50": statistics.median(ordered), "p99": p99}


def bench(game_name: str = "squares", views: list[dict] | None = None, repeat: int = 3) -> dict:
    """Time rendering and bare encoding for each view; per view, the best of ``repeat`` runs."""
    views = views if views is not None else collect_views(game_name)
    module = sys.modules[renderer_for(game_name).__module__]
    render_image = module.render_image
    clock = time.perf_counter

    cold = []
    for view in views:  # first pass: includes building sprites / layers on demand
        t0 = clock()
        render(game_name, view)
        cold.append((clock() - t0) * 1e3)

    render_ms, encode_ms, sizes = [], [], []
    for view in views:
        best_r = best_e = float("inf")
        for _ in range(repeat):
            t0 = clock()
            png = render(game_name, view)
            best_r = min(best_r, clock() - t0)
        image = render_image(view)  # the same final image render() encoded
        for _ in range(repeat):
            t0 = clock()
            png_bytes(image)
            best_e = min(best_e, clock() - t0)
        render_ms.append(best_r * 1e3)
        encode_ms.append(best_e * 1e3)
        sizes.append(len(png))
    ratios = [r / e for r, e in zip(render_ms, encode_ms)]
    return {
        "game": game_name,
        "views": len(views),
        "size": image.size,
        "mode": image.mode,
        "cold_first_pass_ms": _stats(cold),
        "render_ms": _stats(render_ms),
        "encode_ms": _stats(encode_ms),
        "ratio": {"of_means": statistics.fmean(render_ms) / statistics.fmean(encode_ms), **_stats(ratios)},
        "png_bytes": {"mean": statistics.fmean(sizes), "max": max(sizes)},
    }


def main(game_name: str = "squares") -> dict:
    """Run the benchmark and print the figures; returns them too."""
    result = bench(game_name)
    line = "{:<28} mean {mean:7.2f}   p50 {p50:7.2f}   p99 {p99:7.2f}"
    print(f"render benchmark: {result['game']}, {result['views']} views, "
          f"{result['size'][0]}x{result['size'][1]} {result['mode']}")
    print(line.format("first pass, cold caches ms", **result["cold_first_pass_ms"]))
    print(line.format("render (compose+encode) ms", **result["render_ms"]))
    print(line.format("bare png_bytes encode ms", **result["encode_ms"]))
    r = result["ratio"]
    print(line.format("ratio render/encode", **r) + f"   (ratio of means {r['of_means']:.2f}, target <= 1.5)")
    print(f"PNG size: mean {result['png_bytes']['mean'] / 1024:.1f} KiB, max {result['png_bytes']['max'] / 1024:.1f} KiB")
    return result


if __name__ == "__main__":
    main()
