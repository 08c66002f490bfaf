"""Small helpers for the Discord stand-in: snowflakes, timestamps, PNGs, JSON replies."""

from __future__ import annotations

import datetime as _dt
import json
import mimetypes
import re
import struct
import threading
import time
import zlib
from typing import Any

DISCORD_EPOCH_MS = 1420070400000


class SnowflakeFactory:
    """Strictly increasing Discord-shaped ids (timestamp << 22 | worker << 17 | counter)."""

    def __init__(self, worker: int = 0) -> None:
        self._last = 0
        self._worker = worker  # ids of two factories never meet
        self._lock = threading.Lock()

    def __call__(self, back_seconds: float = 0.0) -> int:
        """A fresh id of now, or dated ``back_seconds`` ago (still larger than this factory's last)."""
        with self._lock:
            ms = int((time.time() - back_seconds) * 1000) - DISCORD_EPOCH_MS
            candidate = ms << 22 | self._worker << 17
            if candidate <= self._last:
                candidate = self._last + 1
            self._last = candidate
            return candidate

    def on_shard(self, shard_id: int, shard_count: int) -> int:
        """A fresh id whose owner is ``shard_id`` of ``shard_count`` (Discord routes a guild to shard
        ``(guild_id >> 22) % shard_count``): the timestamp part is moved forward by up to
        ``shard_count - 1`` ms; later ids stay larger."""
        with self._lock:
            ms = max(int(time.time() * 1000) - DISCORD_EPOCH_MS, (self._last >> 22) + 1)
            ms += (shard_id - ms) % shard_count
            self._last = ms << 22
            return self._last


def snowflake_time(snowflake: int) -> _dt.datetime:
    ms = (int(snowflake) >> 22) + DISCORD_EPOCH_MS
    return _dt.datetime.fromtimestamp(ms / 1000, tz=_dt.timezone.utc)


def iso_now() -> str:
    return _dt.datetime.now(tz=_dt.timezone.utc).isoformat()


def iso_from_snowflake(snowflake: int) -> str:
    return snowflake_time(snowflake).isoformat()


def shorten_tokens(text: str) -> str:
    """Shorten interaction tokens in paths/messages so logs stay readable."""
    return re.sub(r"(aW50ZXJhY3Rpb24[\w-]{6})[\w-]*", r"\1…", text)


def to_json(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def make_png(width: int = 1, height: int = 1, rgb: tuple[int, int, int] = (90, 110, 200)) -> bytes:
    """A valid RGB PNG without Pillow (used for avatars and by tests)."""
    row = b"\x00" + bytes(rgb) * width
    raw = row * height

    def chunk(tag: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def sniff_content_type(data: bytes, filename: str) -> str:
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data[:3] == b"\xff\xd8\xff":
        return "image/jpeg"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "image/gif"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    guessed, _ = mimetypes.guess_type(filename)
    if guessed:
        if guessed.startswith("text/") or guessed in ("application/json",):
            return guessed + "; charset=utf-8"
        return guessed
    return "application/octet-stream"


def image_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) for PNG and GIF headers; other formats via Pillow if it is installed."""
    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24 and data[12:16] == b"IHDR":
        return struct.unpack(">II", data[16:24])
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        return struct.unpack("<HH", data[6:10])
    if data[:3] == b"\xff\xd8\xff" or (data[:4] == b"RIFF" and data[8:12] == b"WEBP"):
        try:
            import io

            from PIL import Image  # type: ignore

            with Image.open(io.BytesIO(data)) as im:
                return im.size
        except Exception:
            return None
    return None
