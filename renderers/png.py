"""PNG writing that reuses the work of earlier images (issue #11).

One action changes a board in a few places (a piece, the last-move marks, whose turn it is), yet a
whole-image encode compresses every row again, and that encode was most of an action's cost. Here
a palette image is cut into bands of rows, and each band is deflated on its own: a fresh compressor
ended on a byte boundary, so its bytes depend on nothing before it. A band seen before at the same
width and level, in any image this process wrote, costs a checksum and a comparison instead of a
compression; one that sits where it sat in the last image of that size and level, only a
comparison. The bands join into one zlib stream (a closing empty block, and an Adler-32 combined
from the bands' own), so the file is an ordinary PNG that decodes to the image, pixel for pixel.

Rows are written unfiltered (PNG filter 0), as is usual for palette images: a band's bytes follow
from its pixels, its width (a filter byte starts every row, so the same pixels at another width are
other bytes: issue #30) and the compression level, and it is cached under all three. The palette is
written whole with every image, never cached. Other images (RGB, any transparency) go to Pillow's
encoder.
"""

from __future__ import annotations

import io
import threading
import zlib
from collections import OrderedDict
from typing import NamedTuple

from PIL import Image

BAND_ROWS = 16
CACHE_BYTES = 16 * 1024 * 1024  # per process: about a thousand bands of a board 880 pixels wide
PREVIOUS_SHAPES = 8  # image sizes whose last image's bands are kept (beyond the limit above: 8 images)
ADLER_MOD = 65521
SIGNATURE = b"\x89PNG\r\n\x1a\n"
ZLIB_HEADER = b"\x78\x01"  # deflate with a 32 KiB window, "fastest" (a hint only)
LAST_EMPTY_BLOCK = b"\x03\x00"  # a final fixed-Huffman block holding only its end code


def encode_whole(image: Image.Image, level: int) -> bytes:
    """The whole image compressed again by Pillow: the floor the benchmarks compare against."""
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=level)
    return out.getvalue()


class Band(NamedTuple):
    pixels: bytes  # the band's rows as the image holds them (one byte a pixel)
    packed: bytes  # those rows with their filter bytes, deflated, ending byte-aligned and not final
    adler: int  # Adler-32 of the rows with their filter bytes (what the zlib stream checks)
    length: int  # their length


class BandCache:
    """Deflated bands by width, level and content, least recently used dropped first, and the
    bands of the last image of each width, height and level (most of an image's bands sit where they
    sat in the previous one, and a comparison there costs less than the checksum a lookup needs).
    Thread-safe: the bot draws in worker processes, but a test or the local driver may draw from
    several threads."""

    def __init__(self, limit: int = CACHE_BYTES):
        self.limit = limit
        self._bands: OrderedDict[tuple[int, int, int, int], Band] = OrderedDict()
        self._size = 0
        self._previous: OrderedDict[tuple[int, int, int], list[Band]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def band(self, pixels: bytes, width: int, level: int) -> Band:
        """The band of rows ``width`` pixels wide, deflated at ``level``: from the cache, or now."""
        key = (width, level, len(pixels), zlib.adler32(pixels))  # the pixels themselves are compared too
        with self._lock:
            found = self._bands.get(key)
            if found is not None and found.pixels == pixels:
                self._bands.move_to_end(key)
                self.hits += 1
                return found
        rows = b"".join(b"\0" + pixels[i:i + width] for i in range(0, len(pixels), width))  # filter 0: none
        compressor = zlib.compressobj(level, zlib.DEFLATED, -zlib.MAX_WBITS)
        band = Band(pixels, compressor.compress(rows) + compressor.flush(zlib.Z_SYNC_FLUSH),
                    zlib.adler32(rows), len(rows))
        with self._lock:
            self.misses += 1
            if (old := self._bands.pop(key, None)) is not None:  # same checksum, other pixels
                self._size -= len(old.pixels) + len(old.packed)
            self._bands[key] = band
            self._size += len(pixels) + len(band.packed)
            while self._size > self.limit:
                _, old = self._bands.popitem(last=False)
                self._size -= len(old.pixels) + len(old.packed)
        return band

    def previous(self, shape: tuple[int, int, int]) -> list[Band]:
        """The bands of the last image of this (width, height, level) written, or none."""
        with self._lock:
            return self._previous.get(shape, [])

    def remember(self, shape: tuple[int, int, int], bands: list[Band]) -> None:
        with self._lock:
            self._previous[shape] = bands
            self._previous.move_to_end(shape)
            if len(self._previous) > PREVIOUS_SHAPES:
                self._previous.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._bands.clear()
            self._previous.clear()
            self._size = 0


BANDS = BandCache()


def encode(image: Image.Image, level: int, cache: BandCache = BANDS) -> bytes:
    """The image as PNG, from cached bands where its rows were seen before."""
    if not _opaque_palette(image) or min(image.size) == 0:
        return encode_whole(image, level)
    width, height = image.size
    pixels = image.tobytes()
    step = width * BAND_ROWS
    shape = (width, height, level)
    before = cache.previous(shape)
    bands, adler = [], 1
    for n, start in enumerate(range(0, len(pixels), step)):
        here = pixels[start:start + step]
        band = before[n] if n < len(before) and before[n].pixels == here else cache.band(here, width, level)
        bands.append(band)
        adler = adler_joined(adler, band.adler, band.length)
    cache.remember(shape, bands)
    stream = b"".join([ZLIB_HEADER, *(band.packed for band in bands), LAST_EMPTY_BLOCK, adler.to_bytes(4, "big")])
    palette = bytes(image.getpalette("RGB") or ())[:768]
    palette += bytes(768 - len(palette))  # every index an image may hold has an entry
    header = width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes((8, 3, 0, 0, 0))  # 8-bit palette
    return SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"PLTE", palette) + _chunk(b"IDAT", stream) + _chunk(b"IEND", b"")


def _opaque_palette(image: Image.Image) -> bool:
    """A palette image whose entries are plain colours: no transparent index, no alpha in them."""
    return (image.mode == "P" and "transparency" not in image.info
            and (image.palette is None or image.palette.mode == "RGB"))


def adler_joined(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings joined, from each one's own: the second's running sum
    starts from the first's, so every one of its ``second_length`` partial sums grows by it."""
    a1, b1 = first & 0xFFFF, first >> 16
    a2, b2 = second & 0xFFFF, second >> 16
    a = (a1 + a2 - 1) % ADLER_MOD
    b = (b1 + b2 + second_length * (a1 - 1)) % ADLER_MOD
    return a | b << 16


def _chunk(kind: bytes, data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + kind + data + zlib.crc32(data, zlib.crc32(kind)).to_bytes(4, "big")
