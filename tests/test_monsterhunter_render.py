"""The Monster Hunter image (MONSTER_HUNTER.md part 6): the public board and a seat's panel.

Boards come from seeded random playouts (``games.ai.choose_action``) at 2, 3 and 4 players.
"""

from __future__ import annotations

import copy

import pytest
from PIL import Image, ImageDraw

from games import get_game
from games.ai import choose_action
from games.rng import Rng
from renderers import common, monsterhunter, render, renderer_for
from renderers.common import glyph_log, min_glyph_px
from tests.image_checks import decode, differs

GAME = get_game("monsterhunter")


def playout(players: int, seed: int, every: int = 7, limit: int = 3000):
    """(state, seat) pairs along a random game: every ``every`` plies, and the end."""
    state, rng = GAME.setup(players, {}, seed), Rng(seed + 100)
    out = [(state, 0)]
    ply = 0
    while GAME.outcome(state) is None and ply < limit:
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, choose_action(GAME, state, seat, rng))
        ply += 1
        if ply % every == 0:
            out.append((state, seat))
    out.append((state, 0))
    return out


@pytest.fixture(scope="module", params=[2, 3, 4])
def states(request):
    return request.param, playout(request.param, seed=request.param * 11)


def test_registered():
    assert renderer_for("monsterhunter") is monsterhunter.render


def test_boards_decode_for_every_viewer(states):
    players, pairs = states
    phases = set()
    for state, seat in pairs:
        for viewer in (None, seat):
            view = GAME.view(state, viewer)
            phases.add(view["phase"])
            png = render("monsterhunter", view)
            image = decode(png)
            assert image.width == monsterhunter.WIDTH and image.mode == "P"
            assert 200 <= image.height <= 3200
            assert len(png) < 600_000
    assert {"loadout", "prep", "move", "hunt", "over"} <= phases


