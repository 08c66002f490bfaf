"""Board bytes (issue #33): the median public board of every game, as the bot writes it and as each
candidate encoding would, with the CPU each costs per action.

Seeded random play-outs of every game and player count (``--games`` per count, up to ``--steps``
actions each); after every action the public board (``view(state, None)``) is drawn with every
sprite warm, and the palette image the renderer hands to the encoder is kept. Each image is then
written by every candidate in turn, image by image (so a busy spell on the shared machine falls
on all), each candidate with its own band cache that lives through the whole sequence, as in a
worker that draws one game's boards one after another:

* ``today``: the bot's writer (renderers/png.py, 16-row bands, zlib level 1, unfiltered), cached;
* ``png L6`` / ``png L9``: the same bands at zlib level 6 / 9;
* ``png L6 chained`` / ``L9 chained``: each band deflated with the band before it as the preset
  dictionary (what the decoder's window holds there), so its matches reach back across the band's
  start; cached by the band and the one before it;
* ``webp m0`` ... : Pillow's lossless WebP of the whole image (RGB), method / quality as named,
  every action (WebP has no bands to reuse).

Printed per game and candidate: the median board in KiB, its ratio to ``today`` (goal ≤ 0.6), and
the CPU per action (drawing the board, the same for all, plus the candidate's encode) against
``today``'s (goal ≤ 1.25). CPU is ``time.process_time``. Nothing is asserted.

``--canvas 0.85 0.75`` also estimates a smaller canvas (bytes only): each board shrunk to that
scale (box filter, then back to a palette of at most 256 colours, no dithering) and written as
``today`` and as ``png L6 chained``. A renderer drawing natively at that size would anti-alias a
little less than a shrunk image does, so this leans high, but it shows how bytes follow size.

    .venv/bin/python benchmarks/board_bytes_bench.py [--games 2] [--steps 60] [--canvas K ...] [game ...]
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
import zlib
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repo importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import renderers  # noqa: E402
from games import get_game  # noqa: E402
from games.ai import choose_action  # noqa: E402
from games.rng import Rng  # noqa: E402
from renderers import common  # noqa: E402
from renderers.png import BAND_ROWS, BandCache, encode  # noqa: E402

GAMES = ("squares", "arena", "osu", "hostile", "monsterhunter")
GOAL_BYTES, GOAL_CPU = 0.6, 1.25
PNG_OVERHEAD = 8 + 25 + 780 + 12 + 12  # signature, IHDR, a whole palette, IDAT and IEND framing


def boards(game_name: str, players: int, seed: int, steps: int) -> list[tuple[object, float]]:
    """(the palette image handed to the encoder, CPU ms to draw it) of each public board."""
    game = get_game(game_name)
    rng, state = Rng(seed), game.setup(players, game.resolve_options({}, players), seed)
    kept: list = []
    real = common.encode

    def keep(image, level):
        kept.append((image.copy(), time.process_time()))
        return b""
    common.encode = keep
    try:
        out = []
        for _ in range(steps):
            kept.clear()
            start = time.process_time()
            renderers.render(game_name, game.view(state, None))
            image, drawn_at = kept[0]
            out.append((image, (drawn_at - start) * 1e3))
            if game.outcome(state) is not None:
                break
            seat = min(game.to_act(state))
            state, _ = game.apply(state, seat, choose_action(game, state, seat, rng, level="random"))
        return out
    finally:
        common.encode = real


class Chained:
    """16-row bands, each deflated with the band before it as its preset dictionary (the bytes a
    decoder has just written, so its back references are valid in the joined stream); cached by
    both bands' pixels. Sizes only: the file is the bands joined as renderers/png.py joins them."""

    def __init__(self, level: int):
        self.level = level
        self.cache: dict[tuple[bytes, bytes], int] = {}

    def __call__(self, image) -> int:
        width = image.width
        pixels, step = image.tobytes(), image.width * BAND_ROWS
        total, before = 0, b""
        for start in range(0, len(pixels), step):
            band = pixels[start:start + step]
            size = self.cache.get((band, before))
            if size is None:
                size = self.cache[(band, before)] = self._deflated(band, before, width)
            total, before = total + size, band
        return total + PNG_OVERHEAD

    def _deflated(self, band: bytes, before: bytes, width: int) -> int:
        rows = b"".join(b"\0" + band[i:i + width] for i in range(0, len(band), width))
        options = {"zdict": b"".join(b"\0" + before[i:i + width] for i in range(0, len(before), width))[-32768:]} \
            if before else {}
        compressor = zlib.compressobj(self.level, zlib.DEFLATED, -zlib.MAX_WBITS, **options)
        return len(compressor.compress(rows) + compressor.flush(zlib.Z_SYNC_FLUSH))


