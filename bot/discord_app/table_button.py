"""The "Table" button on boards and panels, and the table link in a "your turn" DM: the Discord
side of the web table (bot/web/).

Where the application has Activities enabled (WEB_ACTIVITY=1), the button answers
``LAUNCH_ACTIVITY`` (interaction callback type 12): Discord opens the table inside itself, and the
instance it opened is noted with the game and the place, for the Activity's sign-in
(bot/web/activity.py) to open that game for whoever is in it. Otherwise the answer is a private
link, bound to the person who clicked and this game, short-lived.
"""

from __future__ import annotations

import logging

import discord

from ..i18n import T
from ..service import GameHost, ServiceError, Where
from ..web import table_link
from ..web.activity import launches_of, settings_of
from .delivery import acknowledge, ephemeral, join_lines, language

log = logging.getLogger(__name__)


def web_settings(client) -> object | None:
    """The bot's web settings, None where it serves no web table (WEB_PORT unset)."""
    return getattr(client, "web_settings", None)


def activity_on(settings) -> bool:
    activity = settings_of(settings) if settings is not None else None
    return bool(activity and activity.enabled and activity.application_id)


ENTRY_POINT = 4  # PRIMARY_ENTRY_POINT: the Activity's command in Discord's App Launcher
ENTRY_POINT_FIELDS = ("name", "name_localizations", "description", "description_localizations", "type", "handler",
                      "integration_types", "contexts", "default_member_permissions", "nsfw")


async def sync_global_commands(client) -> None:
    """The global commands, as the tree holds them. An application with Activities enabled also has
    an Entry Point command (Discord makes a default "Launch"), which a bulk overwrite may not drop
    (Discord refuses it): that one is read back and sent along, as it is."""
    if not activity_on(web_settings(client)):
        await client.tree.sync()
        return
    tree, translator = client.tree, client.tree.translator
    commands = tree.get_commands()
    payload = [await c.get_translated_payload(tree, translator) if translator else c.to_dict(tree) for c in commands]
    existing = await client.http.get_global_commands(client.application_id)
    payload += [{k: c[k] for k in ENTRY_POINT_FIELDS if c.get(k) is not None}
                for c in existing if c.get("type") == ENTRY_POINT]
    await client.http.bulk_upsert_global_commands(client.application_id, payload)


async def open_table(host: GameHost, interaction: discord.Interaction, game_id: int, where: Where) -> None:
    """The Table button: the Activity where enabled, else a private link (or a refusal in words)."""
    settings = web_settings(interaction.client)
    if settings is not None and activity_on(settings):
        # LAUNCH_ACTIVITY must be the first answer: who may see the game is checked at sign-in.
        answer = await interaction.response.launch_activity()
        instance = getattr(answer.resource, "id", None)
        if instance:
            launches_of(settings).note(instance, game_id, where)
        return
    if not await acknowledge(interaction, ephemeral=True, thinking=True):
        return
    lang = language(interaction)
    if settings is None:
        await ephemeral(interaction, content=join_lines(lang, [T("error.prefix", message=T("web.table_off"))]))
        return
    try:
        await host.table(game_id, interaction.user.id, where=where)  # may they see it from here at all
    except ServiceError as e:
        await ephemeral(interaction, content=join_lines(lang, [T("error.prefix", message=e.text)]))
        return
    link = table_link(settings, interaction.user.id, game_id, where)
    await ephemeral(interaction, content=join_lines(lang, [T("web.table_link", link=link)]))
