"""Helpers the renderer tests share: decode a PNG strictly, compare two images."""

from __future__ import annotations

import io

from PIL import Image, ImageChops

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def decode(png: bytes) -> Image.Image:
    assert png[:8] == PNG_MAGIC
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


def differs(a: Image.Image, b: Image.Image, box=None) -> bool:
    """Whether two images differ at all (inside ``box`` when given)."""
    diff = ImageChops.difference(a, b)
    if box is not None:
        diff = diff.crop(box)
    return diff.getbbox() is not None


def at_width(png: bytes, width: int) -> Image.Image:
    """A posted PNG as a phone shows it: decoded and shrunk to ``width`` px wide (RGB)."""
    image = decode(png).convert("RGB")
    return image.resize((width, round(image.height * width / image.width)), Image.Resampling.LANCZOS)


def colour_box(image: Image.Image, colour, tolerance: float) -> tuple[int, tuple[int, int, int, int] | None]:
    """(how many pixels, their bounding box) of ``image`` within ``tolerance`` (Euclidean RGB)
    of ``colour``: where a sprite of that colour is. Pillow first keeps the pixels within
    ``tolerance`` on every channel (a necessary condition, and few pixels); only those are
    tested exactly, in Python (testing all of them took most of the phone tests' time)."""
    rgb = image.convert("RGB")
    diff = ImageChops.difference(rgb, Image.new("RGB", rgb.size, tuple(colour[:3])))
    r, g, b = diff.split()
    near = ImageChops.lighter(ImageChops.lighter(r, g), b).point(lambda v: 255 if v <= tolerance else 0)
    if near.getbbox() is None:
        return 0, None
    width, limit = rgb.width, tolerance ** 2
    near_bytes, diff_bytes = near.tobytes(), diff.tobytes()
    hits = []
    for i in range(len(near_bytes)):
        if near_bytes[i]:
            dr, dg, db = diff_bytes[3 * i], diff_bytes[3 * i + 1], diff_bytes[3 * i + 2]
            if dr * dr + dg * dg + db * db <= limit:
                hits.append(i)
    if not hits:
        return 0, None
    xs, ys = [i % width for i in hits], [i // width for i in hits]
    return len(hits), (min(xs), min(ys), max(xs) + 1, max(ys) + 1)
