"""The HOSTILE board image (RULES.md §1), drawn from a ``view`` dict and nothing else.

Layout (700 px wide, so a phone shows it at 4/7 scale; 1-2 rows of seat panels)::

    R3    (A) 12/20    (B)(D) 9/20           round, and each side's gems against the target
      8 [ ][ ][ ][ ][ ][ ][ ][ ]
      ...   the 8x8 board
      1 [ ][ ][ ][ ][ ][ ][ ][ ]
         A  B  C  D  E  F  G  H
    [ seat A panel ] [ seat B panel ]      marker, badge, gems, start flag;
    [ seat C panel ] [ seat D panel ]      skill xN uses, numbered action points, stop; hand
    [ gem line tiles ............ decks ]
    [ floor line tiles .................. ]
    [ skill cards: available / taken (owner) / out / left aside,   ]
    [ two to a row, each named beside its icon                     ]

Squares are composed from cached layers: the board background (checker, a start corner in its
owner's colour with its token faded while empty, the three squares next to a start lightly tinted
in the owner's colour, an unused corner hatched), then the floor tile, the gems and the piece.
Tiles read by shape first and colour second: slide and diagonal slide a big black arrow on white
(no seat's colour), spring an orange double chevron (it jumps two squares), ice a pale
snowflake, stop a red octagon with a white bar, walls thick black bars on their closed sides
(box all four, L two adjacent, parallel two opposite) and a white gate arrow on each open side.
Gems are yellow diamonds with their count. Pieces are the seat's token (colour, shape and
letter, as everywhere in the project).
The last action's squares are outlined; its movement is a yellow chevron on each edge the piece
crossed (two for a spring's jump), so it never covers a tile's own symbol; a return home is a
dotted line.

Text is only coordinates, numbers, "R" + the round, "x" + skill uses, gem tile squares, and the
skill cards' names under their icons in the reader's language (``lang``: the rulebook's terms,
``renderers.labels``); skills are drawn as icons (crash: burst, rotate: turning arrow, recall:
house, king: crown, steal: hand-down arrow into a tray, ghost: a ghost, quick: lightning). Every glyph is at least
16 px tall when the image is shown 400 px wide. Composition is in palette mode from cached
sprites, like SQUARESIV, so a board never seen before costs about what a re-render does.

>>> from games.hostile.engine import Hostile
>>> g = Hostile()
>>> render(g.view(g.setup(2, {}, seed=1), None))[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from .labels import skill_name
from .registry import register
from .taps import is_collecting, note_region
from .common import (palette_builder, draw_chequered_flag,
    HIGHLIGHT, INK, MUTED, OKABE_ITO, PAPER, STONE, WHITE, Palette, SquareGrid, alpha_mask, crown, draw_arrow,
    draw_highlight, draw_shape, draw_text, is_recording, min_glyph_px, mix, note_box, note_glyph, note_squares,
    note_text, player_style, png_bytes, text_font,
    readable_size, seat_badge, seat_markers, status_marker, supersampled,
)

GAME_NAME = "hostile"

# ---- layout ----------------------------------------------------------------------------------------
WIDTH = 700
TEXT = readable_size(WIDTH)      # every letter and digit: 16 px tall when shown 400 px wide
GLYPH = min_glyph_px(WIDTH)      # ... and every drawn symbol
CELL = 80
PAD = 10
COORD = 40
HEADER_H = 56
GRID = SquareGrid(left=PAD + COORD, top=PAD + HEADER_H, cell=CELL, cols=8, rows=8)
PANELS_TOP = GRID.bottom + COORD + 4
PANEL_GAP = 8
PANEL_W = (WIDTH - 2 * PAD - PANEL_GAP) // 2
PANEL_H = 214
GEMS_H = 86          # the gem line and the decks
FLOOR_H = 66         # the floor line
SKILL_ROW = 64       # a row of the skill strip: card, owner's token, name
SKILLS_PER_ROW = 2   # a name as long as "スティール" fits beside its card
SKILL_H = -(-7 // SKILLS_PER_ROW) * SKILL_ROW + 10
MINI = 60            # a hand tile (a gem tile is taller, for its square)
GEM_TILE_H = 76
SLOT = 54            # a floor line tile
SKILL_ICON = 50
TOKEN = 54           # a seat token beside a card or in the header
GATE = GLYPH + 1     # a wall's gate arrow, edge to tip


def height(players: int) -> int:
    return strip_y(players) + GEMS_H + 6 + FLOOR_H + 6 + SKILL_H + PAD


def strip_y(players: int) -> int:
    rows = 1 if players <= 2 else 2
    return PANELS_TOP + rows * (PANEL_H + PANEL_GAP)


HEIGHT = height(4)   # the tallest image (3 and 4 players)

# ---- colours -------------------------------------------------------------------------------------------
LIGHT_SQ = (246, 244, 236)
DARK_SQ = (226, 223, 212)
# Slides are black on white: no seat's colour (seat A's blue read as "A's tiles"), and black
# and white stay apart for every kind of colour vision.
SLIDE_BG = (252, 252, 250)
SLIDE_INK = (28, 28, 30)
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
                k: int, gates: bool = True) -> None:
    """One floor tile filling ``box`` (already scaled by ``k``). ``gates``: a wall's open sides get
    a white arrow pointing in (on the board, where a wall has an orientation; a hand or line tile
    shows only its kind, read from its bars)."""
    x0, y0, x1, y1 = box
    s = x1 - x0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    line = max(2, round(0.03 * s))
    radius = 0.1 * s
    if kind not in ("box", "lwall", "para"):
        note_glyph(kind, 0.72 * s)
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
        note_glyph("wall bars", s)
        # an open side gets a white "gate" arrow pointing in, from the edge nearly to the middle
        for side in "NESW":
            if side in closed or not gates:
                continue
            ux, uy = _unit(side)
            ox, oy = cx + ux * 0.48 * s, cy + uy * 0.48 * s     # on the open edge
            nx, ny = -uy, ux
            depth, half = GATE * k, 0.27 * s
            note_glyph("gate", depth)
            tri = [(ox - ux * depth, oy - uy * depth), (ox + nx * half, oy + ny * half),
                   (ox - nx * half, oy - ny * half)]
            d.polygon(tri, fill=WHITE, outline=INK, width=max(2, line // 2))


def _paint_gem(d: ImageDraw.ImageDraw, cx: float, cy: float, size: float, k: int) -> None:
    """A cut gem: a diamond with a flat top, facets drawn in."""
    w, h = size, size * 0.85
    top = cy - h / 2
    mid = top + h * 0.32
    bottom = cy + h / 2
    outline = [(cx - w * 0.3, top), (cx + w * 0.3, top), (cx + w / 2, mid), (cx, bottom), (cx - w / 2, mid)]
    note_glyph("gem", h)
    d.polygon(outline, fill=GEM, outline=INK, width=max(2, round(size * 0.06)))
    d.line([(cx - w / 2, mid), (cx + w / 2, mid)], fill=GEM_DARK, width=max(1, round(size * 0.04)))
    d.line([(cx - w * 0.12, mid), (cx, bottom), (cx + w * 0.12, mid)], fill=GEM_DARK, width=max(1, round(size * 0.04)))


def _paint_piece(d: ImageDraw.ImageDraw, cx: float, cy: float, radius: float, seat: int, k: int) -> None:
    """A seat's token with its letter (a triangle is drawn larger, so its letter fits inside)."""
    style = player_style(seat)
    if style.shape == "triangle":
        radius *= 1.3
    box = (cx - radius, cy - radius, cx + radius, cy + radius)
    draw_shape(d, style.shape, (box[0] - 3 * k, box[1] - 3 * k, box[2] + 3 * k, box[3] + 3 * k), fill=WHITE)
    draw_shape(d, style.shape, box, fill=style.colour, outline=INK, width=max(2, round(radius * 0.1)))
    dy = radius * 0.24 if style.shape == "triangle" else 0
    draw_text(d, (cx, cy + dy), style.letter, TEXT * k, style.ink, bold=True)



