"""The OSU board image (RULES.md §3), drawn from a ``get_game("osu").view(state, seat)`` dict.

Layout (860 px wide; 2 players use columns b-f of the same grid)::

    [ cat>mouse  lion>cat  mouse>lion  monkey=die          b2>b6>f6>f2 ]   legend
        7 [  ][  ][  ][  ][  ][  ][  ]     start lines tinted in their seat's colour
        ...      passages: dark frame, a hole and an arrow toward the next one
        4 [  ][  ][  ][OSU][  ][  ][  ]     d4: purple frame and a crown
        ...
        1 [  ][  ][  ][  ][  ][  ][  ]
           a    b    c    d    e    f    g
    [ marker | A badge | 1/3 | captured tiles ] [ marker | B badge | 0/3 | ... ]
    [ ... seats C and D with 4 players ................................... ]

A tile is a rounded square in its owner's colour (Okabe-Ito, colour-blind safe) cut in thirds:
the owner's letter in the top-left third, its number in the centre and its four animals in white
windows filling the middle thirds of the four sides, where they face: mouse (grey, round ears),
cat (dark, pointed ears), lion (golden mane), monkey (brown, side ears). Letters, digits and
animal heads (as wide as they are tall) are at least 16 px tall when the image is shown 400 px
wide, and none overlaps another (tests/test_phone_render.py measures them). The legend repeats
the animals with the beats relations (">" and "=" drawn as tall as a letter); while the 2-player reversal is active it shows the reversed
relations in a yellow box. The last chain never covers a tile's letter, number or animals: each
step is a yellow chevron in a free corner third of the square entered (a tile pushed off the
board: a red cross in the square it left), passage jumps are dotted along the passage ring under
the tiles, and the square the turn started from is outlined in yellow. Each panel shows the turn
marker (triangle), a crown for the winner or "=" for a draw, the seat badge, the score against
the target and the tiles that seat captured (letter over number).

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
from functools import lru_cache

from PIL import Image, ImageDraw

from .registry import register
from .taps import is_collecting, note_region
from .common import (palette_builder, 
    CENTRE_TINT, GRID_LINE, HIGHLIGHT, INK, MUTED, PAPER, WHITE, Palette, SquareGrid, alpha_mask, crown,
    draw_highlight, draw_text, fitted_size, glyph_box, is_recording, min_glyph_px, mix, note_box, note_glyph,
    note_squares, note_text, player_style, png_bytes, readable_size, seat_badge, seat_markers, status_marker,
    supersampled, triangle,
)

GAME_NAME = "osu"

# ---- layout (px at the posted size) ----------------------------------------------------------
WIDTH = 860
TEXT = readable_size(WIDTH)     # every letter and digit: 16 px tall when shown 400 px wide
FILE_TEXT = readable_size(WIDTH, small=True)   # ... and a lone lowercase file letter ("a"), by its x-height
GLYPH = min_glyph_px(WIDTH)     # ... and every drawn symbol
CELL = 114
PAD = 12
HEADER_H = 66
COORD = 50                      # rank numbers left of the board, file letters below it
PANEL_H = 100
PANEL_GAP = 10
INSET = 1                       # tile sprite inset inside its square (frames stay visible)
TILE = CELL - 2 * INSET
ANIMAL = TILE / 6 - 0.8         # an animal's half-side: nearly its whole third of the tile, 16.5 px at 400 px
GRID = SquareGrid(left=PAD + COORD - 8, top=PAD + HEADER_H + 8, cell=CELL, cols=7, rows=7)
BOARD_BOTTOM = GRID.bottom
PANELS_TOP = BOARD_BOTTOM + COORD + 4
PANEL_W = (WIDTH - 2 * PAD - PANEL_GAP) // 2
MINI_W, MINI_H = 50, 88         # a captured tile: its letter over its number
MINI_PITCH = 54
LEGEND_GLYPH = 46
STEP = 36                       # a step marker: a chevron in a free corner third of a square

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
LION_EDGE = (120, 62, 0)      # lion and monkey are edged in a dark shade of their own colour, not in black:
MONKEY_EDGE = (72, 42, 18)    # at a phone's width a black edge reads as a cat's fur
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
    """An upright animal head filling the square of half-side ``r`` centred at (cx, cy),
    outlined in ink: as wide as it is tall, so a face reads as large across as up and down."""
    with glyph_box(d, animal, read="both"):   # a face is read by its width as much as its height
        _draw_animal(d, animal, cx, cy, r)


def _draw_animal(d: ImageDraw.ImageDraw, animal: str, cx: float, cy: float, r: float) -> None:
    # Each head fills its box with its own colour (grey, black, gold, brown), ears and mane kept
    # small: at a phone's width the colour and outline of the head tell the animals apart, the
    # features only confirm them.
    line = max(1, round(r * 0.12))
    if animal == "mouse":   # two round ears over a big round head
        for sx in (-1, 1):
            ex, ey, er = cx + sx * 0.6 * r, cy - 0.6 * r, 0.38 * r
            d.ellipse((ex - er, ey - er, ex + er, ey + er), fill=MOUSE, outline=INK, width=line)
            ir = er * 0.55
            d.ellipse((ex - ir, ey - ir, ex + ir, ey + ir), fill=MOUSE_EAR)
        hr = 0.8 * r
        hy = cy + 0.18 * r
        d.ellipse((cx - hr, hy - hr, cx + hr, hy + hr), fill=MOUSE, outline=INK, width=line)
        _eyes(d, cx, hy - 0.1 * r, 0.3 * r, 0.13 * r, INK)
        nr = 0.14 * r
        d.ellipse((cx - nr, hy + 0.34 * r - nr, cx + nr, hy + 0.34 * r + nr), fill=MOUSE_EAR, outline=INK,
                  width=max(1, line // 2))
    elif animal == "cat":   # pointed ears over a wide head
        hy = cy + 0.2 * r
        for sx in (-1, 1):
            d.polygon([(cx + sx * 0.96 * r, hy), (cx + sx * 0.8 * r, cy - 0.98 * r),
                       (cx + sx * 0.2 * r, hy - 0.66 * r)], fill=CAT, outline=INK, width=line)
        d.ellipse((cx - 0.98 * r, hy - 0.76 * r, cx + 0.98 * r, hy + 0.76 * r), fill=CAT, outline=INK, width=line)
        _eyes(d, cx, hy - 0.08 * r, 0.38 * r, 0.19 * r, CAT_EYE)
        d.polygon([(cx - 0.13 * r, hy + 0.24 * r), (cx + 0.13 * r, hy + 0.24 * r), (cx, hy + 0.4 * r)],
                  fill=(236, 150, 170))
    elif animal == "lion":   # a big face in a spiky mane
        points = []
        for i in range(24):
            a = math.pi * 2 * i / 24
            rad = r * (0.99 if i % 2 == 0 else 0.84)
            points.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
        d.polygon(points, fill=LION_MANE, outline=LION_EDGE, width=line)
        hr = 0.62 * r
        d.ellipse((cx - hr, cy - hr, cx + hr, cy + hr), fill=LION_FACE, outline=LION_EDGE, width=line)
        _eyes(d, cx, cy - 0.12 * r, 0.25 * r, 0.11 * r, INK)
        d.polygon([(cx - 0.15 * r, cy + 0.14 * r), (cx + 0.15 * r, cy + 0.14 * r), (cx, cy + 0.32 * r)], fill=LION_EDGE)
    elif animal == "monkey":   # a tall brown head with ears at its sides
        for sx in (-1, 1):
            ex, ey, er = cx + sx * 0.72 * r, cy - 0.04 * r, 0.26 * r
            d.ellipse((ex - er, ey - er, ex + er, ey + er), fill=MONKEY, outline=MONKEY_EDGE, width=line)
            ir = er * 0.55
            d.ellipse((ex - ir, ey - ir, ex + ir, ey + ir), fill=MONKEY_FACE)
        hr = 0.7 * r
        d.ellipse((cx - hr, cy - 0.98 * r, cx + hr, cy + 0.98 * r), fill=MONKEY, outline=MONKEY_EDGE, width=line)
        d.ellipse((cx - 0.46 * r, cy - 0.46 * r, cx - 0.02 * r, cy + 0.1 * r), fill=MONKEY_FACE)
        d.ellipse((cx + 0.02 * r, cy - 0.46 * r, cx + 0.46 * r, cy + 0.1 * r), fill=MONKEY_FACE)
        d.ellipse((cx - 0.42 * r, cy - 0.04 * r, cx + 0.42 * r, cy + 0.62 * r), fill=MONKEY_FACE)
        _eyes(d, cx, cy - 0.18 * r, 0.22 * r, 0.11 * r, INK)
        d.line([(cx - 0.18 * r, cy + 0.34 * r), (cx + 0.18 * r, cy + 0.34 * r)], fill=INK, width=line)


def _eyes(d, cx, cy, dx, er, fill) -> None:
    for sx in (-1, 1):
        ex = cx + sx * dx
        d.ellipse((ex - er, cy - er, ex + er, cy + er), fill=fill, outline=INK if fill != INK else None,
                  width=max(1, round(er * 0.4)))


def draw_die(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """A die showing five pips: "a random result"."""
    note_glyph("die", 2 * r)
    line = max(1, round(r * 0.1))
    d.rounded_rectangle((cx - r, cy - r, cx + r, cy + r), radius=0.25 * r, fill=WHITE, outline=INK, width=line)
    pr = 0.16 * r
    for px, py in ((-0.5, -0.5), (0.5, -0.5), (0, 0), (-0.5, 0.5), (0.5, 0.5)):
        x, y = cx + px * r, cy + py * r
        d.ellipse((x - pr, y - pr, x + pr, y + pr), fill=INK)


# ---- sprites (RGB, cached) ------------------------------------------------------------------------
def _tile_rgb(seat: int, number: int, faces: tuple[str, str, str, str], background, size: int = TILE) -> Image.Image:
    """A tile cut in thirds: ``faces`` = animals on (up, right, down, left), each filling the
    middle third of its side in a white window; the number in the centre third, the owner's letter
    in the top-left corner third. The other three corners stay free for the last chain's step
    markers. Every animal and character is its own third: none overlaps another."""
    style = player_style(seat)

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        s = size * k
        t = s / 3
        line = max(2, round(0.018 * s))
        d.rounded_rectangle((line / 2, line / 2, s - line / 2, s - line / 2), radius=0.07 * s,
                            fill=style.colour, outline=INK, width=line)
        r = ANIMAL * k
        for side, animal in zip(("up", "right", "down", "left"), faces):
            ox, oy = SIDE_OFFSETS[side]
            bx, by = s / 2 + ox * t, s / 2 + oy * t
            br = t / 2 - 0.2 * k   # a white window as big as the head (its ears too): no frame takes its room
            d.rounded_rectangle((bx - br, by - br, bx + br, by + br), radius=0.22 * br, fill=WHITE)
            draw_animal(d, animal, bx, by, r)
        # each character at the size that makes it, itself, readable: a round "C" needs less than an "A"
        draw_text(d, (s / 2, s / 2), str(number), fitted_size(str(number), WIDTH) * k, style.ink, bold=True)
        draw_text(d, (t / 2, t / 2), style.letter, fitted_size(style.letter, WIDTH) * k, style.ink, bold=True)

    return supersampled((size, size), paint, background=tuple(background)).convert("RGB")


def _mini_rgb(seat: int, number: int, background) -> Image.Image:
    """A captured tile: colour, owner letter over the number."""
    style = player_style(seat)

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        w, h = MINI_W * k, MINI_H * k
        line = max(2, round(0.05 * w))
        d.rounded_rectangle((line / 2, line / 2, w - line / 2, h - line / 2), radius=0.2 * w,
                            fill=style.colour, outline=INK, width=line)
        draw_text(d, (w / 2, 0.28 * h), style.letter, TEXT * k, style.ink, bold=True)
        draw_text(d, (w / 2, 0.72 * h), str(number), TEXT * k, style.ink, bold=True)

    return supersampled((MINI_W, MINI_H), paint, background=tuple(background)).convert("RGB")


def _score_rgb(seat: int, score: int, target: int) -> Image.Image:
    style = player_style(seat)
    w, h = 96, 56

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        draw_text(d, (w * k / 2, h * k / 2), f"{score}/{target}", TEXT * k, style.dark if score else MUTED, bold=True)

    return supersampled((w, h), paint, background=panel_fill(seat)).convert("RGB")


def _glyph_rgb(animal: str, size: int, background) -> Image.Image:
    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        s = size * k
        if animal == "die":
            draw_die(d, s / 2, s / 2, 0.38 * s)
        else:
            d.rounded_rectangle((0.03 * s, 0.03 * s, 0.97 * s, 0.97 * s), radius=0.2 * s, fill=WHITE, outline=INK,
                                width=max(2, round(0.04 * s)))
            draw_animal(d, animal, s / 2, s / 2, 0.4 * s)

    return supersampled((size, size), paint, background=tuple(background)).convert("RGB")


SIGN_W = 28


def _sign_rgb(sign: str, background) -> Image.Image:
    """The legend's ">" (beats) or "=" (rolls as) drawn as a symbol as tall as a letter: the
    font's own signs are a third shorter than its capitals."""
    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        w, h, cy = SIGN_W * k, (GLYPH + 1) * k, LEGEND_GLYPH * k / 2
        with glyph_box(d, sign):
            if sign == ">":
                d.line([(w / 2 - 0.28 * h, cy - 0.45 * h), (w / 2 + 0.22 * h, cy),
                        (w / 2 - 0.28 * h, cy + 0.45 * h)], fill=INK, width=round(0.17 * h), joint="curve")
            else:
                for top in (cy - h / 2, cy + h / 2 - 0.3 * h):
                    d.rectangle((w / 2 - 0.4 * h, top, w / 2 + 0.4 * h, top + 0.3 * h), fill=INK)

    return supersampled((SIGN_W, LEGEND_GLYPH), paint, background=tuple(background)).convert("RGB")