def banded(level: int):
    cache = BandCache()
    return lambda image: len(encode(image, level, cache=cache))


def webp(method: int, quality: int):
    def write(image) -> int:
        out = io.BytesIO()
        image.convert("RGB").save(out, format="WEBP", lossless=True, method=method, quality=quality)
        return len(out.getvalue())
    return write


CANDIDATES = {
    "today": lambda: banded(1),
    "png L6": lambda: banded(6),
    "png L9": lambda: banded(9),
    "png L6 chained": lambda: Chained(6),
    "png L9 chained": lambda: Chained(9),
    "webp m0 q100": lambda: webp(0, 100),
    "webp m1 q0": lambda: webp(1, 0),
    "webp m1 q25": lambda: webp(1, 25),
    "webp m2 q50": lambda: webp(2, 50),
}


def measure(images: list[tuple[object, float]]) -> dict[str, tuple[float, float]]:
    """Per candidate: (median bytes, CPU ms per action: drawing + its encode), candidates in turn."""
    writers = {name: make() for name, make in CANDIDATES.items()}
    sizes = {name: [] for name in writers}
    encode_ms = {name: 0.0 for name in writers}
    for image, _ in images:
        for name, write in writers.items():
            start = time.process_time()
            sizes[name].append(write(image))
            encode_ms[name] += (time.process_time() - start) * 1e3
    drawing = sum(ms for _, ms in images)
    return {name: (statistics.median(sizes[name]), (drawing + encode_ms[name]) / len(images)) for name in writers}


def shrunk(image, scale: float):
    from PIL import Image
    size = (round(image.width * scale), round(image.height * scale))
    return image.convert("RGB").resize(size, Image.Resampling.BOX).quantize(
        256, method=Image.Quantize.MAXCOVERAGE, dither=Image.Dither.NONE)


def canvas_estimates(images: list[tuple[object, float]], scales: list[float], base_bytes: float) -> None:
    for scale in scales:
        small = [shrunk(image, scale) for image, _ in images]
        today, chained = banded(1), Chained(6)
        sizes = (statistics.median(today(im) for im in small), statistics.median(chained(im) for im in small))
        print(f"  canvas {scale:.2f}× (est.) {sizes[0] / 1024:6.1f} KiB {sizes[0] / base_bytes:5.2f}×; "
              f"png L6 chained {sizes[1] / 1024:6.1f} KiB {sizes[1] / base_bytes:5.2f}× (goal ≤ {GOAL_BYTES})", flush=True)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(GAMES))
    parser.add_argument("--games", dest="n_games", type=int, default=2, help="random games per player count")
    parser.add_argument("--steps", type=int, default=60, help="actions per game at most")
    parser.add_argument("--canvas", type=float, nargs="*", default=[], help="scales of a smaller canvas to estimate")
    args = parser.parse_args(argv)
    if sys.gettrace() is not None:
        raise SystemExit("board_bytes_bench: a tracer is on; timings would be meaningless")
    renderers.warm_all()
    import os
    print(f"median public board (KiB) and CPU per action (drawing + encode, ms); goal: bytes ≤ {GOAL_BYTES}× "
          f"today's, CPU ≤ {GOAL_CPU}× today's; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    results = {}
    for name in args.games:
        images = [board for players in get_game(name).player_counts() for g in range(args.n_games)
                  for board in boards(name, players, 100 * players + g, args.steps)]
        rows = results[name] = measure(images)
        base_bytes, base_cpu = rows["today"]
        print(f"{name} ({len(images)} boards, {images[0][0].width}x{images[0][0].height} and up):")
        for candidate, (size, cpu) in rows.items():
            b, c = size / base_bytes, cpu / base_cpu
            verdict = "meets both" if b <= GOAL_BYTES and c <= GOAL_CPU else \
                ("bytes only" if b <= GOAL_BYTES else ("CPU only" if c <= GOAL_CPU else "neither"))
            print(f"  {candidate:<15} {size / 1024:6.1f} KiB {b:5.2f}× (goal ≤ {GOAL_BYTES})   {cpu:6.2f} ms "
                  f"{c:5.2f}× (goal ≤ {GOAL_CPU})   {verdict if candidate != 'today' else ''}", flush=True)
        canvas_estimates(images, args.canvas, base_bytes)
    return results


if __name__ == "__main__":
    main()
