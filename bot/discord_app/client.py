"""The discord.py client: wires the service, the commands and the persistent components together."""

from __future__ import annotations

import asyncio
import logging

import discord
from discord import app_commands

from ..workers import pool as workers
from ..service.scheduler import DEFAULT_INTERVAL_SECONDS, Scheduler
from ..service import DEFAULT_FOLLOW_GATHER_SECONDS, GameHost, open_host
from ..service import deck_games
from .commands import (BOTH_INSTALLS, EVERY_CONTEXT, DeckCommands, GameCommands, LeagueCommands, TableCommands, TournamentCommands, help_command,
                       play_command)
from .components import Routed
from .emoji import APP_EMOJI
from .delivery import Delivery
from .pace import DISCORD_GLOBAL_LIMIT, Pace, pace_requests, share_of_limit
from .router import Router
from .table_button import sync_global_commands
from .translator import CatalogueTranslator

log = logging.getLogger(__name__)


class TabletopBot(discord.Client):
    """No privileged intents: everything arrives as interactions.

    Several processes may serve one bot, each holding some shards (:class:`ShardedTabletopBot`),
    on one database. Nothing here assumes a game's guild or channel is in this process's cache:
    a DM panel click arrives on shard 0 while the game's channel may be on another process's shard,
    so every post goes out by channel id over REST. What must happen once across processes
    (a deadline, a reminder, reposting a lost board, touching an idle thread) is claimed in the
    database; only one process syncs the slash commands."""

    def __init__(self, database: str, *, dev_guild_id: int | None = None,
                 scheduler_interval: float = DEFAULT_INTERVAL_SECONDS, worker_processes: int | None = None,
                 warm_sprites: bool = False, games_in_flight: int | None = None,
                 plugins: tuple[str, ...] = (), sync_commands: bool = True,
                 follow_gather_seconds: float = DEFAULT_FOLLOW_GATHER_SECONDS,
                 global_rate_limit: int | None = None, **shard_options):
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(intents=intents, allowed_mentions=discord.AllowedMentions.none(), **shard_options)
        # Under Discord's global rate limit (this process's part of it), first come first served.
        share = share_of_limit(global_rate_limit or DISCORD_GLOBAL_LIMIT, shard_options.get("shard_count"),
                               shard_options.get("shard_ids"))
        self.pace = pace_requests(self.http, Pace(share))
        self.sync_commands = sync_commands
        self.sharded = bool(shard_options)
        self.database = database
        self.dev_guild_id = dev_guild_id
        self.tree = app_commands.CommandTree(self, allowed_contexts=EVERY_CONTEXT, allowed_installs=BOTH_INSTALLS)
        self.store = None  # the host's, once prepared
        self.host: GameHost | None = None
        self.router: Router | None = None
        self._caught_up = False
        self.scheduler_interval = scheduler_interval
        self._scheduler_task: asyncio.Task | None = None
        self.worker_processes = worker_processes
        self.warm_sprites = warm_sprites
        self.games_in_flight = games_in_flight
        self.plugins = plugins
        self.follow_gather_seconds = follow_gather_seconds
        self.executor = None
        self._warming: asyncio.Task | None = None
        self.web_settings = None  # bot.web.WebSettings when WEB_PORT is set: the web table is served too
        self.web_runner = None

    async def setup_hook(self) -> None:
        await self.prepare()
        workers.settle_heap()  # everything start-up built stays alive for good
        # the process that syncs commands uploads changed pictures; the others only read them
        await APP_EMOJI.sync(self, upload=self.sync_commands)
        if not self.sync_commands:
            log.info("commands are synced by another process (SYNC_COMMANDS)")
            return
        if self.dev_guild_id:
            guild = discord.Object(self.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        await sync_global_commands(self)
        log.info("commands synced")

    async def prepare(self) -> None:
        """Open storage and register every command and persistent component (no network)."""
        if self.worker_processes != 0:
            self.executor = workers.process_pool(self.worker_processes, self.plugins, warm=self.warm_sprites)
            self._warming = asyncio.create_task(workers.start(self.executor))
        in_flight = {} if self.games_in_flight is None else {"games_in_flight": self.games_in_flight}
        self.host = await open_host(self.database, executor=self.executor, **in_flight)
        self.store = self.host.store
        self.host.follow_gather_seconds = self.follow_gather_seconds
        self.started_at = self.host.now_stamp()  # boards saved from now on are this process's to deliver
        delivery = Delivery(self, self.host)
        self.router = Router(self.host, delivery)
        self.delivery = delivery
        # Registered before the gateway connects, so old buttons work the moment we are back.
        self.add_dynamic_items(Routed)
        self.tree.add_command(GameCommands(self.host, self.router))
        self.tree.add_command(play_command(self.host, self.router))
        self.tree.add_command(TableCommands(self.host, self.router))
        if deck_games():  # a game in which players bring decks is registered
            self.tree.add_command(DeckCommands(self.host, self.router))
        self.tree.add_command(TournamentCommands(self.host, self.router))
        self.tree.add_command(LeagueCommands(self.host, self.router))
        self.tree.add_command(help_command(self.host, self.router))
        await self.tree.set_translator(CatalogueTranslator())
        if self.web_settings is not None:  # on this very event loop, beside the gateway
            from ..web import start_web
            from ..web.activity import bind_application

            bind_application(self.web_settings, self.application_id)

            self.web_runner = await start_web(self.host, self.web_settings, deliver=self.delivery.send)

    async def on_ready(self) -> None:
        log.info("connected as %s (%s)", self.user, self.user.id if self.user else "?")
        if not self._caught_up:
            self._caught_up = True
            # Sharded, another process may be delivering a board right now: leave the fresh ones to it.
            for post in await self.host.pending_posts(settled_only=self.sharded, saved_before=self.started_at,
                                                      process_started=self.started_at):
                await self.delivery.post(post)
            scheduler = Scheduler(self.host, self.delivery.send, self.delivery.reminders,
                                  keep_thread_open=self.delivery.keep_thread_open,
                                  recaps=self.delivery.start_due_recaps,
                                  notify_followers=self.delivery.follow_notices, started_at=self.started_at,
                                  notices=self.delivery.notices)
            self._scheduler_task = asyncio.create_task(scheduler.run(self.scheduler_interval))

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Submitted forms (the bot's ``tt:m:`` dialogs) are answered from their custom id and
        values alone: discord.py's modal store forgets a dialog after a restart, and the
        :class:`FormModal` itself does nothing on submit, so each submit is handled exactly once."""
        if (interaction.type is discord.InteractionType.modal_submit and self.router is not None
                and str((interaction.data or {}).get("custom_id", "")).startswith("tt:m:")):
            await self.router.on_form_submit(interaction)

    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        """Discord archived a thread after 7 idle days, or a moderator closed or locked it: if an
        open game lives there, reopen it; one the bot cannot reopen sends its games to the channel."""
        meta = payload.data.get("thread_metadata", {})
        if (meta.get("archived") or meta.get("locked")) and self.host is not None:
            if await self.host.is_open_game_thread(payload.thread_id):
                await self.delivery.keep_thread_open(payload.thread_id)

    async def close(self) -> None:
        if self._scheduler_task is not None:
            self._scheduler_task.cancel()
        await super().close()
        if self.web_runner is not None:
            await self.web_runner.cleanup()
        if self.store is not None:
            await self.store.close()
        if self.executor is not None:
            self.executor.shutdown(wait=False)


class ShardedTabletopBot(TabletopBot, discord.AutoShardedClient):
    """The bot holding some of Discord's shards (``SHARD_COUNT``, ``SHARD_IDS``)."""


def make_bot(database: str, *, shard_count: int | None = None, shard_ids: tuple[int, ...] | None = None,
             **options) -> TabletopBot:
    """The plain client, or with ``shard_count`` the sharded one holding ``shard_ids`` (all if None)."""
    if shard_count is None:
        return TabletopBot(database, **options)
    return ShardedTabletopBot(database, shard_count=shard_count,
                              shard_ids=list(shard_ids) if shard_ids is not None else None, **options)
