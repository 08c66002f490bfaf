"""Monster Hunter balance figures from the real engine played by the heuristic (``go``) in every
seat (MONSTER_HUNTER.md 3.8): turns per game, decisions and waits per turn with and without
standing policies, how games end, win rate per hunter and per seat.

    .venv/bin/python benchmarks/mh_balance.py [--games 1000] [--players 2 3 4]

Hunters, sheets and ready decks are dealt at random (O:loadout=random) so the hunters' win rates
are not tied to seats. "Decisions" counts every answer a player gives (``go``); "waits" counts the
rounds a game waits on players: each step (P, M, K) once, and in each hunt the decision rounds of
its slowest area (the areas are hunted in parallel). With policies every seat first sets
``atk:auto def:retreat keep:auto disc:none`` (those settings are not counted as decisions).
Last, one heuristic seat plays against random legal players. Re-run after any change of the data
files. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.monsterhunter.engine import MonsterHunter  # noqa: E402

GAME = MonsterHunter()
POLICIES = ("auto atk:auto", "auto def:retreat", "auto keep:auto", "auto disc:none")


def step_keys(state: dict) -> list[tuple]:
    """The open waits: a step (P, M, K), or each area's current decision round in the hunt."""
    if state["phase"] != "hunt":
        return [(state["turn"], state["phase"], None)]
    return [(state["turn"], "hunt", a["area"], a["await"]["kind"], a["await"].get("seat"), a["await"].get("monster"),
             len(a["acted"])) for a in state["hunt"]["areas"] if a["await"] and not a["done"]]


def count_waits(keys: set[tuple]) -> int:
    """Steps once each; the hunt of a turn as many rounds as its slowest area needs (areas run in
    parallel)."""
    rounds: Counter = Counter()
    steps = 0
    for key in keys:
        if key[1] == "hunt":
            rounds[(key[0], key[2])] += 1
        else:
            steps += 1
    per_turn: Counter = Counter()
    for (turn, _), n in rounds.items():
        per_turn[turn] = max(per_turn[turn], n)
    return steps + sum(per_turn.values())


def play(players: int, seed: int, policies: bool) -> dict:
    state = GAME.setup(players, {"loadout": "random"}, seed)
    hunters = [s["hunter"] for s in state["seats"]]
    decisions = 0
    steps: set[tuple] = set()
    configured: set[int] = set()
    kinds: Counter = Counter()
    while GAME.outcome(state) is None:
        steps.update(step_keys(state))
        seat = min(GAME.to_act(state))
        if policies and seat not in configured:
            for action in POLICIES:
                if action in GAME.legal_actions(state, seat):
                    state, _ = GAME.apply(state, seat, action)
            configured.add(seat)
            continue
        kinds[(GAME.view(state, seat)["me"]["decision"] or {}).get("kind")] += 1
        state, _ = GAME.apply(state, seat, "go")
        decisions += 1
    waits = count_waits(steps)
    outcome = GAME.outcome(state)
    return {"turns": state["turn"], "decisions": decisions, "waits": waits, "winners": outcome.winners,
            "reason": outcome.reason, "hunters": hunters, "kinds": kinds,
            "retreats": sum(s["retreats"] for s in state["seats"]), "hr": [s["hr"] for s in state["seats"]]}


def report(players: int, games: int) -> None:
    t0 = time.perf_counter()
    runs = [play(players, seed, False) for seed in range(games)]
    with_policies = [play(players, seed, True) for seed in range(games)]
    elapsed = time.perf_counter() - t0
    turns = [r["turns"] for r in runs]
    deciles = statistics.quantiles(turns, n=10) if len(turns) > 1 else [turns[0]] * 9
    print(f"== {players} players, {games} games ({elapsed:.1f} s)")
    print(f"turns: mean {statistics.mean(turns):.2f}, median {statistics.median(turns):g}, "
          f"10th-90th percentile {deciles[0]:g}-{deciles[-1]:g}, max {max(turns)}")
    for label, rs in (("answering everything", runs), ("with standing policies", with_policies)):
        t = sum(r["turns"] for r in rs)
        print(f"{label}: {sum(r['decisions'] for r in rs) / t:.2f} decisions and "
              f"{sum(r['waits'] for r in rs) / t:.2f} waits per turn "
              f"({statistics.mean(r['waits'] for r in rs):.1f} waits per game)")
    kinds = sum((r["kinds"] for r in runs), Counter())
    total = sum(r["turns"] for r in runs)
    print("decisions per turn by kind: " + ", ".join(f"{k} {v / total:.2f}" for k, v in kinds.most_common()))
    reasons = Counter(r["reason"] for r in runs)
    print("ended by: " + ", ".join(f"{k} {v / games:.1%}" for k, v in reasons.most_common()))
    print(f"retreats per player per game: {sum(r['retreats'] for r in runs) / games / players:.2f}")
    share = 1 / players
    wins: Counter = Counter()
    seats: Counter = Counter()
    played: Counter = Counter()
    for r in runs:
        for seat, hunter in enumerate(r["hunters"]):
            played[hunter] += 1
            if seat in r["winners"]:
                wins[hunter] += 1 / len(r["winners"])
                seats[seat] += 1 / len(r["winners"])
    print("win rate by hunter: " + ", ".join(f"{h} {wins[h] / played[h]:.2f}" for h in sorted(played))
          + f" (fair share {share:.2f})")
    print("win rate by seat: " + ", ".join(f"{s} {seats[s] / games:.2f}" for s in range(players)))


def versus_random(players: int, games: int) -> float:
    """Share of games won by one heuristic seat (seat 0) against uniformly random legal players."""
    from games.rng import Rng

    won = 0.0
    for seed in range(games):
        state = GAME.setup(players, {"loadout": "random"}, seed)
        rng = Rng(seed)
        while GAME.outcome(state) is None:
            seat = min(GAME.to_act(state))
            action = "go" if seat == 0 else rng.choice(GAME.legal_actions(state, seat))
            state, _ = GAME.apply(state, seat, action)
        winners = GAME.outcome(state).winners
        won += (0 in winners) / len(winners)
    return won / games


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000, help="games per player count")
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4])
    args = parser.parse_args(argv)
    for players in args.players:
        report(players, args.games)
    for players in args.players:
        print(f"one heuristic seat against {players - 1} random: wins {versus_random(players, args.games):.0%}")


if __name__ == "__main__":
    main()
