"""Actions per second and reply latency with 1 and 2 sharded bot processes (issue #17).

The real bot runs as child processes against the local Discord stand-in, with SHARD_COUNT=4:
one process holding shards 0-3, then two processes holding 0-1 and 2-3, on one shared database
(a SQLite file, or a fresh schema of a PostgreSQL database: see benchmarks/backends.py). Games of SQUARESIV are spread over four servers, one
per shard; every game has a player typing ``/play`` as soon as the previous board is shown. Printed
per setup: actions per second over the whole burst, and p50/p99 of the time from sending an
interaction to its answer (defer, service call, follow-up).

    python benchmarks/shard_bench.py [--games 16] [--actions 10] [--processes 1,2] [--backend postgres]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from backends import add_arguments, scratch  # noqa: E402
from games import get_game  # noqa: E402
from tests.e2e.database import PgDatabase, SqliteDatabase  # noqa: E402
from tests.e2e.test_bot_e2e import BotProcess, reply_text  # noqa: E402
from tests.fakediscord import FakeDiscord  # noqa: E402

SHARD_COUNT = 4
SETUPS = {1: ((0, 1, 2, 3),), 2: ((0, 1), (2, 3))}
GAME = get_game("squares")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def open_game(fake, guild, players: tuple[str, str]) -> int:
    gid, channel = guild["id_int"], guild["channel_ids"][0]
    text = await reply_text(await fake.send_slash(gid, channel, players[0], "game new",
                                                  {"game": "squares", "thread": False}))
    game_id = int(re.search(r"#(\d+)", text)[1])
    await reply_text(await fake.send_slash(gid, channel, players[1], "game join", {"game_id": game_id}))
    await reply_text(await fake.send_slash(gid, channel, players[0], "game start", {"game_id": game_id}))
    return game_id


async def shown(database, game_id: int) -> None:
    while True:
        row = database.game_row(game_id)
        if row["posted_version"] >= row["version"]:
            return
        await asyncio.sleep(0.02)


async def play(fake, database, guild, game_id: int, players, actions: int, latencies: list[float]) -> int:
    """Type /play for whoever is to act, ``actions`` times; returns how many were accepted."""
    ids = {int(fake.user(p)["id"]): p for p in players}
    done = 0
    for _ in range(actions):
        await shown(database, game_id)
        row = database.game_row(game_id)
        if row["status"] != "active":
            break
        seats = database.seats(game_id)
        state = json.loads(row["state"])
        seat = min(GAME.to_act(state))
        action = GAME.legal_actions(state, seat)[0]
        t = time.perf_counter()
        text = await reply_text(await fake.send_slash(guild["id_int"], guild["channel_ids"][0], ids[seats[seat]],
                                                      "play", {"action": action, "game_id": game_id}))
        latencies.append(time.perf_counter() - t)
        done += "✅" in text
    await shown(database, game_id)
    return done


async def run(processes: int, games: int, actions: int, backend: str,
              url: str) -> tuple[float, float, float, int]:
    users = [f"p{i:02d}" for i in range(2 * games)]
    # The bot's speed is measured, not the stand-in's: its OpenAPI checks (5 ms a board, in this
    # process) stay off, as they were when the figures in docs/performance.md were taken.
    fake = FakeDiscord(users=users, response_deadline=30.0, openapi=False)
    guilds = [fake.add_guild(f"server {s}", shard=(s, SHARD_COUNT), channels=("games",)) for s in range(SHARD_COUNT)]
    await fake.start()
    async with scratch(backend, url) as target, contextlib.AsyncExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        database = stack.enter_context(PgDatabase(target) if backend == "postgres" else SqliteDatabase(target))
        bots = [BotProcess(fake, tmp / "unused.sqlite3", tmp, log_level="WARNING", shards=(SHARD_COUNT, ids),
                           name=f"bot{i}", database=database) for i, ids in enumerate(SETUPS[processes])]
        try:
            for bot in bots:
                await bot.start()
            await fake.wait_for_commands(timeout=30)
            pairs = [(users[2 * i], users[2 * i + 1]) for i in range(games)]
            opened = await asyncio.gather(*(open_game(fake, guilds[i % SHARD_COUNT], pairs[i]) for i in range(games)))
            latencies: list[float] = []
            start = time.perf_counter()
            accepted = await asyncio.gather(*(play(fake, database, guilds[i % SHARD_COUNT], gid, pairs[i], actions,
                                                   latencies) for i, gid in enumerate(opened)))
            elapsed = time.perf_counter() - start
        finally:
            for bot in bots:
                await bot.stop()
            await fake.stop()
    return sum(accepted) / elapsed, percentile(latencies, 0.5) * 1000, percentile(latencies, 0.99) * 1000, sum(accepted)


async def main() -> None:
    cli = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    cli.add_argument("--games", type=int, default=16)
    cli.add_argument("--actions", type=int, default=10, help="actions per game")
    cli.add_argument("--processes", default="1,2")
    add_arguments(cli)
    args = cli.parse_args()
    print(f"{args.games} SQUARESIV games over 4 shards, {args.actions} typed actions each, every game at once, "
          f"on {args.backend}")
    print(f"{'processes':>9} {'actions':>8} {'actions/s':>10} {'p50 ms':>8} {'p99 ms':>8}")
    for n in (int(x) for x in args.processes.split(",")):
        rate, p50, p99, count = await run(n, args.games, args.actions, args.backend, args.database_url)
        print(f"{n:>9} {count:>8} {rate:>10.1f} {p50:>8.0f} {p99:>8.0f}")


if __name__ == "__main__":
    asyncio.run(main())
