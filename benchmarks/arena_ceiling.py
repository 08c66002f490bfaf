"""How far a one-turn best response can go against Arena Duel's greedy baseline (issue 44).

    nice -n 10 .venv/bin/python benchmarks/arena_ceiling.py [--games 200] [--first 0]
        [--players sees-all,sees-order,replica]

Hard answers a *modelled* greedy enemy: it cannot see the enemy's dice or order. Two players that
cheat show what that uncertainty costs, and one that does not shows what a perfect model is worth,
on the baseline rows' seeds (50000 + game number, seats alternating):

* ``sees-all``: knows greedy's real order and dice, and plays the order that scores best against
  them with its own dice (one turn deep, the game's evaluation). The ceiling of the evaluation.
* ``sees-order``: knows greedy's real order but not its dice; the best order against that order
  over sampled enemy dice (drawn as if the order told nothing about them).
* ``replica``: sees nothing hidden, and models greedy exactly: for each sampled enemy roll it
  runs greedy's own choice (over greedy's own sampled rolls of our dice), and plays the best order
  against those choices with its own dice. About the most a one-turn answer to greedy can be
  worth (at hard's 10 sampled rolls); it costs two to four times hard's CPU.

None is a bot level; they only bound what modelling the enemy better can gain.
"""

from __future__ import annotations

import argparse
import sys
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ai_strength import SEEDS, score_of, wilson  # noqa: E402
from games import get_game  # noqa: E402
from games.ai import baseline_action, game_ai  # noqa: E402
from games.arena.ai import GREEDY_ROLLS, before_orders, orders_of  # noqa: E402
from games.base import copy_state  # noqa: E402
from games.rng import Rng  # noqa: E402

DICE_SAMPLES = 30     # sees-order: sampled enemy dice per decision
REPLICA_ROLLS = 10    # replica: sampled enemy dice per decision (hard's own count)


def cheat(game, ai, state, seat, enemy_order, rng, sees_dice: bool) -> str:
    base = before_orders(state)
    dice = [state["dice"][1 - seat]] if sees_dice else [ai._dice(rng) for _ in range(DICE_SAMPLES)]
    return max(game.legal_actions(state, seat),
               key=lambda m: sum(ai._resolve(game, base, seat, m, d, enemy_order) for d in dice))


def replica(game, ai, state, seat, _unseen_order, rng) -> str:
    base = before_orders(state)
    mine = game.legal_actions(state, seat)
    theirs = orders_of(game, state, 1 - seat)
    expected = [0.0] * len(mine)
    for _ in range(REPLICA_ROLLS):
        dice = ai._dice(rng)
        greedy_view = copy_state(base)      # its own dice; ours it re-rolls itself
        greedy_view["dice"][1 - seat] = dice
        order = ai._against_uniform(game, greedy_view, 1 - seat, theirs, mine, rng, GREEDY_ROLLS)
        for i, m in enumerate(mine):
            expected[i] += ai._resolve(game, base, seat, m, dice, order)
    return mine[max(range(len(mine)), key=lambda i: (expected[i], -i))]


PLAYERS = {"sees-all": partial(cheat, sees_dice=True), "sees-order": partial(cheat, sees_dice=False),
           "replica": replica}


def play(game, ai, seed: int, seat: int, player) -> float:
    state = game.setup(2, game.resolve_options({}, 2), seed)
    rng = Rng(seed * 7919 + 13)
    planned = None   # greedy's order, decided before the cheat orders
    while game.outcome(state) is None:
        actor = min(game.to_act(state))
        if actor == seat:
            enemy = state["orders"][1 - seat]   # greedy ordered first: its order is in the state
            if enemy is None:
                enemy = planned = baseline_action(game, state, 1 - seat, rng, "greedy")
            action = player(game, ai, state, seat, enemy, rng)
        else:
            action = planned or baseline_action(game, state, actor, rng, "greedy")
            planned = None
        state, _ = game.apply(state, actor, action)
    return score_of(game, state, {seat})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first", type=int, default=0, help="the first game's number (to split a run)")
    parser.add_argument("--players", default=",".join(PLAYERS), help="comma-separated: " + ", ".join(PLAYERS))
    args = parser.parse_args()
    game = get_game("arena")
    ai = game_ai(game)
    games = range(args.first, args.first + args.games)
    for name in args.players.split(","):
        score = sum(play(game, ai, SEEDS["baselines"] + i, i % 2, PLAYERS[name]) for i in games)
        low, high = wilson(score, args.games)
        print(f"{name:11} vs greedy  {100 * score / args.games:5.1f}% [{100 * low:3.0f}%, {100 * high:3.0f}%]"
              f"  n={args.games} (games {args.first}-{games[-1]})", flush=True)


if __name__ == "__main__":
    main()
