"""How strong the AI levels are: win rates per game and player count, decision times, engine speed.

    nice -n 10 .venv/bin/python benchmarks/ai_strength.py [--games 200] [--only osu:4,arena]
        [--pairings hard-random,normal-random] [--budget hard=300] [--jsonl results.jsonl]

For every case (squares 2; arena 2; osu 2 and 4; hostile 2, 3 and 2v2; mh 2, 3 and 4) and every pairing
(hard vs random, normal vs random, hard vs normal, easy vs random) it plays ``--games`` games
with seats swapped evenly and prints A's score (wins, draws counted half) with a 95% Wilson
interval, the p50/p95 time per decision of each level (wall clock; A's also in CPU time of the
process, which other jobs on the machine inflate less), and the engine's simulated actions per
second (random playouts through ``games.ai.simulate``). ``--row-seconds`` caps a row's time (it
then stops after a whole round of seat swaps and prints the games it played).

Seating (``--seating``): two players: A and B alternate seats 0 and 1. HOSTILE 2v2: A is one team
(seats 0+1 or 2+3, alternating). Other 3 and 4 player cases, ``balanced`` (the default): A and B
share the seats, so chance level is 50% as in two players: 4 players, A holds seats 0+2 or 1+3
(alternating); 3 players, A holds two seats in one game and one seat in the next, rotating, so
over 6 games each level sits in each seat equally. A scores when one of its seats wins.
``one``: A plays one seat (rotating) against B on all the others, a stricter test whose chance
level is 33% or 25%.

Baselines (issue 44, ``--pairings baselines``): normal and hard against ``greedy`` (one move deep on
the game's evaluation) and ``pilot`` (the game's autopilot), on seeds 50000 + game number. Targets:
normal >= 70% in two players and HOSTILE 2v2, one seat >= 50% in 3 and >= 40% in 4 players; hard
>= 90%, 65%, 55%. ``benchmarks/hostile_explain.py`` shows what HOSTILE's levels do next to greedy.

Targets (issue 16): hard vs random >= 95%, normal vs random >= 85%, hard vs normal >= 60%,
easy vs random 55-80%. Games and seeds are fixed, so a rerun with the same flags plays the same
games (decision times aside), and ``--first`` splits a row into parts that add up to the same
games. Each finished row is also written to ``--jsonl`` if given; ``--table FILE...`` adds up the parts
of each row across such files (refusing parts that overlap) and prints the table without playing.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import get_game  # noqa: E402
from games.ai import BASELINES, baseline_action, choose_action, simulate  # noqa: E402
from games.rng import Rng  # noqa: E402

CASES = {
    "squares": ("squares", 2, {}),
    "arena": ("arena", 2, {}),
    "osu:2": ("osu", 2, {}),
    "osu:4": ("osu", 4, {}),
    "hostile:2": ("hostile", 2, {}),
    "hostile:3": ("hostile", 3, {}),
    "hostile:2v2": ("hostile", 4, {"teams": "12-34"}),
    "mh:2": ("monsterhunter", 2, {}),
    "mh:3": ("monsterhunter", 3, {}),
    "mh:4": ("monsterhunter", 4, {}),
}
PAIRINGS = ("hard-random", "normal-random", "hard-normal", "easy-random")
# against the baselines of issue 44 (``games.ai.baseline_action``): greedy, one move deep on the
# game's evaluation, and pilot, the game's own autopilot (Monster Hunter's ``go``)
BASELINE_PAIRINGS = ("normal-greedy", "hard-greedy", "normal-pilot", "hard-pilot")
# the baseline rows play seeds of their own (the level rows use 10000 + game number)
SEEDS = {"levels": 10_000, "baselines": 50_000}
TEAM_CASES = {"hostile:2v2": ({0, 1}, {2, 3})}


def seats_of_a(key: str, players: int, game_index: int, seating: str = "balanced") -> set[int]:
    """The seats level A plays in game ``game_index`` (the rest play level B)."""
    if players == 2:
        return {game_index % 2}
    if key in TEAM_CASES:
        return set(TEAM_CASES[key][game_index % 2])
    if seating == "one":
        return {game_index % players}
    if players == 4:
        return {0, 2} if game_index % 2 == 0 else {1, 3}
    lone = (game_index // 2) % players   # 3 players: A on two seats, then on one, rotating
    return {lone} if game_index % 2 else set(range(players)) - {lone}


def seat_swap_round(key: str, players: int, seating: str) -> int:
    """Games after which every seat has been held equally by A and B."""
    if players == 2 or key in TEAM_CASES or (seating == "balanced" and players == 4):
        return 2
    return players if seating == "one" else 2 * players


def chance_level(key: str, players: int, seating: str) -> float:
    """A's expected score when A and B are equally strong."""
    if seating == "one" and players > 2 and key not in TEAM_CASES:
        return 1 / players
    return 0.5


def first_seed(pairing: str, seed: int | None = None) -> int:
    """Game 0's seed for ``pairing``: ``seed`` if given, else its range in :data:`SEEDS`."""
    if seed is not None:
        return seed
    return SEEDS["baselines" if set(pairing.split("-")) & set(BASELINES) else "levels"]


