"""Slash commands: ``/game ...`` and ``/play``. Each parses, defers, calls the service, delivers."""

from __future__ import annotations

import discord
from discord import app_commands

from games import all_games
from ..i18n import language_of, t
from ..common.permissions import blocked_error_params, help_lines, plan
from ..common.quiet_hours import zone_names
from ..service import (AI_LEVELS, DEADLINE_ACTIONS, MAX_DECK_NAME, PING_MODES, PING_VIAS, TIMEOUT_POLICIES, GameHost, Outbox,
                       ServiceError, deck_games, make_settings, policy_games)
from .delivery import acknowledge, language, rides_interactions
from .router import Router, reach_of, where_of
from .translator import L

MAX_AUTOCOMPLETE = 25
# Every command may be installed to a server or to a person's account, and used in a server, in the
# bot's DMs and in private channels (group DMs, DMs between friends): see docs/permissions.md.
EVERY_CONTEXT = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
BOTH_INSTALLS = app_commands.AppInstallationType(guild=True, user=True)


def needs_server(interaction: discord.Interaction) -> bool:
    """Made outside a server that added the bot: a DM, a group DM, or a server where only the
    person installed the app (no ``GUILD_INSTALL`` owner). Tournaments, leagues and server
    settings live in a server the bot is part of."""
    return interaction.guild_id is None or not interaction.is_guild_integration()


async def refuse_outside_server(router: Router, interaction: discord.Interaction) -> bool:
    """Answer "this needs a server" (True) where ``needs_server``; False elsewhere."""
    if not needs_server(interaction):
        return False
    await router.refuse(interaction, ServiceError("needs_server"))
    return True


def zone_choices(current: str) -> list[str]:
    """IANA zone names for autocomplete: those starting with what was typed, then those containing it."""
    typed = current.strip().lower().replace(" ", "_")
    names = zone_names()
    found = [z for z in names if z.lower().startswith(typed)] + [z for z in names if typed in z.lower()
                                                                 and not z.lower().startswith(typed)]
    return found[:MAX_AUTOCOMPLETE]


def game_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=L(f"game.{g.name}.title"), value=g.name) for g in all_games()]


async def resolve_game(host: GameHost, interaction: discord.Interaction, game_id: int | None) -> int:
    """An explicit id, or the one open game of this channel the user sits in."""
    if game_id is not None:
        return game_id
    mine = await host.games_for(interaction.channel_id, interaction.user.id)
    if len(mine) == 1:
        return mine[0]
    raise ServiceError("which_game" if mine else "no_game_here", ids=[f"#{i}" for i in mine])


