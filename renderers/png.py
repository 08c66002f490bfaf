"""PNG writing that reuses the work of earlier images (issue #11).

One action changes a board in a few places (a piece, the last-move marks, whose turn it is), yet a
whole-image encode compresses every row again, and that encode was most of an action's cost. Here
a palette image is cut into bands of rows, and each band is deflated on its own: a fresh compressor
ended on a byte boundary, so its bytes depend on nothing before it. A band seen before, in any
image this process wrote, costs a checksum and a comparison instead of a compression. The bands
join into one zlib stream (a closing empty block, and an Adler-32 combined from the bands' own),
so the file is an ordinary PNG that decodes to the image, pixel for pixel.

Rows are written unfiltered (PNG filter 0), as is usual for palette images, so a band's bytes are
its pixels. Other images (RGB, any transparency) go to Pillow's encoder.
"""

from __future__ import annotations

import io
import threading
import zlib
from collections import OrderedDict

from PIL import Image

BAND_ROWS = 16
CACHE_BYTES = 16 * 1024 * 1024  # per process: about a thousand bands of a board 880 pixels wide
ADLER_MOD = 65521
SIGNATURE = b"\x89PNG\r\n\x1a\n"
ZLIB_HEADER = b"\x78\x01"  # deflate with a 32 KiB window, "fastest" (a hint only)
LAST_EMPTY_BLOCK = b"\x03\x00"  # a final fixed-Huffman block holding only its end code


def encode_whole(image: Image.Image, level: int) -> bytes:
    """The whole image compressed again by Pillow: the floor the benchmarks compare against."""
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=level)
    return out.getvalue()


class BandCache:
    """Deflated bands by content, least recently used dropped first. Thread-safe: the bot draws
    in worker processes, but a test or the local driver may draw from several threads."""

    def __init__(self, limit: int = CACHE_BYTES):
        self.limit = limit
        self._bands: OrderedDict[tuple[int, int, int], tuple[bytes, bytes]] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def deflated(self, raw: bytes, level: int) -> tuple[bytes, int]:
        """(the band deflated, ending byte-aligned and not final; its Adler-32)."""
        adler = zlib.adler32(raw)
        key = (adler, len(raw), level)
        with self._lock:
            found = self._bands.get(key)
            if found is not None and found[0] == raw:
                self._bands.move_to_end(key)
                self.hits += 1
                return found[1], adler
        compressor = zlib.compressobj(level, zlib.DEFLATED, -zlib.MAX_WBITS)
        packed = compressor.compress(raw) + compressor.flush(zlib.Z_SYNC_FLUSH)
        with self._lock:
            self.misses += 1
            if (old := self._bands.pop(key, None)) is not None:  # same checksum, other pixels
                self._size -= len(old[0]) + len(old[1])
            self._bands[key] = (raw, packed)
            self._size += len(raw) + len(packed)
            while self._size > self.limit:
                _, (old_raw, old_packed) = self._bands.popitem(last=False)
                self._size -= len(old_raw) + len(old_packed)
        return packed, adler

    def clear(self) -> None:
        with self._lock:
            self._bands.clear()
            self._size = 0


BANDS = BandCache()


def encode(image: Image.Image, level: int, cache: BandCache = BANDS) -> bytes:
    """The image as PNG, from cached bands where its rows were seen before."""
    if not _opaque_palette(image) or min(image.size) == 0:
        return encode_whole(image, level)
    width, height = image.size
    scanlines = Image.new("P", (width + 1, height), 0)  # column 0: each row's filter byte, 0 = none
    scanlines.paste(image, (1, 0))
    raw = scanlines.tobytes()
    step = (width + 1) * BAND_ROWS
    parts, adler = [], 1
    for start in range(0, len(raw), step):
        band = raw[start:start + step]
        packed, band_adler = cache.deflated(band, level)
        parts.append(packed)
        adler = adler_joined(adler, band_adler, len(band))
    stream = b"".join([ZLIB_HEADER, *parts, LAST_EMPTY_BLOCK, adler.to_bytes(4, "big")])
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
