"""Every board reads on a phone (issue #31, part 3). Drawn 400 px wide, as a phone shows a
posted image: every text and every measured glyph is at least 16 px tall; no piece covers the
name of a square or hex; every piece sits inside its own square or hex; inside a sprite no text
is overlapped by another text or symbol, nor cut off at the sprite's edge; texts pasted side by
side on a board keep a space between them.

What is measured is what was drawn, not the font sizes in the code: while
``renderers.common.recording()`` is open, every ``ImageDraw.text`` call reports its ink box
(``textbbox`` with its stroke), measured symbols report the pixels they changed (``glyph_box``)
or their ink (``note_ink``), and the renderers note each board's pieces, square or hex names and
cells in board pixels as they compose it. So a word of lowercase letters such as "ace" is as
tall as its x-height, a "=" only as tall as its bars, a flat "1" shorter than a round "0".
Symbols still reported by a declared height (``note_glyph``) are checked at that height.

Positions are the fullest ones seeded play reaches (the most pieces, tiles, gems, monsters and
last-turn marks), for every player count: public boards, one drawn from the last seat's side,
and the acting seat's private view (its panel where the game draws one).
"""

from __future__ import annotations

import json

import pytest
from PIL import Image, ImageChops, ImageDraw

from games import get_game
from renderers import arena, common, hostile, monsterhunter, osu, squaresiv
from renderers.common import Drawn, player_style, recording
from renderers.labels import card_name, drawable_texts, skill_name
from tests.playouts import random_states

PHONE = 400
FLOOR = 16.0

MODULES = {"squares": squaresiv, "arena": arena, "osu": osu, "hostile": hostile, "monsterhunter": monsterhunter}
# Boards that write names (renderers.labels) are drawn in each language: Japanese has a font of its own.
SPEAKING = ("hostile", "monsterhunter")
# Games whose boards are squares or hexes with names: their pieces and names are checked too.
CELL_GAMES = ("squares", "arena", "osu", "hostile")


# ---- positions --------------------------------------------------------------------------------
def _adjacent(a: str, b: str) -> bool:
    (q0, r0), (q1, r1) = arena.axial(a), arena.axial(b)
    return common.hex_distance((q0, r0), (q1, r1)) == 1


def fullness(name: str, view: dict) -> tuple:
    """How much a public view gives the renderer to draw (bigger: fuller)."""
    last = view.get("last") or {}
    if name == "squares":
        return (len(view["board"]), sum(len(h) for h in view["hands"]))
    if name == "arena":
        a, b = (f["hex"] for f in view["figures"])
        return (_adjacent(a, b), len(last.get("clashes", ())) + len(last.get("shoves", ())),
                sum(bool(f.get("can_charge")) + bool(f.get("back_blocked")) for f in view["figures"]))
    if name == "osu":
        return (sum(len(c) for c in view.get("captured") or ()), len(view["tiles"]), len(last.get("path") or ()))
    if name == "hostile":
        return (len(view.get("tiles") or ()) + len(view.get("gems") or {}) + sum(map(len, view.get("hands") or ())),
                len(last.get("path") or ()))
    return (len(view.get("monsters") or ()), len(json.dumps(view)))


def positions(name: str) -> list[tuple[str, dict, dict]]:
    """(what, view, render options): for each player count the two fullest (different) public
    boards of seeded random games, the fullest one drawn from the last seat's side (turned,
    where the game turns boards), and the acting seat's private view of it (its panel where the
    game draws one)."""
    game = get_game(name)
    out = []
    for players in game.player_counts():
        views = {}
        for state in random_states(game, [players], range(1, 9), steps=400):
            views.setdefault(json.dumps(game.view(state, None), sort_keys=True), state)
        states = sorted(views.values(), key=lambda s: fullness(name, game.view(s, None)), reverse=True)
        for rank, state in enumerate(states[:2]):
            out.append((f"{players}p #{rank}", game.view(state, None), {}))
        state = states[0]
        out.append((f"{players}p from seat {players - 1}'s side", game.view(state, None), {"viewer_seat": players - 1}))
        seat = min(game.to_act(state) or {0})
        out.append((f"{players}p seat {seat}'s view", game.view(state, seat), {"panel": True}))
        if name == "monsterhunter":   # the hunter and sheet selection: the board and a panel
            start = game.setup(players, game.resolve_options({}, players), players)
            out.append((f"{players}p loadout", game.view(start, None), {}))
            out.append((f"{players}p loadout seat 0", game.view(start, 0), {"panel": True}))
    return out


