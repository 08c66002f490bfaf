"""The OSU board image (RULES.md §3), drawn from a ``get_game("osu").view(state, seat)`` dict.

Layout (860 px wide; 2 players use columns b-f of the same grid, centred)::

    [ cat>mouse  lion>cat  mouse>lion  monkey=die |  hole b2 > b6 > f6 > f2 ]   legend
           a    b    c    d    e    f    g
        7 [  ][  ][  ][  ][  ][  ][  ] 7     start lines tinted in their seat's colour
        ...      passages: dark frame, a hole and an arrow toward the next one
        4 [  ][  ][  ][OSU][  ][  ][  ] 4     d4: purple frame and a crown
        ...
        1 [  ][  ][  ][  ][  ][  ][  ] 1
           a    b    c    d    e    f    g
    [ marker | A badge | 1/3 | captured tiles ] [ marker | B badge | 0/3 | ... ]
    [ ... seats C and D with 4 players ................................... ]

A tile is a rounded square in its owner's colour (Okabe-Ito, colour-blind safe) with the owner's
letter in a corner, its number in the middle and its four animals in white badges on the four
sides, where they face: mouse (grey, round ears), cat (dark, pointed ears), lion (golden mane),
monkey (brown, side ears). The legend repeats the animals with the beats relations; while the
2-player reversal is active it shows the reversed relations in a yellow box. The last chain is
drawn as arrows in the moving tile's colour (passages dotted, captures leaving the board with a
cross), the square the turn started from outlined in yellow. Each panel shows the turn marker
(triangle), a crown for the winner or "=" for a draw, the seat badge, the score against the
target and the tiles that seat captured.

No words: only coordinates, digits, seat letters and drawn symbols, so one image serves every
language. Speed: composed in palette mode from cached layers (background per player count,
reversal and markers; tile sprites per colour, number, rotation and square colour), like
:mod:`renderers.squaresiv`.

>>> from games.osu.engine import Osu
>>> g = Osu()
>>> render(g.view(g.setup(4, {}, seed=1), None))[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

import math
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from . import register
from .common import (
    CENTRE_TINT, GRID_LINE, HIGHLIGHT, INK, MUTED, PAPER, WHITE, Palette, SquareGrid, crown, draw_arrow,
    draw_highlight, draw_text, mix, player_style, png_bytes, seat_badge, seat_markers, status_marker, supersampled,
    triangle,
)

GAME_NAME = "osu"

# ---- layout (px at the posted size) ----------------------------------------------------------
WIDTH = 860
CELL = 110
PAD = 12
HEADER_H = 62
COORD = 44
PANEL_H = 96
PANEL_GAP = 10
INSET = 5                       # tile sprite inset inside its square (frames stay visible)
TILE = CELL - 2 * INSET
GRID = SquareGrid(left=(WIDTH - 7 * CELL) // 2, top=PAD + HEADER_H + COORD, cell=CELL, cols=7, rows=7)
BOARD_BOTTOM = GRID.bottom
PANELS_TOP = BOARD_BOTTOM + COORD + 4
PANEL_W = (WIDTH - 2 * PAD - PANEL_GAP) // 2
MINI = 46                       # a captured tile
MINI_PITCH = 50
LEGEND_GLYPH = 40
OFF_REACH = 6                   # a capture arrow ends this far beyond the board edge
ARROW_SHORTEN = 0.2 * CELL      # arrows stop short of the tile numbers
ARROW_OFFSET = 12               # to the right of travel: there-and-back shows as two arrows

COLUMNS = "abcdefg"
PASSAGES = ("b2", "b6", "f6", "f2")
OSU = "d4"
PASSAGE_NEXT_DIR = {"b2": "up", "b6": "right", "f6": "down", "f2": "left"}   # toward the next one
SIDE_OFFSETS = {"up": (0, -1), "right": (1, 0), "down": (0, 1), "left": (-1, 0)}   # pixel directions

# ---- colours -------------------------------------------------------------------------------------
BOARD_FILL = (246, 244, 238)
LEGEND_FILL = (236, 236, 236)
PASSAGE_FILL = (200, 200, 206)
PASSAGE_EDGE = (70, 70, 80)
OSU_EDGE = (150, 60, 110)
MOUSE = (160, 160, 168)
MOUSE_EAR = (236, 176, 186)
CAT = (58, 58, 62)
CAT_EYE = (240, 228, 66)
LION_MANE = (214, 130, 20)
LION_FACE = (250, 214, 120)
MONKEY = (128, 82, 44)
MONKEY_FACE = (236, 200, 160)
CROSS = (200, 40, 40)


def height(players: int) -> int:
    rows = 1 if players <= 2 else 2
    return PANELS_TOP + rows * PANEL_H + (rows - 1) * PANEL_GAP + PAD


def on_board(square: str, players: int) -> bool:
    c, r = COLUMNS.find(square[0]), int(square[1:])
    if not (0 <= c < 7 and 1 <= r <= 7):
        return False
    if players == 4:
        return not (c in (0, 6) and r in (1, 7))
    return 1 <= c <= 5


def squares(players: int) -> list[str]:
    return [f"{COLUMNS[c]}{r}" for r in range(1, 8) for c in range(7) if on_board(f"{COLUMNS[c]}{r}", players)]


def home_seat(square: str, players: int) -> int | None:
    """Whose start line a square is on (tinted in that seat's colour)."""
    c, r = COLUMNS.find(square[0]), int(square[1:])
    if r == 1 and 1 <= c <= 5:
        return 0
    if players == 4:
        if c == 0 and 2 <= r <= 6:
            return 1
        if r == 7 and 1 <= c <= 5:
            return 2
        if c == 6 and 2 <= r <= 6:
            return 3
        return None
    return 1 if r == 7 else None


def square_fill(square: str, players: int):
    if square in PASSAGES:
        return PASSAGE_FILL
    if square == OSU:
        return CENTRE_TINT
    seat = home_seat(square, players)
    return player_style(seat).light if seat is not None else BOARD_FILL


def panel_box(seat: int, players: int) -> tuple[int, int, int, int]:
    row, col = divmod(seat, 2)
    x0 = PAD + col * (PANEL_W + PANEL_GAP)
    y0 = PANELS_TOP + row * (PANEL_H + PANEL_GAP)
    return (x0, y0, x0 + PANEL_W, y0 + PANEL_H)


def panel_fill(seat: int):
    return mix(player_style(seat).colour, WHITE, 0.86)


# ---- animal glyphs --------------------------------------------------------------------------------
def draw_animal(d: ImageDraw.ImageDraw, animal: str, cx: float, cy: float, r: float) -> None:
    """An upright animal head of radius about ``r`` centred at (cx, cy), outlined in ink."""
    line = max(1, round(r * 0.12))
    if animal == "mouse":
        for sx in (-1, 1):
            ex, ey, er = cx + sx * 0.58 * r, cy - 0.52 * r, 0.46 * r
            d.ellipse((ex - er, ey - er, ex + er, ey + er), fill=MOUSE, outline=INK, width=line)
            ir = er * 0.55
            d.ellipse((ex - ir, ey - ir, ex + ir, ey + ir), fill=MOUSE_EAR)
        hr = 0.62 * r
        hy = cy + 0.22 * r
        d.ellipse((cx - hr, hy - hr, cx + hr, hy + hr), fill=MOUSE, outline=INK, width=line)
        _eyes(d, cx, hy - 0.12 * r, 0.24 * r, 0.1 * r, INK)
        nr = 0.1 * r
        d.ellipse((cx - nr, hy + 0.3 * r - nr, cx + nr, hy + 0.3 * r + nr), fill=INK)
    elif animal == "cat":
        hr = 0.7 * r
        hy = cy + 0.18 * r
        for sx in (-1, 1):
            d.polygon([(cx + sx * 0.72 * r, hy - 0.1 * r), (cx + sx * 0.62 * r, cy - 0.95 * r),
                       (cx + sx * 0.12 * r, hy - 0.55 * r)], fill=CAT, outline=INK, width=line)
        d.ellipse((cx - hr, hy - hr, cx + hr, hy + hr), fill=CAT, outline=INK, width=line)
        _eyes(d, cx, hy - 0.08 * r, 0.3 * r, 0.15 * r, CAT_EYE)
        d.polygon([(cx - 0.1 * r, hy + 0.22 * r), (cx + 0.1 * r, hy + 0.22 * r), (cx, hy + 0.34 * r)],
                  fill=(236, 150, 170))
    elif animal == "lion":
        points = []
        for i in range(24):
            a = math.pi * 2 * i / 24
            rad = r * (1.0 if i % 2 == 0 else 0.78)
            points.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
        d.polygon(points, fill=LION_MANE, outline=INK, width=line)
        hr = 0.56 * r
        d.ellipse((cx - hr, cy - hr, cx + hr, cy + hr), fill=LION_FACE, outline=INK, width=line)
        _eyes(d, cx, cy - 0.1 * r, 0.22 * r, 0.09 * r, INK)
        d.polygon([(cx - 0.12 * r, cy + 0.14 * r), (cx + 0.12 * r, cy + 0.14 * r), (cx, cy + 0.28 * r)], fill=INK)
    elif animal == "monkey":
        for sx in (-1, 1):
            ex, ey, er = cx + sx * 0.78 * r, cy, 0.3 * r
            d.ellipse((ex - er, ey - er, ex + er, ey + er), fill=MONKEY, outline=INK, width=line)
            ir = er * 0.55
            d.ellipse((ex - ir, ey - ir, ex + ir, ey + ir), fill=MONKEY_FACE)
        hr = 0.64 * r
        d.ellipse((cx - hr, cy - hr, cx + hr, cy + hr), fill=MONKEY, outline=INK, width=line)
        d.ellipse((cx - 0.46 * r, cy - 0.42 * r, cx - 0.02 * r, cy + 0.12 * r), fill=MONKEY_FACE)
        d.ellipse((cx + 0.02 * r, cy - 0.42 * r, cx + 0.46 * r, cy + 0.12 * r), fill=MONKEY_FACE)
        d.ellipse((cx - 0.4 * r, cy - 0.02 * r, cx + 0.4 * r, cy + 0.52 * r), fill=MONKEY_FACE)
        _eyes(d, cx, cy - 0.14 * r, 0.22 * r, 0.09 * r, INK)
        d.line([(cx - 0.16 * r, cy + 0.3 * r), (cx + 0.16 * r, cy + 0.3 * r)], fill=INK, width=line)


def _eyes(d, cx, cy, dx, er, fill) -> None:
    for sx in (-1, 1):
        ex = cx + sx * dx
        d.ellipse((ex - er, cy - er, ex + er, cy + er), fill=fill, outline=INK if fill != INK else None,
                  width=max(1, round(er * 0.4)))


def draw_die(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """A die showing five pips: "a random result"."""
    line = max(1, round(r * 0.1))
    d.rounded_rectangle((cx - r, cy - r, cx + r, cy + r), radius=0.25 * r, fill=WHITE, outline=INK, width=line)
    pr = 0.16 * r
    for px, py in ((-0.5, -0.5), (0.5, -0.5), (0, 0), (-0.5, 0.5), (0.5, 0.5)):
        x, y = cx + px * r, cy + py * r
        d.ellipse((x - pr, y - pr, x + pr, y + pr), fill=INK)


# ---- sprites (RGB, cached) ------------------------------------------------------------------------
def _tile_rgb(seat: int, number: int, faces: tuple[str, str, str, str], background, size: int = TILE) -> Image.Image:
    """A tile: ``faces`` = animals on (up, right, down, left)."""
    style = player_style(seat)

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        s = size * k
        line = max(2, round(0.03 * s))
        d.rounded_rectangle((line / 2, line / 2, s - line / 2, s - line / 2), radius=0.14 * s,
                            fill=style.colour, outline=INK, width=line)
        # faint diagonals: four sides, four animals
        edge = mix(style.colour, INK, 0.35)
        m = 0.16 * s
        d.line([(m, m), (s - m, s - m)], fill=edge, width=max(1, line // 2))
        d.line([(s - m, m), (m, s - m)], fill=edge, width=max(1, line // 2))
        br = 0.175 * s
        reach = 0.205 * s
        for side, animal in zip(("up", "right", "down", "left"), faces):
            ox, oy = SIDE_OFFSETS[side]
            bx, by = s / 2 + ox * (s / 2 - reach), s / 2 + oy * (s / 2 - reach)
            d.ellipse((bx - br, by - br, bx + br, by + br), fill=WHITE, outline=INK, width=max(2, line // 2 + 1))
            draw_animal(d, animal, bx, by, br * 0.8)
        # number in the middle on a disc of the seat colour, letter in the top-left corner
        nr = 0.155 * s
        d.ellipse((s / 2 - nr, s / 2 - nr, s / 2 + nr, s / 2 + nr), fill=style.colour)
        draw_text(d, (s / 2, s / 2 + 0.01 * s), str(number), round(0.28 * s), style.ink, bold=True)
        draw_text(d, (0.14 * s, 0.14 * s), style.letter, round(0.17 * s), style.ink, bold=True)

    return supersampled((size, size), paint, background=tuple(background)).convert("RGB")


def _mini_rgb(seat: int, number: int, background) -> Image.Image:
    """A captured tile: colour, number, letter."""
    style = player_style(seat)

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        s = MINI * k
        line = max(2, round(0.05 * s))
        d.rounded_rectangle((line / 2, line / 2, s - line / 2, s - line / 2), radius=0.18 * s,
                            fill=style.colour, outline=INK, width=line)
        draw_text(d, (0.56 * s, 0.56 * s), str(number), round(0.56 * s), style.ink, bold=True)
        draw_text(d, (0.22 * s, 0.24 * s), style.letter, round(0.3 * s), style.ink, bold=True)

    return supersampled((MINI, MINI), paint, background=tuple(background)).convert("RGB")


def _score_rgb(seat: int, score: int, target: int) -> Image.Image:
    style = player_style(seat)
    w, h = 96, 56

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        draw_text(d, (w * k / 2, h * k / 2), f"{score}/{target}", 34 * k, style.dark if score else MUTED, bold=True)

    return supersampled((w, h), paint, background=panel_fill(seat)).convert("RGB")


def _glyph_rgb(animal: str, size: int, background) -> Image.Image:
    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        s = size * k
        if animal == "die":
            draw_die(d, s / 2, s / 2, 0.36 * s)
        else:
            d.ellipse((0.03 * s, 0.03 * s, 0.97 * s, 0.97 * s), fill=WHITE, outline=INK, width=max(2, round(0.04 * s)))
            draw_animal(d, animal, s / 2, s / 2, 0.4 * s)

    return supersampled((size, size), paint, background=tuple(background)).convert("RGB")


def _legend(im: Image.Image, reversed_: bool) -> None:
    """The beats relations (normal or reversed) and the passage order, along the top."""
    d = ImageDraw.Draw(im)
    y = PAD + HEADER_H // 2 - 4
    pairs = (("cat", "mouse"), ("lion", "cat"), ("mouse", "lion"))
    if reversed_:
        pairs = tuple((b, a) for a, b in pairs)
    x = PAD
    g = LEGEND_GLYPH
    pill = 2 * g + 34
    for a, b in pairs:
        fill = HIGHLIGHT if reversed_ else LEGEND_FILL
        d.rounded_rectangle((x, y - g // 2 - 5, x + pill, y + g // 2 + 5), radius=12, fill=fill,
                            outline=INK if reversed_ else GRID_LINE, width=2)
        im.paste(_glyph_rgb(a, g, fill), (x + 5, y - g // 2))
        draw_text(d, (x + g + 17, y), ">", 30, INK, bold=True)
        im.paste(_glyph_rgb(b, g, fill), (x + g + 29, y - g // 2))
        x += pill + 10
    d.rounded_rectangle((x, y - g // 2 - 5, x + pill, y + g // 2 + 5), radius=12, fill=LEGEND_FILL,
                        outline=GRID_LINE, width=2)
    im.paste(_glyph_rgb("monkey", g, LEGEND_FILL), (x + 5, y - g // 2))
    draw_text(d, (x + g + 17, y), "=", 30, INK, bold=True)
    im.paste(_glyph_rgb("die", g, LEGEND_FILL), (x + g + 29, y - g // 2))
    # passages: a hole, then the clockwise order
    x = WIDTH - PAD - 222
    d.ellipse((x, y - 15, x + 34, y + 15), fill=PASSAGE_EDGE, outline=INK, width=2)
    d.ellipse((x + 7, y - 8, x + 27, y + 8), fill=(30, 30, 36))
    draw_text(d, (x + 42, y), "b2>b6>f6>f2", 26, INK, anchor="lm", bold=True)


def _passage_mark(d: ImageDraw.ImageDraw, square: str) -> None:
    x0, y0, x1, y1 = GRID.box(square)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    d.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=PASSAGE_EDGE, width=5)
    rx, ry = 0.3 * CELL, 0.2 * CELL
    d.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), fill=PASSAGE_EDGE, outline=INK, width=2)
    d.ellipse((cx - 0.6 * rx, cy - 0.55 * ry, cx + 0.6 * rx, cy + 0.55 * ry), fill=(30, 30, 36))
    ox, oy = SIDE_OFFSETS[PASSAGE_NEXT_DIR[square]]
    tx, ty = cx + ox * 0.36 * CELL, cy + oy * 0.36 * CELL
    d.polygon(triangle((tx, ty), 0.16 * CELL, PASSAGE_NEXT_DIR[square]), fill=INK)


def _osu_mark(d: ImageDraw.ImageDraw) -> None:
    x0, y0, x1, y1 = GRID.box(OSU)
    d.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=OSU_EDGE, width=5)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    w = 0.52 * CELL
    d.polygon(crown((cx - w / 2, cy - 0.36 * w, cx + w / 2, cy + 0.36 * w)), fill=mix(OSU_EDGE, WHITE, 0.45),
              outline=OSU_EDGE, width=3)


def _board_rgb(players: int, reversed_: bool, marks: tuple) -> Image.Image:
    """Everything that does not depend on the tiles: legend, board, coordinates, panels."""
    im = Image.new("RGB", (WIDTH, height(players)), PAPER)
    d = ImageDraw.Draw(im)
    _legend(im, reversed_)
    on = squares(players)
    for sq in on:
        d.rectangle(GRID.box(sq), fill=square_fill(sq, players))
    for sq in on:
        x0, y0, x1, y1 = GRID.box(sq)
        d.rectangle((x0, y0, x1, y1), outline=GRID_LINE, width=2)
    for sq in PASSAGES:
        _passage_mark(d, sq)
    _osu_mark(d)
    cols = range(7) if players == 4 else range(1, 6)
    for c in cols:
        x = GRID.left + (c + 0.5) * CELL
        draw_text(d, (x, GRID.top - COORD + 18), COLUMNS[c], 26, INK, bold=True)
        draw_text(d, (x, GRID.bottom + COORD - 18), COLUMNS[c], 26, INK, bold=True)
    left = GRID.left + (0 if players == 4 else CELL)
    right = GRID.left + (7 if players == 4 else 6) * CELL
    for r in range(1, 8):
        y = GRID.top + (7 - r + 0.5) * CELL
        draw_text(d, (left - 28, y), str(r), 26, INK, bold=True)
        draw_text(d, (right + 28, y), str(r), 26, INK, bold=True)
    for seat in range(players):
        style = player_style(seat)
        box = panel_box(seat, players)
        marker = marks[seat]
        active = marker in ("turn", "win")
        d.rectangle(box, fill=panel_fill(seat), outline=style.dark if active else style.colour,
                    width=6 if active else 2)
        cy = (box[1] + box[3]) // 2
        if marker:
            im.paste(status_marker(marker, seat, 44, panel_fill(seat)), (box[0] + 10, cy - 22))
        im.paste(seat_badge(seat, 62, panel_fill(seat)), (box[0] + 60, cy - 31))
    return im


# ---- palette mode layers ------------------------------------------------------------------------
_ALL_FACES = ("mouse", "cat", "lion", "monkey")


def faces_of(rotation: int) -> tuple[str, str, str, str]:
    """Animals on (up, right, down, left) for a rotation (clockwise quarter turns)."""
    return tuple(_ALL_FACES[(s - rotation) % 4] for s in range(4))  # type: ignore[return-value]


@cache
def palette() -> Palette:
    """A fixed 256-colour palette from a swatch of everything the renderer draws."""
    parts = [_board_rgb(4, False, ("turn", "win", "draw", None)), _board_rgb(2, True, ("win", "turn"))]
    sprites = []
    for seat in range(4):
        for bg in (BOARD_FILL, player_style(seat).light, PASSAGE_FILL, CENTRE_TINT):
            sprites.append(_tile_rgb(seat, 1 + seat, faces_of(seat), bg))
        sprites.append(_mini_rgb(seat, 4, panel_fill(seat)))
        sprites.append(_score_rgb(seat, 1, 3))
    sheet = Image.new("RGB", (WIDTH, TILE * (len(sprites) // 8 + 1)), PAPER)
    for i, sp in enumerate(sprites):
        sheet.paste(sp, ((i % 8) * TILE, (i // 8) * TILE))
    swatch = Image.new("RGB", (WIDTH, sum(p.height for p in parts) + sheet.height))
    y = 0
    for p in parts + [sheet]:
        swatch.paste(p, (0, y))
        y += p.height
    exact = [PAPER, WHITE, INK, GRID_LINE, MUTED, HIGHLIGHT, CENTRE_TINT, BOARD_FILL, PASSAGE_FILL, PASSAGE_EDGE,
             OSU_EDGE, CROSS, MOUSE, CAT, LION_MANE, LION_FACE, MONKEY, MONKEY_FACE]
    for seat in range(4):
        st = player_style(seat)
        exact += [st.colour, st.dark, st.light, st.ink, panel_fill(seat)]
    return Palette(swatch, exact=exact)


@lru_cache(maxsize=64)
def background(players: int, reversed_: bool, marks: tuple) -> Image.Image:
    return palette().convert(_board_rgb(players, reversed_, marks))


@lru_cache(maxsize=1024)
def tile_sprite(seat: int, number: int, rotation: int, background_rgb: tuple) -> Image.Image:
    return palette().convert(_tile_rgb(seat, number, faces_of(rotation), background_rgb))


@lru_cache(maxsize=128)
def mini_sprite(owner: int, number: int, captor: int) -> Image.Image:
    return palette().convert(_mini_rgb(owner, number, panel_fill(captor)))


@lru_cache(maxsize=256)
def score_sprite(seat: int, score: int, target: int) -> Image.Image:
    return palette().convert(_score_rgb(seat, score, target))


# ---- composing a board -----------------------------------------------------------------------------
def markers(view: dict) -> tuple:
    """Per seat: "turn", "win", "draw" or None."""
    return seat_markers(view)


def _centre(square: str) -> tuple[float, float]:
    return GRID.centre(square)


def path_arrows(path: list[dict]) -> list[tuple[str, tuple, tuple, int]]:
    """(kind, start px, end px, seat) per step of the last chain; "off" ends beyond the edge.

    >>> path_arrows([{"kind": "move", "seat": 0, "tile": 1, "from": "b1", "to": "b2", "dx": 0, "dy": 1}])
    [('move', (210.0, 833.0), (210.0, 723.0), 0)]
    """
    out = []
    for step in path or ():
        kind = step.get("kind")
        if kind == "rotate":
            continue
        start = _centre(step["from"])
        if kind == "off" or step.get("to") is None:
            dx, dy = step.get("dx", 0), step.get("dy", 0)
            reach = CELL / 2 + OFF_REACH
            end = (start[0] + dx * reach, start[1] - dy * reach)
            out.append(("off", start, end, step.get("seat", 0)))
        else:
            out.append((kind, start, _centre(step["to"]), step.get("seat", 0)))
    return out


def _offset(start, end, amount):
    """Shift a segment to its right-hand side, so a there-and-back pair shows as two arrows."""
    (x0, y0), (x1, y1) = start, end
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    nx, ny = -(y1 - y0) / length, (x1 - x0) / length
    return (x0 + nx * amount, y0 + ny * amount), (x1 + nx * amount, y1 + ny * amount)


def _dotted(d: ImageDraw.ImageDraw, start, end, fill, edge) -> None:
    (x0, y0), (x1, y1) = start, end
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    stop = length - ARROW_SHORTEN
    t = ARROW_SHORTEN
    while t < stop - 34:
        x, y = x0 + ux * t, y0 + uy * t
        d.ellipse((x - 5, y - 5, x + 5, y + 5), fill=fill, outline=edge, width=2)
        t += 18
    draw_arrow(d, (x0 + ux * (stop - 30), y0 + uy * (stop - 30)), (x0 + ux * stop, y0 + uy * stop),
               fill=fill, outline=edge, width=8, head_length=24, head_width=28, outline_width=2)


def render_image(view: dict, *, last: bool = True) -> Image.Image:
    """The board as a 'P'-mode PIL image (``render`` encodes it). ``last=False`` leaves the last
    chain undrawn."""
    pal = palette()
    players = view.get("players", 2)
    canvas = background(players, bool(view.get("reversed")), markers(view)).copy()
    paste = canvas.paste
    for t in view.get("tiles", ()):
        sq = t["square"]
        x0, y0, _, _ = GRID.box(sq)
        bg = tuple(square_fill(sq, players))
        paste(tile_sprite(t["seat"], t["number"], t["rotation"] % 4, bg), (x0 + INSET, y0 + INSET))
    scores, targets = view.get("scores", ()), view.get("targets", ())
    for seat in range(players):
        box = panel_box(seat, players)
        cy = (box[1] + box[3]) // 2
        if seat < len(scores) and seat < len(targets):
            paste(score_sprite(seat, scores[seat], targets[seat]), (box[0] + 128, cy - 28))
        caps = (view.get("captured") or [[]] * players)[seat] if seat < len(view.get("captured") or ()) else []
        room = box[2] - 8 - (box[0] + 230)
        pitch = min(MINI_PITCH, room // max(1, len(caps)))
        for i, cap in enumerate(caps):
            if pitch < MINI // 3:
                break
            paste(mini_sprite(cap["seat"], cap["number"], seat), (box[0] + 230 + i * pitch, cy - MINI // 2))
    lastv = view.get("last")
    if last and lastv:
        d = ImageDraw.Draw(canvas)
        path = lastv.get("path") or []
        if path:
            draw_highlight(d, GRID.box(path[0]["from"]), colour=pal.index(HIGHLIGHT), edge=pal.index(INK),
                           width=6, edge_width=2)
        for kind, start, end, seat in path_arrows(path):
            style = player_style(seat)
            fill, edge = pal.index(style.dark), pal.index(WHITE)
            if kind == "passage":
                _dotted(d, start, end, fill, edge)
                continue
            start, end = _offset(start, end, ARROW_OFFSET)
            if kind == "off":
                length = math.dist(start, end) or 1.0
                ux, uy = (end[0] - start[0]) / length, (end[1] - start[1]) / length
                start = (start[0] + ux * 0.1 * CELL, start[1] + uy * 0.1 * CELL)
                draw_arrow(d, start, end, fill=fill, outline=edge, width=10, head_length=26, head_width=30,
                           outline_width=3)
                cx, cy = end
                for sx in (-1, 1):
                    d.line([(cx - 10, cy - 10 * sx), (cx + 10, cy + 10 * sx)], fill=pal.index(WHITE), width=9)
                for sx in (-1, 1):
                    d.line([(cx - 9, cy - 9 * sx), (cx + 9, cy + 9 * sx)], fill=pal.index(CROSS), width=5)
                continue
            length = math.dist(start, end) or 1.0
            ux, uy = (end[0] - start[0]) / length, (end[1] - start[1]) / length
            start = (start[0] + ux * ARROW_SHORTEN, start[1] + uy * ARROW_SHORTEN)
            end = (end[0] - ux * ARROW_SHORTEN, end[1] - uy * ARROW_SHORTEN)
            draw_arrow(d, start, end, fill=fill, outline=edge, width=10, head_length=24, head_width=30,
                       outline_width=3)
    return canvas


def warm() -> None:
    """Build the palette, the start-of-game backgrounds and the set-up tiles' sprites now."""
    from games.osu.engine import Osu

    game = Osu()
    for players in (2, 4):
        render_image(game.view(game.setup(players, {}, 0), None))


@register(GAME_NAME)
def render(view: dict, *, last: bool = True) -> bytes:
    """PNG bytes of the OSU board for a ``get_game("osu").view(state, seat)`` dict."""
    return png_bytes(render_image(view, last=last))
