"""The Arena Duel image (RULES.md §2), drawn from a ``view`` dict and nothing else.

Layout (800 px wide, always the same orientation: A's door c1 at the bottom, B's door c5 on top)::

    [ marker | B badge | life 12/15 + bar | ⚡ ⛔ | B's last order + dice ]
                         c5
                   b4          d4              the 19 hexes, each with its name
             a3          c4          e3        (columns a-e, numbered from the bottom),
                   ...                         a thick wall around, doors at c1 and c5
                         c1
    [ marker | A badge | life 12/15 + bar | ⚡ ⛔ | A's last order + dice ]

A figure stays inside its hex: its seat's token in the middle (A: blue circle, B: orange rounded
square, each with its letter), a pointer in its colour (a wedge on a short neck) just inside the
hex side it faces, and a small lightning badge beside the token when it may charge this turn; a
fallen figure is crossed out. Each hex's name sits on its upright axis, above the middle, or below
it where a figure's pointer is above (facing N, NE or NW); names are drawn last, on a floor-coloured
halo, and no piece covers one. Last turn: each figure's own movement is a solid arrow in its
colour; pushes and the winner's advance are white arrows edged in the moved figure's colour; an
arrow stops at the side where it enters its last hex, clear of the figure and the name there;
where the figures clashed
(crossing, collision, a push or a cornering against the wall) a yellow starburst marks the hex
side. Panels: the marker is a triangle while that seat's order is awaited, a tick once it is
in, a crown for the winner, "=" for a draw. The life bar has one segment per life point (lost
points empty, those lost in the last turn crossed). A viewer's own panel shows its secret dice
of this turn as pip dice in a yellow frame (and its pending order); otherwise a panel shows that
seat's last order and dice.

Every letter, digit and pointer is at least 16 px tall when the image is shown 400 px wide
(tests/test_phone_render.py measures them).

Speed: composed in palette ('P') mode like SQUARESIV (a third of the bytes of RGB to compress):
the background (per marker pair), the figure sprites, dice and text sprites are built once and
cached, flattened onto the colour they sit on and pasted through 1-bit masks, so text stays
anti-aliased; a board is a copy, a few dozen pastes and a few arrows.

>>> from games import get_game
>>> g = get_game("arena")
>>> render(g.view(g.setup(2, {}, seed=1), None))[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from .registry import register
from .taps import is_collecting, note_region
from .common import (palette_builder, 
    HIGHLIGHT, INK, MUTED, PAPER, SQRT3, WHITE, HexLayout, Palette, alpha_mask, draw_arrow, draw_shape,
    draw_text, font, glyph_box, is_recording, marked_background, note_box, note_glyph, note_text, player_style,
    png_bytes, readable_size, seat_badge, seat_markers, status_marker, supersampled,
)

GAME_NAME = "arena"

# ---- geometry (px at the posted size) ---------------------------------------------------------
WIDTH = 800
S = 88                          # hex circumradius
INR = S * SQRT3 / 2             # hex inradius (centre to side)
PAD = 12
PANEL_H = 118
GAP = 22                        # between a panel and the wall
WALL = 12
ARENA_H = 5 * SQRT3 * S
HEIGHT = round(2 * PAD + 2 * PANEL_H + 2 * GAP + ARENA_H + 2 * WALL)
ORIGIN = (WIDTH / 2, PAD + PANEL_H + GAP + WALL + ARENA_H / 2)
LAYOUT = HexLayout(size=S, origin=ORIGIN, pointy=False)
TEXT = readable_size(WIDTH)     # every letter and digit: 16 px tall when shown 400 px wide
LABEL_SIZE = TEXT
# A figure stays inside its hex: the token in the middle, the facing pointer (a wedge) just
# inside the faced side, the charge badge beside the token; the hex's name above them, or below
# when the pointer is in its way (the figure faces N, NE or NW).
TOKEN_R = 0.33 * S
POINTER_TIP = INR - 6           # the pointer's tip, from the hex centre
POINTER_LEN = 38                # ... its length toward the centre, and half its base
POINTER_HALF = 24
BADGE_R = 0.62 * TOKEN_R
LABEL_DY = 0.635 * INR          # a hex name's centre above (or below) the hex centre

FLOOR = (247, 240, 224)
FLOOR_LINE = (160, 146, 118)   # dark enough to tell the hexes apart at 400 px
WALL_COLOUR = (86, 74, 62)
DOOR = (170, 116, 56)
LABEL = (105, 96, 84)

COLUMNS = "abcde"
DIRECTIONS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))   # facings 0 N .. 5 NW
DOORS = (("c1", 3), ("c5", 0))   # (hex, side) of the two doors


def _rows(q: int) -> tuple[int, int]:
    return max(-2, -2 - q), min(2, 2 - q)


def axial(name: str) -> tuple[int, int]:
    """'c1' -> (0, 2) (the engine's naming, repeated here so the renderer needs only the view)."""
    q = COLUMNS.index(name[0]) - 2
    return q, _rows(q)[1] - int(name[1:]) + 1


HEXES = tuple(f"{c}{n}" for i, c in enumerate(COLUMNS) for n in range(1, 6 - abs(i - 2)))


def centre(name: str) -> tuple[float, float]:
    return LAYOUT.centre(*axial(name))


def unit(direction: int) -> tuple[float, float]:
    """Screen unit vector from a hex centre toward the middle of its side ``direction``."""
    angle = math.radians(-90 + 60 * direction)
    return math.cos(angle), math.sin(angle)


def side_point(name: str, direction: int, fraction: float = 1.0) -> tuple[float, float]:
    (cx, cy), (ux, uy) = centre(name), unit(direction)
    return cx + ux * INR * fraction, cy + uy * INR * fraction


def side_corners(name: str, direction: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two corners of a hex's side ``direction`` (flat-top corner i is at 60*i degrees)."""
    corners = LAYOUT.polygon(*axial(name))
    edge = (direction + 4) % 6
    return corners[edge], corners[(edge + 1) % 6]


def in_arena(q: int, r: int) -> bool:
    return max(abs(q), abs(r), abs(q + r)) <= 2


# ---- static layers ----------------------------------------------------------------------------
def panel_box(seat: int, turned: bool = False) -> tuple[int, int, int, int]:
    """Seat 1 (B, top door) has the top panel, seat 0 (A) the bottom one (the other way round on
    an arena ``turned`` half round for B)."""
    top = PAD if (seat == 1) != turned else HEIGHT - PAD - PANEL_H
    return (PAD, top, WIDTH - PAD, top + PANEL_H)


MARKER_X = PAD + 34
BADGE_X = PAD + 104
LIFE_X0, LIFE_X1 = PAD + 160, PAD + 440
ICON_X = (PAD + 468, PAD + 516)
DICE_X0 = PAD + 552   # room for a turn number and an order such as "CFR/0" side by side
ORDER_RIGHT = WIDTH - PAD - 14


def bolt(box) -> list[tuple[float, float]]:
    """A lightning bolt polygon filling ``box`` (the charge-ready mark)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    pts = [(0.58, 0.0), (0.12, 0.56), (0.44, 0.56), (0.30, 1.0), (0.88, 0.38), (0.54, 0.38), (0.74, 0.0)]
    return [(x0 + px * w, y0 + py * h) for px, py in pts]


def _icon(kind: str, size: int, background) -> Image.Image:
    """``charge``: a yellow bolt; ``noback``: a no-entry disc over a backward arrow."""

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        s = size * k
        line = max(2, round(0.06 * s))
        note_glyph(f"icon:{kind}", 0.92 * s)
        if kind == "charge":
            d.polygon(bolt((0.12 * s, 0.04 * s, 0.88 * s, 0.96 * s)), fill=HIGHLIGHT, outline=INK, width=line)
        else:
            d.ellipse((0.04 * s, 0.04 * s, 0.96 * s, 0.96 * s), fill=WHITE, outline=INK, width=line)
            cx = s / 2
            draw_arrow(d, (cx, 0.24 * s), (cx, 0.80 * s), fill=INK, width=0.12 * s, head_length=0.24 * s,
                       head_width=0.36 * s)
            d.line([(0.18 * s, 0.18 * s), (0.82 * s, 0.82 * s)], fill=(213, 94, 0), width=round(0.11 * s))

    return supersampled((size, size), paint, background=tuple(background))


def _background(marker0: str | None, marker1: str | None, turned: bool = False) -> Image.Image:
    im = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    d = ImageDraw.Draw(im)
    cells = [axial(h) for h in HEXES]
    # the wall: a thick band drawn as fat side lines, then the floor on top
    for name_ in HEXES:
        q, r = axial(name_)
        for direction, (dq, dr) in enumerate(DIRECTIONS):
            if not in_arena(q + dq, r + dr):
                a, b = side_corners(name_, direction)
                (ux, uy) = unit(direction)
                off = WALL / 2
                d.line([(a[0] + ux * off, a[1] + uy * off), (b[0] + ux * off, b[1] + uy * off)],
                       fill=WALL_COLOUR, width=WALL + 6)
                for p in (a, b):
                    d.ellipse((p[0] + ux * off - WALL * 0.75, p[1] + uy * off - WALL * 0.75,
                               p[0] + ux * off + WALL * 0.75, p[1] + uy * off + WALL * 0.75), fill=WALL_COLOUR)
    for q, r in cells:
        d.polygon(LAYOUT.polygon(q, r), fill=FLOOR, outline=FLOOR_LINE, width=2)
    for hex_name, side in DOORS:
        a, b = side_corners(hex_name, side)
        ux, uy = unit(side)
        inset = 0.18
        pa = (a[0] + (b[0] - a[0]) * inset, a[1] + (b[1] - a[1]) * inset)
        pb = (b[0] + (a[0] - b[0]) * inset, b[1] + (a[1] - b[1]) * inset)
        depth = WALL + 6
        d.polygon([pa, pb, (pb[0] + ux * depth, pb[1] + uy * depth), (pa[0] + ux * depth, pa[1] + uy * depth)],
                  fill=DOOR, outline=INK, width=2)
    for seat, marker in ((0, marker0), (1, marker1)):
        style = player_style(seat)
        box = panel_box(seat, turned)
        active = marker in ("turn", "win")
        d.rounded_rectangle(box, radius=10, fill=style.light, outline=style.dark if active else style.colour,
                            width=6 if active else 2)
        cy = (box[1] + box[3]) // 2
        badge = seat_badge(seat, 80, style.light)
        im.paste(badge, (BADGE_X - 40, cy - 40), badge)
        if marker:
            m = status_marker(marker, seat, 52, style.light)
            im.paste(m, (MARKER_X - 26, cy - 26), m)
    return im


MARKER_KINDS = (None, "turn", "in", "win", "draw")


def _flat(rgba: Image.Image, background) -> Image.Image:
    flat = Image.new("RGB", rgba.size, tuple(background))
    flat.paste(rgba, (0, 0), rgba)
    return flat


@palette_builder
def palette() -> Palette:
    """The renderer's fixed 256-colour palette, from a swatch of everything it draws: boards are
    composed in 'P' mode, a third of the bytes of RGB to compress."""
    parts = [_background("turn", "in"), _background("win", "draw")]
    sprites = [_flat(_figure_rgba(seat, facing, charge), FLOOR)
               for seat in (0, 1) for facing in (0, 1) for charge in (False, True)]
    for seat in (0, 1):
        light = player_style(seat).light
        sprites += [_icon("charge", 42, light).convert("RGB"), _icon("noback", 42, light).convert("RGB"),
                    _flat(_die_rgba(5, 50, True), HIGHLIGHT), _flat(_die_rgba(4, 48, False), light),
                    _flat(_text_rgba("12", TEXT, player_style(seat).dark, None), light)]
    sprites.append(_flat(_text_rgba("c3", TEXT, LABEL, FLOOR), FLOOR))
    sheet = Image.new("RGB", (WIDTH, 2 * round(2 * S)), PAPER)
    x = y = 0
    for sp in sprites:
        if x + sp.width > WIDTH:
            x, y = 0, y + round(SQRT3 * S)
        sheet.paste(sp, (x, y))
        x += sp.width
    swatch = Image.new("RGB", (WIDTH, sum(p.height for p in parts) + sheet.height))
    y = 0
    for part in parts + [sheet]:
        swatch.paste(part, (0, y))
        y += part.height
    exact = [PAPER, WHITE, INK, MUTED, HIGHLIGHT, FLOOR, FLOOR_LINE, WALL_COLOUR, DOOR, LABEL, (213, 94, 0)]
    for seat in (0, 1):
        st = player_style(seat)
        exact += [st.colour, st.dark, st.light, st.ink]
    return Palette(swatch, exact=exact)


# Markers come as panel sprites, so a new marker combination costs two pastes, not a whole arena.
board_layer, marked_panels, background = marked_background(_background, palette, panel_box, len(MARKER_KINDS) - 1)


def _text_rgba(text: str, size: int, colour, halo) -> Image.Image:
    """Bold text on a transparent sprite just big enough, with a ``halo`` colour round it."""
    stroke = max(1, size // 18)
    x0, y0, x1, y1 = font(size).getbbox(text, stroke_width=stroke + (4 if halo else 0), anchor="mm")
    w, h = x1 - x0 + 4, y1 - y0 + 4

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        xy = ((2 - x0) * k, (2 - y0) * k)
        if halo is not None:
            d.text(xy, text, font=font(size * k), fill=tuple(halo), anchor="mm", stroke_width=(stroke + 4) * k,
                   stroke_fill=tuple(halo))
        draw_text(d, xy, text, size * k, tuple(colour), bold=True)

    return supersampled((w, h), paint, background=(255, 255, 255, 0))


def text_sprite(text: str, size: int, colour: tuple, background: tuple, halo: bool = False):
    """(palette sprite, mask, offset of the text's centre) for ``text`` set on ``background``
    (one cache key however it is called: warm() and the boards must hit the same entries)."""
    return _text_sprite(text, size, tuple(colour), tuple(background), bool(halo))


@lru_cache(maxsize=2048)   # what warm() draws (about 550) and the rarer texts of play
def _text_sprite(text: str, size: int, colour: tuple, background: tuple, halo: bool):
    rgba = _text_rgba(text, size, colour, background if halo else None)
    x0, y0, _, _ = font(size).getbbox(text, stroke_width=max(1, size // 18) + (4 if halo else 0), anchor="mm")
    return palette().convert(_flat(rgba, background)), alpha_mask(rgba), (2 - x0, 2 - y0)


def paste_text(canvas: Image.Image, xy, text: str, colour, background, *, size: int = TEXT, anchor: str = "mm",
               halo: bool = False, run: str = "") -> None:
    """Anti-aliased text on a palette canvas: a cached sprite pasted through its mask. ``run``
    names the text this one continues (a drawing record then sees them as one)."""
    sprite, mask, (ox, oy) = text_sprite(text, size, tuple(colour), tuple(background), halo)
    x, y = xy
    if anchor == "lm":
        x += ox - 2
    elif anchor == "rm":
        x -= sprite.width - ox - 2
    at = round(x - ox), round(y - oy)
    canvas.paste(sprite, at, mask)
    if is_recording():
        x0, y0, x1, y1 = mask.getbbox() or (0, 0, 0, 0)
        note_box("placed", run + text, (at[0] + x0, at[1] + y0, at[0] + x1, at[1] + y1), cell=run)


@lru_cache(maxsize=64)
def figure_sprite(seat: int, facing: int, charge: bool) -> tuple[Image.Image, Image.Image]:
    """One figure as a palette sprite on the floor colour and its paste mask."""
    rgba = _figure_rgba(seat, facing, charge)
    return _on(rgba, FLOOR), alpha_mask(rgba)


def _on(rgba: Image.Image, background) -> Image.Image:
    """An RGBA sprite flattened onto ``background`` and put in the palette (edges blend into the
    colour the sprite will sit on, so 1-bit pasting keeps them smooth)."""
    flat = Image.new("RGB", rgba.size, tuple(background))
    flat.paste(rgba, (0, 0), rgba)
    return palette().convert(flat)


def pointer_points(facing: int) -> list[tuple[float, float]]:
    """The facing pointer's corners, from the hex centre: a wedge pointing out through the
    middle of the faced side."""
    (ux, uy), base = unit(facing), POINTER_TIP - POINTER_LEN
    nx, ny = -uy, ux
    return [(ux * POINTER_TIP, uy * POINTER_TIP), (ux * base + nx * POINTER_HALF, uy * base + ny * POINTER_HALF),
            (ux * base - nx * POINTER_HALF, uy * base - ny * POINTER_HALF)]


def badge_centre(facing: int) -> tuple[float, float]:
    """The charge badge's centre, from the hex centre: beside the token, on the side away from
    the pointer."""
    side = -1 if facing in (1, 2) else 1
    return side * (TOKEN_R + 0.55 * BADGE_R), 0.0


def label_below(facing: int | None) -> bool:
    """Whether a hex's name goes below its middle: where the figure there faces N, NE or NW."""
    return facing in (0, 1, 5)


def figure_parts(facing: int, charge: bool) -> dict[str, tuple[float, float, float, float]]:
    """The boxes of a figure's parts, from the hex centre: token, pointer and charge badge."""
    r = TOKEN_R
    xs, ys = zip(*pointer_points(facing))
    parts = {"token": (-r, -r, r, r), "pointer": (min(xs), min(ys), max(xs), max(ys))}
    if charge:
        bx, by = badge_centre(facing)
        parts["charge"] = (bx - BADGE_R, by - BADGE_R, bx + BADGE_R, by + BADGE_R)
    return parts


def _figure_rgba(seat: int, facing: int, charge: bool) -> Image.Image:
    """One figure, centred in a hex-sized transparent sprite: the token with the seat letter,
    the facing pointer just inside the faced side, and the optional charge badge."""
    style = player_style(seat)
    w, h = round(2 * S), round(SQRT3 * S)

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        cx, cy = w * k / 2, h * k / 2
        r = TOKEN_R * k
        tip, left, right = [(cx + x * k, cy + y * k) for x, y in pointer_points(facing)]
        base = ((left[0] + right[0]) / 2, (left[1] + right[1]) / 2)
        d.line([(cx, cy), base], fill=INK, width=14 * k)   # a neck ties the pointer to its token
        d.line([(cx, cy), base], fill=style.colour, width=8 * k)
        with glyph_box(d, "facing pointer", read="both"):
            d.polygon([tip, left, right], fill=style.colour, outline=INK, width=3 * k)
        draw_shape(d, style.shape, (cx - r, cy - r, cx + r, cy + r), fill=style.colour, outline=INK, width=3 * k)
        draw_text(d, (cx, cy + 0.03 * r), style.letter, TEXT * k, style.ink, bold=True)
        if charge:
            bx, by = badge_centre(facing)
            bx, by, b = cx + bx * k, cy + by * k, BADGE_R * k
            d.ellipse((bx - b, by - b, bx + b, by + b), fill=INK)
            with glyph_box(d, "charge bolt"):
                d.polygon(bolt((bx - 0.7 * b, by - 0.92 * b, bx + 0.7 * b, by + 0.92 * b)), fill=HIGHLIGHT)

    return supersampled((w, h), paint, background=(0, 0, 0, 0))


@lru_cache(maxsize=64)
def icon(kind: str, seat: int) -> Image.Image:
    return palette().convert(_icon(kind, 42, player_style(seat).light))


@lru_cache(maxsize=128)
def die_sprite(value: int, size: int, pips: bool, background: tuple) -> Image.Image:
    """A white die on ``background``: pips (this turn's secret dice) or a digit (last turn's)."""
    return _on(_die_rgba(value, size, pips), background)


def _die_rgba(value: int, size: int, pips: bool) -> Image.Image:
    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        s = size * k
        d.rounded_rectangle((k, k, s - k, s - k), radius=0.18 * s, fill=WHITE, outline=INK,
                            width=max(2, round(0.06 * s)))
        if not pips:
            draw_text(d, (s / 2, s / 2), str(value), TEXT * k, INK, bold=True)
            return
        note_glyph("pips", 0.69 * s)
        spots = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (2, 0), (0, 2), (2, 2)],
                 5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
                 6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)]}[value]
        rad = 0.095 * s
        for gx, gy in spots:
            x, y = s * (0.25 + 0.25 * gx), s * (0.25 + 0.25 * gy)
            d.ellipse((x - rad, y - rad, x + rad, y + rad), fill=INK)

    return supersampled((size, size), paint, background=(0, 0, 0, 0))


