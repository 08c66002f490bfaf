"""Configuration from the environment (and a .env file). Every key is listed in .env.example."""

from __future__ import annotations

import os
from dataclasses import dataclass

from dotenv import load_dotenv

from .storage.rows import shown_target


class ConfigError(ValueError):
    """A setting that makes no sense; the message names the key and what would be accepted."""


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
    shard_count: int | None = None  # Discord shards of the whole bot (None: one unsharded connection)
    shard_ids: tuple[int, ...] | None = None  # the shards this process holds (None: all of them)
    sync_commands: bool = True  # whether this process syncs the slash commands (one process should)
    follow_gather_seconds: float = 60.0  # a spectator's turn notice waits this long for other turns to join it
    warm_sprites: bool = True  # palettes before the workers fork, every other sprite in the background
    games_in_flight: int | None = None  # games let into an operation at once (None: the service's default)
    global_rate_limit: int | None = None  # Discord's requests a second for the whole bot (None: its default, 50)
    web_port: int | None = None  # serve the web table on this port (None: no web way in)
    web_public_url: str | None = None  # the address players open (behind the TLS proxy), for links
    client_secret: str | None = None  # the application's OAuth2 client secret (Activity sign-in, link keys)
    web_activity: bool = False  # the application has Activities enabled: the Table button launches it

    def __repr__(self) -> str:  # never echo the token
        return (f"Config(database={shown_target(self.database)!r}, dev_guild_id={self.dev_guild_id}, "
                f"api_base={self.api_base!r}, web_port={self.web_port})")


def load(env_file: str | None = ".env") -> Config:
    if env_file:
        load_dotenv(env_file, override=False)
    guild = os.environ.get("DEV_GUILD_ID", "").strip()
    shard_count, shard_ids = parse_shards(os.environ.get("SHARD_COUNT", ""), os.environ.get("SHARD_IDS", ""))
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
        shard_count=shard_count,
        shard_ids=shard_ids,
        sync_commands=parse_sync(os.environ.get("SYNC_COMMANDS", ""), shard_ids),
        follow_gather_seconds=float(os.environ.get("FOLLOW_GATHER_SECONDS", "").strip() or 60),
        warm_sprites=parse_flag("WARM_SPRITES", os.environ.get("WARM_SPRITES", ""), default=True),
        games_in_flight=parse_count("GAMES_IN_FLIGHT", os.environ.get("GAMES_IN_FLIGHT", "")),
        global_rate_limit=parse_count("GLOBAL_RATE_LIMIT", os.environ.get("GLOBAL_RATE_LIMIT", "")),
        web_port=parse_port("WEB_PORT", os.environ.get("WEB_PORT", "")),
        web_public_url=parse_url("WEB_PUBLIC_URL", os.environ.get("WEB_PUBLIC_URL", "")),
        client_secret=os.environ.get("DISCORD_CLIENT_SECRET", "").strip() or None,
        web_activity=parse_flag("WEB_ACTIVITY", os.environ.get("WEB_ACTIVITY", ""), default=False),
    )


def parse_port(name: str, text: str) -> int | None:
    """A TCP port, 1-65535; empty: None."""
    text = text.strip()
    if not text:
        return None
    if text.isascii() and text.isdigit() and 1 <= int(text) <= 65535:
        return int(text)
    raise ConfigError(f"{name} must be a port number from 1 to 65535, got {text!r}.\n"
                      f"{name} は 1 から 65535 までのポート番号にしてください。")


def parse_url(name: str, text: str) -> str | None:
    """An http(s) address without a trailing slash; empty: None."""
    text = text.strip().rstrip("/")
    if not text:
        return None
    if text.startswith(("https://", "http://")) and len(text) > len("https://"):
        return text
    raise ConfigError(f"{name} must start with https:// (or http:// for a local test), got {text!r}.\n"
                      f"{name} は https:// で始まるアドレスにしてください。")


def parse_shards(count_text: str, ids_text: str) -> tuple[int | None, tuple[int, ...] | None]:
    """``SHARD_COUNT`` and ``SHARD_IDS`` ("0-3", "4,5,7", "0-1,6"): (count, ids) or (None, None).

    >>> parse_shards("8", "4-5,7")
    (8, (4, 5, 7))
    """
    count_text, ids_text = count_text.strip(), ids_text.strip()
    if not count_text:
        if ids_text:
            raise ConfigError(f"SHARD_IDS={ids_text} needs SHARD_COUNT (the number of shards of the whole bot).\n"
                              "SHARD_IDS を使うには SHARD_COUNT（ボット全体のシャード数）が必要です。")
        return None, None
    if not (count_text.isascii() and count_text.isdigit()) or int(count_text) < 1:
        raise ConfigError(f"SHARD_COUNT must be a whole number of at least 1, got {count_text!r}.\n"
                          "SHARD_COUNT は 1 以上の整数にしてください。")
    count = int(count_text)
    if not ids_text:
        return count, None
    ids: list[int] = []
    for part in ids_text.split(","):
        ids += _shard_range(part.strip(), count, ids_text)
    if len(set(ids)) != len(ids):
        raise ConfigError(f"SHARD_IDS={ids_text} names a shard twice.\nSHARD_IDS に同じシャードが二度あります。")
    return count, tuple(sorted(ids))


def _shard_range(part: str, count: int, whole: str) -> list[int]:
    bounds = part.split("-")
    if not part or len(bounds) > 2 or not all(b.strip().isascii() and b.strip().isdigit() for b in bounds):
        raise ConfigError(f"SHARD_IDS={whole}: {part!r} is neither a shard number nor a range like 0-3.\n"
                          "SHARD_IDS は 0-3 や 4,5,7 のように書いてください。")
    first, last = int(bounds[0]), int(bounds[-1])
    if first > last:
        raise ConfigError(f"SHARD_IDS={whole}: the range {part!r} runs backwards; write it low-high.\n"
                          "SHARD_IDS の範囲は小さい番号から書いてください（例: 0-3）。")
    if last >= count:
        raise ConfigError(f"SHARD_IDS={whole}: {part!r} is outside shards 0-{count - 1} of SHARD_COUNT={count}.\n"
                          f"SHARD_IDS は SHARD_COUNT={count} の範囲 0-{count - 1} に収めてください。")
    return list(range(first, last + 1))


def parse_sync(text: str, shard_ids: tuple[int, ...] | None) -> bool:
    """Whether to sync the slash commands: ``SYNC_COMMANDS=1/0``, else only the process holding shard 0."""
    return parse_flag("SYNC_COMMANDS", text, default=shard_ids is None or 0 in shard_ids)


def parse_flag(name: str, text: str, *, default: bool) -> bool:
    """A 1/0 setting (true/false, yes/no); empty: ``default``."""
    text = text.strip().lower()
    if text in ("1", "true", "yes"):
        return True
    if text in ("0", "false", "no"):
        return False
    if text:
        raise ConfigError(f"{name} must be 1 or 0, got {text!r}.\n{name} は 1 か 0 にしてください。")
    return default


def parse_count(name: str, text: str) -> int | None:
    """A whole number of at least 1; empty: None (the default of whoever uses it)."""
    text = text.strip()
    if not text:
        return None
    if text.isascii() and text.isdigit() and int(text) >= 1:
        return int(text)
    raise ConfigError(f"{name} must be a whole number of at least 1, got {text!r}.\n"
                      f"{name} は 1 以上の整数にしてください。")


def _optional_int(text: str) -> int | None:
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() else None
