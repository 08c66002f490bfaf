"""The SQUARESIV board image (RULES.md §4), drawn from a ``view`` dict and nothing else.

Layout, always in the same orientation (seat 0 "A" plays up from row 1, seat 1 "B" down from
row 5)::

    [ marker | B badge | B's hand ...................... ]
        A     a  b  c  d  e     B
      n/8  5 [ ][ ][ ][ ][ ] 5  n/8     rows 4-5 tinted in B's colour
      ...  3 [ ][ ][ ][ ][ ] 3  ...     centre row 3 tinted reddish purple, thick edges
      n/8  1 [ ][ ][ ][ ][ ] 1  n/8     rows 1-2 tinted in A's colour
             a  b  c  d  e
    [ marker | A badge | A's hand ...................... ]

A piece is a token in its owner's colour and shape (A: circle, B: rounded square) with a notch
toward its direction of play, its points in large digits and, beside them, its ability as the
notation letter in a white badge (T transfer, W tide, P petrify, M martial arts; plain has
none). A hand piece stands upright: its ability letter over its points. A petrified piece is
greyed and hatched, its ability badge struck through. Every letter and digit is at least 16 px
tall when the image is shown 400 px wide. The marker is a triangle for the player to act, a
crown for a winner, "=" for a draw; a game won on the centre row also frames the winning centre
squares in the winner's colour, each with a crown. The last action's squares are outlined in
yellow, with an arrow in the mover's colour for moves and tides.

Speed: the whole picture is composed in palette ('P') mode from cached layers (one background
per turn-marker combination, one sprite per piece look / count label), so a board is a copy and
a few dozen pastes; see ``benchmarks/render_bench.py``.

>>> from games import get_game
>>> g = get_game("squares")
>>> png = render(g.view(g.setup(2, {}, seed=1), None))
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from .registry import register
from .taps import is_collecting, note_region
from .common import (palette_builder, 
    CENTRE_TINT, GRID_LINE, HIGHLIGHT, INK, MUTED, PAPER, STONE, WHITE, Palette, SquareGrid, crown, draw_arrow,
    draw_highlight, draw_shape, draw_square_grid, draw_text, font, grid_coordinates, is_recording, mix,
    note_box, note_glyph, note_squares, note_text, player_style, png_bytes, marked_background, readable_size,
    seat_badge, seat_markers, status_marker, supersampled,
)

GAME_NAME = "squares"

# ---- layout (px at the posted size) ----------------------------------------------------------
CELL = 108                 # board square
SIDE = 160                 # margin left/right of the board: rank numbers + row-cap counts
PAD = 12                   # outer padding
PANEL_H = 100              # a hand panel
COORD = 56                 # strip above/below the board for file letters
WIDTH = 2 * SIDE + 5 * CELL
HEIGHT = 2 * PAD + 2 * PANEL_H + 2 * COORD + 5 * CELL
TEXT = readable_size(WIDTH)   # every letter and digit: 16 px tall when shown 400 px wide
FILE_TEXT = readable_size(WIDTH, small=True)   # ... and a lone lowercase file letter ("a"), by its x-height
GRID = SquareGrid(left=SIDE, top=PAD + PANEL_H + COORD, cell=CELL)
TURNED = SquareGrid(left=SIDE, top=PAD + PANEL_H + COORD, cell=CELL, flipped=True)  # seen from seat 1's side
INSET = 6                  # piece sprite inset inside its square (room for the highlight)
PIECE = CELL - 2 * INSET   # board piece sprite size
HAND_H = 88                # a hand token's height
HAND_W = 58                # a hand token's pitch
HAND_X = PAD + 150         # first hand token
MARKER_X = PAD + 34        # centre of the turn / outcome marker
BADGE_X = PAD + 104        # centre of the player badge
CAP_X = (PAD + 4, SIDE - 56)            # seat 0's row-cap labels span (left margin)
CAP_W = CAP_X[1] - CAP_X[0]
CAP_H = 62
CENTRE_ROW = 3
COORD_SIDES = ("top", "bottom", "left", "right")
ABILITY_MARK = {"transfer": "T", "tide": "W", "petrify": "P", "martial_arts": "M", "plain": ""}


def grid(turned: bool = False) -> SquareGrid:
    return TURNED if turned else GRID


def panel_box(seat: int, turned: bool = False) -> tuple[int, int, int, int]:
    """Seat 1's hand panel is at the top, seat 0's at the bottom (the other way round when turned)."""
    top = PAD if seat == (0 if turned else 1) else HEIGHT - PAD - PANEL_H
    return (PAD, top, WIDTH - PAD, top + PANEL_H)


def cap_label_pos(seat: int, row: int, turned: bool = False) -> tuple[int, int]:
    """Top-left of the row-cap label of ``seat`` for board row ``row`` (1-5)."""
    x0, y0, x1, y1 = grid(turned).cell_box(0, row - 1)
    x = CAP_X[0] if seat == (1 if turned else 0) else WIDTH - CAP_X[1]
    return (x, (y0 + y1) // 2 - CAP_H // 2)


def home_rows(seat: int) -> tuple[int, int]:
    return (1, 2) if seat == 0 else (4, 5)


def square_tint(square: str):
    row = int(square[1])
    if row == CENTRE_ROW:
        return CENTRE_TINT
    return player_style(0 if row in home_rows(0) else 1).light


def panel_fill(seat: int):
    return player_style(seat).light


# ---- sprites (RGB, supersampled, cached) ------------------------------------------------------
def _piece_rgb(seat: int, ability: str, points: int, petrified: bool, background, size: int) -> Image.Image:
    """One board piece on ``background``: owner-coloured token with a notch toward its direction
    of play, its points and, beside them, its ability letter in a white badge.

    The owner shows as colour, shape and notch direction; no owner letter on the token, since
    "A"/"B" beside a digit would read as a coordinate ("a2")."""
    style = player_style(seat)
    up = seat == 0
    mark = ABILITY_MARK.get(ability, "?")

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        s = size * k
        line = max(2, round(0.028 * s))
        body, notch = 0.8 * s, 0.1 * s
        x0 = (s - body) / 2
        y0 = (s - body) / 2 + (notch / 2 if up else -notch / 2)
        box = (x0, y0, x0 + body, y0 + body)
        cx, cy = x0 + body / 2, y0 + body / 2
        fill = mix(style.colour, STONE, 0.6) if petrified else style.colour
        # direction notch, then the body over its base
        tip_y = y0 - notch if up else y0 + body + notch
        base_y = y0 + 0.12 * body if up else y0 + 0.88 * body
        half = 0.17 * body
        d.polygon([(cx, tip_y), (cx + half, base_y), (cx - half, base_y)], fill=fill, outline=INK, width=line)
        draw_shape(d, style.shape, box, fill=fill, outline=INK, width=line)
        if petrified:  # diagonal "stone" hatching clipped to the body
            _hatch(d, style.shape, box, line, s)
        digit_x = cx - 0.26 * body if mark else cx
        _points(d, (digit_x, cy), points, petrified, style, k)
        if mark:
            _ability_badge(d, (cx + 0.3 * body, cy), mark, petrified, line, k)

    return supersampled((size, size), paint, background=tuple(background)).convert("RGB")


def _hatch(d: ImageDraw.ImageDraw, shape: str, box, line: int, s: int) -> None:
    inner = Image.new("L", (s, s), 0)
    draw_shape(ImageDraw.Draw(inner), shape, (box[0] + line, box[1] + line, box[2] - line, box[3] - line), fill=255)
    stripes = Image.new("L", (s, s), 0)
    sd = ImageDraw.Draw(stripes)
    step = round(0.1 * s)
    for off in range(-s, s, step):
        sd.line([(off, s), (off + s, 0)], fill=255, width=max(2, round(0.03 * s)))
    d.bitmap((0, 0), ImageChops.multiply(inner, stripes), fill=mix(STONE, INK, 0.35))


def _points(d: ImageDraw.ImageDraw, xy, points: int, petrified: bool, style, k: int) -> None:
    size = TEXT * k
    if petrified:   # dark digits on a white halo stay readable over the hatching
        d.text(xy, str(points), font=font(size), fill=WHITE, anchor="mm",
               stroke_width=max(3, size // 9), stroke_fill=WHITE)
        draw_text(d, xy, str(points), size, INK, bold=True)
    else:
        draw_text(d, xy, str(points), size, style.ink, bold=True)


def _ability_badge(d: ImageDraw.ImageDraw, xy, mark: str, petrified: bool, line: int, k: int) -> None:
    """The ability letter in a white pill (struck through while petrified)."""
    size = TEXT * k
    x0, y0, x1, y1 = font(size).getbbox(mark, stroke_width=max(1, size // 18), anchor="mm")
    bx, by = xy
    hw, hh = max(x1 - x0, y1 - y0 * 0) / 2 + 4 * k, (y1 - y0) / 2 + 5 * k
    hw = max(hw, hh)
    fill = WHITE if not petrified else mix(STONE, WHITE, 0.5)
    d.rounded_rectangle((bx - hw, by - hh, bx + hw, by + hh), radius=hh * 0.6, fill=fill, outline=INK,
                        width=max(2, line // 2 + 1))
    draw_text(d, (bx, by), mark, size, INK, bold=True)
    if petrified:
        d.line([(bx - hw * 0.9, by + hh * 0.9), (bx + hw * 0.9, by - hh * 0.9)], fill=INK, width=line)


def _hand_rgb(seat: int, ability: str, points: int, background) -> Image.Image:
    """A hand piece, upright: its ability letter in a white badge over its points."""
    style = player_style(seat)
    mark = ABILITY_MARK.get(ability, "?")
    w, h = HAND_W - 4, HAND_H

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        line = max(2, round(0.05 * w * k))
        box = (line / 2, line / 2, w * k - line / 2, h * k - line / 2)
        radius = (w * k / 2 - line) if style.shape == "circle" else 0.18 * w * k
        d.rounded_rectangle(box, radius=radius, fill=style.colour, outline=INK, width=line)
        draw_text(d, (w * k / 2, 0.72 * h * k), str(points), TEXT * k, style.ink, bold=True)
        if mark:
            size = TEXT * k
            x0, y0, x1, y1 = font(size).getbbox(mark, stroke_width=max(1, size // 18), anchor="mm")
            hh = (y1 - y0) / 2 + 3 * k
            cy = 0.27 * h * k
            d.rounded_rectangle((2.5 * k, cy - hh, (w - 2.5) * k, cy + hh), radius=6 * k, fill=WHITE, outline=INK,
                                width=max(2, line // 2))
            draw_text(d, (w * k / 2, cy), mark, size, INK, bold=True)

    return supersampled((w, h), paint, background=tuple(background)).convert("RGB")


def _cap_rgb(seat: int, total: int, cap: int) -> Image.Image:
    """'total/cap' in the seat's colour with a small fill bar; muted at 0, boxed when full."""
    style = player_style(seat)
    full = total >= cap

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        w, h = CAP_W * k, CAP_H * k
        text_fill = MUTED if total == 0 else style.dark
        if full:
            d.rounded_rectangle((0, 0, w - 1, 0.7 * h), radius=6 * k, fill=style.dark)
            text_fill = WHITE
        draw_text(d, (w / 2, 0.36 * h), f"{total}/{cap}", TEXT * k, text_fill, bold=True)
        bx0, by0, bx1, by1 = 0.12 * w, 0.78 * h, 0.88 * w, 0.94 * h
        d.rectangle((bx0, by0, bx1, by1), fill=WHITE, outline=MUTED if total == 0 else style.dark, width=2 * k)
        if total:
            frac = min(1.0, total / cap)
            d.rectangle((bx0, by0, bx0 + (bx1 - bx0) * frac, by1), fill=style.colour, outline=style.dark, width=2 * k)

    return supersampled((CAP_W, CAP_H), paint, background=PAPER).convert("RGB")