# ---- composing ----------------------------------------------------------------------------------
def markers(view: dict) -> tuple[str | None, str | None]:
    """Per seat: "turn" (order awaited), "in" (order given), "win", "draw" or None."""
    marks = seat_markers(view, 2)
    if view.get("outcome"):
        return marks  # type: ignore[return-value]
    figures = view.get("figures") or [{}, {}]
    return tuple(m or ("in" if figures[s].get("order_in") else None)
                 for s, m in enumerate(marks))  # type: ignore[return-value]


def _trim(points: list[tuple[float, float]], start: float, end: float) -> list[tuple[float, float]]:
    """Cut ``start`` px off the beginning and ``end`` px off the end of a polyline."""
    pts = list(points)
    for cut, forward in ((start, True), (end, False)):
        if not forward:
            pts.reverse()
        while cut > 0 and len(pts) >= 2:
            (x0, y0), (x1, y1) = pts[0], pts[1]
            seg = math.hypot(x1 - x0, y1 - y0)
            if seg > cut:
                pts[0] = (x0 + (x1 - x0) * cut / seg, y0 + (y1 - y0) * cut / seg)
                cut = 0
            else:
                pts.pop(0)
                cut -= seg
        if not forward:
            pts.reverse()
    return pts


def _polyline_arrow(d: ImageDraw.ImageDraw, points, *, fill: int, outline: int, width: float, head: float) -> None:
    """A bent arrow with round joints and a pointed end, edged all round in ``outline``: an
    enlarged copy in the outline colour first, the arrow itself on top."""
    if len(points) < 2:
        return
    (x0, y0), (x1, y1) = points[-2], points[-1]
    seg = math.hypot(x1 - x0, y1 - y0) or 1.0
    tip = (x1 + (x1 - x0) / seg * 5, y1 + (y1 - y0) / seg * 5)
    for colour, w, h, end in ((outline, width + 8, head + 10, tip), (fill, width, head, points[-1])):
        for a, b in zip(points[:-2], points[1:-1]):
            d.line([a, b], fill=colour, width=round(w))
        for p in points[1:-1]:
            d.ellipse((p[0] - w / 2, p[1] - w / 2, p[0] + w / 2, p[1] + w / 2), fill=colour)
        if len(points) > 2:
            p = points[0]
            d.ellipse((p[0] - w / 2, p[1] - w / 2, p[0] + w / 2, p[1] + w / 2), fill=colour)
        draw_arrow(d, points[-2], end, fill=colour, width=w, head_length=h, head_width=h * 1.25)