# ---- icons ------------------------------------------------------------------------------------------------
SKILL_COLOUR = {"crash": (213, 94, 0), "rotate": (0, 114, 178), "recall": (0, 158, 115), "king": (230, 159, 0),
                "steal": (204, 121, 167), "ghost": (150, 150, 170), "quick": (240, 200, 0)}


def _paint_skill(d: ImageDraw.ImageDraw, box: tuple, skill: str, k: int, faded: bool = False) -> None:
    x0, y0, x1, y1 = box
    s = x1 - x0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    ink = mix(INK, WHITE, 0.55) if faded else INK
    note_glyph(f"skill:{skill}", 0.72 * s)
    card = (236, 236, 236) if faded else (255, 255, 255)
    d.rounded_rectangle(box, radius=0.16 * s, fill=card, outline=ink, width=max(2, round(0.05 * s)))
    lw = max(2, round(0.07 * s))
    colour = SKILL_COLOUR[skill]
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
        # a broad arrow: at 400 px its pink must outweigh the grey of its edges (tests/test_phone_render.py)
        draw_arrow(d, (cx, cy - 0.38 * s), (cx, cy + 0.22 * s), fill=colour, outline=ink, width=0.24 * s,
                   head_length=0.24 * s, head_width=0.46 * s, outline_width=max(1, lw // 2))
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
        # a broad bolt: at 400 px its yellow must show, not only its black edge (tests/test_phone_render.py)
        d.polygon([(cx + 0.12 * s, cy - 0.4 * s), (cx - 0.3 * s, cy + 0.08 * s), (cx - 0.03 * s, cy + 0.08 * s),
                   (cx - 0.12 * s, cy + 0.4 * s), (cx + 0.3 * s, cy - 0.1 * s), (cx + 0.04 * s, cy - 0.1 * s)],
                  fill=colour, outline=ink, width=max(1, lw // 2))



def _paint_gem_tile(d: ImageDraw.ImageDraw, box: tuple, square: str, k: int) -> None:
    x0, y0, x1, y1 = box
    s = x1 - x0
    d.rounded_rectangle(box, radius=0.12 * s, fill=GEM_CARD, outline=GEM_DARK, width=max(2, round(0.04 * s)))
    h = y1 - y0
    _paint_gem(d, x0 + s / 2, y0 + 0.27 * h, (GLYPH + 1) * k / 0.85, k)
    draw_text(d, (x0 + s / 2, y0 + 0.74 * h), square, TEXT * k, INK, bold=True)



def _flag_rgb(size: int, background: tuple) -> Image.Image:
    """The start player marker: a chequered flag."""
    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        s = size * k
        note_glyph("start flag", 0.86 * s)
        draw_chequered_flag(d, 0, 0, s)

    return supersampled((size, size), paint, background=background).convert("RGB")



def base_colour(base: tuple) -> tuple[int, int, int]:
    kind = base[0]
    if kind == "start":
        return player_style(base[1]).light
    if kind == "zone":
        return mix(player_style(base[1]).light, LIGHT_SQ if base[2] else DARK_SQ, 0.45)
    if kind == "unused":
        return UNUSED
    return LIGHT_SQ if base[1] else DARK_SQ


WALLS = ("box", "lwall", "para")
TILE_BG = {"slide": SLIDE_BG, "diag": SLIDE_BG, "spring": SPRING_BG, "ice": ICE_BG, "stop": STOP_BG,
           "box": WALL_BG, "lwall": WALL_BG, "para": WALL_BG}


# ---- RGB(A) sprites ---------------------------------------------------------------------------------------
def _base_rgb(base: tuple) -> Image.Image:
    """An empty square's floor: checker, zone tint, start (owner's frame and faded token), unused."""
    floor = base_colour(base)

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        s = CELL * k
        if base[0] == "start":
            style = player_style(base[1])
            d.rectangle((0, 0, s, s), outline=style.colour, width=round(0.09 * s))
            d.rectangle((round(0.09 * s), round(0.09 * s), s - round(0.09 * s), s - round(0.09 * s)),
                        outline=style.dark, width=max(2, k * 2))
            small = 0.27 * s * (1.2 if style.shape == "triangle" else 1)
            draw_shape(d, style.shape, (s / 2 - small, s / 2 - small, s / 2 + small, s / 2 + small),
                       fill=mix(style.colour, WHITE, 0.55), outline=style.dark, width=2 * k)
            draw_text(d, (s / 2, s / 2 + (0.08 * s if style.shape == "triangle" else 0)), style.letter,
                      TEXT * k, style.dark, bold=True)
        elif base[0] == "unused":
            for t in range(-s, s, round(0.16 * s)):
                d.line([(t, s), (t + s, 0)], fill=mix(UNUSED, INK, 0.15), width=2 * k)

    return supersampled((CELL, CELL), paint, background=floor).convert("RGB")


def _tile_rgb(kind: str, orient: str, floor: tuple, gates: bool = True) -> Image.Image:
    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        s = CELL * k
        m = round(0.05 * s)
        _paint_tile(d, (m, m, s - m, s - m), kind, orient, k, gates)

    return supersampled((CELL, CELL), paint, background=floor).convert("RGB")


def _gems_rgba(count: int, small: bool | str) -> Image.Image:
    """Gems on a square: a big gem in the middle, or (beside a tile) in the top-right corner, or
    (``small == "wall"``: on a wall, drawn without its gates) in the middle within the wall's bars,
    so they never cover a bar; a count badge when more than one."""
    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        s = CELL * k
        if small == "wall":
            g = (GLYPH + 1) * k / 0.85
            _paint_gem(d, 0.42 * s, 0.43 * s, g, k)
            if count > 1:
                _count_badge(d, s * 0.62, s * 0.62, count, 0.2 * s, k)
        elif not small:
            _paint_gem(d, s / 2, s * 0.44, 0.5 * s, k)
            if count > 1:
                _count_badge(d, s * 0.74, s * 0.72, count, 0.25 * s, k)
        else:
            g = (GLYPH + 1) * k / 0.85
            _paint_gem(d, s - 0.04 * s - g / 2, 0.03 * s + 0.85 * g / 2, g, k)
            if count > 1:
                _count_badge(d, s * 0.72, s * 0.66, count, 0.24 * s, k)

    return supersampled((CELL, CELL), paint, background=(255, 255, 255, 0))


def _count_badge(d: ImageDraw.ImageDraw, cx: float, cy: float, count: int, r: float, k: int) -> None:
    r = r if count < 10 else r * 1.25
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=WHITE, outline=INK, width=max(2, round(r * 0.1)))
    draw_text(d, (cx, cy + r * 0.04), str(count), TEXT * k, INK, bold=True)


def _piece_rgba(seat: int, on_tile: bool) -> Image.Image:
    """A piece: in the middle of its square, as big on a tile as anywhere (a chip in a tile's
    corner was hard to see on a phone); the tile still shows round it, its colour and edge, a
    wall's bars (drawn without gates under a piece)."""
    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        s = CELL * k
        _paint_piece(d, s / 2, s / 2, (0.3 if on_tile else 0.32) * s, seat, k)

    return supersampled((CELL, CELL), paint, background=(255, 255, 255, 0))


def _token_rgba(seat: int, size: int) -> Image.Image:
    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        s = size * k
        _paint_piece(d, s / 2, s / 2, 0.4 * s if player_style(seat).shape != "triangle" else 0.34 * s, seat, k)

    return supersampled((size, size), paint, background=(255, 255, 255, 0))


def _mini_rgb(tile: str, background: tuple) -> Image.Image:
    """A hand or line tile: floor kinds in their first orientation, gem tiles as a taller card
    with their square."""
    gem = tile[:1].isupper()
    w, h = (MINI, GEM_TILE_H) if gem else (SLOT, SLOT)

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        if gem:
            _paint_gem_tile(d, (k, k, w * k - k, h * k - k), tile, k)
        else:
            orient = {"slide": "N", "diag": "NE", "spring": "N", "lwall": "NE", "para": "NS"}.get(tile, "")
            _paint_tile(d, (k, k, w * k - k, h * k - k), tile, orient, k, gates=False)

    return supersampled((w, h), paint, background=background).convert("RGB")


def _skill_rgb(skill: str, size: int, background: tuple, faded: bool = False, crossed: bool = False) -> Image.Image:
    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        s = size * k
        _paint_skill(d, (k, k, s - k, s - k), skill, k, faded)
        if crossed:
            d.line([(0.12 * s, 0.12 * s), (0.88 * s, 0.88 * s)], fill=INK, width=round(0.07 * s))
            d.line([(0.12 * s, 0.88 * s), (0.88 * s, 0.12 * s)], fill=INK, width=round(0.07 * s))

    return supersampled((size, size), paint, background=background).convert("RGB")


def _pip_rgb(number: int, filled: bool, colour: tuple, background: tuple, square: bool) -> Image.Image:
    """One action point (circle) or draft pick (square), numbered: filled while still to use."""
    w, h = 40, 44

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        note_glyph("pick" if square else "action point", (h - 4) * k)
        box = (2 * k, 2 * k, (w - 2) * k, (h - 2) * k)
        fill = colour if filled else WHITE
        if square:
            d.rounded_rectangle(box, radius=6 * k, fill=fill, outline=INK, width=2 * k)
        else:
            d.ellipse(box, fill=fill, outline=INK, width=2 * k)
        ink = INK if not filled or sum(colour) > 400 else WHITE
        draw_text(d, (w * k / 2, h * k / 2), str(number), TEXT * k, ink if filled else MUTED, bold=True)

    return supersampled((w, h), paint, background=background).convert("RGB")


def _stop_rgb(size: int, background: tuple) -> Image.Image:
    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        s = size * k
        note_glyph("stopped", 0.92 * s)
        r = 0.46 * s
        octagon = [(s / 2 + r * math.cos(math.radians(22.5 + 45 * i)),
                    s / 2 + r * math.sin(math.radians(22.5 + 45 * i))) for i in range(8)]
        d.polygon(octagon, fill=STOP_RED, outline=INK, width=2 * k)
        d.rectangle((0.22 * s, 0.42 * s, 0.78 * s, 0.58 * s), fill=WHITE)

    return supersampled((size, size), paint, background=background).convert("RGB")


def _gem_icon_rgb(size: int, background: tuple) -> Image.Image:
    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        s = size * k
        _paint_gem(d, s / 2, s / 2, 0.96 * s, k)

    return supersampled((size, size), paint, background=background).convert("RGB")


def _deck_rgb(count: int, gem: bool, warn: bool, background: tuple) -> Image.Image:
    """A stack of tiles with its count (red and underlined when the floor deck ran short)."""
    w, h = 112, 70

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        fill = GEM_CARD if gem else (210, 210, 215)
        note_glyph("deck", 48 * k)
        for i in range(3):
            o = (6 - 3 * i) * k
            d.rounded_rectangle((o + 2 * k, o + 8 * k, o + 38 * k, o + 52 * k), radius=5 * k, fill=fill,
                                outline=INK, width=2 * k)
        if gem:
            _paint_gem(d, 22 * k, 31 * k, (GLYPH + 1) * k / 0.85, k)
        else:
            d.rectangle((12 * k, 22 * k, 30 * k, 40 * k), outline=INK, width=2 * k)
        colour = STOP_RED if warn else INK
        draw_text(d, (50 * k, 32 * k), str(count), TEXT * k, colour, anchor="lm", bold=True)
        if warn:
            d.line([(48 * k, 60 * k), (108 * k, 60 * k)], fill=STOP_RED, width=4 * k)

    return supersampled((w, h), paint, background=background).convert("RGB")


def _text_rgba(text: str, colour: tuple) -> tuple[Image.Image, tuple[int, int]]:
    stroke = max(1, TEXT // 18)
    x0, y0, x1, y1 = text_font(text, TEXT).getbbox(text, stroke_width=stroke, anchor="lm")
    w, h = x1 - x0 + 4, y1 - y0 + 4

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        draw_text(d, ((2 - x0) * k, (2 - y0) * k), text, TEXT * k, colour, anchor="lm", bold=True)

    return supersampled((w, h), paint, background=(255, 255, 255, 0)), (2 - x0, 2 - y0)


# ---- the palette and the cached palette sprites --------------------------------------------------------
def _flat(rgba: Image.Image, background: tuple) -> Image.Image:
    flat = Image.new("RGB", rgba.size, tuple(background))
    flat.paste(rgba, (0, 0), rgba)
    return flat


_KINDS = (("slide", "N"), ("slide", "E"), ("diag", "NE"), ("spring", "S"), ("spring", "W"), ("ice", ""),
          ("stop", ""), ("box", ""), ("lwall", "NE"), ("para", "EW"))


@palette_builder
def palette() -> Palette:
    """A fixed 256-colour palette from a swatch of everything the renderer draws."""
    sprites = []
    bases = [("sq", 1), ("sq", 0), ("start", 0), ("start", 1), ("start", 2), ("start", 3), ("unused",),
             ("zone", 0, 1), ("zone", 2, 0)]
    sprites += [_base_rgb(b) for b in bases]
    for kind, orient in _KINDS:
        sprites.append(_tile_rgb(kind, orient, LIGHT_SQ))
        sprites.append(_flat(_gems_rgba(3, True), TILE_BG[kind]))
    for seat in range(4):
        light = player_style(seat).light
        sprites += [_flat(_piece_rgba(seat, False), LIGHT_SQ), _flat(_gems_rgba(2, False), DARK_SQ),
                    status_marker("turn", seat, 44, light).convert("RGB"), _pip_rgb(1, True, player_style(seat).colour,
                                                                                     light, False),
                    _skill_rgb(SKILLS[seat], SKILL_ICON, light), _mini_rgb("C4", light), _mini_rgb("spring", light),
                    _flat(_text_rgba("12/20", player_style(seat).dark)[0], PAPER)]
    sprites += [_deck_rgb(40, True, False, STRIP_BG), _deck_rgb(3, False, True, STRIP_BG),
                _skill_rgb("crash", SKILL_ICON, STRIP_BG, True, True), _stop_rgb(40, STRIP_BG),
                *(_skill_rgb(skill, SKILL_ICON, STRIP_BG) for skill in SKILLS[4:]),
                _gem_icon_rgb(36, STRIP_BG)]
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
    exact += list(SKILL_COLOUR.values())   # else quick's yellow became king's orange, steal's pink a grey
    for seat in range(4):
        st = player_style(seat)
        exact += [st.colour, st.dark, st.light, st.ink]
    return Palette(sheet, exact=exact)


def _p(image: Image.Image) -> Image.Image:
    return palette().convert(image)


@lru_cache(maxsize=64)
def base_sprite(base: tuple) -> Image.Image:
    return _p(_base_rgb(base))


@lru_cache(maxsize=1024)   # warm(): 21 tile facings on 10 floors, walls with and without gates
def tile_sprite(kind: str, orient: str, floor: tuple, gates: bool = True) -> Image.Image:
    return _p(_tile_rgb(kind, orient, floor, gates))


@lru_cache(maxsize=512)   # warm(): 12 on up to 20 colours
def gems_sprite(count: int, small: bool, under: tuple) -> tuple[Image.Image, Image.Image]:
    rgba = _gems_rgba(count, small)
    return _p(_flat(rgba, under)), alpha_mask(rgba)


@lru_cache(maxsize=256)   # warm(): 8 on up to 20 colours
def piece_sprite(seat: int, on_tile: bool, under: tuple) -> tuple[Image.Image, Image.Image]:
    rgba = _piece_rgba(seat, on_tile)
    return _p(_flat(rgba, under)), alpha_mask(rgba)


@lru_cache(maxsize=64)
def token_sprite(seat: int, size: int, under: tuple) -> tuple[Image.Image, Image.Image]:
    rgba = _token_rgba(seat, size)
    return _p(_flat(rgba, under)), alpha_mask(rgba)


@lru_cache(maxsize=512)   # warm(): 8 floor kinds and 48 gem squares on 5 backgrounds (280)
def mini_sprite(tile: str, background: tuple) -> Image.Image:
    return _p(_mini_rgb(tile, background))


def skill_sprite(skill: str, size: int, background: tuple, faded: bool = False, crossed: bool = False) -> Image.Image:
    """A skill card (one cache key however it is called: warm() and the boards must hit the same
    entries)."""
    return _skill_sprite(skill, size, tuple(background), bool(faded), bool(crossed))


@lru_cache(maxsize=128)
def _skill_sprite(skill: str, size: int, background: tuple, faded: bool, crossed: bool) -> Image.Image:
    return _p(_skill_rgb(skill, size, background, faded, crossed))


@lru_cache(maxsize=128)
def pip_sprite(number: int, filled: bool, colour: tuple, background: tuple, square: bool) -> Image.Image:
    return _p(_pip_rgb(number, filled, colour, background, square))


@lru_cache(maxsize=64)
def marker_sprite(kind: str, seat: int, size: int, background: tuple) -> Image.Image:
    return _p(status_marker(kind, seat, size, background).convert("RGB"))


@lru_cache(maxsize=16)
def badge_sprite(seat: int, size: int, background: tuple) -> Image.Image:
    return _p(seat_badge(seat, size, background).convert("RGB"))


@lru_cache(maxsize=32)
def icon_sprite(kind: str, size: int, background: tuple) -> Image.Image:
    paint = {"gem": _gem_icon_rgb, "stop": _stop_rgb, "flag": _flag_rgb}[kind]
    return _p(paint(size, background))


@lru_cache(maxsize=512)   # warm(): 0-64 tiles, gem deck and floor deck (warned or not): 195
def deck_sprite(count: int, gem: bool, warn: bool) -> Image.Image:
    return _p(_deck_rgb(count, gem, warn, STRIP_BG))


@lru_cache(maxsize=1024)
def text_sprite(text: str, colour: tuple, background: tuple) -> tuple[Image.Image, Image.Image, tuple[int, int]]:
    """(sprite, mask, offset of the text's left-middle anchor): anti-aliased text for a palette canvas."""
    rgba, origin = _text_rgba(text, colour)
    return _p(_flat(rgba, background)), alpha_mask(rgba), origin


def paste_text(canvas: Image.Image, xy, text: str, colour, background, anchor: str = "lm") -> int:
    """Paste ``text`` with its left-middle (or right-middle: ``anchor="rm"``) at ``xy``; returns
    its width."""
    sprite, mask, (ox, oy) = text_sprite(text, tuple(colour), tuple(background))
    x, y = xy
    if anchor == "rm":
        x -= sprite.width - 4
    canvas.paste(sprite, (round(x - ox), round(y - oy)), mask)
    return sprite.width - 4


def coordinates(turns: int = 0) -> list[tuple[str, tuple[float, float]]]:
    """The column letters below the board and the row numbers left of it, with their centres,
    naming the squares as drawn on a board turned ``turns`` quarter turns."""
    bottom, side = GRID.turned(turns).edge_labels(GRID.squares())
    return ([(label.upper(), (GRID.left + (c + 0.5) * CELL, GRID.bottom + COORD / 2 + 1)) for c, label in bottom]
            + [(label.upper(), (GRID.left - COORD / 2 - 2, GRID.top + (7 - r + 0.5) * CELL)) for r, label in side])


@lru_cache(maxsize=16)
def frame(players: int, turns: int = 0) -> Image.Image:
    """Paper, coordinates and the board's frame (the squares go on top); on a board turned
    ``turns`` quarter turns clockwise the coordinates name the squares as drawn."""
    im = Image.new("RGB", (WIDTH, height(players)), PAPER)
    d = ImageDraw.Draw(im)
    for label, xy in coordinates(turns):
        draw_text(d, xy, label, TEXT, INK, bold=True)
    d.rectangle((GRID.left - 3, GRID.top - 3, GRID.right + 2, GRID.bottom + 2), outline=INK, width=3)
    return _p(im)


@lru_cache(maxsize=12)   # 3 player counts x 4 sides
def floor_layer(players: int, turns: int = 0) -> Image.Image:
    """The frame with the floor of a board with no start chosen (the checker)."""
    im = frame(players, turns).copy()
    grid = GRID.turned(turns)
    for sq, base in _PLAIN_BASES.items():
        x0, y0, _, _ = grid.box(sq.lower())
        im.paste(base_sprite(base), (x0, y0))
    return im


def background(players: int, starts: tuple, turns: int = 0) -> Image.Image:
    """A fresh copy of the frame with the board's floor: checker, starts, zones next to them,
    unused corners. Only the squares the starts change are pasted over the plain floor (each
    base sprite covers its whole square, so this equals pasting every square): the starts of a
    3-player game, chosen one by one, need no layer of their own."""
    im = floor_layer(players, turns).copy()
    grid = GRID.turned(turns)
    for sq, base in square_bases({"starts": list(starts)}).items():
        if base != _PLAIN_BASES[sq]:
            x0, y0, _, _ = grid.box(sq.lower())
            im.paste(base_sprite(base), (x0, y0))
    return im


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


_PLAIN_BASES = square_bases({"starts": []})


def markers(view: dict) -> list[str | None]:
    return list(seat_markers(view))


def _skill_states(view: dict) -> tuple[tuple, tuple]:
    skills = view.get("skills") or []
    pool, excluded, leftovers = set(view.get("pool") or ()), set(view.get("excluded") or ()), set(
        view.get("leftovers") or ())
    states, owners = [], []
    for skill in SKILLS:
        owner = next((s for s, sk in enumerate(skills) if sk == skill), None)
        if owner is None and skill == "king":  # drafted in the first cycle, held through the second
            owner = view.get("king")
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




def _header(canvas: Image.Image, view: dict) -> None:
    """The round ("R3"), then each side's tokens and its gems against the target ("12/20")."""
    y = PAD + HEADER_H // 2 - 2
    if view.get("round"):
        paste_text(canvas, (PAD, y), f"R{view['round']}", INK, PAPER)
    players = view.get("players", 2)
    teams = view.get("teams") or [[s] for s in range(players)]
    totals = view.get("team_score") or [0] * len(teams)
    target = view.get("target")
    x = WIDTH - PAD
    for i in reversed(range(len(teams))):
        text = f"{totals[i] if i < len(totals) else 0}/{target}" if target else str(totals[i])
        colour = player_style(teams[i][0]).dark
        x -= paste_text(canvas, (x, y), text, colour, PAPER, anchor="rm") + 4
        x -= 36
        canvas.paste(icon_sprite("gem", 36, PAPER), (x, y - 18))
        for seat in reversed(teams[i]):
            sprite, mask = token_sprite(seat, TOKEN, PAPER)
            x -= TOKEN - 4
            canvas.paste(sprite, (x, y - TOKEN // 2), mask)
        x -= 22


def panel_box(index: int) -> tuple[int, int, int, int]:
    row, col = divmod(index, 2)
    x0 = PAD + col * (PANEL_W + PANEL_GAP)
    y0 = PANELS_TOP + row * (PANEL_H + PANEL_GAP)
    return (x0, y0, x0 + PANEL_W, y0 + PANEL_H)


def _panel(canvas: Image.Image, d: ImageDraw.ImageDraw, seat: int, marker: str | None, gems: int, start: bool,
           skill: str | None, uses: int | None, ap: tuple | None, stopped: bool, picks: int, hand: tuple) -> None:
    """One seat's panel: marker, badge, gems, start flag; skill and its uses left ("x2"), the
    action points left (numbered, filled) or draft picks, a stop sign once stopped; the hand."""
    pal = palette()
    style = player_style(seat)
    bg = style.light
    x0, y0, x1, y1 = panel_box(seat)
    active = marker in ("turn", "win")
    d.rectangle((x0, y0, x1 - 1, y1 - 1), fill=pal.index(bg), outline=pal.index(style.dark if active else style.colour),
                width=6 if active else 2)
    if marker:
        canvas.paste(marker_sprite(marker, seat, 44, bg), (x0 + 10, y0 + 16))
    canvas.paste(badge_sprite(seat, 62, bg), (x0 + 60, y0 + 7))
    canvas.paste(icon_sprite("gem", 36, bg), (x0 + 132, y0 + 20))
    paste_text(canvas, (x0 + 174, y0 + 38), str(gems), INK, bg)
    if start:
        canvas.paste(icon_sprite("flag", 40, bg), (x1 - 50, y0 + 16))
    y = y0 + 76
    x = x0 + 10
    if skill:
        canvas.paste(skill_sprite(skill, SKILL_ICON, bg), (x, y))
        x += SKILL_ICON + 4
        if uses is not None and skill in ("crash", "rotate", "recall"):
            x += paste_text(canvas, (x, y + SKILL_ICON // 2), f"x{uses}", INK if uses else MUTED, bg) + 10
        else:
            x += 6
    if ap is not None:
        left, total = ap
        for i in range(total):
            canvas.paste(pip_sprite(i + 1, i < left, style.colour, bg, False), (x, y + 3))
            x += 42
        x += 4
    if stopped:
        canvas.paste(icon_sprite("stop", 40, bg), (x, y + 5))
    if picks:
        for i in range(picks):
            canvas.paste(pip_sprite(i + 1, True, WHITE, bg, True), (x, y + 3))
            x += 42
    for i, tile in enumerate(hand[:4]):
        sprite = mini_sprite(tile, bg)
        canvas.paste(sprite, (x0 + 10 + i * (MINI + 8), y0 + 132))
        note_region(f"hand:{seat}:{tile}", "hand", (x0 + 10 + i * (MINI + 8), y0 + 132,
                    x0 + 10 + i * (MINI + 8) + sprite.width, y0 + 132 + sprite.height), seat=seat, tile=tile)
    if skill:
        note_region(f"skill:{skill}", "skill", (x0 + 10, y0 + 76, x0 + 10 + SKILL_ICON, y0 + 76 + SKILL_ICON),
                    skill=skill, owner=seat, uses=uses)


def _line(canvas: Image.Image, d: ImageDraw.ImageDraw, top: int, gems: tuple, floor: tuple, floor_deck: int,
          gem_deck: int, warn: bool) -> None:
    """The gem line and both decks; below it, the floor line."""
    pal = palette()
    w = WIDTH - 2 * PAD
    for y0, h in ((top, GEMS_H), (top + GEMS_H + 6, FLOOR_H)):
        d.rectangle((PAD, y0, PAD + w - 1, y0 + h - 1), fill=pal.index(STRIP_BG), outline=pal.index(MUTED), width=2)
    x = PAD + 8
    for tile in gems:
        canvas.paste(mini_sprite(tile, STRIP_BG), (x, top + 5))
        note_region(f"line:{tile}", "line", (x, top + 5, x + MINI, top + 5 + GEM_TILE_H), tile=tile)
        x += MINI + 4
    right = PAD + w - 8 - 2 * 112
    canvas.paste(deck_sprite(gem_deck, True, False), (right, top + 8))
    canvas.paste(deck_sprite(floor_deck, False, warn), (right + 112, top + 8))
    x, y = PAD + 8, top + GEMS_H + 6 + 6
    room = w - 16 - SLOT
    pitch = min(SLOT + 4, room // max(1, len(floor) - 1)) if len(floor) > 1 else SLOT
    for i, tile in enumerate(floor):   # a long line overlaps its tiles rather than shrink them
        canvas.paste(mini_sprite(tile, STRIP_BG), (x, y))
        shown = SLOT if i == len(floor) - 1 else min(pitch, SLOT)   # what the next tile leaves showing
        note_region(f"line:{tile}", "line", (x, y, x + shown, y + SLOT), tile=tile)
        x += pitch


def skill_slot(players: int, i: int) -> tuple[int, int]:
    """The top-left corner of the ``i``-th skill card (in :data:`SKILLS` order) on a board."""
    row, col = divmod(i, SKILLS_PER_ROW)
    pitch = (WIDTH - 2 * PAD - 16) // SKILLS_PER_ROW
    return PAD + 8 + col * pitch, skills_top(players) + 6 + row * SKILL_ROW


def skills_top(players: int) -> int:
    return strip_y(players) + GEMS_H + 6 + FLOOR_H + 6


def _skills(canvas: Image.Image, d: ImageDraw.ImageDraw, top: int, state_of: tuple, owners: tuple,
            lang: str = "en") -> None:
    """The seven skill cards: available, taken (owner token), out (crossed) or left aside (faded),
    each with its name beside it (greyed with the card when out or aside)."""
    pal = palette()
    w = WIDTH - 2 * PAD
    d.rectangle((PAD, top, PAD + w - 1, top + SKILL_H - 1), fill=pal.index(STRIP_BG), outline=pal.index(MUTED), width=2)
    pitch = (w - 16) // SKILLS_PER_ROW
    for i, skill in enumerate(SKILLS):
        status = state_of[i]
        row, col = divmod(i, SKILLS_PER_ROW)
        x, y = PAD + 8 + col * pitch, top + 6 + row * SKILL_ROW   # as skill_slot says
        if status == "unused":
            continue
        canvas.paste(skill_sprite(skill, 54, STRIP_BG, status in ("out", "aside"), status == "out"), (x, y))
        owner = owners[i]
        note_region(f"skill:{skill}", "skill", (x, y, x + 54, y + 54), skill=skill, owner=owner,
                    free=status == "free")
        if owner is not None:   # the owner's token, overlapping the card's corner
            sprite, mask = token_sprite(owner, TOKEN, STRIP_BG)
            canvas.paste(sprite, (x + 40, y + 7), mask)
        paste_text(canvas, (x + 40 + TOKEN + 8, y + 27), skill_name(skill, lang),
                   MUTED if status in ("out", "aside") else INK, STRIP_BG)


def _note_cells(view: dict, grid: SquareGrid, bases: dict, tiles: dict, gems: dict, pieces: dict) -> None:
    """Tap regions: every square, with what the view puts on it (floor tile, gems, piece) and
    whose start or start zone it is."""
    for sq, base in bases.items():
        tile = tiles.get(sq)
        note_region(f"cell:{sq}", "cell", grid.box(sq.lower()), square=sq,
                    tile={k: tile[k] for k in ("kind", "orient", "effect", "closed")} if tile else None,
                    gems=int(gems.get(sq, 0)), piece=pieces.get(sq),
                    start=base[1] if base[0] == "start" else None, zone=base[1] if base[0] == "zone" else None)


def side_turns(view: dict, viewer_seat: int | None) -> int:
    """Quarter turns clockwise that bring a seat's start corner to the bottom left (A1 is there
    already; A8 3 turns, H8 2, H1 1); none before it has a corner."""
    starts = view.get("starts") or []
    if viewer_seat is None or not 0 <= viewer_seat < len(starts) or starts[viewer_seat] not in CORNERS:
        return 0
    return (0, 3, 2, 1)[CORNERS.index(starts[viewer_seat])]


_TURN_LETTERS = {"N": "E", "E": "S", "S": "W", "W": "N"}


def turned_orient(kind: str, orient: str, turns: int) -> str:
    """A tile's facing as drawn on a board turned ``turns`` quarter turns clockwise (N becomes E
    ...), written as the tile kind writes it ("ES" is the L wall "SE")."""
    for _ in range(turns % 4):
        orient = "".join(_TURN_LETTERS.get(ch, ch) for ch in orient)
    options = _ORIENTS.get(kind, ())
    return next((o for o in options if sorted(o) == sorted(orient)), orient)


def render_image(view: dict, *, last: bool = True, viewer_seat: int | None = None, lang: str = "en") -> Image.Image:
    """The board as a 'P'-mode image, its skill names in ``lang``; ``last=False`` leaves the last action unmarked;
    ``viewer_seat`` turns the board so that seat's start corner is at the bottom left (tiles, their
    facings and the coordinates turn with it; text stays upright)."""
    players = view.get("players", 2)
    starts = tuple(view.get("starts") or ())
    turns = side_turns(view, viewer_seat)
    grid = GRID.turned(turns)
    canvas = background(players, starts, turns)
    paste = canvas.paste
    d = ImageDraw.Draw(canvas)
    tiles = {t["square"]: t for t in view.get("tiles", ())}
    gems = view.get("gems") or {}
    pieces = {sq: seat for seat, sq in enumerate(view.get("pos") or ()) if sq}
    bases = square_bases(view)
    for sq in set(tiles) | set(gems) | set(pieces):
        if sq not in bases:
            continue
        x0, y0, _, _ = grid.box(sq.lower())
        tile = tiles.get(sq)
        under = base_colour(bases[sq])
        count = min(int(gems.get(sq, 0)), 99)
        wall = bool(tile) and tile["kind"] in WALLS
        if tile:   # a wall under gems or a piece keeps its bars, not its gates (they would be covered)
            facing = turned_orient(tile["kind"], tile["orient"], turns)
            covered = wall and (count or sq in pieces)   # (one cache key per sprite: gates only when False)
            paste(tile_sprite(tile["kind"], facing, under, False) if covered else tile_sprite(tile["kind"], facing, under),
                  (x0, y0))
            under = TILE_BG.get(tile["kind"], under)
        if count:
            sprite, mask = gems_sprite(count, "wall" if wall else bool(tile) or sq in pieces, under)
            paste(sprite, (x0, y0), mask)
        if sq in pieces:
            sprite, mask = piece_sprite(pieces[sq], bool(tile), under)
            paste(sprite, (x0, y0), mask)
            if is_recording():
                bx0, by0, bx1, by1 = mask.getbbox() or (0, 0, 0, 0)
                note_box("piece", player_style(pieces[sq]).letter, (x0 + bx0, y0 + by0, x0 + bx1, y0 + by1), cell=sq)
        if tile and is_recording():
            note_box("piece", tile["kind"], (x0, y0, x0 + CELL, y0 + CELL), cell=sq)
    if is_collecting():
        _note_cells(view, grid, bases, tiles, gems, pieces)
    if is_recording():
        note_squares(grid, bases)
        for label, xy in coordinates(turns):
            note_text("label", label, xy, TEXT)
    _header(canvas, view)
    marks = markers(view)
    turn = view.get("turn") or None
    actor = view.get("actor")
    skills = view.get("skills") or [None] * players
    for seat in range(players):
        skill = skills[seat]
        acting = turn is not None and actor == seat and view.get("phase") == "turn"
        ap = None
        if acting:
            total = 2 + (1 if skill == "quick" else 0)
            ap = (min(turn.get("ap", 0), total), max(total, turn.get("ap", 0)))
        picks = view.get("picks", 0) if view.get("phase") == "draft" and actor == seat else 0
        _panel(canvas, d, seat, marks[seat], (view.get("score") or [0] * players)[seat], view.get("start") == seat,
               skill, turn.get("uses") if acting else None, ap, bool(acting and turn.get("stopped")), picks,
               tuple((view.get("hands") or [[]] * players)[seat]))
    line = view.get("line") or {}
    decks = view.get("decks") or {}
    top = strip_y(players)
    _line(canvas, d, top, tuple(line.get("gems", ())), tuple(line.get("floor", ())), decks.get("floor", 0),
          decks.get("gem", 0), bool(view.get("last_round")))
    _skills(canvas, d, skills_top(players), *_skill_states(view), lang)
    if last and view.get("last"):
        _draw_last(canvas, view["last"], grid)
    return canvas


# ---- the last action ---------------------------------------------------------------------------------------
def _xy(square: str) -> tuple[int, int]:
    return "ABCDEFGH".index(square[0].upper()), int(square[1:])


def step_marks(path, grid: SquareGrid = GRID
               ) -> tuple[list[tuple[tuple[float, float], tuple[int, int]]], list[tuple[str, str]]]:
    """Chevrons (edge point px, screen direction) for every edge the piece crossed (a spring's
    jump crosses two), and the steps drawn as dotted lines instead (a return home: no edge).

    >>> step_marks([["B4", "C4", "move"], ["C4", "E4", "spring"], ["E4", "A1", "home"]])
    ([((210.0, 426.0), (1, 0)), ((290.0, 426.0), (1, 0)), ((370.0, 426.0), (1, 0))], [('E4', 'A1')])
    """
    chevrons, lines = [], []
    for frm, to, how in path:
        if frm == to:
            continue
        (c0, r0), (c1, r1) = _xy(frm), _xy(to)
        dc, dr = c1 - c0, r1 - r0
        steps = max(abs(dc), abs(dr))
        straight = dc == 0 or dr == 0 or abs(dc) == abs(dr)
        if how == "home" or how == "recall" or not straight or steps > 2:
            lines.append((frm, to))
            continue
        ux, uy = grid.screen_dir((dc > 0) - (dc < 0), -((dr > 0) - (dr < 0)))
        x, y = grid.centre(frm.lower())
        for i in range(steps):
            chevrons.append(((x + ux * CELL * (i + 0.5), y + uy * CELL * (i + 0.5)), (ux, uy)))
    return chevrons, lines


@lru_cache(maxsize=16)
def chevron_sprite(direction: tuple[int, int]) -> tuple[Image.Image, Image.Image]:
    """A flat yellow chevron with a black edge, straddling an edge: it reaches only a few px into
    either square, so tile symbols, gems and pieces stay visible."""
    w, h = 44, 44

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        c = w * k / 2
        ux, uy = direction
        n = math.hypot(ux, uy)
        ux, uy = ux / n, uy / n
        nx, ny = -uy, ux

        def at(t: float, s: float) -> tuple[float, float]:
            return (c + (ux * t + nx * s) * k, c + (uy * t + ny * s) * k)

        shape = [at(9, 0), at(-4, 19), at(-11, 19), at(-1, 0), at(-11, -19), at(-4, -19)]
        d.polygon(shape, fill=HIGHLIGHT, outline=INK, width=3 * k)

    rgba = supersampled((w, h), paint, background=(255, 255, 255, 0))
    return _p(_flat(rgba, WHITE)), alpha_mask(rgba)


def _draw_last(canvas: Image.Image, last: dict, grid: SquareGrid = GRID) -> None:
    pal = palette()
    d = ImageDraw.Draw(canvas)
    squares = [sq for sq in last.get("squares", ()) if isinstance(sq, str) and len(sq) == 2]
    for sq in dict.fromkeys(squares):
        draw_highlight(d, grid.box(sq.lower()), colour=pal.index(HIGHLIGHT), edge=pal.index(INK), width=4,
                       edge_width=1)
    chevrons, lines = step_marks(last.get("path", ()), grid)
    for frm, to in lines:   # a jump home: a thin dotted line, centre to centre
        (x0, y0), (x1, y1) = grid.centre(frm.lower()), grid.centre(to.lower())
        n = max(1, round(math.hypot(x1 - x0, y1 - y0) / 16))
        for i in range(1, n):
            x, y = x0 + (x1 - x0) * i / n, y0 + (y1 - y0) * i / n
            d.ellipse((x - 5, y - 5, x + 5, y + 5), fill=pal.index(HIGHLIGHT), outline=pal.index(INK), width=2)
    for (x, y), direction in chevrons:
        sprite, mask = chevron_sprite(direction)
        canvas.paste(sprite, (round(x - sprite.width / 2), round(y - sprite.height / 2)), mask)


_ORIENTS = {"slide": "NESW", "diag": ("NE", "SE", "SW", "NW"), "spring": "NESW", "ice": ("",), "stop": ("",),
            "box": ("",), "lwall": ("NE", "SE", "SW", "NW"), "para": ("NS", "EW")}


# The cached builders warm() fills for every board at the default targets (and rounds up to
# WARM_ROUNDS): no such board misses them afterwards (tests/test_renderers.py checks it).
WARMED = (palette, frame, floor_layer, base_sprite, tile_sprite, gems_sprite, piece_sprite, token_sprite,
          mini_sprite, _skill_sprite, pip_sprite, marker_sprite, badge_sprite, icon_sprite, deck_sprite,
          text_sprite, chevron_sprite)


WARM_ROUNDS = 30      # round numbers drawn ahead ("R1".."R30"; a longer game draws the rest once)
WARM_DECK = 64        # deck counts drawn ahead (the decks hold at most 57 floor and 48 gem tiles)


def warm() -> None:
    """Build the palette and every sprite a board at the default target needs now (a few seconds)
    instead of on the first boards: the floor layers, each tile on each floor colour, gems, pieces,
    hand and line tiles, decks, skills, markers and the numbers in each colour they are written in."""
    from games.hostile.engine import Hostile

    game = Hostile()
    for players in (2, 3, 4):
        render_image(game.view(game.setup(players, {}, 0), None))
        for turns in range(4):
            floor_layer(players, turns)
    bases = [("sq", 0), ("sq", 1), ("unused",)] + [(kind, s, c) for kind in ("zone",) for s in range(4)
                                                   for c in (0, 1)] + [("start", s) for s in range(4)]
    for base in bases:
        base_sprite(base)
    floors = {base_colour(b) for b in bases if b[0] in ("sq", "zone")}   # where tiles can lie
    for kind, orients in _ORIENTS.items():
        for orient in orients:
            for floor in floors:
                tile_sprite(kind, orient, floor)
                if kind in WALLS:
                    tile_sprite(kind, orient, floor, False)
    unders = floors | set(TILE_BG.values()) | {player_style(s).light for s in range(4)}
    for under in unders:
        for count in range(1, 7):
            gems_sprite(count, True, under)
            gems_sprite(count, False, under)
            if under == WALL_BG:
                gems_sprite(count, "wall", under)
        for seat in range(4):
            piece_sprite(seat, True, under)
            piece_sprite(seat, False, under)
    tiles = list(_ORIENTS) + _gem_squares()
    for bg in [player_style(s).light for s in range(4)] + [STRIP_BG]:
        for tile in tiles:
            mini_sprite(tile, bg)
    for seat in range(4):
        style = player_style(seat)
        bg = style.light
        for number in range(0, 41):
            text_sprite(str(number), INK, bg)
        for uses in range(0, 4):
            text_sprite(f"x{uses}", INK if uses else MUTED, bg)
        for number in range(1, 5):
            for filled in (False, True):
                pip_sprite(number, filled, style.colour, bg, False)
        for number in range(1, 3):
            pip_sprite(number, True, WHITE, bg, True)
        for kind in ("turn", "win", "draw"):
            marker_sprite(kind, seat, 44, bg)
        badge_sprite(seat, 62, bg)
        icon_sprite("gem", 36, bg)
        icon_sprite("flag", 40, bg)
        icon_sprite("stop", 40, bg)
        for skill in SKILLS:
            skill_sprite(skill, SKILL_ICON, bg)
        for under in (PAPER, STRIP_BG):
            token_sprite(seat, TOKEN, under)
        for target in (15, 20):   # the teams' totals in the header, at the default targets
            for total in range(0, target + 11):
                text_sprite(f"{total}/{target}", style.dark, PAPER)
    icon_sprite("gem", 36, PAPER)
    for skill in SKILLS:
        for faded, crossed in ((False, False), (True, True), (True, False)):
            skill_sprite(skill, 54, STRIP_BG, faded, crossed)
        for lang in ("en", "ja"):
            for colour in (INK, MUTED):
                text_sprite(skill_name(skill, lang), colour, STRIP_BG)
    for number in range(1, WARM_ROUNDS + 1):
        text_sprite(f"R{number}", INK, PAPER)
    for count in range(0, WARM_DECK + 1):
        deck_sprite(count, True, False)
        deck_sprite(count, False, False)
        deck_sprite(count, False, True)
    for ux in (-1, 0, 1):
        for uy in (-1, 0, 1):
            if ux or uy:
                chevron_sprite((ux, uy))


def _gem_squares() -> list[str]:
    """The squares printed on gem tiles (a hand or the line shows them)."""
    from games.hostile.tiles import gem_squares
    return list(gem_squares())


@register(GAME_NAME)
def render(view: dict, *, last: bool = True, viewer_seat: int | None = None, lang: str = "en") -> bytes:
    """PNG bytes of the HOSTILE board for a ``Hostile().view(state, seat)`` dict, drawn from
    ``viewer_seat``'s corner when given, its skill names in ``lang``."""
    return png_bytes(render_image(view, last=last, viewer_seat=viewer_seat, lang=lang))