def _background_rgb(marker0: str | None, marker1: str | None, turned: bool = False) -> Image.Image:
    """Everything that does not depend on the pieces: board, coordinates, panels, markers."""
    im = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    d = ImageDraw.Draw(im)
    draw_square_grid(d, grid(turned), tint=square_tint, line=GRID_LINE, line_width=2,
                     coords=COORD_SIDES, coord_size=TEXT, coord_gap=COORD // 2, letter_size=FILE_TEXT)
    # the centre row gets heavy edges as a second, colour-free cue
    for edge_row in (CENTRE_ROW - 1, CENTRE_ROW):
        y = GRID.top + (5 - edge_row) * CELL
        d.line([(GRID.left - 4, y), (GRID.right + 4, y)], fill=INK, width=5)
    d.rectangle((GRID.left - 1, GRID.top - 1, GRID.right + 1, GRID.bottom + 1), outline=INK, width=3)
    # whose row-cap column is whose: the seat's letter in its colour over each
    for seat in (0, 1):
        x0 = CAP_X[0] if seat == (1 if turned else 0) else WIDTH - CAP_X[1]
        draw_text(d, (x0 + CAP_W // 2, GRID.top - COORD // 2), player_style(seat).letter, TEXT,
                  player_style(seat).dark, bold=True)
    for seat, marker in ((0, marker0), (1, marker1)):
        style = player_style(seat)
        box = panel_box(seat, turned)
        active = marker in ("turn", "win")
        d.rectangle(box, fill=panel_fill(seat), outline=style.dark if active else style.colour,
                    width=6 if active else 2)
        cy = (box[1] + box[3]) // 2
        badge = seat_badge(seat, 76, panel_fill(seat))
        im.paste(badge, (BADGE_X - 38, cy - 38))
        if marker:
            m = status_marker(marker, seat, 56, panel_fill(seat))
            im.paste(m, (MARKER_X - 28, cy - 28))
    return im


# ---- palette mode layers ------------------------------------------------------------------------
_MARKERS = (None, "turn", "win", "draw")
_ABILITIES = ("transfer", "tide", "petrify", "martial_arts", "plain")


@palette_builder
def palette() -> Palette:
    """The renderer's fixed 256-colour palette, from a swatch of everything it draws."""
    parts = [_background_rgb("turn", "win"), _background_rgb("draw", "turn")]
    sprites = []
    for seat in (0, 1):
        bgs = [player_style(0).light, player_style(1).light, CENTRE_TINT]
        for ability in _ABILITIES:
            for petrified in (False, True):
                for bg in bgs:
                    sprites.append(_piece_rgb(seat, ability, 5, petrified, bg, PIECE))
            sprites.append(_hand_rgb(seat, ability, 8, panel_fill(seat)))
        sprites += [_cap_rgb(seat, 0, 8), _cap_rgb(seat, 5, 8), _cap_rgb(seat, 8, 8)]
    sheet = Image.new("RGB", (WIDTH, PIECE * (len(sprites) // 8 + 1)), PAPER)
    for i, sp in enumerate(sprites):
        sheet.paste(sp, ((i % 8) * PIECE, (i // 8) * PIECE))
    swatch = Image.new("RGB", (WIDTH, sum(p.height for p in parts) + sheet.height))
    y = 0
    for p in parts + [sheet]:
        swatch.paste(p, (0, y))
        y += p.height
    exact = [PAPER, WHITE, INK, GRID_LINE, MUTED, HIGHLIGHT, CENTRE_TINT, STONE]
    for seat in (0, 1):
        st = player_style(seat)
        exact += [st.colour, st.dark, st.light, st.ink]
    return Palette(swatch, exact=exact)


# Markers come as panel sprites, so a new marker combination costs two pastes, not a whole board.
board_layer, marked_panels, background = marked_background(_background_rgb, palette, panel_box, len(_MARKERS) - 1)


@lru_cache(maxsize=1024)
def piece_sprite(seat: int, ability: str, points: int, petrified: bool, row: int) -> Image.Image:
    """A board piece sprite in 'P' mode, already on its square's tint (``row`` 1-5)."""
    tint = square_tint(f"a{row}")
    return palette().convert(_piece_rgb(seat, ability, points, petrified, tint, PIECE))


@lru_cache(maxsize=512)
def hand_sprite(seat: int, ability: str, points: int) -> Image.Image:
    return palette().convert(_hand_rgb(seat, ability, points, panel_fill(seat)))


@lru_cache(maxsize=512)
def cap_sprite(seat: int, total: int, cap: int) -> Image.Image:
    return palette().convert(_cap_rgb(seat, total, cap))


# ---- composing a board -----------------------------------------------------------------------------
def markers(view: dict) -> tuple[str | None, str | None]:
    """Per seat: "turn", "win", "draw" or None."""
    return seat_markers(view, 2)  # type: ignore[return-value]


def _shift(square: str, d_row: int) -> str | None:
    row = int(square[1]) + d_row
    return f"{square[0]}{row}" if 1 <= row <= 5 else None


def last_marks(last: dict | None) -> tuple[list[str], list[tuple[str, str, bool]]]:
    """Squares to outline and arrows (from, to, double-headed) for the last action.

    >>> last_marks({"seat": 0, "action": "b2-b3", "squares": ["b2", "b3"]})
    (['b2', 'b3'], [('b2', 'b3', False)])
    >>> last_marks({"seat": 1, "action": "c4^", "squares": ["c4"]})
    (['c4', 'c3', 'c2'], [('c4', 'c3', False)])
    """
    if not last:
        return [], []
    action = last.get("action", "")
    squares = [sq for sq in last.get("squares", []) if len(sq) == 2]
    if action.endswith("^") and squares:      # tide: the pushed piece and the tide piece both step up
        step = 1 if last.get("seat", 0) == 0 else -1
        path = [squares[0]]
        for _ in range(2):
            nxt = _shift(path[-1], step)
            if nxt:
                path.append(nxt)
        return path, ([(path[0], path[1], False)] if len(path) > 1 else [])
    if "<>" in action:   # transfer: both squares outlined; an arrow would cross other pieces
        return squares, []
    if "-" in action and len(squares) == 2:
        return squares, [(squares[0], squares[1], False)]
    return squares, []


def winning_squares(view: dict) -> list[str]:
    """The centre squares that won the game (RULES.md §4: three pieces on the centre row), from the
    view's outcome and board; empty unless the game was won that way.

    >>> winning_squares({"outcome": {"winners": [1], "reason": "centre"}, "board": [
    ...     {"square": "a3", "seat": 1}, {"square": "b3", "seat": 0}, {"square": "c3", "seat": 1},
    ...     {"square": "e3", "seat": 1}, {"square": "e4", "seat": 1}]})
    ['a3', 'c3', 'e3']
    """
    outcome = view.get("outcome") or {}
    if outcome.get("reason") != "centre" or len(outcome.get("winners") or ()) != 1:
        return []
    winner = outcome["winners"][0]
    return [p["square"] for p in view.get("board", ())
            if p["seat"] == winner and int(p["square"][1]) == CENTRE_ROW]


@lru_cache(maxsize=4)
def win_crown(seat: int) -> tuple[Image.Image, Image.Image]:
    """A crown in the winner's colour (sprite, paste mask), set on a winning square's corner."""
    size = 44

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        note_glyph("win-square crown", 0.8 * size * k)
        d.polygon(crown((2 * k, 0.1 * size * k, (size - 2) * k, 0.9 * size * k)), fill=HIGHLIGHT, outline=INK,
                  width=3 * k)

    rgba = supersampled((size, size), paint, background=(255, 255, 255, 0))
    mask = rgba.getchannel("A").point(lambda a: 255 if a >= 128 else 0).convert("1")
    return palette().convert(rgba), mask


def _draw_win(canvas: Image.Image, squares: list[str], seat: int, pal: Palette, board: SquareGrid = GRID) -> None:
    """Each winning square framed in the winner's colour (inside a dark edge), a crown on its
    top-left corner: different from the yellow last-action outline, and readable without colour."""
    d = ImageDraw.Draw(canvas)
    colour = pal.index(player_style(seat).colour)
    for sq in squares:
        x0, y0, x1, y1 = board.box(sq)
        d.rectangle((x0, y0, x1 - 1, y1 - 1), outline=pal.index(INK), width=12)
        d.rectangle((x0 + 3, y0 + 3, x1 - 4, y1 - 4), outline=colour, width=6)
    sprite, mask = win_crown(seat)
    for sq in squares:
        x0, y0, _, _ = board.box(sq)
        canvas.paste(sprite, (x0 - 10, y0 - 14), mask)


def render_image(view: dict, *, last: bool = True, viewer_seat: int | None = None) -> Image.Image:
    """The board as a 'P'-mode PIL image (``render`` encodes it). ``last=False`` leaves the last
    action unmarked; ``viewer_seat=1`` turns the board half round, so the second seat's home rows
    and hand are at the bottom (the first seat's already are)."""
    turned = viewer_seat == 1
    board = grid(turned)
    pal = palette()
    canvas = background(*markers(view), turned)
    paste = canvas.paste
    for piece in view.get("board", ()):
        x0, y0, _, _ = board.box(piece["square"])
        sprite = piece_sprite(piece["seat"], piece["ability"], piece["points"], bool(piece.get("petrified")),
                              int(piece["square"][1]))
        paste(sprite, (x0 + INSET, y0 + INSET))
    if is_recording():
        _note_board(view, board)
    if is_collecting():
        _note_squares(view, board)
    for seat, hand in enumerate(view.get("hands", ())[:2]):
        if not hand:
            continue
        box = panel_box(seat, turned)
        room = box[2] - 8 - HAND_X
        slot = min(HAND_W, room // len(hand))   # a long hand overlaps its pieces rather than shrink them
        top = (box[1] + box[3]) // 2 - HAND_H // 2
        for i, piece in enumerate(hand):
            paste(hand_sprite(seat, piece["ability"], piece["points"]), (HAND_X + i * slot, top))
            # the part of the token the next one leaves showing
            right = HAND_X + i * slot + (HAND_W - 4 if i == len(hand) - 1 else min(slot, HAND_W - 4))
            note_region(f"hand:{seat}:{piece['kind']}", "hand", (HAND_X + i * slot, top, right, top + HAND_H),
                        seat=seat, kind=piece["kind"], ability=piece["ability"], points=piece["points"])
    cap = view.get("cap", 8)
    for seat, totals in enumerate(view.get("row_totals", ())[:2]):
        for row, total in enumerate(totals[:5], start=1):
            paste(cap_sprite(seat, total, cap), cap_label_pos(seat, row, turned))
            x, y = cap_label_pos(seat, row, turned)
            note_region(f"cap:{seat}:{row}", "cap", (x, y, x + CAP_W, y + CAP_H), seat=seat, row=row, total=total,
                        cap=cap)
    if last:
        squares, arrows = last_marks(view.get("last"))
        if squares:
            d = ImageDraw.Draw(canvas)
            hi, edge = pal.index(HIGHLIGHT), pal.index(INK)
            for sq in squares:
                draw_highlight(d, board.box(sq), colour=hi, edge=edge, width=7, edge_width=2)
            mover = player_style(view["last"].get("seat", 0))
            for frm, to, double in arrows:
                draw_arrow(d, board.centre(frm), board.centre(to), fill=pal.index(mover.dark),
                           outline=pal.index(WHITE), width=12, head_length=28, head_width=34,
                           double=double, shorten=CELL * (0.30 if double else 0.42), outline_width=3)
    won = winning_squares(view)
    if won:
        _draw_win(canvas, won, view["outcome"]["winners"][0], pal, board)
    return canvas


def _note_squares(view: dict, board: SquareGrid) -> None:
    """Tap regions: every square, with the piece on it (if any) as the view gives it."""
    pieces = {p["square"]: p for p in view.get("board", ())}
    for sq in board.squares():
        piece = pieces.get(sq)
        facts = {k: piece[k] for k in ("seat", "kind", "ability", "points", "petrified")} if piece else None
        note_region(f"cell:{sq}", "cell", board.box(sq), square=sq, piece=facts)


def _note_board(view: dict, board: SquareGrid) -> None:
    """Tell a drawing record the squares, their coordinates (drawn in the background layer) and
    the pieces, each on its square."""
    note_squares(board, board.squares())
    for text, xy in grid_coordinates(board, COORD_SIDES, COORD // 2):
        note_text("label", text, xy, FILE_TEXT if text.isalpha() else TEXT)
    for piece in view.get("board", ()):
        x0, y0, _, _ = board.box(piece["square"])
        note_box("piece", f"{piece['seat']}:{piece['points']}", (x0 + INSET, y0 + INSET, x0 + INSET + PIECE,
                                                                 y0 + INSET + PIECE), cell=piece["square"])


# The cached builders warm() fills completely: no board of any game misses them afterwards
# (tests/test_renderers.py checks it).
WARMED = (palette, board_layer, marked_panels, piece_sprite, hand_sprite, cap_sprite, win_crown)


def warm() -> None:
    """Build the palette, the backgrounds and every sprite of the default set and cap now (about a
    few seconds) instead of on the first boards, so a board never seen before is only pastes and its
    encode; optional, e.g. at bot start-up."""
    for turned in (False, True):
        board_layer(turned)
        for marker in _MARKERS[1:]:
            marked_panels(marker, turned)
    for seat in (0, 1):
        for ability in _ABILITIES:
            for points in range(1, 6):
                hand_sprite(seat, ability, points)
                for row in range(1, 6):
                    for petrified in (False, True):
                        piece_sprite(seat, ability, points, petrified, row)
        for total in range(0, 9):
            cap_sprite(seat, total, 8)
        win_crown(seat)


@register(GAME_NAME)
def render(view: dict, *, last: bool = True, viewer_seat: int | None = None) -> bytes:
    """PNG bytes of the SQUARESIV board for a ``get_game("squares").view(state, seat)`` dict,
    drawn from ``viewer_seat``'s side when given (a player's private copy, never the public board)."""
    return png_bytes(render_image(view, last=last, viewer_seat=viewer_seat))