def starburst(point, radius: float) -> list[tuple[float, float]]:
    cx, cy = point
    pts = []
    for i in range(16):
        r = radius if i % 2 == 0 else radius * 0.5
        a = math.radians(i * 22.5 - 90)
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return pts


def label_point(name: str, facing: int | None) -> tuple[float, float]:
    """Where a hex's name is written: above the middle of the hex, clear of the token, or below
    it where the figure's pointer is above (it faces N, NE or NW). Arrows end at the side a
    figure came in through, so no arrowhead lies under a name."""
    cx, cy = centre(name)
    return cx, cy + (LABEL_DY if label_below(facing) else -LABEL_DY)


def draw_labels(canvas: Image.Image, view: dict, turned: bool = False) -> None:
    """Hex names last, with a floor-coloured halo, so arrows never hide them (on a half-turned
    arena each place is named by the hex drawn there)."""
    facing = {f["hex"]: f["facing"] % 6 for f in view.get("figures", ())}
    for name_ in HEXES:
        label = opposite(name_) if turned else name_
        point = label_point(name_, facing.get(name_))
        paste_text(canvas, point, label, LABEL, FLOOR, size=LABEL_SIZE, halo=True)
        if is_recording():
            note_text("label", label, point, LABEL_SIZE, cell=name_)
            note_box("cell", name_, _bounds(LAYOUT.polygon(*axial(name_))), outline=LAYOUT.polygon(*axial(name_)))


