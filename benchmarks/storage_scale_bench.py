"""How hot queries and an action move with the number of stored games (issues #11, #17).

The same 68 open games (one server, one channel, deadlines due and half-way) sit among 100, then
100,000 stored games of other servers (finished, as most stored games are). Timed, median of many
runs each: the scheduler's tick queries, `/play`'s lookup of the user's game in a channel,
`/game list` (68 games), start-up's scan for boards never posted, and one action through the
service (load, checks, apply, the one-transaction save; boards not drawn). Goal: each <= 1.1x from
100 to 100,000 stored games (they use indexes bounded by what they return).

    python benchmarks/storage_scale_bench.py [--stored 100 100000] [--backend sqlite|postgres]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from backends import add_arguments, scratch  # noqa: E402
from bot.service import GameHost  # noqa: E402
from bot.storage.rows import is_postgres_url  # noqa: E402
from bot.storage import open_store
from games import get_game  # noqa: E402

NOW = "2026-11-21T12:00:00+00:00"
OPEN_GAMES = 68
GUILD, CHANNEL = 1, 2


COLUMNS = ("game, guild_id, channel_id, creator_id, status, options, seed, state, version, posted_version, "
           "locale, created_at, updated_at, settings, deadline_at, turn_started_at, remind_at, step_version")


def rows(count, status, guild, channel, offset):
    state = json.dumps(get_game("squares").setup(2, {}, 1))
    for i in range(count):
        due = "2026-11-21T11:00:00+00:00" if status == "active" and i % 2 else "2026-11-22T12:00:00+00:00"
        yield ("squares", guild, channel, offset + i, status, "{}", i, state, 5, 5, "en", NOW, NOW,
               '{"deadline_hours": 24}', due if status == "active" else None,
               "2026-11-21T00:00:00+00:00" if status == "active" else None,
               "2026-11-21T06:00:00+00:00" if status == "active" else None, 5)


async def fill(target: str, stored: int) -> None:
    """Bulk rows: ``stored`` finished games elsewhere, then the 68 open games we look at."""
    if is_postgres_url(target):
        await fill_postgres(target, stored)
        return
    with sqlite3.connect(target) as db:
        db.execute("BEGIN")
        db.executemany(f"INSERT INTO games ({COLUMNS}) VALUES ({','.join('?' * 18)})",
                       rows(stored, "finished", 99, 98, 10_000))
        db.executemany(f"INSERT INTO games ({COLUMNS}) VALUES ({','.join('?' * 18)})",
                       rows(OPEN_GAMES, "active", GUILD, CHANNEL, 1))
        db.execute("INSERT INTO seats (game_id, seat, user_id, joined_at) SELECT id, 0, creator_id, ? FROM games", (NOW,))
        db.execute("INSERT INTO seats (game_id, seat, user_id, joined_at) SELECT id, 1, creator_id + 500000, ? FROM games",
                   (NOW,))
        db.execute("COMMIT")
        db.execute("ANALYZE")


async def fill_postgres(url: str, stored: int) -> None:
    import asyncpg

    db = await asyncpg.connect(url)
    try:
        async with db.transaction():
            names = [c.strip() for c in COLUMNS.split(",")]
            await db.copy_records_to_table("games", records=rows(stored, "finished", 99, 98, 10_000), columns=names)
            await db.copy_records_to_table("games", records=rows(OPEN_GAMES, "active", GUILD, CHANNEL, 1),
                                           columns=names)
            await db.execute("INSERT INTO seats (game_id, seat, user_id, joined_at) SELECT id, 0, creator_id, $1 "
                             "FROM games", NOW)
            await db.execute("INSERT INTO seats (game_id, seat, user_id, joined_at) "
                             "SELECT id, 1, creator_id + 500000, $1 FROM games", NOW)
        await db.execute("VACUUM ANALYZE games")
        await db.execute("VACUUM ANALYZE seats")
    finally:
        await db.close()


async def timed(fn, runs: int) -> float:
    for _ in range(max(1, runs // 10)):  # warm caches and prepared statements first: not measured
        await fn()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        await fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


async def one_action(host, store, open_ids: list[int]):
    """An action in the next open game (round robin), the move its player has first."""
    game = get_game("squares")
    turn = 0

    async def act():
        nonlocal turn
        game_id = open_ids[turn % len(open_ids)]
        turn += 1
        row = await store.load(game_id)
        if row.status != "active":
            return
        seat = min(game.to_act(row.state))
        await host.act(game_id, row.user_of(seat), game.legal_actions(row.state, seat)[0], seen_version=row.version)
    return act


async def measure(stored: int, backend: str, url: str) -> dict[str, float]:
    async with scratch(backend, url) as target:
        await (await open_store(target)).close()
        await fill(target, stored)
        store = await open_store(target)
        host = GameHost(store, clock=lambda: NOW, render=lambda name, view: b"PNG")
        user = 7  # sits in one of the open games
        open_ids = await store.game_ids_in_guild(GUILD)
        out = {
            "scheduler tick (due + reminders + lost boards)": await timed(lambda: asyncio.gather(
                store.due_game_ids(NOW), store.reminder_due_game_ids(NOW), store.unposted_game_ids()), 200),
            "/play lookup (user's games here)": await timed(lambda: host.games_for(CHANNEL, user), 500),
            "/game list (68 games)": await timed(lambda: host.list_lines(GUILD, user), 30),
            "start-up scan for unposted boards": await timed(store.unposted_game_ids, 500),
            "one action (load, checks, apply, save)": await timed(await one_action(host, store, open_ids), 200),
        }
        await store.close()
    return out


def main(argv=None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--stored", type=int, nargs="+", default=[100, 100_000])
    add_arguments(parser)
    args = parser.parse_args(argv)
    results = {n: asyncio.run(measure(n, args.backend, args.database_url)) for n in args.stored}
    print(f"backend: {args.backend}")
    first, last = args.stored[0], args.stored[-1]
    print(f"{'query':<50}" + "".join(f"{n:>12,}" for n in args.stored) + f"{'ratio':>8}   (ms, median)")
    for name in results[first]:
        print(f"{name:<50}" + "".join(f"{results[n][name] * 1000:>12.3f}" for n in args.stored)
              + f"{results[last][name] / results[first][name]:>7.2f}x")


if __name__ == "__main__":
    main()
