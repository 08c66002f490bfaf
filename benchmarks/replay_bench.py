"""Replay figures: the end-of-game recap (size, frames, time) for the longest games, and the time
to draw one viewer step (p50/p99), paging with ▶ and jumping at random.

    .venv/bin/python benchmarks/replay_bench.py [--seeds 4] [--clicks 200]

Games are random legal playouts (the AI's ``random`` level); the worst cases stretch them with
options: HOSTILE for four with ``target=99`` (it then ends only when the floor deck runs short)
and Monster Hunter for four with ``hr_target=40``. Times are CPU work in this process, as one
worker of the bot's pool does it.
"""

from __future__ import annotations

import argparse
import statistics
import time
from io import BytesIO

from PIL import Image

from bot.workers import replay_frames
from games import get_game
from games.ai import choose_action
from games.rng import Rng

CASES = [
    ("squares", 2, {}), ("arena", 2, {}), ("osu", 4, {}), ("hostile", 4, {}), ("hostile", 4, {"target": 99}),
    ("monsterhunter", 2, {}), ("monsterhunter", 4, {}), ("monsterhunter", 4, {"hr_target": 40}),
    ("monsterhunter", 4, {"hr_target": 40, "turn_limit": 99}),
]


def playout(name: str, players: int, raw: dict, seed: int):
    game = get_game(name)
    options = game.resolve_options(raw, players)
    rng = Rng(seed * 31 + 7)
    state = game.setup(players, options, seed)
    log = []
    while game.outcome(state) is None and len(log) < 20_000:
        seats = sorted(game.to_act(state))
        seat = seats[rng.below(len(seats))]
        action = choose_action(game, state, seat, rng)
        state, _ = game.apply(state, seat, action)
        log.append((seat, action))
    return options, log


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--clicks", type=int, default=200)
    args = parser.parse_args()
    print("| game | players | options | steps (longest of seeds) | frames | recap size | width | recap time |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    longest = {}
    for name, players, raw in CASES:
        seed, options, log = max(((seed, *playout(name, players, raw, seed)) for seed in range(args.seeds)),
                                 key=lambda r: len(r[2]))
        longest[(name, players, tuple(raw.items()))] = (options, seed, log)
        replay_frames._replays.clear()
        start = time.process_time()
        data = replay_frames.recap(name, players, options, seed, log)
        spent = time.process_time() - start
        image = Image.open(BytesIO(data))
        shown = " ".join(f"{k}={v}" for k, v in raw.items()) or "-"
        print(f"| {name} | {players} | {shown} | {len(log)} | {image.n_frames} | {len(data) / 1024 / 1024:.2f} MiB "
              f"| {image.width} px | {spent:.1f} s |")

    print()
    print("| game | players | steps | ▶ paging p50 / p99 | random jumps p50 / p99 |")
    print("| --- | --- | --- | --- | --- |")
    for (name, players, raw), (options, seed, log) in longest.items():
        if raw:
            continue
        replay_frames._replays.clear()
        paging, jumping = [], []
        for k in range(min(len(log), args.clicks) + 1):
            start = time.perf_counter()
            replay_frames.frame(name, players, options, seed, log[:k], None)
            paging.append((time.perf_counter() - start) * 1000)
        replay_frames._replays.clear()
        rng = Rng(5)
        for _ in range(args.clicks):
            k = rng.below(len(log) + 1)
            start = time.perf_counter()
            replay_frames.frame(name, players, options, seed, log[:k], None)
            jumping.append((time.perf_counter() - start) * 1000)
        print(f"| {name} | {players} | {len(log)} | {statistics.median(paging):.1f} / {percentile(paging, 99):.1f} ms "
              f"| {statistics.median(jumping):.1f} / {percentile(jumping, 99):.1f} ms |")


if __name__ == "__main__":
    main()
