"""Words on the images (issue #43): no engine id anywhere on a board or panel, the names a board
writes in its reader's language, and the shipped Japanese font holding every character those
names use.

What an image says is what its renderer drew: ``renderers.common.recording()`` reports every
``ImageDraw.text`` call, so the texts below are exactly the ones on the pictures, sprites
included (caches are cleared first so that every sprite is drawn again)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

import renderers
from bot import i18n
from games import get_game
from renderers import arena, common, hostile, labels, monsterhunter, osu, squaresiv
from tests.playouts import random_states

MODULES = {"squares": squaresiv, "arena": arena, "osu": osu, "hostile": hostile, "monsterhunter": monsterhunter}

# Card ids (M16, H01, W03, A02, I11), sheet ids (2A, 4C~) and the engine's own words: skill,
# tile, weapon-type and step identifiers. None of these may be written on an image.
CARD_ID = re.compile(r"\b[HMWAI]\d{2}\b")
SHEET_ID = re.compile(r"\b[24][ABC]~?(?![0-9])")
ENGINE_WORDS = {"crash", "rotate", "recall", "king", "steal", "ghost", "quick", "slide", "diag", "spring", "ice",
                "stop", "box", "lwall", "para", "gs", "ls", "sns", "db", "hm", "lc", "lbg", "hbg", "bow", "loadout",
                "prep", "move", "hunt", "keep", "none", "null"}


def clear_caches(module) -> None:
    for value in list(vars(module).values()) + [common.seat_badge, common.status_marker]:
        if hasattr(value, "cache_clear"):
            value.cache_clear()


def views(name: str) -> list[tuple[str, dict]]:
    """Public boards and every seat's view of seeded random play, a few per player count, the
    start (Monster Hunter's loadout) included."""
    game = get_game(name)
    out = []
    for players in game.player_counts():
        states = list(random_states(game, [players], range(1, 3), steps=160))
        for i in sorted({0, 1, len(states) // 3, len(states) // 2, len(states) - 1}):
            state = states[i]
            out.append((f"{players}p #{i} public", game.view(state, None)))
            out += [(f"{players}p #{i} seat {s}", game.view(state, s)) for s in range(players)]
    return out


def drawn_texts(name: str, lang: str) -> list[tuple[str, str]]:
    """(position, text) for every text drawn on the boards and panels of :func:`views`."""
    module = MODULES[name]
    clear_caches(module)
    out = []
    try:
        for what, view in views(name):
            with common.recording() as record:
                renderers.render(name, view, lang=lang)
                if view.get("viewer") is not None:
                    renderers.render_panel(name, view, lang=lang)
            out += [(what, d.name) for d in record if d.kind == "text"]
    finally:
        clear_caches(module)
    return out


def engine_ids(text: str) -> list[str]:
    found = CARD_ID.findall(text) + SHEET_ID.findall(text)
    return found + [w for w in re.findall(r"[a-z]+", text) if w in ENGINE_WORDS]


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_engine_id_anywhere_on_an_image(name, lang):
    texts = drawn_texts(name, lang)
    assert len(texts) > 50
    bad = sorted({(what, text) for what, text in texts if engine_ids(text)})
    assert not bad, bad[:20]


def test_the_id_check_bites():
    assert engine_ids("M16") == ["M16"] and engine_ids("4C~") == ["4C~"] and engine_ids("crash") == ["crash"]
    assert engine_ids("12/20") == engine_ids("a2") == engine_ids("Veiled Wyrm") == engine_ids("T6") == []


@pytest.mark.parametrize("name", ["monsterhunter", "hostile"])
def test_names_are_written_in_the_readers_language(name):
    """The same positions drawn in English and in Japanese: each language's names, and only
    that language's (no English name on a Japanese board)."""
    en = {t for _, t in drawn_texts(name, "en")}
    ja = {t for _, t in drawn_texts(name, "ja")}
    en_names, ja_names = set(labels.drawable_texts("en")), set(labels.drawable_texts("ja"))
    assert en & en_names and not en & ja_names
    assert ja & ja_names and not ja & en_names


def test_the_loadout_board_shows_the_offer_and_keeps_picks_secret():
    """Monster Hunter's selection board (step L, public): every hunter on offer by name with its
    numbers, every sheet by name; a seat that has chosen is marked, and which hunter or sheet it
    took leaves the picture unchanged."""
    game = get_game("monsterhunter")
    state = game.setup(3, game.resolve_options({}, 3), 4)
    with common.recording() as record:
        before = renderers.render("monsterhunter", game.view(state, None))
    texts = [d.name for d in record if d.kind == "text"]
    for hunter in ("H01", "H02", "H03", "H04"):
        assert labels.card_name(hunter) in texts
    for layout in ("4A", "4B", "4C"):
        assert labels.sheet_name("ring", layout) in texts
    picked = [game.apply(state, 0, f"take {h} {s}")[0] for h, s in (("H01", "4A"), ("H04", "4C~"))]
    a, b = (renderers.render("monsterhunter", game.view(s, None)) for s in picked)
    assert a == b != before


def test_the_shipped_japanese_font_covers_every_name():
    """Every character of every name a renderer can draw in Japanese (cards, sheets, skills) is
    in renderers/fonts' subset, and so are digits and Latin letters: a new name with a
    character the subset lacks fails here until renderers/fonts/make_subset.py is run again."""
    font = TTFont(common.JAPANESE_FONT)
    cmap = font.getBestCmap()
    names = labels.drawable_texts("ja")
    assert len(names) >= 60
    missing = sorted({c for text in names + ["0123456789/+x ABCabc"] for c in text if ord(c) not in cmap})
    assert not missing, missing
    assert Path(common.JAPANESE_FONT).stat().st_size < 300_000
    assert (Path(common.JAPANESE_FONT).parent / "OFL.txt").read_text().count("SIL OPEN FONT LICENSE") == 1


def test_every_japanese_text_drawn_is_in_the_font():
    """What the Japanese boards actually drew: every wide character in the shipped subset."""
    cmap = TTFont(common.JAPANESE_FONT).getBestCmap()
    drawn = {t for name in ("monsterhunter", "hostile") for _, t in drawn_texts(name, "ja")}
    assert any(common.text_font(t, 20).path == common.JAPANESE_FONT for t in drawn)
    assert not sorted({c for t in drawn for c in t if ord(c) not in cmap and ord(c) > 0x7F})


def test_skill_labels_are_the_rulebooks_terms():
    """HOSTILE's skill names on the image are the catalogues' terms (term.hostile.<skill>)."""
    for skill in hostile.SKILLS:
        for lang in labels.LANGUAGES:
            assert labels.skill_name(skill, lang) == i18n.render(lang, i18n.T(f"term.hostile.{skill}"))


async def test_the_bot_draws_in_the_games_language_and_the_readers(tmp_path):
    """GameHost._draw: a public board in the game's language, a person's image in their own (a
    stand-in renderer without ``lang`` still works)."""
    from bot.service import GameHost
    from bot.storage.sqlite import Store

    store = await Store.open(str(tmp_path / "lang.sqlite3"))
    try:
        host = GameHost(store, render=renderers.render)
        game = get_game("monsterhunter")
        view = game.view(next(iter(random_states(game, [2], [3], steps=60))), None)
        ja, en = (renderers.render("monsterhunter", view, lang=lang) for lang in ("ja", "en"))
        assert ja != en
        assert await host._draw("monsterhunter", view, lang="ja") == ja
        assert await host._draw("monsterhunter", view, prefs={"lang": "en"}, lang="ja") == en
        stub = GameHost(store, render=lambda game_name, view: b"PNG")
        assert await stub._draw("monsterhunter", view, lang="ja") == b"PNG"
    finally:
        await store.close()
