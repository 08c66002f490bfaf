"""Capacity through Discord's side (issue #33): clicks and ``/play`` timed until the board is posted.

The real bot (``python -m bot``, SQLite, its worker pool, ``WARM_SPRITES=1`` as deployed) runs
against the local Discord stand-in on loopback, with Discord's rate limits (50 requests a second
per bot, interaction answers exempt; 5 messages per 5 s per channel). For each number of games,
that many games (every kind in turn, two people each, a channel each) are opened, then all act at
once for ``--actions`` actions each or ``--seconds``, whichever ends first: each action uses the
controls (a button of the board, or of the player's DM panel in games with secrets; or a choice in
its menu and then a button of the private picker) with the probability ``--clicks``, else types
``/play``, as soon as the previous board is posted. Timed per action: from sending the interaction
until its reply arrived and its board was posted on the stand-in (the PNG uploaded), or the bot
marked that version delivered. Printed with the goal beside each figure: actions/s, p50, p99,
failures (refused, errors), the CPU per action of the bot's processes (main, fork server, workers),
apart the CPU of this process (the stand-in and the scripted people), and the bot's requests per
action by route, with what share of Discord's global limit they spend (which bounds a bot token's
actions per second whatever its cores).

    .venv/bin/python benchmarks/discord_capacity_bench.py [--games 1 10 50 100] [--actions 20]
        [--seconds 60] [--clicks 0.5] [--baseline PATH] [--validate] [--backend postgres]
        [--processes 2 --pin]

``--processes 2 --pin`` runs two bots holding one shard each (the games' servers spread over both),
each pinned with its one worker to a core of its own: the check of the sizing model in
docs/performance.md. ``--backend postgres`` puts them on PostgreSQL (benchmarks/backends.py).
``--baseline PATH`` runs a bot from another checkout (e.g. ``git worktree add /tmp/base main``)
too, alternating with this one, so before and after share the machine's moment. ``--validate``
keeps the stand-in's payload checks on (off by default: they are its CPU, not the bot's).
Nothing is asserted: these are figures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
import tempfile
import time
from pathlib import Path

import standin  # noqa: I001  (puts the repository on the path)
from standin import ROOT, cpu_seconds, load, memory_line, percentile, tables, tree  # noqa: E402

from backends import add_arguments, scratch  # noqa: E402
from tests.e2e.database import PgDatabase, SqliteDatabase  # noqa: E402
from tests.e2e.test_bot_e2e import BotProcess  # noqa: E402

GOAL_RATE, GOAL_P99_MS, GOAL_AT = 300.0, 250.0, 50


async def measure(games: int, actions: int, seconds: float, root: Path, *, processes: int = 1,
                  pinned: bool = False, backend: str = "sqlite", url: str = "", clicks: float = 0.5,
                  limits: bool = True) -> dict:
    """One size: open ``games`` games, then let them all act; the figures as a dict. With
    ``processes`` > 1 the bots hold one shard each on one database; ``pinned`` keeps bot n (with its
    workers) on core n."""
    fake, users, places = standin.make_world(games, shards=processes if processes > 1 else None,
                                             **({} if limits else {"rate_limits": None, "global_rate_limit": None}))
    await fake.start()
    async with scratch(backend, url) as target, contextlib.AsyncExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        database = stack.enter_context(PgDatabase(target) if backend == "postgres" else SqliteDatabase(target))
        env = {"WARM_SPRITES": "1", "TABLETOP_CHECK_IMAGES": "0"} | ({} if limits else {"GLOBAL_RATE_LIMIT": "1000000"})
        if pinned:
            env["WORKER_PROCESSES"] = "1"  # one core each: a second worker would only take turns with the first
        bots = [BotProcess(fake, tmp / "unused.sqlite3", tmp, log_level="WARNING", database=database, root=root,
                           env=env, name=f"bot{n}", shards=(processes, (n,)) if processes > 1 else None)
                for n in range(processes)]
        try:
            for bot in bots:
                await bot.start()
            await fake.wait_for_commands(timeout=60)
            if pinned:
                for n, bot in enumerate(bots):
                    standin.pin(tree(bot.proc.pid), n)
            played = tables(fake, database, users, places, games, clicks=clicks)
            await asyncio.gather(*(t.open() for t in played))
            await settle(bots)  # the sprites drawn in the background, as in a bot running for a while
            pids = [pid for bot in bots for pid in tree(bot.proc.pid)]
            if pinned:
                for n, bot in enumerate(bots):
                    standin.pin(tree(bot.proc.pid), n)
            cpu0, main0 = cpu_seconds(pids), cpu_seconds([bot.proc.pid for bot in bots])
            first_request, first_refusal = len(fake.requests), len(fake.rate_limited)
            own0, start = time.process_time(), time.perf_counter()
            deadline = start + seconds
            results = await asyncio.gather(*(run_game(t, actions, deadline) for t in played))
            elapsed = time.perf_counter() - start
            pids = [pid for bot in bots for pid in tree(bot.proc.pid)]  # a worker replaced meanwhile counts from here
            bot_cpu, own_cpu = cpu_seconds(pids) - cpu0, time.process_time() - own0
            main_cpu = cpu_seconds([bot.proc.pid for bot in bots]) - main0
            census = request_census(fake.requests[first_request:])
            too_many = fake.rate_limited[first_refusal:]
            memory = "; ".join(memory_line(bot.proc.pid) for bot in bots)
        finally:
            for bot in bots:
                await bot.stop()
            await fake.stop()
    timed = [r for game in results for r in game]
    ok = [s for s, outcome in timed if outcome == "ok"]
    return {"games": games, "actions": len(ok), "rate": len(ok) / elapsed, "p50": percentile(ok, 0.5) * 1e3,
            "p99": percentile(ok, 0.99) * 1e3, "refused": sum(o == "refused" for _, o in timed),
            "errors": sum(o == "error" for _, o in timed), "bot_ms": bot_cpu / max(1, len(ok)) * 1e3,
            "main_ms": main_cpu / max(1, len(ok)) * 1e3,
            "standin_ms": own_cpu / max(1, len(ok)) * 1e3, "elapsed": elapsed, "memory": memory, "load": load(),
            "refusals": [(t.kind, text) for t in played for text in t.refusals], "census": census,
            "429": (len(too_many), sum(r.is_global for r in too_many))}


ID_IN_PATH = re.compile(r"/(\d+|[A-Za-z0-9_.-]{40,})(?=/|$)")  # snowflakes and interaction tokens


def request_census(requests) -> dict[str, int]:
    """The bot's requests while the games acted, by route (ids replaced by ``*``); a route under
    /interactions/ or /webhooks/ is exempt from Discord's global limit of 50 a second per bot."""
    counts: dict[str, int] = {}
    for r in requests:
        route = f"{r.method} {ID_IN_PATH.sub('/*', r.path)}"
        counts[route] = counts.get(route, 0) + 1
    return counts


