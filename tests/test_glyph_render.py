"""Every board reads on a phone: no glyph that carries information is under 16 px tall once the
image is shown 400 px wide (issue 12).

How it measures: while ``renderers.common.glyph_log()`` is open, every ``draw_text`` call reports
the height its text reads at (the ink height of a digit in that font and stroke), and every drawn
symbol that carries information (animal faces, pips, gates, markers, icons ...) reports its drawn
height through ``note_glyph``; both in final-image pixels, a supersampled sprite's sizes divided
by its scale. On top of that, every ``ImageDraw.text`` call is measured itself, so text drawn
around ``draw_text`` is caught too. Sprites are cached, so each game's caches are emptied first
and every sprite of the boards below is drawn again under the log. Boards come from real engine
views: every player count, mid-game and finished, with last-action marks.

Text is measured at its font's cap height (a digit's ink height, with its bold stroke): a
lowercase coordinate letter is read at the size of its font, not at its x-height.
"""

from __future__ import annotations

import contextlib
import re

import pytest
from PIL import Image, ImageDraw

from games import get_game
from games.ai import choose_action
from games.rng import Rng
from renderers import arena, common, hostile, monsterhunter, osu, render, squaresiv
from renderers.common import glyph_log, min_glyph_px
from renderers.labels import card_name, sheet_name

MODULES = {"squares": squaresiv, "arena": arena, "osu": osu, "hostile": hostile, "monsterhunter": monsterhunter}
# what each game must have reported (labels, or patterns a label must match): proof the log sees
# the glyphs the issue names
MUST_SHOW = {
    "squares": {"T", "W", "P", "M", "a", "1", "win-square crown", r"\d/8"},
    "arena": {"a1", "c3", "pips", r"T\d+", "icon:charge"},
    "osu": {"mouse", "cat", "lion", "monkey", "die", "b2>b6>f6>f2", "step", r"\d/\d"},
    "hostile": {"A", "1", "gate", "gem", "action point", "pick", r"x\d", r"R\d+", r"\d+/\d+", "skill:steal"},
    "monsterhunter": {"a1", "camp", "icon:sword", "icon:reach", "icon:star", "A", r"\d+"},
}


def clear_caches(module) -> None:
    """Forget every cached sprite and layer of a renderer (and the shared cached helpers)."""
    for value in list(vars(module).values()) + [common.seat_badge, common.status_marker]:
        if hasattr(value, "cache_clear"):
            value.cache_clear()


def boards(name: str) -> list[dict]:
    """A few real views per player count: the start, mid-game positions and the finished board."""
    game = get_game(name)
    out = []
    for players in game.player_counts():
        for seed in (1, 2):
            state, rng = game.setup(players, {}, seed), Rng(seed + 40)
            out.append(game.view(state, 0))
            ply = 0
            while game.outcome(state) is None and ply < 400:
                seat = min(game.to_act(state))
                state, _ = game.apply(state, seat, choose_action(game, state, seat, rng))
                ply += 1
                if ply % 9 == 0:
                    out.append(game.view(state, seat))
            out.append(game.view(state, None))
    return out


@contextlib.contextmanager
def raw_text_measured(log: list):
    """Also measure every ``ImageDraw.text`` call itself (label "raw:<text>"), so text a renderer
    draws without ``draw_text`` cannot slip past: its font size, stroke and supersampling scale
    give its height the same way."""
    original = ImageDraw.ImageDraw.text

    def text(self, xy, text, fill=None, font=None, *args, **kwargs):
        if font is not None and str(text).strip():
            stroke = kwargs.get("stroke_width", 0)
            if kwargs.get("stroke_fill") not in (None, fill):
                stroke = 0   # a contrasting halo is not the glyph
            x0, y0, x1, y1 = font.getbbox("0", stroke_width=stroke)
            log.append((f"raw:{text}", (y1 - y0) / common._scale[-1]))
        return original(self, xy, text, fill, font, *args, **kwargs)

    ImageDraw.ImageDraw.text = text
    try:
        yield
    finally:
        ImageDraw.ImageDraw.text = original


