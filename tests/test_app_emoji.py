"""The games' pieces as the application's emoji in words, on buttons and in menus
(bot/discord_app/emoji.py): markup only where it was uploaded and where the text keeps within
Discord's limit, today's Unicode otherwise."""

from __future__ import annotations

import discord
import pytest

from bot.discord_app import emoji as app_emoji
from bot.discord_app.components import controls_view
from bot.discord_app.delivery import join_lines, pages
from bot.i18n import T
from bot.service import Controls
from renderers import emoji as pictures


@pytest.fixture
def uploaded(monkeypatch):
    """Every drawing uploaded, emoji ids 1000, 1001, ..."""
    by_key = {key: discord.PartialEmoji(name=pictures.emoji_name(key, png), id=1000 + n)
              for n, (key, png) in enumerate(pictures.drawings().items())}
    monkeypatch.setattr(app_emoji.APP_EMOJI, "_by_key", by_key)
    return by_key


def test_every_picture_of_today_s_unicode_is_drawn():
    assert set(pictures.UNICODE.values()) <= set(pictures.drawings())
    assert {f"tile_{k}" for k in pictures.TILES} | {"tile_gem", "gem"} <= set(pictures.drawings())
    assert {f"animal_{a}" for a in pictures.ANIMALS} <= set(pictures.drawings())


def test_without_uploads_the_text_keeps_its_unicode():
    text = "⚔️ **A** ● blue's 🟦3 🐭 beats **B** ■ orange's 🟧2 🦁 · 💎"
    assert app_emoji.in_text(text, 2000) == text
    assert app_emoji.label_and_emoji("🐭 mouse") == ("🐭 mouse", None)


def test_pieces_animals_gems_and_seat_marks_become_the_app_s_emoji(uploaded):
    text = "⚔️ **A** ● blue's 🟦3 🐭 beats **B** ■ orange's 🟧2 🦁 · 💎 · ⚂"
    out = app_emoji.in_text(text, 2000)
    for key in ("piece_0", "piece_1", "animal_mouse", "animal_lion", "gem", "die_3"):
        assert str(uploaded[key]) in out, key
    assert out.count(str(uploaded["piece_0"])) == 2  # the seat mark's shape and the tile's colour
    assert "**A** <:" in out and " blue's" in out and "⚔️" in out  # words and other Unicode stay
    assert not any(u in out for u in pictures.UNICODE)


def test_a_seat_mark_whose_shape_is_not_that_seat_s_stays_as_it_is(uploaded):
    assert app_emoji.in_text("**A** ■ and **E** ●", 2000) == "**A** ■ and **E** ●"  # E has no piece emoji


def test_markup_stops_before_the_limit(uploaded):
    markup = len(str(uploaded["animal_cat"]))
    text = "🐱" * 10
    out = app_emoji.in_text(text, len(text) + 3 * (markup - 1))
    assert out.count("<:") == 3 and out.endswith("🐱" * 7)
    assert len(app_emoji.in_text(text, len(text) + 3 * (markup - 1))) <= len(text) + 3 * (markup - 1)
    long = ["🐱 " * 700]  # a message near Discord's 2000 characters
    assert len(join_lines("en", long)) <= 2000
    assert all(len(page) <= 2000 for page in pages("en", long * 3))


def test_a_label_loses_its_leading_unicode_to_the_emoji_beside_it(uploaded):
    assert app_emoji.label_and_emoji("🐭 mouse") == ("mouse", uploaded["animal_mouse"])
    assert app_emoji.label_and_emoji("🐭") == ("🐭", None)  # a button needs words


def test_hostile_tile_and_gem_tile_choices_show_their_tile(uploaded):
    take = T("choice.hostile.take", tile_term=T("term.hostile.spring"))
    gem = T("choice.hostile.take_gem", square="C4")
    controls = Controls(game_id=7, version=3, prefix=(), choices={"take spring": ["take spring"], "take C4": ["take C4"],
                                                     "end": ["end"]},
                        labels={"take spring": take, "take C4": gem, "end": T("choice.hostile.end")})
    buttons = [c for row in controls_view(controls, "en").to_components() for c in row["components"]]
    by_label = {b["label"]: b.get("emoji") for b in buttons}
    assert by_label["Take Spring from the line"]["id"] == uploaded["tile_spring"].id
    assert by_label["Take gem tile C4 from the line"]["id"] == uploaded["tile_gem"].id
    assert by_label["End the turn"] is None
