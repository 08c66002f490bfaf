"""Quiet hours in a person's own time zone: whether a moment falls in them, and when they end.

Pure: the moment is passed in. Every conversion between a person's wall clock and UTC goes
through :mod:`zoneinfo` (the IANA database: the system's, or the ``tzdata`` package where the
system has none), so summer time, half-hour zones and the date line are the database's business.

A window is written ``"23:00-08:00"`` in the person's zone; one that starts later in the day
than it ends runs across midnight. Start and end are both wall-clock times, so a window keeps
its meaning when the zone changes its offset.

>>> q = QuietHours.parse("23:00-08:00")
>>> ends = quiet_until(datetime(2026, 12, 1, 15, 0, tzinfo=timezone.utc), q, "Asia/Tokyo")  # 00:00 in Tokyo
>>> ends.isoformat()
'2026-12-01T23:00:00+00:00'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

DEFAULT_ZONE = "UTC"
_WINDOW = re.compile(r"^(\d{1,2})(?::(\d{2}))?\s*[-~〜–]\s*(\d{1,2})(?::(\d{2}))?$")


@dataclass(frozen=True)
class QuietHours:
    start: time
    end: time

    @classmethod
    def parse(cls, text: str) -> "QuietHours":
        """``"23:00-08:00"`` (also ``"23-8"``); ValueError for anything else, or an empty window."""
        m = _WINDOW.match(text.strip())
        if not m:
            raise ValueError(text)
        start_h, start_m, end_h, end_m = int(m[1]), int(m[2] or 0), int(m[3]), int(m[4] or 0)
        if end_h == 24 and end_m == 0:
            end_h = 0  # "22-24": until midnight
        if not (0 <= start_h < 24 and 0 <= end_h < 24 and start_m < 60 and end_m < 60):
            raise ValueError(text)
        window = cls(time(start_h, start_m), time(end_h, end_m))
        if window.start == window.end:
            raise ValueError(text)
        return window

    @property
    def text(self) -> str:
        return f"{self.start:%H:%M}-{self.end:%H:%M}"

    def covers(self, wall: time) -> bool:
        """Whether a wall-clock time of day is inside the window (the end itself is not)."""
        if self.start < self.end:
            return self.start <= wall < self.end
        return wall >= self.start or wall < self.end  # across midnight


@cache
def zone_names() -> tuple[str, ...]:
    """Every IANA zone name this machine knows, sorted (for autocomplete and validation)."""
    return tuple(sorted(available_timezones()))


def zone(name: str | None) -> ZoneInfo:
    """A zone by its IANA name; UTC for none. KeyError for a name the database does not know."""
    try:
        return ZoneInfo(name or DEFAULT_ZONE)
    except (ZoneInfoNotFoundError, ValueError):
        raise KeyError(name) from None


def known_zone(name: str) -> str | None:
    """The database's spelling of a zone name typed in any case ("asia/tokyo"), or None."""
    wanted = name.strip().lower().replace(" ", "_")
    return next((z for z in zone_names() if z.lower() == wanted), None)


def quiet_until(now: datetime, window: QuietHours | None, zone_name: str | None) -> datetime | None:
    """When the quiet period that ``now`` falls in ends (UTC), or None when ``now`` is not quiet."""
    if window is None:
        return None
    tz = zone(zone_name)
    local = now.astimezone(tz)
    if not window.covers(local.time().replace(tzinfo=None)):
        return None
    end_day = local.date()
    if window.start > window.end and local.time().replace(tzinfo=None) >= window.start:
        end_day += timedelta(days=1)  # quiet began this evening: it ends tomorrow morning
    end = _wall(end_day, window.end, tz).astimezone(timezone.utc)
    return end if end > now else None  # (a window end inside a clock change's gap: already over)


def local_wall(moment: datetime, zone_name: str | None) -> datetime:
    """A UTC moment as the wall clock of that zone shows it."""
    return moment.astimezone(zone(zone_name))


def _wall(day: date, at: time, tz: ZoneInfo) -> datetime:
    # zoneinfo resolves a wall time that a clock change skips or repeats (fold=0: the earlier one).
    return datetime.combine(day, at, tzinfo=tz)
