"""How far hard's look-ahead could go against OSU's greedy baseline, 4 players (issue 44).

    nice -n 10 .venv/bin/python benchmarks/osu_ceiling.py [--games 200] [--budget 1000]

Hard, and the normal choice it is anchored on, score moves on re-seeded monkey dice: nobody knows
the future rolls. ``sees-dice`` plays hard's own search on the true dice instead, so every contest
it simulates rolls as the real game will, and the normal choice it is anchored on reads the three
greedy replies exactly but for their ties (the tree itself lets every seat search: max-n). One
seat against three greedy players on the baseline row's seeds and seats (``osu:4 hard-greedy``,
seating ``one``). Not a bot level: it bounds what any better handling of the dice can gain for
this search.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ai_strength import first_seed, score_of, seats_of_a, wilson  # noqa: E402
from games import get_game  # noqa: E402
from games.ai import baseline_action, hard  # noqa: E402
from games.base import copy_state  # noqa: E402
from games.osu.ai import OsuAI  # noqa: E402
from games.rng import Rng  # noqa: E402

CASE, PLAYERS = "osu:4", 4


class SeesDice(OsuAI):
    """Hard's search with the true future dice: no re-seeding, one roll per simulated move."""

    chance_samples = 1

    def determinize(self, game, state, seat, rng):
        return copy_state(state)

    def reply_rolls(self, game, state, seat):
        return 1


def play(game, cheat, seed: int, seat: int, budget: int) -> float:
    state = game.setup(PLAYERS, game.resolve_options({}, PLAYERS), seed)
    rng = Rng(seed * 7919 + 13)   # as ai_strength.play: the same games as the baseline row
    while game.outcome(state) is None:
        actor = min(game.to_act(state))
        legal = game.legal_actions(state, actor)
        if actor != seat:
            action = baseline_action(game, state, actor, rng, "greedy")
        elif len(legal) == 1:
            action = legal[0]
        else:
            action = hard(cheat, game, copy_state(state), seat, rng, budget, lambda: False)
        state, _ = game.apply(state, actor, action)
    return score_of(game, state, {seat})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--budget", type=int, default=OsuAI.hard_budget_4p, help="hard's iterations")
    args = parser.parse_args()
    game = get_game("osu")
    cheat, seed = SeesDice(), first_seed("hard-greedy")
    score = 0.0
    for i in range(args.games):
        (seat,) = seats_of_a(CASE, PLAYERS, i, "one")
        score += play(game, cheat, seed + i, seat, args.budget)
    low, high = wilson(score, args.games)
    print(f"sees-dice (budget {args.budget}) vs greedy  {100 * score / args.games:5.1f}% "
          f"[{100 * low:3.0f}%, {100 * high:3.0f}%]  n={args.games}", flush=True)


if __name__ == "__main__":
    main()
