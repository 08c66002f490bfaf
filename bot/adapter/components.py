"""Buttons and selects built from the service's Controls, and the persistent handlers behind them.

Every component is a :class:`discord.ui.DynamicItem`, registered once at start-up, whose custom id
carries all it needs (see custom_ids.py), so buttons keep working after the bot restarts.
"""

from __future__ import annotations

import discord

from .. import custom_ids
from ..i18n import t
from ..service import Controls

BUTTONS_PER_ROW = 5
MAX_ROWS = 5
MAX_SELECT_OPTIONS = 25


# Both templates match every custom id, so even a malformed or foreign one gets a polite answer.
ANY_CUSTOM_ID = r"(?s)^.*$"


class RoutedButton(discord.ui.DynamicItem[discord.ui.Button], template=ANY_CUSTOM_ID):
    def __init__(self, custom_id: str, label: str = "?", style=discord.ButtonStyle.secondary, row=None):
        super().__init__(discord.ui.Button(custom_id=custom_id, label=label[:80], style=style), row=row)

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(item.custom_id)

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.client.router.on_component(interaction, self.item.custom_id, [])


class RoutedSelect(discord.ui.DynamicItem[discord.ui.Select], template=ANY_CUSTOM_ID):
    def __init__(self, custom_id: str, options: list[discord.SelectOption] | None = None, placeholder=None, row=None):
        select = discord.ui.Select(custom_id=custom_id, options=options or [discord.SelectOption(label="-")],
                                   placeholder=placeholder, min_values=1, max_values=1)
        super().__init__(select, row=row)

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(item.custom_id)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list(interaction.data.get("values", [])) if interaction.data else []
        await interaction.client.router.on_component(interaction, self.item.custom_id, values)


def controls_view(controls: Controls, lang: str, *, direct_limit: int = 20) -> discord.ui.View:
    """Few actions: one button each. Many: a select of groups, each opening its own buttons."""
    view = discord.ui.View(timeout=None)
    if len(controls.actions) <= direct_limit or len(controls.groups) <= 1:
        for i, action in enumerate(controls.actions[: BUTTONS_PER_ROW * MAX_ROWS]):
            view.add_item(RoutedButton(custom_ids.encode_action(controls.game_id, controls.version, action),
                                       action, discord.ButtonStyle.primary, row=i // BUTTONS_PER_ROW))
        return view
    options = [
        discord.SelectOption(label=group or "-", value=group or "-",
                             description=t(lang, "controls.group_option", count=len(actions)))
        for group, actions in list(controls.groups.items())[:MAX_SELECT_OPTIONS]
    ]
    view.add_item(RoutedSelect(custom_ids.encode_group(controls.game_id, controls.version), options,
                               placeholder=t(lang, "controls.pick_group"), row=0))
    return view


def lobby_view(game_id: int, lang: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    styles = {"join": discord.ButtonStyle.success, "leave": discord.ButtonStyle.secondary,
              "start": discord.ButtonStyle.primary, "ai": discord.ButtonStyle.secondary}
    for op in custom_ids.LOBBY_OPS:
        view.add_item(RoutedButton(custom_ids.encode_lobby(game_id, op), t(lang, f"lobby.button.{op}"), styles[op]))
    return view


def panel_view(game_id: int, lang: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(RoutedButton(custom_ids.encode_panel(game_id), t(lang, "panel.button"), discord.ButtonStyle.success))
    return view