class GameCommands(app_commands.Group):
    def __init__(self, host: GameHost, router: Router):
        super().__init__(name=L("cmd.game.name"), description=L("cmd.game.desc"))
        self.host = host
        self.router = router

    async def _run(self, interaction: discord.Interaction, make_call) -> None:
        if await acknowledge(interaction, ephemeral=True, thinking=True):
            await self.router.run(interaction, make_call())

    async def _resolved(self, interaction, game_id, call):
        return await call(await resolve_game(self.host, interaction, game_id))

    # ---- lobby ----
    @app_commands.command(name=L("cmd.new.name"), description=L("cmd.new.desc"))
    @app_commands.rename(game=L("cmd.arg.game_name.name"), options=L("cmd.arg.options.name"),
                         deadline=L("cmd.arg.deadline.name"), timeout=L("cmd.arg.timeout.name"),
                         thread=L("cmd.arg.thread.name"), vacation=L("cmd.arg.vacation.name"),
                         ai=L("cmd.arg.ai.name"), quiet_deadlines=L("cmd.arg.quiet_deadlines.name"),
                         grace=L("cmd.arg.grace.name"))
    @app_commands.describe(game=L("cmd.arg.game_name.desc"), options=L("cmd.arg.options.desc"),
                           deadline=L("cmd.arg.deadline.desc"), timeout=L("cmd.arg.timeout.desc"),
                           thread=L("cmd.arg.thread.desc"), vacation=L("cmd.arg.vacation.desc"),
                           ai=L("cmd.arg.ai.desc"), quiet_deadlines=L("cmd.arg.quiet_deadlines.desc"),
                           grace=L("cmd.arg.grace.desc"))
    @app_commands.choices(game=game_choices(), timeout=[
        app_commands.Choice(name=L(f"cmd.choice.timeout.{p}"), value=p) for p in TIMEOUT_POLICIES], ai=[
        app_commands.Choice(name=L(f"ai.level.{level}"), value=level) for level in AI_LEVELS])
    async def new(self, interaction: discord.Interaction, game: str, options: str | None = None,
                  deadline: str | None = None, timeout: str | None = None, thread: bool | None = None,
                  vacation: app_commands.Range[int, 0, 60] | None = None, ai: str | None = None,
                  quiet_deadlines: bool | None = None, grace: str | None = None):
        async def call():
            settings = make_settings(deadline, timeout, thread, vacation, ai, quiet_deadlines, grace)
            reach = reach_of(interaction)
            in_thread = isinstance(interaction.channel, discord.Thread) or bool(reach and reach.in_thread)
            settings["thread"] = settings["thread"] and not in_thread  # no threads inside threads
            notices = []
            if rides_interactions(interaction):  # a group DM: no thread, no pins, boards ride the clicks
                settings.update(thread=False, pins=False, rides=True)
            elif reach is not None:  # what the bot may do here decides how (and whether) the game is shown
                here = plan(reach, thread=settings["thread"])
                if here.blocked:
                    raise ServiceError("bot_cannot_show", **blocked_error_params(here.blocked))
                settings.update(thread=here.thread, pins=here.pins)
                notices = here.notices
            _, outbox = await self.host.create(
                game, options, guild_id=interaction.guild_id, channel_id=interaction.channel_id,
                user_id=interaction.user.id, locale=language_of(interaction.guild_locale or interaction.locale),
                settings=settings, user_lang=language(interaction))
            outbox.reply += notices
            return outbox
        await self._run(interaction, call)

    @app_commands.command(name=L("cmd.join.name"), description=L("cmd.join.desc"))
    @app_commands.rename(game_id=L("cmd.arg.id.name"))
    @app_commands.describe(game_id=L("cmd.arg.id.desc"))
    async def join(self, interaction: discord.Interaction, game_id: int):
        await self._run(interaction, lambda: self.host.join(game_id, interaction.user.id, lang=language(interaction),
                                                            where=where_of(interaction)))

    @app_commands.command(name=L("cmd.leave.name"), description=L("cmd.leave.desc"))
    @app_commands.rename(game_id=L("cmd.arg.id.name"))
    @app_commands.describe(game_id=L("cmd.arg.id.desc"))
    async def leave(self, interaction: discord.Interaction, game_id: int | None = None):
        await self._run(interaction, lambda: self._resolved(interaction, game_id, lambda g: self.host.leave(
            g, interaction.user.id, where=where_of(interaction))))

    @app_commands.command(name=L("cmd.start.name"), description=L("cmd.start.desc"))
    @app_commands.rename(game_id=L("cmd.arg.id.name"))
    @app_commands.describe(game_id=L("cmd.arg.id.desc"))
    async def start(self, interaction: discord.Interaction, game_id: int | None = None):
        await self._run(interaction, lambda: self._resolved(interaction, game_id, lambda g: self.host.start(
            g, interaction.user.id, where=where_of(interaction), reach=reach_of(interaction))))

    # ---- a running game ----
    @app_commands.command(name=L("cmd.status.name"), description=L("cmd.status.desc"))
    @app_commands.rename(game_id=L("cmd.arg.id.name"))
    @app_commands.describe(game_id=L("cmd.arg.id.desc"))
    async def status(self, interaction: discord.Interaction, game_id: int | None = None):
        async def call():
            gid = game_id if game_id is not None else await self._any_game_here(interaction)
            return await self.host.status(gid, interaction.user.id, where=where_of(interaction))
        await self._run(interaction, call)

    @app_commands.command(name=L("cmd.history.name"), description=L("cmd.history.desc"))
    @app_commands.rename(game_id=L("cmd.arg.id.name"), page=L("cmd.arg.page.name"))
    @app_commands.describe(game_id=L("cmd.arg.id.desc"), page=L("cmd.arg.page.desc"))
    async def history(self, interaction: discord.Interaction, game_id: int | None = None,
                      page: app_commands.Range[int, 1, 10000] = 1):
        async def call():
            gid = game_id if game_id is not None else await self._any_game_here(interaction)
            return Outbox(reply=await self.host.history(gid, page, asker=interaction.user.id,
                                                        where=where_of(interaction)))
        await self._run(interaction, call)

    @app_commands.command(name=L("cmd.replay.name"), description=L("cmd.replay.desc"))
    @app_commands.rename(game_id=L("cmd.arg.id.name"))
    @app_commands.describe(game_id=L("cmd.arg.id.desc"))
    async def replay(self, interaction: discord.Interaction, game_id: int | None = None):
        async def call():
            gid = game_id if game_id is not None else await self.host.replay_game_here(
                interaction.channel_id, interaction.user.id)
            return await self.host.replay(gid, interaction.user.id, where=where_of(interaction))
        await self._run(interaction, call)

    @app_commands.command(name=L("cmd.export.name"), description=L("cmd.export.desc"))
    @app_commands.rename(game_id=L("cmd.arg.id.name"))
    @app_commands.describe(game_id=L("cmd.arg.id.desc"))
    async def export(self, interaction: discord.Interaction, game_id: int | None = None):
        async def call():
            gid = game_id if game_id is not None else await self.host.replay_game_here(
                interaction.channel_id, interaction.user.id)
            return await self.host.export(gid, interaction.user.id, where=where_of(interaction))
        await self._run(interaction, call)

    @replay.autocomplete("game_id")
    @export.autocomplete("game_id")
    async def _replay_autocomplete(self, interaction: discord.Interaction, current: str):
        lang = language(interaction)
        ids = await self.host.replay_choices(interaction.user.id, where_of(interaction))
        summaries = await self.host.summaries([i for i in ids if current.strip("#") in str(i)][:MAX_AUTOCOMPLETE])
        return [app_commands.Choice(name=t(lang, "autocomplete.game", id=s.id, game=t(lang, f"game.{s.game}.title"),
                                           status=t(lang, f"status.{s.status}"))[:100], value=s.id)
                for s in summaries]

    @app_commands.command(name=L("cmd.resign.name"), description=L("cmd.resign.desc"))
    @app_commands.rename(game_id=L("cmd.arg.id.name"))
    @app_commands.describe(game_id=L("cmd.arg.id.desc"))
    async def resign(self, interaction: discord.Interaction, game_id: int | None = None):
        await self._run(interaction, lambda: self._resolved(interaction, game_id, lambda g: self.host.resign(
            g, interaction.user.id, where=where_of(interaction))))

    @app_commands.command(name=L("cmd.abandon.name"), description=L("cmd.abandon.desc"))
    @app_commands.rename(game_id=L("cmd.arg.id.name"))
    @app_commands.describe(game_id=L("cmd.arg.id.desc"))
    async def abandon(self, interaction: discord.Interaction, game_id: int | None = None):
        async def call():
            gid = game_id if game_id is not None else await self._any_game_here(interaction)
            return await self.host.abandon(gid, interaction.user.id, where=where_of(interaction))
        await self._run(interaction, call)

    @app_commands.command(name=L("cmd.list.name"), description=L("cmd.list.desc"))
    async def list_(self, interaction: discord.Interaction):
        async def call():
            return Outbox(reply=await self.host.list_lines(interaction.guild_id, interaction.user.id))
        await self._run(interaction, call)

    @app_commands.command(name=L("cmd.mine.name"), description=L("cmd.mine.desc"))
    async def mine(self, interaction: discord.Interaction):
        async def call():
            return Outbox(reply=await self.host.mine_lines(interaction.user.id))
        await self._run(interaction, call)

    @app_commands.command(name=L("cmd.stats.name"), description=L("cmd.stats.desc"))
    @app_commands.rename(game=L("cmd.arg.game_name.name"))
    @app_commands.describe(game=L("cmd.arg.game_name.desc"))
    @app_commands.choices(game=game_choices())
    async def stats(self, interaction: discord.Interaction, game: str | None = None):
        async def call():
            return Outbox(reply=await self.host.stats_lines(interaction.guild_id, interaction.user.id, game))
        await self._run(interaction, call)

    @app_commands.command(name=L("cmd.leaderboard.name"), description=L("cmd.leaderboard.desc"))
    @app_commands.rename(game=L("cmd.arg.game_name.name"))
    @app_commands.describe(game=L("cmd.arg.game_name.desc"))
    @app_commands.choices(game=game_choices())
    async def leaderboard(self, interaction: discord.Interaction, game: str | None = None):
        async def call():
            return Outbox(reply=await self.host.leaderboard_lines(interaction.guild_id, interaction.user.id, game))
        await self._run(interaction, call)

    @app_commands.command(name=L("cmd.undo.name"), description=L("cmd.undo.desc"))
    @app_commands.rename(game_id=L("cmd.arg.id.name"))
    @app_commands.describe(game_id=L("cmd.arg.id.desc"))
    async def undo(self, interaction: discord.Interaction, game_id: int | None = None):
        await self._run(interaction, lambda: self._resolved(interaction, game_id, lambda g: self.host.ask_undo(
            g, interaction.user.id, where=where_of(interaction))))

    @app_commands.command(name=L("cmd.settings.name"), description=L("cmd.settings.desc"))
    @app_commands.rename(dm_reminders=L("cmd.arg.dm_reminders.name"), policy=L("cmd.arg.policy.name"),
                         game=L("cmd.arg.game_name.name"), view_side=L("cmd.arg.view_side.name"),
                         view_large=L("cmd.arg.view_large.name"), standin_level=L("cmd.arg.standin_level.name"),
                         quiet=L("cmd.arg.quiet.name"), tz=L("cmd.arg.tz.name"), pings=L("cmd.arg.pings.name"),
                         via=L("cmd.arg.via.name"), last_wait=L("cmd.arg.last_wait.name"),
                         game_id=L("cmd.arg.id.name"))
    @app_commands.describe(dm_reminders=L("cmd.arg.dm_reminders.desc"), policy=L("cmd.arg.policy.desc"),
                           game=L("cmd.arg.game_name.desc"), view_side=L("cmd.arg.view_side.desc"),
                           view_large=L("cmd.arg.view_large.desc"), standin_level=L("cmd.arg.standin_level.desc"),
                           quiet=L("cmd.arg.quiet.desc"), tz=L("cmd.arg.tz.desc"), pings=L("cmd.arg.pings.desc"),
                           via=L("cmd.arg.via.desc"), last_wait=L("cmd.arg.last_wait.desc"),
                           game_id=L("cmd.arg.pings_game.desc"))
    @app_commands.choices(game=[app_commands.Choice(name=L(f"game.{g.name}.title"), value=g.name)
                                for g in policy_games()] or game_choices(), standin_level=[
        app_commands.Choice(name=L(f"ai.level.{level}"), value=level) for level in AI_LEVELS], pings=[
        app_commands.Choice(name=L(f"cmd.choice.pings.{mode}"), value=mode) for mode in PING_MODES], via=[
        app_commands.Choice(name=L(f"cmd.choice.via.{via}"), value=via) for via in PING_VIAS])
    async def settings(self, interaction: discord.Interaction, dm_reminders: bool | None = None,
                       policy: str | None = None, game: str | None = None, view_side: bool | None = None,
                       view_large: bool | None = None, standin_level: str | None = None,
                       quiet: str | None = None, tz: str | None = None, pings: str | None = None,
                       via: str | None = None, last_wait: bool | None = None, game_id: int | None = None):
        async def call():
            pinging = pings is not None or via is not None or last_wait is not None
            if (dm_reminders is None and not policy and view_side is None and view_large is None
                    and standin_level is None and quiet is None and tz is None and not pinging):
                return Outbox(reply=await self.host.settings_lines(interaction.user.id, interaction.guild_id))
            outbox = Outbox()
            if standin_level is not None and needs_server(interaction):
                raise ServiceError("needs_server")
            if standin_level is not None:  # first: a refused server setting stores nothing else either
                outbox.reply += (await self.host.set_stand_in_level(interaction.user.id, standin_level,
                                                                    where_of(interaction))).reply
            if quiet is not None or tz is not None:  # checked whole before the others are stored
                outbox.reply += (await self.host.set_quiet(interaction.user.id, quiet, tz)).reply
            if pinging and game_id is not None:  # for one game (a seat in it is checked first)
                outbox.reply += (await self.host.set_game_pings(game_id, interaction.user.id, pings, via, last_wait,
                                                                where=where_of(interaction))).reply
            elif pinging:
                outbox.reply += (await self.host.set_pings(interaction.user.id, pings, via, last_wait)).reply
            if dm_reminders is not None:
                outbox.reply += (await self.host.set_dm_reminders(interaction.user.id, dm_reminders)).reply
            if policy:
                outbox.reply += (await self.host.set_policy(interaction.user.id, policy, game)).reply
            if view_side is not None or view_large is not None:
                outbox.reply += (await self.host.set_view(interaction.user.id, view_side, view_large)).reply
            return outbox
        await self._run(interaction, call)

    # ---- spectators ----
    @app_commands.command(name=L("cmd.follow.name"), description=L("cmd.follow.desc"))
    @app_commands.rename(game_id=L("cmd.arg.id.name"))
    @app_commands.describe(game_id=L("cmd.arg.id.desc"))
    async def follow(self, interaction: discord.Interaction, game_id: int | None = None):
        async def call():
            gid = game_id if game_id is not None else await self._any_game_here(interaction)
            return await self.host.follow(gid, interaction.user.id, where=where_of(interaction))
        await self._run(interaction, call)

    @app_commands.command(name=L("cmd.unfollow.name"), description=L("cmd.unfollow.desc"))
    @app_commands.rename(game_id=L("cmd.arg.id.name"))
    @app_commands.describe(game_id=L("cmd.arg.id.desc"))
    async def unfollow(self, interaction: discord.Interaction, game_id: int | None = None):
        async def call():
            gid = game_id if game_id is not None else await self._any_game_here(interaction)
            return await self.host.unfollow(gid, interaction.user.id, where=where_of(interaction))
        await self._run(interaction, call)

    @settings.autocomplete("game_id")
    async def _settings_game_autocomplete(self, interaction: discord.Interaction, current: str):
        return await game_id_choices(self.host, interaction, current)

    @settings.autocomplete("tz")
    async def _zone_autocomplete(self, interaction: discord.Interaction, current: str):
        return [app_commands.Choice(name=z, value=z) for z in zone_choices(current)]

    @settings.autocomplete("policy")
    async def _policy_autocomplete(self, interaction: discord.Interaction, current: str):
        wanted = interaction.namespace.game
        typed = current.strip().lower()
        return [app_commands.Choice(name=f"{game}: {choice}" if not wanted else choice, value=choice)
                for game, choice in await self.host.policy_choices()
                if (not wanted or wanted == game) and typed in choice][:MAX_AUTOCOMPLETE]

    @app_commands.command(name=L("cmd.vacation.name"), description=L("cmd.vacation.desc"))
    @app_commands.rename(days=L("cmd.arg.days.name"))
    @app_commands.describe(days=L("cmd.arg.days.desc"))
    async def vacation(self, interaction: discord.Interaction, days: app_commands.Range[int, 1, 60]):
        await self._run(interaction, lambda: self.host.vacation(interaction.user.id, days))

    @app_commands.command(name=L("cmd.rules.name"), description=L("cmd.rules.desc"))
    @app_commands.rename(game=L("cmd.arg.game_name.name"))
    @app_commands.describe(game=L("cmd.arg.game_name.desc"))
    @app_commands.choices(game=game_choices())
    async def rules(self, interaction: discord.Interaction, game: str):
        await self._run(interaction, lambda: self.host.rules(game))

    @leave.autocomplete("game_id")
    @start.autocomplete("game_id")
    @status.autocomplete("game_id")
    @history.autocomplete("game_id")
    @resign.autocomplete("game_id")
    @undo.autocomplete("game_id")
    @abandon.autocomplete("game_id")
    async def _game_id_autocomplete(self, interaction: discord.Interaction, current: str):
        return await game_id_choices(self.host, interaction, current)

    async def _any_game_here(self, interaction: discord.Interaction) -> int:
        here = await self.host.games_here(interaction.channel_id, interaction.user.id)
        if len(here) == 1:
            return here[0]
        raise ServiceError("which_game" if here else "no_game_here", ids=[f"#{i}" for i in here])


