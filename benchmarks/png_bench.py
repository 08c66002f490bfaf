"""PNG writer benchmark: the band-reusing writer (renderers/png.py ``encode``) against Pillow's
whole-image encode (``encode_whole``, ``Image.save(format="PNG", compress_level=...)``).

Plays seeded random games of every game and player count and keeps every image the renderers
hand to the encoder: after each action, the public board and each seat's panel, in that order. The
games are interleaved one action at a time (one worker drawing for several games at once), and
every image goes through one band cache, cold at the start, as in a worker process. Each image
is then encoded by both writers; the figures are CPU time (``time.process_time``: the machines
are shared) per image, p50 / p99 / total per game, and the bytes written.

    .venv/bin/python benchmarks/png_bench.py [--games N] [--steps N] [--level L] [game ...]

No asserts: these are figures, not tests.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repo importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import renderers  # noqa: E402
from games import get_game  # noqa: E402
from games.ai import choose_action  # noqa: E402
from games.rng import Rng  # noqa: E402
from renderers import common  # noqa: E402
from renderers.png import BAND_ROWS, BandCache, encode, encode_whole  # noqa: E402

GAMES = ("squares", "arena", "osu", "hostile", "monsterhunter")


def drawn_images(game_name: str, players: int, seed: int, steps: int) -> list[list]:
    """Per action of one seeded random game: the images the renderers encoded for it."""
    game = get_game(game_name)
    rng, state = Rng(seed), game.setup(players, game.resolve_options({}, players), seed)
    kept: list = []
    real = common.encode

    def keep(image, level):
        kept.append(image.copy())
        return real(image, level)
    common.encode = keep
    try:
        actions = []
        for _ in range(steps):
            kept.clear()
            renderers.render(game_name, game.view(state, None))
            for seat in range(players):
                renderers.render_panel(game_name, game.view(state, seat), viewer_seat=seat)
            actions.append(list(kept))
            if game.outcome(state) is not None:
                break
            seat = min(game.to_act(state))
            state, _ = game.apply(state, seat, choose_action(game, state, seat, rng, level="random"))
        return actions
    finally:
        common.encode = real


def interleaved(games: list[tuple[str, list[list]]], at_once: int) -> list[tuple[str, object]]:
    """(game, image) with ``at_once`` games played side by side, one action of each in turn (as a
    worker drawing for them all sees them); the next ``at_once`` games after those."""
    order = []
    for first in range(0, len(games), at_once):
        group, turn = games[first:first + at_once], 0
        while any(turn < len(actions) for _, actions in group):
            for name, actions in group:
                if turn < len(actions):
                    order += [(name, image) for image in actions[turn]]
            turn += 1
    return order


def timed(writers, images) -> list[tuple[list[float], list[int]]]:
    """Per writer, CPU ms and bytes per image; the writers take turns image by image, so a busy
    spell on the shared machine falls on both."""
    out = [([], []) for _ in writers]
    clock = time.process_time
    for image in images:
        for write, (ms, sizes) in zip(writers, out):
            t0 = clock()
            png = write(image)
            ms.append((clock() - t0) * 1e3)
            sizes.append(len(png))
    return out


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(GAMES))
    parser.add_argument("--games", dest="n_games", type=int, default=2, help="random games per player count")
    parser.add_argument("--steps", type=int, default=40, help="actions per game at most")
    parser.add_argument("--level", type=int, default=common.PNG_COMPRESS_LEVEL)
    parser.add_argument("--at-once", type=int, default=0, help="games played side by side (default: all)")
    args = parser.parse_args(argv)
    if sys.gettrace() is not None:
        raise SystemExit("png_bench: a tracer is on; timings would be meaningless")
    played = [(name, drawn_images(name, players, 100 * players + g, args.steps))
              for name in args.games for players in get_game(name).player_counts() for g in range(args.n_games)]
    order = interleaved(played, args.at_once or len(played))
    images = [image for _, image in order]
    cache = BandCache()
    (ours_ms, ours_sizes), (pillow_ms, pillow_sizes) = timed(
        [lambda image: encode(image, args.level, cache=cache), lambda image: encode_whole(image, args.level)], images)
    bands = sum(-(-image.height // BAND_ROWS) for image in images)
    head = (f"{'game':<14} {'images':>6} | {'bands p50':>9} {'p99':>6} {'total':>7} | "
            f"{'Pillow p50':>10} {'p99':>6} {'total':>7} | {'bands/Pillow':>12} | {'KiB bands':>9} {'Pillow':>7}")
    print(head)
    print("-" * len(head))
    rows = {}
    for name in [*args.games, "all"]:
        picked = [i for i, (game, _) in enumerate(order) if name in ("all", game)]
        ours, pillow = [ours_ms[i] for i in picked], [pillow_ms[i] for i in picked]
        row = rows[name] = {
            "images": len(picked), "bands_p50": statistics.median(ours), "bands_p99": pct(ours, 0.99),
            "bands_total": sum(ours), "pillow_p50": statistics.median(pillow), "pillow_p99": pct(pillow, 0.99),
            "pillow_total": sum(pillow), "bands_kib": sum(ours_sizes[i] for i in picked) / 1024,
            "pillow_kib": sum(pillow_sizes[i] for i in picked) / 1024}
        print(f"{name:<14} {row['images']:>6} | {row['bands_p50']:9.2f} {row['bands_p99']:6.2f} "
              f"{row['bands_total']:7.0f} | {row['pillow_p50']:10.2f} {row['pillow_p99']:6.2f} "
              f"{row['pillow_total']:7.0f} | {row['bands_total'] / row['pillow_total']:11.2f}x | "
              f"{row['bands_kib']:9.0f} {row['pillow_kib']:7.0f}")
    print(f"CPU ms per image (total: ms for all), zlib level {args.level}, {args.at_once or len(played)} of "
          f"{len(played)} games side by side; one band cache for every image, cold at the start: of {bands} bands, "
          f"{bands - cache.hits - cache.misses} where the last image of their size had them, {cache.hits} found by "
          f"content, {cache.misses} compressed")
    return rows


if __name__ == "__main__":
    main()
