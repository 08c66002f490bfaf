"""Render benchmark: every game's board drawing time against its floor, the bare PNG encode.

For every game and every player count it allows, plays seeded random games
(``games.ai.choose_action``) and collects views. Views of the first half of the games warm the
sprite caches (a bot that has been running a while); views of the other games are boards the
renderer has not seen before. For each of those it times

* ``new``: the first ``renderers.render(game, view)`` call (compose + encode) for that board,
* ``again``: the same call once more (every layer it needs is cached now), best of 3, and
* ``encode``: ``renderers.common.fresh_png_bytes`` alone on the final image of that same view,
  the whole image compressed from nothing (the floor; a render can be cheaper than it only
  because ``png_bytes`` reuses the compressed rows of earlier images), best of 3,

and prints p50 / p99 of each with the ratio to the encode p50 beside it. Half of the unseen games
are timed as they come; then the renderer's ``warm()`` runs (what a bot can do at start-up; its
time is printed) and the other half are timed again as ``new+warm``.

Times are CPU time of this process (``time.process_time``): the machines are shared, and wall
time there mostly measures the other jobs. Timing is refused with a tracer or tracemalloc on
(both slow Python down several times and make every figure lie). No asserts: these are figures,
not tests.

    .venv/bin/python benchmarks/render_bench.py [--games N] [--per-game N] [game ...]

``main()`` is importable and returns the rows as dicts.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repo importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import get_game  # noqa: E402
from games.ai import choose_action  # noqa: E402
from games.rng import Rng  # noqa: E402
from renderers import render, renderer_for  # noqa: E402
from renderers.common import fresh_png_bytes  # noqa: E402

GAMES = ("squares", "arena", "osu", "hostile", "monsterhunter")


def collect_views(game_name: str, players: int, games: int, per_game: int, seed: int) -> list[list[dict]]:
    """Per random game, up to ``per_game`` evenly spread views (each seen by a different seat)."""
    game = get_game(game_name)
    out: list[list[dict]] = []
    for g in range(games):
        rng = Rng(seed * 1_000 + g)
        state = game.setup(players, {}, seed=seed * 7_919 + g)
        states = [state]
        while game.outcome(state) is None and len(states) < 600:
            seat = min(game.to_act(state))
            state, _ = game.apply(state, seat, choose_action(game, state, seat, rng))
            states.append(state)
        step = max(1, len(states) // per_game)
        picked = states[::step][:per_game - 1] + [states[-1]]
        out.append([game.view(s, i % (players + 1) if i % (players + 1) < players else None)
                    for i, s in enumerate(picked)])
    return out


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _check_no_tracing() -> None:
    if sys.gettrace() is not None or tracemalloc.is_tracing():
        raise SystemExit("render_bench: a tracer or tracemalloc is on; timings would be meaningless")


def bench(game_name: str, players: int, games: int = 8, per_game: int = 25, seed: int = 1) -> dict:
    """Warm on half the games, time the unseen boards of a quarter, run ``warm()``, time the rest."""
    _check_no_tracing()
    batches = collect_views(game_name, players, games, per_game, seed)
    half, three = games // 2, (3 * games) // 4
    warm = batches[:half]
    fresh = [v for batch in batches[half:three] for v in batch]
    after = [v for batch in batches[three:] for v in batch]
    module = sys.modules[renderer_for(game_name).__module__]
    for batch in warm:
        for view in batch:
            render(game_name, view)
    result = _time(game_name, module, fresh)
    t0 = time.process_time()
    if hasattr(module, "warm"):
        module.warm()
    result["warm_s"] = time.process_time() - t0
    later = _time(game_name, module, after)
    result.update(new_warm_p50=later["new_p50"], new_warm_p99=later["new_p99"],
                  new_warm_ratio=later["new_p50"] / later["encode_p50"])
    result["players"] = players
    return result


def _time(game_name: str, module, fresh: list[dict]) -> dict:
    clock = time.process_time
    new_ms, again_ms, encode_ms, sizes = [], [], [], []
    gc.collect()
    for view in fresh:
        t0 = clock()
        png = render(game_name, view)
        new_ms.append((clock() - t0) * 1e3)
        best = float("inf")
        for _ in range(3):
            t0 = clock()
            render(game_name, view)
            best = min(best, clock() - t0)
        again_ms.append(best * 1e3)
        image = module.render_image(view)   # the very image render() encoded
        best = float("inf")
        for _ in range(3):
            t0 = clock()
            fresh_png_bytes(image)
            best = min(best, clock() - t0)
        encode_ms.append(best * 1e3)
        sizes.append(len(png))
    floor = statistics.median(encode_ms)
    return {
        "game": game_name, "views": len(fresh), "size": image.size, "mode": image.mode,
        "new_p50": statistics.median(new_ms), "new_p99": pct(new_ms, 0.99),
        "again_p50": statistics.median(again_ms), "again_p99": pct(again_ms, 0.99),
        "encode_p50": floor, "new_ratio": statistics.median(new_ms) / floor,
        "again_ratio": statistics.median(again_ms) / floor, "kib": statistics.fmean(sizes) / 1024,
    }


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(GAMES))
    parser.add_argument("--games", dest="n_games", type=int, default=8, help="random games per player count")
    parser.add_argument("--per-game", type=int, default=25)
    args = parser.parse_args(argv)
    _check_no_tracing()
    rows = []
    head = (f"{'game':<13} {'pl':>2} {'image':>14} | {'new p50':>7} {'p99':>6} | {'again p50':>9} {'p99':>6} | "
            f"{'encode p50':>10} | {'new/enc':>7} {'again/enc':>9} | {'warm()':>6} {'new+warm p50':>12} "
            f"{'p99':>6} {'/enc':>6} | {'KiB':>5}")
    print(head)
    print("-" * len(head))
    for name in args.games:
        for players in get_game(name).player_counts():
            r = bench(name, players, args.n_games, args.per_game)
            rows.append(r)
            size = f"{r['size'][0]}x{r['size'][1]} {r['mode']}"
            print(f"{name:<13} {players:>2} {size:>14} | {r['new_p50']:7.2f} {r['new_p99']:6.2f} | "
                  f"{r['again_p50']:9.2f} {r['again_p99']:6.2f} | {r['encode_p50']:10.2f} | "
                  f"{r['new_ratio']:6.2f}x {r['again_ratio']:8.2f}x | {r['warm_s']:5.1f}s {r['new_warm_p50']:12.2f} "
                  f"{r['new_warm_p99']:6.2f} {r['new_warm_ratio']:5.2f}x | {r['kib']:5.1f}", flush=True)
    print("CPU ms per board; new = a board not rendered before (caches warm from other games); again = the "
          "same board re-rendered; new+warm = unseen boards after the renderer's warm(); ratios are "
          "against the encode p50 of the same images")
    return rows


if __name__ == "__main__":
    main()
