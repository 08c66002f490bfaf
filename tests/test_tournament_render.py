"""The tournament pictures (renderers/tournament.py): they decode, carry no words, and every number
reads on a phone (at least 16 px tall once shown 400 px wide), for small and large fields."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from renderers.common import glyph_log, min_glyph_px
from renderers.tournament import MAX_ROWS, draw_bracket, draw_standings, number


def decoded(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    assert image.format == "PNG"
    return image


def standings_rows(count: int) -> list[dict]:
    return [{"rank": i + 1, "entry": count - i, "points": (count - i) / 2, "tiebreak": None if i % 3 else i / 4,
             "played": 3, "out": i == 2} for i in range(count)]


def bracket_rounds(size: int) -> list[list[dict]]:
    rounds, entries = [], list(range(1, size + 1))
    while len(entries) > 1:
        matches = [{"a": a, "b": b, "winner": min(a, b)} for a, b in zip(entries[::2], entries[1::2])]
        rounds.append(matches)
        entries = [m["winner"] for m in matches]
    rounds[-1][0]["winner"] = None  # the final still to play
    return rounds


@pytest.mark.parametrize("count", [2, 8, 64])
def test_standings_decode_and_read_on_a_phone(count):
    with glyph_log() as glyphs:
        image = decoded(draw_standings(standings_rows(count), most=count / 2))
    assert image.width == 800
    assert min(h for _, h in glyphs) >= min_glyph_px(image.width)
    labels = {label for label, _ in glyphs}
    assert {f"#{count}", "1"} <= labels and all(label.replace("#", "").replace("(", "").replace(")", "").replace(".", "")
                                         .isdigit() for label in labels)  # numbers only, no words
    assert image.height < 110 * min(count, MAX_ROWS) + 100  # a longer field is cut at MAX_ROWS


@pytest.mark.parametrize("size", [2, 8])
def test_a_bracket_decodes_and_reads_on_a_phone(size):
    with glyph_log() as glyphs:
        image = decoded(draw_bracket(bracket_rounds(size)))
    assert image.width == 800 and min(h for _, h in glyphs) >= min_glyph_px(image.width)
    assert {f"#{n}" for n in range(1, size + 1)} <= {label for label, _ in glyphs}


def test_a_large_bracket_is_drawn_three_rounds_at_a_time():
    rounds = bracket_rounds(32)
    for window, final in ((rounds[:3], False), (rounds[2:], True)):
        with glyph_log() as glyphs:
            image = decoded(draw_bracket(window, final=final))
        assert image.width == 800 and min(h for _, h in glyphs) >= min_glyph_px(image.width)
    with pytest.raises(ValueError):
        draw_bracket(rounds)


def test_points_are_written_as_people_write_them():
    assert [number(x) for x in (0.0, 1.0, 1.5, 2 / 3, 10.25)] == ["0", "1", "1.5", "0.67", "10.25"]


def test_the_same_data_gives_the_same_bytes():
    rows = standings_rows(8)
    assert draw_standings(rows, 4) == draw_standings(rows, 4)
    assert draw_bracket(bracket_rounds(8)) == draw_bracket(bracket_rounds(8))
