"""The games' pieces as small square pictures for the application's own emoji (128 x 128 PNG, as
Discord takes them): each seat's piece, the six dice faces, the kinds of Monster Hunter card, OSU's
animals, HOSTILE's gem and each kind of its tiles, drawn with the same painters as the boards. A picture's name carries a hash of its drawing, so the
bot uploads it again only when the drawing changed (bot/discord_app/emoji.py)."""

from __future__ import annotations

import hashlib
import io
import re
from functools import cache

from PIL import Image, ImageDraw

from .common import INK, draw_shape, player_style
from .hostile import GEM_CARD, GEM_DARK, _paint_gem, _paint_tile
from .monsterhunter import _fang, _item_icon, _shield, _tent, _weapon_icon
from .osu import _draw_animal

SIZE = 128
K = 4  # drawn this many times larger, then reduced: smooth edges at emoji size
PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
        4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
        6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}
CARD_KINDS = {"H": "hunter", "M": "monster", "W": "weapon", "A": "armour", "I": "item"}  # a card id's first letter
CARD_ID = re.compile(r"^[HMWAI]\d{2}$")
ANIMALS = ("mouse", "cat", "lion", "monkey")
# HOSTILE's floor tiles as a hand shows them (first orientation), and the gem tile
TILES = {"slide": "N", "diag": "NE", "spring": "N", "ice": "", "stop": "", "box": "", "lwall": "NE", "para": "NS"}
SEATS = 4  # the pieces drawn: the seats the games' texts mark (OSU's tiles, 4 players at most)


def _picture(paint) -> bytes:
    big = SIZE * K
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    paint(ImageDraw.Draw(image), big)
    out = io.BytesIO()
    image.resize((SIZE, SIZE), Image.LANCZOS).save(out, format="PNG")
    return out.getvalue()


def _piece(seat: int):
    style = player_style(seat)

    def paint(d, big):
        m = big * 0.12
        draw_shape(d, style.shape, (m, m, big - m, big - m), fill=style.colour, outline=INK, width=6 * K)
    return paint


def _die(n: int):
    def paint(d, big):
        m = big * 0.08
        d.rounded_rectangle((m, m, big - m, big - m), radius=big * 0.16, fill=(250, 250, 246), outline=INK,
                            width=6 * K)
        r, step = big * 0.08, big * 0.24
        for dx, dy in PIPS[n]:
            cx, cy = big / 2 + dx * step, big / 2 + dy * step
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=INK)
    return paint


def _card(kind: str):
    def paint(d, big):
        m = big * 0.06
        d.rounded_rectangle((big * 0.14, m, big * 0.86, big - m), radius=big * 0.08, fill=(244, 236, 214),
                            outline=INK, width=5 * K)
        cx, cy, s = big / 2, big / 2, big * 0.55
        if kind == "hunter":
            _tent(d, cx, cy, s, 0, K)
        elif kind == "monster":
            _fang(d, cx, cy, s, K)
        elif kind == "weapon":
            _weapon_icon(d, "gs", cx, cy, s, K)
        elif kind == "armour":
            _shield(d, cx, cy, s, INK, K)
        else:
            _item_icon(d, "medicine", cx, cy, s, K)
    return paint


def _animal(animal: str):
    def paint(d, big):
        _draw_animal(d, animal, big / 2, big / 2, big * 0.46)
    return paint


def _gem(d, big):
    _paint_gem(d, big / 2, big / 2, big * 0.84, K)


def _tile(kind: str):
    def paint(d, big):
        m = big * 0.06
        if kind == "gem":  # a gem tile: the gem on its card, without a square's name
            d.rounded_rectangle((m, m, big - m, big - m), radius=big * 0.12, fill=GEM_CARD, outline=GEM_DARK,
                                width=5 * K)
            _paint_gem(d, big / 2, big / 2, big * 0.6, K)
        else:
            _paint_tile(d, (m, m, big - m, big - m), kind, TILES[kind], K, gates=False)
            clear = (0, 0, 0, 0)  # a wall's hatching runs past its square (the board's neighbours cover it)
            for strip in ((0, 0, big, m - 1), (0, big - m + 1, big, big), (0, 0, m - 1, big), (big - m + 1, 0, big, big)):
                d.rectangle(strip, fill=clear)
    return paint


@cache
def drawings() -> dict[str, bytes]:
    """Every emoji picture by its key (``piece_0``, ``die_6``, ``card_weapon`` ...)."""
    out = {f"piece_{seat}": _picture(_piece(seat)) for seat in range(SEATS)}
    out |= {f"die_{n}": _picture(_die(n)) for n in PIPS}
    out |= {f"card_{kind}": _picture(_card(kind)) for kind in CARD_KINDS.values()}
    out |= {f"animal_{animal}": _picture(_animal(animal)) for animal in ANIMALS}
    out["gem"] = _picture(_gem)
    out |= {f"tile_{kind}": _picture(_tile(kind)) for kind in (*TILES, "gem")}
    return out


def emoji_name(key: str, png: bytes) -> str:
    """The emoji's name on Discord: its key and its drawing's hash (2-32 letters, digits, ``_``)."""
    return f"tt_{key}_{hashlib.sha256(png).hexdigest()[:8]}"[:32]


# Today's Unicode for a picture: where the text shows one of these, the picture may stand instead
UNICODE = {"🟦": "piece_0", "🟧": "piece_1", "🟩": "piece_2", "🟪": "piece_3",  # OSU's tile colours, seats A-D
           "🐭": "animal_mouse", "🐱": "animal_cat", "🦁": "animal_lion", "🐵": "animal_monkey", "💎": "gem",
           **{chr(0x2680 + n - 1): f"die_{n}" for n in PIPS}}  # ⚀ … ⚅
GEM_TILE_CHOICES = ("take_gem", "take_gem_discarded", "home_gem", "gem")  # HOSTILE choices of a gem tile


def key_for(params: dict, key: str = "") -> str | None:
    """The picture that goes beside a choice, from its words (catalogue ``key`` and parameters): a
    Monster Hunter card it names (its id, as in ``card=W04``, or already in words, as
    ``mh.card.W04``) shows its kind; a HOSTILE tile it names (``tile_term``) or a gem tile shows
    that tile."""
    for name in ("card", "hunter", "card_card", "hunter_card"):
        value = params.get(name)
        value = getattr(value, "key", value)  # a card in words: its catalogue key
        if isinstance(value, str):
            card = value.removeprefix("mh.card.")
            if CARD_ID.match(card):
                return f"card_{CARD_KINDS[card[0]]}"
    tile = params.get("tile_term")
    tile = getattr(tile, "key", tile)  # a term in words: ``term.hostile.slide``
    if isinstance(tile, str) and tile.removeprefix("term.hostile.") in TILES:
        return f"tile_{tile.removeprefix('term.hostile.')}"
    if key.startswith("choice.hostile.") and key.removeprefix("choice.hostile.") in GEM_TILE_CHOICES:
        return "tile_gem"
    return None
