"""The fork server's warm-up (bot/workers/warming.py): a palette is its colours, and they are kept between
starts, keyed by the drawing code, so a restart sets them instead of drawing their swatches."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from PIL import Image

import renderers
from renderers.common import Palette

ROOT = Path(__file__).resolve().parents[1]

START = """
import json, os, sys
from renderers import common
preset_before = sorted(common.PALETTE_COLOURS)
from bot.workers import warming  # what the fork server imports: palettes set or drawn, the rest in the background
import renderers
modules = sorted({fn.__module__ for fn in renderers._RENDERERS.values()})
print(json.dumps({"before": preset_before, "preset": sorted(common.PALETTE_COLOURS),
                  "file": str(warming.cache_path()),
                  "colours": {m: sys.modules[m].palette().colours for m in modules}}), flush=True)
os._exit(0)  # the sprites' thread is not waited for
"""


def start(cache: Path) -> dict:
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "XDG_CACHE_HOME": str(cache),
           "TABLETOP_CHECK_IMAGES": os.environ.get("TABLETOP_CHECK_IMAGES", "0")}
    out = subprocess.run([sys.executable, "-c", START], cwd=ROOT, capture_output=True, text=True, timeout=600,
                         env=env)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_palette_is_its_colours():
    for module in sorted({fn.__module__ for fn in renderers._RENDERERS.values()}):
        drawn = sys.modules[module].palette()
        kept = Palette.of(json.loads(json.dumps(drawn.colours)), drawn.exact_count)  # as the file holds them
        assert kept.colours == drawn.colours and kept.exact_count == drawn.exact_count, module
        assert kept.image.getpalette() == drawn.image.getpalette(), module
        sample = Image.effect_noise((64, 48), 90).convert("RGB")  # every kind of colour, mapped alike
        assert kept.convert(sample).tobytes() == drawn.convert(sample).tobytes(), module
        assert [kept.index(c) for c in drawn.colours[:drawn.exact_count]] == list(range(drawn.exact_count))


def test_the_palettes_are_drawn_once_then_set_from_the_kept_colours(tmp_path):
    first = start(tmp_path)
    assert first["before"] == [] and first["preset"] == []  # nothing kept yet: drawn, then kept
    assert Path(first["file"]).is_file() and Path(first["file"]).is_relative_to(tmp_path)
    second = start(tmp_path)
    assert second["preset"] == sorted(first["colours"])  # every renderer's colours set before drawing
    assert second["colours"] == first["colours"]


def test_a_damaged_file_is_drawn_again_and_replaced(tmp_path):
    first = start(tmp_path)
    Path(first["file"]).write_text("{not json")
    again = start(tmp_path)
    assert again["preset"] == [] and again["colours"] == first["colours"]
    assert json.loads(Path(first["file"]).read_text())  # written whole again
