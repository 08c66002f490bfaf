"""The HOSTILE board image (RULES.md §1), drawn from a ``view`` dict and nothing else.

Layout (940 x 822 px)::

      A  B  C  D  E  F  G  H        +-------------------------+
    8 [ ][ ][ ][ ][ ][ ][ ][ ] 8     | seat panel: marker, badge|
    ...   the 8x8 board        ...   | gems (team total), flag  |
    1 [ ][ ][ ][ ][ ][ ][ ][ ] 1     | skill, uses, AP, hand    |
      A  B  C  D  E  F  G  H        +-- one per seat ----------+
    [ line: gem tiles + floor tiles ...........  decks ]
    [ skill cards: available / taken (owner) / out / left aside ]

Every square is one cached sprite keyed by what is on it: its floor (checker, a start corner in its
owner's colour, the three squares next to a start lightly tinted in the owner's colour, an unused
corner hatched), the floor tile, the gems, the piece. Tiles read by shape first and colour second:
slide and diagonal slide a big blue arrow, spring an orange double chevron (it jumps two squares),
ice a pale snowflake, stop a red octagon with a white bar, walls thick black bars on their closed
sides (box all four, L two adjacent, parallel two opposite). Gems are yellow diamonds with their
count. Pieces are the seat's token (colour, shape and letter, as everywhere in the project).
The last action's squares are outlined, and its movement path drawn as yellow arrows with a black
edge, one per step (moves, slides, ice, spring jumps, returns home).

Text is only coordinates, numbers and gem tile squares; skills are drawn as icons (crash: burst,
rotate: turning arrow, recall: house, king: crown, steal: hand-down arrow into a tray, ghost: a
ghost, quick: lightning). Composition is in palette mode from cached sprites, like SQUARESIV.

>>> from games.hostile.engine import Hostile
>>> g = Hostile()
>>> render(g.view(g.setup(2, {}, seed=1), None))[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

import math
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from . import register
from .common import (
    HIGHLIGHT, INK, MUTED, OKABE_ITO, PAPER, STONE, WHITE, Palette, SquareGrid, crown, draw_arrow,
    draw_highlight, draw_shape, draw_text, mix, player_style, png_bytes, seat_markers, status_marker, supersampled,
)

GAME_NAME = "hostile"

# ---- layout ----------------------------------------------------------------------------------------
CELL = 74
PAD = 10
COORD = 30
GRID = SquareGrid(left=PAD + COORD, top=PAD + COORD, cell=CELL, cols=8, rows=8)
PANEL_X0 = GRID.right + COORD + 12
WIDTH = 940
PANEL_W = WIDTH - PAD - PANEL_X0
PANEL_H = 150
PANEL_GAP = 9
STRIP_Y = GRID.bottom + COORD + 6
LINE_H = 72
SKILL_H = 66
HEIGHT = STRIP_Y + LINE_H + 6 + SKILL_H + PAD
SLOT = 56            # a line tile
HAND = 46            # a hand tile
SKILL_ICON = 40

# ---- colours -------------------------------------------------------------------------------------------
LIGHT_SQ = (246, 244, 236)
DARK_SQ = (226, 223, 212)
SLIDE_BG = (205, 228, 245)
SLIDE_INK = (0, 86, 140)
SPRING_BG = (252, 226, 178)
SPRING_INK = (150, 80, 0)
ICE_BG = (231, 246, 252)
ICE_INK = (90, 150, 190)
STOP_BG = (250, 214, 200)
STOP_RED = (200, 40, 20)
WALL_BG = (214, 214, 214)
GEM = OKABE_ITO["yellow"]
GEM_DARK = (150, 130, 0)
GEM_CARD = (255, 248, 200)
UNUSED = (200, 200, 200)
STRIP_BG = (240, 240, 240)

CORNERS = ("A1", "A8", "H8", "H1")
SKILLS = ("crash", "rotate", "recall", "king", "steal", "ghost", "quick")
DIR_VEC = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0),
           "NE": (1, -1), "SE": (1, 1), "SW": (-1, 1), "NW": (-1, -1)}  # screen y grows down


# ---- tile drawing (into a supersampled canvas) ------------------------------------------------------------
def _unit(direction: str) -> tuple[float, float]:
    dx, dy = DIR_VEC[direction]
    n = math.hypot(dx, dy)
    return dx / n, dy / n


def _paint_tile(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], kind: str, orient: str,
                k: int) -> None:
    """One floor tile filling ``box`` (already scaled by ``k``)."""
    x0, y0, x1, y1 = box
    s = x1 - x0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    line = max(2, round(0.03 * s))
    radius = 0.1 * s
    if kind in ("slide", "diag"):
        d.rounded_rectangle(box, radius=radius, fill=SLIDE_BG, outline=SLIDE_INK, width=line)
        ux, uy = _unit(orient or ("N" if kind == "slide" else "NE"))
        reach = 0.36 * s if kind == "slide" else 0.34 * s
        draw_arrow(d, (cx - ux * reach, cy - uy * reach), (cx + ux * reach, cy + uy * reach), fill=SLIDE_INK,
                   width=0.16 * s, head_length=0.34 * s, head_width=0.52 * s)
    elif kind == "spring":
        d.rounded_rectangle(box, radius=radius, fill=SPRING_BG, outline=SPRING_INK, width=line)
        ux, uy = _unit(orient or "N")
        nx, ny = -uy, ux
        # a launch pad at the tail, two filled chevrons toward the jump (two squares)

        def at(t: float, side: float) -> tuple[float, float]:
            return (cx + ux * t * s + nx * side * s, cy + uy * t * s + ny * side * s)

        d.polygon([at(-0.4, -0.26), at(-0.4, 0.26), at(-0.3, 0.26), at(-0.3, -0.26)], fill=SPRING_INK)
        for tip in (0.1, 0.4):
            d.polygon([at(tip, 0), at(tip - 0.22, 0.27), at(tip - 0.34, 0.27), at(tip - 0.13, 0),
                       at(tip - 0.34, -0.27), at(tip - 0.22, -0.27)], fill=SPRING_INK)
    elif kind == "ice":
        d.rounded_rectangle(box, radius=radius, fill=ICE_BG, outline=ICE_INK, width=line)
        arm = 0.3 * s
        for angle in (90, 30, 150):
            a = math.radians(angle)
            dx, dy = math.cos(a) * arm, math.sin(a) * arm
            d.line([(cx - dx, cy - dy), (cx + dx, cy + dy)], fill=ICE_INK, width=round(0.06 * s))
            for sign in (1, -1):
                bx, by = cx + sign * dx * 0.62, cy + sign * dy * 0.62
                for twist in (40, -40):
                    b = a + math.radians(twist) + (0 if sign > 0 else math.pi)
                    d.line([(bx, by), (bx + math.cos(b) * 0.12 * s, by + math.sin(b) * 0.12 * s)],
                           fill=ICE_INK, width=round(0.045 * s))
        # two slick streaks
        for off in (-0.3, 0.3):
            d.line([(cx + off * s - 0.08 * s, cy + 0.38 * s), (cx + off * s + 0.08 * s, cy + 0.3 * s)],
                   fill=WHITE, width=round(0.04 * s))
    elif kind == "stop":
        d.rounded_rectangle(box, radius=radius, fill=STOP_BG, outline=STOP_RED, width=line)
        r = 0.36 * s
        octagon = [(cx + r * math.cos(math.radians(22.5 + 45 * i)), cy + r * math.sin(math.radians(22.5 + 45 * i)))
                   for i in range(8)]
        d.polygon(octagon, fill=STOP_RED, outline=INK, width=max(2, line // 2))
        d.rectangle((cx - 0.22 * s, cy - 0.065 * s, cx + 0.22 * s, cy + 0.065 * s), fill=WHITE)
    else:  # walls
        d.rectangle(box, fill=WALL_BG)
        # light hatching: "solid" material
        step_ = 0.14 * s
        t = -s
        while t < s:
            d.line([(x0 + t, y1), (x0 + t + s, y0)], fill=mix(WALL_BG, INK, 0.18), width=max(1, round(0.012 * s)))
            t += step_
        d.rectangle(box, outline=mix(WALL_BG, INK, 0.4), width=max(1, line // 2))
        closed = {"box": "NESW", "lwall": orient or "NE", "para": orient or "NS"}.get(kind, "")
        w = 0.17 * s
        bars = {"N": (x0, y0, x1, y0 + w), "S": (x0, y1 - w, x1, y1),
                "W": (x0, y0, x0 + w, y1), "E": (x1 - w, y0, x1, y1)}
        for side in closed:
            d.rectangle(bars[side], fill=INK)
        # an open side gets a small white "gate" arrow pointing in
        for side in "NESW":
            if side in closed:
                continue
            ux, uy = _unit(side)
            ox, oy = cx + ux * 0.38 * s, cy + uy * 0.38 * s
            nx, ny = -uy, ux
            tri = [(ox - ux * 0.13 * s, oy - uy * 0.13 * s), (ox + nx * 0.1 * s, oy + ny * 0.1 * s),
                   (ox - nx * 0.1 * s, oy - ny * 0.1 * s)]
            d.polygon(tri, fill=WHITE, outline=mix(WALL_BG, INK, 0.5))


def _paint_gem(d: ImageDraw.ImageDraw, cx: float, cy: float, size: float, k: int) -> None:
    """A cut gem: a diamond with a flat top, facets drawn in."""
    w, h = size, size * 0.85
    top = cy - h / 2
    mid = top + h * 0.32
    bottom = cy + h / 2
    outline = [(cx - w * 0.3, top), (cx + w * 0.3, top), (cx + w / 2, mid), (cx, bottom), (cx - w / 2, mid)]
    d.polygon(outline, fill=GEM, outline=INK, width=max(2, round(size * 0.06)))
    d.line([(cx - w / 2, mid), (cx + w / 2, mid)], fill=GEM_DARK, width=max(1, round(size * 0.04)))
    d.line([(cx - w * 0.12, mid), (cx, bottom), (cx + w * 0.12, mid)], fill=GEM_DARK, width=max(1, round(size * 0.04)))


def _paint_piece(d: ImageDraw.ImageDraw, cx: float, cy: float, radius: float, seat: int, k: int) -> None:
    style = player_style(seat)
    box = (cx - radius, cy - radius, cx + radius, cy + radius)
    draw_shape(d, style.shape, (box[0] - 3 * k, box[1] - 3 * k, box[2] + 3 * k, box[3] + 3 * k), fill=WHITE)
    draw_shape(d, style.shape, box, fill=style.colour, outline=INK, width=max(2, round(radius * 0.12)))
    dy = radius * 0.18 if style.shape == "triangle" else 0
    draw_text(d, (cx, cy + dy), style.letter, round(radius * (0.95 if style.shape != "triangle" else 0.8)),
              style.ink, bold=True)


# ---- cell sprites ------------------------------------------------------------------------------------------
def base_colour(base: tuple) -> tuple[int, int, int]:
    kind = base[0]
    if kind == "start":
        return player_style(base[1]).light
    if kind == "zone":
        return mix(player_style(base[1]).light, LIGHT_SQ if base[2] else DARK_SQ, 0.45)
    if kind == "unused":
        return UNUSED
    return LIGHT_SQ if base[1] else DARK_SQ


def _cell_rgb(base: tuple, kind: str | None, orient: str, gems: int, piece: int | None) -> Image.Image:
    floor = base_colour(base)

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        s = CELL * k
        if base[0] == "start":
            style = player_style(base[1])
            d.rectangle((0, 0, s, s), outline=style.colour, width=round(0.09 * s))
            d.rectangle((round(0.09 * s), round(0.09 * s), s - round(0.09 * s), s - round(0.09 * s)),
                        outline=style.dark, width=max(2, k * 2))
            if piece is None:  # an empty start shows its owner's token, faded
                small = 0.22 * s
                draw_shape(d, style.shape, (s / 2 - small, s / 2 - small, s / 2 + small, s / 2 + small),
                           fill=mix(style.colour, WHITE, 0.55), outline=style.dark, width=2 * k)
                draw_text(d, (s / 2, s / 2 + (0.04 * s if style.shape == "triangle" else 0)), style.letter,
                          round(0.24 * s), style.dark, bold=True)
        elif base[0] == "unused":
            for t in range(-s, s, round(0.16 * s)):
                d.line([(t, s), (t + s, 0)], fill=mix(UNUSED, INK, 0.15), width=2 * k)
        if kind:
            m = round(0.05 * s)
            _paint_tile(d, (m, m, s - m, s - m), kind, orient, k)
        if gems:
            if kind is None and piece is None:
                _paint_gem(d, s / 2, s * 0.46, 0.46 * s, k)
                if gems > 1:
                    _count_badge(d, s * 0.76, s * 0.76, gems, 0.2 * s)
            else:
                _paint_gem(d, s * 0.8, s * 0.2, 0.3 * s, k)
                if gems > 1:
                    _count_badge(d, s * 0.8, s * 0.45, gems, 0.15 * s)
        if piece is not None:  # on a tile the piece steps aside so the tile's symbol still reads
            if kind:
                _paint_piece(d, 0.34 * s, 0.66 * s, 0.22 * s, piece, k)
            else:
                _paint_piece(d, s / 2, s / 2, 0.3 * s, piece, k)

    return supersampled((CELL, CELL), paint, background=floor).convert("RGB")


def _count_badge(d: ImageDraw.ImageDraw, cx: float, cy: float, count: int, r: float) -> None:
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=WHITE, outline=INK, width=max(2, round(r * 0.12)))
    draw_text(d, (cx, cy + r * 0.05), str(count), round(r * (1.35 if count < 10 else 1.05)), INK, bold=True)


# ---- icons ------------------------------------------------------------------------------------------------
def _paint_skill(d: ImageDraw.ImageDraw, box: tuple, skill: str, k: int, faded: bool = False) -> None:
    x0, y0, x1, y1 = box
    s = x1 - x0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    ink = mix(INK, WHITE, 0.55) if faded else INK
    card = (236, 236, 236) if faded else (255, 255, 255)
    d.rounded_rectangle(box, radius=0.16 * s, fill=card, outline=ink, width=max(2, round(0.05 * s)))
    lw = max(2, round(0.07 * s))
    colour = {"crash": (213, 94, 0), "rotate": (0, 114, 178), "recall": (0, 158, 115), "king": (230, 159, 0),
              "steal": (204, 121, 167), "ghost": (150, 150, 170), "quick": (240, 200, 0)}[skill]
    if faded:
        colour = mix(colour, WHITE, 0.6)
    if skill == "crash":
        pts = []
        for i in range(16):
            r = (0.36 if i % 2 == 0 else 0.16) * s
            a = math.radians(i * 22.5 - 90)
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
        d.polygon(pts, fill=colour, outline=ink, width=max(1, lw // 2))
    elif skill == "rotate":
        r = 0.27 * s
        d.arc((cx - r, cy - r, cx + r, cy + r), start=-60, end=210, fill=colour, width=round(0.11 * s))
        a = math.radians(-60)
        tip = (cx + r * math.cos(a), cy + r * math.sin(a))
        d.polygon([(tip[0] + 0.17 * s, tip[1] + 0.02 * s), (tip[0] - 0.1 * s, tip[1] - 0.13 * s),
                   (tip[0] - 0.06 * s, tip[1] + 0.16 * s)], fill=colour)
    elif skill == "recall":
        d.polygon([(cx, cy - 0.32 * s), (cx + 0.32 * s, cy - 0.02 * s), (cx + 0.22 * s, cy - 0.02 * s),
                   (cx + 0.22 * s, cy + 0.3 * s), (cx - 0.22 * s, cy + 0.3 * s), (cx - 0.22 * s, cy - 0.02 * s),
                   (cx - 0.32 * s, cy - 0.02 * s)], fill=colour, outline=ink, width=max(1, lw // 2))
        d.rectangle((cx - 0.07 * s, cy + 0.08 * s, cx + 0.07 * s, cy + 0.3 * s), fill=card)
    elif skill == "king":
        d.polygon(crown((cx - 0.32 * s, cy - 0.24 * s, cx + 0.32 * s, cy + 0.24 * s)), fill=colour, outline=ink,
                  width=max(1, lw // 2))
    elif skill == "steal":
        d.line([(cx - 0.3 * s, cy + 0.06 * s), (cx - 0.3 * s, cy + 0.32 * s), (cx + 0.3 * s, cy + 0.32 * s),
                (cx + 0.3 * s, cy + 0.06 * s)], fill=ink, width=lw, joint="curve")
        draw_arrow(d, (cx, cy - 0.36 * s), (cx, cy + 0.2 * s), fill=colour, outline=ink, width=0.14 * s,
                   head_length=0.2 * s, head_width=0.34 * s, outline_width=max(1, lw // 2))
    elif skill == "ghost":
        top, bottom = cy - 0.32 * s, cy + 0.3 * s
        w = 0.26 * s
        body = [(cx - w, cy - 0.06 * s)]
        for i in range(0, 181, 15):
            a = math.radians(180 + i)
            body.append((cx + w * math.cos(a), cy - 0.06 * s + (cy - 0.06 * s - top) * math.sin(a)))
        body += [(cx + w, bottom), (cx + w / 2, bottom - 0.1 * s), (cx, bottom), (cx - w / 2, bottom - 0.1 * s),
                 (cx - w, bottom)]
        d.polygon(body, fill=colour, outline=ink, width=max(1, lw // 2))
        for ex in (-0.1, 0.1):
            d.ellipse((cx + ex * s - 0.045 * s, cy - 0.12 * s, cx + ex * s + 0.045 * s, cy - 0.01 * s), fill=ink)
    elif skill == "quick":
        d.polygon([(cx + 0.08 * s, cy - 0.38 * s), (cx - 0.22 * s, cy + 0.06 * s), (cx - 0.01 * s, cy + 0.06 * s),
                   (cx - 0.1 * s, cy + 0.38 * s), (cx + 0.23 * s, cy - 0.08 * s), (cx + 0.02 * s, cy - 0.08 * s)],
                  fill=colour, outline=ink, width=max(1, lw // 2))


def _paint_gem_tile(d: ImageDraw.ImageDraw, box: tuple, square: str, k: int) -> None:
    x0, y0, x1, y1 = box
    s = x1 - x0
    d.rounded_rectangle(box, radius=0.12 * s, fill=GEM_CARD, outline=GEM_DARK, width=max(2, round(0.04 * s)))
    _paint_gem(d, x0 + s / 2, y0 + 0.3 * s, 0.36 * s, k)
    draw_text(d, (x0 + s / 2, y0 + 0.72 * s), square, round(0.36 * s), INK, bold=True)


@lru_cache(maxsize=256)
def _mini_tile_rgb(tile: str, size: int, background: tuple) -> Image.Image:
    """A line or hand tile: floor kinds in their first orientation, gem tiles as a card with a square."""
    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        s = size * k
        if tile[:1].isupper():
            _paint_gem_tile(d, (k, k, s - k, s - k), tile, k)
        else:
            orient = {"slide": "N", "diag": "NE", "spring": "N", "lwall": "NE", "para": "NS"}.get(tile, "")
            _paint_tile(d, (k, k, s - k, s - k), tile, orient, k)

    return supersampled((size, size), paint, background=background).convert("RGB")


@lru_cache(maxsize=64)
def _skill_rgb(skill: str, size: int, background: tuple, faded: bool = False, crossed: bool = False) -> Image.Image:
    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        s = size * k
        _paint_skill(d, (k, k, s - k, s - k), skill, k, faded)
        if crossed:
            d.line([(0.12 * s, 0.12 * s), (0.88 * s, 0.88 * s)], fill=INK, width=round(0.07 * s))
            d.line([(0.12 * s, 0.88 * s), (0.88 * s, 0.12 * s)], fill=INK, width=round(0.07 * s))

    return supersampled((size, size), paint, background=background).convert("RGB")


def _token_rgb(seat: int, size: int, background: tuple) -> Image.Image:
    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        s = size * k
        _paint_piece(d, s / 2, s / 2, 0.4 * s, seat, k)

    return supersampled((size, size), paint, background=background).convert("RGB")


def _flag_rgb(size: int, background: tuple) -> Image.Image:
    """The start player marker: a chequered flag."""
    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        s = size * k
        d.line([(0.2 * s, 0.08 * s), (0.2 * s, 0.94 * s)], fill=INK, width=round(0.08 * s))
        x0, y0, x1, y1 = 0.24 * s, 0.1 * s, 0.92 * s, 0.56 * s
        d.rectangle((x0, y0, x1, y1), fill=WHITE, outline=INK, width=max(2, round(0.04 * s)))
        cw, ch = (x1 - x0) / 4, (y1 - y0) / 3
        for i in range(4):
            for j in range(3):
                if (i + j) % 2 == 0:
                    d.rectangle((x0 + i * cw, y0 + j * ch, x0 + (i + 1) * cw, y0 + (j + 1) * ch), fill=INK)

    return supersampled((size, size), paint, background=background).convert("RGB")


def _number_rgb(text: str, size: int, colour: tuple, background: tuple, width: int) -> Image.Image:
    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        draw_text(d, (2 * k, size * k / 2), text, size * k, colour, anchor="lm", bold=True)

    return supersampled((width, round(size * 1.3)), paint, background=background).convert("RGB")


def _dots_rgb(count: int, background: tuple) -> Image.Image:
    """Skill uses left this turn: small dark dots in a column beside the skill icon."""
    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        for i in range(count):
            y = (2 + i * 14) * k
            d.ellipse((2 * k, y, 12 * k, y + 10 * k), fill=INK)

    return supersampled((14, 40), paint, background=background).convert("RGB")


def _pips_rgb(left: int, total: int, colour: tuple, background: tuple, shape: str = "circle") -> Image.Image:
    """Action points: ``left`` filled, the rest hollow (squares: draft picks left)."""
    size = 26
    width = max(1, total) * (size + 6)

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        for i in range(total):
            x = (i * (size + 6) + 2) * k
            box = (x, 3 * k, x + (size - 2) * k, (size + 1) * k)
            if shape == "circle":
                d.ellipse(box, fill=colour if i < left else WHITE, outline=INK, width=2 * k)
            else:
                d.rounded_rectangle(box, radius=3 * k, fill=colour if i < left else WHITE, outline=INK, width=2 * k)

    return supersampled((width, size + 4), paint, background=background).convert("RGB")


def _stop_rgb(size: int, background: tuple) -> Image.Image:
    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        s = size * k
        r = 0.46 * s
        octagon = [(s / 2 + r * math.cos(math.radians(22.5 + 45 * i)),
                    s / 2 + r * math.sin(math.radians(22.5 + 45 * i))) for i in range(8)]
        d.polygon(octagon, fill=STOP_RED, outline=INK, width=2 * k)
        d.rectangle((0.22 * s, 0.42 * s, 0.78 * s, 0.58 * s), fill=WHITE)

    return supersampled((size, size), paint, background=background).convert("RGB")


def _gem_icon_rgb(size: int, background: tuple) -> Image.Image:
    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        s = size * k
        _paint_gem(d, s / 2, s / 2, 0.9 * s, k)

    return supersampled((size, size), paint, background=background).convert("RGB")


def _deck_rgb(count: int, gem: bool, warn: bool, background: tuple) -> Image.Image:
    """A stack of tiles with its count (red when the floor deck ran short)."""
    w, h = 104, 56

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        fill = GEM_CARD if gem else (210, 210, 215)
        for i in range(3):
            o = (6 - 3 * i) * k
            d.rounded_rectangle((o + 2 * k, o + 4 * k, o + 34 * k, o + 40 * k), radius=5 * k, fill=fill,
                                outline=INK, width=2 * k)
        if gem:
            _paint_gem(d, 20 * k, 24 * k, 20 * k, k)
        else:
            d.rectangle((12 * k, 16 * k, 28 * k, 32 * k), outline=INK, width=2 * k)
        colour = STOP_RED if warn else INK
        draw_text(d, (48 * k, 26 * k), str(count), 28 * k, colour, anchor="lm", bold=True)
        if warn:
            d.line([(46 * k, 46 * k), (98 * k, 46 * k)], fill=STOP_RED, width=4 * k)

    return supersampled((w, h), paint, background=background).convert("RGB")


# ---- panels --------------------------------------------------------------------------------------------------
def panel_box(index: int) -> tuple[int, int, int, int]:
    y0 = PAD + index * (PANEL_H + PANEL_GAP)
    return (PANEL_X0, y0, PANEL_X0 + PANEL_W, y0 + PANEL_H)


def _panel_rgb(seat: int, marker: str | None, gems: int, team: tuple | None, team_gems: int, start: bool,
               skill: str | None, uses: int | None, ap: tuple | None, stopped: bool, picks: int,
               hand: tuple) -> Image.Image:
    """One seat's panel: marker, badge, gems (team total), start flag, skill + uses, AP / picks, hand."""
    style = player_style(seat)
    bg = style.light
    w, h = PANEL_W, PANEL_H
    im = Image.new("RGB", (w, h), bg)
    d = ImageDraw.Draw(im)
    active = marker in ("turn", "win")
    d.rectangle((0, 0, w - 1, h - 1), outline=style.dark if active else style.colour, width=6 if active else 2)
    if marker:
        im.paste(status_marker(marker, seat, 30, bg), (8, 12))
    im.paste(_token_rgb(seat, 48, bg), (40, 4))
    im.paste(_gem_icon_rgb(30, bg), (94, 13))
    im.paste(_number_rgb(str(gems), 30, INK, bg, 52), (126, 8))
    if team:
        x = 176
        for mate in team:
            im.paste(_token_rgb(mate, 22, bg), (x, 17))
            x += 20
        im.paste(_number_rgb(str(team_gems), 22, INK, bg, 36), (x + 2, 14))
    if start:
        im.paste(_flag_rgb(32, bg), (w - 38, h - HAND + 2))
    y = 56
    if skill:
        im.paste(_skill_rgb(skill, SKILL_ICON, bg), (10, y))
        if uses is not None and uses > 0 and skill in ("crash", "rotate", "recall"):
            im.paste(_dots_rgb(uses, bg), (52, y + 2))
    x = 76
    if ap is not None:
        left, total = ap
        im.paste(_pips_rgb(left, total, style.colour, bg), (x, y + 6))
        x += total * 32 + 6
    if stopped:
        im.paste(_stop_rgb(30, bg), (x, y + 5))
    if picks:
        im.paste(_pips_rgb(picks, picks, WHITE, bg, shape="square"), (x, y + 6))
    for i, tile in enumerate(hand[:4]):
        im.paste(_mini_tile_rgb(tile, HAND, bg), (10 + i * (HAND + 8), h - HAND - 6))
    return im