async def game_id_choices(host: GameHost, interaction: discord.Interaction, current: str):
    lang = language(interaction)
    summaries = await host.summaries(await host.game_choices(interaction.user.id, where_of(interaction)))
    return [app_commands.Choice(name=t(lang, "autocomplete.game", id=s.id, game=t(lang, f"game.{s.game}.title"),
                                       status=t(lang, f"status.{s.status}"))[:100], value=s.id)
            for s in summaries if current.strip("#") in str(s.id)][:MAX_AUTOCOMPLETE]


def help_command(host: GameHost, router: Router) -> app_commands.Command:
    @app_commands.command(name=L("cmd.help.name"), description=L("cmd.help.desc"))
    async def help_(interaction: discord.Interaction):
        if not await acknowledge(interaction, ephemeral=True, thinking=True):
            return

        async def call():
            outbox = await host.help()
            reach = reach_of(interaction)
            if reach is not None:  # what the bot lacks in this channel, so an admin can see and fix it
                outbox.reply += help_lines(reach)
            return outbox
        await router.run(interaction, call())

    return help_


def play_command(host: GameHost, router: Router) -> app_commands.Command:
    @app_commands.command(name=L("cmd.play.name"), description=L("cmd.play.desc"))
    @app_commands.rename(action=L("cmd.arg.action.name"), game_id=L("cmd.arg.id.name"))
    @app_commands.describe(action=L("cmd.arg.action.desc"), game_id=L("cmd.arg.id.desc"))
    async def play(interaction: discord.Interaction, action: str, game_id: int | None = None):
        if not await acknowledge(interaction, ephemeral=True, thinking=True):
            return

        async def call():
            gid = await resolve_game(host, interaction, game_id)
            return await host.act(gid, interaction.user.id, action, typed=True, where=where_of(interaction))
        await router.run(interaction, call())

    @play.autocomplete("action")
    async def play_action_autocomplete(interaction: discord.Interaction, current: str):
        """Only legal actions, filtered by what has been typed so far; where the notation takes a
        deck (after a legal loadout), the user's saved decks and the ready ones by name."""
        try:
            gid = await resolve_game(host, interaction, interaction.namespace.game_id)
            where = where_of(interaction)
            legal = await host.legal_actions(gid, interaction.user.id, where=where)
            decks = await host.deck_completions(gid, interaction.user.id, current, where=where)
        except ServiceError:
            return []
        if decks:
            return [app_commands.Choice(name=a[:100], value=a) for a in decks if len(a) <= 100][:MAX_AUTOCOMPLETE]
        typed = current.strip().lower()
        matches = [a for a in legal if a.lower().startswith(typed)] or [a for a in legal if typed in a.lower()]
        return [app_commands.Choice(name=a, value=a) for a in matches[:MAX_AUTOCOMPLETE]]

    @play.autocomplete("game_id")
    async def play_game_autocomplete(interaction: discord.Interaction, current: str):
        return await game_id_choices(host, interaction, current)

    return play


