"""The PNG writer that reuses compressed bands of earlier images (renderers/png.py): every file it
writes decodes to its image exactly, whatever the cache holds, and the cache stays within bounds."""

from __future__ import annotations

import random
import zlib
from typing import NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

import renderers
from games import all_games
from renderers import common, png
from renderers.common import ImageCheckError
from renderers.png import BAND_ROWS, CACHE_BYTES, BandCache, adler_joined, encode, encode_whole
from tests.image_checks import decode
from tests.playouts import random_states


def same_picture(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and a.convert("RGB").tobytes() == b.convert("RGB").tobytes()


def test_adler_of_joined_strings_comes_from_their_own():
    rng = random.Random(5)
    for _ in range(300):
        first = rng.randbytes(rng.randrange(0, 5000))
        second = rng.randbytes(rng.randrange(0, 5000)) if rng.random() < 0.7 else b"\xff" * rng.randrange(70000)
        assert adler_joined(zlib.adler32(first), zlib.adler32(second), len(second)) == zlib.adler32(first + second)


def seeded_images(monkeypatch) -> list[Image.Image]:
    """Every image the renderers encode over 12 actions of a seeded game of each kind and player
    count: public boards, and each seat's panel or board from its side."""
    seen: list[Image.Image] = []
    real = common.encode

    def keep(image, level):
        seen.append(image.copy())
        return real(image, level)
    monkeypatch.setattr(common, "encode", keep)
    for game in all_games():
        for players in game.player_counts():
            for state in random_states(game, [players], [20 + players], steps=12):
                renderers.render(game.name, game.view(state, None))
                for seat in range(players):
                    renderers.render_panel(game.name, game.view(state, seat), viewer_seat=seat)
    monkeypatch.undo()
    return seen


def test_every_board_and_panel_decodes_to_its_image_whatever_the_cache_holds(monkeypatch):
    images = seeded_images(monkeypatch)
    assert len(images) > 300 and {image.mode for image in images} == {"P"}
    warm = BandCache()
    for image in images:
        written = encode(image, 1, cache=warm)
        again = decode(written)
        assert again.mode == "P" and again.tobytes() == image.tobytes() and same_picture(again, image)
        assert written == encode(image, 1, cache=BandCache())  # a band's bytes depend only on its pixels
    bands = sum(-(-image.height // BAND_ROWS) for image in images)
    assert warm.misses < bands / 3  # consecutive boards share most of their rows
    # about as small as Pillow's whole-image encode at the same level
    ours = sum(len(encode(image, 1, cache=warm)) for image in images[:50])
    pillows = sum(len(encode_whole(image, 1)) for image in images[:50])
    assert ours < 1.15 * pillows


@pytest.mark.parametrize("image", [
    Image.new("RGB", (30, 20), (10, 200, 30)),
    Image.new("RGBA", (30, 20), (10, 200, 30, 128)),
    Image.new("L", (7, 3), 99),
])
def test_other_modes_are_written_by_pillow(image):
    assert encode(image, 1) == encode_whole(image, 1)
    assert same_picture(decode(encode(image, 1)), image)


def test_a_palette_with_alpha_keeps_it():
    image = Image.new("RGBA", (20, 20), (200, 10, 10, 90)).quantize(4)
    assert image.palette.mode == "RGBA"
    back = decode(encode(image, 1))
    assert back.convert("RGBA").tobytes() == image.convert("RGBA").tobytes()


def test_a_palette_image_with_a_transparent_colour_keeps_it():
    image = Image.new("P", (9, 40), 3)
    image.putpalette([0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255])
    image.info["transparency"] = 3
    back = decode(encode(image, 1))
    assert back.info.get("transparency") == 3 and back.tobytes() == image.tobytes()


def test_odd_sizes_and_short_palettes():
    for width, height in [(1, 1), (3, BAND_ROWS), (5, BAND_ROWS + 1), (300, 3 * BAND_ROWS - 1)]:
        image = Image.new("P", (width, height))
        image.putpalette([255, 0, 0, 0, 0, 255])  # two entries; pixels use both
        image.putdata([(x * 7 + y) % 2 for y in range(height) for x in range(width)])
        back = decode(encode(image, 1, cache=BandCache()))
        assert back.tobytes() == image.tobytes() and same_picture(back, image)


def unpacked(band) -> bytes:
    return zlib.decompressobj(-zlib.MAX_WBITS).decompress(band.packed)


def noisy(width: int, height: int, seed: int) -> Image.Image:
    image = Image.new("P", (width, height))
    image.putpalette([(i * 37) % 256 for i in range(768)])
    rng = random.Random(seed)
    image.putdata([rng.randrange(6) for _ in range(width * height)])
    return image


def test_a_band_where_the_last_image_of_its_size_had_it_is_reused_without_a_lookup():
    cache, first = BandCache(), noisy(40, 5 * BAND_ROWS, 1)
    encode(first, 1, cache=cache)
    assert (cache.hits, cache.misses) == (0, 5)
    second = first.copy()
    second.paste(noisy(40, 3, 2), (0, 2 * BAND_ROWS + 4))  # inside the third band
    written = encode(second, 1, cache=cache)
    assert (cache.hits, cache.misses) == (0, 6)  # four compared in place, one compressed
    assert decode(written).tobytes() == second.tobytes() and written == encode(second, 1, cache=BandCache())
    shifted = Image.new("P", first.size)
    shifted.putpalette(first.getpalette())
    shifted.paste(first.crop((0, BAND_ROWS, 40, 5 * BAND_ROWS)), (0, 0))  # bands one place up
    written = encode(shifted, 1, cache=cache)
    assert (cache.hits, cache.misses) == (4, 7)  # found by content, elsewhere in an earlier image
    assert decode(written).tobytes() == shifted.tobytes()


def test_bands_with_the_same_checksum_are_told_apart():
    cache = BandCache()
    one, other = b"\x00\x01\x01\x00", b"\x01\x00\x00\x01"  # equal length and Adler-32
    assert zlib.adler32(one) == zlib.adler32(other)
    for pixels in (one, other, one, other):
        band = cache.band(pixels, 2, 1)
        assert unpacked(band) == b"\x00" + pixels[:2] + b"\x00" + pixels[2:]  # each row behind its filter byte
        assert band.adler == zlib.adler32(unpacked(band)) and band.length == 6


def test_a_band_is_cached_per_compression_level():
    cache, pixels = BandCache(), bytes(range(256)) * 40
    fast = cache.band(pixels, 256, 1)
    small = cache.band(pixels, 256, 9)
    assert small.packed != fast.packed and cache.misses == 2
    assert cache.band(pixels, 256, 1) == fast and cache.hits == 1


def test_the_cache_keeps_to_its_size():
    cache = BandCache(limit=64 * 1024)
    rng = random.Random(1)
    for _ in range(200):
        cache.band(rng.randbytes(5000), 100, 1)
    assert 0 < cache._size <= 64 * 1024 and cache.misses == 200
    cache.clear()
    assert cache._size == 0


def test_a_band_seen_at_another_width_is_not_reused():
    """Issue #30: 1320 x 8 and 880 x 12 hold the same 10,560 bytes in one band, but 8 and 12 rows
    carry 8 and 12 filter bytes; the wider image's band in the narrower one made a truncated file."""
    cache = BandCache()
    encode(Image.new("P", (1320, 8)), 1, cache=cache)
    narrower = Image.new("P", (880, 12))
    back = decode(encode(narrower, 1, cache=cache))
    assert back.size == (880, 12) and back.tobytes() == narrower.tobytes()


# ---- every file the writer makes, read by Pillow's decoder ----------------------------------------
# Band lengths with many divisors: each is one band at several widths (16 rows at one, fewer at
# others), so equal pixels meet at different widths, as 1320 x 8 and 880 x 12 did in issue #30.
SHARED_LENGTHS = (240, 2520, 5040, 10560, 27720)


class Fill(NamedTuple):
    """A band's pixels: ``value`` everywhere, or noise from ``seed`` (equal seeds and lengths make
    equal bytes, at any width); with a ``mark``, one pixel somewhere in the band changed."""
    value: int | None
    seed: int
    mark: int | None = None

    def pixels(self, length: int) -> bytes:
        if self.value is not None:
            pixels = bytearray([self.value] * length)
        else:
            pixels = bytearray(random.Random(self.seed).randbytes(length))
        if self.mark is not None:
            pixels[self.mark % length] ^= 0x55
        return bytes(pixels)


class Drawing(NamedTuple):
    width: int
    height: int
    bands: tuple[Fill, ...]
    palette: tuple[int, int]  # (entries, seed)
    level: int

    def image(self) -> Image.Image:
        step, total = self.width * BAND_ROWS, self.width * self.height
        pixels = b"".join(fill.pixels(min(step, total - n * step)) for n, fill in enumerate(self.bands))
        image = Image.frombytes("P", (self.width, self.height), pixels)
        entries, seed = self.palette
        image.putpalette(random.Random(seed).randbytes(3 * entries))
        return image


fills = st.builds(Fill, st.one_of(st.none(), st.sampled_from([0, 1, 255])), st.integers(0, 3))


@st.composite
def sizes(draw) -> tuple[int, int]:
    if draw(st.booleans()):
        return draw(st.integers(1, 2000)), draw(st.integers(1, 3 * BAND_ROWS))
    length = draw(st.sampled_from(SHARED_LENGTHS))
    rows = draw(st.sampled_from([r for r in range(1, BAND_ROWS + 1) if length % r == 0 and length // r <= 2000]))
    return length // rows, rows + BAND_ROWS * draw(st.integers(0, 2))  # the last band: ``rows`` rows


@st.composite
def drawing_sequences(draw) -> list[Drawing]:
    """Images one after another, some the last one with a few bands changed (as a board after an
    action), each at its own compression level and with its own palette."""
    drawings: list[Drawing] = []
    for _ in range(draw(st.integers(1, 8))):
        palette = (draw(st.integers(1, 256)), draw(st.integers(0, 3)))
        level = draw(st.one_of(st.just(1), st.integers(0, 9)))  # mostly the bot's own
        if drawings and draw(st.booleans()):
            last = drawings[-1]
            bands = list(last.bands)
            for n in draw(st.lists(st.integers(0, len(bands) - 1), max_size=2)):
                one_pixel_changed = st.builds(bands[n]._replace, mark=st.integers(0, 2000 * BAND_ROWS))
                bands[n] = draw(st.one_of(one_pixel_changed, fills))
            drawings.append(Drawing(last.width, last.height, tuple(bands), palette, level))
        else:
            width, height = draw(sizes())
            bands = tuple(draw(fills) for _ in range(-(-height // BAND_ROWS)))
            drawings.append(Drawing(width, height, bands, palette, level))
    return drawings


@settings(max_examples=200, deadline=None)
@given(drawing_sequences(), st.sampled_from([CACHE_BYTES, 40_000]))
def test_pillow_decodes_every_file_to_its_image_whatever_came_before(drawings, cache_limit):
    cache = BandCache(cache_limit)  # one for the whole sequence: each image meets the bands of those before
    for drawing in drawings:
        image = drawing.image()
        written = decode(encode(image, drawing.level, cache=cache))  # Pillow's inflate and checks, not this module's
        assert (written.mode, written.size) == ("P", image.size)
        assert written.tobytes() == image.tobytes()
        palette = image.getpalette()
        assert written.getpalette() == palette + [0] * (768 - len(palette))  # unused entries black


# ---- the check every test runs under (TABLETOP_CHECK_IMAGES, set by tests/conftest.py) -------------
def test_the_image_check_is_on_and_names_the_size_and_level_of_a_file_that_does_not_read_back(monkeypatch):
    image = noisy(30, 20, 3)
    assert decode(common.png_bytes(image)).tobytes() == image.tobytes()
    with monkeypatch.context() as m:
        m.setattr(png, "adler_joined", lambda *sums: 0)  # the writer's stream checksum wrong
        with pytest.raises(ImageCheckError, match=r"a 30x20 P image written at level 1 does not decode"):
            common.png_bytes(image)
    with monkeypatch.context() as m:
        m.setattr(common, "encode", lambda _, level: encode_whole(noisy(30, 20, 4), level))  # sound, but another
        with pytest.raises(ImageCheckError, match="30x20 P image written at level 1 reads back with other pixels"):
            common.png_bytes(image)
    with monkeypatch.context() as m:
        m.setattr(common, "encode", lambda _, level: encode_whole(noisy(40, 20, 3), level))
        with pytest.raises(ImageCheckError, match="reads back as 40x20 P"):
            common.png_bytes(image)
    recoloured = image.copy()
    recoloured.putpalette([255 - v for v in image.getpalette()])
    with monkeypatch.context() as m:
        m.setattr(common, "encode", lambda _, level: encode_whole(recoloured, level))  # same indices, other colours
        with pytest.raises(ImageCheckError, match="reads back with other colours"):
            common.png_bytes(image)
