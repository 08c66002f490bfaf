"""Every button and select of every game lands here, already parsed from its custom id."""

from __future__ import annotations

import logging

import discord

from . import custom_ids
from ..i18n import T
from ..service import GameHost, Outbox, ServiceError, Where
from .components import FormModal, form_values
from .table_button import open_table
from .delivery import (UNKNOWN_INTERACTION, Delivery, acknowledge, acknowledge_click, ephemeral, join_lines, language,
                       reach_of, rides_interactions)

log = logging.getLogger(__name__)


def where_of(interaction: discord.Interaction) -> Where:
    """Where an interaction was made, for ``bot.service.access``. Manage Server is read from the
    interaction's own permissions, which Discord computes for the server it was made in."""
    perms = interaction.permissions
    manages = interaction.guild_id is not None and bool(perms and (perms.manage_guild or perms.administrator))
    return Where(interaction.guild_id, interaction.channel_id, manages)


PLAYS = ("a", "g")  # a game's action buttons, and its menus (a choice that completes an action acts)
RIDING_UPDATES = ("l", "r")  # where only interactions carry posts, the lobby and rematch are edited through the click


class Router:
    def __init__(self, host: GameHost, delivery: Delivery):
        self.host = host
        self.delivery = delivery

    async def on_component(self, interaction: discord.Interaction, custom_id: str, values: list[str]) -> None:
        route = custom_ids.decode(custom_id)
        if route is not None and route.kind == "v":
            await self.on_viewer(interaction, custom_ids.viewer_of(route), values)
            return
        if route is not None and route.kind == "m" and route.arg is None:
            await self.on_form_button(interaction, route)
            return
        if route is not None and route.kind == "w":  # the web table: its own first answer (maybe type 12)
            await open_table(self.host, interaction, route.game_id, where_of(interaction))
            return
        # Answer inside Discord's 3-second window first; the real reply follows as a follow-up. A
        # game's button or menu has no "thinking…" placeholder, so its board may be a follow-up too.
        as_update = route is not None and (route.kind in PLAYS or (route.kind in RIDING_UPDATES
                                                                  and rides_interactions(interaction)))
        acknowledged = (acknowledge_click(interaction) if as_update
                        else acknowledge(interaction, ephemeral=True, thinking=True))
        if not await acknowledged:
            return
        if route is None:
            await self.refuse(interaction, ServiceError("unknown_component"))
            return
        user = interaction.user.id
        await self.run(interaction, self._call(route, user, values, interaction))

    async def on_form_button(self, interaction: discord.Interaction, route: custom_ids.Route) -> None:
        """"Fill in the form": the dialog must be the first answer (Discord allows no modal after a
        defer), so the form is read at once; a refusal is the ephemeral answer instead."""
        try:
            spec = await self.host.form(route.game_id, interaction.user.id, seen_version=route.version,
                                        where=where_of(interaction))
        except ServiceError as e:
            await self.refuse(interaction, e)
            return
        except Exception:
            log.exception("unexpected error opening a form")
            await self.refuse(interaction, ServiceError("internal"))
            return
        try:
            await interaction.response.send_modal(FormModal(spec, language(interaction)))
        except discord.HTTPException as e:
            if e.code == UNKNOWN_INTERACTION:  # too late for Discord's 3 seconds: the person saw it fail
                log.warning("the form of game %s was opened after Discord's 3 seconds", route.game_id)
            else:
                log.exception("could not open a form for game %s", route.game_id)

    async def on_form_submit(self, interaction: discord.Interaction) -> None:
        """A submitted form (``tt:m:<game>:<version>:<owner>``): its owner's answers become one
        action through the normal path, refused as stale if the step moved on since it opened."""
        data = interaction.data or {}
        route = custom_ids.decode(str(data.get("custom_id", "")))
        if not await acknowledge(interaction, ephemeral=True, thinking=True):
            return
        owner = custom_ids.form_owner(route) if route is not None else None
        values = form_values(data)
        if owner is None or values is None:
            await self.refuse(interaction, ServiceError("unknown_component" if owner is None else "form_bad_values"))
            return
        await self.run(interaction, self.host.submit_form(route.game_id, interaction.user.id, route.version,
                                                          owner, values, where=where_of(interaction)))

    async def on_viewer(self, interaction: discord.Interaction, viewer: custom_ids.ViewerRoute,
                        values: list[str]) -> None:
        """A replay viewer's button or menu: acknowledged as an update, then the viewer is edited in
        place. Only its owner's clicks count; refusals arrive as a separate ephemeral answer."""
        if not await acknowledge(interaction):
            return
        try:
            if interaction.user.id != viewer.owner:
                raise ServiceError("viewer_not_yours")
            step, pov = viewer.step, viewer.pov
            if viewer.control in ("j0", "j1"):
                if len(values) != 1 or not str(values[0]).isdigit():
                    raise ServiceError("unknown_component")
                step = int(values[0])
            elif viewer.control == "s":
                if len(values) != 1 or not (values[0] == "-" or str(values[0]).isdigit()):
                    raise ServiceError("unknown_component")
                pov = None if values[0] == "-" else int(values[0])
            outbox = await self.host.replay(viewer.game_id, interaction.user.id, step, pov, where=where_of(interaction))
        except ServiceError as e:
            await self.refuse(interaction, e)
            return
        except Exception:
            log.exception("unexpected error in a replay viewer")
            await self.refuse(interaction, ServiceError("internal"))
            return
        try:
            await self.delivery.edit_viewer(interaction, outbox)
        except discord.HTTPException:
            log.exception("could not update a replay viewer")

    async def _call(self, route: custom_ids.Route, user: int, values: list[str], interaction) -> Outbox:
        host, gid, where = self.host, route.game_id, where_of(interaction)
        if route.kind == "a":
            return await host.act(gid, user, route.arg, seen_version=route.version, where=where)
        if route.kind == "g":
            if len(values) != 1:
                raise ServiceError("unknown_component")
            return await host.drill(gid, user, route.version, custom_ids.prefix_of(route) + (values[0],), where=where)
        if route.kind == "r":
            return await host.rematch(gid, user, where=where)
        if route.kind == "u":
            if route.arg == "ask":
                return await host.ask_undo(gid, user, seen_version=route.version, where=where)
            return await host.answer_undo(gid, user, route.version, agree=route.arg == "yes", where=where)
        if route.kind == "o":
            return await host.answer_proposal(gid, user, route.version, agree=route.arg == "yes", where=where)
        if route.kind == "s":
            return await host.answer_seat(gid, user, route.version, accept=route.arg == "yes", where=where)
        if route.kind == "f":
            if route.arg == "on":
                return await host.follow(gid, user, where=where)
            return await host.unfollow(gid, user, where=where)
        if route.kind == "p":
            private = await host.panel(gid, user, where=where)
            return Outbox(reply=private.lines, reply_image=private.image, reply_controls=private.controls)
        op = route.arg
        if op == "join":
            return await host.join(gid, user, lang=language(interaction), where=where)
        if op == "leave":
            return await host.leave(gid, user, where=where)
        if op == "start":
            return await host.start(gid, user, where=where, reach=reach_of(interaction))
        if op == "invite":
            return await host.invite(gid, user, [int(v) for v in values if str(v).isdigit()], where=where)
        if op == "remove":
            if len(values) != 1 or not str(values[0]).isdigit():
                raise ServiceError("unknown_component")
            return await host.remove_seat(gid, user, int(values[0]), where=where)
        return await host.add_ai(gid, user, level=values[0] if values else None, where=where)

    async def run(self, interaction: discord.Interaction, call) -> None:
        """Await a service call; deliver its outbox, or answer its refusal ephemerally.

        A refusal (or a failure) comes before anything is saved; an outbox comes after, so a
        failure delivering it is never answered with a refusal's "nothing was changed"."""
        try:
            outbox = await call
        except ServiceError as e:
            await self.refuse(interaction, e)
            await self.delivery.show_due(interaction)
            return
        except Exception:
            log.exception("unexpected error handling an interaction")
            await self.refuse(interaction, ServiceError("internal"))
            return
        try:
            await self.delivery.send(outbox, interaction)
        except Exception:
            log.exception("delivering the answer to an interaction failed")
            await self.say_incomplete(interaction)
        await self.delivery.show_due(interaction)

    async def say_incomplete(self, interaction: discord.Interaction) -> None:
        """What was asked was done, but its answer did not fully reach the person who asked."""
        try:
            await ephemeral(interaction, content=join_lines(language(interaction), [T("delivery.incomplete")]))
        except Exception:
            log.exception("could not say that an answer was incomplete")

    async def refuse(self, interaction: discord.Interaction, error: ServiceError) -> None:
        lang = language(interaction)
        text = join_lines(lang, [T("error.prefix", message=error.text)])
        try:
            await ephemeral(interaction, content=text)
        except discord.HTTPException:
            log.exception("could not deliver a refusal")