class TableCommands(app_commands.Group):
    """``/table ...``: the people at a game's table: a draw offer or agreed end, the deadline (pause,
    resume, extend, advance), a substitute. A group of its own: ``/game`` is at Discord's size limit
    for one command."""

    def __init__(self, host: GameHost, router: Router):
        super().__init__(name=L("cmd.table.name"), description=L("cmd.table.desc"))
        self.host = host
        self.router = router

    async def _run(self, interaction: discord.Interaction, make_call) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.router.run(interaction, make_call())

    async def _resolved(self, interaction, game_id, call):
        return await call(await resolve_game(self.host, interaction, game_id))

    @app_commands.command(name=L("cmd.draw.name"), description=L("cmd.draw.desc"))
    @app_commands.rename(game_id=L("cmd.arg.id.name"))
    @app_commands.describe(game_id=L("cmd.arg.id.desc"))
    async def draw(self, interaction: discord.Interaction, game_id: int | None = None):
        await self._run(interaction, lambda: self._resolved(interaction, game_id, lambda g: self.host.propose_draw(
            g, interaction.user.id, where=where_of(interaction))))

    @app_commands.command(name=L("cmd.deadline_vote.name"), description=L("cmd.deadline_vote.desc"))
    @app_commands.rename(action=L("cmd.arg.deadline_action.name"), by=L("cmd.arg.by.name"),
                         game_id=L("cmd.arg.id.name"))
    @app_commands.describe(action=L("cmd.arg.deadline_action.desc"), by=L("cmd.arg.by.desc"),
                           game_id=L("cmd.arg.id.desc"))
    @app_commands.choices(action=[app_commands.Choice(name=L(f"cmd.choice.deadline.{a}"), value=a)
                                  for a in DEADLINE_ACTIONS])
    async def deadline(self, interaction: discord.Interaction, action: str, by: str | None = None,
                       game_id: int | None = None):
        await self._run(interaction, lambda: self._resolved(interaction, game_id, lambda g: self.host.propose_deadline(
            g, interaction.user.id, action, by, where=where_of(interaction))))

    @app_commands.command(name=L("cmd.substitute.name"), description=L("cmd.substitute.desc"))
    @app_commands.rename(member=L("cmd.arg.member.name"), player=L("cmd.arg.seat_player.name"),
                         game_id=L("cmd.arg.id.name"))
    @app_commands.describe(member=L("cmd.arg.member.desc"), player=L("cmd.arg.seat_player.desc"),
                           game_id=L("cmd.arg.id.desc"))
    async def substitute(self, interaction: discord.Interaction, member: discord.User,
                         player: discord.User | None = None, game_id: int | None = None):
        await self._run(interaction, lambda: self._resolved(interaction, game_id, lambda g: self.host.offer_seat(
            g, interaction.user.id, member.id, player.id if player is not None else None, to_is_bot=member.bot,
            where=where_of(interaction))))

    @draw.autocomplete("game_id")
    @deadline.autocomplete("game_id")
    @substitute.autocomplete("game_id")
    async def _game_id_autocomplete(self, interaction: discord.Interaction, current: str):
        return await game_id_choices(self.host, interaction, current)