def clear_caches(module) -> None:
    """Forget every cached sprite and layer of a renderer (and the shared cached helpers), so
    what a record sees is drawn again."""
    for value in list(vars(module).values()) + [common.seat_badge, common.status_marker]:
        if hasattr(value, "cache_clear"):
            value.cache_clear()


def draw(module, view: dict, options: dict, lang: str = "en") -> Image.Image:
    options = dict(options)
    if options.pop("panel", False) and module is monsterhunter:
        image = monsterhunter.render_loadout_image(view, lang)
        if image is not None:
            return image
    if module.__name__.rsplit(".", 1)[-1] in SPEAKING:
        options["lang"] = lang
    return module.render_image(view, **options)


@pytest.fixture(scope="module", params=sorted(MODULES) + [f"{name}:ja" for name in SPEAKING])
def drawn(request):
    """(game, image width, [(what, record of that board)]) with every sprite drawn again (in
    Japanese for "game:ja")."""
    name, _, lang = request.param.partition(":")
    module = MODULES[name]
    boards = positions(name)
    clear_caches(module)
    records, widths = [], set()
    try:
        for what, view, options in boards:
            with recording() as record:
                widths.add(draw(module, view, options, lang or "en").width)
            records.append((what, record))
    finally:
        clear_caches(module)
    assert len(widths) == 1
    return name, widths.pop(), records


# ---- the checks (plain functions over records, so they can be tried on made-up ones) ----------
def too_small(record: list[Drawn], width: int) -> list[tuple[str, str, float]]:
    """Texts and glyphs under the floor once the image is shown PHONE px wide: a text by the
    height of its ink, a glyph by the size it is read at (its height; both sides of a face; the
    length of an arrow), a declared one by the height declared."""
    k = PHONE / width
    return [(d.kind, d.name, round(d.size * k, 1)) for d in record
            if d.kind in ("text", "glyph") and d.size * k < FLOOR - 1e-6]


