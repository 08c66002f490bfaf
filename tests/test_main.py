"""Starting the bot: a clear message without a token, and the token never echoed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot import config

ROOT = Path(__file__).resolve().parents[1]


def test_without_a_token_the_bot_says_how_to_set_one(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(ROOT)
    result = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True,
                            text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert result.returncode == 2
    assert "DISCORD_TOKEN" in result.stderr and ".env" in result.stderr and "トークン" in result.stderr


def test_config_reads_dotenv_and_never_shows_the_token(tmp_path, monkeypatch):
    for key in ("DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID", "GAME_PLUGINS"):
        monkeypatch.delenv(key, raising=False)
    env_file = tmp_path / ".env"
    env_file.write_text("DISCORD_TOKEN=secret-token-value\nDATABASE_PATH=x.sqlite3\nDEV_GUILD_ID=123\n")
    loaded = config.load(str(env_file))
    assert loaded.token == "secret-token-value" and loaded.database == "x.sqlite3" and loaded.dev_guild_id == 123
    assert "secret-token-value" not in repr(loaded) and "secret-token-value" not in str(loaded)


def test_env_example_lists_every_key_the_config_reads():
    source = (ROOT / "bot" / "config.py").read_text()
    example = (ROOT / ".env.example").read_text()
    import re

    for key in set(re.findall(r'environ\.get\("([A-Z_]+)"', source)):
        assert f"{key}=" in example, key


def test_help_and_migrate_need_no_token(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env.update(PYTHONPATH=str(ROOT), DATABASE_PATH=str(tmp_path / "m.sqlite3"))
    shown = subprocess.run([sys.executable, "-m", "bot", "--help"], cwd=tmp_path, env=env, capture_output=True,
                           text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert shown.returncode == 0 and "DISCORD_TOKEN" in shown.stdout and "migrate" in shown.stdout
    migrated = subprocess.run([sys.executable, "-m", "bot", "migrate"], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert migrated.returncode == 0 and "schema version" in migrated.stdout
    assert (tmp_path / "m.sqlite3").exists()


def test_database_url_picks_postgres_and_its_password_is_never_shown(tmp_path, monkeypatch):
    monkeypatch.setenv("DATABASE_PATH", "x.sqlite3")
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot:hunter2-password@db.example:5432/games")
    loaded = config.load(None)
    assert loaded.database == "postgresql://bot:hunter2-password@db.example:5432/games"
    assert "hunter2-password" not in repr(loaded) and "db.example" in repr(loaded)
    monkeypatch.setenv("DATABASE_URL", "")
    assert config.load(None).database == "x.sqlite3"


async def test_migrate_prepares_postgres_and_refuses_a_newer_schema(pg_backend):
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_PATH")}
    env.update(PYTHONPATH=str(ROOT), DATABASE_URL=pg_backend.target)

    def migrate():
        return subprocess.run([sys.executable, "-m", "bot", "migrate"], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=300, stdin=subprocess.DEVNULL)

    done = migrate()
    from bot.storage.postgres import PgStore

    assert done.returncode == 0 and f"schema version {PgStore.migrations()[-1][0]}" in done.stdout, done.stderr
    assert {"games", "seats", "actions", "results", "decks", "user_settings"} <= await pg_backend.tables()
    await pg_backend.set_schema_version(999)
    refused = migrate()
    assert refused.returncode == 1 and "newer than this bot understands" in refused.stderr


def test_nonsense_shard_settings_stop_the_bot_with_a_clear_message(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("SHARD_COUNT", "SHARD_IDS", "SYNC_COMMANDS")}
    env.update(PYTHONPATH=str(ROOT), DISCORD_TOKEN="t", SHARD_COUNT="8", SHARD_IDS="4-9")
    result = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True,
                            text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert result.returncode == 2 and "SHARD_IDS=4-9" in result.stderr and "0-7" in result.stderr


def test_shard_settings(monkeypatch):
    for key, value in (("SHARD_COUNT", "8"), ("SHARD_IDS", "4-5,7"), ("SYNC_COMMANDS", "")):
        monkeypatch.setenv(key, value)
    loaded = config.load(None)
    assert (loaded.shard_count, loaded.shard_ids, loaded.sync_commands) == (8, (4, 5, 7), False)
    monkeypatch.setenv("SHARD_IDS", "0-3")
    assert config.load(None).sync_commands is True  # the process holding shard 0 syncs the commands
    monkeypatch.setenv("SYNC_COMMANDS", "1")
    monkeypatch.setenv("SHARD_IDS", "6")
    assert config.load(None).sync_commands is True
    for key in ("SHARD_COUNT", "SHARD_IDS", "SYNC_COMMANDS"):
        monkeypatch.delenv(key)
    loaded = config.load(None)
    assert (loaded.shard_count, loaded.shard_ids, loaded.sync_commands) == (None, None, True)
    for count, ids in (("8", "8"), ("0", ""), ("x", ""), ("4", "3-1"), ("4", "0,0"), ("", "1"), ("4", "1-2-3")):
        monkeypatch.setenv("SHARD_COUNT", count)
        monkeypatch.setenv("SHARD_IDS", ids)
        with pytest.raises(config.ConfigError):
            config.load(None)


def test_games_in_flight_is_a_positive_count_or_the_services_default(monkeypatch):
    monkeypatch.delenv("GAMES_IN_FLIGHT", raising=False)
    assert config.load(None).games_in_flight is None
    monkeypatch.setenv("GAMES_IN_FLIGHT", " 16 ")
    assert config.load(None).games_in_flight == 16
    for text in ("0", "-3", "many", "2.5"):
        monkeypatch.setenv("GAMES_IN_FLIGHT", text)
        with pytest.raises(config.ConfigError, match="GAMES_IN_FLIGHT"):
            config.load(None)


def test_warm_sprites_is_on_unless_turned_off(monkeypatch):
    monkeypatch.delenv("WARM_SPRITES", raising=False)
    assert config.load(None).warm_sprites is True
    for text, expected in (("0", False), ("no", False), ("1", True), ("TRUE", True)):
        monkeypatch.setenv("WARM_SPRITES", text)
        assert config.load(None).warm_sprites is expected
    monkeypatch.setenv("WARM_SPRITES", "maybe")
    with pytest.raises(config.ConfigError, match="WARM_SPRITES"):
        config.load(None)
