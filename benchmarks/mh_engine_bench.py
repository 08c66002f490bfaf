"""Monster Hunter engine figures: ``apply`` time per action (p50/p99, by action kind), ``view``
time, and ``legal_actions`` size and time at the largest decision points seen.

    .venv/bin/python benchmarks/mh_engine_bench.py [--games 30]

Random legal play (with a quarter of the moves by ``go``) at 2, 3 and 4 players. Prints figures;
asserts nothing (shared, noisy machines).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.monsterhunter.engine import MonsterHunter  # noqa: E402
from games.rng import Rng  # noqa: E402

GAME = MonsterHunter()


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=30, help="games per player count")
    args = parser.parse_args(argv)
    apply_ms: dict[str, list[float]] = {}
    view_ms: list[float] = []
    legal: list[tuple[int, float, str, str]] = []
    sizes: list[int] = []
    for players in (2, 3, 4):
        for seed in range(args.games):
            state = GAME.setup(players, {}, seed)
            rng = Rng(seed + 77)
            while GAME.outcome(state) is None:
                seat = sorted(GAME.to_act(state))[rng.below(len(GAME.to_act(state)))]
                t0 = time.perf_counter()
                actions = GAME.legal_actions(state, seat)
                t1 = time.perf_counter()
                decision = (GAME.view(state, seat)["me"]["decision"] or {}).get("kind", "?")
                legal.append((len(actions), (t1 - t0) * 1000, decision, f"{players}p seed {seed}"))
                action = "go" if rng.below(4) == 0 else rng.choice(actions)
                t0 = time.perf_counter()
                state, _ = GAME.apply(state, seat, action)
                t1 = time.perf_counter()
                apply_ms.setdefault(action.split()[0], []).append((t1 - t0) * 1000)
                t0 = time.perf_counter()
                GAME.view(state, None)
                view_ms.append((time.perf_counter() - t0) * 1000)
                sizes.append(len(json.dumps(state)))
    every = [x for v in apply_ms.values() for x in v]
    print(f"apply: {len(every)} actions, p50 {pct(every, .5):.2f} ms, p99 {pct(every, .99):.2f} ms, "
          f"max {max(every):.1f} ms")
    for kind, values in sorted(apply_ms.items(), key=lambda kv: -len(kv[1])):
        print(f"  {kind:8s} n={len(values):6d}  p50 {pct(values, .5):6.2f} ms  p99 {pct(values, .99):6.2f} ms")
    print(f"view(public): p50 {pct(view_ms, .5):.2f} ms, p99 {pct(view_ms, .99):.2f} ms")
    print(f"state JSON: p50 {pct(sizes, .5) / 1000:.1f} KB, max {max(sizes) / 1000:.1f} KB")
    by_kind: dict[str, list[tuple[int, float]]] = {}
    for n, ms, kind, _ in legal:
        by_kind.setdefault(kind, []).append((n, ms))
    print("legal_actions by decision: size p50 / max, time p50 / max")
    for kind, values in sorted(by_kind.items()):
        ns, ts = [v[0] for v in values], [v[1] for v in values]
        print(f"  {kind:8s} size {pct(ns, .5):4d} / {max(ns):4d}   time {pct(ts, .5):6.2f} / {max(ts):6.2f} ms")
    print("largest decision points:")
    for n, ms, kind, where in sorted(legal, reverse=True)[:5]:
        print(f"  {n:5d} actions in {ms:6.2f} ms ({kind}, {where})")


if __name__ == "__main__":
    main()