class DeckCommands(app_commands.Group):
    """``/deck list|show|save|delete|check``: a user's saved decks, for games in which players bring
    one (``Game.ready_decks``); ``game`` may be left out while only one such game is registered."""

    def __init__(self, host: GameHost, router: Router):
        super().__init__(name=L("cmd.deck.name"), description=L("cmd.deck.desc"))
        self.host = host
        self.router = router

    async def _run(self, interaction: discord.Interaction, make_call) -> None:
        if await acknowledge(interaction, ephemeral=True, thinking=True):
            await self.router.run(interaction, make_call())

    @app_commands.command(name=L("cmd.deck_list.name"), description=L("cmd.deck_list.desc"))
    @app_commands.rename(game=L("cmd.arg.game_name.name"))
    @app_commands.describe(game=L("cmd.arg.game_name.desc"))
    async def list_(self, interaction: discord.Interaction, game: str | None = None):
        await self._run(interaction, lambda: self.host.deck_list(interaction.user.id, game))

    @app_commands.command(name=L("cmd.deck_show.name"), description=L("cmd.deck_show.desc"))
    @app_commands.rename(name=L("cmd.arg.deck_name.name"), game=L("cmd.arg.game_name.name"))
    @app_commands.describe(name=L("cmd.arg.deck_name.desc"), game=L("cmd.arg.game_name.desc"))
    async def show(self, interaction: discord.Interaction, name: str, game: str | None = None):
        await self._run(interaction, lambda: self.host.deck_show(interaction.user.id, name, game))

    @app_commands.command(name=L("cmd.deck_save.name"), description=L("cmd.deck_save.desc"))
    @app_commands.rename(name=L("cmd.arg.deck_name.name"), code=L("cmd.arg.deck_code.name"),
                         game=L("cmd.arg.game_name.name"))
    @app_commands.describe(name=L("cmd.arg.deck_name.desc"), code=L("cmd.arg.deck_code.desc"),
                           game=L("cmd.arg.game_name.desc"))
    async def save(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, MAX_DECK_NAME], code: str,
                   game: str | None = None):
        await self._run(interaction, lambda: self.host.deck_save(interaction.user.id, name, code, game))

    @app_commands.command(name=L("cmd.deck_delete.name"), description=L("cmd.deck_delete.desc"))
    @app_commands.rename(name=L("cmd.arg.deck_name.name"), game=L("cmd.arg.game_name.name"))
    @app_commands.describe(name=L("cmd.arg.deck_name.desc"), game=L("cmd.arg.game_name.desc"))
    async def delete(self, interaction: discord.Interaction, name: str, game: str | None = None):
        await self._run(interaction, lambda: self.host.deck_delete(interaction.user.id, name, game))

    @app_commands.command(name=L("cmd.deck_check.name"), description=L("cmd.deck_check.desc"))
    @app_commands.rename(code=L("cmd.arg.deck_code.name"), game=L("cmd.arg.game_name.name"))
    @app_commands.describe(code=L("cmd.arg.deck_code.desc"), game=L("cmd.arg.game_name.desc"))
    async def check(self, interaction: discord.Interaction, code: str, game: str | None = None):
        await self._run(interaction, lambda: self.host.deck_check(interaction.user.id, code, game))

    @list_.autocomplete("game")
    @show.autocomplete("game")
    @save.autocomplete("game")
    @delete.autocomplete("game")
    @check.autocomplete("game")
    async def _game_autocomplete(self, interaction: discord.Interaction, current: str):
        lang = language(interaction)
        return [app_commands.Choice(name=t(lang, f"game.{g.name}.title")[:100], value=g.name)
                for g in deck_games() if current.lower() in g.name][:MAX_AUTOCOMPLETE]

    @show.autocomplete("name")
    @delete.autocomplete("name")
    async def _name_autocomplete(self, interaction: discord.Interaction, current: str):
        names = await self.host.deck_names(interaction.user.id, interaction.namespace.game)
        return [app_commands.Choice(name=n, value=n) for n in names if current.lower() in n.lower()][:MAX_AUTOCOMPLETE]


