"""What HOSTILE's AI levels weigh, next to the greedy baseline's choices in the same positions.

    nice -n 15 .venv/bin/python benchmarks/hostile_explain.py [--games 20] [--level normal]
        [--against greedy] [--players 2] [--seed 50000]

Plays ``--level`` against ``--against`` (seats alternating) and prints, per side: the share of
its decisions by kind (move, take, place, gem tile, skill, end ...), what its turns did on average
(action points spent and left unspent, gems collected, gem tiles used from hand, tiles taken,
the Manhattan distance to the nearest gem when the turn ends), its draft picks, and gems at the
end. At each of ``--level``'s decisions it also asks what the baseline would play in the same
position and counts where they differ, by kind of each choice, with the evaluation's own value
of both (so a disagreement shows which side the evaluation itself prefers).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import get_game  # noqa: E402
from games.ai import baseline_action, game_ai  # noqa: E402
from games.hostile.tiles import coords  # noqa: E402
from games.rng import Rng  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ai_strength import decide  # noqa: E402


def kind(action: str) -> str:
    verb = action.split(" ", 1)[0]
    if verb == "take":
        return "take gem tile" if action.split(" ")[1][0] in "ABCDEFGH" and action.split(" ")[1][1:].isdigit() else "take floor"
    return verb


def nearest_gem(state, seat: int) -> int | None:
    pos = state["pos"][seat]
    if not pos or not state["gems"]:
        return None
    c, r = coords(pos)
    return min(abs(c - gc) + abs(r - gr) for gc, gr in map(coords, state["gems"]))


class Side:
    def __init__(self):
        self.kinds = Counter()
        self.turns = Counter()
        self.turn_count = 0
        self.final = 0
        self.draft = Counter()

    def line(self, name: str) -> str:
        n = max(1, self.turn_count)
        total = sum(self.kinds.values()) or 1
        mix = ", ".join(f"{k} {100 * v / total:.0f}%" for k, v in self.kinds.most_common())
        per = ", ".join(f"{k} {v / n:.2f}" for k, v in sorted(self.turns.items()))
        return (f"{name}: {self.turn_count} turns; per turn: {per}\n"
                f"   decisions: {mix}\n   draft picks: {dict(self.draft)}")


def run(games: int, level: str, against: str, players: int, seed: int) -> None:
    game = get_game("hostile")
    ai = game_ai(game)
    sides = {level: Side(), against: Side()}
    differ = Counter()
    agree = 0
    for g in range(games):
        state = game.setup(players, game.resolve_options({}, players), seed + g)
        rng = Rng((seed + g) * 7919 + 13)
        a_seats = {g % 2} if players == 2 else set(range(g % 2, players, 2))
        open_turn: dict[int, dict] = {}
        while game.outcome(state) is None:
            seat = min(game.to_act(state))
            who = level if seat in a_seats else against
            side = sides[who]
            if state["phase"] == "turn" and seat not in open_turn:
                open_turn[seat] = {"score": state["score"][seat], "ap": state["turn"]["ap"], "gem": 0, "take": 0}
            action = decide(game, state, seat, rng, who)
            if who == level and state["phase"] in ("turn", "draft"):
                other = baseline_action(game, state, seat, Rng(rng.below(1 << 30)), against) \
                    if against in ("greedy", "pilot") else None
                if other is not None:
                    if other == action:
                        agree += 1
                    else:
                        mine = ai.score(game, ai.simulate(game, state, seat, action))[seat]
                        theirs = ai.score(game, ai.simulate(game, state, seat, other))[seat]
                        key = (kind(action), kind(other), "eval prefers " + ("mine" if mine > theirs else "greedy's"))
                        differ[key] += 1
            side.kinds[kind(action)] += 1
            if state["phase"] == "draft":
                side.draft[kind(action)] += 1
            t = open_turn.get(seat)
            if t is not None:
                t["gem"] += action.startswith("gem ")
                t["take"] += action.startswith("take ")
            before_ap = state["turn"]["ap"] if state["phase"] == "turn" else None
            state, _ = game.apply(state, seat, action)
            if t is not None and action == "end":
                side.turn_count += 1
                side.turns["AP unspent"] += before_ap
                side.turns["AP spent"] += t["ap"] - before_ap
                side.turns["gems collected"] += state["score"][seat] - t["score"]
                side.turns["gem tiles used"] += t["gem"]
                side.turns["tiles taken"] += t["take"]
                d = nearest_gem(state, seat)
                side.turns["distance to nearest gem"] += d if d is not None else 0
                del open_turn[seat]
        for s in range(players):
            sides[level if s in a_seats else against].final += state["score"][s]
    for name, side in sides.items():
        print(side.line(name))
        print(f"   gems at the end, per game and seat: {side.final / (games * players / 2):.1f}")
    print(f"{level} agreed with {against} on {agree} decisions; where they differ "
          f"({level}'s kind, {against}'s kind):")
    for key, count in differ.most_common(15):
        print(f"   {count:5}  {key}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--level", default="normal")
    ap.add_argument("--against", default="greedy")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seed", type=int, default=50_000)
    args = ap.parse_args()
    run(args.games, args.level, args.against, args.players, args.seed)


if __name__ == "__main__":
    main()
