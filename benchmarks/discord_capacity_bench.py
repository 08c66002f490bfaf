"""Capacity through Discord's side (issue #33): clicks and ``/play`` timed until the board is posted.

The real bot (``python -m bot``, SQLite, its worker pool, ``WARM_SPRITES=1`` as deployed) runs
against the local Discord stand-in on loopback. For each number of games, that many games (every
kind in turn, two people each, a channel each) are opened, then all act at once for ``--actions``
actions each or ``--seconds``, whichever ends first: each action clicks a button of the board (of
the player's DM panel in games with secrets) or types ``/play``, at random, as soon as the
previous board is posted. Timed per action: from sending the interaction until its reply arrived
and its board was posted on the stand-in (the PNG uploaded), or the bot marked that version
delivered. Printed with the goal beside each figure: actions/s, p50, p99, failures (refused,
errors), the CPU per action of the bot's processes (main, fork server, workers), and apart the
CPU of this process (the stand-in and the scripted people).

    .venv/bin/python benchmarks/discord_capacity_bench.py [--games 1 10 50 100] [--actions 20]
        [--seconds 60] [--baseline PATH] [--validate]

``--baseline PATH`` runs a bot from another checkout (e.g. ``git worktree add /tmp/base main``)
too, alternating with this one, so before and after share the machine's moment. ``--validate``
keeps the stand-in's payload checks on (off by default: they are its CPU, not the bot's).
Nothing is asserted: these are figures.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

import standin  # noqa: I001  (puts the repository on the path)
from standin import ROOT, cpu_seconds, load, memory_line, percentile, tables, tree  # noqa: E402

from tests.e2e.database import SqliteDatabase  # noqa: E402
from tests.e2e.test_bot_e2e import BotProcess  # noqa: E402

GOAL_RATE, GOAL_P99_MS, GOAL_AT = 300.0, 250.0, 50


async def measure(games: int, actions: int, seconds: float, root: Path, warm: str = "1") -> dict:
    fake, users, channels = standin.make_world(games)
    await fake.start()
    with tempfile.TemporaryDirectory() as tmp, SqliteDatabase(Path(tmp) / "games.sqlite3") as database:
        bot = BotProcess(fake, Path(tmp) / "games.sqlite3", Path(tmp), log_level="WARNING", database=database,
                         root=root, env={"WARM_SPRITES": warm, "TABLETOP_CHECK_IMAGES": "0"})
        try:
            await bot.start()
            await fake.wait_for_commands(timeout=60)
            played = tables(fake, database, users, channels, games)
            await asyncio.gather(*(t.open() for t in played))
            pids = tree(bot.proc.pid)
            cpu0, main0 = cpu_seconds(pids), cpu_seconds([bot.proc.pid])
            own0, start = time.process_time(), time.perf_counter()
            deadline = start + seconds
            results = await asyncio.gather(*(run_game(t, actions, deadline) for t in played))
            elapsed = time.perf_counter() - start
            pids = tree(bot.proc.pid)  # a worker replaced meanwhile is counted from here
            bot_cpu, own_cpu = cpu_seconds(pids) - cpu0, time.process_time() - own0
            main_cpu = cpu_seconds([bot.proc.pid]) - main0
            memory = memory_line(bot.proc.pid)
        finally:
            await bot.stop()
            await fake.stop()
    timed = [r for game in results for r in game]
    ok = [s for s, outcome in timed if outcome == "ok"]
    return {"games": games, "actions": len(ok), "rate": len(ok) / elapsed, "p50": percentile(ok, 0.5) * 1e3,
            "p99": percentile(ok, 0.99) * 1e3, "refused": sum(o == "refused" for _, o in timed),
            "errors": sum(o == "error" for _, o in timed), "bot_ms": bot_cpu / max(1, len(ok)) * 1e3,
            "main_ms": main_cpu / max(1, len(ok)) * 1e3,
            "standin_ms": own_cpu / max(1, len(ok)) * 1e3, "elapsed": elapsed, "memory": memory, "load": load(),
            "refusals": [(t.kind, text) for t in played for text in t.refusals]}


async def run_game(game, actions: int, deadline: float) -> list[tuple[float, str]]:
    out = []
    for _ in range(actions):
        if time.perf_counter() > deadline or (result := await game.act()) is None:
            break
        out.append(result)
    return out


def show(label: str, r: dict) -> None:
    rate_goal = f"(goal ≥ {GOAL_RATE:.0f}/s)" if r["games"] == GOAL_AT else ""
    print(f"{label:<9} {r['games']:>5} {r['actions']:>7} {r['rate']:>8.1f}/s {rate_goal:<15} {r['p50']:>7.0f} "
          f"{r['p99']:>7.0f} (goal ≤ {GOAL_P99_MS:.0f}) {r['refused']:>4}+{r['errors']:<3}(goal 0) "
          f"{r['bot_ms']:>6.1f} ({r['main_ms']:.1f} main) {r['standin_ms']:>6.1f}   {r['load']}", flush=True)
    print(f"{'':<9} {r['memory']}", flush=True)
    for kind, text in r["refusals"][:3]:
        print(f"{'':<9} refused ({kind}): {text[:150]!r}", flush=True)


async def main() -> None:
    cli = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    cli.add_argument("--games", type=int, nargs="+", default=[1, 10, 50, 100])
    cli.add_argument("--actions", type=int, default=20, help="actions per game at most")
    cli.add_argument("--seconds", type=float, default=60.0, help="each size's acting phase at most")
    cli.add_argument("--baseline", type=Path, help="another checkout's bot, run alternately with this one")
    cli.add_argument("--validate", action="store_true", help="keep the stand-in's payload checks on")
    args = cli.parse_args()
    if not args.validate:
        standin.checks_off()
    trees = [("this", ROOT)] + ([("baseline", args.baseline.resolve())] if args.baseline else [])
    print(f"every game kind in turn, 2 players each, up to {args.actions} actions per game (clicks and /play, "
          f"at random) or {args.seconds:.0f} s; stand-in checks {'on' if args.validate else 'off'}")
    print(f"{'bot':<9} {'games':>5} {'actions':>7} {'actions/s':>10} {'':<15} {'p50 ms':>7} {'p99 ms':>7} "
          f"{'':<11} {'failed':>8} {'bot CPU ms/action':>17} {'stand-in':>9}")
    for n, games in enumerate(args.games):
        for label, root in (trees if n % 2 == 0 else trees[::-1]):  # alternate which goes first
            show(label, await measure(games, args.actions, args.seconds, root))


if __name__ == "__main__":
    asyncio.run(main())
