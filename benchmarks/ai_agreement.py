"""Does more search change hard's choice? How often hard agrees with normal, per budget.

    nice -n 19 .venv/bin/python benchmarks/ai_agreement.py hostile 3 --positions 24 --budgets 10,40,160

Positions are taken from normal-vs-normal games (every ninth decision with a real choice); at each
one, normal and hard at every budget choose with the same seed. Printed: the share of positions
where hard (each budget) plays normal's move, the share where the smallest and largest budget agree,
and the mean seconds per hard decision. A search whose choice barely moves with 4-16x the budget,
or which mostly plays normal's move, cannot be much stronger than normal at that budget.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import get_game  # noqa: E402
from games.ai import choose_action, game_ai  # noqa: E402
from games.rng import Rng  # noqa: E402


def positions(game, players: int, count: int) -> list[tuple]:
    ai, out, seed = game_ai(game), [], 0
    while len(out) < count:
        state, rng, k = game.setup(players, game.resolve_options({}, players), seed), Rng(seed), 0
        while game.outcome(state) is None:
            seat = min(game.to_act(state))
            if k % 9 == 4 and len(ai.candidates(game, state, seat)) > 1:
                out.append((state, seat))
            state = game.apply(state, seat, choose_action(game, state, seat, rng, level="normal"))[0]
            k += 1
        seed += 1
    return out[:count]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("players", type=int)
    ap.add_argument("--positions", type=int, default=24)
    ap.add_argument("--budgets", default="10,40,160")
    args = ap.parse_args()
    game = get_game(args.game)
    budgets = [int(b) for b in args.budgets.split(",")]
    agree = {b: 0 for b in budgets}
    seconds = {b: 0.0 for b in budgets}
    ends_agree = 0
    found = positions(game, args.players, args.positions)
    for state, seat in found:
        normal = choose_action(game, state, seat, Rng(1), level="normal")
        chosen = []
        for b in budgets:
            t0 = time.perf_counter()
            chosen.append(choose_action(game, state, seat, Rng(1), level="hard", budget=b))
            seconds[b] += time.perf_counter() - t0
            agree[b] += chosen[-1] == normal
        ends_agree += chosen[0] == chosen[-1]
    n = len(found)
    print(f"{args.game} {args.players}p, {n} positions")
    for b in budgets:
        print(f"  hard {b:>5}: plays normal's move {100 * agree[b] / n:5.1f}%, {seconds[b] / n:.3f} s a decision")
    print(f"  hard {budgets[0]} and hard {budgets[-1]} choose the same: {100 * ends_agree / n:.1f}%")


if __name__ == "__main__":
    main()