TAP_HALF_WIDTH = 0.55 * S   # a hex's tap box: as wide as fits with neighbouring columns' boxes apart


def tap_box(name: str) -> tuple[float, float, float, float]:
    """The largest box of half-width TAP_HALF_WIDTH inside hex ``name`` (flat-top: its half-height
    there is sqrt(3) * (S - half-width)), so neighbouring hexes' boxes never overlap."""
    cx, cy = centre(name)
    half_h = SQRT3 * (S - TAP_HALF_WIDTH)
    return cx - TAP_HALF_WIDTH, cy - half_h, cx + TAP_HALF_WIDTH, cy + half_h


def _note_hexes(view: dict, turned: bool) -> None:
    """Tap regions: every hex where it is drawn (its opposite's place on an arena turned half
    round), with the figure standing on it as the view gives it."""
    figures = {f["hex"]: f for f in view.get("figures") or ()}
    for name_ in HEXES:
        f = figures.get(name_)
        figure = {k: f.get(k) for k in ("seat", "facing", "life", "can_charge", "back_blocked")} if f else None
        note_region(f"hex:{name_}", "hex", tap_box(opposite(name_) if turned else name_), hex=name_, figure=figure,
                    life_max=view.get("life_max", 15) if f else None)


def _bounds(points) -> tuple[float, float, float, float]:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def opposite(name: str) -> str:
    """The hex opposite through the centre c3 (where a hex is drawn on the half-turned arena)."""
    q, r = axial(name)
    return f"{COLUMNS[2 - q]}{_rows(-q)[1] + r + 1}"