@pytest.fixture(scope="module", params=sorted(MODULES))
def logged(request):
    """(game, image width, glyph log) for every board of one game, drawn from empty caches."""
    name = request.param
    module = MODULES[name]
    views = boards(name)
    clear_caches(module)
    with glyph_log() as log, raw_text_measured(log):
        widths = {module.render_image(v).width for v in views}
    clear_caches(module)
    assert len(widths) == 1
    return name, widths.pop(), log


def test_every_information_glyph_is_16px_at_phone_width(logged):
    name, width, log = logged
    floor = min_glyph_px(width)
    small = sorted({(label, round(h, 1)) for label, h in log if h < floor - 0.01}, key=lambda x: x[1])
    assert not small, f"{name}: glyphs under {floor:.1f} px in a {width} px image: {small[:20]}"


def test_the_log_saw_the_glyphs_that_matter(logged):
    name, _, log = logged
    labels = {label for label, _ in log}
    assert len(log) > 50
    assert any(label.startswith("raw:") for label in labels)   # the ImageDraw.text hook saw text too
    missing = {want for want in MUST_SHOW[name] if not any(re.fullmatch(want, label) for label in labels)}
    assert not missing, missing


def test_the_measure_catches_a_small_glyph():
    """The hook itself: small text and a small symbol in a supersampled sprite are seen as small."""
    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        common.draw_text(d, (20 * k, 20 * k), "7", 14 * k, common.INK)
        common.note_glyph("dot", 10 * k)

    with glyph_log() as log:
        common.supersampled((40, 40), paint)
        common.draw_text(ImageDraw.Draw(Image.new("RGB", (100, 60))), (50, 30), "88", 60, common.INK, bold=True)
    heights = dict(log)
    # drawn at 4x and divided back: within a pixel of the same text drawn at 1x
    assert heights["7"] == pytest.approx(common.font(14).getbbox("0")[3] - common.font(14).getbbox("0")[1], abs=1)
    assert heights["dot"] == 10
    assert heights["88"] >= min_glyph_px(860) > heights["7"]


def test_renders_outside_the_log_record_nothing():
    view = get_game("squares").view(get_game("squares").setup(2, {}, 1), None)
    with glyph_log() as log:
        pass
    render("squares", view)
    assert log == []


def test_a_renderer_drawing_too_small_fails(monkeypatch):
    """The check bites: OSU with its text size cut to 30 px reports digits under the floor."""
    monkeypatch.setattr(osu, "TEXT", 30)
    clear_caches(osu)
    view = get_game("osu").view(get_game("osu").setup(2, {}, 1), None)
    try:
        with glyph_log() as log:
            width = osu.render_image(view).width
    finally:
        clear_caches(osu)
    assert [label for label, h in log if h < min_glyph_px(width)]


def loadout_views() -> list[dict]:
    """Monster Hunter's loadout panel for every sheet side: a seat still choosing, and one that
    has picked (its pick outlined)."""
    game = get_game("monsterhunter")
    out = []
    for players in game.player_counts():
        state = game.setup(players, {}, players)
        out.append(game.view(state, 1))
        picked, _ = game.apply(state, 1, game.legal_actions(state, 1)[-1])
        out.append(game.view(picked, 1))
    return out


def test_the_loadout_panel_reads_at_phone_width():
    """The hunters and sheets on offer (their names, area ids, numbers and camps) are drawn no
    smaller than the board's glyphs: 16 px once the picture is shown 400 px wide."""
    views = loadout_views()
    clear_caches(monsterhunter)
    with glyph_log() as log, raw_text_measured(log):
        images = [monsterhunter.render_loadout_image(v) for v in views]
    clear_caches(monsterhunter)
    assert all(images) and {im.width for im in images} == {monsterhunter.WIDTH}
    floor = min_glyph_px(monsterhunter.WIDTH)
    small = sorted({(label, round(h, 1)) for label, h in log if h < floor - 0.01}, key=lambda x: x[1])
    assert not small, small[:20]
    labels = {label for label, _ in log}
    # a hunter's numbers: attack (sword), movement (boot) and reach (arrow), each with its digit
    names = [re.escape(n) for n in (card_name("H01"), card_name("H04"), sheet_name("two", "2A"), sheet_name("ring", "4C"))]
    for want in (*names, "b1", "b4", "camp", "icon:sword", "icon:move", "icon:reach", r"\d"):
        assert any(re.fullmatch(want, label) for label in labels), want
