"""The workers' fork server's warm-up (``WARM_SPRITES``), run by importing this module there.

First the palettes, before any worker forks (most of a game's first board): their colours are
kept in a file between starts, keyed by the drawing code and Pillow's version, so a restart that
changed neither sets them instead of drawing their swatches (about a second of CPU, while the
bot logs in). Then every other sprite, on a thread of the lowest priority
(``bot.workers.pool.warm_in_background``)."""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

import PIL

import renderers
from renderers import common

from .pool import warm_in_background

SOURCES = ("renderers", "games")  # what a palette's colours follow from, besides Pillow


def cache_path() -> Path:
    """Where the palettes' colours are kept: the user's cache folder, one file per drawing code."""
    root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return root / "tabletop-bot" / f"palettes-{code_version()}.json"


def code_version() -> str:
    """A digest of every module of the renderers and engines, Pillow's and Python's versions."""
    digest = hashlib.sha256(f"{PIL.__version__} {sys.version}".encode())
    base = Path(renderers.__file__).resolve().parents[1]
    for package in SOURCES:
        for path in sorted((base / package).rglob("*.py")):
            digest.update(str(path.relative_to(base)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def load_palettes(path: Path) -> bool:
    """Set the palettes' colours from ``path``; False when it holds none (absent, unreadable)."""
    try:
        kept = json.loads(path.read_text())
        colours = {module: ([tuple(c) for c in entry[0]], int(entry[1])) for module, entry in kept.items()}
    except (OSError, ValueError, TypeError, IndexError):
        return False
    common.PALETTE_COLOURS.update(colours)
    return True


def save_palettes(path: Path) -> None:
    """Keep every drawn palette's colours in ``path`` (written whole, then renamed into place, so a
    bot starting meanwhile reads all of it or nothing); a folder that cannot be written is skipped."""
    kept = {module: [list(map(list, p.colours)), p.exact_count]
            for module in sorted({fn.__module__ for fn in renderers._RENDERERS.values()})
            if (p := getattr(sys.modules[module], "palette", lambda: None)()) is not None}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_suffix(f".{os.getpid()}.part")
        part.write_text(json.dumps(kept))
        part.replace(path)
    except OSError:
        pass


def warm_palettes() -> None:
    path = cache_path()
    known = load_palettes(path)
    renderers.warm_palettes()
    if not known:
        save_palettes(path)


warm_palettes()
warm_in_background()