def half_turned(view: dict) -> dict:
    """The view as drawn from B's door: every hex its opposite, every facing and side turned by 3
    (the arena, its walls and doors are symmetric through c3, so only the pieces move)."""
    out = dict(view)
    out["figures"] = [dict(f, hex=opposite(f["hex"]), facing=(f["facing"] + 3) % 6) for f in view.get("figures") or ()]
    last = view.get("last")
    if last:
        last = dict(last)
        last["paths"] = [[opposite(h) for h in path] for path in last.get("paths", ())]
        last["shoves"] = [dict(sh, start=opposite(sh["start"]), end=opposite(sh["end"]))
                          for sh in last.get("shoves", ())]
        last["clashes"] = [dict(c, hex=opposite(c["hex"]), dir=(c["dir"] + 3) % 6) for c in last.get("clashes", ())]
        out["last"] = last
    return out


def trails(last: dict) -> list[tuple[int, str, list[str]]]:
    """Last turn's arrows as (seat, "own" | "shoved", hex chain): each figure's own movement,
    then its involuntary moves (pushed, advancing after a win) chained where they connect."""
    out: list[tuple[int, str, list[str]]] = []
    for seat, path in enumerate(last.get("paths", ())[:2]):
        if len(path) >= 2:
            out.append((seat, "own", list(path)))
    for shove in last.get("shoves", ()):
        seat, a, b = shove["seat"], shove["start"], shove["end"]
        for i, (s_, kind, chain) in enumerate(out):
            if s_ == seat and kind == "shoved" and chain[-1] == a:
                out[i] = (s_, kind, chain + [b])
                break
        else:
            out.append((seat, "shoved", [a, b]))
    return out


