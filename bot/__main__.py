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
    commands.add_parser("migrate", help="create or upgrade the database (DATABASE_URL, else the SQLite file "
                                        "DATABASE_PATH) and print its schema version")
    export = commands.add_parser(
        "export-sqlite-to-postgres",
        help="copy every game, seat, action, result, deck and setting of a SQLite file into an empty PostgreSQL "
             "database (migrating both first), keeping ids; refuses a target that holds anything",
        description="Stop the bot first. The SQLite file is migrated to the newest schema, the PostgreSQL "
                    "database is migrated and must be empty; the copy is one transaction, verified table by "
                    "table, so it lands whole or not at all.")
    export.add_argument("sqlite_path", metavar="SQLITE_PATH")
    export.add_argument("postgres_url", metavar="POSTGRES_URL", help="postgresql://user@host/db")
    export.add_argument("--drop-orphans", action="store_true",
                        help="leave behind seats, actions and results of games deleted by hand (refused otherwise)")
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
    if args.command == "export-sqlite-to-postgres":
        return asyncio.run(export(args.sqlite_path, args.postgres_url, args.drop_orphans))
    if not config.token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    if config.worker_processes != 0:
        from .workers import fork_server

        fork_server.start(config.warm_sprites)
    for module in config.plugins:
        importlib.import_module(module).register_plugin()
    if config.api_base:
        from .discord_app.endpoint import point_at

        point_at(config.api_base)
    from .discord_app.client import make_bot

    bot = make_bot(config.database, dev_guild_id=config.dev_guild_id,
                   scheduler_interval=config.scheduler_interval, worker_processes=config.worker_processes,
                   warm_sprites=config.warm_sprites, games_in_flight=config.games_in_flight,
                   plugins=config.plugins, shard_count=config.shard_count, shard_ids=config.shard_ids,
                   sync_commands=config.sync_commands, follow_gather_seconds=config.follow_gather_seconds,
                   global_rate_limit=config.global_rate_limit)
    if config.web_port:
        from .web import WebSettings, derive_secret

        bot.web_settings = WebSettings(secret=derive_secret(config.client_secret, config.token), port=config.web_port,
                                       public_url=config.web_public_url, client_secret=config.client_secret)
        from .web.activity import activity_settings

        bot.web_settings.extra["activity"] = activity_settings(config)  # its application id once logged in
    from .storage.rows import StoreError, shown_target

    try:
        bot.run(config.token, log_handler=None)
    except StoreError as e:  # a schema newer than this bot, or a damaged one: refuse to serve
        print(f"{shown_target(config.database)}: {e.detail}", file=sys.stderr)
        return 1
    return 0


async def migrate(database: str) -> int:
    from .storage.rows import StoreError, shown_target
    from .storage import open_store

    try:
        store = await open_store(database)
    except StoreError as e:
        print(f"{shown_target(database)}: {e.detail}", file=sys.stderr)
        return 1
    print(f"{shown_target(database)}: schema version {await store.schema_version()}")
    await store.close()
    return 0


async def export(sqlite_path: str, postgres_url: str, drop_orphans: bool = False) -> int:
    from .storage.rows import StoreError, shown_target
    from .storage.export import ExportRefused, export_sqlite_to_postgres

    try:
        copied = await export_sqlite_to_postgres(sqlite_path, postgres_url, drop_orphans=drop_orphans)
    except (ExportRefused, StoreError) as e:
        print(f"export refused: {e.detail if isinstance(e, StoreError) else e}", file=sys.stderr)
        return 1
    for table, count in copied.items():
        print(f"{table}: {count} rows")
    print(f"{sqlite_path} -> {shown_target(postgres_url)}: done, every count verified")
    return 0


if __name__ == "__main__":
    sys.exit(main())