def exempt(route: str) -> bool:
    return route.split(" ", 1)[1].startswith(("/interactions/", "/webhooks/"))


async def settle(bots, limit: float = 90.0) -> None:
    """Until the bots' processes use under 5% of a core for 3 seconds in a row (their warm-up
    over), at most ``limit`` seconds."""
    calm, waited = 0, 0.0
    last = cpu_seconds([pid for bot in bots for pid in tree(bot.proc.pid)])
    while calm < 3 and waited < limit:
        await asyncio.sleep(1.0)
        waited += 1.0
        now = cpu_seconds([pid for bot in bots for pid in tree(bot.proc.pid)])
        calm = calm + 1 if now - last < 0.05 else 0
        last = now


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
    n = max(1, r["actions"])
    limited = sum(c for route, c in r["census"].items() if not exempt(route))
    print(f"{'':<9} Discord requests per action: {limited / n:.2f} under the global limit of 50/s (at most "
          f"{50 * n / max(1, limited):.0f} actions/s per bot token), {(sum(r['census'].values()) - limited) / n:.2f} "
          f"exempt (interaction answers); refused with 429: {r['429'][0]} ({r['429'][1]} global)", flush=True)
    for route, count in sorted(r["census"].items(), key=lambda kv: -kv[1])[:8]:
        print(f"{'':<11} {count / n:5.2f}  {route}{'' if exempt(route) else '  (global)'}", flush=True)
    for kind, text in r["refusals"][:3]:
        print(f"{'':<9} refused ({kind}): {text[:150]!r}", flush=True)


async def main() -> None:
    cli = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    cli.add_argument("--games", type=int, nargs="+", default=[1, 10, 50, 100])
    cli.add_argument("--actions", type=int, default=20, help="actions per game at most")
    cli.add_argument("--seconds", type=float, default=60.0, help="each size's acting phase at most")
    cli.add_argument("--baseline", type=Path, help="another checkout's bot, run alternately with this one")
    cli.add_argument("--validate", action="store_true", help="keep the stand-in's payload checks on")
    cli.add_argument("--no-limits", action="store_true",
                     help="without Discord's rate limits (the stand-in's, and the bot's own pace): what the CPU allows")
    cli.add_argument("--clicks", type=float, default=0.5,
                     help="the share of actions made with the controls (a button, or a menu and its picker); "
                          "the rest are typed /play")
    cli.add_argument("--processes", type=int, default=1, help="bot processes, one shard each, on one database")
    cli.add_argument("--pin", action="store_true", help="bot n and its worker on core n (one worker each)")
    add_arguments(cli)
    args = cli.parse_args()
    if not args.validate:
        standin.checks_off()
    trees = [("this", ROOT)] + ([("baseline", args.baseline.resolve())] if args.baseline else [])
    print(f"every game kind in turn, 2 players each, up to {args.actions} actions per game ({args.clicks:.0%} with "
          f"the controls, the rest /play, at random) or {args.seconds:.0f} s; "
          f"{'without' if args.no_limits else 'under'} Discord's rate limits; {args.processes} bot process(es){', pinned' if args.pin else ''} "
          f"on {args.backend}; stand-in checks {'on' if args.validate else 'off'}")
    print(f"{'bot':<9} {'games':>5} {'actions':>7} {'actions/s':>10} {'':<15} {'p50 ms':>7} {'p99 ms':>7} "
          f"{'':<11} {'failed':>8} {'bot CPU ms/action':>17} {'stand-in':>9}")
    for n, games in enumerate(args.games):
        for label, root in (trees if n % 2 == 0 else trees[::-1]):  # alternate which goes first
            show(label, await measure(games, args.actions, args.seconds, root, processes=args.processes,
                                      pinned=args.pin, backend=args.backend, url=args.database_url,
                                      clicks=args.clicks, limits=not args.no_limits))


if __name__ == "__main__":
    asyncio.run(main())
