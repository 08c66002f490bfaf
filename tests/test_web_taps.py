"""The page's promise on a phone (#42): every tap target of the board and the panel at least 44 CSS px
at 400 px wide. The page (static/table.js) opens each picture at the least zoom that makes its smallest
region TARGET px in its box and pans sideways inside that box; this checks, over playouts of every
game and every viewer, that the zoom it needs stays within the page's MAX_ZOOM, with the page's own
constants. The browser tests measure the drawn page (``#board[data-zoom]``, ``.region`` boxes)."""

from __future__ import annotations

import re
import struct
from importlib import resources

import pytest

import renderers
from games import all_games
from tests.playouts import random_states

SCRIPT = (resources.files("bot.web") / "static" / "table.js").read_text(encoding="utf-8")
STYLE = (resources.files("bot.web") / "static" / "table.css").read_text(encoding="utf-8")
TARGET = float(re.search(r"\bTARGET = (\d+(?:\.\d+)?)", SCRIPT)[1])
MAX_ZOOM = float(re.search(r"\bMAX_ZOOM = (\d+(?:\.\d+)?)", SCRIPT)[1])
MARGIN = float(re.search(r"100 \* (\d\.\d+) \* TARGET", SCRIPT)[1])
PADDING = float(re.search(r"main \{[^}]*padding: \d+px (\d+)px", STYLE)[1])
PHONE = 400
FRAME = PHONE - 2 * PADDING  # the board's box on a 400 px phone: the page's width less main's side padding


def png_width(image: bytes) -> int:
    assert image[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">I", image[16:20])[0]


def least_zoom(width: int, regions: list[dict]) -> float:
    """What leastZoom() in table.js works out for this picture in a FRAME px box."""
    smallest = min(min(x1 - x0, y1 - y0) for x0, y0, x1, y1 in (r["box"] for r in regions))
    return max(1.0, MARGIN * TARGET * width / (max(1, smallest) * FRAME))


def test_the_page_reads_its_constants_as_this_test_does():
    assert TARGET == 44 and MAX_ZOOM >= 2 and MARGIN >= 1 and FRAME <= 380
    assert "overflow-x: auto" in STYLE and re.search(r"html, body \{[^}]*overflow-x: hidden", STYLE)


@pytest.mark.parametrize("game", [g for g in all_games()], ids=lambda g: g.name)
def test_every_tap_target_can_be_44_px_on_a_phone(game):
    counts = sorted(game.player_counts())
    checked = 0
    for n, state in enumerate(random_states(game, counts[:1] + counts[-1:], seeds=(3,), steps=60)):
        if n % 12:
            continue
        for seat in [None, *sorted(game.to_act(state))[:1]]:
            view = game.view(state, seat)
            pictures = [renderers.render_with_regions(game.name, view)]
            if seat is not None and game.hidden_information:
                pictures.append(renderers.render_panel_with_regions(game.name, view))
            for image, regions in pictures:
                if not regions:
                    continue  # a game whose renderer records no regions yet: buttons only
                need = least_zoom(png_width(image), regions)
                assert need <= MAX_ZOOM, f"{game.name}: needs zoom {need:.2f} for 44 px targets at {PHONE} px"
                checked += 1
    if game.name == "squares":
        assert checked, "squares draws regions: some position must have been checked"
