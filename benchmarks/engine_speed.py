"""Engine speed for AI search: simulated actions per second per game, and a same-result check.

    nice -n 10 .venv/bin/python benchmarks/engine_speed.py [--games 6] [--check]

Plays seeded random games (``level="random"``) and reports, per game and player count:

* ``apply/s``: public ``Game.apply`` calls per second (legality checks + copy + rules), what a
  replay or the bot does;
* ``sim/s``: actions per second on the search path the AI uses (``games.ai.simulate``: legal
  actions of the seat to act, one chosen, fast copy + rules without re-checking legality) --
  the "simulated actions per second" of a playout;
* ``copy us``: microseconds per state copy (``games.base.copy_state``) vs ``copy.deepcopy``.

``--check`` replays every game with ``copy.deepcopy`` in place of the fast copy and asserts the
states are identical, so a speed-up can be shown not to change any result. Prints figures;
asserts nothing else (the machine is shared and noisy).
"""

from __future__ import annotations

import argparse
import copy
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import games.base as base  # noqa: E402
from games import get_game  # noqa: E402
from games.ai import simulate  # noqa: E402
from games.rng import Rng  # noqa: E402

CASES = [("squares", 2, {}), ("arena", 2, {}), ("osu", 2, {}), ("osu", 4, {}),
         ("hostile", 2, {}), ("hostile", 3, {}), ("hostile", 4, {})]


def random_game(game, players, options, seed):
    """(seat, action) log and the states of one seeded random game, through the public apply."""
    rng = Rng(seed * 31 + 7)
    state = game.setup(players, options, seed)
    log, states = [], [state]
    while game.outcome(state) is None:
        seat = min(game.to_act(state))
        action = rng.choice(game.legal_actions(state, seat))
        state, _ = game.apply(state, seat, action)
        log.append((seat, action))
        states.append(state)
    return log, states


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--check", action="store_true", help="replay with copy.deepcopy and compare")
    args = ap.parse_args()
    print(f"{'game':10} {'n':>2} {'apply/s':>9} {'sim/s':>9} {'copy us':>8} {'deepcopy us':>11} {'check':>6}")
    for name, players, options in CASES:
        game = get_game(name)
        t0 = time.perf_counter()
        logs, all_states = [], []
        for seed in range(args.games):
            log, states = random_game(game, players, options, seed)
            logs.append(log)
            all_states.append(states)
        applied = sum(len(log) for log in logs)
        apply_rate = applied / (time.perf_counter() - t0)
        # the search path: legal actions + simulate, as a random playout inside MCTS does
        t0, sims = time.perf_counter(), 0
        for seed in range(args.games):
            rng = Rng(seed)
            state = game.setup(players, options, seed)
            while game.outcome(state) is None:
                seat = min(game.to_act(state))
                state = simulate(game, state, seat, rng.choice(game.legal_actions(state, seat)))
                sims += 1
        sim_rate = sims / (time.perf_counter() - t0)
        sample = [s for states in all_states for s in states[::5]]
        t0 = time.perf_counter()
        for s in sample:
            base.copy_state(s)
        fast = (time.perf_counter() - t0) / len(sample) * 1e6
        t0 = time.perf_counter()
        for s in sample:
            copy.deepcopy(s)
        deep = (time.perf_counter() - t0) / len(sample) * 1e6
        check = "-"
        saved = base.copy_state
        if args.check:
            # the old behaviour: copy.deepcopy wherever an engine copies a state
            patched = [m for m in list(sys.modules.values())
                       if getattr(m, "__name__", "").startswith("games") and getattr(m, "copy_state", None) is saved]
            for module in patched:
                module.copy_state = copy.deepcopy
            try:
                for seed, (log, states) in enumerate(zip(logs, all_states)):
                    state = game.setup(players, options, seed)
                    for (seat, action), expected in zip(log, states[1:]):
                        state, _ = game.apply(state, seat, action)
                        assert state == expected, f"{name} seed {seed}: fast copy changed a result"
            finally:
                for module in patched:
                    module.copy_state = saved
            check = "same"
        print(f"{name:10} {players:>2} {apply_rate:>9.0f} {sim_rate:>9.0f} {fast:>8.1f} {deep:>11.1f} {check:>6}")


if __name__ == "__main__":
    main()