def _legend(im: Image.Image, reversed_: bool) -> None:
    """The beats relations (normal or reversed) and the passage order, along the top."""
    d = ImageDraw.Draw(im)
    y = PAD + HEADER_H // 2 - 4
    pairs = (("cat", "mouse"), ("lion", "cat"), ("mouse", "lion"))
    if reversed_:
        pairs = tuple((b, a) for a, b in pairs)
    x = PAD - 6
    g = LEGEND_GLYPH
    pill = 2 * g + 38
    items = [(a, ">", b, HIGHLIGHT if reversed_ else LEGEND_FILL, reversed_) for a, b in pairs]
    items.append(("monkey", "=", "die", LEGEND_FILL, False))
    for a, sign, b, fill, strong in items:
        d.rounded_rectangle((x, y - g // 2 - 5, x + pill, y + g // 2 + 5), radius=12, fill=fill,
                            outline=INK if strong else GRID_LINE, width=2)
        im.paste(_glyph_rgb(a, g, fill), (x + 4, y - g // 2))
        im.paste(_sign_rgb(sign, fill), (x + g + 19 - SIGN_W // 2, y - g // 2))
        im.paste(_glyph_rgb(b, g, fill), (x + g + 34, y - g // 2))
        x += pill + 6
    # passages: the clockwise order (the board's holes point the same way)
    draw_text(d, (WIDTH - PAD + 4, y), "b2>b6>f6>f2", TEXT, INK, anchor="rm", bold=True)


def _passage_mark(d: ImageDraw.ImageDraw, square: str, grid: SquareGrid = GRID) -> None:
    x0, y0, x1, y1 = grid.box(square)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    d.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=PASSAGE_EDGE, width=5)
    ox, oy = grid.screen_dir(*SIDE_OFFSETS[PASSAGE_NEXT_DIR[square]])
    side = next(name for name, offset in SIDE_OFFSETS.items() if offset == (ox, oy))
    hx, hy = cx - ox * 0.1 * CELL, cy - oy * 0.1 * CELL   # the hole sits back from the arrow
    rx, ry = 0.28 * CELL, 0.18 * CELL
    d.ellipse((hx - rx, hy - ry, hx + rx, hy + ry), fill=PASSAGE_EDGE, outline=INK, width=2)
    d.ellipse((hx - 0.6 * rx, hy - 0.55 * ry, hx + 0.6 * rx, hy + 0.55 * ry), fill=(30, 30, 36))
    tx, ty = cx + ox * 0.3 * CELL, cy + oy * 0.3 * CELL
    note_glyph("passage direction", GLYPH)
    d.polygon(triangle((tx, ty), GLYPH, side), fill=INK)


def _osu_mark(d: ImageDraw.ImageDraw, grid: SquareGrid = GRID) -> None:
    x0, y0, x1, y1 = grid.box(OSU)
    d.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=OSU_EDGE, width=5)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    w = 0.52 * CELL
    d.polygon(crown((cx - w / 2, cy - 0.36 * w, cx + w / 2, cy + 0.36 * w)), fill=mix(OSU_EDGE, WHITE, 0.45),
              outline=OSU_EDGE, width=3)


def coordinates(players: int, turns: int = 0) -> list[tuple[str, tuple[float, float]]]:
    """The file letters below the board and the rank numbers left of it, with their centres,
    naming the squares as drawn on a board turned ``turns`` quarter turns."""
    bottom, side = GRID.turned(turns).edge_labels(squares(players))
    left = GRID.left + (0 if players == 4 else CELL)
    return ([(label, (GRID.left + (c + 0.5) * CELL, GRID.bottom + COORD // 2)) for c, label in bottom]
            + [(label, (left - COORD // 2 + 2, GRID.top + (6 - r + 0.5) * CELL)) for r, label in side])


def coordinate_size(label: str) -> int:
    return FILE_TEXT if label.isalpha() else TEXT


def _board_rgb(players: int, reversed_: bool, marks: tuple, turns: int = 0) -> Image.Image:
    """Everything that does not depend on the tiles: legend, board, coordinates, panels; the board
    turned ``turns`` quarter turns clockwise (its coordinates still name the squares drawn)."""
    grid = GRID.turned(turns)
    im = Image.new("RGB", (WIDTH, height(players)), PAPER)
    d = ImageDraw.Draw(im)
    _legend(im, reversed_)
    on = squares(players)
    for sq in on:
        d.rectangle(grid.box(sq), fill=square_fill(sq, players))
    for sq in on:
        x0, y0, x1, y1 = grid.box(sq)
        d.rectangle((x0, y0, x1, y1), outline=GRID_LINE, width=2)
    for sq in PASSAGES:
        _passage_mark(d, sq, grid)
    _osu_mark(d, grid)
    for label, xy in coordinates(players, turns):
        draw_text(d, xy, label, coordinate_size(label), INK, bold=True)
    for seat in range(players):
        style = player_style(seat)
        box = panel_box(seat, players)
        marker = marks[seat]
        active = marker in ("turn", "win")
        d.rectangle(box, fill=panel_fill(seat), outline=style.dark if active else style.colour,
                    width=6 if active else 2)
        cy = (box[1] + box[3]) // 2
        if marker:
            im.paste(status_marker(marker, seat, 54, panel_fill(seat)), (box[0] + 8, cy - 27))
        im.paste(seat_badge(seat, 76, panel_fill(seat)), (box[0] + 62, cy - 38))
    return im


# ---- palette mode layers ------------------------------------------------------------------------
_ALL_FACES = ("mouse", "cat", "lion", "monkey")


def faces_of(rotation: int) -> tuple[str, str, str, str]:
    """Animals on (up, right, down, left) for a rotation (clockwise quarter turns)."""
    return tuple(_ALL_FACES[(s - rotation) % 4] for s in range(4))  # type: ignore[return-value]


@palette_builder
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
             OSU_EDGE, CROSS, MOUSE, CAT, LION_MANE, LION_FACE, MONKEY, MONKEY_FACE, LION_EDGE, MONKEY_EDGE]
    for seat in range(4):
        st = player_style(seat)
        exact += [st.colour, st.dark, st.light, st.ink, panel_fill(seat)]
    return Palette(swatch, exact=exact)


@lru_cache(maxsize=12)   # 2 players x 2 directions x 2 sides, 4 players x 2 x 4
def board_layer(players: int, reversed_: bool, turns: int = 0) -> Image.Image:
    """The background with no seat marked: markers come as panel sprites, so a new marker
    combination (up to 4^4 with 4 players, each side) costs a few pastes, not a whole board."""
    return palette().convert(_board_rgb(players, reversed_, (None,) * players, turns))


def _panel_crop(seat: int, players: int) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = panel_box(seat, players)
    return (x0, y0, x1 + 1, y1 + 1)   # the panel rectangle includes its last row and column


@lru_cache(maxsize=8)   # 2 player counts x 4 markers
def marked_panels(players: int, marker: str | None) -> tuple[Image.Image, ...]:
    """Each seat's panel as the background draws it with that marker, cut from one whole
    background (a panel shows only its own seat's marker, does not turn with the board nor depend
    on the legend, and the conversion is per pixel, so a pasted panel equals the drawn one)."""
    whole = palette().convert(_board_rgb(players, False, (marker,) * players, 0))
    return tuple(whole.crop(_panel_crop(seat, players)) for seat in range(players))


def background(players: int, reversed_: bool, marks: tuple, turns: int = 0) -> Image.Image:
    """A fresh copy of the background with every seat's marker (the board layer and the marked
    panels pasted over it: equal to drawing it whole)."""
    im = board_layer(players, reversed_, turns).copy()
    for seat, marker in enumerate(marks[:players]):
        if marker is not None:
            im.paste(marked_panels(players, marker)[seat], _panel_crop(seat, players)[:2])
    return im


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


def _unit_step(dx: float, dy: float) -> tuple[int, int]:
    return (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)


# Where a step's chevron sits: a corner third of the square entered (an "off" step: of the square
# left), next to the edge crossed. Tiles keep their owner letter in the top-left third, numbers
# in the centre and animals in the side thirds, so these corners hide nothing.
# Candidates in order, ("to" | "from", corner); the first one no earlier step took is used, so a
# square entered twice (a retreat coming back) shows both chevrons.
_STEP_CORNERS = {(0, -1): (("to", (1, 1)), ("to", (-1, 1)), ("from", (1, -1))),
                 (0, 1): (("to", (1, -1)), ("from", (1, 1)), ("from", (-1, 1))),
                 (1, 0): (("to", (-1, 1)), ("from", (1, 1)), ("from", (1, -1))),
                 (-1, 0): (("to", (1, 1)), ("to", (1, -1)), ("from", (-1, 1)))}
_EXIT_CORNERS = {(0, -1): ((1, -1),), (0, 1): ((1, 1), (-1, 1)), (1, 0): ((1, 1), (1, -1)), (-1, 0): ((-1, 1),)}


def corner_point(square: str, corner: tuple[int, int], grid: SquareGrid = GRID) -> tuple[float, float]:
    """Centre of a square's corner third: ``corner`` (-1 left / 1 right, -1 top / 1 bottom)."""
    cx, cy = grid.centre(square)
    return cx + corner[0] * CELL / 3, cy + corner[1] * CELL / 3


def step_markers(path: list[dict],
                 grid: SquareGrid = GRID) -> list[tuple[str, tuple[float, float], tuple[int, int], int]]:
    """(kind, centre px, pixel direction, seat) of the chevron for each step of the last chain.

    >>> step_markers([{"kind": "move", "seat": 0, "from": "b1", "to": "b2", "dx": 0, "dy": 1}])
    [('move', (263.0, 751.0), (0, -1), 0)]
    """
    out = []
    used: set[tuple[str, tuple[int, int]]] = set()

    def pick(options: list[tuple[str, tuple[int, int]]]) -> tuple[str, tuple[int, int]]:
        spot = next((o for o in options if o not in used), options[0])
        used.add(spot)
        return spot

    for step in path or ():
        kind = step.get("kind")
        if kind == "rotate":
            continue
        seat = step.get("seat", 0)
        if kind == "off" or step.get("to") is None:
            direction = grid.screen_dir(*_unit_step(step.get("dx", 0), -step.get("dy", 0)))
            square, corner = pick([(step["from"], c) for c in _EXIT_CORNERS.get(direction, (direction,))])
            out.append(("off", corner_point(square, corner, grid), direction, seat))
            continue
        (x0, y0), (x1, y1) = grid.centre(step["from"]), grid.centre(step["to"])
        if kind == "passage":
            direction = _unit_step(*_ring_route(step["from"], step["to"], grid)[-1])
            options = [(step["to"], (1, 1)), (step["to"], (-1, 1)), (step["to"], (1, -1))]
        else:
            direction = _unit_step(x1 - x0, y1 - y0)
            corners = _STEP_CORNERS.get(direction, (("to", (-direction[0], -direction[1])),))
            options = [(step[end], corner) for end, corner in corners]
        square, corner = pick(options)
        out.append((kind, corner_point(square, corner, grid), direction, seat))
    return out


_RING = ("b2", "b6", "f6", "f2")
_RING_SIDE = {"b2": (-1, 0), "b6": (0, -1), "f6": (1, 0), "f2": (0, 1)}   # the outer side of each leg


def _ring_points(frm: str, to: str, grid: SquareGrid = GRID) -> list[tuple[float, float]]:
    """A passage jump's route: along the outer grid lines of the passage ring, clockwise."""
    i = _RING.index(frm)
    pts = []
    while True:
        a, b = _RING[i % 4], _RING[(i + 1) % 4]
        ox, oy = grid.screen_dir(*_RING_SIDE[a])
        (ax, ay), (bx, by) = grid.centre(a), grid.centre(b)
        pts += [(ax + ox * CELL / 2, ay + oy * CELL / 2), (bx + ox * CELL / 2, by + oy * CELL / 2)]
        i += 1
        if b == to or i > 8:
            return pts


def _ring_route(frm: str, to: str, grid: SquareGrid = GRID) -> list[tuple[float, float]]:
    """The direction of each leg of :func:`_ring_points`."""
    pts = _ring_points(frm, to, grid) if frm in _RING and to in _RING else [grid.centre(frm), grid.centre(to)]
    return [(b[0] - a[0], b[1] - a[1]) for a, b in zip(pts, pts[1:]) if a != b] or [(0, -1)]


def _dots(d: ImageDraw.ImageDraw, points, fill, edge) -> None:
    """A dotted route (drawn under the tiles: it shows in the gaps and on empty squares)."""
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        length = math.hypot(x1 - x0, y1 - y0)
        n = max(1, round(length / 16))
        for i in range(n + 1):
            x, y = x0 + (x1 - x0) * i / n, y0 + (y1 - y0) * i / n
            d.ellipse((x - 6, y - 6, x + 6, y + 6), fill=fill, outline=edge, width=2)


def chevron_sprite(kind: str, direction: tuple[int, int], seat: int) -> tuple[Image.Image, Image.Image]:
    """A step marker (sprite, paste mask): a yellow chevron edged in black pointing the way the
    tile went (it reads on every tile colour; the tile itself shows whose it is); a tile pushed
    off the board gets a red disc with a white cross instead. ``seat`` is the mover's (the marker
    is the same for every seat and every kind but "off", so the cache keys only what is drawn)."""
    return _step_sprite(kind == "off", direction)


@lru_cache(maxsize=32)   # 2 kinds x 9 directions
def _step_sprite(off: bool, direction: tuple[int, int]) -> tuple[Image.Image, Image.Image]:
    kind = "off" if off else "move"
    size = STEP

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        s = size * k
        c = s / 2
        note_glyph("step", s)
        if kind == "off":
            d.ellipse((k, k, s - k, s - k), fill=CROSS, outline=WHITE, width=3 * k)
            for sx in (-1, 1):
                d.line([(c - 0.24 * s, c - 0.24 * s * sx), (c + 0.24 * s, c + 0.24 * s * sx)], fill=WHITE,
                       width=round(0.13 * s))
            return
        ux, uy = direction
        n = math.hypot(ux, uy) or 1.0
        ux, uy = ux / n, uy / n
        nx, ny = -uy, ux

        def at(t: float, w: float) -> tuple[float, float]:
            return (c + (ux * t + nx * w) * s, c + (uy * t + ny * w) * s)

        shape = [at(0.44, 0), at(-0.12, 0.47), at(-0.44, 0.47), at(-0.06, 0), at(-0.44, -0.47), at(-0.12, -0.47)]
        d.polygon(shape, fill=HIGHLIGHT, outline=INK, width=3 * k)

    rgba = supersampled((size, size), paint, background=(255, 255, 255, 0))
    return palette().convert(rgba), alpha_mask(rgba)


def render_image(view: dict, *, last: bool = True, viewer_seat: int | None = None) -> Image.Image:
    """The board as a 'P'-mode PIL image (``render`` encodes it). ``last=False`` leaves the last
    chain undrawn.

    The last chain never covers a tile's number, letter or animals: passage jumps are dotted
    along the ring's outer grid lines under the tiles, and each step is a chevron in a free
    corner third of the square it entered (a red cross in the square a captured tile left).
    ``viewer_seat`` turns the board so that seat's start line is at the bottom (tiles, their
    animals, the passages and the coordinates turn with it; text stays upright)."""
    pal = palette()
    players = view.get("players", 2)
    turns = side_turns(viewer_seat, players)
    grid = GRID.turned(turns)
    canvas = background(players, bool(view.get("reversed")), markers(view), turns)
    paste = canvas.paste
    lastv = view.get("last") if last else None
    path = (lastv or {}).get("path") or []
    d = ImageDraw.Draw(canvas)
    for step in path:
        if step.get("kind") == "passage" and step.get("from") in _RING and step.get("to") in _RING:
            style = player_style(step.get("seat", 0))
            _dots(d, _ring_points(step["from"], step["to"], grid), pal.index(style.dark), pal.index(WHITE))
    for t in view.get("tiles", ()):
        sq = t["square"]
        x0, y0, _, _ = grid.box(sq)
        bg = tuple(square_fill(sq, players))
        paste(tile_sprite(t["seat"], t["number"], (t["rotation"] + turns) % 4, bg), (x0 + INSET, y0 + INSET))
    if is_recording():
        _note_board(view, players, turns, grid)
    if is_collecting():
        _note_cells(view, players, turns, grid)
    scores, targets = view.get("scores", ()), view.get("targets", ())
    for seat in range(players):
        box = panel_box(seat, players)
        cy = (box[1] + box[3]) // 2
        if seat < len(scores) and seat < len(targets):
            paste(score_sprite(seat, scores[seat], targets[seat]), (box[0] + 142, cy - 28))
            note_region(f"score:{seat}", "score", (box[0] + 142, cy - 28, box[0] + 238, cy + 28), seat=seat,
                        score=scores[seat], target=targets[seat])
        caps = (view.get("captured") or [[]] * players)[seat] if seat < len(view.get("captured") or ()) else []
        left = box[0] + 244
        room = box[2] - 6 - MINI_W - left
        pitch = min(MINI_PITCH, room // max(1, len(caps) - 1)) if len(caps) > 1 else MINI_PITCH
        for i, cap in enumerate(caps):   # a long row overlaps: each still shows its letter
            paste(mini_sprite(cap["seat"], cap["number"], seat), (left + i * pitch, cy - MINI_H // 2))
    if path:
        x0, y0, x1, y1 = grid.box(path[0]["from"])
        draw_highlight(d, (x0 - 2, y0 - 2, x1 + 2, y1 + 2), colour=pal.index(HIGHLIGHT), edge=pal.index(INK),
                       width=4, edge_width=1)
        for kind, (cx, cy), direction, seat in step_markers(path, grid):
            sprite, mask = chevron_sprite(kind, direction, seat)
            paste(sprite, (round(cx - STEP / 2), round(cy - STEP / 2)), mask)
    return canvas


def _note_board(view: dict, players: int, turns: int, grid: SquareGrid) -> None:
    """Tell a drawing record the squares, their coordinates (drawn in the background layer) and
    the tiles, each on its square."""
    note_squares(grid, squares(players))
    for label, xy in coordinates(players, turns):
        note_text("label", label, xy, coordinate_size(label))
    for t in view.get("tiles", ()):
        x0, y0, _, _ = grid.box(t["square"])
        note_box("piece", f"{player_style(t['seat']).letter}{t['number']}",
                 (x0 + INSET, y0 + INSET, x0 + INSET + TILE, y0 + INSET + TILE), cell=t["square"])


SCREEN_SIDES = ("up", "right", "down", "left")


def _note_cells(view: dict, players: int, turns: int, grid: SquareGrid) -> None:
    """Tap regions: every square, with its tile (if any) and the animal on each side of it as
    the picture shows it (turned with the board: ``faces["up"]`` is the animal at the top)."""
    tiles = {t["square"]: t for t in view.get("tiles", ())}
    for sq in squares(players):
        t = tiles.get(sq)
        tile = None
        if t:
            faces = {side: t["faces"][SCREEN_SIDES[(i - turns) % 4]] for i, side in enumerate(SCREEN_SIDES)}
            tile = {"seat": t["seat"], "number": t["number"], "faces": faces}
        note_region(f"cell:{sq}", "cell", grid.box(sq), square=sq, tile=tile, passage=sq in PASSAGES,
                    osu=sq == OSU and players == 4, reversed=bool(view.get("reversed")))


# The cached builders warm() fills completely: no board of any game misses them afterwards
# (tests/test_renderers.py checks it).
WARMED = (palette, board_layer, marked_panels, tile_sprite, mini_sprite, score_sprite, _step_sprite)


def warm() -> None:
    """Build the palette, every board layer and marked panel, and every sprite a board can need
    (each tile colour, number, rotation and square colour; step markers, captured tiles, scores)
    now, instead of on the first boards; a few seconds."""
    from games.osu.engine import Osu

    game = Osu()
    for players in (2, 4):
        render_image(game.view(game.setup(players, {}, 0), None))
        fills = {tuple(square_fill(sq, players)) for sq in squares(players)}
        for seat in range(players):
            for number in range(1, 5):
                for rotation in range(4):
                    for fill in fills:
                        tile_sprite(seat, number, rotation, fill)
    for players in (2, 4):
        for reversed_ in (False, True):
            for turns in range(4) if players == 4 else (0, 2):
                board_layer(players, reversed_, turns)
        for marker in ("turn", "win", "draw"):
            marked_panels(players, marker)
    for off in (False, True):
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                _step_sprite(off, (dx, dy))
    for owner in range(4):
        for number in range(1, 5):
            for captor in range(4):
                mini_sprite(owner, number, captor)
    for seat in range(4):   # the targets: 3 tiles (4 players), 2 tiles or 10 points (2 players)
        for target, top in ((3, 3),) + (((2, 2), (10, 14)) if seat < 2 else ()):
            for score in range(top + 1):
                score_sprite(seat, score, target)


def side_turns(viewer_seat: int | None, players: int) -> int:
    """Quarter turns clockwise that bring a seat's start line to the bottom: A's row 1 already is;
    with 4 players B's column a is on the left (3 turns), C's row 7 at the top (2), D's column g on
    the right (1); with 2 players B's row 7 (2)."""
    if viewer_seat is None or not 0 <= viewer_seat < players:
        return 0
    return ((0, 2) if players == 2 else (0, 3, 2, 1))[viewer_seat]


@register(GAME_NAME)
def render(view: dict, *, last: bool = True, viewer_seat: int | None = None) -> bytes:
    """PNG bytes of the OSU board for a ``get_game("osu").view(state, seat)`` dict, drawn from
    ``viewer_seat``'s side when given."""
    return png_bytes(render_image(view, last=last, viewer_seat=viewer_seat))
