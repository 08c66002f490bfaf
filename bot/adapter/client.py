"""The discord.py client: wires the service, the commands and the persistent components together."""

from __future__ import annotations

import asyncio
import logging

import discord
from discord import app_commands

from ..scheduler import DEFAULT_INTERVAL_SECONDS, Scheduler
from ..service import GameHost
from ..store import Store
from .commands import GameCommands, play_command
from .components import Routed
from .delivery import Delivery
from .router import Router
from .translator import CatalogueTranslator

log = logging.getLogger(__name__)


class TabletopBot(discord.Client):
    """No privileged intents: everything arrives as interactions."""

    def __init__(self, database: str, *, dev_guild_id: int | None = None,
                 scheduler_interval: float = DEFAULT_INTERVAL_SECONDS):
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(intents=intents, allowed_mentions=discord.AllowedMentions.none())
        self.database = database
        self.dev_guild_id = dev_guild_id
        self.tree = app_commands.CommandTree(self)
        self.store: Store | None = None
        self.host: GameHost | None = None
        self.router: Router | None = None
        self._caught_up = False
        self.scheduler_interval = scheduler_interval
        self._scheduler_task: asyncio.Task | None = None

    async def setup_hook(self) -> None:
        await self.prepare()
        if self.dev_guild_id:
            guild = discord.Object(self.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        await self.tree.sync()
        log.info("commands synced")

    async def prepare(self) -> None:
        """Open storage and register every command and persistent component (no network)."""
        self.store = await Store.open(self.database)
        self.host = GameHost(self.store)
        delivery = Delivery(self, self.host)
        self.router = Router(self.host, delivery)
        self.delivery = delivery
        # Registered before the gateway connects, so old buttons work the moment we are back.
        self.add_dynamic_items(Routed)
        self.tree.add_command(GameCommands(self.host, self.router))
        self.tree.add_command(play_command(self.host, self.router))
        await self.tree.set_translator(CatalogueTranslator())

    async def on_ready(self) -> None:
        log.info("connected as %s (%s)", self.user, self.user.id if self.user else "?")
        if not self._caught_up:
            self._caught_up = True
            for post in await self.host.pending_posts():
                await self.delivery.post(post)
            scheduler = Scheduler(self.host, self.delivery.send, self.delivery.reminders)
            self._scheduler_task = asyncio.create_task(scheduler.run(self.scheduler_interval))

    async def close(self) -> None:
        if self._scheduler_task is not None:
            self._scheduler_task.cancel()
        await super().close()
        if self.store is not None:
            await self.store.close()
