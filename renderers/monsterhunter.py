"""The Monster Hunter TCG image (MONSTER_HUNTER.md part 6), drawn from a ``view`` dict only.

One drawing for the public board (6.1) and every private panel (6.2), always 880 px wide::

    T3 [H]                                      turn, step letter (L P M H K, as in 5.4)
    +--- sheet b (turned 180) ---+              the whole map: each sheet placed and turned as
    | (tent B)  [b3 ]   [b4 7]   |              ``view["map"]`` says, tinted in its owner's colour;
    | [b2 5]           [b1 (A)]  |              areas (node id top-left), camps (a tent with the
    +============================+              seat letter), roads, joins drawn double, unused
    | [a1 2|12]   ...            |              connectors as stubs to the sheet edge; with two
    +--- sheet a ----------------+              players the viewer's own sheet at the bottom
    [2] Veiled Wyrm 12/12                        one face-up monster: its number, name, health;
        sword 7 arrow 5 star 5 crown (target) (bow) (ls)      then its numbers and weak points
    > (A) flag 8/20 [bar] ooo hourglass            hand 4           one row per seat
      (db) sword 4+1 boot 3 arrow 1 shield 0+2   deck 16 pile 17 claw 2
    [Chitin Harness    ] shield 2 claw 3                            a seat's hand, a card a row
    [Slab Cleaver      ] sword 3 (gs) boot 1 arrow 1 claw 2         (its view only)

Monsters on the map are chips (landscape cards): face down, a dark card back with the instance
number in white; face up, a light card with the number and the health left on red; the viewer's
own face-down monster, a light chip with a dashed border and a closed eye (only in that seat's
view). The rows under the map give every face-up monster (and, in a seat's view, its own hidden
ones, with a dashed tag) in full: card name, health left / printed, attack (sword), reach (arrow),
rank (star), a ring if it is a main target, a crown if unique, weak points (a target and the
weapon type pictograms). Hunters are the seat's token (colour, shape and letter); hollow on an area of
their own sheet (the hunt ignores them there).

Hunt overlay: each hunted area has its order number (yellow while it runs); running areas a
yellow border, frozen ones a hatched one; the current actor a yellow halo or outline. The last
resolution (``view["last"]``): moves as arrows in the mover's colour from its old place to its
token, hit / flipped / attacking monsters outlined, an interrupt a "!" burst, a killed or captured
monster a grey chip crossed out where it died. A seat's decision (its area, target or monster)
and survivors awaiting a keep choice are outlined too.

Seat rows: status marker (waiting, choice in, winner, draw), token, parent flag, HR against the
target with a bar, three retreat pips (crossed when used), an hourglass while the game waits on
that seat, hand count; the equipped weapon's type, attack (sword), movement (boot) and reach
(arrow), the turn bonus as +n, armour defence (shield), deck, discard pile and material points.
Retired seats grey and crossed out. A hand card: a band in its kind's colour with its name, then its
numbers: monster attack, reach, rank, health, main and unique; weapon attack and type, movement
and reach, cost (claw = material); armour defence and cost; item icons and its effect as a
pictogram with its number.

Text is card and sheet names in the reader's language (``lang``, from the game's data files:
``renderers.labels``), numbers and the step letter, never an engine id; everything else is drawn
(the nine weapon types too, :func:`_weapon_icon`); ``rules.monsterhunter.legend`` says in words
what each pictogram means. At the loadout (step L) the board lists the hunters and sheets every
seat chooses from, each seat's row saying only whether it has chosen. Every glyph that carries information is at least 16 px tall when the image is
shown 400 px wide (reported through ``renderers.common``'s glyph audit). Composition is in
palette mode: the map (sheets, roads, areas, camps) is one cached layer per map and orientation;
chips, tokens, icons, cards and text are cached sprites pasted through 1-bit masks.

>>> from games import get_game
>>> g = get_game("monsterhunter")
>>> render(g.view(g.setup(2, {"loadout": "random"}, seed=1), None))[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from games.monsterhunter.cards import card, sheets

from .labels import card_name, language, sheet_name
from .registry import register, register_deck, register_panel
from .taps import note_region
from .common import (palette_builder, draw_chequered_flag,
    HIGHLIGHT, INK, MUTED, OKABE_ITO, PAPER, STONE, WHITE, Palette, alpha_mask, crown, draw_arrow, draw_shape,
    draw_text, font, min_glyph_px, mix, note_glyph, note_ink, player_style, png_bytes, readable_size, status_marker, text_font,
    supersampled, triangle,
)

GAME_NAME = "monsterhunter"

# ---- layout (px) -----------------------------------------------------------------------------------
WIDTH = 880
TEXT = readable_size(WIDTH)      # every letter and digit: 16 px tall when shown 400 px wide
GLYPH = math.ceil(min_glyph_px(WIDTH))   # ... and every drawn symbol that carries information
PAD = 12
HEADER_H = 60
GAP = 44                          # between sheets (joining roads cross it)
TWO_CELL = ((WIDTH - 2 * PAD) // 3, 150)
RING_CELL = ((WIDTH - 2 * PAD - GAP) // 4, 232)
INSET = 8                         # an area box inside its cell
TOKEN = 62                        # a hunter token
CHIP_W, CHIP_H = 106, 50          # a monster chip on the map
ROW_H = 52                        # a line of a monster row under the map (two lines a monster)
MON_ROW_H = 2 * ROW_H
SEAT_H = 124                      # a seat row of the player strip
LOADOUT_SEAT_H = 74               # ... while nothing is dealt (the loadout)
TILE_W, TILE_H = WIDTH - 2 * PAD, 58   # a hand card: a row, its name in a band of its kind's colour
NAME_W = 456                      # that band: the longest name ("Kaede the Wayfinder") fits
ICON = GLYPH + 5
SPRITE_SCALE = 3                  # sprites are painted 3x and shrunk (4x costs twice the time for no visible gain)

# ---- colours ---------------------------------------------------------------------------------------
MAP_BG = (236, 236, 232)
SCENERY = (196, 196, 196)
ROAD = (120, 120, 120)
AREA = (252, 252, 250)
AREA_EDGE = (95, 95, 95)
BACK = (52, 52, 70)               # a face-down card
BACK_LINE = (84, 84, 106)
FACE = (255, 248, 230)            # a face-up card
LIFE = OKABE_ITO["vermillion"]
GHOST = (214, 214, 214)
STRIP_BG = (243, 243, 243)
BAR_BG = (222, 222, 222)
SWORD = (90, 90, 100)
STAR = OKABE_ITO["orange"]
KIND_BAND = {"monsters": OKABE_ITO["vermillion"], "weapons": OKABE_ITO["blue"], "armours": OKABE_ITO["bluish_green"],
             "items": OKABE_ITO["yellow"], "hunters": (120, 120, 120)}
KIND_INK = {"monsters": WHITE, "weapons": WHITE, "armours": WHITE, "items": INK, "hunters": WHITE}
ICON_COLOUR = {"meat": (170, 90, 40), "barrel": (200, 60, 30), "ball": (110, 110, 120), "ammo": (150, 120, 30),
               "bottle": (0, 114, 178), "material": (225, 215, 190), "medicine": (0, 158, 115)}
PHASE_LETTER = {"loadout": "L", "prep": "P", "move": "M", "hunt": "H", "keep": "K", "over": ""}
SIDES = "NESW"


# ---- geometry ----------------------------------------------------------------------------------------
_RING_SLOTS = ("TL", "TR", "BR", "BL")   # clockwise round the map


def _map_key(view: dict, viewer_seat: int | None = None) -> tuple | None:
    """What the map layer depends on: the sheets as placed, turned for the viewer (with 2 players a
    seat's own sheet is at the bottom; with 3 or 4, when ``viewer_seat`` asks, the whole ring is
    turned by quarter turns until that seat's sheet is in the bottom row)."""
    m = view.get("map")
    if not m:
        return None
    seat = viewer_seat if viewer_seat is not None else view.get("viewer")
    if m["kind"] == "two":
        spin = 180 if seat == 1 else 0
    else:
        own = next((s["slot"] for s in m["sheets"] if s["seat"] == viewer_seat), None)
        spin = {"TL": 270, "TR": 90}.get(own, 0) if viewer_seat is not None else 0
    out = []
    for s in m["sheets"]:
        slot = s["slot"]
        if spin and m["kind"] == "two":
            slot = {"B": "T", "T": "B"}[slot]
        elif spin and slot in _RING_SLOTS:   # each sheet moves on round the ring and turns with it
            slot = _RING_SLOTS[(_RING_SLOTS.index(slot) + spin // 90) % 4]
        out.append((s["seat"], s["layout"], bool(s["flipped"]), slot, (s["turn"] + spin) % 360))
    return (m["kind"], tuple(out))


def _cell_size(kind: str) -> tuple[int, int]:
    return TWO_CELL if kind == "two" else RING_CELL


def _sheet_origin(kind: str, slot: str) -> tuple[int, int]:
    cw, ch = _cell_size(kind)
    top = PAD + HEADER_H
    if slot == "P":   # one sheet alone (the loadout's picture of the sheets on offer)
        return (PAD, top)
    if kind == "two":
        return (PAD, top if slot == "T" else top + 3 * ch + GAP)
    col, row = {"TL": (0, 0), "TR": (1, 0), "BR": (1, 1), "BL": (0, 1)}[slot]
    return (PAD + col * (2 * cw + GAP), top + row * (2 * ch + GAP))


def map_height(kind: str) -> int:
    cw, ch = _cell_size(kind)
    return (6 * ch + GAP) if kind == "two" else (4 * ch + GAP)


def _turn_cell(col: int, row: int, n: int, turn: int) -> tuple[int, int]:
    for _ in range((turn // 90) % 4):
        col, row = n - 1 - row, col
    return col, row


@lru_cache(maxsize=64)
def geometry(key: tuple) -> dict:
    """Pixel boxes of every node, every sheet, and the screen side of every connector."""
    kind, placed = key
    n = 3 if kind == "two" else 2
    cw, ch = _cell_size(kind)
    spec = sheets(kind)
    nodes, sheet_boxes, stubs, scenery = {}, {}, [], []
    letters = "abcd"
    for seat, layout, flipped, slot, turn in placed:
        sheet = spec[layout]
        x0, y0 = _sheet_origin(kind, slot)
        sheet_boxes[seat] = (x0, y0, x0 + n * cw, y0 + n * ch)

        def box(cell: str) -> tuple[int, int, int, int]:
            c, r = _turn_cell(ord(cell[0]) - 97, int(cell[1]) - 1, n, turn)
            return (x0 + c * cw, y0 + r * ch, x0 + (c + 1) * cw, y0 + (r + 1) * ch)

        for node, cell in sheet["cells"].items():
            nodes[f"{letters[seat]}{node}"] = box(cell)
        if sheet.get("scenery"):
            scenery.append((seat, box(sheet["scenery"])))
        if slot == "P":   # alone, every connector is a way out: all drawn as stubs
            used = set()
        else:
            used = {"L", "R"} if kind == "two" else ({"N", "W"} if flipped else {"S", "E"})
        for side, node in sheet["connectors"].items():
            if side in used:
                continue
            base = "N" if side in ("L", "R") else side   # a 2-player sheet's connectors are on its top edge
            screen = SIDES[(SIDES.index(base) + turn // 90) % 4]
            stubs.append((f"{letters[seat]}{node}", screen, seat))
    return {"nodes": nodes, "sheets": sheet_boxes, "stubs": stubs, "scenery": scenery, "kind": kind}


def _centre(box) -> tuple[float, float]:
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def _inner(box) -> tuple[int, int, int, int]:
    return (box[0] + INSET, box[1] + INSET, box[2] - INSET, box[3] - INSET)


def _join_path(geo: dict, a: str, b: str) -> list[tuple[float, float]]:
    """A joining road between two sheets: straight when aligned, else bent through the gap
    between the sheets (3 players: around the empty corner)."""
    ba, bb = geo["nodes"][a], geo["nodes"][b]
    (ax, ay), (bx, by) = _centre(ba), _centre(bb)
    if abs(ax - bx) < 2 or abs(ay - by) < 2:
        return [(ax, ay), (bx, by)]
    sa, sb = geo["sheets"]["abcd".index(a[0])], geo["sheets"]["abcd".index(b[0])]
    if (sa[2] <= sb[0] or sb[2] <= sa[0]) and sa[1] == sb[1]:   # side by side: bend in the vertical gap
        gx = (min(sa[2], sb[2]) + max(sa[0], sb[0])) / 2
        return [(ax, ay), (gx, ay), (gx, by), (bx, by)]
    if sa[0] == sb[0]:                                          # one above the other: the horizontal gap
        gy = (min(sa[3], sb[3]) + max(sa[1], sb[1])) / 2
        return [(ax, ay), (ax, gy), (bx, gy), (bx, by)]
    # diagonal slots (3 players, around the empty corner): an L through it
    corner = (ax, by) if _empty_corner(geo, (ax, by)) else (bx, ay)
    return [(ax, ay), corner, (bx, by)]


def _empty_corner(geo: dict, point) -> bool:
    x, y = point
    return not any(b[0] <= x <= b[2] and b[1] <= y <= b[3] for b in geo["sheets"].values())


# ---- small painters (into supersampled canvases; k = scale) ------------------------------------------
def _tent(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, seat: int, k: int) -> None:
    """A camp: a tent in the seat's colour with its letter, on a ground line."""
    style = player_style(seat)
    note_glyph("camp", s * 0.8)
    d.line([(cx - 0.6 * s, cy + 0.4 * s), (cx + 0.6 * s, cy + 0.4 * s)], fill=INK, width=round(0.05 * s))
    d.line([(cx, cy - 0.5 * s), (cx, cy - 0.36 * s)], fill=INK, width=round(0.05 * s))
    d.polygon([(cx, cy - 0.42 * s), (cx + 0.55 * s, cy + 0.38 * s), (cx - 0.55 * s, cy + 0.38 * s)],
              fill=style.colour, outline=INK, width=3 * k)
    draw_text(d, (cx, cy + 0.14 * s), style.letter, TEXT * k, style.ink, bold=True)


def _sword(d, cx, cy, s, colour, k) -> None:
    note_glyph("icon:sword", s)
    w = 0.14 * s
    d.polygon([(cx - w / 2, cy + 0.12 * s), (cx - w / 2, cy - 0.32 * s), (cx, cy - 0.5 * s),
               (cx + w / 2, cy - 0.32 * s),
               (cx + w / 2, cy + 0.12 * s)], fill=colour, outline=INK, width=max(1, k))
    d.rectangle((cx - 0.3 * s, cy + 0.12 * s, cx + 0.3 * s, cy + 0.22 * s), fill=INK)
    d.rectangle((cx - 0.06 * s, cy + 0.22 * s, cx + 0.06 * s, cy + 0.5 * s), fill=INK)


def _arrow_icon(d, cx, cy, s, colour, k) -> None:
    note_glyph("icon:reach", s)
    draw_arrow(d, (cx - 0.42 * s, cy + 0.42 * s), (cx + 0.45 * s, cy - 0.45 * s), fill=colour, outline=INK,
               width=0.14 * s, head_length=0.36 * s, head_width=0.42 * s, outline_width=max(1, k))


def _star(d, cx, cy, s, colour, k) -> None:
    note_glyph("icon:star", s)
    pts = []
    for i in range(10):
        r = (0.5 if i % 2 == 0 else 0.21) * s
        a = math.radians(-90 + 36 * i)
        pts.append((cx + r * math.cos(a), cy + 0.04 * s + r * math.sin(a)))
    d.polygon(pts, fill=colour, outline=INK, width=max(1, 2 * k))


def _shield(d, cx, cy, s, colour, k) -> None:
    note_glyph("icon:shield", s)
    d.polygon([(cx - 0.4 * s, cy - 0.45 * s), (cx + 0.4 * s, cy - 0.45 * s), (cx + 0.4 * s, cy),
               (cx, cy + 0.5 * s), (cx - 0.4 * s, cy)], fill=colour, outline=INK, width=max(1, 2 * k))


def _target(d, cx, cy, s, k) -> None:
    """Weak point: a target."""
    note_glyph("icon:weak", s)
    for r, c in ((0.48, LIFE), (0.32, WHITE), (0.16, LIFE)):
        d.ellipse((cx - r * s, cy - r * s, cx + r * s, cy + r * s), fill=c, outline=INK, width=max(1, k))


def _ring(d, cx, cy, s, k) -> None:
    """Main target: a thick ring with a dot."""
    note_glyph("icon:main", s)
    d.ellipse((cx - 0.46 * s, cy - 0.46 * s, cx + 0.46 * s, cy + 0.46 * s), outline=INK, width=round(0.12 * s))
    d.ellipse((cx - 0.1 * s, cy - 0.1 * s, cx + 0.1 * s, cy + 0.1 * s), fill=INK)


def _crown(d, cx, cy, s, k) -> None:
    note_glyph("icon:unique", s)
    d.polygon(crown((cx - 0.48 * s, cy - 0.4 * s, cx + 0.48 * s, cy + 0.4 * s)), fill=HIGHLIGHT, outline=INK,
              width=max(1, 2 * k))


def _eye_closed(d, cx, cy, s, k) -> None:
    note_glyph("icon:hidden", s * 0.8)
    w = 0.5 * s
    d.arc((cx - w, cy - 0.55 * s, cx + w, cy + 0.35 * s), start=20, end=160, fill=INK, width=round(0.1 * s))
    for t in (-0.6, 0, 0.6):
        x = cx + t * w * 0.8
        y = cy + 0.3 * s - abs(t) * 0.08 * s
        d.line([(x, y), (x + t * 0.15 * s, y + 0.22 * s)], fill=INK, width=round(0.08 * s))


def _deck_icon(d, cx, cy, s, k, fanned: bool = False) -> None:
    note_glyph("icon:hand" if fanned else "icon:deck", s)
    w, h = 0.5 * s, 0.72 * s
    if fanned:
        for angle in (-20, 0, 20):
            a = math.radians(angle)
            pts = []
            for px, py in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)):
                pts.append((cx + px * math.cos(a) - (py + 0.15 * s) * math.sin(a),
                            cy + 0.1 * s + px * math.sin(a) + (py) * math.cos(a)))
            d.polygon(pts, fill=WHITE, outline=INK, width=max(1, 2 * k))
        return
    for i in range(3):
        o = (2 - i) * 0.09 * s
        d.rounded_rectangle((cx - w / 2 + o - 0.1 * s, cy - h / 2 - o + 0.1 * s, cx + w / 2 + o - 0.1 * s,
                             cy + h / 2 - o + 0.1 * s), radius=0.06 * s, fill=(150, 150, 170), outline=INK,
                            width=max(1, 2 * k))


def _pile_icon(d, cx, cy, s, k) -> None:
    """The discard pile: a card turned aside with a slash."""
    note_glyph("icon:discard", s)
    a = math.radians(30)
    w, h = 0.5 * s, 0.72 * s
    pts = [(cx + px * math.cos(a) - py * math.sin(a), cy + px * math.sin(a) + py * math.cos(a))
           for px, py in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2))]
    d.polygon(pts, fill=GHOST, outline=INK, width=max(1, 2 * k))
    d.line([(cx - 0.3 * s, cy + 0.3 * s), (cx + 0.3 * s, cy - 0.3 * s)], fill=INK, width=round(0.08 * s))


def _fang(d, cx, cy, s, k) -> None:
    """Material: a claw."""
    note_glyph("icon:material", s)
    d.polygon([(cx - 0.3 * s, cy - 0.45 * s), (cx + 0.3 * s, cy - 0.45 * s), (cx + 0.05 * s, cy + 0.2 * s),
               (cx - 0.25 * s, cy + 0.5 * s), (cx - 0.12 * s, cy + 0.1 * s)], fill=ICON_COLOUR["material"],
              outline=INK, width=max(1, 2 * k))


def _hourglass(d, cx, cy, s, k) -> None:
    note_glyph("icon:waiting", s)
    w = 0.34 * s
    d.rectangle((cx - w - 0.06 * s, cy - 0.5 * s, cx + w + 0.06 * s, cy - 0.42 * s), fill=INK)
    d.rectangle((cx - w - 0.06 * s, cy + 0.42 * s, cx + w + 0.06 * s, cy + 0.5 * s), fill=INK)
    d.polygon([(cx - w, cy - 0.42 * s), (cx + w, cy - 0.42 * s), (cx, cy), (cx + w, cy + 0.42 * s),
               (cx - w, cy + 0.42 * s), (cx, cy)], fill=HIGHLIGHT, outline=INK, width=max(1, 2 * k))


def _flag(d, cx, cy, s, k) -> None:
    """The parent: a chequered flag."""
    note_glyph("icon:parent", 0.86 * s)
    draw_chequered_flag(d, cx - 0.5 * s, cy - 0.5 * s, s)


def _item_icon(d, icon: str, cx, cy, s, k) -> None:
    """The seven item icons (3.4): meat, barrel, ball, ammo, bottle, material, medicine."""
    note_glyph(f"item:{icon}", s)
    c = ICON_COLOUR[icon]
    line = max(1, 2 * k)
    if icon == "meat":
        d.ellipse((cx - 0.45 * s, cy - 0.45 * s, cx + 0.2 * s, cy + 0.2 * s), fill=c, outline=INK, width=line)
        d.line([(cx + 0.05 * s, cy + 0.05 * s), (cx + 0.38 * s, cy + 0.38 * s)], fill=WHITE, width=round(0.14 * s))
        d.ellipse((cx + 0.28 * s, cy + 0.28 * s, cx + 0.5 * s, cy + 0.5 * s), fill=WHITE, outline=INK, width=line)
    elif icon == "barrel":
        d.rounded_rectangle((cx - 0.36 * s, cy - 0.5 * s, cx + 0.36 * s, cy + 0.5 * s), radius=0.16 * s, fill=c,
                            outline=INK, width=line)
        for y in (-0.25, 0.25):
            d.line([(cx - 0.36 * s, cy + y * s), (cx + 0.36 * s, cy + y * s)], fill=INK, width=round(0.07 * s))
    elif icon == "ball":
        d.ellipse((cx - 0.46 * s, cy - 0.46 * s, cx + 0.46 * s, cy + 0.46 * s), fill=c, outline=INK, width=line)
        d.line([(cx - 0.46 * s, cy), (cx + 0.46 * s, cy)], fill=WHITE, width=round(0.1 * s))
    elif icon == "ammo":
        d.polygon([(cx - 0.2 * s, cy + 0.5 * s), (cx - 0.2 * s, cy - 0.15 * s), (cx, cy - 0.5 * s),
                   (cx + 0.2 * s, cy - 0.15 * s), (cx + 0.2 * s, cy + 0.5 * s)], fill=c, outline=INK, width=line)
        d.line([(cx - 0.2 * s, cy + 0.2 * s), (cx + 0.2 * s, cy + 0.2 * s)], fill=INK, width=round(0.06 * s))
    elif icon == "bottle":
        d.rectangle((cx - 0.1 * s, cy - 0.5 * s, cx + 0.1 * s, cy - 0.2 * s), fill=c, outline=INK, width=line)
        d.ellipse((cx - 0.36 * s, cy - 0.25 * s, cx + 0.36 * s, cy + 0.5 * s), fill=c, outline=INK, width=line)
    elif icon == "material":
        _fang(d, cx, cy, s, k)
    elif icon == "medicine":
        a, b = 0.16 * s, 0.46 * s
        d.polygon([(cx - a, cy - b), (cx + a, cy - b), (cx + a, cy - a), (cx + b, cy - a), (cx + b, cy + a),
                   (cx + a, cy + a), (cx + a, cy + b), (cx - a, cy + b), (cx - a, cy + a), (cx - b, cy + a),
                   (cx - b, cy - a), (cx - a, cy - a)], fill=c, outline=INK, width=line)


STEEL = (225, 228, 238)    # blades
HAFT = (150, 105, 60)      # wooden hafts and stocks
WEAPON_TYPES = ("gs", "ls", "sns", "db", "hm", "lc", "lbg", "hbg", "bow")


def _turned(cx: float, cy: float, s: float, points, degrees: float = 45) -> list[tuple[float, float]]:
    """``points`` in units of ``s`` around the centre, pointing up, turned clockwise."""
    a = math.radians(degrees)
    return [(cx + s * (x * math.cos(a) - y * math.sin(a)), cy + s * (x * math.sin(a) + y * math.cos(a)))
            for x, y in points]


def _blade(d, cx, cy, s, k, *, half: float, top: float, bottom: float, guard: float, grip: float,
           degrees: float = 45) -> None:
    """A sword pointing up-right: blade (``half`` its half width) from ``top`` to ``bottom``, a
    cross guard ``guard`` wide, a grip down to ``grip`` (units of ``s``)."""
    line = max(1, 2 * k)
    d.polygon(_turned(cx, cy, s, [(0, top - half * 1.6), (half, top), (half, bottom), (-half, bottom), (-half, top)],
                      degrees), fill=STEEL, outline=INK, width=line)
    d.polygon(_turned(cx, cy, s, [(-guard, bottom), (guard, bottom), (guard, bottom + 0.08),
                                  (-guard, bottom + 0.08)], degrees), fill=INK)
    d.polygon(_turned(cx, cy, s, [(-0.045, bottom + 0.08), (0.045, bottom + 0.08), (0.045, grip), (-0.045, grip)],
                      degrees), fill=INK)


def _gun(d, cx, cy, s, k, heavy: bool) -> None:
    """A bowgun side on, muzzle right: the light one slim, the heavy one with a thick double barrel
    and a scope."""
    line = max(1, 2 * k)
    if heavy:
        d.rectangle((cx - 0.5 * s, cy - 0.3 * s, cx + 0.5 * s, cy - 0.02 * s), fill=STEEL, outline=INK, width=line)
        d.line([(cx - 0.5 * s, cy - 0.16 * s), (cx + 0.5 * s, cy - 0.16 * s)], fill=INK, width=max(1, 2 * k))
        d.rectangle((cx - 0.22 * s, cy - 0.48 * s, cx + 0.18 * s, cy - 0.34 * s), fill=INK)
    else:
        d.rectangle((cx - 0.34 * s, cy - 0.16 * s, cx + 0.5 * s, cy - 0.04 * s), fill=STEEL, outline=INK, width=line)
    d.polygon([(cx - 0.5 * s, cy - 0.06 * s), (cx - 0.02 * s, cy - 0.06 * s), (cx - 0.1 * s, cy + 0.12 * s),
               (cx - 0.5 * s, cy + (0.42 if heavy else 0.3) * s)], fill=HAFT, outline=INK, width=line)
    d.polygon([(cx - 0.04 * s, cy - 0.04 * s), (cx + 0.08 * s, cy - 0.04 * s), (cx + 0.02 * s, cy + 0.36 * s),
               (cx - 0.12 * s, cy + 0.36 * s)], fill=INK)


def _weapon_icon(d, wtype: str, cx, cy, s, k) -> None:
    """The nine weapon types (R99) as pictograms: great sword (a broad blade), long sword (a long
    thin one), sword and shield, dual blades (two crossed), hammer, lance (a spear with a tower
    shield), light bowgun (slim), heavy bowgun (double barrel and scope), bow."""
    note_glyph(f"weapon:{wtype}", s)
    line = max(1, 2 * k)
    if wtype == "gs":
        _blade(d, cx, cy, s, k, half=0.16, top=-0.36, bottom=0.2, guard=0.26, grip=0.5)
    elif wtype == "ls":
        _blade(d, cx, cy, s, k, half=0.075, top=-0.52, bottom=0.26, guard=0.12, grip=0.58)
    elif wtype == "sns":
        _blade(d, cx + 0.12 * s, cy - 0.12 * s, s, k, half=0.075, top=-0.3, bottom=0.08, guard=0.16, grip=0.3)
        r = 0.26 * s
        d.ellipse((cx - 0.24 * s - r, cy + 0.22 * s - r, cx - 0.24 * s + r, cy + 0.22 * s + r),
                  fill=OKABE_ITO["sky_blue"], outline=INK, width=line)
    elif wtype == "db":
        for degrees in (35, -35):
            _blade(d, cx, cy, s, k, half=0.07, top=-0.4, bottom=0.12, guard=0.14, grip=0.42, degrees=degrees)
    elif wtype == "hm":
        d.polygon(_turned(cx, cy, s, [(-0.05, -0.2), (0.05, -0.2), (0.05, 0.55), (-0.05, 0.55)]), fill=HAFT,
                  outline=INK, width=line)
        d.polygon(_turned(cx, cy, s, [(-0.32, -0.52), (0.32, -0.52), (0.32, -0.18), (-0.32, -0.18)]), fill=STEEL,
                  outline=INK, width=line)
    elif wtype == "lc":
        d.polygon(_turned(cx, cy, s, [(0, -0.64), (0.15, 0.22), (-0.15, 0.22)]), fill=STEEL, outline=INK, width=line)
        d.polygon(_turned(cx, cy, s, [(-0.035, 0.22), (0.035, 0.22), (0.035, 0.5), (-0.035, 0.5)]), fill=INK)
        d.rounded_rectangle((cx - 0.5 * s, cy - 0.1 * s, cx - 0.14 * s, cy + 0.5 * s), radius=0.08 * s,
                            fill=OKABE_ITO["sky_blue"], outline=INK, width=line)
    elif wtype in ("lbg", "hbg"):
        _gun(d, cx, cy, s, k, wtype == "hbg")
    elif wtype == "bow":
        d.arc((cx - 0.7 * s, cy - 0.5 * s, cx + 0.3 * s, cy + 0.5 * s), start=-90, end=90, fill=HAFT,
              width=round(0.1 * s))
        d.line([(cx - 0.2 * s, cy - 0.48 * s), (cx - 0.2 * s, cy + 0.48 * s)], fill=INK, width=max(1, k))
        draw_arrow(d, (cx - 0.45 * s, cy), (cx + 0.5 * s, cy), fill=INK, width=0.05 * s, head_length=0.18 * s,
                   head_width=0.2 * s, outline_width=0)


def _boot(d, cx, cy, s, k) -> None:
    """Movement: a boot."""
    note_glyph("icon:move", s)
    d.polygon([(cx - 0.3 * s, cy - 0.48 * s), (cx + 0.06 * s, cy - 0.48 * s), (cx + 0.06 * s, cy + 0.06 * s),
               (cx + 0.44 * s, cy + 0.2 * s), (cx + 0.46 * s, cy + 0.46 * s), (cx - 0.3 * s, cy + 0.46 * s)],
              fill=HAFT, outline=INK, width=max(1, 2 * k))
    d.line([(cx - 0.3 * s, cy + 0.3 * s), (cx + 0.46 * s, cy + 0.3 * s)], fill=INK, width=max(1, 2 * k))


def _effect_icon(d, kind: str, cx, cy, s, k) -> None:
    """An item's effect (3.3) as a pictogram; its number is drawn beside it."""
    if kind == "attack_up":
        _sword(d, cx, cy, s, (230, 230, 240), k)
    elif kind == "defence_up":
        _shield(d, cx, cy, s, (200, 230, 215), k)
    elif kind == "bomb":
        note_glyph("effect:bomb", s)
        d.ellipse((cx - 0.4 * s, cy - 0.3 * s, cx + 0.4 * s, cy + 0.5 * s), fill=INK)
        d.line([(cx + 0.2 * s, cy - 0.25 * s), (cx + 0.35 * s, cy - 0.45 * s)], fill=INK, width=round(0.08 * s))
        d.ellipse((cx + 0.3 * s, cy - 0.52 * s, cx + 0.46 * s, cy - 0.36 * s), fill=LIFE)
    elif kind == "capture":
        note_glyph("effect:capture", s)
        d.rectangle((cx - 0.45 * s, cy - 0.45 * s, cx + 0.45 * s, cy + 0.45 * s), outline=INK, width=round(0.07 * s))
        for t in (-0.15, 0.15):
            d.line([(cx + t * s, cy - 0.45 * s), (cx + t * s, cy + 0.45 * s)], fill=INK, width=round(0.05 * s))
            d.line([(cx - 0.45 * s, cy + t * s), (cx + 0.45 * s, cy + t * s)], fill=INK, width=round(0.05 * s))
    elif kind == "recover":
        note_glyph("effect:recover", s)
        r = 0.38 * s
        d.arc((cx - r, cy - r, cx + r, cy + r), start=-30, end=250, fill=OKABE_ITO["bluish_green"],
              width=round(0.12 * s))
        d.polygon(triangle((cx + 0.36 * s, cy - 0.16 * s), 0.3 * s, "down"), fill=OKABE_ITO["bluish_green"])
    elif kind == "draw":
        _deck_icon(d, cx, cy, s, k)
    elif kind == "weak_hit":
        _target(d, cx, cy, s, k)
    elif kind == "evade":
        note_glyph("effect:evade", s)
        for i, t in enumerate((-0.3, 0, 0.3)):
            d.line([(cx - 0.45 * s, cy + t * s), (cx + (0.1 + 0.12 * i) * s, cy + t * s)], fill=INK,
                   width=round(0.08 * s))
        d.ellipse((cx + 0.1 * s, cy - 0.2 * s, cx + 0.5 * s, cy + 0.2 * s), fill=OKABE_ITO["sky_blue"], outline=INK,
                  width=max(1, 2 * k))


# ---- palette and sprites ---------------------------------------------------------------------------
def _flat(rgba: Image.Image, background) -> Image.Image:
    flat = Image.new("RGB", rgba.size, tuple(background))
    flat.paste(rgba, (0, 0), rgba)
    return flat


def _key_colours() -> list[tuple]:
    cols = [PAPER, WHITE, INK, MUTED, STONE, MAP_BG, SCENERY, ROAD, AREA, AREA_EDGE, BACK, BACK_LINE, FACE, LIFE,
            GHOST, STRIP_BG, BAR_BG, SWORD, STAR, HIGHLIGHT, STEEL, HAFT, (0, 0, 0)]
    for seat in range(4):
        st = player_style(seat)
        cols += [st.colour, st.light, st.dark, st.ink]
    cols += list(KIND_BAND.values()) + list(ICON_COLOUR.values()) + list(OKABE_ITO.values())
    out = []
    for c in cols:
        if tuple(c) not in out:
            out.append(tuple(c))
    return out


@palette_builder
def palette() -> Palette:
    """A fixed 256-colour palette: the key colours exactly, plus their blends (anti-aliased edges)."""
    keys = _key_colours()
    blends = []
    edges = [INK, WHITE, PAPER, AREA, FACE, BACK, MAP_BG, STRIP_BG]
    for a in keys:
        for b in edges + [player_style(s).light for s in range(4)]:
            for t in (0.2, 0.4, 0.6, 0.8):
                blends.append(mix(a, b, t))
    swatch = Image.new("RGB", (len(blends), 1))
    swatch.putdata(blends)
    return Palette(swatch, exact=keys)


def _p(image: Image.Image) -> Image.Image:
    return palette().convert(image)


def _sprite(size: tuple[int, int], paint, background) -> tuple[Image.Image, Image.Image]:
    """(palette sprite flattened on ``background``, 1-bit mask)."""
    rgba = supersampled(size, paint, background=(255, 255, 255, 0), scale=SPRITE_SCALE)
    return _p(_flat(rgba, background)), alpha_mask(rgba)


@lru_cache(maxsize=2048)
def text_sprite(text: str, colour: tuple, background: tuple) -> tuple[Image.Image, Image.Image, int, int]:
    """(sprite, mask, width of the ink, baseline row): anti-aliased bold text at :data:`TEXT`, its
    left edge at x = 2."""
    stroke = max(1, TEXT // 18)
    x0, y0, x1, y1 = text_font(text, TEXT).getbbox(text, stroke_width=stroke, anchor="ls")
    k = SPRITE_SCALE   # as painted: a long name can run a few px wider at the larger size
    big = text_font(text, TEXT * k).getbbox(text, stroke_width=max(1, TEXT * k // 18), anchor="ls")
    x1 = max(x1, math.ceil(big[2] / k - min(0, big[0] / k - x0)))
    w, h = x1 - x0 + 4, y1 - y0 + 4

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        draw_text(d, ((2 - x0) * k, (2 - y0) * k), text, TEXT * k, colour, anchor="ls", bold=True)

    sprite, mask = _sprite((w, h), paint, background)
    return sprite, mask, w - 4, 2 - y0


CAP = -font(TEXT).getbbox("0", stroke_width=max(1, TEXT // 18), anchor="ls")[1]   # a digit's height


def paste_text(canvas: Image.Image, xy, text: str, colour, background, anchor: str = "lm") -> int:
    """Paste ``text`` anchored left-middle ("lm"), centre ("mm") or right-middle ("rm") at ``xy``;
    returns its width."""
    sprite, mask, w, baseline = text_sprite(text, tuple(colour), tuple(background))
    x, y = xy
    x = x - 2 if anchor == "lm" else x - 2 - w / 2 if anchor == "mm" else x - 2 - w
    canvas.paste(sprite, (round(x), round(y + CAP / 2 - baseline)), mask)   # digits centred on y
    return w


def paste_run(canvas: Image.Image, xy, parts: tuple[str, ...], colour, background) -> int:
    """Paste several texts side by side as one ("13" "/20"): fewer distinct sprites to build."""
    x, y = xy
    for part in parts:
        x += paste_text(canvas, (x, y), part, colour, background)
    return x - xy[0]


def text_width(text: str) -> int:
    return text_sprite(text, INK, PAPER)[2]


# Icons whose ink falls short of their sprite, drawn larger so that every icon's ink is at least
# 16 px on a phone (measured by tests/test_phone_render.py): thin and slanted shapes.
ICON_SCALE = {"reach": 1.11, "hand": 1.14, "discard": 1.04, "move": 1.05, "weapon:gs": 1.2, "weapon:ls": 1.1,
              "weapon:sns": 1.08, "weapon:lc": 1.04}


@lru_cache(maxsize=256)
def icon_sprite(name: str, size: int, background: tuple) -> tuple[Image.Image, Image.Image]:
    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        s = size * k
        c = s / 2
        inner = s * 0.96 * ICON_SCALE.get(name, 1.0)
        if name == "sword":
            _sword(d, c, c, inner, (230, 230, 240), k)
        elif name == "reach":
            _arrow_icon(d, c, c, inner * 0.92, SWORD, k)
        elif name == "star":
            _star(d, c, c, inner, STAR, k)
        elif name == "shield":
            _shield(d, c, c, inner, (200, 230, 215), k)
        elif name == "weak":
            _target(d, c, c, inner, k)
        elif name == "main":
            _ring(d, c, c, inner, k)
        elif name == "unique":
            _crown(d, c, c, inner, k)
        elif name == "deck":
            _deck_icon(d, c, c, inner, k)
        elif name == "hand":
            _deck_icon(d, c, c, inner, k, fanned=True)
        elif name == "discard":
            _pile_icon(d, c, c, inner, k)
        elif name == "material":
            _fang(d, c, c, inner, k)
        elif name == "waiting":
            _hourglass(d, c, c, inner, k)
        elif name == "parent":
            _flag(d, c, c, inner, k)
        elif name == "hidden":
            _eye_closed(d, c, c, inner, k)
        elif name.startswith("item:"):
            _item_icon(d, name[5:], c, c, inner * 0.92, k)
        elif name.startswith("effect:"):
            _effect_icon(d, name[7:], c, c, inner * 0.92, k)
        elif name.startswith("weapon:"):
            _weapon_icon(d, name[7:], c, c, inner * 0.92, k)
        elif name == "move":
            _boot(d, c, c, inner * 0.92, k)
        note_ink(d, f"icon:{name}", read="length")   # an icon is read by its larger side (an arrow by its length)

    return _sprite((size, size), paint, background)


def paste_icon(canvas, name: str, x: float, cy: float, background, size: int = ICON) -> int:
    sprite, mask = icon_sprite(name, size, tuple(background))
    canvas.paste(sprite, (round(x), round(cy - size / 2)), mask)
    return size


def _token_paint(d, cx, cy, r, seat: int, hollow: bool, k: int) -> None:
    style = player_style(seat)
    if style.shape == "triangle":
        r *= 1.28
    box = (cx - r, cy - r, cx + r, cy + r)
    draw_shape(d, style.shape, (box[0] - 2 * k, box[1] - 2 * k, box[2] + 2 * k, box[3] + 2 * k), fill=WHITE)
    if hollow:
        draw_shape(d, style.shape, box, fill=WHITE, outline=style.colour, width=round(0.16 * r))
        ink = style.dark
    else:
        draw_shape(d, style.shape, box, fill=style.colour, outline=INK, width=max(2, round(r * 0.08)))
        ink = style.ink
    dy = r * 0.17 if style.shape == "triangle" else 0
    draw_text(d, (cx, cy + dy), style.letter, TEXT * k, ink, bold=True)


@lru_cache(maxsize=128)
def token_sprite(seat: int, hollow: bool, background: tuple, size: int = TOKEN) -> tuple[Image.Image, Image.Image]:
    """A hunter: the seat's token (hollow: on an area of its own sheet, ignored by the hunt)."""
    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        s = size * k
        r = 0.43 * s if player_style(seat).shape != "triangle" else 0.37 * s
        _token_paint(d, s / 2, s / 2, r, seat, hollow, k)

    return _sprite((size, size), paint, background)


def chip_width(mid: int, health: int | None = None) -> int:
    """A chip holds the instance number, then the health left (or the eye, the cross, the back)."""
    right = text_width(str(max(0, health))) + 14 if health is not None else 50
    return max(CHIP_W, text_width(str(mid)) + 20 + right)


@lru_cache(maxsize=256)
def tag_sprite(mid: int, hidden: bool, background: tuple) -> tuple[Image.Image, Image.Image]:
    """The instance number on a light card (dashed when only the viewer sees the card): the
    monster rows' link to the map."""
    idw = text_width(str(mid))
    w, h = idw + 24, ROW_H - 6

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        W, H = w * k, h * k
        d.rounded_rectangle((0, 0, W - 1, H - 1), radius=8 * k, fill=FACE, outline=INK, width=3 * k)
        if hidden:
            _dashes(d, W, H, 3 * k, FACE, k)
        draw_text(d, (W / 2, H / 2), str(mid), TEXT * k, INK, bold=True)

    return _sprite((w, h), paint, background)


def _dashes(d, W, H, line, fill, k) -> None:
    """Break a card's border into dashes (only the viewer sees this card)."""
    dash = 10 * k
    for x in range(dash // 2, W, 2 * dash):
        d.line([(x, line / 2), (min(W, x + dash), line / 2)], fill=fill, width=line + 2 * k)
        d.line([(x, H - line / 2), (min(W, x + dash), H - line / 2)], fill=fill, width=line + 2 * k)
    for y in range(dash // 2, H, 2 * dash):
        d.line([(line / 2, y), (line / 2, min(H, y + dash))], fill=fill, width=line + 2 * k)
        d.line([(W - line / 2, y), (W - line / 2, min(H, y + dash))], fill=fill, width=line + 2 * k)


@lru_cache(maxsize=1024)
def chip_sprite(mid: int, kind: str, health: int | None, background: tuple) -> tuple[Image.Image, Image.Image]:
    """A monster on the map: ``kind`` "down" (card back), "up" (number and health left), "hidden"
    (the viewer's own face-down card: dashed border, closed eye) or "ghost" (just killed)."""
    w, h = chip_width(mid, health), CHIP_H
    idw = text_width(str(mid))

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        W, H = w * k, h * k
        line = 3 * k
        if kind == "down":
            d.rounded_rectangle((0, 0, W - 1, H - 1), radius=8 * k, fill=BACK, outline=INK, width=line)
            for x in range(-H, W, 14 * k):
                d.line([(max(x, 0), min(H, H - (0 - x) if x < 0 else H)), (x + H, 0)], fill=BACK_LINE, width=4 * k)
            d.rounded_rectangle((4 * k, 4 * k, (idw + 14) * k, H - 4 * k), radius=6 * k, fill=BACK)
            draw_text(d, ((idw / 2 + 9) * k, H / 2), str(mid), TEXT * k, WHITE, bold=True)
            return
        fill = GHOST if kind == "ghost" else FACE
        d.rounded_rectangle((0, 0, W - 1, H - 1), radius=8 * k, fill=fill, outline=INK, width=line)
        if kind == "hidden":   # dashed border: only this player sees the card
            _dashes(d, W, H, line, fill, k)
        ink = MUTED if kind == "ghost" else INK
        draw_text(d, ((idw / 2 + 9) * k, H / 2), str(mid), TEXT * k, ink, bold=True)
        bx0 = (idw + 16) * k
        if kind == "hidden":
            _eye_closed(d, (bx0 + W - 4 * k) / 2, H / 2, (GLYPH + 10) * k, k)
        elif kind == "ghost":   # killed: a cross where its health was
            cx, cy, r = (bx0 + W - 5 * k) / 2, H / 2, 0.37 * H
            note_glyph("killed", 2 * r)
            d.line([(cx - r, cy - r), (cx + r, cy + r)], fill=LIFE, width=7 * k)
            d.line([(cx - r, cy + r), (cx + r, cy - r)], fill=LIFE, width=7 * k)
        elif health is not None:
            d.rounded_rectangle((bx0, 5 * k, W - 5 * k, H - 5 * k), radius=8 * k, fill=LIFE)
            draw_text(d, ((bx0 + W - 5 * k) / 2, H / 2), str(max(0, health)), TEXT * k, WHITE, bold=True)

    return _sprite((w, h), paint, background)


@lru_cache(maxsize=64)
def burst_sprite(size: int = 46) -> tuple[Image.Image, Image.Image]:
    """An interrupt: a yellow burst with "!"."""
    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        s = size * k
        pts = []
        for i in range(16):
            r = (0.5 if i % 2 == 0 else 0.34) * s
            a = math.radians(i * 22.5)
            pts.append((s / 2 + r * math.cos(a), s / 2 + r * math.sin(a)))
        d.polygon(pts, fill=HIGHLIGHT, outline=INK, width=2 * k)
        draw_text(d, (s / 2, s / 2), "!", TEXT * k, INK, bold=True)

    rgba = supersampled((size, size), paint, background=(255, 255, 255, 0))
    return _p(_flat(rgba, HIGHLIGHT)), alpha_mask(rgba)


@lru_cache(maxsize=64)
def badge_sprite(number: int, background: tuple, fill: tuple = WHITE,
                 size: int = 48) -> tuple[Image.Image, Image.Image]:
    """A hunted area's order number in a circle."""
    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        s = size * k
        d.ellipse((k, k, s - k, s - k), fill=fill, outline=INK, width=3 * k)
        draw_text(d, (s / 2, s / 2), str(number), TEXT * k, INK, bold=True)

    return _sprite((size, size), paint, background)


@lru_cache(maxsize=32)
def marker_sprite(kind: str, seat: int, background: tuple, size: int = 52) -> Image.Image:
    return _p(status_marker(kind, seat, size, background).convert("RGB"))


@lru_cache(maxsize=64)
def pip_sprite(used: bool, background: tuple, size: int = 38) -> tuple[Image.Image, Image.Image]:
    """A retreat: an empty pip, filled (dark with a cross) once used."""
    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        s = size * k
        note_glyph("retreat pip", s - 2 * k)
        d.ellipse((k, k, s - k, s - k), fill=INK if used else WHITE, outline=INK, width=3 * k)
        if used:
            d.line([(0.3 * s, 0.3 * s), (0.7 * s, 0.7 * s)], fill=WHITE, width=4 * k)
            d.line([(0.3 * s, 0.7 * s), (0.7 * s, 0.3 * s)], fill=WHITE, width=4 * k)

    return _sprite((size, size), paint, background)


# ---- the map layer ---------------------------------------------------------------------------------------
@lru_cache(maxsize=64)
def map_layer(key: tuple, nodes_json: tuple, roads: tuple, joins: tuple) -> Image.Image:
    """Sheets, scenery, roads, joins, stubs, areas with their ids, and camps: everything of the map
    that never changes once the loadout is over (G26)."""
    geo = geometry(key)
    kind = key[0]
    w, h = WIDTH, map_height(kind)
    top = PAD + HEADER_H
    im = Image.new("RGB", (w, h), PAPER)
    d = ImageDraw.Draw(im)

    def off(box):
        return (box[0], box[1] - top, box[2], box[3] - top)

    for seat, box in geo["sheets"].items():
        st = player_style(seat)
        d.rounded_rectangle(off(box), radius=14, fill=st.light, outline=st.colour, width=7)
    for seat, box in geo["scenery"]:
        x0, y0, x1, y1 = off(_inner(box))
        patch = Image.new("RGB", (x1 - x0, y1 - y0), SCENERY)
        pd = ImageDraw.Draw(patch)
        for t in range(0, (x1 - x0) + (y1 - y0), 22):
            pd.line([(t, 0), (0, t)], fill=mix(SCENERY, WHITE, 0.3), width=4)
        mask = Image.new("L", patch.size, 0)
        ImageDraw.Draw(mask).rounded_rectangle((0, 0, patch.width - 1, patch.height - 1), radius=12, fill=255)
        im.paste(patch, (x0, y0), mask)
    nodes = {n: dict(v) for n, v in nodes_json}

    def c(node):
        x, y = _centre(geo["nodes"][node])
        return (x, y - top)

    for node, side, seat in geo["stubs"]:
        x, y = c(node)
        sb = off(geo["sheets"][seat])
        end = {"N": (x, sb[1] + 4), "S": (x, sb[3] - 4), "W": (sb[0] + 4, y), "E": (sb[2] - 4, y)}[side]
        d.line([(x, y), end], fill=ROAD, width=10)
        d.line([end, end], fill=ROAD, width=10)
    join_set = {tuple(sorted(j)) for j in joins}
    for a, b in roads:
        if tuple(sorted((a, b))) in join_set:
            continue
        d.line([c(a), c(b)], fill=ROAD, width=10)
    for a, b in joins:
        path = [(x, y - top) for x, y in _join_path(geo, a, b)]
        d.line(path, fill=ROAD, width=18, joint="curve")
        d.line(path, fill=PAPER, width=6, joint="curve")
    for node, box in geo["nodes"].items():
        if nodes.get(node, {}).get("camp"):
            continue
        d.rounded_rectangle(off(_inner(box)), radius=14, fill=AREA, outline=AREA_EDGE, width=3)
    canvas = _p(im)
    for node, box in geo["nodes"].items():
        x0, y0, x1, y1 = off(_inner(box))
        if nodes.get(node, {}).get("camp"):
            seat = nodes[node]["seat"]
            sprite, mask = tent_sprite(seat, player_style(seat).light)
            if kind == "two":   # the tent on the left, hunters beside it
                canvas.paste(sprite, (x0 + 10, round((y0 + y1) / 2 - sprite.height / 2)), mask)
            else:
                canvas.paste(sprite, (round((x0 + x1) / 2 - sprite.width / 2), y0 + 2), mask)
        else:
            paste_text(canvas, (x0 + 10, y0 + 26), node, INK, AREA)
    return canvas


@lru_cache(maxsize=8)
def tent_sprite(seat: int, background: tuple, size: int = 96) -> tuple[Image.Image, Image.Image]:
    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        s = size * k
        _tent(d, s / 2, s * 0.52, s * 0.92, seat, k)

    return _sprite((size, size), paint, background)


# ---- the dynamic layers ---------------------------------------------------------------------------------
def _area_slots(box, kind: str, n_monsters: int, n_hunters: int, chip_ws: list[int], camp: bool):
    """Where the chips and the hunters of one area go (top-left corners)."""
    x0, y0, x1, y1 = _inner(box)
    chips = []
    if kind == "two":   # one monster at most, two hunters at most: side by side under the id
        x = x0 + 8
        for w in chip_ws:
            chips.append((x, y0 + 56))
            x += w + 6
        if camp:   # beside the tent
            hx, hy = x0 + 118, y0 + (y1 - y0 - TOKEN) // 2
        else:
            hx, hy = max(x + 4, x0 + 8 + CHIP_W + 10), y0 + 58
        pitch = min(TOKEN + 2, max(20, (x1 - 6 - TOKEN - hx) // max(1, n_hunters - 1)))
        return chips, [(hx + i * pitch, hy) for i in range(n_hunters)]
    for i, w in enumerate(chip_ws):
        chips.append((x0 + 6, y0 + 48 + i * (CHIP_H + 4)))
    if camp:
        hx, hy = x0 + 6, y1 - TOKEN - 4
        pitch = min(TOKEN + 2, (x1 - x0 - 12 - TOKEN) // max(1, n_hunters - 1))
        return chips, [(hx + i * pitch, hy) for i in range(n_hunters)]
    if chip_ws:   # a column on the right, under the hunt order badge
        hx = x1 - TOKEN - 4
        room = y1 - 4 - (y0 + 56)
        pitch = min(TOKEN + 2, (room - TOKEN) // max(1, n_hunters - 1))
        return chips, [(hx, y0 + 56 + i * pitch) for i in range(n_hunters)]
    pitch = min(TOKEN + 2, (x1 - x0 - 12 - TOKEN) // max(1, n_hunters - 1))
    return chips, [(x0 + 6 + i * pitch, y1 - TOKEN - 6) for i in range(n_hunters)]


def _hunt_marks(view: dict) -> dict[str, dict]:
    out = {}
    for a in (view.get("hunt") or {}).get("areas", ()):
        out[a["area"]] = a
    return out


def _last_marks(view: dict) -> dict:
    marks = {"moves": [], "hit": set(), "burst": set(), "dead": []}
    for e in view.get("last") or ():
        t = e.get("type")
        if t == "moved" and e.get("start") and e.get("dest") and e["start"] != e["dest"]:
            marks["moves"].append((e["seat"], e["start"], e["dest"]))
        elif t in ("hit", "flipped", "monster_attack"):
            marks["hit"].add(e.get("id"))
        elif t == "interrupt":
            marks["burst"].add(e.get("id"))
        elif t in ("killed", "captured") and e.get("area"):
            marks["dead"].append((e["id"], e["area"], e.get("monster_card")))
    return marks


def _decision_marks(view: dict) -> tuple[set, set]:
    me = view.get("me") or {}
    dec = me.get("decision") or {}
    areas, monsters = set(), set()
    if dec.get("area"):
        areas.add(dec["area"])
    for group in (view.get("keep") or {}).get("groups", ()):   # survivors waiting for their owner's choice
        if not group.get("answered"):
            monsters.update(group.get("monsters") or ())
    for key in ("target", "monster"):
        v = dec.get(key)
        if isinstance(v, int):
            monsters.add(v)
        elif isinstance(v, str) and v[:1] == "m" and v[1:].isdigit():
            monsters.add(int(v[1:]))
    return areas, monsters


def _outline(d: ImageDraw.ImageDraw, box, width: int = 6) -> None:
    pal = palette()
    x0, y0, x1, y1 = box
    d.rounded_rectangle((x0 - 2, y0 - 2, x1 + 2, y1 + 2), radius=10, outline=pal.index(INK), width=width + 4)
    d.rounded_rectangle((x0, y0, x1, y1), radius=9, outline=pal.index(HIGHLIGHT), width=width)


def _draw_map(canvas: Image.Image, view: dict, key: tuple, last: bool) -> None:
    m = view["map"]
    geo = geometry(key)
    kind = key[0]
    top = PAD + HEADER_H
    layer = map_layer(key, tuple(sorted((n, _freeze(v)) for n, v in m["nodes"].items())),
                      tuple(tuple(r) for r in m["roads"]), tuple(tuple(j) for j in m["joins"]))
    canvas.paste(layer, (0, top))
    pal = palette()
    d = ImageDraw.Draw(canvas)
    hunt = _hunt_marks(view)
    marks = _last_marks(view) if last else {"moves": [], "hit": set(), "burst": set(), "dead": []}
    dec_areas, dec_monsters = _decision_marks(view)
    viewer = view.get("viewer")
    by_area: dict[str, list[dict]] = {}
    for mon in view.get("monsters") or ():
        by_area.setdefault(mon["area"], []).append(mon)
    hunters: dict[str, list[dict]] = {}
    for s in view.get("seats") or ():
        if s.get("pos") and not s.get("retired"):
            hunters.setdefault(s["pos"], []).append(s)
    dead_by_area: dict[str, list] = {}
    for mid, area, cid in marks["dead"]:
        dead_by_area.setdefault(area, []).append((mid, cid))
    # hunt overlay under the tokens: borders of running / frozen areas
    for area, a in hunt.items():
        if area not in geo["nodes"] or a.get("done"):
            continue
        box = _inner(geo["nodes"][area])
        if a.get("frozen"):
            _hatched_border(d, box)
        else:
            _outline(d, box)
    for area in dec_areas:
        if area in geo["nodes"]:
            _outline(d, _inner(geo["nodes"][area]), width=10)
    current = {a.get("current") for a in hunt.values() if a.get("current") and not a.get("done")}
    placed = {}
    tokens_at: dict[int, tuple[float, float]] = {}
    bursts: list[tuple[int, int]] = []
    for node, box in geo["nodes"].items():
        camp = bool(m["nodes"].get(node, {}).get("camp"))
        mons = sorted(by_area.get(node, []), key=lambda x: x["id"])
        dead = dead_by_area.get(node, [])[:max(0, (1 if kind == "two" else 3) - len(by_area.get(node, [])))]
        chip_ws = [chip_width(x["id"], _health(x)) for x in mons] + [chip_width(mid) for mid, _ in dead]
        here = hunters.get(node, [])
        chips, spots = _area_slots(box, kind, len(chip_ws), len(here), chip_ws, camp)
        placed[node] = (camp, mons, dead, chips, spots, here)
        for (x, y), st in zip(spots, here):
            tokens_at[st["seat"]] = (x + TOKEN / 2, y + TOKEN / 2)
    for seat, (cx, cy) in tokens_at.items():
        if f"s{seat}" in current:   # the current actor: a yellow halo
            r = TOKEN / 2 + 7
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=pal.index(HIGHLIGHT), outline=pal.index(INK), width=3)
    # last moves: arrows in the mover's colour from where the hunter stood to its token (under chips)
    for seat, start, dest in marks["moves"]:
        if start in placed and dest in placed and seat in tokens_at:
            camp, _, _, chips, _, _ = placed[start]
            (sx, sy), = _area_slots(geo["nodes"][start], kind, len(chips), 1, [CHIP_W] * len(chips), camp)[1]
            draw_arrow(d, (sx + TOKEN / 2, sy + TOKEN / 2), tokens_at[seat],
                       fill=pal.index(player_style(seat).colour), outline=pal.index(INK), width=10, head_length=30,
                       head_width=34, shorten=TOKEN / 2 + 2, outline_width=3)
    for node, (camp, mons, dead, chips, spots, here) in placed.items():
        bg = player_style(m["nodes"][node]["seat"]).light if camp else AREA
        note_region(f"area:{node}", "area", _inner(geo["nodes"][node]), area=node, camp=camp,
                    seat=m["nodes"][node].get("seat"), monsters=[x["id"] for x in mons],
                    hunters=[st["seat"] for st in here])
        for (x, y), mon in zip(chips, mons):
            if mon.get("up"):
                chip = ("up", _health(mon))
            elif mon.get("card") and mon.get("hidden") and viewer == mon["seat"]:
                chip = ("hidden", None)
            else:
                chip = ("down", None)
            sprite, mask = chip_sprite(mon["id"], chip[0], chip[1], bg)
            mark = f"m{mon['id']}" in current
            if mark or mon["id"] in marks["hit"] or mon["id"] in dec_monsters:
                _outline(d, (x - 3, y - 3, x + sprite.width + 2, y + sprite.height + 2), width=8 if mark else 5)
            canvas.paste(sprite, (x, y), mask)
            note_region(f"monster:m{mon['id']}", "monster", (x, y, x + sprite.width, y + sprite.height),
                        **_monster_facts(mon, viewer))
            if mon["id"] in marks["burst"]:
                bursts.append((x + sprite.width - 24, y - 26))
        for (x, y), (mid, cid) in zip(chips[len(mons):], dead):
            sprite, mask = chip_sprite(mid, "ghost", None, bg)
            canvas.paste(sprite, (x, y), mask)
        a = hunt.get(node)
        if a is not None and not camp:
            x0, y0, x1, y1 = _inner(geo["nodes"][node])
            sprite, mask = badge_sprite(a["rank"] + 1, AREA, HIGHLIGHT if not a.get("done") and not a.get("frozen")
                                        else WHITE)
            canvas.paste(sprite, (x1 - sprite.width - 8, y0 + 5), mask)
    for node, (camp, mons, dead, chips, spots, here) in placed.items():
        bg = player_style(m["nodes"][node]["seat"]).light if camp else AREA
        for (x, y), s in zip(spots, here):
            own = (not camp) and m["nodes"].get(node, {}).get("seat") == s["seat"]
            sprite, mask = token_sprite(s["seat"], own, bg)
            canvas.paste(sprite, (x, y), mask)
    me = view.get("me") or {}
    dest = me.get("move")
    if viewer is not None and dest in placed and viewer in tokens_at and view.get("phase") == "move":
        # the viewer's own secret destination (its view only): a pale arrow to a free spot there
        camp, _, _, chips, spots, here = placed[dest]
        if (view.get("seats") or [{}] * (viewer + 1))[viewer].get("pos") != dest:
            (hx, hy) = _area_slots(geo["nodes"][dest], kind, len(chips), len(here) + 1, [CHIP_W] * len(chips),
                                   camp)[1][-1]
            style = player_style(viewer)
            (ax, ay), (bx, by) = tokens_at[viewer], (hx + TOKEN / 2, hy + TOKEN / 2)
            gap = (TOKEN / 2 + 2) / max(1.0, math.hypot(bx - ax, by - ay))
            draw_arrow(d, (ax + (bx - ax) * gap, ay + (by - ay) * gap), (bx, by), fill=pal.index(style.light),
                       outline=pal.index(style.dark), width=12, head_length=32, head_width=38, shorten=TOKEN / 2 + 2,
                       outline_width=4)
    if bursts:   # interrupts, over everything
        sprite, mask = burst_sprite()
        for x, y in bursts:
            canvas.paste(sprite, (x, y), mask)


def _health(mon: dict) -> int | None:
    """Health left of a face-up monster (None when face down)."""
    return max(0, card(mon["card"])["health"] - mon.get("damage", 0)) if mon.get("up") else None


def _freeze(v):
    return tuple(sorted(v.items())) if isinstance(v, dict) else v


def _hatched_border(d: ImageDraw.ImageDraw, box) -> None:
    pal = palette()
    x0, y0, x1, y1 = box
    d.rounded_rectangle(box, radius=12, outline=pal.index(INK), width=8)
    step = 16
    for x in range(x0, x1, step):
        d.line([(x, y0), (x + 8, y0 + 8)], fill=pal.index(WHITE), width=3)
        d.line([(x, y1 - 8), (x + 8, y1)], fill=pal.index(WHITE), width=3)
    for y in range(y0, y1, step):
        d.line([(x0, y), (x0 + 8, y + 8)], fill=pal.index(WHITE), width=3)
        d.line([(x1 - 8, y), (x1, y + 8)], fill=pal.index(WHITE), width=3)


# ---- header, monster rows, seat rows, hand ------------------------------------------------------------------
def _header(canvas: Image.Image, view: dict) -> None:
    y = PAD + HEADER_H // 2
    x = PAD
    if view.get("turn"):
        x += paste_text(canvas, (x, y), f"T{view['turn']}", INK, PAPER) + 18
    letter = PHASE_LETTER.get(view.get("phase"), "")
    if letter:
        d = ImageDraw.Draw(canvas)
        pal = palette()
        w = text_width(letter) + 20
        d.rounded_rectangle((x, y - 26, x + w, y + 26), radius=8, fill=pal.index(INK))
        paste_text(canvas, (x + 10, y), letter, WHITE, INK)
        x += w + 18


def _shown_monsters(view: dict) -> list[dict]:
    viewer = view.get("viewer")
    return [m for m in sorted(view.get("monsters") or (), key=lambda m: m["id"])
            if m.get("up") or (m.get("hidden") and m.get("card") and viewer == m["seat"])]


def _monster_row(canvas: Image.Image, y: int, mon: dict, lang: str = "en") -> int:
    """One face-up (or the viewer's own hidden) monster in the list under the map: its number,
    name and health, then its numbers on a second line; returns where that line ends."""
    spec = card(mon["card"])
    cy = y + ROW_H // 2
    bg = STRIP_BG
    left = _health(mon) if mon.get("up") else spec["health"]
    sprite, mask = tag_sprite(mon["id"], not mon.get("up"), bg)
    x = PAD + 6
    canvas.paste(sprite, (x, cy - sprite.height // 2), mask)
    x += sprite.width + 12
    indent = x
    x += paste_text(canvas, (x, cy), card_name(spec["id"], lang), INK, bg) + 16
    colour = LIFE if mon.get("up") else INK
    paste_run(canvas, (x, cy), (str(left), f"/{spec['health']}"), colour, bg)
    x, cy = indent, cy + ROW_H - 4
    for icon, value in (("sword", spec["attack"]), ("reach", spec["reach"]), ("star", spec["rank"])):
        x += paste_icon(canvas, icon, x, cy, bg)
        x += paste_text(canvas, (x, cy), str(value), INK, bg) + 10
    if spec["main"]:
        x += paste_icon(canvas, "main", x, cy, bg) + 6
    if spec["unique"]:
        x += paste_icon(canvas, "unique", x, cy, bg) + 6
    if spec["weak"]:
        x += paste_icon(canvas, "weak", x, cy, bg) + 4
        for wtype in spec["weak"]:
            x += paste_icon(canvas, f"weapon:{wtype}", x, cy, bg) + 4
    return x


def _markers(view: dict) -> list[str | None]:
    n = view.get("players", 2)
    outcome = view.get("outcome")
    if outcome:
        if outcome.get("draw") or not outcome.get("winners"):
            return ["draw"] * n
        return ["win" if s in outcome["winners"] else None for s in range(n)]
    out = []
    for s in view.get("seats") or ():
        if s.get("acting"):
            out.append("turn")
        elif (view.get("phase") == "prep" and s.get("done")) or \
                (view.get("phase") == "loadout" and (view.get("loadout_in") or [False] * n)[s["seat"]]) or \
                (view.get("phase") == "move" and (view.get("move_in") or [False] * n)[s["seat"]]):
            out.append("in")
        else:
            out.append(None)
    return out


def _seat_row(canvas: Image.Image, y: int, s: dict, marker: str | None, view: dict) -> None:
    pal = palette()
    d = ImageDraw.Draw(canvas)
    seat = s["seat"]
    style = player_style(seat)
    bg = style.light
    retired = s.get("retired")
    if retired:
        bg = GHOST
    x0, x1 = PAD, WIDTH - PAD
    d.rounded_rectangle((x0, y, x1, y + _seat_h(view) - 6), radius=10, fill=pal.index(bg),
                        outline=pal.index(style.dark if marker in ("turn", "win") else style.colour),
                        width=5 if marker in ("turn", "win") else 2)
    c1, c2 = y + 33, y + 88
    x = x0 + 8
    if marker and not retired:
        canvas.paste(marker_sprite(marker, seat, bg), (x, c1 - 26))
    x += 54
    sprite, mask = token_sprite(seat, False, bg)
    canvas.paste(sprite, (x, c1 - TOKEN // 2 + 2), mask)
    x += TOKEN + 6
    if view.get("phase") == "loadout":   # nothing is dealt yet: who has chosen is all there is
        if s.get("acting"):
            paste_icon(canvas, "waiting", x, c1, bg)
        return
    if view.get("parent") == seat:
        paste_icon(canvas, "parent", x, c1, bg, 44)
    x += 50
    target = (view.get("options") or {}).get("hr_target") or 20
    hr = s.get("hr", 0)
    x += paste_run(canvas, (x, c1), (str(hr), f"/{target}"), INK, bg) + 10
    bar = (x, c1 - 12, x + 120, c1 + 12)
    d.rectangle(bar, fill=pal.index(BAR_BG), outline=pal.index(INK), width=2)
    fill = min(1.0, hr / target) if target else 0
    if fill > 0:
        d.rectangle((bar[0] + 2, bar[1] + 2, bar[0] + 2 + round(116 * fill), bar[3] - 2), fill=pal.index(style.colour))
    x += 132
    for i in range(3):
        sp, mk = pip_sprite(i < s.get("retreats", 0), bg)
        canvas.paste(sp, (x, c1 - 19), mk)
        x += 42
    x += 8
    if s.get("acting") and not view.get("outcome"):
        paste_icon(canvas, "waiting", x, c1, bg)
    x = x1 - 8
    hand = s.get("hand_count", 0)
    x -= paste_text(canvas, (x, c1), str(hand), INK, bg, anchor="rm") + 4
    paste_icon(canvas, "hand", x - ICON, c1, bg)
    # line 2: equipment and stats, then the piles
    x = x0 + 10
    st = s.get("stats")
    if st:
        bonus = s.get("bonus") or {}
        if st.get("type"):   # the equipped weapon's type
            x += paste_icon(canvas, f"weapon:{st['type']}", x, c2, bg) + 10
        x += paste_icon(canvas, "sword", x, c2, bg) + 2
        atk = (str(st["attack"]),) + ((f"+{bonus['attack']}",) if bonus.get("attack") else ())
        x += paste_run(canvas, (x, c2), atk, INK, bg) + 14
        x += paste_icon(canvas, "move", x, c2, bg) + 2
        x += paste_text(canvas, (x, c2), str(st["move"]), INK, bg) + 14
        x += paste_icon(canvas, "reach", x, c2, bg) + 2
        x += paste_text(canvas, (x, c2), str(st["reach"]), INK, bg) + 14
        x += paste_icon(canvas, "shield", x, c2, bg) + 2
        dfc = (str(st.get("defence", 0)),) + ((f"+{bonus['defence']}",) if bonus.get("defence") else ())
        x += paste_run(canvas, (x, c2), dfc, INK, bg) + 12
    x = x1 - 8
    mat = sum(card(c).get("material", 0) for c in s.get("material") or ())
    for icon, value in (("material", mat), ("discard", len(s.get("discard") or ())), ("deck", s.get("deck_count", 0))):
        x -= paste_text(canvas, (x, c2), str(value), INK, bg, anchor="rm") + 2
        x -= ICON + 8
        paste_icon(canvas, icon, x + 4, c2, bg)
        x -= 10
    if retired:
        d.line([(x0 + 8, y + 8), (x1 - 8, y + SEAT_H - 14)], fill=pal.index(INK), width=5)


def _seat_h(view: dict) -> int:
    return LOADOUT_SEAT_H if view.get("phase") == "loadout" else SEAT_H


def _hand_tile(canvas: Image.Image, x: int, y: int, cid: str, highlight: bool, lang: str = "en",
               count: int = 0) -> None:
    sprite, mask = hand_sprite(cid, language(lang), count)
    if highlight:
        _outline(ImageDraw.Draw(canvas), (x - 3, y - 3, x + TILE_W + 2, y + TILE_H + 2))
    canvas.paste(sprite, (x, y), mask)


@lru_cache(maxsize=256)
def hand_sprite(cid: str, lang: str = "en", count: int = 0) -> tuple[Image.Image, Image.Image]:
    """A hand card as a row: a band in its kind's colour with its name, then its numbers and
    icons (6.2), each number after its icon. With a ``count`` (a deck list) the band is only as
    wide as the name and the count ends the row ("x2")."""
    spec = card(cid)
    kind = spec["kind"]
    name = card_name(cid, lang)
    band_w = text_width(name) + 28 if count else NAME_W

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        W, H = TILE_W * k, TILE_H * k
        d.rounded_rectangle((0, 0, W - 1, H - 1), radius=10 * k, fill=WHITE, outline=INK, width=3 * k)
        band = KIND_BAND[kind]
        d.rounded_rectangle((3 * k, 3 * k, band_w * k, H - 3 * k), radius=8 * k, fill=band)
        draw_text(d, (14 * k, H / 2), name, TEXT * k, KIND_INK[kind], anchor="lm", bold=True)
        if count:
            draw_text(d, (W - 12 * k, H / 2), f"x{count}", TEXT * k, INK, anchor="rm", bold=True)
        s = ICON * k
        cy = H / 2
        at = [(band_w + 10) * k]   # where the next icon goes

        def txt(t, colour=INK):
            draw_text(d, (at[0], cy), t, TEXT * k, colour, anchor="lm", bold=True)
            at[0] += (text_width(t) + 10) * k

        def icon(painter, value=None, colour=INK):
            painter(at[0] + s / 2, cy)
            at[0] += s + 4 * k
            if value is None:
                at[0] += 6 * k
            else:
                txt(value, colour)

        sword = lambda x, y: _sword(d, x, y, s, (230, 230, 240), k)  # noqa: E731
        reach = lambda x, y: _arrow_icon(d, x, y, s * 0.92, SWORD, k)  # noqa: E731
        move = lambda x, y: _boot(d, x, y, s, k)  # noqa: E731
        cost = lambda x, y: _fang(d, x, y, s, k)  # noqa: E731
        if kind == "monsters":
            icon(sword, str(spec["attack"]))
            icon(reach, str(spec["reach"]))
            icon(lambda x, y: _star(d, x, y, s, STAR, k), str(spec["rank"]))
            txt(str(spec["health"]), LIFE)
            if spec["main"]:
                icon(lambda x, y: _ring(d, x, y, s, k))
            if spec["unique"]:
                icon(lambda x, y: _crown(d, x, y, s, k))
        elif kind == "weapons":
            icon(lambda x, y: _weapon_icon(d, spec["type"], x, y, s, k))
            icon(sword, str(spec["attack"]))
            icon(move, str(spec["move"]))
            icon(reach, str(spec["reach"]))
            icon(cost, str(spec["cost"]))
        elif kind == "armours":
            icon(lambda x, y: _shield(d, x, y, s, (200, 230, 215), k), str(spec["defence"]))
            icon(cost, str(spec["cost"]))
        elif kind == "items":
            for pic in spec["icons"]:
                icon(lambda x, y, pic=pic: _item_icon(d, pic, x, y, s * 0.92, k))
            eff = spec["effect"]
            sign = "+" if eff["kind"] in ("attack_up", "defence_up", "draw") else ""
            at[0] += 8 * k
            icon(lambda x, y: _effect_icon(d, eff["kind"], x, y, s * 0.92, k), f"{sign}{eff['n']}" if "n" in eff else None)
        else:   # a hunter (the loadout's offer)
            icon(sword, str(spec["attack"]))
            icon(move, str(spec["move"]))
            icon(reach, str(spec["reach"]))

    return _sprite((TILE_W, TILE_H), paint, PAPER)


# ---- the whole image ----------------------------------------------------------------------------------------
def _hand(view: dict) -> list[str]:
    me = view.get("me")
    if view.get("viewer") is None or not me:
        return []
    return list(me.get("hand") or ())


HAND_COLS = (WIDTH - 2 * PAD + 8) // (TILE_W + 8)


OFFER_LINE = 54                   # a sheet's name in the loadout board's list of what is on offer


def _offer_height(view: dict) -> int:
    """The loadout board's list of the hunters and sheets on offer (``on_offer``)."""
    offer = view.get("on_offer") if view.get("phase") == "loadout" else None
    if not offer:
        return 0
    return len(offer["hunters"]) * (TILE_H + 8) + len(offer["sheets"]) * OFFER_LINE + 24


def layout_heights(view: dict) -> tuple[int, int, int, int]:
    """(map or the loadout's offer, monster rows, seat rows, hand) heights."""
    m = view.get("map")
    map_h = map_height(m["kind"]) + 14 if m else _offer_height(view)
    rows = len(_shown_monsters(view)) * MON_ROW_H + (10 if _shown_monsters(view) else 0)
    seats = len(view.get("seats") or ()) * _seat_h(view)
    hand = _hand(view)
    hand_h = (math.ceil(len(hand) / HAND_COLS) * (TILE_H + 8) + 12) if hand else 0
    return map_h, rows, seats, hand_h


def _draw_offer(canvas: Image.Image, y: int, offer: dict, lang: str) -> None:
    """The loadout board: every hunter on offer as its card (name, attack, movement, reach), then
    the names of the sheets on offer (each player's panel draws them)."""
    for cid in offer["hunters"]:
        _hand_tile(canvas, PAD, y, cid, False, lang)
        y += TILE_H + 8
    y += 8
    for layout in offer["sheets"]:
        paste_text(canvas, (PAD + 14, y + OFFER_LINE / 2), sheet_name(offer["kind"], layout, lang), INK, PAPER)
        y += OFFER_LINE


def render_image(view: dict, *, last: bool = True, viewer_seat: int | None = None, lang: str = "en") -> Image.Image:
    """The board (and a seat's hand under it, in that seat's view) as a 'P'-mode image, its names
    in ``lang``; ``viewer_seat`` turns the map so that seat's sheet is at the bottom."""
    lang = language(lang)
    map_h, rows_h, seats_h, hand_h = layout_heights(view)
    height = PAD + HEADER_H + map_h + rows_h + seats_h + hand_h + PAD
    canvas = Image.new("P", (WIDTH, height), palette().index(PAPER))
    canvas.putpalette(palette().image.getpalette())
    _header(canvas, view)
    key = _map_key(view, viewer_seat)
    if key:
        _draw_map(canvas, view, key, last)
    elif map_h:
        _draw_offer(canvas, PAD + HEADER_H, view["on_offer"], lang)
    y = PAD + HEADER_H + map_h
    shown = _shown_monsters(view)
    if shown:
        d = ImageDraw.Draw(canvas)
        d.rounded_rectangle((PAD, y, WIDTH - PAD, y + rows_h - 10), radius=10, fill=palette().index(STRIP_BG))
        for i, mon in enumerate(shown):
            _monster_row(canvas, y + i * MON_ROW_H, mon, lang)
            note_region(f"monster:m{mon['id']}", "monster", (PAD, y + i * MON_ROW_H, WIDTH - PAD, y + (i + 1) * MON_ROW_H),
                        **_monster_facts(mon, view.get("viewer")))
        y += rows_h
    marks = _markers(view)
    for s in view.get("seats") or ():
        _seat_row(canvas, y, s, marks[s["seat"]] if s["seat"] < len(marks) else None, view)
        y += _seat_h(view)
    hand = _hand(view)
    if hand:
        y += 6
        dec = ((view.get("me") or {}).get("decision") or {})
        hi = {dec.get("card")} if isinstance(dec.get("card"), str) else set()
        for i, cid in enumerate(hand):
            r, c = divmod(i, HAND_COLS)
            _hand_tile(canvas, PAD + c * (TILE_W + 8), y + r * (TILE_H + 8), cid, cid in hi, lang)
            x0, y0 = PAD + c * (TILE_W + 8), y + r * (TILE_H + 8)
            note_region(f"card:{cid}", "card", (x0, y0, x0 + TILE_W, y0 + TILE_H), card=cid)
    return canvas


def _monster_facts(mon: dict, viewer: int | None) -> dict:
    """What the picture shows of a monster: its card only when face up or the viewer's own."""
    shown = mon.get("up") or (mon.get("hidden") and mon.get("card") and viewer == mon["seat"])
    facts = {"id": mon["id"], "area": mon["area"], "seat": mon["seat"], "up": bool(mon.get("up"))}
    if shown:
        facts.update(card=mon["card"], health=_health(mon) if mon.get("up") else card(mon["card"])["health"])
    return facts


def warm() -> None:
    """Build the palette and the common sprites now rather than on the first boards: every hand
    card, chips and tags for the usual instance numbers and healths, numbers on every row colour,
    and a few whole boards (their map layers and icons)."""
    from games import get_game
    from games.ai import choose_action
    from games.monsterhunter.cards import card_index
    from games.rng import Rng

    for cid in card_index():   # the hunters too: the loadout panel shows them
        for lang in ("en", "ja"):
            hand_sprite(cid, lang, 0)
    for mid in range(1, 41):
        chip_sprite(mid, "down", None, AREA)
        chip_sprite(mid, "hidden", None, AREA)
        tag_sprite(mid, False, STRIP_BG)
        tag_sprite(mid, True, STRIP_BG)
        for health in range(0, 13):
            chip_sprite(mid, "up", health, AREA)
    rows = [STRIP_BG, GHOST] + [player_style(seat).light for seat in range(4)]
    for bg in rows:
        for n in range(0, 61):
            text_sprite(str(n), INK, bg)
        for n in range(0, 41):
            text_sprite(f"/{n}", INK, bg)
        for n in range(0, 13):
            text_sprite(f"+{n}", INK, bg)
    for n in range(0, 21):
        text_sprite(str(n), LIFE, STRIP_BG)
        text_sprite(f"/{n}", LIFE, STRIP_BG)
    _warm_more(rows)
    for cid, spec in card_index().items():   # the monster rows' names
        if spec["kind"] == "monsters":
            for lang in ("en", "ja"):
                text_sprite(card_name(cid, lang), INK, STRIP_BG)
    game = get_game(GAME_NAME)
    for players in (2, 3, 4):
        state, rng = game.setup(players, {}, players), Rng(players)
        for _ in range(150):
            if game.outcome(state) is not None:
                break
            seat = min(game.to_act(state))
            state, _ = game.apply(state, seat, choose_action(game, state, seat, rng))
        render_image(game.view(state, None))
        render_image(game.view(state, 0))


# The cached builders warm() fills for every board and panel at the default options (and turns up
# to WARM_TURNS): no such picture misses them afterwards (tests/test_renderers.py checks it). Not
# the map layer: each game's map (and each side it is seen from) is drawn on its first board.
WARMED = (palette, hand_sprite, tag_sprite, chip_sprite, text_sprite, icon_sprite, token_sprite, badge_sprite,
          marker_sprite, pip_sprite, burst_sprite, tent_sprite)


WARM_TURNS = 60   # turn numbers drawn ahead ("T1".."T60"; a longer game draws the rest once)


def _warm_more(rows: list[tuple]) -> None:
    """The rest of what boards and panels need beside the numbers: the header's turn and phase,
    the loadout's sheets and their labels, markers, icons (weapon types and weaknesses among
    them), tokens, pips, hunt badges, killed monsters' chips and the interrupt burst."""
    for n in range(1, WARM_TURNS + 1):
        text_sprite(f"T{n}", INK, PAPER)
    for letter in PHASE_LETTER.values():
        if letter:
            text_sprite(letter, INK, PAPER)    # its width (text_width)
            text_sprite(letter, WHITE, INK)
    for kind, seats in (("two", range(2)), ("ring", range(4))):
        for layout in sheets(kind):
            for seat in seats:
                sheet_sprite(kind, layout, seat)
            for lang in ("en", "ja"):
                text_sprite(sheet_name(kind, layout, lang), INK, PAPER)
    for seat in range(4):
        light = player_style(seat).light
        for kind in ("turn", "in", "win", "draw"):
            marker_sprite(kind, seat, light)
        icon_sprite("parent", 44, light)
        tent_sprite(seat, light)
        for hollow in (False, True):
            for bg in (AREA, GHOST, light):
                token_sprite(seat, hollow, bg)
    for bg in rows:
        for name in ("sword", "move", "reach", "star", "shield", "weak", "main", "unique", "deck", "hand", "discard",
                     "material", "waiting") + tuple(f"weapon:{t}" for t in WEAPON_TYPES):
            icon_sprite(name, ICON, bg)
        for used in (False, True):
            pip_sprite(used, bg)
    for number in range(1, 13):
        for fill in (HIGHLIGHT, WHITE):
            badge_sprite(number, AREA, fill)
    for mid in range(1, 41):
        chip_sprite(mid, "ghost", None, AREA)
    burst_sprite()


@register(GAME_NAME)
def render(view: dict, *, last: bool = True, viewer_seat: int | None = None, lang: str = "en") -> bytes:
    """PNG bytes of the Monster Hunter board (public, or a seat's panel with its hand) for a
    ``view(state, seat)`` dict, its names in ``lang``."""
    return png_bytes(render_image(view, last=last, viewer_seat=viewer_seat, lang=lang))


# ---- a seat's panel at the loadout: the hunters and sheets it may pick --------------------------------------
SHEET_LABEL_H = 56                # the name above each sheet on offer


@lru_cache(maxsize=32)
def sheet_sprite(kind: str, layout: str, seat: int) -> Image.Image:
    """One sheet alone, drawn by the map layer itself (areas with the ids they will have on the map,
    the camp's tent, roads, scenery, every connector as a stub), in the seat's colours."""
    key = (kind, ((seat, layout, False, "P", 0),))
    spec = sheets(kind)[layout]
    letter = "abcd"[seat]
    nodes = tuple(sorted((f"{letter}{n}", _freeze({"seat": seat, "camp": True} if n == "0" else {"seat": seat}))
                         for n in spec["cells"]))
    roads = tuple(tuple(sorted((f"{letter}{a}", f"{letter}{b}"))) for a, b in spec["roads"])
    layer = map_layer.__wrapped__(key, nodes, roads, ())   # not the maps' cache: these never change
    x0, y0, x1, y1 = geometry(key)["sheets"][seat]
    top = PAD + HEADER_H
    return layer.crop((x0 - 2, y0 - top - 2, x1 + 2, y1 - top + 2))


def _loadout_offer(view: dict) -> tuple[str, list[str], list[str], bool, dict | None] | None:
    """(sheet kind, hunters, sheets, flip allowed, the seat's pick or None) for the picture."""
    me = view.get("me") or {}
    offer, pick = me.get("offer"), me.get("loadout")
    if offer:
        return offer["kind"], list(offer["hunters"]), list(offer["sheets"]), bool(offer["flip"]), None
    if pick:   # already picked: the picture shows the pick (the map is built when everyone has)
        kind = "two" if pick["sheet"].startswith("2") else "ring"
        return kind, [pick["hunter"]], [pick["sheet"]], False, pick
    return None


def loadout_heights(kind: str, n_hunters: int, n_sheets: int) -> tuple[int, int]:
    """(hunter rows, sheet rows) heights of the loadout picture."""
    hunters = math.ceil(n_hunters / HAND_COLS) * (TILE_H + 8) + 12
    cw, ch = _cell_size(kind)
    per_row = 1 if kind == "two" else 2
    sheet_h = (3 if kind == "two" else 2) * ch + 4
    return hunters, math.ceil(n_sheets / per_row) * (SHEET_LABEL_H + sheet_h + 12)


def render_loadout_image(view: dict, lang: str = "en") -> Image.Image | None:
    """A seat's loadout panel (6.2 at step L): every hunter on offer as its card (name, attack,
    move, reach), then every sheet on offer drawn as the map draws it, under its name; a pick
    already made is outlined. None when the view has nothing to pick (a spectator)."""
    found = _loadout_offer(view)
    if found is None or view.get("viewer") is None:
        return None
    kind, hunters, layouts, flip, pick = found
    seat = view["viewer"]
    hunters_h, sheets_h = loadout_heights(kind, len(hunters), len(layouts))
    canvas = Image.new("P", (WIDTH, PAD + HEADER_H + hunters_h + sheets_h + PAD), palette().index(PAPER))
    canvas.putpalette(palette().image.getpalette())
    _header(canvas, view)
    y = PAD + HEADER_H
    for i, cid in enumerate(hunters):
        r, c = divmod(i, HAND_COLS)
        _hand_tile(canvas, PAD + c * (TILE_W + 8), y + r * (TILE_H + 8), cid, bool(pick) and pick["hunter"] == cid, lang)
        x0, y0 = PAD + c * (TILE_W + 8), y + r * (TILE_H + 8)
        note_region(f"hunter:{cid}", "hunter", (x0, y0, x0 + TILE_W, y0 + TILE_H), card=cid)
    y += hunters_h
    d = ImageDraw.Draw(canvas)
    per_row = 1 if kind == "two" else 2
    for i, layout in enumerate(layouts):
        sprite = sheet_sprite(kind, layout, seat)
        r, c = divmod(i, per_row)
        x = PAD + c * (sprite.width + GAP - 4)
        top = y + r * (SHEET_LABEL_H + sprite.height + 12)
        paste_text(canvas, (x + 8, top + SHEET_LABEL_H // 2), sheet_name(kind, layout, lang), INK, PAPER)
        canvas.paste(sprite, (x, top + SHEET_LABEL_H))
        note_region(f"sheet:{layout}", "sheet", (x, top, x + sprite.width, top + SHEET_LABEL_H + sprite.height),
                    sheet=layout, flip=flip)
        if pick and pick["sheet"] == layout:
            _outline(d, (x + 2, top + SHEET_LABEL_H + 2, x + sprite.width - 3, top + SHEET_LABEL_H + sprite.height - 3))
    return canvas


@register_panel(GAME_NAME)
def render_panel(view: dict, *, last: bool = True, lang: str = "en") -> bytes:
    """A seat's private panel picture: at the loadout the hunters and sheets to choose from, later
    the board with the seat's hand (:func:`render`); names in ``lang``."""
    if view.get("phase") == "loadout":
        image = render_loadout_image(view, language(lang))
        if image is not None:
            return png_bytes(image)
    return render(view, last=last, lang=lang)


# ---- a deck list (``/deck show``) -------------------------------------------------------------------------
@register_deck(GAME_NAME)
def render_deck(cards: list[tuple[str, int]], lang: str = "en") -> bytes:
    """Every distinct card of a deck as its hand row (names in ``lang``), its count at the row's
    right end."""
    height = PAD + max(1, len(cards)) * (TILE_H + 8) + PAD
    canvas = Image.new("P", (WIDTH, height), palette().index(PAPER))
    canvas.putpalette(palette().image.getpalette())
    for i, (cid, count) in enumerate(cards):
        y = PAD + i * (TILE_H + 8)
        _hand_tile(canvas, PAD, y, cid, False, lang, count)
    return png_bytes(canvas)
