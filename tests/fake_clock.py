"""A clock the tests move, for the real bot process (loaded like tests/fake_games.py, through
GAME_PLUGINS). With FAKE_CLOCK_FILE set, the game host reads "now" from that file (an ISO 8601
time written by the test; the real time while the file is empty or absent), so an end-to-end test
can let days pass in a second: deadlines, reminders, quiet hours, tournament rounds.

    clock = FakeClock(tmp_path / "now"); clock.set("2026-12-01T08:00:00+00:00"); clock.advance(hours=25)

The scheduler still ticks in real time (SCHEDULER_INTERVAL_SECONDS), reading the moved clock.
"""

from __future__ import annotations

import os
from datetime import datetime, timedelta, timezone
from pathlib import Path

from bot.service.core import HostCore
from bot.service.settings import utc_now

CLOCK_FILE = os.environ.get("FAKE_CLOCK_FILE")


def _file_clock() -> datetime:
    try:
        text = Path(CLOCK_FILE).read_text().strip()
    except OSError:
        text = ""
    return datetime.fromisoformat(text) if text else utc_now()


def register_plugin() -> None:
    """Entry point for GAME_PLUGINS (as tests/fake_games.py): the host's default clock becomes the
    file's, when the test gave one."""
    if CLOCK_FILE:
        HostCore.default_clock = _file_clock


class FakeClock:
    """The test's side: pass ``env`` to the bot process, then set or advance the time."""

    def __init__(self, path: Path, start: str = "2026-12-01T09:00:00+00:00"):
        self.path = Path(path)
        self.set(start)

    @property
    def env(self) -> dict[str, str]:
        return {"FAKE_CLOCK_FILE": str(self.path)}

    @property
    def now(self) -> datetime:
        return datetime.fromisoformat(self.path.read_text().strip())

    def set(self, moment: str | datetime) -> None:
        text = moment if isinstance(moment, str) else moment.astimezone(timezone.utc).isoformat(timespec="seconds")
        self.path.write_text(text)

    def advance(self, **delta) -> datetime:
        self.set(self.now + timedelta(**delta))
        return self.now
