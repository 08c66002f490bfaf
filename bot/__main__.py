"""Run the bot: ``python -m bot``. Reads DISCORD_TOKEN (and the rest) from the environment or .env."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import sys

from . import config as config_module
from . import logsafe


NO_TOKEN = (
    "DISCORD_TOKEN is not set.\n"
    "  Copy .env.example to .env and put your bot token after DISCORD_TOKEN=\n"
    "  (Discord Developer Portal -> your application -> Bot -> Reset Token), then run again.\n"
    "DISCORD_TOKEN が設定されていません。.env.example を .env にコピーし、DISCORD_TOKEN= の後に\n"
    "ボットのトークンを書いてから、もう一度起動してください。"
)


def parser() -> argparse.ArgumentParser:
    cli = argparse.ArgumentParser(
        prog="python -m bot",
        description="A Discord bot that hosts tabletop games (SQUARESIV, Arena Duel, OSU, HOSTILE, Monster Hunter "
                    "TCG). Settings come from the environment or a .env file; .env.example lists every key "
                    "(DISCORD_TOKEN is the one you must set).",
        epilog="Play without Discord: python -m bot.local --help")
    commands = cli.add_subparsers(dest="command", metavar="COMMAND")
    commands.add_parser("run", help="connect to Discord and serve games (the default)")
    commands.add_parser("migrate", help="create or upgrade the database (DATABASE_PATH) and print its schema version")
    return cli


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        config = config_module.load()
    except config_module.ConfigError as e:
        print(e, file=sys.stderr)
        return 2
    logsafe.configure(config.log_level, secrets=(config.token or "",))
    if args.command == "migrate":
        return asyncio.run(migrate(config.database))
    if not config.token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    for module in config.plugins:
        importlib.import_module(module).register_plugin()
    if config.api_base:
        from .discord_endpoint import point_at

        point_at(config.api_base)
    from .adapter.client import make_bot

    bot = make_bot(config.database, dev_guild_id=config.dev_guild_id,
                   scheduler_interval=config.scheduler_interval, worker_processes=config.worker_processes,
                   plugins=config.plugins, shard_count=config.shard_count, shard_ids=config.shard_ids,
                   sync_commands=config.sync_commands, follow_gather_seconds=config.follow_gather_seconds)
    bot.run(config.token, log_handler=None)
    return 0


async def migrate(database: str) -> int:
    from .store import Store, StoreError

    try:
        store = await Store.open(database)
    except StoreError as e:
        print(f"{database}: {e.detail}", file=sys.stderr)
        return 1
    print(f"{database}: schema version {await store.schema_version()}")
    await store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
