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