def _offset(points, amount: float):
    """Shift a polyline sideways (to its left) by ``amount`` px, segment by segment."""
    out = []
    for i, (x, y) in enumerate(points):
        a, b = (points[i], points[i + 1]) if i + 1 < len(points) else (points[i - 1], points[i])
        dx, dy = b[0] - a[0], b[1] - a[1]
        n = math.hypot(dx, dy) or 1.0
        out.append((x + dy / n * amount, y - dx / n * amount))
    return out


def draw_last_turn(d: ImageDraw.ImageDraw, view: dict) -> None:
    pal = palette()
    last = view.get("last")
    if not last:
        return
    occupied = {f["hex"] for f in view.get("figures", ())}
    chains = trails(last)
    used: dict[frozenset, set[int]] = {}
    for seat, _, chain in chains:
        for a, b in zip(chain, chain[1:]):
            used.setdefault(frozenset((a, b)), set()).add(seat)
    for seat, kind, chain in chains:
        style = player_style(seat)
        pts = [centre(h) for h in chain]
        shared = [(a, b) for a, b in zip(chain, chain[1:]) if len(used[frozenset((a, b))]) > 1]
        if shared:
            # both figures went between these hexes: set the arrows side by side, A on one side and
            # B on the other whichever way each went (the side is taken from the hexes' name order)
            a, b = shared[0]
            pts = _offset(pts, 9 * (1 if seat == 0 else -1) * (1 if a < b else -1))
        # the arrow stops where it enters its last hex: the figure, its pointer and the hex's name
        # there stay clear
        pts[-1] = ((pts[-2][0] + pts[-1][0]) / 2, (pts[-2][1] + pts[-1][1]) / 2)
        start_cut = TOKEN_R + 2 if chain[0] in occupied else 0
        pts = _trim(pts, start_cut, 2)
        dark, white = pal.index(style.dark), pal.index(WHITE)
        if kind == "own":
            _polyline_arrow(d, pts, fill=dark, outline=white, width=12, head=30)
        else:
            _polyline_arrow(d, pts, fill=white, outline=dark, width=10, head=26)


