"""Cold start (issue #33): from the gateway's READY after a restart to the first boards answered.

The real bot (SQLite, its worker pool) runs against the local Discord stand-in. First a bot opens
one game of every kind and stops; this branch's bot runs it twice: once keeping its palettes'
colours for the next start (as any restart that changed no drawing code finds them), once not (as
after an update that did). Then the bot is started again on that database and, the moment the
stand-in has delivered READY, each of those games acts once, all at once (a click or a typed
``/play``): printed are the seconds from READY until the first and the last new board was posted
(actions that post none, a secret step, are not counted there). Then the bot's processes are left
until their CPU falls quiet (the warm-up over; at most ``--settle`` seconds), the CPU they used
from their start is printed with the memory of the main process, the fork server and each worker,
and ``--warm-actions`` more actions, one at a time, give a warm action's p50 (the goal: first
board ≤ that p50 + 1 s). Last, games are opened until there are 50 and each acts ``--actions``
times, all at once, and the memory is printed again.

    .venv/bin/python benchmarks/cold_start_bench.py [--rounds 2] [--baseline PATH] [--modes 1 0]

``--modes`` lists the WARM_SPRITES values to run (1: as deployed); ``--baseline PATH`` runs the bot
of another checkout too (e.g. ``git archive <commit> | tar -x -C /tmp/base``), each round
alternating the order. Nothing is asserted: these are figures.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

import standin  # noqa: I001  (puts the repository on the path)
from standin import ROOT, KINDS, cpu_seconds, load, memory_line, percentile, tables, tree  # noqa: E402

from tests.e2e.database import SqliteDatabase  # noqa: E402
from tests.e2e.test_bot_e2e import BotProcess  # noqa: E402

GOAL_EXTRA_S = 1.0
GAMES_AFTER = 50


async def quiet(pids_of, settle: float) -> float:
    """Until the processes used under 5% of a core in each of 3 seconds in a row (a warm-up at the
    lowest priority may stall a moment on a busy machine), or ``settle`` seconds passed; returns
    the seconds waited."""
    start, calm = time.perf_counter(), 0
    last = cpu_seconds(pids_of())
    while time.perf_counter() - start < settle and calm < 3:
        await asyncio.sleep(1.0)
        now = cpu_seconds(pids_of())
        calm = calm + 1 if now - last < 0.05 else 0
        last = now
    return time.perf_counter() - start


async def one_restart(root: Path, warm: str, kept: bool, args) -> dict:
    """One restart. ``kept``: the bot before it kept its palettes' colours (a restart that changed
    no drawing code); else the restarted bot finds none (an update that did) and draws them."""
    fake, users, channels = standin.make_world(GAMES_AFTER)
    await fake.start()
    with tempfile.TemporaryDirectory() as tmp, SqliteDatabase(Path(tmp) / "games.sqlite3") as database:
        env = {"WARM_SPRITES": warm, "TABLETOP_CHECK_IMAGES": "0", "XDG_CACHE_HOME": str(Path(tmp) / "cache")}
        games = tables(fake, database, users, channels, GAMES_AFTER)
        first = BotProcess(fake, Path(tmp) / "games.sqlite3", Path(tmp), log_level="WARNING", database=database,
                           root=root, env=dict(env, WARM_SPRITES="1" if kept else "0"), name="before")
        try:  # the games that wait for the restart, opened by a bot that did not warm up
            await first.start()
            await fake.wait_for_commands(timeout=60)
            await asyncio.gather(*(g.open() for g in games[:len(KINDS)]))
        finally:
            await first.stop()
        bot = BotProcess(fake, Path(tmp) / "games.sqlite3", Path(tmp), log_level="WARNING", database=database,
                         root=root, env=env, name="after")
        out: dict = {"load": load()}
        try:
            await bot.start()
            ready = time.perf_counter()  # the stand-in has delivered READY
            await asyncio.sleep(args.delay)
            answered = await asyncio.gather(*(answered_at(g) for g in games[:len(KINDS)]))
            boards = [t for t, _, board in answered if board] or [float("nan")]
            out["first"], out["last"] = min(boards) - ready, max(boards) - ready
            out["boards"] = len([b for _, _, b in answered if b])
            out["first_failed"] = sum(outcome != "ok" for _, outcome, _ in answered)
            pids = lambda: tree(bot.proc.pid)  # noqa: E731
            out["settled_in"] = await quiet(pids, args.settle)
            await asyncio.sleep(10)  # the pool swaps its first workers up to 8 s after the warm-up
            out["settled_in"] += 10 + await quiet(pids, args.settle)
            out["startup_cpu"] = cpu_seconds(pids())
            out["memory_warm"] = memory_line(bot.proc.pid)
            warm_times = []
            for n in range(args.warm_actions):
                result = await games[n % len(KINDS)].act()
                if result is not None and result[1] == "ok":
                    warm_times.append(result[0])
            out["warm_p50"] = statistics.median(warm_times) if warm_times else float("nan")
            await asyncio.gather(*(g.open() for g in games[len(KINDS):]))
            results = await asyncio.gather(*(several(g, args.actions) for g in games))
            out["after_failed"] = sum(outcome != "ok" for r in results for _, outcome in r)
            out["after_p50"] = percentile([s for r in results for s, o in r if o == "ok"], 0.5)
            out["memory_50"] = memory_line(bot.proc.pid)
        finally:
            await bot.stop()
            await fake.stop()
    return out


async def answered_at(game) -> tuple[float, str, bool]:
    """When the game's next action was answered, how, and whether it posted a board."""
    result = await game.act()
    return time.perf_counter(), result[1] if result else "over", game.board_posted


