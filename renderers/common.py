"""Drawing helpers shared by every game renderer: palette, fonts, grids, tokens, arrows, encoding.

Everything here is pure and deterministic: the same inputs give the same pixels. Renderers keep
their speed by building static layers and sprites once (``functools.cache``) and only pasting
them per board; the helpers below are written so that cached layers are easy to make.

Text drawn with these helpers is coordinates, numbers, single letters and drawn symbols, and the
few names a board writes in its reader's language (``renderers.labels``: cards, sheets, skills).
Latin text uses Pillow's bundled font; text with Japanese in it uses the subset of Noto Sans CJK
JP shipped in ``renderers/fonts/`` (:func:`text_font`), which holds exactly the characters the
renderers can draw. Neither has symbols, so symbols (turn marker, crown, ...) are drawn as
polygons, never as glyphs.

>>> grid = SquareGrid(left=10, top=20, cell=100)
>>> grid.box("a5"), grid.box("a1")
((10, 20, 110, 120), (10, 420, 110, 520))
>>> len(png_bytes(Image.new("RGB", (4, 4), WHITE))) > 0
True
"""

from __future__ import annotations

import inspect
import io
import itertools
import math
import os
import re
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Callable, Iterable, Sequence

from PIL import Image, ImageChops, ImageDraw, ImageFont

from .png import encode, encode_whole

RGB = tuple[int, int, int]
Point = tuple[float, float]

# ---- palette ---------------------------------------------------------------------------------
# Okabe & Ito (2008), "Color Universal Design": eight colours that stay distinct for the common
# kinds of colour blindness. Every player colour also comes with a letter and a token shape, so
# colour is never the only cue.
OKABE_ITO: dict[str, RGB] = {
    "black": (0, 0, 0),
    "orange": (230, 159, 0),
    "sky_blue": (86, 180, 233),
    "bluish_green": (0, 158, 115),
    "yellow": (240, 228, 66),
    "blue": (0, 114, 178),
    "vermillion": (213, 94, 0),
    "reddish_purple": (204, 121, 167),
}

WHITE: RGB = (255, 255, 255)
BLACK: RGB = (0, 0, 0)
INK: RGB = (34, 34, 34)            # default text and outline colour
MUTED: RGB = (150, 150, 150)       # secondary text (e.g. an empty count)
PAPER: RGB = (255, 255, 255)       # image background
GRID_LINE: RGB = (90, 90, 90)
STONE: RGB = (128, 128, 128)       # "disabled / petrified" grey
HIGHLIGHT: RGB = OKABE_ITO["yellow"]   # last-action outline (drawn with a dark edge)
CENTRE_TINT: RGB = (241, 214, 229)     # light reddish purple: a "goal" area, distinct from player tints


def mix(a: Sequence[int], b: Sequence[int], t: float) -> RGB:
    """Blend colour ``a`` toward ``b`` by ``t`` (0 = a, 1 = b).

    >>> mix((0, 0, 0), (255, 255, 255), 0.5)
    (128, 128, 128)
    """
    return tuple(round(x + (y - x) * t) for x, y in zip(a[:3], b[:3]))  # type: ignore[return-value]


@dataclass(frozen=True)
class PlayerStyle:
    """How one seat looks: ``colour`` fills tokens, ``ink`` is text on that fill, ``dark`` is the
    same hue for text on paper, ``light`` tints that seat's areas; ``letter`` and ``shape`` make
    the seat readable without colour."""

    colour: RGB
    ink: RGB
    dark: RGB
    light: RGB
    letter: str
    shape: str  # "circle" | "square" | "diamond" | "triangle"
    name: str = ""  # the colour's name, for the words that tell a player which seat is theirs


def _style(name: str, ink: RGB, letter: str, shape: str, dark: RGB) -> PlayerStyle:
    colour = OKABE_ITO[name]
    return PlayerStyle(colour, ink, dark, mix(colour, WHITE, 0.82), letter, shape, name)


PLAYER_STYLES: tuple[PlayerStyle, ...] = (
    _style("blue", WHITE, "A", "circle", (0, 90, 150)),
    _style("orange", BLACK, "B", "square", (150, 95, 0)),
    _style("bluish_green", WHITE, "C", "diamond", (0, 110, 80)),
    _style("reddish_purple", BLACK, "D", "triangle", (150, 60, 110)),
    _style("sky_blue", BLACK, "E", "circle", (20, 110, 160)),
    _style("vermillion", WHITE, "F", "square", (160, 60, 0)),
)
SHAPE_SYMBOLS = {"circle": "●", "square": "■", "diamond": "◆", "triangle": "▲"}


def player_style(seat: int) -> PlayerStyle:
    """The style of a seat (0-based).

    >>> player_style(0).letter, player_style(1).shape
    ('A', 'square')
    """
    return PLAYER_STYLES[seat % len(PLAYER_STYLES)]


# ---- fonts and text ----------------------------------------------------------------------------
PHONE_WIDTH = 400   # a phone shows a posted image about this wide
MIN_GLYPH_PX = 16   # every glyph that carries information is at least this tall there


def min_glyph_px(image_width: int) -> float:
    """The smallest glyph height allowed in a full-size image ``image_width`` px wide: 16 px once
    the image is shown 400 px wide.

    >>> min_glyph_px(800)
    32.0
    """
    return MIN_GLYPH_PX * image_width / PHONE_WIDTH


# ---- glyph audit ---------------------------------------------------------------------------------
# Tests check that nothing carrying information is drawn too small. Every text draw and every
# drawn symbol that carries information (an animal face, a pip, a gate arrow ...) reports its
# height here while a log is open; heights are in final-image pixels (a supersampled sprite's
# draws are divided by its scale). Outside tests no log is open and this costs one check.
_glyph_log: list[tuple[str, float]] | None = None
_scale: list[int] = [1]