def test_render_is_deterministic_and_pure(states):
    _, pairs = states
    state, seat = pairs[len(pairs) // 2]
    view = GAME.view(state, seat)
    before = copy.deepcopy(view)
    first = render("monsterhunter", view)
    assert view == before
    assert render("monsterhunter", copy.deepcopy(view)) == first
    for value in vars(monsterhunter).values():
        if hasattr(value, "cache_clear"):
            value.cache_clear()
    assert render("monsterhunter", view) == first


def test_public_image_ignores_hidden_things(states):
    """Re-dealing every hidden thing (hands, decks, face-down cards, pending picks) leaves the
    public image byte for byte the same."""
    players, pairs = states
    for i, (state, _) in enumerate(pairs[::3]):
        public = render("monsterhunter", GAME.view(state, None))
        for r in range(2):
            other = GAME.scramble_hidden(copy.deepcopy(state), None, Rng(1000 * players + 10 * i + r))
            assert render("monsterhunter", GAME.view(other, None)) == public


def test_a_seats_panel_shows_only_its_own_secrets(states):
    """Re-dealing what a seat cannot know leaves that seat's image unchanged."""
    players, pairs = states
    for i, (state, seat) in enumerate(pairs[::3]):
        panel = render("monsterhunter", GAME.view(state, seat))
        other = GAME.scramble_hidden(copy.deepcopy(state), seat, Rng(7000 + 10 * players + i))
        assert render("monsterhunter", GAME.view(other, seat)) == panel


def test_the_panel_shows_the_hand_and_own_hidden_monsters():
    for state, seat in playout(3, seed=5)[3:]:
        view = GAME.view(state, seat)
        if view["me"]["hand"] and any(m.get("hidden") for m in view["monsters"]) and view["map"]:
            break
    else:
        pytest.skip("no position with a hand and a hidden monster")
    public = decode(render("monsterhunter", GAME.view(state, None)))
    mine = decode(render("monsterhunter", view))
    assert mine.height > public.height            # the hand strip (and the hidden monster's row)
    # the viewer's own face-down monster is drawn differently there than in the public image
    hidden = next(m for m in view["monsters"] if m.get("hidden"))
    geo = monsterhunter.geometry(monsterhunter._map_key(view))
    box = geo["nodes"][hidden["area"]]
    assert differs(public.convert("RGB"), mine.convert("RGB"), box)


def test_last_events_are_marked():
    for state, seat in playout(2, seed=3, every=1):
        view = GAME.view(state, None)
        if view["map"] and any(e["type"] == "moved" and e["start"] != e["dest"] for e in view["last"]):
            break
    else:
        pytest.skip("no move")
    marked = monsterhunter.render_image(view).convert("RGB")
    plain = monsterhunter.render_image(view, last=False).convert("RGB")
    assert differs(marked, plain)


# ---- phone readability (the same measure as tests/test_glyph_render.py) ----------------------------------
def clear_caches() -> None:
    for value in list(vars(monsterhunter).values()) + [common.seat_badge, common.status_marker]:
        if hasattr(value, "cache_clear"):
            value.cache_clear()


@pytest.fixture(scope="module")
def logged():
    views = []
    for players in (2, 3, 4):
        for state, seat in playout(players, seed=players, every=9):
            views.append(GAME.view(state, seat))
            views.append(GAME.view(state, None))
    clear_caches()
    original = ImageDraw.ImageDraw.text
    log_raw: list = []

    def text(self, xy, text, fill=None, font=None, *args, **kwargs):
        if font is not None and str(text).strip():
            stroke = kwargs.get("stroke_width", 0)
            if kwargs.get("stroke_fill") not in (None, fill):
                stroke = 0
            x0, y0, x1, y1 = font.getbbox("0", stroke_width=stroke)
            log_raw.append((f"raw:{text}", (y1 - y0) / common._scale[-1]))
        return original(self, xy, text, fill, font, *args, **kwargs)

    ImageDraw.ImageDraw.text = text
    try:
        with glyph_log() as log:
            widths = {monsterhunter.render_image(v).width for v in views}
    finally:
        ImageDraw.ImageDraw.text = original
        clear_caches()
    assert len(widths) == 1
    return widths.pop(), log + log_raw


def test_every_information_glyph_is_16px_at_phone_width(logged):
    width, log = logged
    floor = min_glyph_px(width)
    small = sorted({(label, round(h, 1)) for label, h in log if h < floor - 0.01}, key=lambda x: x[1])
    assert not small, f"glyphs under {floor:.1f} px in a {width} px image: {small[:20]}"


def test_the_log_saw_what_matters(logged):
    _, log = logged
    labels = {label for label, _ in log}
    for want in ("a1", "b2", "camp", "icon:sword", "icon:reach", "icon:star", "icon:deck", "icon:hand",
                 "icon:discard", "icon:material", "retreat pip", "A", "B", "C", "D"):
        assert want in labels, want
    assert any(label.startswith("item:") for label in labels)
    assert any(label.startswith("raw:") for label in labels)


def test_own_pending_move_shows_in_own_view_only():
    for state, seat in playout(2, seed=9, every=1):
        view = GAME.view(state, seat)
        if view["phase"] == "move" and view["me"]["move"] and view["me"]["move"] != view["seats"][seat]["pos"]:
            break
    else:
        pytest.skip("no pending move")
    mine = monsterhunter.render_image(view).convert("RGB")
    unsent = monsterhunter.render_image({**view, "me": {**view["me"], "move": None}}).convert("RGB")
    assert differs(mine, unsent)
    assert "me" not in GAME.view(state, None)   # the public board has nothing to draw it from


def test_every_monster_row_fits_the_list():
    """The monster list under the map (issue #31: it must read on a phone, so nothing in it may
    shrink): every monster card's row, with two-digit numbers and its weak points' pictograms,
    ends inside the strip."""
    from games.monsterhunter.cards import card_index
    canvas = Image.new("P", (monsterhunter.WIDTH, monsterhunter.ROW_H))
    canvas.putpalette(monsterhunter.palette().image.getpalette())
    for cid, spec in card_index().items():
        if spec["kind"] == "monsters":
            end = monsterhunter._monster_row(canvas, 0, {"id": 88, "card": cid, "up": True, "damage": 0})
            assert end <= monsterhunter.WIDTH - monsterhunter.PAD, (cid, end)