def decide(game, state, seat, rng, level, budget=None) -> str:
    """``level``'s action: an AI level, or a baseline (greedy, pilot)."""
    if level in BASELINES:
        return baseline_action(game, state, seat, rng, level)
    return choose_action(game, state, seat, rng, level=level, budget=budget)


def play(game, players, options, a_seats, levels, seed, budgets, times, cpu=None):
    """One game; returns A's score (1 win, 0.5 draw, 0 loss)."""
    state = game.setup(players, game.resolve_options(options, players), seed)
    rng = Rng(seed * 7919 + 13)
    while game.outcome(state) is None:
        seat = min(game.to_act(state))
        level = levels[0] if seat in a_seats else levels[1]
        t0, c0 = time.perf_counter(), time.process_time()
        action = decide(game, state, seat, rng, level, budgets.get(level))
        times.setdefault(level, []).append(time.perf_counter() - t0)
        if cpu is not None:   # CPU time of this process: less inflated by other jobs than wall time
            cpu.setdefault(level, []).append(time.process_time() - c0)
        state, _ = game.apply(state, seat, action)
    return score_of(game, state, a_seats)


def score_of(game, state, a_seats: set[int]) -> float:
    """A's score in a finished game: 1 when one of ``a_seats`` won, 0.5 for a draw, else 0."""
    out = game.outcome(state)
    if out.draw or not out.winners:
        return 0.5
    return 1.0 if set(out.winners) & a_seats else 0.0


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def sims_per_second(game, players, options, seconds: float = 1.0) -> float:
    """Random playouts through the search's engine path, for about ``seconds``."""
    count, t0, seed = 0, time.perf_counter(), 0
    while time.perf_counter() - t0 < seconds:
        rng, state = Rng(seed), game.setup(players, game.resolve_options(options, players), seed)
        while game.outcome(state) is None:
            seat = min(game.to_act(state))
            state = simulate(game, state, seat, rng.choice(game.legal_actions(state, seat)))
            count += 1
        seed += 1
    return count / (time.perf_counter() - t0)


def combined_rows(lines: list[str]) -> list[dict]:
    """The rows of a ``--jsonl`` file with the parts of each (case, pairing, seating) added up."""
    parts: dict[tuple, list[dict]] = {}
    for line in lines:
        if line.strip():
            row = json.loads(line)
            parts.setdefault((row["case"], row["pairing"], row["seating"]), []).append(row)
    out = []
    for (case, pairing, seating), rows in parts.items():
        spans = sorted((row.get("first", 0), row.get("first", 0) + row["games"]) for row in rows)
        for (_, end), (start, _) in zip(spans, spans[1:]):
            if start < end:
                raise ValueError(f"{case} {pairing}: parts overlap ({spans})")
        games = sum(row["games"] for row in rows)
        score = sum(row["score"] * row["games"] for row in rows)
        out.append({"case": case, "pairing": pairing, "seating": seating, "games": games,
                    "score": score / games, "ci": list(wilson(score, games)), "spans": spans,
                    "a_cpu_ms": [max(row["a_cpu_ms"][i] for row in rows) for i in (0, 1)],
                    "wall_minutes": sum(row["seconds"] for row in rows) / 60})
    return out