def overlapping(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def covered_labels(record: list[Drawn]) -> list[tuple[str, str]]:
    """(label, piece) where a piece's box meets the box of a square's or hex's name."""
    labels = [d for d in record if d.kind == "label"]
    pieces = [d for d in record if d.kind == "piece"]
    return [(lab.name, p.name) for lab in labels for p in pieces if overlapping(lab.box, p.box)]


def inside(point, polygon, slack: float = 1.0) -> bool:
    """Whether a point lies in a convex polygon (either winding), ``slack`` px of tolerance."""
    n = len(polygon)
    signs = set()
    for i in range(n):
        (x0, y0), (x1, y1) = polygon[i], polygon[(i + 1) % n]
        cross = (x1 - x0) * (point[1] - y0) - (y1 - y0) * (point[0] - x0)
        length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 or 1.0
        distance = cross / length
        if abs(distance) > slack:
            signs.add(distance > 0)
    return len(signs) <= 1


def strays(record: list[Drawn]) -> list[tuple[str, str]]:
    """(piece, cell) for every piece whose box is not wholly inside its own square or hex."""
    cells = {d.name: d.outline for d in record if d.kind == "cell"}
    out = []
    for p in record:
        if p.kind != "piece":
            continue
        x0, y0, x1, y1 = p.box
        corners = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
        if p.cell not in cells or not all(inside(c, cells[p.cell]) for c in corners):
            out.append((p.name, p.cell))
    return out


def collisions(record: list[Drawn]) -> list[tuple[str, str]]:
    """(text, other) where a text and a measured glyph or another text drawn in the same sprite
    overlap (a text and its own halo, the same text at the same place, do not count)."""
    by_frame: dict[int, list[Drawn]] = {}
    for d in record:
        if d.frame and d.measured and d.kind in ("text", "glyph"):
            by_frame.setdefault(d.frame, []).append(d)
    out = []
    for items in by_frame.values():
        texts = [d for d in items if d.kind == "text"]
        for i, t in enumerate(texts):
            for other in texts[i + 1:] + [d for d in items if d.kind == "glyph"]:
                if other.kind == "text" and other.name == t.name and _same_place(t.box, other.box):
                    continue
                if overlapping(t.box, other.box):
                    out.append((t.name, other.name))
    return out


def cut_off(record: list[Drawn]) -> list[str]:
    """Texts that run over the edge of the sprite they are drawn in (and are cut off there)."""
    frames = {d.frame: d.box for d in record if d.kind == "frame"}
    out = []
    for d in record:
        f = frames.get(d.frame) if d.kind == "text" and d.frame else None
        if f and (d.box[0] < f[0] - 1 or d.box[1] < f[1] - 1 or d.box[2] > f[2] + 1 or d.box[3] > f[3] + 1):
            out.append(d.name)
    return out


def crowded(record: list[Drawn], width: int) -> list[tuple[str, str]]:
    """Pairs of texts pasted onto the board (cached text sprites, noted as "placed") closer than
    a quarter of the floor height once shown PHONE px wide: a space, or they read as one word
    (a text that continues another, such as "/15" after "12", names it as its ``cell``)."""
    gap = FLOOR / 4 * width / PHONE
    placed = [d for d in record if d.kind == "placed"]
    return [(a.name, b.name) for i, a in enumerate(placed) for b in placed[i + 1:]
            if overlapping((a.box[0] - gap, a.box[1], a.box[2] + gap, a.box[3]), b.box)
            and not (b.cell and b.cell == a.name) and not (a.cell and a.cell == b.name)]


def _same_place(a, b) -> bool:
    return abs((a[0] + a[2]) - (b[0] + b[2])) < 2 and abs((a[1] + a[3]) - (b[1] + b[3])) < 2


# ---- the tests ----------------------------------------------------------------------------------------
def test_every_text_and_glyph_is_16px_at_phone_width(drawn):
    name, width, records = drawn
    small = sorted({item for _, record in records for item in too_small(record, width)}, key=lambda x: x[2])
    assert not small, f"{name}: under {FLOOR:g} px when shown {PHONE} px wide: {small[:20]}"


def test_no_piece_covers_a_square_or_hex_name(drawn):
    name, _, records = drawn
    if name not in CELL_GAMES:
        pytest.skip("Monster Hunter's areas are not squares or hexes")
    bad = {(what, lab, piece) for what, record in records for lab, piece in covered_labels(record)}
    assert not bad, sorted(bad)[:20]


def test_every_piece_sits_inside_its_own_square_or_hex(drawn):
    name, _, records = drawn
    if name not in CELL_GAMES:
        pytest.skip("Monster Hunter's areas are not squares or hexes")
    bad = {(what, piece, cell) for what, record in records for piece, cell in strays(record)}
    assert not bad, sorted(bad)[:20]


def test_no_text_is_overlapped_inside_a_sprite(drawn):
    name, _, records = drawn
    bad = {pair for _, record in records for pair in collisions(record)}
    assert not bad, sorted(bad)[:20]


def test_no_text_is_cut_off_at_the_edge_of_its_sprite(drawn):
    _, _, records = drawn
    bad = {text for _, record in records for text in cut_off(record)}
    assert not bad, sorted(bad)[:20]


def test_no_two_texts_overlap_on_the_board(drawn):
    _, width, records = drawn
    bad = {(what, *pair) for what, record in records for pair in crowded(record, width)}
    assert not bad, sorted(bad)[:20]


# What each game must have reported: proof the record sees what these tests are about.
MUST_SEE = {
    "squares": {"label": 10, "cell": 25, "piece": 10},
    "arena": {"label": 19, "cell": 19, "piece": 2},
    "osu": {"label": 12, "cell": 35, "piece": 8},
    "hostile": {"label": 16, "cell": 64, "piece": 10},
}


def test_the_record_sees_names_cells_and_pieces(drawn):
    name, _, records = drawn
    kinds = [d.kind for _, record in records for d in record]
    assert kinds.count("text") > 50
    for kind, least in MUST_SEE.get(name, {}).items():
        most = max(sum(d.kind == kind for d in record) for _, record in records)
        assert most >= least, (kind, most)


# ---- the measure itself ---------------------------------------------------------------------------------------
def test_the_record_measures_drawn_boxes():
    """Text in a supersampled sprite is measured in the sprite's own px; a lowercase word by its
    x-height; a symbol by the pixels it changed; nothing outside a record."""
    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        common.draw_text(d, (30 * k, 20 * k), "0", 30 * k, common.INK)
        common.draw_text(d, (30 * k, 60 * k), "ace", 30 * k, common.INK)
        with common.glyph_box(d, "dot"):
            d.ellipse((10 * k, 80 * k, 30 * k, 90 * k), fill=common.INK)

    with recording() as record:
        common.supersampled((60, 100), paint)
    sprite, zero, ace, dot = record
    assert sprite.kind == "frame" and sprite.box == (0, 0, 60, 100)
    assert sprite.frame == zero.frame == ace.frame == dot.frame > 0
    assert zero.height == pytest.approx(common.font(120).getbbox("0")[3] / 4 - common.font(120).getbbox("0")[1] / 4,
                                        abs=0.5)
    assert ace.height < 0.8 * zero.height
    assert dot.box == pytest.approx((10, 80, 30, 90), abs=0.5)
    with recording() as outer:
        pass
    common.supersampled((60, 100), paint)
    assert outer == []


def test_the_checks_bite():
    hex_cell = Drawn("cell", "c3", (0, 0, 100, 87), outline=((25, 0), (75, 0), (100, 43), (75, 87), (25, 87), (0, 43)))
    label = Drawn("label", "c3", (30, 5, 70, 30))
    on_label = Drawn("piece", "A", (40, 20, 80, 60), cell="c3")
    on_border = Drawn("piece", "B", (60, 30, 110, 60), cell="c3")
    assert covered_labels([hex_cell, label, on_label]) == [("c3", "A")]
    assert strays([hex_cell, on_label, on_border]) == [("B", "c3")]
    assert too_small([Drawn("text", "7", (0, 0, 10, 30)), Drawn("glyph", "g", (0, 0, 40, 31)),
                      Drawn("glyph", "face", (0, 0, 31, 40), read="both"),
                      Drawn("glyph", "arrow", (0, 0, 40, 20), read="length")], 800) == [
        ("text", "7", 15.0), ("glyph", "g", 15.5), ("glyph", "face", 15.5)]
    letter, animal = Drawn("text", "A", (0, 0, 30, 34), frame=3), Drawn("glyph", "mouse", (29, 0, 60, 34), frame=3)
    assert collisions([letter, animal]) == [("A", "mouse")]
    assert collisions([letter, Drawn("glyph", "mouse", (29, 0, 60, 34), frame=4)]) == []


# ---- sprites read back from the PNG, as a person reads them at 400 px (issue #43) -----------------------------
# The records above measure what the renderers say they drew. These decode the posted PNG, shrink
# it to PHONE px wide as a phone does, find each sprite by the colour that tells it from its
# neighbours and measure the box of that colour.
from tests.image_checks import at_width, colour_box  # noqa: E402


def _osu_board(players: int) -> tuple[dict, Image.Image, float]:
    """The fullest OSU board for a player count, as posted and shrunk to PHONE px (with the
    factor from board px to phone px)."""
    game = get_game("osu")
    states = random_states(game, [players], range(1, 5), steps=200)
    view = max((game.view(s, None) for s in states), key=lambda v: len(v["tiles"]))
    image = at_width(osu.render(view), PHONE)
    return view, image, PHONE / osu.WIDTH


ANIMAL_COLOURS = {"mouse": osu.MOUSE, "cat": osu.CAT, "lion": osu.LION_MANE, "monkey": osu.MONKEY}


def read_animal(window: Image.Image) -> tuple[str, tuple[int, int, int, int] | None]:
    """The animal a person sees in a tile's side window: the one whose colour covers most of it,
    and the box of the head (everything in the window that is not its white)."""
    counts = {a: colour_box(window, c, 30)[0] for a, c in ANIMAL_COLOURS.items()}
    animal = max(counts, key=counts.__getitem__)
    head = ImageChops.difference(window, Image.new("RGB", window.size, (255, 255, 255))).convert("L")
    return animal, head.point(lambda v: 255 if v > 60 else 0).getbbox()


@pytest.mark.parametrize("players", [2, 4])
def test_osu_animals_read_back_at_phone_width(players):
    """Every animal on every tile, found in its side third by its colour at 400 px: the animal
    the tile's facing puts there, at least 16 px wide and tall, and unlike its two neighbours."""
    view, image, k = _osu_board(players)
    small, wrong, sizes = [], [], []
    for t in view["tiles"]:
        x0, y0, _, _ = osu.GRID.box(t["square"])
        x0, y0, third = (x0 + osu.INSET) * k, (y0 + osu.INSET) * k, osu.TILE * k / 3
        seen = []
        for side, want in zip(("up", "right", "down", "left"), osu.faces_of(t["rotation"])):
            ox, oy = osu.SIDE_OFFSETS[side]
            left, top = x0 + (1 + ox) * third, y0 + (1 + oy) * third
            window = image.crop((round(left), round(top), round(left + third), round(top + third)))
            animal, box = read_animal(window)
            seen.append(animal)
            if animal != want:
                wrong.append((t["square"], side, want, animal))
            elif box is None or min(box[2] - box[0], box[3] - box[1]) < FLOOR:
                small.append((t["square"], side, animal, box and (box[2] - box[0], box[3] - box[1])))
            else:
                sizes.append(min(box[2] - box[0], box[3] - box[1]))
        assert all(seen[i] != seen[(i + 1) % 4] for i in range(4)), (t["square"], seen)
    assert not wrong, wrong[:10]
    assert not small, small[:10]
    assert len(sizes) >= 4 * 6


def _hostile_boards():
    """HOSTILE views of seeded play with a piece standing on a tile, and with gems on a wall."""
    game = get_game("hostile")
    on_tile, on_wall = [], []
    for state in random_states(game, [2, 4], range(1, 9), steps=200):
        view = game.view(state, None)
        tiles = {t["square"]: t for t in view["tiles"]}
        if any(sq in tiles for sq in view["pos"] if sq) and len(on_tile) < 6:
            on_tile.append(view)
        if any(tiles.get(sq, {}).get("kind") in hostile.WALLS for sq in view["gems"]) and len(on_wall) < 6:
            on_wall.append(view)
    assert on_tile and on_wall
    return on_tile, on_wall


def test_hostile_a_piece_on_a_tile_stands_as_big_as_anywhere():
    """At 400 px a piece on a tile is its seat's colour, as big as the same piece on an empty
    square (not a chip in the corner) and in the middle of the square."""
    on_tile, _ = _hostile_boards()
    k = PHONE / hostile.WIDTH
    for view in on_tile:
        tiles = {t["square"] for t in view["tiles"]}
        empty_view = dict(view, tiles=[])   # the same pieces with no tile under any
        boards = (at_width(hostile.render(view), PHONE), at_width(hostile.render(empty_view), PHONE))
        for seat, sq in enumerate(view["pos"]):
            if sq not in tiles:
                continue
            x0, y0, x1, y1 = (v * k for v in hostile.GRID.box(sq.lower()))
            colour = player_style(seat).colour
            on, bare = (colour_box(b.crop((round(x0), round(y0), round(x1), round(y1))), colour, 40)[1]
                        for b in boards)
            assert on and bare, (sq, seat)
            w, h = on[2] - on[0], on[3] - on[1]
            assert min(w, h) >= FLOOR and w >= 0.9 * (bare[2] - bare[0]), (sq, on, bare)
            middle = ((on[0] + on[2]) / 2, (on[1] + on[3]) / 2)
            assert all(abs(m - (x1 - x0) / 2) < 0.12 * (x1 - x0) for m in middle), (sq, middle)


def test_hostile_gems_leave_a_walls_bars_whole():
    """A wall's closed sides are its black bars: gems on the wall square cover none of their
    pixels (drawn with and without the gems, at 400 px)."""
    _, on_wall = _hostile_boards()
    k = PHONE / hostile.WIDTH
    checked = 0
    for view in on_wall:
        tiles = {t["square"]: t for t in view["tiles"]}
        bare = dict(view, gems={})
        with_gems, without = at_width(hostile.render(view), PHONE), at_width(hostile.render(bare), PHONE)
        for sq in view["gems"]:
            if tiles.get(sq, {}).get("kind") not in hostile.WALLS:
                continue
            box = tuple(round(v * k) for v in hostile.GRID.box(sq.lower()))
            a, b = with_gems.crop(box), without.crop(box)
            bars = [xy for xy in ((x, y) for x in range(b.width) for y in range(b.height))
                    if max(b.getpixel(xy)) < 60]
            covered = [xy for xy in bars if max(a.getpixel(xy)) >= 110]
            assert bars and len(covered) <= 0.02 * len(bars), (sq, tiles[sq], len(covered), len(bars))
            assert colour_box(a, hostile.GEM, 50)[1], (sq, "no gem seen")
            checked += 1
    assert checked


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_monster_hunter_names_read_at_phone_width(lang):
    """Face-up monsters and hand cards by name (issue #43), each name at least 16 px tall at
    400 px: the fullest boards and panels of seeded play, and the loadout's hunters and sheets."""
    boards = positions("monsterhunter")
    clear_caches(monsterhunter)
    names = set(drawable_texts(lang))
    seen, small = set(), []
    try:
        for what, view, options in boards:
            with recording() as record:
                width = draw(monsterhunter, view, options, lang).width
            for d in record:
                if d.kind == "text" and d.name in names:
                    seen.add(d.name)
                    if d.size * PHONE / width < FLOOR:
                        small.append((what, d.name, round(d.size * PHONE / width, 1)))
    finally:
        clear_caches(monsterhunter)
    assert not small, small[:10]
    hunters = {card_name(h, lang) for h in ("H01", "H02", "H03", "H04")}
    assert hunters <= seen and len(seen - hunters) >= 8, sorted(seen)


def _hostile_skill_board() -> tuple[dict, Image.Image]:
    """A HOSTILE board at a skill draft with all seven cards on offer, shrunk to PHONE px."""
    game = get_game("hostile")
    view = game.view(game.setup(2, game.resolve_options({}, 2), 3), None)
    view = dict(view, pool=list(hostile.SKILLS), skills=[None, None], excluded=[], leftovers=[])
    return view, at_width(hostile.render(view), PHONE)


def test_hostile_skill_icons_read_back_at_phone_width():
    """Each skill card found at 400 px where the board puts it: at least 16 px both ways, read
    as itself by its colour (of its colour and the colours of the cards next to it, left, right,
    above and below, its own covers most of it), with
    its name (the rulebook's term) beside it, at least 16 px tall, in the reader's language."""
    view, image = _hostile_skill_board()
    k = PHONE / hostile.WIDTH
    boxes = {}
    for i, skill in enumerate(hostile.SKILLS):
        x, y = hostile.skill_slot(2, i)
        boxes[skill] = tuple(round(v * k) for v in (x, y, x + 54, y + 54))
    for i, skill in enumerate(hostile.SKILLS):
        crop = image.crop(boxes[skill])
        ink = ImageChops.difference(crop, Image.new("RGB", crop.size, hostile.STRIP_BG)).convert("L")
        box = ink.point(lambda v: 255 if v > 40 else 0).getbbox()
        assert box and min(box[2] - box[0], box[3] - box[1]) >= FLOOR, (skill, box)
        row, col = divmod(i, hostile.SKILLS_PER_ROW)
        around = [hostile.SKILLS[j] for j in range(len(hostile.SKILLS)) if j != i and
                  abs(j // hostile.SKILLS_PER_ROW - row) + abs(j % hostile.SKILLS_PER_ROW - col) == 1]
        counts = {other: colour_box(crop, hostile.SKILL_COLOUR[other], 30)[0] for other in [skill] + around}
        read = max(counts, key=counts.__getitem__)   # the colour that covers most of the card
        assert read == skill and counts[skill] >= 12, (skill, counts)
    for lang in ("en", "ja"):
        clear_caches(hostile)
        with recording() as record:
            hostile.render_image(view, lang=lang)
        texts = {d.name: d for d in record if d.kind == "text"}
        for i, skill in enumerate(hostile.SKILLS):
            label = texts.get(skill_name(skill, lang))
            assert label is not None, (lang, skill)
            x, y = hostile.skill_slot(2, i)
            assert label.size * k >= FLOOR, (lang, skill, label.size * k)


def test_arena_facing_pointer_reads_back_at_phone_width():
    """Each figure's facing pointer at 400 px: its seat's colour beyond the token, on the side
    the figure faces (not on either side next to it), at least 16 px by its larger side (as an
    arrow is read)."""
    game = get_game("arena")
    checked = 0
    for state in list(random_states(game, [2], range(1, 4), steps=30))[::5]:
        view = game.view(state, None)
        image = at_width(arena.render(view), PHONE)
        k = PHONE / arena.WIDTH
        for seat, figure in enumerate(view["figures"]):
            cx, cy = arena.centre(figure["hex"])
            colour = player_style(seat).colour
            found = {}
            for facing in range(6):   # the wedge where a pointer facing that way would be, alone
                wedge = Image.new("L", image.size, 0)
                ImageDraw.Draw(wedge).polygon([((cx + x) * k, (cy + y) * k) for x, y in arena.pointer_points(facing)],
                                              fill=255)
                only = Image.composite(image, Image.new("RGB", image.size, (255, 255, 255)), wedge)
                found[facing] = colour_box(only, colour, 45)
            facing = figure["facing"]
            count = found[facing][0]
            # its size: the pointer on its neck, everything of the seat's colour beyond the token
            xs, ys = zip(*arena.pointer_points(facing))
            area = Image.new("L", image.size, 0)
            d = ImageDraw.Draw(area)
            d.rectangle(((cx + min(xs) - 6) * k, (cy + min(ys) - 6) * k, (cx + max(xs) + 6) * k, (cy + max(ys) + 6) * k),
                        fill=255)
            r = arena.TOKEN_R + 3
            d.ellipse(((cx - r) * k, (cy - r) * k, (cx + r) * k, (cy + r) * k), fill=0)
            box = colour_box(Image.composite(image, Image.new("RGB", image.size, (255, 255, 255)), area), colour, 45)[1]
            assert box and max(box[2] - box[0], box[3] - box[1]) >= FLOOR, (figure, box)   # read as an arrow
            for side in ((facing + 1) % 6, (facing + 5) % 6):
                assert found[side][0] < count / 2, (figure, side, found[side][0], count)
            checked += 1
    assert checked >= 4
