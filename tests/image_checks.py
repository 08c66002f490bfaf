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
    of ``colour``: where a sprite of that colour is."""
    r, g, b = colour[:3]
    mask = image.convert("RGB").point(lambda v: v)   # a copy to test pixel by pixel
    px = mask.load()
    hits = [(x, y) for y in range(mask.height) for x in range(mask.width)
            if (px[x, y][0] - r) ** 2 + (px[x, y][1] - g) ** 2 + (px[x, y][2] - b) ** 2 <= tolerance ** 2]
    if not hits:
        return 0, None
    xs, ys = [x for x, _ in hits], [y for _, y in hits]
    return len(hits), (min(xs), min(ys), max(xs) + 1, max(ys) + 1)
