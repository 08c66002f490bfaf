"""Run the bot: ``python -m bot``. Reads DISCORD_TOKEN (and the rest) from the environment or .env."""

from __future__ import annotations

import importlib
import logging
import sys

from . import config as config_module


NO_TOKEN = (
    "DISCORD_TOKEN is not set.\n"
    "  Copy .env.example to .env and put your bot token after DISCORD_TOKEN=\n"
    "  (Discord Developer Portal -> your application -> Bot -> Reset Token), then run again.\n"
    "DISCORD_TOKEN が設定されていません。.env.example を .env にコピーし、DISCORD_TOKEN= の後に\n"
    "ボットのトークンを書いてから、もう一度起動してください。"
)


def main(argv: list[str] | None = None) -> int:
    config = config_module.load()
    logging.basicConfig(level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if not config.token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    for module in config.plugins:
        importlib.import_module(module).register_plugin()
    if config.api_base:
        from .discord_endpoint import point_at

        point_at(config.api_base)
    from .adapter.client import TabletopBot

    bot = TabletopBot(config.database, dev_guild_id=config.dev_guild_id,
                      scheduler_interval=config.scheduler_interval)
    bot.run(config.token, log_handler=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