FORMATS = ("swiss", "roundrobin", "elimination")


class ServerEventGroup(app_commands.Group):
    """What ``/tournament`` and ``/league`` share: they work in a server only, answer privately,
    and a command that names no event means the one of their kind open in this server."""

    league = False

    def __init__(self, host: GameHost, router: Router, name: str, description: str):
        super().__init__(name=L(name), description=L(description))
        self.host = host
        self.router = router

    async def _run(self, interaction: discord.Interaction, make_call) -> None:
        if await refuse_outside_server(self.router, interaction):
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.router.run(interaction, make_call())

    async def _on(self, interaction: discord.Interaction, event: int | None, call):
        tid = event if event is not None else await self.host.tournament_here(interaction.guild_id, league=self.league)
        return await call(tid)


class TournamentCommands(ServerEventGroup):
    """``/tournament new|join|leave|start|standings|drop|abandon``: events of rounds in this server."""

    def __init__(self, host: GameHost, router: Router):
        super().__init__(host, router, "cmd.tournament.name", "cmd.tournament.desc")

    @app_commands.command(name=L("cmd.tournament_new.name"), description=L("cmd.tournament_new.desc"))
    @app_commands.rename(game=L("cmd.arg.game_name.name"), format=L("cmd.arg.format.name"),
                         rounds=L("cmd.arg.rounds.name"), deadline=L("cmd.arg.deadline.name"),
                         options=L("cmd.arg.options.name"), table=L("cmd.arg.table.name"))
    @app_commands.describe(game=L("cmd.arg.game_name.desc"), format=L("cmd.arg.format.desc"),
                           rounds=L("cmd.arg.rounds.desc"), deadline=L("cmd.arg.tournament_deadline.desc"),
                           options=L("cmd.arg.options.desc"), table=L("cmd.arg.table.desc"))
    @app_commands.choices(game=game_choices(), format=[
        app_commands.Choice(name=L(f"cmd.choice.format.{f}"), value=f) for f in FORMATS])
    async def new(self, interaction: discord.Interaction, game: str, format: str,
                  rounds: app_commands.Range[int, 1, 20] | None = None, deadline: str | None = None,
                  options: str | None = None, table: app_commands.Range[int, 2, 4] | None = None):
        await self._run(interaction, lambda: self.host.tournament_new(
            game, format, guild_id=interaction.guild_id, channel_id=interaction.channel_id, user_id=interaction.user.id,
            locale=language_of(interaction.guild_locale or interaction.locale), rounds=rounds, deadline=deadline,
            options=options, table=table, user_lang=language(interaction)))

    @app_commands.command(name=L("cmd.tournament_join.name"), description=L("cmd.tournament_join.desc"))
    @app_commands.rename(tournament=L("cmd.arg.tournament_id.name"))
    @app_commands.describe(tournament=L("cmd.arg.tournament_id.desc"))
    async def join(self, interaction: discord.Interaction, tournament: int | None = None):
        await self._run(interaction, lambda: self._on(interaction, tournament, lambda tid: self.host.tournament_join(
            tid, interaction.user.id, where=where_of(interaction), lang=language(interaction))))

    @app_commands.command(name=L("cmd.tournament_leave.name"), description=L("cmd.tournament_leave.desc"))
    @app_commands.rename(tournament=L("cmd.arg.tournament_id.name"))
    @app_commands.describe(tournament=L("cmd.arg.tournament_id.desc"))
    async def leave(self, interaction: discord.Interaction, tournament: int | None = None):
        await self._run(interaction, lambda: self._on(interaction, tournament, lambda tid: self.host.tournament_leave(
            tid, interaction.user.id, where=where_of(interaction))))

    @app_commands.command(name=L("cmd.tournament_start.name"), description=L("cmd.tournament_start.desc"))
    @app_commands.rename(tournament=L("cmd.arg.tournament_id.name"))
    @app_commands.describe(tournament=L("cmd.arg.tournament_id.desc"))
    async def start(self, interaction: discord.Interaction, tournament: int | None = None):
        await self._run(interaction, lambda: self._on(interaction, tournament, lambda tid: self.host.tournament_start(
            tid, interaction.user.id, where=where_of(interaction))))

    @app_commands.command(name=L("cmd.tournament_standings.name"), description=L("cmd.tournament_standings.desc"))
    @app_commands.rename(tournament=L("cmd.arg.tournament_id.name"))
    @app_commands.describe(tournament=L("cmd.arg.tournament_id.desc"))
    async def standings(self, interaction: discord.Interaction, tournament: int | None = None):
        await self._run(interaction, lambda: self._on(interaction, tournament, lambda tid: self.host.tournament_standings(
            tid, interaction.user.id, where=where_of(interaction))))

    @app_commands.command(name=L("cmd.tournament_drop.name"), description=L("cmd.tournament_drop.desc"))
    @app_commands.rename(player=L("cmd.arg.player.name"), tournament=L("cmd.arg.tournament_id.name"))
    @app_commands.describe(player=L("cmd.arg.player.desc"), tournament=L("cmd.arg.tournament_id.desc"))
    async def drop(self, interaction: discord.Interaction, player: discord.User | None = None,
                   tournament: int | None = None):
        async def call(tid):
            if player is None or player.id == interaction.user.id:
                return await self.host.tournament_leave(tid, interaction.user.id, where=where_of(interaction))
            return await self.host.tournament_drop(tid, interaction.user.id, player.id, where=where_of(interaction))
        await self._run(interaction, lambda: self._on(interaction, tournament, call))

    @app_commands.command(name=L("cmd.tournament_abandon.name"), description=L("cmd.tournament_abandon.desc"))
    @app_commands.rename(tournament=L("cmd.arg.tournament_id.name"))
    @app_commands.describe(tournament=L("cmd.arg.tournament_id.desc"))
    async def abandon(self, interaction: discord.Interaction, tournament: int | None = None):
        await self._run(interaction, lambda: self._on(interaction, tournament, lambda tid: self.host.tournament_abandon(
            tid, interaction.user.id, where=where_of(interaction))))