# ---- the strip: line, decks, skills -----------------------------------------------------------------------------
def _line_rgb(gems: tuple, floor: tuple, floor_deck: int, gem_deck: int, warn: bool) -> Image.Image:
    w = WIDTH - 2 * PAD
    im = Image.new("RGB", (w, LINE_H), STRIP_BG)
    d = ImageDraw.Draw(im)
    d.rectangle((0, 0, w - 1, LINE_H - 1), outline=MUTED, width=2)
    x = 8
    for tile in gems:
        im.paste(_mini_tile_rgb(tile, SLOT, STRIP_BG), (x, 8))
        x += SLOT + 2
    x += 10
    room = w - 8 - 2 * 104 - 8 - x
    pitch = min(SLOT + 2, room // max(1, len(floor)))
    for tile in floor:
        im.paste(_mini_tile_rgb(tile, min(SLOT, pitch - 2), STRIP_BG), (x, 8))
        x += pitch
    right = w - 8 - 2 * 104
    im.paste(_deck_rgb(gem_deck, True, False, STRIP_BG), (right, 8))
    im.paste(_deck_rgb(floor_deck, False, warn, STRIP_BG), (right + 104, 8))
    return im


def _skills_rgb(state_of: tuple, owners: tuple, teams: tuple) -> Image.Image:
    """The seven skill cards: available, taken (owner token), out (crossed) or left aside (faded)."""
    w = WIDTH - 2 * PAD
    im = Image.new("RGB", (w, SKILL_H), STRIP_BG)
    d = ImageDraw.Draw(im)
    d.rectangle((0, 0, w - 1, SKILL_H - 1), outline=MUTED, width=2)
    pitch = (w - 16) // 7
    for i, skill in enumerate(SKILLS):
        status = state_of[i]
        x = 8 + i * pitch
        if status == "unused":
            continue
        icon = _skill_rgb(skill, 50, STRIP_BG, faded=status in ("out", "aside"), crossed=status == "out")
        im.paste(icon, (x + 4, 8))
        owner = owners[i]
        if owner is not None:
            im.paste(_token_rgb(owner, 40, STRIP_BG), (x + 60, 13))
    return im


# ---- palette ------------------------------------------------------------------------------------------------
_KINDS = (("slide", "N"), ("slide", "E"), ("diag", "NE"), ("spring", "S"), ("spring", "W"), ("ice", ""),
          ("stop", ""), ("box", ""), ("lwall", "NE"), ("para", "EW"))


@cache
def palette() -> Palette:
    sprites = []
    bases = [("sq", 1), ("sq", 0), ("start", 0), ("start", 1), ("start", 2), ("start", 3), ("unused",),
             ("zone", 0, 1), ("zone", 2, 0)]
    for base in bases:
        sprites.append(_cell_rgb(base, None, "", 0, None))
    for kind, orient in _KINDS:
        sprites.append(_cell_rgb(("sq", 1), kind, orient, 2, None))
        sprites.append(_cell_rgb(("sq", 0), kind, orient, 0, 1))
    for seat in range(4):
        sprites.append(_cell_rgb(("sq", 1), None, "", 0, seat))
        sprites.append(_cell_rgb(("sq", 0), None, "", 3, None))
        sprites.append(_panel_rgb(seat, "turn", 12, (0, 1), 20, True, "rotate", 2, (1, 2), True, 0,
                                  ("slide", "C4", "box", "spring")))
    sprites.append(_line_rgb(("C4", "D5"), ("ice", "stop", "lwall", "para", "diag"), 40, 30, True))
    sprites.append(_skills_rgb(("free", "taken", "out", "aside", "free", "taken", "free"),
                               (None, 0, None, None, None, 1, None), ()))
    sheet_w = WIDTH
    x, y, row_h = 0, 0, 0
    sheet = Image.new("RGB", (sheet_w, 2000), PAPER)
    for sp in sprites:
        if x + sp.width > sheet_w:
            x, y, row_h = 0, y + row_h, 0
        sheet.paste(sp, (x, y))
        x += sp.width
        row_h = max(row_h, sp.height)
    sheet = sheet.crop((0, 0, sheet_w, y + row_h))
    exact = [PAPER, WHITE, INK, MUTED, HIGHLIGHT, STONE, LIGHT_SQ, DARK_SQ, SLIDE_BG, SLIDE_INK, SPRING_BG,
             SPRING_INK, ICE_BG, ICE_INK, STOP_BG, STOP_RED, WALL_BG, GEM, GEM_CARD, UNUSED, STRIP_BG]
    for seat in range(4):
        st = player_style(seat)
        exact += [st.colour, st.dark, st.light, st.ink]
    return Palette(sheet, exact=exact)


@lru_cache(maxsize=4096)
def cell_sprite(base: tuple, kind: str | None, orient: str, gems: int, piece: int | None) -> Image.Image:
    return palette().convert(_cell_rgb(base, kind, orient, gems, piece))


@lru_cache(maxsize=512)
def panel_sprite(*key) -> Image.Image:
    return palette().convert(_panel_rgb(*key))


@lru_cache(maxsize=256)
def line_sprite(*key) -> Image.Image:
    return palette().convert(_line_rgb(*key))


@lru_cache(maxsize=256)
def skills_sprite(*key) -> Image.Image:
    return palette().convert(_skills_rgb(*key))


@lru_cache(maxsize=8)
def background() -> Image.Image:
    """Paper, coordinates on all four sides and the board frame."""
    im = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    d = ImageDraw.Draw(im)
    for c in range(8):
        x = GRID.left + (c + 0.5) * CELL
        for y in (GRID.top - COORD / 2 - 2, GRID.bottom + COORD / 2 + 2):
            draw_text(d, (x, y), "ABCDEFGH"[c], 26, INK, bold=True)
    for r in range(8):
        y = GRID.top + (7 - r + 0.5) * CELL
        for x in (GRID.left - COORD / 2 - 2, GRID.right + COORD / 2 + 2):
            draw_text(d, (x, y), str(r + 1), 26, INK, bold=True)
    d.rectangle((GRID.left - 3, GRID.top - 3, GRID.right + 2, GRID.bottom + 2), outline=INK, width=3)
    return palette().convert(im)


# ---- composing ---------------------------------------------------------------------------------------------
def _neighbours(square: str) -> list[str]:
    col, row = "ABCDEFGH".index(square[0]), int(square[1]) - 1
    out = []
    for dc in (-1, 0, 1):
        for dr in (-1, 0, 1):
            c, r = col + dc, row + dr
            if (dc or dr) and 0 <= c < 8 and 0 <= r < 8:
                out.append(f"{'ABCDEFGH'[c]}{r + 1}")
    return out


def square_bases(view: dict) -> dict[str, tuple]:
    """The floor of each square: checker, start (owner), zone next to a start (owner), unused corner."""
    starts = view.get("starts") or []
    bases: dict[str, tuple] = {}
    for c in range(8):
        for r in range(8):
            sq = f"{'ABCDEFGH'[c]}{r + 1}"
            bases[sq] = ("sq", (c + r) % 2)
    owners = {sq: seat for seat, sq in enumerate(starts) if sq}
    for sq, seat in owners.items():
        for n in _neighbours(sq):
            if n not in CORNERS:
                bases[n] = ("zone", seat, bases[n][1])
    for sq in CORNERS:
        bases[sq] = ("start", owners[sq]) if sq in owners else (("unused",) if starts and all(starts) else ("sq", 0))
    return bases


def markers(view: dict) -> list[str | None]:
    return list(seat_markers(view))


def _skill_states(view: dict) -> tuple[tuple, tuple]:
    skills = view.get("skills") or []
    pool, excluded, leftovers = set(view.get("pool") or ()), set(view.get("excluded") or ()), set(
        view.get("leftovers") or ())
    states, owners = [], []
    for skill in SKILLS:
        owner = next((s for s, sk in enumerate(skills) if sk == skill), None)
        if owner is not None:
            states.append("taken")
        elif skill in pool:
            states.append("free")
        elif skill in excluded:
            states.append("out")
        elif skill in leftovers:
            states.append("aside")
        else:
            states.append("unused")
        owners.append(owner)
    return tuple(states), tuple(owners)


def render_image(view: dict, *, last: bool = True) -> Image.Image:
    """The board as a 'P'-mode image; ``last=False`` leaves the last action unmarked."""
    pal = palette()
    canvas = background().copy()
    tiles = {t["square"]: t for t in view.get("tiles", ())}
    gems = view.get("gems") or {}
    pieces = {sq: seat for seat, sq in enumerate(view.get("pos") or ()) if sq}
    bases = square_bases(view)
    for sq, base in bases.items():
        tile = tiles.get(sq)
        sprite = cell_sprite(base, tile["kind"] if tile else None, tile["orient"] if tile else "",
                             min(int(gems.get(sq, 0)), 99), pieces.get(sq))
        x0, y0, _, _ = GRID.box(sq.lower())
        canvas.paste(sprite, (x0, y0))
    players = view.get("players", 2)
    marks = markers(view)
    teams = view.get("teams") or [[s] for s in range(players)]
    team_of = {s: i for i, t in enumerate(teams) for s in t}
    turn = view.get("turn") or None
    actor = view.get("actor")
    for seat in range(players):
        team = tuple(teams[team_of[seat]]) if len(teams[team_of[seat]]) > 1 else None
        skill = (view.get("skills") or [None] * players)[seat]
        acting = turn is not None and actor == seat and view.get("phase") == "turn"
        ap = None
        if acting:
            total = 2 + (1 if skill == "quick" else 0)
            ap = (min(turn.get("ap", 0), total), max(total, turn.get("ap", 0)))
        picks = view.get("picks", 0) if view.get("phase") == "draft" and actor == seat else 0
        key = (seat, marks[seat], (view.get("score") or [0] * players)[seat], team,
               (view.get("team_score") or [0] * len(teams))[team_of[seat]], view.get("start") == seat, skill,
               turn.get("uses") if acting else None, ap, bool(acting and turn.get("stopped")), picks,
               tuple((view.get("hands") or [[]] * players)[seat]))
        canvas.paste(panel_sprite(*key), panel_box(seat)[:2])
    line = view.get("line") or {}
    decks = view.get("decks") or {}
    canvas.paste(line_sprite(tuple(line.get("gems", ())), tuple(line.get("floor", ())), decks.get("floor", 0),
                             decks.get("gem", 0), bool(view.get("last_round"))), (PAD, STRIP_Y))
    canvas.paste(skills_sprite(*_skill_states(view), ()), (PAD, STRIP_Y + LINE_H + 6))
    if last and view.get("last"):
        _draw_last(canvas, view["last"], pal)
    return canvas


def _draw_last(canvas: Image.Image, last: dict, pal: Palette) -> None:
    d = ImageDraw.Draw(canvas)
    squares = [sq for sq in last.get("squares", ()) if isinstance(sq, str) and len(sq) == 2]
    for sq in dict.fromkeys(squares):
        draw_highlight(d, GRID.box(sq.lower()), colour=pal.index(HIGHLIGHT), edge=pal.index(INK), width=6,
                       edge_width=2)
    # the path in yellow with a black edge: it never reads as a tile's own (blue / orange) arrow
    for frm, to, how in last.get("path", ()):
        if frm == to:
            continue
        a, b = GRID.centre(frm.lower()), GRID.centre(to.lower())
        draw_arrow(d, a, b, fill=pal.index(HIGHLIGHT), outline=pal.index(INK), width=12, head_length=26,
                   head_width=34, shorten=CELL * 0.18, outline_width=3)


def warm() -> None:
    """Build the palette and the common sprites now instead of on the first boards."""
    background()
    for base in (("sq", 0), ("sq", 1)):
        cell_sprite(base, None, "", 0, None)


@register(GAME_NAME)
def render(view: dict, *, last: bool = True) -> bytes:
    """PNG bytes of the HOSTILE board for a ``Hostile().view(state, seat)`` dict."""
    return png_bytes(render_image(view, last=last))