def print_table(paths: list[str]) -> None:
    print(f"{'case':12} {'pairing':14} {'seating':8} {'games':>5} {'A score':>8} {'95% CI':>13}  "
          f"{'A cpu p50/p95 ms (worst part)':>29}  {'minutes':>7}  parts", flush=True)
    lines = [line for path in paths for line in Path(path).read_text(encoding="utf-8").splitlines()]
    for row in sorted(combined_rows(lines), key=lambda r: (r["case"], r["pairing"], r["seating"])):
        low, high = row["ci"]
        print(f"{row['case']:12} {row['pairing']:14} {row['seating']:8} {row['games']:>5} "
              f"{100 * row['score']:>7.1f}% [{100 * low:4.0f}%,{100 * high:4.0f}%]  "
              f"{row['a_cpu_ms'][0]:>14.0f}/{row['a_cpu_ms'][1]:<14.0f}  {row['wall_minutes']:>7.1f}  {row['spans']}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="games per pairing and case")
    ap.add_argument("--only", default="", help="comma-separated cases: " + ", ".join(CASES))
    ap.add_argument("--pairings", default="levels",
                    help="comma-separated A-B pairings, or 'levels' (" + ", ".join(PAIRINGS) + ") or "
                         "'baselines' (" + ", ".join(BASELINE_PAIRINGS) + ")")
    ap.add_argument("--budget", action="append", default=[],
                    help="level=count for every case (hard=150), or per game/case (hostile:hard=40)")
    ap.add_argument("--row-seconds", type=float, default=0.0,
                    help="stop a row once it has run this long (at a whole round of seat swaps); 0 = never")
    ap.add_argument("--seating", choices=("balanced", "one"), default="balanced",
                    help="3 and 4 players: A and B share the seats, or A holds one seat against B")
    ap.add_argument("--seed", type=int, default=None,
                    help="seed of game 0 (game i is seeded seed + i); default 10000, and 50000 for "
                         "pairings against a baseline (greedy, pilot)")
    ap.add_argument("--first", type=int, default=0,
                    help="first game number: rows split as --first 0 --games 100 and --first 100 "
                         "--games 100 play the same games, seats and seeds as one 200-game row")
    ap.add_argument("--jsonl", default="", help="append each finished row here")
    ap.add_argument("--table", nargs="+", default=[], metavar="FILE",
                    help="print the rows of --jsonl files, parts added up across them; play nothing")
    args = ap.parse_args()
    if args.table:
        print_table(args.table)
        return
    # "hard=150" for every case, "hostile:hard=40" for one game ("hostile:2v2:hard=40" one case)
    budget_rules = [(k.rpartition(":")[0], k.rpartition(":")[2], int(v)) for k, v in (b.split("=") for b in args.budget)]

    def budgets_for(key: str) -> dict[str, int]:
        out = {}
        for scope, level, count in sorted(budget_rules, key=lambda r: len(r[0])):
            if scope in ("", key, key.split(":")[0]):
                out[level] = count
        return out

    keys = [k for k in (args.only.split(",") if args.only else CASES) if k]
    named = {"levels": PAIRINGS, "baselines": BASELINE_PAIRINGS}
    pairings = [q for p in args.pairings.split(",") if p for q in named.get(p, (p,))]
    print(f"games per row: {args.games}; budgets: {args.budget or 'defaults'}; seating: {args.seating}",
          flush=True)
    print(f"{'case':12} {'pairing':14} {'games':>5} {'A score':>8} {'95% CI':>13}  "
          f"{'A p50/p95 ms':>14} {'B p50/p95 ms':>14}", flush=True)
    all_times: dict[str, list[float]] = {}
    for key in keys:
        name, players, options = CASES[key]
        game = get_game(name)
        budgets = budgets_for(key)
        for pairing in pairings:
            levels = tuple(pairing.split("-"))
            if "pilot" in levels and getattr(game, "suggest", None) is None:
                continue   # no autopilot: its rows would repeat the greedy ones
            times: dict[str, list[float]] = {}
            cpu: dict[str, list[float]] = {}
            score, played, started = 0.0, 0, time.perf_counter()
            swap_round = seat_swap_round(key, players, args.seating)
            for i in range(args.first, args.first + args.games):
                score += play(game, players, options, seats_of_a(key, players, i, args.seating), levels,
                              first_seed(pairing, args.seed) + i, budgets, times, cpu)
                played += 1
                if (args.row_seconds and time.perf_counter() - started > args.row_seconds
                        and played % swap_round == 0):
                    break
            low, high = wilson(score, played)
            a_t, b_t = times.get(levels[0], []), times.get(levels[1], [])
            for level, ts in times.items():
                all_times.setdefault(level, []).extend(ts)
            row = {"case": key, "pairing": pairing, "seating": args.seating, "first": args.first,
                   "chance": chance_level(key, players, args.seating), "games": played,
                   "seconds": round(time.perf_counter() - started, 1), "score": score / played,
                   "ci": [low, high], "a_ms": [1000 * pct(a_t, 0.5), 1000 * pct(a_t, 0.95)],
                   "b_ms": [1000 * pct(b_t, 0.5), 1000 * pct(b_t, 0.95)], "budgets": budgets,
                   "a_cpu_ms": [1000 * pct(cpu.get(levels[0], []), q) for q in (0.5, 0.95)],
                   "b_cpu_ms": [1000 * pct(cpu.get(levels[1], []), q) for q in (0.5, 0.95)]}
            print(f"{key:12} {pairing:14} {played:>5} {100 * score / played:>7.1f}% "
                  f"[{100 * low:4.0f}%,{100 * high:4.0f}%]  "
                  f"{row['a_ms'][0]:>6.1f}/{row['a_ms'][1]:<7.1f} {row['b_ms'][0]:>6.1f}/{row['b_ms'][1]:<7.1f}"
                  f"  A cpu {row['a_cpu_ms'][0]:.0f}/{row['a_cpu_ms'][1]:.0f} ms"
                  f"  (chance {100 * row['chance']:.0f}%)",
                  flush=True)
            if args.jsonl:
                with open(args.jsonl, "a", encoding="utf-8") as f:
                    f.write(json.dumps(row) + "\n")
        print(f"{key:12} simulated actions/s: {sims_per_second(game, players, options):.0f}", flush=True)
    print("decision time per level over all rows (ms):", flush=True)
    for level in ("easy", "normal", "hard", "random", "greedy", "pilot"):
        if level in all_times:
            ts = all_times[level]
            print(f"  {level:7} p50 {1000 * pct(ts, 0.5):8.1f}  p95 {1000 * pct(ts, 0.95):8.1f}  "
                  f"({len(ts)} decisions)", flush=True)


if __name__ == "__main__":
    main()