@contextmanager
def glyph_log():
    """Collect ``(label, height px)`` for every information glyph drawn inside the block.
    Sprites already cached are not redrawn, so clear a renderer's caches first."""
    global _glyph_log
    outer, _glyph_log = _glyph_log, []
    try:
        yield _glyph_log
    finally:
        _glyph_log = outer


def note_glyph(label: str, height: float) -> None:
    """Report a drawn symbol carrying information, ``height`` px tall in the current drawing
    (scaled coordinates inside :func:`supersampled`)."""
    if _glyph_log is not None:
        _glyph_log.append((label, height / _scale[-1]))
    _note("glyph", label, (0, 0, height, height), measured=False)


# ---- drawing record --------------------------------------------------------------------------------
# The phone-readability tests need more than heights: where each text, symbol, piece and square
# or hex name lands. While a record is open, every ``ImageDraw.text`` call reports its ink box,
# :func:`glyph_box` the pixels a drawn symbol changed, and renderers note the pieces, names and
# cells of each board as they compose it (:func:`note_box`). Outside tests nothing is open and
# each of these costs one check.
Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Drawn:
    """One thing a renderer drew. ``kind``: "text", "glyph" (a drawn symbol carrying
    information), "piece", "label" (the name of a square or hex), "cell" (a square or hex,
    ``outline`` its corners), "placed" (a cached text pasted onto the board) or "frame" (a
    sprite's own box). ``box`` is in px of ``frame``: 0 is the image itself (a board or a
    full-size layer), n > 0 the n-th sprite painted, in that sprite's own px after shrinking.
    ``cell`` ties a piece or a label to its square or hex. ``measured`` is False for a height a
    renderer declared (:func:`note_glyph`) rather than a box it drew. ``read`` says which size
    of a glyph is the one read: "height" (as text), "both" (a face: its smaller side) or "length"
    (an arrow: its larger side)."""

    kind: str
    name: str
    box: Box
    frame: int = 0
    cell: str = ""
    outline: tuple[Point, ...] = ()
    measured: bool = True
    read: str = "height"

    @property
    def size(self) -> float:
        """The size that is read: see ``read``."""
        return {"both": min, "length": max}.get(self.read, lambda w, h: h)(self.width, self.height)

    @property
    def width(self) -> float:
        return self.box[2] - self.box[0]

    @property
    def height(self) -> float:
        return self.box[3] - self.box[1]


_record: list[Drawn] | None = None
_frame: list[int] = [0]
_frame_ids = itertools.count(1)
_TEXT_CALL = inspect.signature(ImageDraw.ImageDraw.text)


def is_recording() -> bool:
    return _record is not None


@contextmanager
def recording():
    """Collect a :class:`Drawn` for everything drawn inside the block, every ``ImageDraw.text``
    call's ink box included (so text drawn around :func:`draw_text` is seen too). Sprites
    already cached are not redrawn, so clear a renderer's caches first."""
    global _record
    outer, _record = _record, []
    original = ImageDraw.ImageDraw.text

    def text(self, *args, **kwargs):
        call = _TEXT_CALL.bind(self, *args, **kwargs)
        call.apply_defaults()
        a = call.arguments
        if str(a["text"]).strip():
            box = self.textbbox(a["xy"], a["text"], font=a["font"], anchor=a["anchor"],
                                stroke_width=a["stroke_width"])
            _note("text", str(a["text"]), box)
        return original(self, *args, **kwargs)

    ImageDraw.ImageDraw.text = text  # type: ignore[method-assign]
    try:
        yield _record
    finally:
        ImageDraw.ImageDraw.text = original  # type: ignore[method-assign]
        _record = outer


def _note(kind: str, name: str, box: Sequence[float], measured: bool = True, read: str = "height") -> None:
    """Record a box drawn in the current frame (scaled coordinates inside :func:`supersampled`)."""
    if _record is not None:
        k = _scale[-1]
        _record.append(Drawn(kind, name, tuple(v / k for v in box), _frame[-1], measured=measured,  # type: ignore[arg-type]
                             read=read))


def note_box(kind: str, name: str, box: Sequence[float], *, cell: str = "",
             outline: Sequence[Point] = ()) -> None:
    """Report a piece, a label or a cell of the board being composed, in board px."""
    if _record is not None:
        _record.append(Drawn(kind, name, tuple(box), 0, cell, tuple(outline)))  # type: ignore[arg-type]


@contextmanager
def glyph_box(draw: ImageDraw.ImageDraw, name: str, read: str = "height"):
    """Record what the block draws on ``draw`` as the glyph ``name``: the box of the pixels it
    changed (a measurement, not a declared size); ``read`` as for :class:`Drawn`."""
    if _record is None and _glyph_log is None:
        yield
        return
    image = draw._image  # type: ignore[attr-defined]
    before = image.copy()
    yield
    changed = ImageChops.difference(before.convert("RGBA"), image.convert("RGBA")).getbbox(alpha_only=False)
    if changed:
        _note("glyph", name, changed, read=read)
        if _glyph_log is not None:
            _glyph_log.append((name, Drawn("glyph", name, changed, read=read).size / _scale[-1]))


def note_ink(draw: ImageDraw.ImageDraw, name: str, read: str = "height") -> None:
    """Record everything drawn so far on a sprite with a transparent background (an icon) as
    the glyph ``name``: the box of its ink."""
    if _record is not None:
        box = draw._image.getbbox()  # type: ignore[attr-defined]
        if box:
            _note("glyph", name, box, read=read)


CAPITALS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
SMALL_LETTERS = "acemnorsuvwxz"   # no ascender, no descender: a word of these is only x-height tall


