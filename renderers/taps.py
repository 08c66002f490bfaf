"""Tap regions: where a renderer drew each thing a player may tap (a square, a piece, a tile, a card,
a monster), in the image's own pixel coordinates, recorded by the drawing code itself as it
composes the image (:func:`note_region` beside each paste), so the boxes can never drift from the
picture. Outside :func:`collecting` a note costs one lookup.

A region is ``{"key": str, "kind": str, "box": [x0, y0, x1, y1], "data": {...}}``: ``key`` the
stable name a tap means (``cell:b2``, ``hand:0:T2``), ``data`` the view's facts about it (never
more than the view holds), for saying it in words. The collector is a context variable, so two
threads (or tasks) drawing at once each get their own list.

>>> with collecting() as found:
...     note_region("cell:a1", "cell", (0, 0, 10.4, 10), square="a1")
>>> found
[{'key': 'cell:a1', 'kind': 'cell', 'box': [0, 0, 10, 10], 'data': {'square': 'a1'}}]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

Region = dict

_found: ContextVar[list[Region] | None] = ContextVar("tap_regions", default=None)


def is_collecting() -> bool:
    return _found.get() is not None


@contextmanager
def collecting() -> Iterator[list[Region]]:
    """Collect every region noted inside the block (nested blocks collect their own)."""
    found: list[Region] = []
    token = _found.set(found)
    try:
        yield found
    finally:
        _found.reset(token)


def note_region(key: str, kind: str, box: Sequence[float], /, **data) -> None:
    """Record that the image shows ``key`` (a ``kind`` of thing) inside ``box`` (board px)."""
    found = _found.get()
    if found is not None:
        found.append({"key": key, "kind": kind, "box": [round(v) for v in box], "data": data})


def scaled(regions: list[Region], scale: float) -> list[Region]:
    """The regions of an image enlarged ``scale`` times (``renderers.render``'s ``scale``)."""
    if scale == 1.0:
        return regions
    return [{**r, "box": [round(v * scale) for v in r["box"]]} for r in regions]
