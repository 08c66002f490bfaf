"""CPU work of replays, run in the worker pool: one step's board, and a whole game's animated recap.

Both rebuild states from seed + options + log (``games.replay``). Each worker process keeps the
last few games' :class:`~games.replay.Replay` objects (and so their checkpoints), so paging
through a viewer costs at most a few ``apply`` calls and one drawing per click.

The recap is an animated WebP of every step's *public* board. Steps that change nothing public
(a secret order handed in) would repeat a frame: they lengthen the previous frame instead. Frames
are downscaled until the file fits the budget (Discord's 8 MiB default upload limit, with a margin).
"""

from __future__ import annotations

import io
import json
from collections import OrderedDict

from PIL import Image

import renderers
from games import get_game
from games.base import events_for
from games.replay import Replay

REPLAYS_KEPT = 8
RECAP_BUDGET = 7 * 1024 * 1024  # under Discord's 8 MiB default limit, with room for the request
RECAP_WIDTH = 480  # first try; narrower when the file would be too big
RECAP_MIN_WIDTH = 160
FRAME_MS = 600
LAST_FRAME_MS = 4000
RECAP_QUALITY = 70
RECAP_METHOD = 1  # libwebp effort 0-6: 1 encodes several times faster than 4 for a few % more bytes

_replays: OrderedDict[tuple, Replay] = OrderedDict()


def replay_of(game_name: str, players: int, options: dict, seed: int, log: list[tuple[int, str]]) -> Replay:
    """A Replay holding at least ``log``, reusing this process's checkpoints for the same game."""
    key = (game_name, players, json.dumps(options, sort_keys=True), seed)
    log = [(int(s), str(a)) for s, a in log]
    replay = _replays.get(key)
    if replay is not None:
        known = replay.log
        if known[: len(log)] == log:
            _replays.move_to_end(key)
            return replay
        if log[: len(known)] == known:
            replay.extend(log[len(known):])
            _replays.move_to_end(key)
            return replay
    replay = Replay(get_game(game_name), players, options, seed, log)
    _replays[key] = replay
    while len(_replays) > REPLAYS_KEPT:
        _replays.popitem(last=False)
    return replay


def frame(game_name: str, players: int, options: dict, seed: int, log: list[tuple[int, str]],
          pov: int | None, lang: str = "en") -> tuple[list[dict], dict | None, bytes]:
    """The step after ``log``: its public events, the outcome if the game had ended there, and the
    board as ``pov`` saw it (a seat's own view, or the public one for ``None``), its names in ``lang``."""
    replay = replay_of(game_name, players, options, seed, log)
    step = replay.step(len(log))
    game = replay.game
    outcome = game.outcome(step.state)
    image = renderers.render(game_name, game.view(step.state, pov), lang=lang)
    return events_for(step.events, None), (outcome.to_json() if outcome else None), image


def public_frames(game_name: str, players: int, options: dict, seed: int,
                  log: list[tuple[int, str]], lang: str = "en") -> list[tuple[bytes, int]]:
    """Every step's public board as PNG bytes (names in ``lang``), with how many steps it stays
    (repeats merged)."""
    replay = replay_of(game_name, players, options, seed, log)
    game = replay.game
    frames: list[tuple[bytes, int]] = []
    for step in replay.walk():
        png = renderers.render(game_name, game.view(step.state, None), lang=lang)
        if frames and frames[-1][0] == png:
            frames[-1] = (png, frames[-1][1] + 1)
        else:
            frames.append((png, 1))
    return frames


def encode_animation(frames: list[tuple[bytes, int]], width: int) -> bytes:
    """An animated WebP of the frames, each ``width`` pixels wide, looping."""
    images, durations = [], []
    for i, (png, count) in enumerate(frames):
        with Image.open(io.BytesIO(png)) as source:
            image = source.convert("RGB")
        if width < image.width:
            image = image.resize((width, max(1, round(image.height * width / image.width))), Image.Resampling.BILINEAR)
        images.append(image)
        durations.append(LAST_FRAME_MS if i == len(frames) - 1 else FRAME_MS * min(count, 3))
    # An animation has one size; boards that grow (a map of joined sheets) sit on a canvas of the
    # largest, filled with the colour of their own corner.
    size = (max(i.width for i in images), max(i.height for i in images))
    canvas = []
    for image in images:
        if image.size != size:
            padded = Image.new("RGB", size, image.getpixel((0, 0)))
            padded.paste(image, ((size[0] - image.width) // 2, 0))
            image = padded
        canvas.append(image)
    out = io.BytesIO()
    canvas[0].save(out, format="WEBP", save_all=True, append_images=canvas[1:], duration=durations, loop=0,
                   quality=RECAP_QUALITY, method=RECAP_METHOD)
    return out.getvalue()


def recap(game_name: str, players: int, options: dict, seed: int, log: list[tuple[int, str]],
          budget: int = RECAP_BUDGET, lang: str = "en") -> bytes:
    """The whole game as an animated WebP of at most ``budget`` bytes, its names in ``lang``
    (ValueError if even the smallest frames do not fit)."""
    frames = public_frames(game_name, players, options, seed, log, lang)
    width = RECAP_WIDTH
    while True:
        data = encode_animation(frames, width)
        if len(data) <= budget:
            return data
        if width <= RECAP_MIN_WIDTH:
            if len(frames) <= 2:
                raise ValueError(f"a recap of {len(frames)} frames is {len(data)} bytes even at {width} px")
            frames = halved(frames)  # smaller frames no longer help: show every other step
            continue
        # The size grows with the area, and less than that: shrink by the square root of the excess, and more.
        width = max(RECAP_MIN_WIDTH, int(width * (budget / len(data)) ** 0.5 * 0.8))


def halved(frames: list[tuple[bytes, int]]) -> list[tuple[bytes, int]]:
    """Every other frame, each standing for the steps of the one dropped after it; the last kept."""
    kept = [(frames[i][0], frames[i][1] + (frames[i + 1][1] if i + 1 < len(frames) - 1 else 0))
            for i in range(0, len(frames) - 1, 2)]
    return kept + [frames[-1]]