def draw_clashes(d: ImageDraw.ImageDraw, view: dict) -> None:
    """Starbursts on the hex sides where the figures clashed last turn (over the tokens)."""
    for clash in (view.get("last") or {}).get("clashes", ()):
        point = side_point(clash["hex"], clash["dir"])
        d.polygon(starburst(point, 17 if clash.get("kind") == "crossing" else 22), fill=palette().index(HIGHLIGHT),
                  outline=palette().index(INK), width=3)


def _life_bar(canvas: Image.Image, d: ImageDraw.ImageDraw, seat: int, box, life: int, life_max: int,
              lost_last: int) -> None:
    style = player_style(seat)
    pal = palette()
    x0, top, x1, _ = box
    cy = (box[1] + box[3]) / 2
    paste_text(canvas, (x0, cy - 22), str(life), style.dark, style.light, anchor="lm")
    width = font(TEXT).getbbox(str(life), stroke_width=max(1, TEXT // 18))[2]
    paste_text(canvas, (x0 + width + 6, cy - 22), f"/{life_max}", MUTED, style.light, anchor="lm", run=str(life))
    y0, y1 = cy + 10, cy + 36
    ink, muted, white, colour = pal.index(INK), pal.index(MUTED), pal.index(WHITE), pal.index(style.colour)
    if life_max <= 30:
        gap = 3
        seg = (x1 - x0 - gap * (life_max - 1)) / life_max
        for i in range(life_max):
            sx = x0 + i * (seg + gap)
            box_ = (sx, y0, sx + seg, y1)
            if i < life:
                d.rectangle(box_, fill=colour, outline=ink, width=2)
            else:
                d.rectangle(box_, fill=white, outline=muted, width=2)
                if i < life + lost_last:
                    d.line([(sx + 3, y0 + 3), (sx + seg - 3, y1 - 3)], fill=ink, width=2)
                    d.line([(sx + 3, y1 - 3), (sx + seg - 3, y0 + 3)], fill=ink, width=2)
    else:
        d.rectangle((x0, y0, x1, y1), fill=white, outline=ink, width=2)
        frac = max(0.0, min(1.0, life / life_max))
        if frac:
            d.rectangle((x0, y0, x0 + (x1 - x0) * frac, y1), fill=colour, outline=ink, width=2)


def _dice_area(canvas: Image.Image, d: ImageDraw.ImageDraw, seat: int, view: dict, turned: bool = False) -> None:
    box = panel_box(seat, turned)
    cy = (box[1] + box[3]) / 2
    light = player_style(seat).light
    own = view.get("viewer") == seat and view.get("my_dice") and not view.get("outcome")
    if own:
        size, pitch = 50, 58
        x = DICE_X0
        d.rounded_rectangle((x - 8, cy - 4, x + 3 * pitch, cy + size + 4 + 4), radius=8,
                            fill=palette().index(HIGHLIGHT), outline=palette().index(INK), width=2)
        for i, value in enumerate(view["my_dice"]):
            canvas.paste(die_sprite(value, size, True, HIGHLIGHT), (x + i * pitch, round(cy)))
        note_region(f"dice:{seat}", "dice", (x - 8, box[1] + 8, ORDER_RIGHT, box[3] - 8), seat=seat, own=True,
                    turn=view.get("turn"), dice=list(view["my_dice"]), order=view.get("my_order"))
        paste_text(canvas, (x - 4, cy - 28), f"T{view.get('turn', '')}", INK, light, anchor="lm")
        if view.get("my_order"):
            paste_text(canvas, (ORDER_RIGHT, cy - 28), view["my_order"], INK, light, anchor="rm")
        return
    last = view.get("last")
    if not last:
        return
    size, pitch = 48, 54
    x = DICE_X0
    paste_text(canvas, (x, cy - 26), f"T{last.get('turn', '')}", MUTED, light, anchor="lm")
    paste_text(canvas, (ORDER_RIGHT, cy - 26), last["orders"][seat], INK, light, anchor="rm")
    for i, value in enumerate(last["dice"][seat][:3]):
        canvas.paste(die_sprite(value, size, False, light), (x + i * pitch, round(cy + 2)))
    note_region(f"dice:{seat}", "dice", (x, box[1] + 8, ORDER_RIGHT, box[3] - 8), seat=seat, own=False,
                turn=last.get("turn"), dice=list(last["dice"][seat][:3]), order=last["orders"][seat])


def render_image(view: dict, *, last: bool = True, viewer_seat: int | None = None) -> Image.Image:
    """The board as a 'P'-mode PIL image (``render`` encodes it); ``last=False`` hides last turn's
    marks; ``viewer_seat=1`` turns the arena half round, B's door and panel at the bottom (hex
    names and text stay upright; A's door already is at the bottom)."""
    pal = palette()
    turned = viewer_seat == 1
    canvas = background(*markers(view), turned)
    if is_collecting():
        _note_hexes(view, turned)
    if turned:
        view = half_turned(view)
    d = ImageDraw.Draw(canvas)
    figures = view.get("figures") or []
    if last:
        draw_last_turn(d, view)
    for f in figures:
        charge = bool(f.get("can_charge")) and not view.get("outcome")
        sprite, mask = figure_sprite(f["seat"], f["facing"] % 6, charge)
        cx, cy = centre(f["hex"])
        canvas.paste(sprite, (round(cx - sprite.width / 2), round(cy - sprite.height / 2)), mask)
        if is_recording():
            for part, (x0, y0, x1, y1) in figure_parts(f["facing"] % 6, charge).items():
                note_box("piece", f"{player_style(f['seat']).letter} {part}", (cx + x0, cy + y0, cx + x1, cy + y1),
                         cell=f["hex"])
        if view.get("outcome") and f["life"] <= 0:   # a fallen figure is crossed out
            k = TOKEN_R * 0.9
            for sx in (-1, 1):
                d.line([(cx - k, cy - sx * k), (cx + k, cy + sx * k)], fill=pal.index(WHITE), width=12)
                d.line([(cx - k, cy - sx * k), (cx + k, cy + sx * k)], fill=pal.index(INK), width=6)
    if last:
        draw_clashes(d, view)
    draw_labels(canvas, view, turned)
    lost = [0, 0]
    for e in (view.get("last") or {}).get("events", ()):
        if e.get("type") == "life":
            lost[e["seat"]] = e.get("lost", 0)
    life_max = view.get("life_max", 15)
    for f in figures:
        seat = f["seat"]
        box = panel_box(seat, turned)
        _life_bar(canvas, d, seat, (LIFE_X0, box[1], LIFE_X1, box[3]), f["life"], life_max, lost[seat])
        note_region(f"life:{seat}", "life", (LIFE_X0, box[1] + 8, LIFE_X1, box[3] - 8), seat=seat, life=f["life"],
                    life_max=life_max)
        cy = (box[1] + box[3]) // 2
        for kind, on, x in (("charge", f.get("can_charge"), ICON_X[0]), ("noback", f.get("back_blocked"), ICON_X[1])):
            if on and not view.get("outcome"):
                canvas.paste(icon(kind, seat), (x - 21, cy - 21))
        _dice_area(canvas, d, seat, view, turned)
    paste_text(canvas, (PAD + 6, PAD + PANEL_H + GAP + 18), f"T{view.get('turn', '')}", INK, PAPER, anchor="lm")
    return canvas


# The cached builders warm() fills for every board at the default life (and turns up to
# WARM_TURNS): no such board misses them afterwards (tests/test_renderers.py checks it).
WARMED = (palette, board_layer, marked_panels, figure_sprite, icon, die_sprite, _text_sprite)


WARM_TURNS = 40        # turn numbers drawn ahead (games rarely last this long; later ones draw once)
WARM_LIFE = 15        # the default life: each count and "/15"; other lives draw on their first board


def warm() -> None:
    """Build the board layers, the marked panels and every sprite a board at the default life
    needs now instead of on the first boards: figures, dice, icons, hex names, lives, orders and
    turn numbers in each colour they are written in."""
    from games.arena.engine import MOVE_ORDER, TURN_ORDER

    for turned in (False, True):
        board_layer(turned)
        for marker in MARKER_KINDS[1:]:
            marked_panels(marker, turned)
    for seat in (0, 1):
        style = player_style(seat)
        for facing in range(6):
            for charge in (False, True):
                figure_sprite(seat, facing, charge)
        for kind in ("charge", "noback"):
            icon(kind, seat)
        for value in range(1, 7):
            die_sprite(value, 48, False, style.light)
        for life in range(WARM_LIFE + 1):
            text_sprite(str(life), TEXT, style.dark, style.light)
        text_sprite(f"/{WARM_LIFE}", TEXT, MUTED, style.light)
        for move in MOVE_ORDER:
            for turn in TURN_ORDER:
                text_sprite(f"{move}/{turn}", TEXT, INK, style.light)
    for value in range(1, 7):
        die_sprite(value, 50, True, HIGHLIGHT)
    for turn in range(1, WARM_TURNS + 1):
        for colour, under in ((INK, PAPER), (INK, player_style(0).light), (INK, player_style(1).light),
                              (MUTED, player_style(0).light), (MUTED, player_style(1).light)):
            text_sprite(f"T{turn}", TEXT, colour, under)
    for name_ in HEXES:
        text_sprite(name_, LABEL_SIZE, LABEL, FLOOR, True)


@register(GAME_NAME)
def render(view: dict, *, last: bool = True, viewer_seat: int | None = None) -> bytes:
    """PNG bytes of the arena for a ``get_game("arena").view(state, seat)`` dict, drawn from
    ``viewer_seat``'s door when given."""
    return png_bytes(render_image(view, last=last, viewer_seat=viewer_seat))
