"""Monster Hunter in Discord: what players see and what Discord rate-limits, per full game turn.

Full games are played through the game host service (real SQLite file, real renderer) by scripted
players who answer every question with ``go`` (the click a player makes most), at 2, 3 and 4
players, once with nobody's default policies and once with every player's saved defaults
(``atk:auto def:retreat keep:auto disc:none``, played for them at their first chance). Counted per
full game turn (loadout to the next preparation):

* interactions: the clicks (or /play lines) players make;
* messages: public posts in the game's channel + private panels sent by DM + the ephemeral answer
  to each interaction (a step that changes nothing public posts nothing: the pinned status alone
  is edited, which is not counted as a message);
* pings: posts that mention someone (one per wait).

And the round trip of one hunt decision through the service (load, check, apply, save, draw the
board and the panels): p50 and p99 in milliseconds.

    .venv/bin/python benchmarks/mh_discord_bench.py [--games 6]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.service import GameHost  # noqa: E402
from bot.storage.sqlite import Store  # noqa: E402
from games import get_game  # noqa: E402

POLICIES = {"atk": "auto", "def": "retreat", "keep": "auto", "disc": "none"}
GAME = get_game("monsterhunter")


async def play(players: int, policies: bool, seed: int, folder: str) -> dict:
    store = await Store.open(f"{folder}/mh-{players}-{int(policies)}-{seed}.sqlite3")
    seeds = iter(range(seed * 1000, seed * 1000 + 1000))
    host = GameHost(store, seed_source=lambda: next(seeds))
    users = [1000 + i for i in range(players)]
    if policies:
        for u in users:
            await store.set_preferences(u, {"monsterhunter": dict(POLICIES)})
    row, _ = await host.create("monsterhunter", None, guild_id=1, channel_id=5, user_id=users[0], locale="en")
    for u in users[1:]:
        await host.join(row.id, u)
    out = await host.start(row.id, users[0])
    counts = {"interactions": 0, "messages": 0, "pings": 0}
    hunt_ms: list[float] = []

    def count(outbox, interaction: bool) -> None:
        counts["messages"] += sum(1 for p in outbox.posts if not p.quiet) + len(outbox.privates) + int(interaction)
        counts["pings"] += sum(1 for p in outbox.posts if p.mentions)

    count(out, True)
    while True:
        current = await store.load(row.id)
        if current.status != "active":
            break
        seat = min(GAME.to_act(current.state))
        in_hunt = current.state["phase"] == "hunt"
        started = time.perf_counter()
        out = await host.act(row.id, current.user_of(seat), "go", seen_version=current.version)
        if in_hunt:
            hunt_ms.append((time.perf_counter() - started) * 1000)
        counts["interactions"] += 1
        count(out, True)
    final = await store.load(row.id)
    await store.close()
    return dict(counts, turns=final.state["turn"], hunt_ms=hunt_ms)


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))] if ordered else 0.0


def _ms(values: list[float], p: float) -> str:
    return f"{pct(values, p):.1f}" if values else "-"  # with policies no hunt decision is asked


async def main(games: int) -> None:
    folder = tempfile.mkdtemp(prefix="mh-discord-bench-")
    print(f"{'players':>7} {'policies':>8} {'turns':>6} {'interactions/turn':>18} {'messages/turn':>14} "
          f"{'pings/turn':>11} {'hunt p50 ms':>12} {'hunt p99 ms':>12}")
    for players in (2, 3, 4):
        for policies in (False, True):
            runs = [await play(players, policies, seed, folder) for seed in range(1, games + 1)]
            turns = sum(r["turns"] for r in runs)
            ms = [m for r in runs for m in r["hunt_ms"]]
            print(f"{players:>7} {'yes' if policies else 'no':>8} {statistics.mean(r['turns'] for r in runs):>6.1f} "
                  f"{sum(r['interactions'] for r in runs) / turns:>18.1f} {sum(r['messages'] for r in runs) / turns:>14.1f} "
                  f"{sum(r['pings'] for r in runs) / turns:>11.1f} {_ms(ms, 50):>12} {_ms(ms, 99):>12}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="full games per row")
    asyncio.run(main(parser.parse_args().games))
