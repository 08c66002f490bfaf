"""What asking for an undo and rating a finished game cost.

    nice -n 10 .venv/bin/python benchmarks/undo_rating_bench.py

* ``undo check``: an undo request replays the game's standing log from its seed (to check the
  log reproduces the stored state, and to find the position before the action); the figure is
  that replay plus every ``undoable`` check, for a long random game of each kind;
* ``rate``: one Plackett-Luce update (bot/common/ratings.py) for 2 players, 2 vs 2 and 4 players.

Prints figures; asserts nothing (the machine is shared and noisy).
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.common.ratings import Rating, rate  # noqa: E402
from bot.storage.undo_log import rebuild  # noqa: E402
from bot.storage.rows import ActionRow  # noqa: E402
from games import all_games  # noqa: E402


def random_log(game, players: int, seed: int, limit: int) -> list[ActionRow]:
    rng = random.Random(seed)
    state = game.setup(players, game.resolve_options({}, players), seed)
    log = []
    while len(log) < limit and game.outcome(state) is None:
        seat = rng.choice(sorted(game.to_act(state)))
        action = rng.choice(game.legal_actions(state, seat))
        state, _ = game.apply(state, seat, action)
        log.append(ActionRow(len(log) + 1, seat, 1, action, len(log) + 1, ""))
    return log


def main() -> None:
    print(f"{'game':<16}{'players':>8}{'actions':>9}{'undo check ms':>15}")
    for game in all_games():
        players = max(game.player_counts())
        log = random_log(game, players, 7, 400)
        options = game.resolve_options({}, players)
        runs = []
        for _ in range(3):
            t = time.perf_counter()
            _, steps = rebuild(game, players, options, 7, log)
            [game.undoable(s.before, s.after, s.events) for s in steps]
            runs.append(time.perf_counter() - t)
        print(f"{game.name:<16}{players:>8}{len(log):>9}{min(runs) * 1000:>15.1f}")
    for label, teams in (("2 players", [[Rating()], [Rating()]]), ("2 vs 2", [[Rating(), Rating()]] * 2),
                         ("4 players", [[Rating()]] * 4)):
        n = 20000
        t = time.perf_counter()
        for _ in range(n):
            rate(teams, list(range(len(teams))))
        print(f"rate {label}: {(time.perf_counter() - t) / n * 1e6:.1f} us")


if __name__ == "__main__":
    main()
