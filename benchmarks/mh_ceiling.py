"""How far Monster Hunter's hard level could go against the autopilot, 2 players (issue 44).

    nice -n 10 .venv/bin/python benchmarks/mh_ceiling.py [--games 200] [--only sees-all,sees-rival]

Hard plays its candidates out on re-deals of everything its seat cannot see. Two players that
cheat show what that costs, on the baseline row's seeds and seats (``mh:2 hard-pilot``, seating
``one``), playing hard's own search with the re-deal replaced:

* ``sees-all``: no re-deal at all, one deal, the true one: it also knows both decks' order, the
  future draws. Out of anyone's reach; the ceiling of the search itself.
* ``sees-rival``: knows the rival's hand, face-down monster cards and secret answers; only the
  decks' order is re-dealt (hard's 16 deals). What a perfect reading of the rival would be worth.

Neither is a bot level; they only bound what a better model of the hidden cards can gain.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ai_strength import first_seed, play, seats_of_a, wilson  # noqa: E402
from games import get_game  # noqa: E402
from games.ai import game_ai  # noqa: E402
from games.base import copy_state  # noqa: E402

CASE, PLAYERS = "mh:2", 2


def true_deal(state, rng):
    return copy_state(state)


def decks_redealt(state, rng):
    new = copy_state(state)
    for s in new["seats"]:
        s["deck"] = rng.shuffled(s["deck"])
    return new


CHEATS = {"sees-all": (true_deal, 1), "sees-rival": (decks_redealt, None)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--only", default=",".join(CHEATS))
    args = parser.parse_args()
    game = get_game("monsterhunter")
    ai = game_ai(game)
    for name in args.only.split(","):
        redeal, budget = CHEATS[name]
        ai.determinize = lambda game, state, seat, rng, redeal=redeal: redeal(state, rng)  # this process only
        budgets = {"hard": budget} if budget else {}
        score = sum(play(game, PLAYERS, {}, seats_of_a(CASE, PLAYERS, i, "one"), ("hard", "pilot"),
                         first_seed("hard-pilot") + i, budgets, {})
                    for i in range(args.games))
        low, high = wilson(score, args.games)
        print(f"{name:10} vs pilot  {100 * score / args.games:5.1f}% [{100 * low:3.0f}%, {100 * high:3.0f}%]"
              f"  n={args.games}", flush=True)


if __name__ == "__main__":
    main()
