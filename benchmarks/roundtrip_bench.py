"""Every game's action round trip through the service, beside its floor (issue #11).

For each game and player count, random legal actions go through ``GameHost.act`` on a real SQLite
file (load, checks, apply, one-transaction save, board and panels drawn). Printed per row:

* round trip p50 / p99 (ms);
* the floor: the bare PNG encode p50 of the same boards (each drawn board decoded and compressed
  whole again, from nothing, at the renderers' own level), and round trip p99 / floor (goal: <= 2x);
  the renderers themselves reuse the compressed rows of earlier boards (renderers/png.py);
* the floor of a whole action: the bare encodes of every image it sent (its public board and the
  private panels of the seats it newly asks: a Monster Hunter step mostly sends a panel, an Arena
  resolution a board and two panels), p50 over actions, images per action, and the round trip
  p99 / that floor;
* the p99 over actions of each round trip divided by the floor of that action's own images (an
  action that sends a board and three panels is held to four encodes, a one-panel step to one);
* the drawing's share: render p50 and render / encode, and round trip minus drawing (p50);
* legal_actions calls per action (work done twice shows here).

Nothing is timed with tracing on. ``--pool`` draws in worker processes as the bot does (adds a
hand-off per image, and the board and panels of one action are drawn side by side); ``--warm``
starts those workers with every sprite drawn, as the bot does by default (WARM_SPRITES).

    python benchmarks/roundtrip_bench.py [--actions 300] [--pool [--warm]]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image  # noqa: E402

import renderers  # noqa: E402
from bot.workers import pool as workers
from bot.service import GameHost  # noqa: E402
from bot.storage.sqlite import Store  # noqa: E402
from games import all_games, get_game  # noqa: E402
from games.rng import Rng  # noqa: E402
from renderers.common import fresh_png_bytes  # noqa: E402


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


class Recorder:
    """Times every board the service draws and keeps the images for the floor."""

    def __init__(self):
        self.times: list[float] = []
        self.images: list[bytes] = []

    def __call__(self, game_name: str, view: dict) -> bytes:
        t = time.perf_counter()
        png = renderers.render(game_name, view)
        self.times.append(time.perf_counter() - t)
        self.images.append(png)
        return png


class CountingGame:
    """Counts legal_actions calls per action without changing the engine."""

    def __init__(self, game):
        self.game, self.calls = game, 0
        self.original = game.legal_actions

    def __enter__(self):
        def counted(state, seat):
            self.calls += 1
            return self.original(state, seat)
        self.game.legal_actions = counted
        return self

    def __exit__(self, *exc):
        del self.game.legal_actions


async def measure(game_name: str, players: int, actions: int, pool: bool, warm: bool = False) -> dict:
    game = get_game(game_name)
    recorder = Recorder()
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(str(Path(folder) / "bench.sqlite3"))
        executor = None
        if pool:
            executor = workers.process_pool(2, warm=warm)
            await workers.start(executor)  # not timed: the bot starts its workers before players act
            if warm:
                await executor.until_warm()  # every sprite drawn, as in a bot running for a while
        workers.settle_heap()  # as the bot does once it has started
        host = GameHost(store, render=recorder if not pool else renderers.render, executor=executor,
                        seed_source=iter(range(1, 10**6)).__next__)
        rng = Rng(7)
        times, legal_calls, boards, sent = [], [], [], []
        users = [100 + i for i in range(players)]
        while len(times) < actions:
            row, _ = await host.create(game_name, None, guild_id=1, channel_id=2, user_id=users[0], locale="en")
            for u in users[1:]:
                await host.join(row.id, u)
            await host.start(row.id, users[0])
            while len(times) < actions:
                row = await store.load(row.id)
                if row.status != "active":
                    break
                seat = min(game.to_act(row.state))
                legal = game.legal_actions(row.state, seat)
                action = legal[rng.below(len(legal))]
                drawn = len(recorder.times)
                with CountingGame(game) as counter:
                    t = time.perf_counter()
                    outbox = await host.act(row.id, row.user_of(seat), action, seen_version=row.version)
                    times.append(time.perf_counter() - t)
                boards += [post.image for post in outbox.posts if post.image]
                sent.append(images_of(outbox))
                legal_calls.append(counter.calls)
                recorder.times[drawn:] = [sum(recorder.times[drawn:])]  # one figure per action: its drawing
        await store.close()
        if executor is not None:
            executor.shutdown()
    encode = [bare_encode(png) for png in boards[-200:]]  # the public boards posted (drawn here or in the pool)
    action_floor = [sum(map(bare_encode, images)) for images in sent[-200:]]
    own = [t / floor for t, floor in zip(times[-200:], action_floor) if floor]  # actions that sent an image
    draw = recorder.times[-len(times):] if recorder.times else []
    floor = statistics.median(encode) if encode else float("nan")
    return {"rt50": pct(times, 0.5), "rt99": pct(times, 0.99), "floor": floor,
            "draw50": pct(draw, 0.5), "minus": pct([a - b for a, b in zip(times, draw)], 0.5) if draw else float("nan"),
            "legal": statistics.mean(legal_calls), "action_floor": statistics.median(action_floor),
            "images": statistics.mean(map(len, sent)), "own99": pct(own, 0.99)}


def images_of(outbox) -> list[bytes]:
    """Every image an action sends: public posts, private panels, the image in the actor's reply."""
    return ([post.image for post in outbox.posts if post.image]
            + [private.image for private in outbox.privates if private.image]
            + ([outbox.reply_image] if outbox.reply_image else []))


def bare_encode(png: bytes) -> float:
    """Seconds to compress the decoded image whole again, from nothing, at the renderers' level."""
    image = Image.open(io.BytesIO(png))
    image.load()
    t = time.perf_counter()
    fresh_png_bytes(image)
    return time.perf_counter() - t


def main(argv=None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--actions", type=int, default=300)
    parser.add_argument("--pool", action="store_true", help="draw in worker processes, as the bot does")
    parser.add_argument("--warm", action="store_true", help="with --pool: workers start with every sprite drawn "
                                                            "(WARM_SPRITES, the bot's default)")
    parser.add_argument("--game", action="append", help="only these games")
    args = parser.parse_args(argv)
    ms = 1000
    print(f"{'game':<14}{'rt p50':>8}{'rt p99':>8}{'floor':>8}{'p99/floor':>10}{'render':>8}{'rnd/enc':>8}"
          f"{'rt-render':>10}{'legal/act':>10}{'img/act':>8}{'act floor':>10}{'p99/act':>8}{'own p99':>8}"
          "   (ms; floor = bare PNG encode p50 of the same boards; act floor = p50 of the encodes of"
          " all images an action sent; own p99 = p99 over actions of round trip / that action's own"
          " images' encodes)")
    for game in all_games():
        if args.game and game.name not in args.game:
            continue
        for players in game.player_counts():
            r = asyncio.run(measure(game.name, players, args.actions, args.pool, args.warm))
            print(f"{game.name + ' ' + str(players):<14}{r['rt50'] * ms:>8.2f}{r['rt99'] * ms:>8.2f}"
                  f"{r['floor'] * ms:>8.2f}{r['rt99'] / r['floor']:>9.1f}x{r['draw50'] * ms:>8.2f}"
                  f"{r['draw50'] / r['floor']:>7.2f}x{r['minus'] * ms:>10.2f}{r['legal']:>10.1f}"
                  f"{r['images']:>8.2f}{r['action_floor'] * ms:>10.2f}{r['rt99'] / r['action_floor']:>7.1f}x"
                  f"{r['own99']:>7.1f}x")


if __name__ == "__main__":
    main()
