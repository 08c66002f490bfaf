"""Configuration from the environment (and a .env file). Every key is listed in .env.example."""

from __future__ import annotations

import os
from dataclasses import dataclass

from dotenv import load_dotenv

from .store import shown_target


@dataclass(frozen=True)
class Config:
    token: str | None
    database: str  # DATABASE_URL (postgresql://...) when set, else the SQLite file DATABASE_PATH
    dev_guild_id: int | None
    api_base: str | None  # only for the local Discord stand-in used by end-to-end tests
    log_level: str
    plugins: tuple[str, ...] = ()  # extra modules that register games (tests add a fake secret game)
    scheduler_interval: float = 60.0  # seconds between deadline/reminder checks
    worker_processes: int | None = None  # processes that draw boards and think for AIs (0: in the bot's own loop)

    def __repr__(self) -> str:  # never echo the token
        return f"Config(database={shown_target(self.database)!r}, dev_guild_id={self.dev_guild_id}, api_base={self.api_base!r})"


def load(env_file: str | None = ".env") -> Config:
    if env_file:
        load_dotenv(env_file, override=False)
    guild = os.environ.get("DEV_GUILD_ID", "").strip()
    return Config(
        token=os.environ.get("DISCORD_TOKEN", "").strip() or None,
        database=(os.environ.get("DATABASE_URL", "").strip()
                  or os.environ.get("DATABASE_PATH", "").strip() or "tabletop.sqlite3"),
        dev_guild_id=int(guild) if guild.isdigit() else None,
        api_base=os.environ.get("DISCORD_API_BASE", "").strip() or None,
        log_level=os.environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO",
        plugins=tuple(p.strip() for p in os.environ.get("GAME_PLUGINS", "").split(",") if p.strip()),
        scheduler_interval=float(os.environ.get("SCHEDULER_INTERVAL_SECONDS", "").strip() or 60),
        worker_processes=_optional_int(os.environ.get("WORKER_PROCESSES", "")),
    )


def _optional_int(text: str) -> int | None:
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() else None