async def several(game, actions: int) -> list[tuple[float, str]]:
    out = []
    for _ in range(actions):
        if (result := await game.act()) is None:
            break
        out.append(result)
    return out


def show(label: str, r: dict) -> None:
    goal = r["warm_p50"] + GOAL_EXTRA_S
    met = "met" if r["first"] <= goal else "not met"
    print(f"{label:<37} READY → first board {r['first']:6.2f} s (goal ≤ warm p50 + 1 s = {goal:.2f} s: {met}), "
          f"last of {r['boards']} {r['last']:6.2f} s, failed {r['first_failed']}; warm action p50 "
          f"{r['warm_p50'] * 1e3:.0f} ms; CPU of the bot's processes from start to quiet {r['startup_cpu']:.1f} s "
          f"(quiet {r['settled_in']:.0f} s after READY)   {r['load']}", flush=True)
    print(f"{'':<37} after warm-up: {r['memory_warm']}", flush=True)
    print(f"{'':<37} after {GAMES_AFTER} games (action p50 {r['after_p50'] * 1e3:.0f} ms, failed "
          f"{r['after_failed']}): {r['memory_50']}", flush=True)


async def main() -> None:
    cli = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    cli.add_argument("--rounds", type=int, default=2)
    cli.add_argument("--modes", nargs="+", default=["1"], help="WARM_SPRITES values to run")
    cli.add_argument("--baseline", type=Path, help="another checkout's bot, run alternately with this one")
    cli.add_argument("--settle", type=float, default=120.0, help="seconds to wait for the CPU to fall quiet")
    cli.add_argument("--warm-actions", type=int, default=20)
    cli.add_argument("--delay", type=float, default=0.0, help="seconds after READY before the first actions")
    cli.add_argument("--actions", type=int, default=3, help="actions per game with 50 games")
    cli.add_argument("--validate", action="store_true", help="keep the stand-in's payload checks on")
    args = cli.parse_args()
    if not args.validate:
        standin.checks_off()
    trees = [("this", ROOT)] + ([("baseline", args.baseline.resolve())] if args.baseline else [])
    runs = [(f"{name} WARM_SPRITES={mode}" + ("" if name != "this" or mode != "1" else
                                                ", palettes kept" if kept else ", palettes drawn"), root, mode, kept)
            for name, root in trees for mode in args.modes
            for kept in ((True, False) if name == "this" and mode == "1" else (False,))]
    for n in range(args.rounds):
        for label, root, mode, kept in (runs if n % 2 == 0 else runs[::-1]):
            show(label, await one_restart(root, mode, kept, args))


if __name__ == "__main__":
    asyncio.run(main())