class LeagueCommands(ServerEventGroup):
    """``/league new|join|play|table|leave``: a standing league; games on request, paired by rating."""

    league = True

    def __init__(self, host: GameHost, router: Router):
        super().__init__(host, router, "cmd.league.name", "cmd.league.desc")

    @app_commands.command(name=L("cmd.league_new.name"), description=L("cmd.league_new.desc"))
    @app_commands.rename(game=L("cmd.arg.game_name.name"), games=L("cmd.arg.games.name"),
                         deadline=L("cmd.arg.deadline.name"), options=L("cmd.arg.options.name"))
    @app_commands.describe(game=L("cmd.arg.game_name.desc"), games=L("cmd.arg.games.desc"),
                           deadline=L("cmd.arg.tournament_deadline.desc"), options=L("cmd.arg.options.desc"))
    @app_commands.choices(game=game_choices())
    async def new(self, interaction: discord.Interaction, game: str, games: app_commands.Range[int, 1, 50] | None = None,
                  deadline: str | None = None, options: str | None = None):
        await self._run(interaction, lambda: self.host.tournament_new(
            game, "league", guild_id=interaction.guild_id, channel_id=interaction.channel_id,
            user_id=interaction.user.id, locale=language_of(interaction.guild_locale or interaction.locale),
            deadline=deadline, options=options, games=games, user_lang=language(interaction)))

    @app_commands.command(name=L("cmd.league_join.name"), description=L("cmd.league_join.desc"))
    @app_commands.rename(league=L("cmd.arg.league_id.name"))
    @app_commands.describe(league=L("cmd.arg.league_id.desc"))
    async def join(self, interaction: discord.Interaction, league: int | None = None):
        await self._run(interaction, lambda: self._on(interaction, league, lambda tid: self.host.tournament_join(
            tid, interaction.user.id, where=where_of(interaction), lang=language(interaction), league=True)))

    @app_commands.command(name=L("cmd.league_play.name"), description=L("cmd.league_play.desc"))
    @app_commands.rename(league=L("cmd.arg.league_id.name"))
    @app_commands.describe(league=L("cmd.arg.league_id.desc"))
    async def play(self, interaction: discord.Interaction, league: int | None = None):
        await self._run(interaction, lambda: self._on(interaction, league, lambda tid: self.host.league_play(
            tid, interaction.user.id, where=where_of(interaction))))

    @app_commands.command(name=L("cmd.league_table.name"), description=L("cmd.league_table.desc"))
    @app_commands.rename(league=L("cmd.arg.league_id.name"))
    @app_commands.describe(league=L("cmd.arg.league_id.desc"))
    async def table(self, interaction: discord.Interaction, league: int | None = None):
        await self._run(interaction, lambda: self._on(interaction, league, lambda tid: self.host.tournament_standings(
            tid, interaction.user.id, where=where_of(interaction), league=True)))

    @app_commands.command(name=L("cmd.league_leave.name"), description=L("cmd.league_leave.desc"))
    @app_commands.rename(league=L("cmd.arg.league_id.name"))
    @app_commands.describe(league=L("cmd.arg.league_id.desc"))
    async def leave(self, interaction: discord.Interaction, league: int | None = None):
        await self._run(interaction, lambda: self._on(interaction, league, lambda tid: self.host.tournament_leave(
            tid, interaction.user.id, where=where_of(interaction), league=True)))