@lru_cache(maxsize=256)
def text_height(size: int, stroke: int = 0, sample: str = CAPITALS) -> int:
    """How tall text of font ``size`` reads: the ink height of the shortest glyph of ``sample``,
    with its stroke. By default the capitals and digits: flat ones such as "1" and "H", since a
    round "0" overshoots the cap height by a few per cent."""
    def ink(c: str) -> int:
        x0, y0, x1, y1 = font(size).getbbox(c, stroke_width=stroke)
        return y1 - y0

    return min(ink(c) for c in sample)


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled scalable font at ``size`` px; no system fonts needed."""
    return ImageFont.load_default(size=size)  # type: ignore[return-value]


JAPANESE_FONT = os.path.join(os.path.dirname(__file__), "fonts", "NotoSansCJKjp-Subset.otf")
_WIDE = re.compile("[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]")   # kana, kanji, full-width forms


@cache
def japanese_font(size: int) -> ImageFont.FreeTypeFont:
    """The shipped Noto Sans CJK JP subset at ``size`` px (renderers/fonts/README.md)."""
    return ImageFont.truetype(JAPANESE_FONT, size)


def text_font(text: str, size: int) -> ImageFont.FreeTypeFont:
    """The font ``text`` is drawn in: the Japanese subset when it holds any kana, kanji or
    full-width character (its digits and Latin letters then match the rest of it), else the
    bundled font. Chosen by the text alone, so a sprite cached by its text is right in every
    language."""
    return japanese_font(size) if _WIDE.search(text) else font(size)


@cache
def readable_size(image_width: int, bold: bool = True, small: bool = False) -> int:
    """The smallest font size whose text reads at :data:`MIN_GLYPH_PX` on a phone, for an image
    ``image_width`` px wide (``bold`` as :func:`draw_text` draws it): every capital and digit
    that tall, or with ``small`` every lowercase letter too (for words such as "ace" that have
    only their x-height).

    >>> text_height(readable_size(800), max(1, readable_size(800) // 18)) >= 32
    True
    """
    sample = SMALL_LETTERS if small else CAPITALS

    def height(size: int, scale: int) -> float:   # as drawn directly, or inside a supersampled sprite
        big = size * scale
        return text_height(big, max(1, big // 18) if bold else 0, sample) / scale

    size = 8
    while min(height(size, 1), height(size, SUPERSAMPLE)) < min_glyph_px(image_width):
        size += 1
    return size


@cache
def fitted_size(text: str, image_width: int, bold: bool = True) -> int:
    """The smallest font size at which ``text`` itself reads at :data:`MIN_GLYPH_PX` on a phone
    (its own ink, measured as :func:`readable_size` measures the capitals): for a few known
    characters set where room is tight, such as a tile's letter and number.

    >>> fitted_size("C", 860) <= readable_size(860)
    True
    """
    size = 8
    while min(text_height(size * k, max(1, size * k // 18) if bold else 0, text) / k
              for k in (1, SUPERSAMPLE)) < min_glyph_px(image_width):
        size += 1
    return size


def draw_text(draw: ImageDraw.ImageDraw, xy: Point, text: str, size: int, fill, *,
              anchor: str = "mm", bold: bool = False, stroke_fill=None) -> None:
    """Draw ``text`` anchored at ``xy`` (default: centred). ``bold`` thickens with a same-colour
    stroke; ``stroke_fill`` gives a contrasting halo instead."""
    width = max(1, size // 18) if (bold or stroke_fill is not None) else 0
    if _glyph_log is not None and text.strip():   # as tall as its own ink: "ace" only its x-height
        x0, y0, x1, y1 = text_font(text, size).getbbox(text, stroke_width=width if stroke_fill is None else 0)
        _glyph_log.append((text, (y1 - y0) / _scale[-1]))
    draw.text(xy, text, font=text_font(text, size), fill=fill, anchor=anchor,
              stroke_width=width, stroke_fill=fill if stroke_fill is None else stroke_fill)


# ---- supersampled sprites ------------------------------------------------------------------
SUPERSAMPLE = 4


def supersampled(size: tuple[int, int], paint: Callable[[ImageDraw.ImageDraw, int], None], *,
                 background: Sequence[int] = (255, 255, 255, 0), scale: int = SUPERSAMPLE) -> Image.Image:
    """Paint at ``scale`` times the size and shrink, for smooth edges (Pillow does not
    anti-alias shapes). ``paint(draw, scale)`` must multiply its coordinates by ``scale``.
    Returns RGBA; cache the result, this is not meant to run per board."""
    w, h = size
    big = Image.new("RGBA", (w * scale, h * scale), tuple(background) + (255,) * (4 - len(background)))
    _scale.append(scale)
    _frame.append(next(_frame_ids))
    _note("frame", "", (0, 0, w * scale, h * scale))   # what is drawn beyond it is cut off
    try:
        paint(ImageDraw.Draw(big), scale)
    finally:
        _scale.pop()
        _frame.pop()
    # A box average of each scale x scale block: the plain supersampling filter, ringing-free, and
    # ~6x cheaper than a Lanczos resize (a new board's first sprites are its slowest part).
    return big.reduce(scale)


# ---- square grid -----------------------------------------------------------------------------
FILES = "abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class SquareGrid:
    """A chess-like grid: files a.. left to right, ranks 1.. bottom to top, pixel origin top-left."""

    left: int
    top: int
    cell: int
    cols: int = 5
    rows: int = 5
    flipped: bool = False  # turned half round: the top-right square drawn at the bottom left
    turns: int = 0  # further quarter turns clockwise (square grids only): a side seat's edge at the bottom

    @property
    def width(self) -> int:
        return self.cols * self.cell

    @property
    def height(self) -> int:
        return self.rows * self.cell

    @property
    def right(self) -> int:
        return self.left + self.width

    @property
    def bottom(self) -> int:
        return self.top + self.height

    def cell_box(self, col: int, row: int) -> tuple[int, int, int, int]:
        """Pixel box of a 0-based (col, row); row 0 is the bottom rank (the top one when flipped)."""
        if self.flipped:
            col, row = self.cols - 1 - col, self.rows - 1 - row
        for _ in range(self.turns % 4):  # clockwise on screen: the left edge goes to the top
            col, row = row, self.cols - 1 - col
        x = self.left + col * self.cell
        y = self.top + (self.rows - 1 - row) * self.cell
        return (x, y, x + self.cell, y + self.cell)

    @staticmethod
    def parse(square: str) -> tuple[int, int]:
        """'b3' -> (1, 2)."""
        return FILES.index(square[0].lower()), int(square[1:]) - 1

    def box(self, square: str) -> tuple[int, int, int, int]:
        return self.cell_box(*self.parse(square))

    def centre(self, square: str) -> tuple[float, float]:
        x0, y0, x1, y1 = self.box(square)
        return ((x0 + x1) / 2, (y0 + y1) / 2)

    def squares(self) -> list[str]:
        return [f"{FILES[c]}{r + 1}" for r in range(self.rows) for c in range(self.cols)]

    def turned(self, turns: int) -> "SquareGrid":
        """The same grid turned ``turns`` quarter turns clockwise (a square grid)."""
        return SquareGrid(self.left, self.top, self.cell, self.cols, self.rows, self.flipped, turns % 4)

    def screen_dir(self, dx: int, dy: int) -> tuple[int, int]:
        """A pixel direction on the unturned board (x right, y down) as drawn on this grid."""
        if self.flipped:
            dx, dy = -dx, -dy
        for _ in range(self.turns % 4):
            dx, dy = -dy, dx
        return dx, dy

    def edge_labels(self, squares: Iterable[str]) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
        """Coordinate labels for a turned grid: ([(screen column, label)] along the bottom,
        [(screen row from the bottom, label)] along the left), each the file letter or rank number
        that changes along that edge, so the labels name the squares as drawn."""
        cols: dict[int, str] = {}
        rows: dict[int, str] = {}
        files_run_across = self.screen_dir(1, 0)[0] != 0
        for sq in squares:
            x0, y0, _, _ = self.box(sq)
            col, row = (x0 - self.left) // self.cell, self.rows - 1 - (y0 - self.top) // self.cell
            file, rank = sq[0], sq[1:]
            cols.setdefault(col, file if files_run_across else rank)
            rows.setdefault(row, rank if files_run_across else file)
        return sorted(cols.items()), sorted(rows.items())


def grid_coordinates(grid: SquareGrid, coords: Iterable[str] = ("bottom", "left"),
                     coord_gap: int = 22) -> list[tuple[str, Point]]:
    """The file letters and rank numbers :func:`draw_square_grid` writes on the requested sides
    ("top", "bottom", "left", "right"), with the centre of each."""
    sides = set(coords)
    out: list[tuple[str, Point]] = []
    for c in range(grid.cols):
        x = (grid.cell_box(c, 0)[0] + grid.cell_box(c, 0)[2]) / 2  # (a flipped grid writes h..a)
        if "top" in sides:
            out.append((FILES[c], (x, grid.top - coord_gap)))
        if "bottom" in sides:
            out.append((FILES[c], (x, grid.bottom + coord_gap)))
    for r in range(grid.rows):
        y = (grid.cell_box(0, r)[1] + grid.cell_box(0, r)[3]) / 2
        if "left" in sides:
            out.append((str(r + 1), (grid.left - coord_gap, y)))
        if "right" in sides:
            out.append((str(r + 1), (grid.right + coord_gap, y)))
    return out


def draw_square_grid(draw: ImageDraw.ImageDraw, grid: SquareGrid, *,
                     tint: Callable[[str], Sequence[int] | None] = lambda sq: None,
                     line=GRID_LINE, line_width: int = 2,
                     coords: Iterable[str] = ("bottom", "left"), coord_size: int = 28,
                     coord_fill=INK, coord_gap: int = 22, letter_size: int | None = None) -> None:
    """Fill each square with ``tint(square)`` (None = leave), draw the lines, and write file
    letters / rank numbers on the requested sides ("top", "bottom", "left", "right"), the
    letters at ``letter_size`` (default ``coord_size``: a lowercase letter may need more)."""
    for sq in grid.squares():
        colour = tint(sq)
        if colour is not None:
            draw.rectangle(grid.box(sq), fill=tuple(colour))
    for c in range(grid.cols + 1):
        x = grid.left + c * grid.cell
        draw.line([(x, grid.top), (x, grid.bottom)], fill=line, width=line_width)
    for r in range(grid.rows + 1):
        y = grid.top + r * grid.cell
        draw.line([(grid.left, y), (grid.right, y)], fill=line, width=line_width)
    for text, xy in grid_coordinates(grid, coords, coord_gap):
        draw_text(draw, xy, text, (letter_size or coord_size) if text.isalpha() else coord_size, coord_fill, bold=True)


def note_text(kind: str, text: str, xy: Point, size: int, *, anchor: str = "mm", bold: bool = True,
              cell: str = "") -> None:
    """Report text drawn (or pasted from a cached layer) at ``xy`` on the board being composed:
    its ink box, as :func:`draw_text` draws it."""
    if _record is not None:
        x0, y0, x1, y1 = text_font(text, size).getbbox(text, stroke_width=max(1, size // 18) if bold else 0, anchor=anchor)
        note_box(kind, text, (xy[0] + x0, xy[1] + y0, xy[0] + x1, xy[1] + y1), cell=cell)


def note_squares(grid: SquareGrid, squares: Iterable[str]) -> None:
    """Report the board's squares as cells (names as the view gives them)."""
    if _record is not None:
        for sq in squares:
            x0, y0, x1, y1 = grid.box(sq)
            note_box("cell", sq, (x0, y0, x1, y1), outline=((x0, y0), (x1, y0), (x1, y1), (x0, y1)))


# ---- hex grid (axial coordinates) --------------------------------------------------------------
AXIAL_DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
SQRT3 = math.sqrt(3)


@dataclass(frozen=True)
class HexLayout:
    """Axial (q, r) hexes of circumradius ``size`` around pixel ``origin``; ``pointy`` tops or flat.

    >>> lay = HexLayout(size=10, origin=(0, 0))
    >>> lay.centre(0, 0)
    (0.0, 0.0)
    >>> len(lay.polygon(2, -1))
    6
    """

    size: float
    origin: Point = (0.0, 0.0)
    pointy: bool = True

    def centre(self, q: int, r: int) -> tuple[float, float]:
        s, (ox, oy) = self.size, self.origin
        if self.pointy:
            return (ox + s * SQRT3 * (q + r / 2), oy + s * 1.5 * r)
        return (ox + s * 1.5 * q, oy + s * SQRT3 * (r + q / 2))

    def corners(self, centre: Point, shrink: float = 0.0) -> list[tuple[float, float]]:
        cx, cy = centre
        radius = self.size - shrink
        start = -30 if self.pointy else 0
        return [(cx + radius * math.cos(math.radians(start + 60 * i)),
                 cy + radius * math.sin(math.radians(start + 60 * i))) for i in range(6)]

    def polygon(self, q: int, r: int, shrink: float = 0.0) -> list[tuple[float, float]]:
        """The six corner points of hex (q, r), optionally pulled in by ``shrink`` px."""
        return self.corners(self.centre(q, r), shrink)

    def from_pixel(self, x: float, y: float) -> tuple[int, int]:
        """The hex containing a pixel (for hit tests and sanity checks)."""
        px, py = (x - self.origin[0]) / self.size, (y - self.origin[1]) / self.size
        if self.pointy:
            q, r = SQRT3 / 3 * px - py / 3, 2 / 3 * py
        else:
            q, r = 2 / 3 * px, -px / 3 + SQRT3 / 3 * py
        return hex_round(q, r)

    @property
    def cell_width(self) -> float:
        return self.size * (SQRT3 if self.pointy else 2)

    @property
    def cell_height(self) -> float:
        return self.size * (2 if self.pointy else SQRT3)


def hex_neighbours(q: int, r: int) -> list[tuple[int, int]]:
    """The six axial neighbours of (q, r)."""
    return [(q + dq, r + dr) for dq, dr in AXIAL_DIRECTIONS]


def hex_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def hex_round(q: float, r: float) -> tuple[int, int]:
    """Round fractional axial coordinates to the nearest hex."""
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return int(rq), int(rr)


def draw_hex_grid(draw: ImageDraw.ImageDraw, layout: HexLayout, cells: Iterable[tuple[int, int]], *,
                  fill: Callable[[tuple[int, int]], Sequence[int] | None] = lambda h: None,
                  outline=GRID_LINE, width: int = 2) -> None:
    """Draw each axial cell as a hexagon (filled by ``fill(cell)`` if not None)."""
    for q, r in cells:
        colour = fill((q, r))
        draw.polygon(layout.polygon(q, r), fill=None if colour is None else tuple(colour),
                     outline=outline, width=width)


# ---- shapes, tokens, arrows, highlights ----------------------------------------------------------
def triangle(centre: Point, size: float, direction: str) -> list[tuple[float, float]]:
    """An isosceles triangle of height ``size`` pointing "up", "down", "left" or "right"."""
    cx, cy = centre
    h, b = size / 2, size / 2
    return {
        "up": [(cx, cy - h), (cx + b, cy + h), (cx - b, cy + h)],
        "down": [(cx, cy + h), (cx - b, cy - h), (cx + b, cy - h)],
        "right": [(cx + h, cy), (cx - h, cy + b), (cx - h, cy - b)],
        "left": [(cx - h, cy), (cx + h, cy - b), (cx + h, cy + b)],
    }[direction]


def crown(box: Sequence[float]) -> list[tuple[float, float]]:
    """A three-pointed crown polygon filling ``box`` (the winner's mark)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    return [(x0, y1), (x0, y0 + 0.15 * h), (x0 + 0.28 * w, y0 + 0.55 * h), (x0 + 0.5 * w, y0),
            (x0 + 0.72 * w, y0 + 0.55 * h), (x1, y0 + 0.15 * h), (x1, y1)]


def shape_polygon(shape: str, box: Sequence[float]) -> list[tuple[float, float]] | None:
    """Polygon for "diamond"/"triangle" token shapes inside ``box`` (None for circle/square)."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if shape == "diamond":
        return [(cx, y0), (x1, cy), (cx, y1), (x0, cy)]
    if shape == "triangle":
        return [(cx, y0), (x1, y1), (x0, y1)]
    return None


def draw_shape(draw: ImageDraw.ImageDraw, shape: str, box: Sequence[float], *, fill, outline=None,
               width: int = 1) -> None:
    """Fill a token body: "circle", "square" (rounded), "diamond" or "triangle"."""
    box = tuple(box)
    if shape == "circle":
        draw.ellipse(box, fill=fill, outline=outline, width=width)
    elif shape == "square":
        radius = (box[2] - box[0]) * 0.18
        draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)
    else:
        draw.polygon(shape_polygon(shape, box), fill=fill, outline=outline, width=width)


def draw_chequered_flag(draw: ImageDraw.ImageDraw, left: float, top: float, s: float) -> None:
    """A chequered flag on its pole in the ``s``-sized square at (left, top): the player who starts
    (HOSTILE) or the parent (Monster Hunter)."""
    draw.line([(left + 0.2 * s, top + 0.08 * s), (left + 0.2 * s, top + 0.94 * s)], fill=INK, width=round(0.08 * s))
    x0, y0, x1, y1 = left + 0.24 * s, top + 0.1 * s, left + 0.92 * s, top + 0.56 * s
    draw.rectangle((x0, y0, x1, y1), fill=WHITE, outline=INK, width=max(2, round(0.04 * s)))
    cw, ch = (x1 - x0) / 4, (y1 - y0) / 3
    for i in range(4):
        for j in range(3):
            if (i + j) % 2 == 0:
                draw.rectangle((x0 + i * cw, y0 + j * ch, x0 + (i + 1) * cw, y0 + (j + 1) * ch), fill=INK)


def draw_token(draw: ImageDraw.ImageDraw, centre: Point, radius: float, *, fill, label: str = "",
               label_fill=WHITE, outline=INK, width: int = 3, shape: str = "circle",
               font_size: int | None = None) -> None:
    """A playing piece: a ``shape`` of ``radius`` in ``fill`` with a centred ``label``.

    Draw into a :func:`supersampled` sprite for smooth edges (scale radius/width/font_size)."""
    cx, cy = centre
    box = (cx - radius, cy - radius, cx + radius, cy + radius)
    draw_shape(draw, shape, box, fill=fill, outline=outline, width=width)
    if label:
        draw_text(draw, (cx, cy), label, font_size or int(radius * 1.1), label_fill)


def arrow_polygon(start: Point, end: Point, *, width: float = 8, head_length: float = 24,
                  head_width: float = 26, double: bool = False) -> list[tuple[float, float]]:
    """Outline of a straight arrow from ``start`` to ``end`` (tip at ``end``; both ends if
    ``double``) as one polygon, so it can be filled and outlined in one call."""
    (x0, y0), (x1, y1) = start, end
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / length, (y1 - y0) / length   # along
    nx, ny = -uy, ux                                     # across
    head_length = min(head_length, length / (2 if double else 1))

    def at(t: float, s: float) -> tuple[float, float]:
        return (x0 + ux * t + nx * s, y0 + uy * t + ny * s)

    w, hw = width / 2, head_width / 2
    tip = [at(length - head_length, -w), at(length - head_length, -hw), at(length, 0),
           at(length - head_length, hw), at(length - head_length, w)]
    if double:
        return tip + [at(head_length, w), at(head_length, hw), at(0, 0), at(head_length, -hw),
                      at(head_length, -w)]
    return tip + [at(0, w), at(0, -w)]


def draw_arrow(draw: ImageDraw.ImageDraw, start: Point, end: Point, *, fill, outline=None,
               width: float = 8, head_length: float = 24, head_width: float = 26, double: bool = False,
               shorten: float = 0.0, outline_width: int = 2) -> None:
    """A movement arrow. ``shorten`` pulls the end(s) in by that many px (to stop at a token)."""
    (x0, y0), (x1, y1) = start, end
    length = math.hypot(x1 - x0, y1 - y0)
    if shorten and length > 2 * shorten:
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        x1, y1 = x1 - ux * shorten, y1 - uy * shorten
        if double:
            x0, y0 = x0 + ux * shorten, y0 + uy * shorten
    points = arrow_polygon((x0, y0), (x1, y1), width=width, head_length=head_length,
                           head_width=head_width, double=double)
    draw.polygon(points, fill=fill, outline=outline, width=outline_width if outline is not None else 0)


def draw_highlight(draw: ImageDraw.ImageDraw, box: Sequence[int], *, colour=HIGHLIGHT, edge=INK,
                   width: int = 7, edge_width: int = 2) -> None:
    """A thick outline just inside ``box`` with thin dark edges on both sides, so it reads on any
    background (light tints as well as dark tokens)."""
    x0, y0, x1, y1 = box
    draw.rectangle((x0, y0, x1 - 1, y1 - 1), outline=edge, width=width + 2 * edge_width)
    draw.rectangle((x0 + edge_width, y0 + edge_width, x1 - 1 - edge_width, y1 - 1 - edge_width),
                   outline=colour, width=width)


# ---- fixed palettes (fast encoding) -------------------------------------------------------------
class Palette:
    """A fixed 256-colour palette, so boards can be composed directly in 'P' mode (a third of the
    bytes of RGB to copy and compress). Build one per renderer, once, from a swatch image holding
    every colour that renderer uses (its background and a sample of its sprites); ``exact``
    colours are kept exactly. Then convert cached layers with :meth:`convert`, paste them onto
    each other without masks, and draw with :meth:`index` as the ink.

    >>> pal = Palette(Image.new("RGB", (2, 2), (10, 20, 30)), exact=[WHITE])
    >>> pal.colour(pal.index(WHITE))
    (255, 255, 255)
    """

    def __init__(self, swatch: Image.Image | None, exact: Iterable[Sequence[int]] = (),
                 colours: Sequence[Sequence[int]] | None = None):
        keys: list[RGB] = []
        for c in exact:
            c = tuple(c[:3])
            if c not in keys:
                keys.append(c)  # type: ignore[arg-type]
        if colours is None:
            colours = self._cut(swatch, keys)
        self.colours: tuple[RGB, ...] = tuple(tuple(c) for c in colours)  # type: ignore[misc]
        self.exact_count = len(keys)  # the first colours, kept exactly
        colours = self.colours
        self.image = Image.new("P", (1, 1))
        padded = [v for c in colours for v in c] + list(colours[0]) * (256 - len(colours))
        self.image.putpalette(padded)
        self._index: dict[RGB, int] = {}
        # Pillow maps colours to a given palette through a coarse lookup (a few levels per
        # channel), so an exact colour can land on a near neighbour (white on (251, 251, 252)).
        # Probe every exact colour once and remap those indices back, so exact stays exact.
        probe = Image.new("RGB", (len(keys), 1))
        probe.putdata(keys)
        mapped = probe.quantize(palette=self.image, dither=Image.Dither.NONE)
        got = [mapped.getpixel((i, 0)) for i in range(len(keys))]
        lut = list(range(256))
        for want, index in enumerate(got):
            if index != want and index >= len(keys):   # never steal another exact colour's entry
                lut[index] = want
        self._lut = lut if lut != list(range(256)) else None

    @staticmethod
    def _cut(swatch: Image.Image, keys: list[RGB]) -> list[RGB]:
        cut = swatch.convert("RGB").quantize(colors=256 - len(keys), method=Image.Quantize.MEDIANCUT,
                                             dither=Image.Dither.NONE)
        used = sorted(index for _, index in cut.getcolors(256) or [])
        flat = cut.getpalette() or []
        colours = list(keys)
        for i in used:
            c = tuple(flat[3 * i:3 * i + 3])
            if c not in colours and len(colours) < 256:
                colours.append(c)  # type: ignore[arg-type]
        return colours

    @classmethod
    def of(cls, colours: Sequence[Sequence[int]], exact_count: int) -> "Palette":
        """The palette with these colours, the first ``exact_count`` of them kept exactly: the same
        as the one they were read from (its ``colours`` and ``exact_count``), without its swatch."""
        return cls(None, exact=colours[:exact_count], colours=colours)

    def index(self, rgb: Sequence[int]) -> int:
        """The palette index nearest to ``rgb`` (exact for the ``exact`` colours)."""
        key = tuple(rgb[:3])
        if key not in self._index:
            self._index[key] = min(range(len(self.colours)),  # type: ignore[index]
                                   key=lambda i: sum((a - b) ** 2 for a, b in zip(self.colours[i], key)))
        return self._index[key]  # type: ignore[index]

    def colour(self, index: int) -> RGB:
        return self.colours[index]

    def convert(self, image: Image.Image) -> Image.Image:
        """An RGB(A) image as 'P' with this palette (alpha dropped; no dithering; the ``exact``
        colours exactly)."""
        out = image.convert("RGB").quantize(palette=self.image, dither=Image.Dither.NONE)
        if self._lut is not None:
            out = out.point(self._lut)
            out.putpalette(self.image.getpalette())
        return out


# A renderer's palette is drawn from a swatch of its sprites, most of a game's first board; its
# colours are all it is. The bot's fork server keeps them between starts (bot/workers/warming.py) and sets
# them here, by renderer module, before any palette is built.
PALETTE_COLOURS: dict[str, tuple[list, int]] = {}


def palette_builder(build: Callable[[], Palette]) -> Callable[[], Palette]:
    """``@cache`` for a renderer's ``palette()``: built from :data:`PALETTE_COLOURS` when they hold
    its colours, else by ``build`` (the swatch)."""
    @cache
    def palette() -> Palette:
        known = PALETTE_COLOURS.get(build.__module__)
        return Palette.of(*known) if known is not None else build()
    palette.__module__, palette.__name__, palette.__doc__ = build.__module__, build.__name__, build.__doc__
    palette.__qualname__ = build.__qualname__
    return palette


def alpha_mask(image: Image.Image, threshold: int = 128) -> Image.Image:
    """A 1-bit paste mask from an RGBA sprite (for pasting onto 'P' images, which cannot blend)."""
    return image.getchannel("A").point(lambda a: 255 if a >= threshold else 0).convert("1")


# ---- backgrounds whose seat panels carry markers -------------------------------------------------
def marked_background(draw: Callable, palette: Callable, panel_box: Callable, kinds: int):
    """For a two-seat board whose background differs between marker combinations only inside
    each seat's panel: ``(board_layer, marked_panels, background)``. The board layer (no seat
    marked) and each marker's panels (cut from one whole background drawn with that marker on
    both seats) are cached, one per side; ``background(marker0, marker1, turned)`` is a fresh copy
    equal to drawing it whole (the palette conversion is per pixel), for a copy and two pastes.

    ``draw(marker0, marker1, turned)`` draws the whole background in RGB, ``palette()`` converts
    it, ``panel_box(seat, turned)`` is a panel's inclusive box, ``kinds`` the markers besides None."""

    def crop(seat: int, turned: bool) -> tuple[int, int, int, int]:
        x0, y0, x1, y1 = panel_box(seat, turned)
        return (x0, y0, x1 + 1, y1 + 1)   # the panel rectangle includes its last row and column

    @lru_cache(maxsize=2)
    def board_layer(turned: bool = False) -> Image.Image:
        return palette().convert(draw(None, None, turned))

    @lru_cache(maxsize=2 * kinds)
    def marked_panels(marker: str, turned: bool = False) -> tuple[Image.Image, ...]:
        whole = palette().convert(draw(marker, marker, turned))
        return tuple(whole.crop(crop(seat, turned)) for seat in (0, 1))

    def background(marker0: str | None, marker1: str | None, turned: bool = False) -> Image.Image:
        im = board_layer(turned).copy()
        for seat, marker in ((0, marker0), (1, marker1)):
            if marker is not None:
                im.paste(marked_panels(marker, turned)[seat], crop(seat, turned)[:2])
        return im

    return board_layer, marked_panels, background


# ---- encoding --------------------------------------------------------------------------------
# zlib level 1: PNG is lossless, so this only trades size for speed. For an 860x852 palette
# board it encodes in ~2.3 ms to ~45 KB (level 6: ~5 ms, ~35 KB; level 9: ~30 ms, ~32 KB).
PNG_COMPRESS_LEVEL = 1


def scaled_png(png: bytes, factor: float) -> bytes:
    """A finished board enlarged by ``factor`` (a larger board for small screens), kept in the
    image's own mode so a palette image stays small."""
    with Image.open(io.BytesIO(png)) as image:
        image.load()
        size = (max(1, round(image.width * factor)), max(1, round(image.height * factor)))
        resample = Image.Resampling.NEAREST if image.mode == "P" else Image.Resampling.LANCZOS
        return png_bytes(image.resize(size, resample))


# Set by the tests (tests/conftest.py), and so in every process they start: the worker pool's,
# the bot's. Read once, at import: unset, the check costs nothing.
CHECK_IMAGES = os.environ.get("TABLETOP_CHECK_IMAGES") == "1"


class ImageCheckError(RuntimeError):
    """A PNG written here that Pillow's decoder does not read back as its image (checked only with
    TABLETOP_CHECK_IMAGES=1)."""


def png_bytes(image: Image.Image) -> bytes:
    """Encode as PNG with the project's one fixed setting, reusing the compressed rows of earlier
    images where they are the same (see renderers/png.py)."""
    png = encode(image, PNG_COMPRESS_LEVEL)
    if CHECK_IMAGES:
        check_reads_back(png, image, PNG_COMPRESS_LEVEL)
    return png


def check_reads_back(png: bytes, image: Image.Image, level: int) -> None:
    """:class:`ImageCheckError` unless Pillow decodes ``png`` to ``image``: size, mode, every
    pixel, and the colour of every palette index the image uses."""
    if (problem := _read_back_problem(png, image)) is not None:
        raise ImageCheckError(f"the PNG of a {image.width}x{image.height} {image.mode} image written at "
                              f"level {level} {problem}")


def _read_back_problem(png: bytes, image: Image.Image) -> str | None:
    try:
        with Image.open(io.BytesIO(png)) as back:
            back.load()
            if (back.size, back.mode) != (image.size, image.mode):
                return f"reads back as {back.width}x{back.height} {back.mode}"
            if back.tobytes() != image.tobytes():
                return "reads back with other pixels"
            if image.mode == "P" and not _same_colours(back, image):
                return "reads back with other colours"
    except Exception as e:  # whatever the decoder refuses a file with
        return f"does not decode ({type(e).__name__}: {e})"
    return None


def _same_colours(back: Image.Image, image: Image.Image) -> bool:
    if "transparency" in image.info or (image.palette is not None and image.palette.mode != "RGB"):
        return back.convert("RGBA").tobytes() == image.convert("RGBA").tobytes()
    used = 3 * (image.getextrema()[1] + 1)
    return (back.getpalette() + [0] * 768)[:used] == ((image.getpalette() or []) + [0] * 768)[:used]


def fresh_png_bytes(image: Image.Image) -> bytes:
    """The same image compressed whole, from nothing: the benchmarks' floor."""
    return encode_whole(image, PNG_COMPRESS_LEVEL)


def seat_badge(seat: int, size: int, background) -> Image.Image:
    """A seat's emblem: its shape in its colour with its letter (beside hands, life bars, scores)."""
    style = player_style(seat)
    triangular = style.shape == "triangle"

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        s = size * k
        m = (0.0 if triangular else 0.06) * s   # a triangle fills its box: its letter is as big as the others'
        draw_shape(d, style.shape, (m, m, s - m, s - m), fill=style.colour, outline=INK, width=max(2, round(0.05 * s)))
        y = s / 2 + (0.2 * s if triangular else 0)  # a triangle's visual centre sits low
        draw_text(d, (s / 2, y), style.letter, round(0.62 * s), style.ink, bold=True)

    return supersampled((size, size), paint, background=tuple(background))


def status_marker(kind: str, seat: int, size: int, background) -> Image.Image:
    """Language-neutral status beside a seat: "turn" (a pointer in its colour), "win" (a crown),
    "draw" (an equals sign) or "in" (a tick: a secret choice has been made)."""
    style = player_style(seat)

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        s = size * k
        line = max(2, round(0.05 * s))
        note_glyph(f"marker:{kind}", {"turn": 0.8, "in": 0.88, "win": 0.68, "draw": 0.64}.get(kind, 1) * s)
        if kind == "turn":
            d.polygon(triangle((s * 0.55, s / 2), s * 0.8, "right"), fill=style.colour, outline=INK, width=line)
        elif kind == "in":
            d.ellipse((0.06 * s, 0.06 * s, 0.94 * s, 0.94 * s), fill=WHITE, outline=INK, width=line)
            d.line([(0.26 * s, 0.52 * s), (0.44 * s, 0.70 * s), (0.76 * s, 0.32 * s)], fill=INK,
                   width=round(0.12 * s), joint="curve")
        elif kind == "win":
            d.polygon(crown((0.04 * s, 0.16 * s, 0.96 * s, 0.84 * s)), fill=HIGHLIGHT, outline=INK, width=2 * line)
        elif kind == "draw":
            for y in (0.3, 0.7):
                d.rectangle((0.1 * s, (y - 0.12) * s, 0.9 * s, (y + 0.12) * s), fill=INK)

    return supersampled((size, size), paint, background=tuple(background))


def seat_markers(view: dict, players: int | None = None) -> tuple[str | None, ...]:
    """Per seat, the status_marker kind a view calls for: "win" or "draw" once the game is over,
    "turn" for the seats it waits on, else None."""
    players = players if players is not None else view.get("players", 2)
    outcome = view.get("outcome")
    if outcome:
        if outcome.get("draw") or not outcome.get("winners"):
            return ("draw",) * players
        winners = set(outcome["winners"])
        return tuple("win" if s in winners else None for s in range(players))
    acting = set(view.get("to_act") or ())
    return tuple("turn" if s in acting else None for s in range(players))
