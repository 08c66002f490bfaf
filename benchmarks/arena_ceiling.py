"""How far a one-turn best response can go against Arena Duel's greedy baseline (issue 44).

    nice -n 10 .venv/bin/python benchmarks/arena_ceiling.py [--games 200]

Hard answers a *modelled* greedy enemy: it cannot see the enemy's dice or order. Two players that
cheat show what that uncertainty costs, on the baseline rows' seeds (50000 + game number, seats
alternating):

* ``sees-all``: knows greedy's real order and dice, and plays the order that scores best against
  them with its own dice (one turn deep, the game's evaluation). The ceiling of the evaluation.
* ``sees-order``: knows greedy's real order but not its dice; the best order against that order
  over sampled enemy dice. What a perfect prediction of greedy's choice would be worth.

Neither is a bot level; they only bound what modelling the enemy better can gain.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ai_strength import SEEDS, score_of, wilson  # noqa: E402
from games import get_game  # noqa: E402
from games.ai import baseline_action, game_ai  # noqa: E402
from games.arena.ai import before_orders  # noqa: E402
from games.rng import Rng  # noqa: E402

DICE_SAMPLES = 30   # sees-order: sampled enemy dice per decision


def cheat(game, ai, state, seat, enemy_order, rng, sees_dice: bool) -> str:
    base = before_orders(state)
    dice = [state["dice"][1 - seat]] if sees_dice else [ai._dice(rng) for _ in range(DICE_SAMPLES)]
    return max(game.legal_actions(state, seat),
               key=lambda m: sum(ai._resolve(game, base, seat, m, d, enemy_order) for d in dice))


def play(game, ai, seed: int, seat: int, sees_dice: bool) -> float:
    state = game.setup(2, game.resolve_options({}, 2), seed)
    rng = Rng(seed * 7919 + 13)
    planned = None   # greedy's order, decided before the cheat orders
    while game.outcome(state) is None:
        actor = min(game.to_act(state))
        if actor == seat:
            enemy = state["orders"][1 - seat]   # greedy ordered first: its order is in the state
            if enemy is None:
                enemy = planned = baseline_action(game, state, 1 - seat, rng, "greedy")
            action = cheat(game, ai, state, seat, enemy, rng, sees_dice)
        else:
            action = planned or baseline_action(game, state, actor, rng, "greedy")
            planned = None
        state, _ = game.apply(state, actor, action)
    return score_of(game, state, {seat})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    game = get_game("arena")
    ai = game_ai(game)
    for name, sees_dice in (("sees-all", True), ("sees-order", False)):
        score = sum(play(game, ai, SEEDS["baselines"] + i, i % 2, sees_dice) for i in range(args.games))
        low, high = wilson(score, args.games)
        print(f"{name:11} vs greedy  {100 * score / args.games:5.1f}% [{100 * low:3.0f}%, {100 * high:3.0f}%]"
              f"  n={args.games}", flush=True)


if __name__ == "__main__":
    main()
